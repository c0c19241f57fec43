"""A printout computed, by a formula the code writes out, from a matrix printed a cell or two before it.

    masked = scores.masked_fill(mask.bool(), -torch.inf); print(masked)           (one cell)
    weights = torch.softmax(masked / keys.shape[-1]**0.5, dim=-1); print(weights)  (a later cell)

    row_sums = masked_w.sum(dim=-1, keepdim=True)
    w_norm = masked_w / row_sums; print(w_norm)                                     (after print(masked_w))

A notebook often works a second example this way (seeded weights that are never printed, so no configuration of
the document explains it), and a careful reader still checks it: the formula names the printout it is computed
from, and that printout is on the page.  So the result is judged against its own printed operand, as an
arithmetic line is against its own terms, whatever the inferred configuration.

The scale of `softmax(x / s)` is often an expression a reader cannot evaluate from the page (`keys.shape[-1]**0.5`
of keys never printed).  It is read from the printout itself: each row's log-ratios give it, their median
(robust to a slip) is snapped to √n or n for a whole n, and that value must then explain the printout.

Identity before verdict: a claim only when most live entries (two thirds, and at least four) agree with the
formula; then a row with one disagreeing entry names that entry, and a row with several names nothing (a wrong
operand row, or another formula).
"""

from __future__ import annotations

import math
import re
from dataclasses import dataclass
from typing import Callable

import numpy as np

from ..infer import Obj
from ..labels import STEP
from ..model import half_units
from ..readers.pyparse import literal_number, parse_code
from .common import configured, entry_finding
from .printchain import _rows_softmax, _widened, softmax_box
from .softmax import weights_judged

_BACK = 6                # how many printed arrays back the operand may stand
_CELLS = 6               # ... within this many notebook cells (markdown cells of notes between two code cells)
_LINES = 60              # ... or lines, in a document without cells
_NAME = r"[A-Za-z_]\w*"
_SOFTMAX = re.compile(rf"(?:[\w.]+\.)?softmax\(\s*({_NAME})\s*(?:([/*])\s*(.+?))?\s*(?:,\s*(?:dim|axis)\s*=\s*"
                      rf"(-?\d+)\s*)?\)")
_DIVIDE = re.compile(rf"({_NAME})\s*/\s*(.+)")
_SUM = re.compile(rf"(?:({_NAME})\.sum\(|(?:torch|np)\.sum\(\s*({_NAME})\b)")
_T = r"(\.T|\.transpose\(\s*-?\d+\s*,\s*-?\d+\s*\)|\.t\(\))?"
_MATMUL = [re.compile(rf"({_NAME}){_T}\s*@\s*({_NAME}){_T}"),
           re.compile(rf"(?:torch\.matmul|np\.matmul|np\.dot|torch\.mm)\(\s*({_NAME}){_T}\s*,\s*({_NAME}){_T}\s*\)"),
           re.compile(rf"({_NAME}){_T}\.dot\(\s*({_NAME}){_T}\s*\)")]


@dataclass
class FormulaClaim:
    y: Obj                   # the printout the formula computes
    x: Obj                   # its printed operand
    kind: str                # "softmax", "rownorm" or "matmul"
    scale: float             # softmax(scale · x); 1 for a row normalisation
    formula: str             # the right-hand side as written
    b: "Obj | None" = None   # matmul: the right operand (x is the left one)
    flip: tuple = (False, False)    # matmul: which operand is transposed
    down: bool = False       # softmax: taken down the columns (`dim=0` of a matrix), each column a distribution


def formula_claims(objs: list[Obj], hints: list, skip: set[int]) -> list[FormulaClaim]:
    defines = [h for h in hints if h.kind == "define"]
    grids = [o for o in objs if o.val is not None and not o.a.elided and o.val.size >= 4 and o.val.ndim == 2]
    out: list[FormulaClaim] = []
    for k, y in enumerate(grids):
        if y.a.id in skip or not y.a.label:
            continue
        rhs = _definition(y, defines)
        if rhs is None and any(_m.fullmatch(y.a.label.strip()) for _m in _MATMUL):
            rhs = y.a.label.strip()            # print(a @ b.T): the printout is named by its formula
        if rhs is None:
            continue
        c = _softmax_claim(y, rhs, grids[:k]) or _rownorm_claim(y, rhs, grids[:k], defines) or \
            _scale_claim(y, rhs, grids[:k], defines) or \
            _matmul_claim(y, rhs, [o for o in objs if o.val is not None and o.a.id != y.a.id
                                   and (o.a.place.cell or 0, o.a.line) <= (y.a.place.cell or 0, y.a.line)])
        if c is not None and not _from_dropped_copy(c):
            out.append(c)
    return out


