"""mha: multi-head attention computed exactly, explained step by step, checked number by number.

>>> import mha
>>> t = mha.trace(mha.DOCUMENT_EXAMPLE)
>>> t.Y[0].round(4)
array([[0.8022, 0.5989, 0.5035, 0.2483],
       [0.5989, 0.8022, 0.2483, 0.5035],
       [0.7517, 0.7517, 0.3333, 0.3333]])
"""

from .core import attention, head_attention, merge_heads, split_heads, trace
from .examples import DOCUMENT_EXAMPLE, random_example
from .explanation import Explanation, explain
from .inputs import Config, MHAInputError, parse_config
from .hf import from_hf
from .interop import from_torch
from .trace import Trace

__all__ = [
    "trace", "attention", "head_attention", "split_heads", "merge_heads", "from_torch", "from_hf",
    "explain", "Explanation",
    "Trace", "Config", "MHAInputError", "parse_config", "DOCUMENT_EXAMPLE", "random_example",
]
__version__ = "0.1.0"
