"""mha: multi-head attention computed exactly, explained step by step, checked number by number.

>>> import mha
>>> t = mha.trace(mha.DOCUMENT_EXAMPLE)
>>> t.Y[0].round(4)
array([[0.8022, 0.5989, 0.5035, 0.2483],
       [0.5989, 0.8022, 0.2483, 0.5035],
       [0.7517, 0.7517, 0.3333, 0.3333]])
"""

from .core import head_attention, merge_heads, split_heads
from .examples import DOCUMENT_EXAMPLE, EXAMPLES, random_example
from .inputs import Config, MHAInputError, parse_config
from .trace import Trace, trace

__all__ = [
    "trace", "attention", "forward", "attention_backward", "forward_backward", "head_attention", "split_heads", "merge_heads", "from_torch", "from_hf", "explain",
    "Explanation",
    "Trace", "Config", "MHAInputError", "parse_config", "DOCUMENT_EXAMPLE", "EXAMPLES", "random_example",
]
__version__ = "0.1.0"

# Imported on first use: the explanation and the torch interop (so `import mha` stays NumPy-only), and the
# fast path with its thread pool (the CLI's start-up does not need it).
_LAZY = {"explain": "render", "Explanation": "explanation", "from_torch": "interop", "attention": "attend",
         "forward": "attend", "from_hf": "hf", "attention_backward": "grad", "forward_backward": "grad"}


def load_ipython_extension(ipython) -> None:
    """`%load_ext mha` in IPython or Jupyter: adds `%mha_check` (see mha.notebook_magic, imported only here)."""
    from . import notebook_magic
    notebook_magic.load_ipython_extension(ipython)


def __getattr__(name: str):
    if name in _LAZY:
        import importlib
        value = globals()[name] = getattr(importlib.import_module(f".{_LAZY[name]}", __name__), name)
        return value            # kept as a module attribute: later look-ups (every mha.attention call) skip this
    raise AttributeError(f"module 'mha' has no attribute {name!r}")