def _from_dropped_copy(c: FormulaClaim) -> bool:
    """An operand found by its values to be weights after dropout (readers/dropvalues.py) while the printout is
    not marked so: the name was printed again after the code's own print, and which values it holds is unknown."""
    ops = [c.x.a] + ([c.b.a] if c.b is not None else [])
    return not c.y.a.context.dropout and any(a.context.dropped_copy for a in ops)


def _definition(y: Obj, defines: list) -> str | None:
    """The right-hand side of the last assignment to y's name in y's own cell (or, without cells, just above)."""
    names = {y.a.label.strip()} | {n.strip() for n in y.a.labels[1:]}   # print("Weights:", w): w's too
    best = None
    for h in defines:
        if h.value[0].strip() not in names:
            continue
        p = h.place
        if y.a.place.cell is not None:
            if p.cell != y.a.place.cell:
                continue
        elif not 0 < y.a.line - p.line <= _LINES:
            continue
        best = h.value[1]
    return best


def _names(x: Obj, name: str) -> bool:
    """Is the printout x named `name`?  print("Q:", q) names q's printout by its text and then the variable."""
    label = x.a.label.strip()
    return label == name or (len(label.split()) > 1 and label.split()[-1] == name) or \
        any(n.strip() == name for n in x.a.labels[1:])      # print("Weights:", w): named w by its code too


def _operand(y: Obj, name: str, before: list[Obj], same_shape: bool = True) -> Obj | None:
    """The latest printout named `name` a little before y, of y's shape."""
    for x in reversed(before[-_BACK:]):
        if not _names(x, name) or (same_shape and (x.val.shape != y.val.shape or x.slices != y.slices)):
            continue
        if y.a.place.cell is not None and x.a.place.cell is not None:
            if not 0 <= y.a.place.cell - x.a.place.cell <= _CELLS:
                return None
        elif not 0 < y.a.line - x.a.line <= _LINES:
            return None
        return x
    return None


def _last_axes(y: Obj) -> tuple[str, ...]:
    """How code names the printout's last axis (the rows judged here): -1, or its index (1 for a matrix, 2 for
    a batch of matrices)."""
    return ("-1", str(len(y.a.lead) + 1))


def _weights_like(y: Obj, down: bool = False) -> bool:
    v = y.val.T if down else y.val
    return bool(np.isfinite(v).all() and (v >= 0).all() and np.all(np.abs(v.sum(axis=1) - 1.0) <= 0.02 * v.shape[1]))


# ---------------------------------------------------------------- softmax(x / s)
def _softmax_claim(y: Obj, rhs: str, before: list[Obj]) -> FormulaClaim | None:
    m = _SOFTMAX.fullmatch(rhs.strip())
    if m is None or not (np.isfinite(y.val).all() and (y.val >= 0).all()):
        return None
    down = m.group(4) is not None and m.group(4) not in _last_axes(y) and y.val.shape[0] > 1
    if down and not (m.group(4) in ("0", "-2") and not y.a.lead and y.slices == 1):
        return None                           # an axis of a batch, or past the matrix's own two
    x = _operand(y, m.group(1), before)
    if x is None or np.isneginf(x.val).all(axis=0 if down else 1).any():
        return None
    if np.isneginf(x.val).any() and np.any(y.val[np.isneginf(x.val)] != 0):
        return None
    op, expr = m.group(2), (m.group(3) or "").strip()
    scale = 1.0 if not op else _written_scale(op, expr)
    if scale is None and not down:
        scale = _fitted_scale(x, y, op)
    if scale is None:
        return None
    c = FormulaClaim(y, x, "softmax", scale, rhs.strip(), down=down)
    ok, n, bad = _agreement(c)
    if not _weights_like(y, down) and bad.sum(axis=0 if down else 1).max() > 1:
        return None                           # a row that sums to 1 but for one slipped entry, nothing more
    # the code says what it is: all entries but one agreeing identify even a vector of four
    return c if (ok >= 4 and 3 * ok >= 2 * n) or (ok >= 3 and n - ok == 1) else None


