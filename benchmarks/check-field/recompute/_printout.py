"""Numbers of a notebook printout that wraps over several lines (a NumPy or torch array of many columns): the
tokens in reading order with the place of each, for the recompute scripts of set K."""
from __future__ import annotations

import re

NUM = re.compile(r"-?\d+\.\d*(?:[eE][-+]?\d+)?|-?\d+(?:[eE][-+]?\d+)?")


def tokens(T, cell: int, first: int, count: int) -> list[tuple[tuple, str]]:
    """count numeric tokens of cell's output, from its output line `first` on, as ((cell, line, True), token)."""
    out, ln = [], first
    while len(out) < count:
        text = T.lines.get((cell, ln, True))
        if text is None:
            raise SystemExit(f"{T.id}: cell {cell} output ends before {count} numbers ({len(out)} read)")
        text = re.sub(r"-?inf", " ", text)
        for m in NUM.finditer(text):
            out.append(((cell, ln, True), m.group().rstrip(".") if m.group().endswith(".") else m.group()))
        ln += 1
    return out[:count] if len(out) == count else _too_many(T, cell, first, count, out)


def _too_many(T, cell, first, count, out):
    raise SystemExit(f"{T.id}: cell {cell} from line {first}: {len(out)} numbers where {count} were expected")


def judge(T, cell: int, first: int, exact, what: str, tol: float, role: str = "derived") -> None:
    """Record every number of a printout against exact (flattened, NaN/inf entries left out), right when within tol."""
    import numpy as np
    flat = [float(x) for x in np.asarray(exact, float).ravel() if np.isfinite(x)]
    for k, (at, tok) in enumerate(tokens(T, cell, first, len(flat))):
        T.num(tok, flat[k], f"{what}[{k + 1}]", at, role=role, correct=abs(float(tok) - flat[k]) <= tol)
