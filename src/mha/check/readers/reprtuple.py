"""A notebook cell that ends in `x.shape, x` shows a tuple: `((3, 4),\\n array([[...]]))`.

Jupyter prints the tuple's repr, so the array sits inside parentheses after its shape (or after another array:
`exp_scores, exp_scores.sum(axis=1)`).  The arrays are read one by one, as if each had been shown alone; the
shapes beside them say nothing the arrays do not.
"""

from __future__ import annotations

from .tokens import Tok


def split_repr_tuple(stmt: list[Tok]) -> list[list[Tok]]:
    """The `array(...)` / `tensor(...)` elements of a tuple's repr, or the statement as it is."""
    core = [t for t in stmt if t.kind != "SEP"]
    if len(core) < 4 or not (core[0].kind == "OP" and core[0].text == "(" and core[-1].kind == "OP"
                             and core[-1].text == ")"):
        return [stmt]
    pieces: list[list[Tok]] = [[]]
    depth = 0
    for k, t in enumerate(core[1:-1], 1):
        if t.kind == "OP" and t.text in "[(":
            depth += 1
        elif t.kind == "OP" and t.text in "])":
            depth -= 1
            if depth < 0:
                return [stmt]              # the first "(" closes before the end: not one tuple
        if depth == 0 and t.kind == "OP" and t.text == ",":
            pieces.append([])
            continue
        pieces[-1].append(t)
    arrays = [p for p in pieces if p and p[0].kind == "ID" and p[0].text in ("array", "tensor")]
    return arrays if depth == 0 and len(pieces) >= 2 and arrays else [stmt]