def _written_scale(op: str, expr: str) -> float | None:
    """A scale written as a number (`/ 8`, `* 0.5`, `/ 2**0.5`, `/ math.sqrt(3)`); None for a name."""
    try:
        s = literal_number(parse_code(expr.strip(), mode="eval").body)
    except (SyntaxError, ValueError, RecursionError):
        return None
    if s is None or not s > 0 or not math.isfinite(s):
        return None
    return 1.0 / s if op == "/" else s


def _fitted_scale(x: Obj, y: Obj, op: str) -> float | None:
    """The factor c with y ≈ softmax(c·x), read from the printout's log-ratios and snapped to 1/√n or 1/n (a
    divisor) or √n or n (a factor), for a whole n up to 4096."""
    est = []
    for i in range(x.val.shape[0]):
        live = np.isfinite(x.val[i]) & (y.val[i] > 0)
        idx = np.nonzero(live)[0]
        if len(idx) < 2:
            continue
        top = idx[np.argmax(y.val[i, idx])]
        for j in idx:
            dx = x.val[i, top] - x.val[i, j]
            if j != top and abs(dx) > 1e-6 and y.val[i, j] > 0:
                est.append(np.log(y.val[i, top] / y.val[i, j]) / dx)
    if len(est) < 4:
        return None
    c = float(np.median(est))
    if not c > 0:
        return None
    s = 1.0 / c if op == "/" else c
    snaps = [(abs(np.sqrt(n) - s) / s, float(np.sqrt(n))) for n in (round(s * s),) if 1 <= n <= 4096]
    snaps += [(abs(n - s) / s, float(n)) for n in (round(s),) if 1 <= n <= 4096]
    if not snaps:
        return None
    err, snapped = min(snaps)
    if err > 0.05:
        return None
    return 1.0 / snapped if op == "/" else snapped


# ---------------------------------------------------------------- x / x.sum(dim=-1, keepdim=True)
def _rownorm_claim(y: Obj, rhs: str, before: list[Obj], defines: list) -> FormulaClaim | None:
    m = _DIVIDE.fullmatch(rhs.strip())
    if m is None or not _weights_like(y):
        return None
    name, divisor = m.group(1), m.group(2).strip()
    if not _sum_of(divisor, name, y, defines):
        return None
    x = _operand(y, name, before)
    if x is None or not np.isfinite(x.val).all() or (x.val < 0).any() or (x.val.sum(axis=1) <= 0).any():
        return None
    c = FormulaClaim(y, x, "rownorm", 1.0, rhs.strip())
    ok, n, _ = _agreement(c)
    return c if ok >= 4 and 3 * ok >= 2 * n else None


def _sum_of(divisor: str, name: str, y: Obj, defines: list) -> bool:
    """The divisor is the row sums of `name`: written in place, or a name assigned `name.sum(dim=-1, ...)`."""
    def is_row_sum(text: str) -> bool:
        s = _SUM.match(text.strip())
        axis = re.search(r"(?:dim|axis)\s*=\s*(-?\d+)", text)
        whole = y.val.shape[0] == 1 and re.fullmatch(rf"{_NAME}\.sum\(\)|(?:torch|np)\.sum\(\s*{_NAME}\s*\)",
                                                     text.strip())
        return bool(s and name in (s.group(1), s.group(2)) and ((axis and axis.group(1) in _last_axes(y)) or whole))
    if is_row_sum(divisor):
        return True
    if not re.fullmatch(_NAME, divisor):
        return False
    rhs = next((h.value[1] for h in reversed(defines) if h.value[0].strip() == divisor
                and (y.a.place.cell is None or h.place.cell == y.a.place.cell)), None)
    return rhs is not None and is_row_sum(rhs)


# ---------------------------------------------------------------- x / s
_SCALED = re.compile(rf"({_NAME})\s*([/*])\s*(.+)")


