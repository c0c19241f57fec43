"""A module's parameters as torch prints them: `print(mha.state_dict())` (an OrderedDict of named tensors) and
`for name, p in mha.named_parameters(): print(name, p)` ("in_proj_weight Parameter containing:" then the tensor).

Each weight becomes an array named by its parameter name, which the label vocabulary reads (`q_proj.weight` is
W_Q, `out_proj.weight` is W_O).  torch's `nn.Linear` computes x Wᵀ, so these are the weights transposed; the search
offers both layouts and the document's printed outputs decide.  `nn.MultiheadAttention` packs W_Q, W_K and W_V
into one `in_proj_weight` of shape [3E, E]: it is read as its three [E, E] blocks, named `q_proj.weight`,
`k_proj.weight` and `v_proj.weight`, each with the lines of its own rows.  Biases are not part of the
configurations searched: their printouts are set aside rather than read as some other quantity.
"""

from __future__ import annotations

import re

from ..numbers import Num
from ..objects import Array, Place
from .common import Segment, copy_context

_OPEN = re.compile(r"\(\s*'(?P<a>[A-Za-z_][\w.]*)'\s*,\s*(?:Parameter containing:\s*)?tensor\(\s*\[|"
                   r"(?m:^[ \t]*(?P<b>[A-Za-z_][\w.]*(?:weight|bias)))[ \t]+(?:Parameter containing:\s*)?"
                   r"tensor\(\s*\[")
_NUMBER = re.compile(r"[-+]?(?:\d+\.?\d*|\.\d+)(?:[eE][-+]?\d+)?|[-+]?inf|nan")
_PACKED = ("q_proj.weight", "k_proj.weight", "v_proj.weight")
MAX_PARAMETER = 4096          # entries: a worked example's module is tiny; a real model's weights are not read


def _block_end(text: str, start: int) -> int | None:
    """The index just past the bracket that closes the one at `start`."""
    depth = 0
    for i in range(start, len(text)):
        c = text[i]
        if c == "[":
            depth += 1
        elif c == "]":
            depth -= 1
            if depth == 0:
                return i + 1
        elif c.isalpha() and c not in "eEinfa":
            return None
    return None


def _rows(text: str, start: int, end: int, seg: Segment) -> list[list[Num]] | None:
    rows = []
    for m in re.finditer(r"\[([^\[\]]*)\]", text[start:end]):
        nums = []
        for n in _NUMBER.finditer(m.group(1)):
            try:
                nums.append(Num.parse(n.group(0), seg.line_of(start + m.start(1) + n.start())))
            except ValueError:
                return None
        rows.append(nums)
    if not rows or any(len(r) != len(rows[0]) or not r for r in rows):
        return None
    return rows


def read_parameters(seg: Segment, b) -> Segment:
    """Read the named parameter tensors of an output segment into b.doc.arrays; the segment comes back with them
    blanked (lines kept), so that the ordinary reading does not take them again."""
    if "tensor(" not in seg.text or not _OPEN.search(seg.text):
        return seg
    text = seg.text
    blank = list(text)
    for m in _OPEN.finditer(text):
        name = m.group("a") or m.group("b")
        bracket = m.end() - 1
        end = _block_end(text, bracket)
        if end is None:
            continue
        rows = _rows(text, bracket, end, seg)
        for i in range(m.start(), end):
            if blank[i] != "\n":
                blank[i] = " "
        if rows is None or name.endswith("bias") or len(rows) * len(rows[0]) > MAX_PARAMETER:
            continue
        parts = [(name, rows)]
        E = len(rows[0])
        if name.split(".")[-1] == "in_proj_weight" and len(rows) == 3 * E:
            prefix = name[: -len("in_proj_weight")]
            parts = [(prefix + p, rows[k * E:(k + 1) * E]) for k, p in enumerate(_PACKED)]
        for label, part in parts:
            b.doc.arrays.append(Array(part, Place(part[0][0].line, seg.cell, "output"), label, [label],
                                      style="torch", context=copy_context(b.ctx)))
    out = Segment("".join(blank), seg.line, seg.where, seg.cell, seg.line_map)
    if getattr(seg, "result", False):
        out.result = True
    return out
