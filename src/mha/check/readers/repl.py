"""A Python REPL transcript pasted as text: `>>> dA` (or `>>> print(dA)`) and then the array it echoed.  The
prompt's expression names the array printed under it, as an IPython prompt names its Out[n] (text.py).

Only gradients (and D, the Jacobian, the target: gradients.py) are named this way for now: a forward name would
also make an array that no configuration explains a finding rather than "not checked" (a transcript of random
tensors, `>>> qkt = torch.randn(...)`), which the forward's readers decide on their own terms."""

from __future__ import annotations

import re

from ..gradients import grad_name
from ..objects import Document

_ECHO = re.compile(r"^\s*>>>\s*(?:print\(\s*)?([A-Za-z_][\w.]*(?:\[[^\]]*\])?)\s*\)?\s*$")


def label_echoes(doc: Document, text: str) -> None:
    """Give each unlabelled array that starts on the line after `>>> NAME` the label NAME, NAME a gradient's."""
    if doc.format == "ipynb" or ">>>" not in text:
        return
    names = {k + 2: m.group(1) for k, line in enumerate(text.split("\n")) for m in [_ECHO.match(line)]
             if m and grad_name(m.group(1)) is not None}
    for a in doc.arrays:
        name = names.get(a.place.line) or names.get(a.line)
        if name and not a.label:
            a.label, a.labels = name, [name]