def _scale_claim(y: Obj, rhs: str, before: list[Obj], defines: list) -> FormulaClaim | None:
    """`scaled = scores / math.sqrt(d_k)` (or `* d_k ** -0.5`) with `scores` printed a little before: each entry is the
    operand's times one factor, written as a number or read from the printouts (their median ratio, snapped to 1/√n
    or 1/n for a whole n).  Only a divisor or factor that is no array's name, and not the row sums (a
    normalisation, claims above)."""
    m = _SCALED.fullmatch(rhs.strip())
    if m is None or re.fullmatch(_NAME, m.group(3).strip()) and not re.search(r"d_?k|dim|scale", m.group(3)):
        return None
    name, op, expr = m.group(1), m.group(2), m.group(3).strip()
    if _sum_of(expr, name, y, defines) or "sum" in expr or "@" in expr or "matmul" in expr:
        return None
    x = _operand(y, name, before)
    if x is None or not (np.isfinite(x.val).all() and np.isfinite(y.val).all()):
        return None
    scale = _written_scale(op, expr)
    if scale is None:
        scale = _ratio_scale(x, y)
    if scale is None or scale == 1.0:
        return None
    c = FormulaClaim(y, x, "scale", scale, rhs.strip())
    ok, n, _ = _agreement(c)
    return c if ok >= 4 and 3 * ok >= 2 * n else None


def _ratio_scale(x: Obj, y: Obj) -> float | None:
    """The factor y / x most entries share, snapped to 1/√n or 1/n for a whole n up to 4096 (within 1%)."""
    half = half_units(x.a.rows, decimals_floor=0)
    big = np.abs(x.val) > 20 * (np.zeros_like(x.val) if half is None else half) + 1e-12
    if big.sum() < 4:
        return None
    r = float(np.median(y.val[big] / x.val[big]))
    if not 0 < r < 1:
        return None
    for s in (1 / np.sqrt(round(1 / r ** 2)), 1 / round(1 / r)):
        if 1 <= round(1 / s ** 2) <= 4096 * 4096 and abs(s - r) <= 0.01 * r:
            return float(s)
    return None


# ---------------------------------------------------------------- a @ b.T
def _matmul_claim(y: Obj, rhs: str, before: list[Obj]) -> FormulaClaim | None:
    """y = a @ b (either transposed) with both operands printed a little before y, as plain matrices."""
    return matmul_of(y, rhs, lambda name: _operand(y, name, before, same_shape=False))


def matmul_of(y: Obj, rhs: str, printout: Callable[[str], Obj | None]) -> FormulaClaim | None:
    """y = a @ b, its operands the printouts `printout` finds by name: the claim when most entries agree."""
    m = next((m for m in (p.fullmatch(rhs.strip()) for p in _MATMUL) if m is not None), None)
    if m is None or y.slices != 1 or not np.isfinite(y.val).all():
        return None
    a, b = printout(m.group(1)), printout(m.group(3))
    if a is None or b is None or a.slices != 1 or b.slices != 1:
        return None
    if not (np.isfinite(a.val).all() and np.isfinite(b.val).all()):
        return None
    flip = (bool(m.group(2)), bool(m.group(4)))
    av, bv = (a.val.T if flip[0] else a.val), (b.val.T if flip[1] else b.val)
    if bv.shape[0] == 1 and av.shape[1] == bv.shape[1] and y.val.shape == (av.shape[0], 1) and not flip[1]:
        bv, flip = bv.T, (flip[0], True)          # a vector printed as a row, used as a column
    if av.shape[1] != bv.shape[0] or (av.shape[0], bv.shape[1]) != y.val.shape or av.shape[1] < 2:
        return None
    c = FormulaClaim(y, a, "matmul", 1.0, rhs.strip(), b, flip)
    ok, n, _ = _agreement(c)
    # the code names both factors: all entries but one agreeing identify even a 2×2 product
    return c if (ok >= 4 and 3 * ok >= 2 * n) or (ok >= 3 and n - ok == 1) else None


def _halves(o: Obj, flip: bool) -> np.ndarray:
    h = half_units(o.a.rows, decimals_floor=0)
    h = np.zeros_like(o.val) if h is None else h
    return h.T if flip else h


# ---------------------------------------------------------------- judging
def _operand_halves(x: Obj) -> np.ndarray:
    """How far each printed entry of the operand may lie from its value: its half-unit."""
    half = half_units(x.a.rows, decimals_floor=0)
    return np.zeros_like(x.val) if half is None else np.where(np.isfinite(x.val), half, 0.0)


