"""A printout that is an earlier one divided by its row sums: the weights masked after the softmax and normalized
again, as a textbook does before it shows the -inf mask:

    masked_simple = attn_weights * mask_simple            # printed: zeros above the diagonal
    row_sums = masked_simple.sum(dim=-1, keepdim=True)
    masked_simple_norm = masked_simple / row_sums          # printed: each row sums to 1 again

The code names the matrix it divides and says it divides by that matrix's own row sums, so the link holds whatever
the configuration (a chain printed from random weights is judged as well).  Identity before verdict: most entries
that are not fixed (a row with one nonzero entry is 1 whatever its value) agree with x / Σ x, two thirds and at
least four; the rounding of the printed x widens each value by what it can move it.  A row with one disagreeing
entry names that entry; a row with several names the one entry of the earlier printout that explains them all
(x / Σ x keeps the ratios of the entries: claims/slippedscore.py), or nothing.
"""

from __future__ import annotations

import ast

import numpy as np

from ..infer import Obj
from ..model import half_units
from ..readers.pyparse import parse_code, sum_call
from .common import entry_finding
from .slippedscore import MIN_OTHERS, score_finding, slipped_score

_BACK = 4


def grids_of(objs: list[Obj]) -> list[Obj]:
    """The printouts a chain link may join (printchain.py's selection)."""
    return [o for o in objs if o.val is not None and not o.a.elided and o.val.size >= 4]


def renorm_ids(objs: list[Obj]) -> set[int]:
    """The printouts that are an earlier printout over its row sums: judged by that link, not by the trace."""
    grids = grids_of(objs)
    return {y.a.id for k, y in enumerate(grids) if y.a.source and renorm_of(grids, k) is not None}


def renorm_of(grids: list[Obj], k: int) -> Obj | None:
    """The earlier printout that printout k is the row-normalized copy of, or None."""
    y = grids[k]
    name = _divided_by_own_sum(y.a.source)
    if name is None:
        return None
    for x in reversed(grids[max(0, k - _BACK):k]):
        if x.a.label.strip() != name or x.val.shape != y.val.shape or x.slices != 1 or y.slices != 1:
            continue
        if not np.isfinite(x.val).all() or not np.isfinite(y.val).all():
            return None
        ok, n, bad, _ = agreement(x, y)
        # a row that disagrees because one entry of x slipped agrees but for it (_entry_slip)
        slipped = [i for i in range(bad.shape[0]) if bad[i].sum() >= 2 and _entry_slip(x, y, i) is not None]
        if len(slipped) <= max(1, bad.shape[0] // 3):
            ok += sum(int(bad[i].sum()) for i in slipped)
        return x if ok >= 4 and 3 * ok >= 2 * n else None
    return None


def divided_by_own_sum(source: str) -> tuple[str, int | None] | None:
    """(NAME, axis) for `NAME / NAME.sum(dim=-1, keepdim=True)`, `NAME / torch.sum(NAME, dim=1)` or `NAME /
    NAME.sum()` (axis None: the whole sum); None for anything else."""
    if not source or "/" not in source or "sum" not in source:
        return None
    try:
        node = parse_code(source.strip(), mode="eval").body
    except (SyntaxError, ValueError, RecursionError):
        return None
    if not isinstance(node, ast.BinOp) or not isinstance(node.op, ast.Div) or not isinstance(node.left, ast.Name):
        return None
    call = sum_call(node.right)
    if call is None or call[0] != node.left.id or call[1] is not None:
        return None
    return node.left.id, call[2]


def _divided_by_own_sum(source: str) -> str | None:
    """NAME for `NAME / NAME.sum(dim=-1, keepdim=True)`: a printout over its own row sums."""
    got = divided_by_own_sum(source)
    return got[0] if got is not None and got[1] == 1 else None


def agreement(x: Obj, y: Obj) -> tuple[int, int, np.ndarray, np.ndarray]:
    """(agreeing live entries, live entries, the disagreeing mask, x / Σ x) of y against x / its row sums."""
    s = x.val.sum(axis=1, keepdims=True)
    with np.errstate(invalid="ignore", divide="ignore"):
        p = np.where(s != 0, x.val / np.where(s != 0, s, 1.0), np.nan)
    half = half_units(x.a.rows, decimals_floor=0)
    half = np.zeros_like(x.val) if half is None else half
    band = np.zeros_like(p)
    for i in range(p.shape[0]):
        if s[i, 0] == 0:
            continue
        jac = (np.eye(p.shape[1]) - p[i][:, None]) / s[i, 0]       # d p_ij / d x_ik = (δ_jk - p_ij) / Σ
        band[i] = 1.25 * np.abs(jac) @ half[i]
    nonzero = x.val != 0
    live = nonzero & (nonzero.sum(axis=1, keepdims=True) >= 2) & np.isfinite(p)
    fits = (p >= y.lo - band - 1e-9) & (p <= y.hi + band + 1e-9)
    bad = live & ~fits
    return int((live & fits).sum()), int(live.sum()), bad, p


def judge_renorm(judge, y: Obj, x: Obj) -> None:
    """The entries of y that are not x's entry over its row sum (one per row at most)."""
    judge.n_claims += 1
    ok, n, bad, p = agreement(x, y)
    judge.n_numbers += n
    for i in range(bad.shape[0]):
        cols = np.nonzero(bad[i])[0]
        if len(cols) >= 2:
            _slipped_entry(judge, y, x, i)
        if len(cols) != 1:
            continue
        j = int(cols[0])
        num = y.a.rows[i][j]
        exact = float(p[i, j])
        judge._add_once(entry_finding(num, y.a.row_line(i), y.a.place.cell,
                                      f"entry [{i + 1},{j + 1}] of line {x.a.row_line(i)} over its row sum", exact,
                                      "softmax", f"the row printed at line {x.a.row_line(i)} divided by its sum"))


def _entry_slip(x: Obj, y: Obj, i: int) -> tuple | None:
    """Row i of y disagrees in several entries because one entry of x's row slipped: x / Σx keeps the ratios of the
    entries, as the softmax keeps the differences of the scores, so the scores' reasoning (claims/slippedscore.py)
    holds for the logarithms of the entries: (j, value, least, greatest) of that entry, or None.  The code names
    the link, so two other entries of the row are evidence enough."""
    v = x.val[i]
    h = (x.hi[i] - x.lo[i]) / 2
    with np.errstate(divide="ignore", invalid="ignore"):
        logs = np.where(v > 0, np.log(np.where(v > 0, v, 1.0)), -np.inf)
        rel = np.where(v > 0, h / np.where(v > 0, v, 1.0), 0.0)
    if np.any((v > 0) & (rel >= 0.5)):
        return None                     # an entry rounded to nothing it can be told from
    got = slipped_score(logs, rel, (y.lo[i] + y.hi[i]) / 2, (y.hi[i] - y.lo[i]) / 2, 1.0, MIN_OTHERS)
    return None if got is None else (got[0], *(float(np.exp(t)) for t in got[1:]))


def _slipped_entry(judge, y: Obj, x: Obj, i: int) -> None:
    """One finding, on x's entry, when that one entry explains the disagreeing row i of y (_entry_slip)."""
    got = _entry_slip(x, y, i)
    if got is not None:
        judge._add_once(score_finding(x.a.rows[i][got[0]], x.a.row_line(i), x.a.place.cell,
                                      f"entry [{i + 1},{got[0] + 1}] of the row at line {x.a.row_line(i)}", got,
                                      y.a.row_line(i), "the row at line {line} divided by its sum", "softmax"))