def _expected(c: FormulaClaim) -> tuple[np.ndarray, np.ndarray]:
    """What the formula gives from the printed operand, and how far the operand's rounding may move it."""
    if c.kind == "matmul":
        a, b = (c.x.val.T if c.flip[0] else c.x.val), (c.b.val.T if c.flip[1] else c.b.val)
        if b.shape[0] != a.shape[1]:
            b = b.T                                # the row vector used as a column (_matmul_claim)
        ha, hb = _halves(c.x, c.flip[0]), _halves(c.b, c.flip[1])
        hb = hb if hb.shape == b.shape else hb.T
        return a @ b, 1.25 * (np.abs(a) @ hb + ha @ np.abs(b) + ha @ hb)
    x = c.x.val
    half = _operand_halves(c.x)
    if c.kind == "scale":
        return c.scale * x, 1.25 * abs(c.scale) * half
    if c.kind == "softmax":
        if c.down:
            x, half = x.T, half.T
        p = _rows_softmax(c.scale * x)
        band = np.zeros_like(p)
        for i in range(p.shape[0]):
            band[i] = 1.25 * abs(c.scale) * np.abs(np.diag(p[i]) - np.outer(p[i], p[i])) @ half[i]
        return (p.T, band.T) if c.down else (p, band)
    s = x.sum(axis=1, keepdims=True)
    p = x / s
    band = 1.25 * (half / s + x / s ** 2 * half.sum(axis=1, keepdims=True))
    return p, band


def _live(c: FormulaClaim) -> np.ndarray:
    """Entries that are not trivial: a row with at least two entries left (not masked, not zero)."""
    if c.kind == "matmul":
        return np.ones(c.y.val.shape, dtype=bool)
    if c.kind == "scale":
        return np.isfinite(c.x.val)
    fin = np.isfinite(c.x.val) & (c.x.val != 0 if c.kind == "rownorm" else True)
    return fin & (fin.sum(axis=0 if c.down else 1, keepdims=True) >= 2)


def _agreement(c: FormulaClaim) -> tuple[int, int, np.ndarray]:
    lo, hi = _widened(c.y)
    live = _live(c)
    if c.kind == "softmax":                  # exact over the operand's rounding, not a linear band
        half = _operand_halves(c.x)
        t = (lambda v: v.T) if c.down else (lambda v: v)
        pmin, pmax = (t(v) for v in softmax_box(t(c.x.val), t(half), c.scale))
        bad = ~((pmax >= lo - 1e-9) & (pmin <= hi + 1e-9)) & live
        return int((live & ~bad).sum()), int(live.sum()), bad
    p, band = _expected(c)
    bad = ~((p >= lo - band - 1e-9) & (p <= hi + band + 1e-9)) & live
    return int((live & ~bad).sum()), int(live.sum()), bad


def _operand_lines(c: FormulaClaim, i: int) -> set:
    """(cell, line) of the operand rows the entry in row i is worked from: the left operand's row i (a softmax's or
    a normalisation's row, or the whole operand when taken down the columns), and every row of a product's right
    operand."""
    x = c.x.a
    rows = range(len(x.rows)) if c.down else [i]
    out = {(x.place.cell, x.row_line(k)) for k in rows if k < len(x.rows)}
    if c.b is not None:
        out |= {(c.b.a.place.cell, c.b.a.row_line(k)) for k in range(len(c.b.a.rows))}
    return out


def _lone_misses(c: FormulaClaim, bad: np.ndarray) -> list[tuple[int, int]]:
    """(row, column) of each entry that is the only one off in its distribution (a row, or a column of a softmax
    taken down the columns); a whole distribution off is the operand's, or another formula."""
    groups = bad.T if c.down else bad
    out = []
    for g in range(groups.shape[0]):
        idx = np.nonzero(groups[g])[0]
        if len(idx) == 1:
            out.append((int(idx[0]), g) if c.down else (g, int(idx[0])))
    return out


class FormulaJudging:
    """Judge methods for FormulaClaim."""

    def _operand_found_wrong(self, c: FormulaClaim, i: int) -> bool:
        lines = _operand_lines(c, i)
        return any(f.severity == "error" and (f.cell, f.line) in lines for f in self.findings)

    def _operand_slipped(self, c: FormulaClaim, i: int, j: int) -> bool:
        """`scaled = sims / 2**0.5` off in one entry: where the configuration identifies both printouts and the
        scaled entry is its value while the operand's is not (`sims` printed 0.4081 for 0.4077, its scaled copy
        0.2883 right), the slip is the operand's: the finding goes there (t232a, a slipped copy)."""
        gy, gx = configured(self, c.y), configured(self, c.x)
        ey = None if gy is None else float(gy[i, j])
        ex = None if gx is None else float(gx[i, j])
        ny, nx = c.y.a.rows[i][j], c.x.a.rows[i][j]
        if ey is None and ex is not None and ny is not None and nx is not None:
            ey = _scaled_as_elsewhere(c, ex, i, j)
            if ey is None or not _exact_elsewhere(c.x, gx, i, j):
                return False
        # (the configuration's own values carry its inputs' rounding: within a unit is as good as holding)
        if ey is None or ex is None or nx is None or ny is None or abs(ny.value - ey) > 2 * ny.half + 1e-12 or \
                abs(nx.value - ex) <= 2 * nx.half + 1e-12:
            return False
        at = f"line {c.y.a.row_line(i)}" if c.y.a.place.cell is None else \
            f"cell {c.y.a.place.cell}, line {c.y.a.row_line(i)}"
        self._add_once(entry_finding(nx, c.x.a.row_line(i), c.x.a.place.cell, f"[{i + 1},{j + 1}] of the printout "
                                     f"scaled at {at}", ex, "scores",
                                     f"the scaled printout at {at} follows from the configuration's value, which"))
        return True

    def judge_formula(self, c: FormulaClaim) -> None:
        self.n_claims += 1
        if c.kind in ("softmax", "rownorm"):
            weights_judged(self, c.y)    # checked against its printed operand (verdict.py drops its "not checked")
        ok, n, bad = _agreement(c)
        self.n_numbers += n
        p, _ = _expected(c)
        what = {"softmax": "softmax", "rownorm": "row normalisation", "matmul": "product",
                "scale": "scaling"}[c.kind]
        step = "scale" if c.kind == "scale" else "softmax"
        if c.kind == "matmul":
            nodes = c.y.ref.nodes if c.y.ref is not None and c.y.ref.nodes else ("QKt",)
            # a product is never the softmax: weights named so (`attn_weights = q @ k.T`) hold the raw scores
            step = STEP.get(nodes[0], "scores") if STEP.get(nodes[0]) != "softmax" else "scores"
        for i, j in _lone_misses(c, bad):
            if c.kind == "matmul" and bad.shape[0] > 1 and bad[:, j].sum() != 1:
                continue                     # a whole column off: the right operand's column
            if self._operand_found_wrong(c, i):
                continue                     # its operand's row carries a finding: the product follows from that slip
            if c.kind == "scale" and self._operand_slipped(c, i, j):
                continue                     # the operand's entry is the slip, by the configuration's own values
            num = c.y.a.rows[i][j]
            exact = float(p[i, j])
            line = c.x.a.line if c.down else c.x.a.row_line(i)
            where = f"cell {c.x.a.place.cell}, line {line}" if c.x.a.place.cell is not None else f"line {line}"
            self._add_once(entry_finding(num, c.y.a.row_line(i), c.y.a.place.cell,
                                         f"[{i + 1},{j + 1}] of {c.formula}", exact, step,
                                         f"the {what} of the printout at {where} ({c.formula})"))


def _scaled_as_elsewhere(c: FormulaClaim, ex: float, i: int, j: int) -> float | None:
    """`res = res / np.sqrt(6)`, a scale the configuration does not use: the one factor that takes every other entry
    of the printed operand to its scaled copy, applied to the configuration's value of entry (i, j)."""
    x, y = np.asarray(c.x.val, dtype=float), np.asarray(c.y.val, dtype=float)
    if x.shape != y.shape:
        return None
    other = np.ones(x.shape, dtype=bool)
    other[i, j] = False
    other &= np.abs(x) > 1e-9
    if other.sum() < 2:
        return None
    r = y[other] / x[other]
    if np.ptp(r) > 1e-6 * abs(float(np.median(r))):
        return None
    return ex * float(np.median(r))


def _exact_elsewhere(x: Obj, g: np.ndarray | None, i: int, j: int) -> bool:
    """Does the configuration give every other entry of the operand to its printed last digit?  Then its inputs are
    exact as printed, and its value at (i, j) is the value, not a band (inputs rounded on purpose, np.around)."""
    if g is None:
        return False
    half = np.array([[n.half if n is not None else np.inf for n in r] for r in x.a.rows], dtype=float)
    ok = np.abs(np.asarray(x.val, dtype=float) - g) <= 2 * half + 1e-12
    ok[i, j] = True
    return bool(ok.all())
