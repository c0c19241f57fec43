"""Printout chains: a matrix printed, then the same matrix after a mask, then its softmax, one after another in
one code block or cell ("scores", "after the causal mask", "weights").  Each link states a relation whatever the
configuration: the masked copy keeps every unmasked entry of the matrix before it, and the weights are the
row-wise softmax of the (masked) scores printed just before them.  So the links are judged against each other,
as an arithmetic line is against its own terms, and not against the inferred trace (a document often prints such
a chain from random inputs that no configuration of the rest of the document explains).

Identity before verdict: a link is a claim only when most of its entries (two thirds, and at least four) agree
with the relation; then the few that do not are findings.  Which side is wrong: in a softmax row, one wrong
weight changes one entry, a wrong score changes the whole row, so a row with one disagreeing weight names the
weight and a row with several names nothing (unless the scores' own copy shows the slip); in a copy pair the
later printout is the derived one (it was computed from the one before it), unless the softmax after it follows
from its values rather than from the earlier ones."""

from __future__ import annotations

import math
import re
from dataclasses import dataclass, field, replace

import numpy as np

from ..infer import Obj
from ..model import half_units
from ..report import Finding
from .common import _simple_kind, configured, entry_finding
from .renorm import judge_renorm, renorm_of
from .scaledcall import scaled_softmax_of
from .slippedscore import MIN_OTHERS, plausible_slip, score_finding, slipped_score
from .softmax import weights_judged
from .wholesoftmax import judge_whole_softmax, whole_softmax_of

_BACK = 4            # how many printed arrays back the matrix before a link may stand (skipping mask buffers)
_GAP = 40            # lines
_AGAIN = "of the matrix printed again at line"
_STEP = "scale"       # the mask is applied in the scale step (labels.STEP["mask"]), the step a copy pair belongs to


@dataclass
class PrintChainClaim:
    y: Obj                         # the masked copy, or the weights
    x: Obj                         # the matrix before it
    kind: str                      # "copy" or "softmax"
    named: bool = False            # the text says so: "A = softmax(S_scaled)" just before the weights
    before: "PrintChainClaim | None" = None     # for weights: the copy link of their scores, if any
    wrong: dict = field(default_factory=dict)    # copy links: (row, col) -> blame ("y" or "x")
    after: "Obj | None" = None     # copy links: the weights printed next, computed from y
    labelled: bool = False         # weights: the two printouts' own names are the link ("QKᵀ/√2 = [..]", "α = [..]")


def print_chains(objs: list[Obj], skip: set[int], chains: list = (), hints: list = ()) -> list[PrintChainClaim]:
    # (a literal typed for a name the code computed just before is the author's setting, no link of a chain)
    grids = [o for o in objs if o.val is not None and not o.a.elided and o.val.size >= 3 and not o.a.retyped
             and not o.a.retyped_later]
    # (a value a constructor makes, `torch.ones_like(v) / 10`, is one the code sets: never the weights of a chain)
    made = {o.a.id for o in grids if o.a.made}
    out: list[PrintChainClaim] = []
    copies: dict[int, PrintChainClaim] = {}
    for k, y in enumerate(grids):
        if y.a.id in made:
            continue
        if y.val.size < 4:
            # three weights: a link only where the code names it (`F.softmax(scores.float(), dim=0)` after scores)
            x = _called_on(grids, k, hints) if y.a.id not in skip else None
            if x is not None:
                out.append(PrintChainClaim(y, x, "softmax", True))
            elif y.a.id not in skip and (got := _defined_on(grids, k, hints, named=True)) is not None:
                out.append(PrintChainClaim(got[1], got[0], "softmax", True))    # y = softmax(x), then y printed
            continue
        x = _before(grids, k)
        if x is not None and _assigned_between(x, y, hints):
            x = None                              # `x[:, 3] = -1.0` between them: y is not computed from that x
        if y.a.id in skip:
            if x is not None and x.a.id in copies and _is_softmax(x, y):
                copies[x.a.id].after = y          # judged by another claim, still the witness of the copy pair
            continue
        if x is None or not (_is_copy(x, y) or _is_softmax(x, y, _said_softmax(x, y, chains))):
            before = x
            x = _called_on(grids, k, hints)
            if x is not None:
                out.append(PrintChainClaim(y, x, "softmax", True))
                continue
            got = _defined_on(grids, k, hints)
            if got is not None:
                out.append(PrintChainClaim(got[1], got[0], "softmax", True))
                continue
            if before is not None and _labelled_softmax(before, y):
                out.append(PrintChainClaim(y, before, "softmax", True, labelled=True))
                continue
            x = whole_softmax_of(grids, k, softmax_box, _halves, _widened)      # every entry over the sum of all of them (claims/wholesoftmax.py)
            if x is not None:
                out.append(PrintChainClaim(y, x, "whole"))
                continue
            # `w = softmax(scores / keys.shape[-1]**0.5)` printed after `scores` (claims/scaledcall.py)
            scaled = scaled_softmax_of(grids, k, _softmax_agreement, _is_softmax)
            if scaled is not None:
                out.append(PrintChainClaim(y, scaled[0], "softmax", scaled[1]))
                continue
            x = renorm_of(grids, k)             # `m / m.sum(dim=-1, keepdim=True)` printed after m (claims/renorm.py)
            if x is not None:
                out.append(PrintChainClaim(y, x, "renorm"))
            continue
        if _is_copy(x, y):
            c = PrintChainClaim(y, x, "copy")
            copies[y.a.id] = c
            out.append(c)
        elif _is_softmax(x, y, named := _said_softmax(x, y, chains)):
            before = copies.get(x.a.id)
            if before is not None:
                before.after = y
            out.append(PrintChainClaim(y, x, "softmax", named, before))
    return out


def _held_by_the_configuration(judge, y: Obj) -> np.ndarray | None:
    """Which entries of the weights y agree with the configuration that identifies them (its plan's agreement, in y's
    layout); None when the configuration does not identify them."""
    if configured(judge, y) is None:
        return None
    return np.asarray(judge.plans[y.a.id]["hit"].ok, dtype=bool)


def _before(grids: list[Obj], k: int) -> Obj | None:
    y = grids[k]
    for x in reversed(grids[max(0, k - _BACK):k]):
        if x.a.place.cell != y.a.place.cell or not 0 < y.a.line - x.a.line <= _GAP:
            return None
        if x.val.shape == y.val.shape and x.slices == y.slices and not _mask_like(x):
            return x
    return None


def _called_on(grids: list[Obj], k: int, hints: list = ()) -> Obj | None:
    """The printout y's own name applies softmax to: `softmax(attn_scores)` printed after `attn_scores`, in a cell or
    two before (a notebook prints each in its own cell); None unless its values are weights, or when code between
    the two gives the name new values (`x = torch.arange(...)`, `x[~mask] = 0`: the softmax is of those)."""
    y = grids[k]
    for x in reversed(grids[max(0, k - _BACK):k]):
        if not x.a.label or x.val.shape != y.val.shape or x.slices != y.slices or _assigned_between(x, y, hints):
            continue
        call = r"(?:[\w.]+\.)?softmax\(\s*" + re.escape(x.a.label.strip()) + r"\s*(?:,[^()]*)?\)"
        if any(re.fullmatch(call, _CASTS.sub("", n.strip())) for n in {y.a.label, *y.a.labels}) \
                and _is_softmax(x, y, True):
            return x
    return None


def _defined_on(grids: list[Obj], k: int, hints: list = (), named: bool = False) -> tuple[Obj, Obj] | None:
    """The printout y is a name the code binds to the softmax of another (`w = torch.softmax(logits, dim=-1)`, then
    `w` shown), and `logits` (or its batch element `logits[0]`) is printed before it: (x, y), where y is cut to its
    first batch element when only that element's scores are printed; None unless the weights are theirs (for three
    weights or fewer, `named`: the code's words are the identity, as for `print(softmax(x))`)."""
    y = grids[k]
    names = [n.strip() for n in [y.a.label or ""] + y.a.labels if re.fullmatch(r"[A-Za-z_]\w*", n.strip())]
    calls = [h.value[1] for h in hints if h.kind == "define" and h.value[0].strip() in names and
             h.place.run_order < y.a.place.run_order]
    m = re.fullmatch(r"(?:[\w.]+\.)?softmax\(\s*([A-Za-z_]\w*)\s*(?:,[^()]*)?\)", _CASTS.sub("", calls[-1].strip())) \
        if calls else None
    if m is None:
        return None
    for x in reversed(grids[max(0, k - _BACK):k]):
        label = (x.a.label or "").strip()
        if x.slices != 1 or label not in (m.group(1), m.group(1) + "[0]"):
            continue
        ys = y
        if y.slices > 1 and label.endswith("[0]") and x.val.shape == y.slice_shape:
            r = y.slice_shape[0]                 # logits[0] beside the weights of the whole batch: the first one
            ys = replace(y, val=y.val[:r], lo=y.lo[:r], hi=y.hi[:r], slices=1)
        if ys.val.shape == x.val.shape and _is_softmax(x, ys, named):
            return x, ys             # (most entries must agree: the code names the link, the values identify it)
    return None


def _assigned_between(x: Obj, y: Obj, hints: list) -> bool:
    """Code run after printout x and before printout y binds x's name again (`x = ...`, `x[~mask] = 0`)."""
    name = x.a.label.strip()
    if not re.fullmatch(r"[A-Za-z_][\w.]*", name):
        return False
    lo, hi = x.a.place.run_order, y.a.place.run_order
    return any(h.kind == "define" and re.fullmatch(rf"{re.escape(name)}\s*(?:\[.*\])?", h.value[0].strip())
               and lo < h.place.run_order < hi for h in hints)


# a cast or a copy inside the call keeps the values: softmax(scores.float()) is softmax(scores)
_CASTS = re.compile(r"\.(?:float|double|detach|clone|cpu|contiguous)\(\)")


def _mask_like(o: Obj) -> bool:
    v = o.val
    return bool(np.all(np.isin(v, (0.0, 1.0)) | np.isneginf(v)) or np.all(np.abs(v[np.isfinite(v)]) >= 1e3))


def _same(x: Obj, y: Obj) -> np.ndarray:
    eps = 1e-9
    return (y.lo <= x.hi + eps) & (x.lo <= y.hi + eps)


def _is_copy(x: Obj, y: Obj) -> bool:
    """y is x with some entries masked to -inf: its finite entries are x's (most of them)."""
    masked = np.isneginf(y.val)
    if not masked.any() or np.isneginf(x.val).any() or masked.all():
        return False
    fin = ~masked
    same = _same(x, y) & fin
    n, ok = int(fin.sum()), int(same.sum())
    # a copy differs by a slip, not by a few entries (a bias beside the biased scores agrees where QKᵀ is 0)
    return ok >= 4 and n - ok <= max(1, n // 8) and not _named_apart(x, y)


def _named_apart(x: Obj, y: Obj) -> bool:
    """Both printouts are named, and named as different quantities (B and S)."""
    if x.ref is None or y.ref is None or not (x.ref.strong and y.ref.strong):
        return False
    return set(x.ref.nodes).isdisjoint(y.ref.nodes)


def _rows_softmax(s: np.ndarray) -> np.ndarray:
    with np.errstate(invalid="ignore", over="ignore"):
        m = np.where(np.isfinite(s), s, -np.inf).max(axis=1, keepdims=True)
        e = np.where(np.isfinite(s), np.exp(s - m), 0.0)
        return e / e.sum(axis=1, keepdims=True)


def _said_softmax(x: Obj, y: Obj, chains) -> bool:
    """A line between the two printouts says y = softmax(x) in their own names (`A = softmax(S_scaled, dim=-1)`)."""
    if not x.a.label or not y.a.label or x.a.place.cell != y.a.place.cell:
        return False
    call = re.compile(r"softmax\s*\(\s*" + re.escape(x.a.label.strip()) + r"\s*[,)]")
    for c in chains:
        if c.place.cell != y.a.place.cell or not x.a.line < c.place.line <= y.a.line:
            continue
        texts = [getattr(p, "text", "") or "" for p in c.parts]
        if y.a.label.strip() in texts and any(call.search(t) for t in texts):
            return True
    return False


def _labelled_softmax(x: Obj, y: Obj) -> bool:
    """The printout before the weights is named the scaled scores (`QKᵀ/√2`, `S`) and the weights are named as
    such (`α`, `attention weights`), both strongly, and no other temperature makes the weights a softmax of those
    scores (a softmax of the unscaled scores printed as the scaled ones is a reading, not a slip): their names are
    the link, whatever the values.  The judge takes the link only where the weights match nothing of the inferred
    configuration and the scores do (`Judge._labelled_weights`)."""
    if x.ref is None or y.ref is None or not (x.ref.strong and y.ref.strong):
        return False
    if tuple(x.ref.nodes) != ("S",) or tuple(y.ref.nodes) != ("A",) or not _is_softmax(x, y, True):
        return False
    live = _live(x)
    if not live.any():
        return False
    lo, hi = _widened(y)
    for c in np.concatenate([_row_temperatures(x.val, y.val), np.geomspace(0.05, 20.0, 400), [1.0]]):
        pmin, pmax = softmax_box(x.val, _halves(x), float(c))
        ok = ((pmax >= lo - 1e-9) & (pmin <= hi + 1e-9)) & live
        if 3 * int(ok.sum()) >= 2 * int(live.sum()):
            return False
    return True


def _row_temperatures(s: np.ndarray, w: np.ndarray) -> list[float]:
    """The scale c that makes each row's weights softmax(c · s), by least squares of log w on s (a softmax of the
    scores before their printed scaling, c = √2, lies between the steps of a scan)."""
    out = []
    for i in range(s.shape[0]):
        ok = np.isfinite(s[i]) & (w[i] > 0)
        if ok.sum() >= 2 and np.ptp(s[i][ok]) > 0:
            c = float(np.polyfit(s[i][ok], np.log(w[i][ok]), 1)[0])
            if c > 0:
                out.append(c)
    return [float(np.median(out))] if out else []


def _is_softmax(x: Obj, y: Obj, named: bool = False) -> bool:
    v = y.val
    if not np.isfinite(v).all() or (v < 0).any() or np.isneginf(x.val).all(axis=1).any():
        return False
    off = np.abs(v.sum(axis=1) - 1.0) > 0.02 * v.shape[1]
    if off.any() and not _one_slipped_row(x, y, off):
        return False
    if np.isneginf(x.val).any() and np.any(v[np.isneginf(x.val)] != 0):
        return False
    if named:
        return True                          # identity from the words: every row is judged
    ok, n, bad = _softmax_agreement(x, y)
    if ok >= 4 and 3 * ok >= 2 * n:
        return True
    # a row whose weights all disagree because one of its scores slipped (claims/slippedscore.py) agrees but for it
    slipped = [i for i in range(bad.shape[0]) if bad[i].sum() >= 2 and _score_slip(x, y, i) is not None]
    if not slipped or len(slipped) > max(1, bad.shape[0] // 3):
        return False
    ok += sum(int(bad[i].sum()) for i in slipped)
    return ok >= 4 and 3 * ok >= 2 * n


def _score_slip(x: Obj, y: Obj, i: int, named: bool = False) -> tuple | None:
    """(index, value, least, greatest) of the one score of row i the weights say slipped; None if none does."""
    lo, hi = _widened(y)
    return slipped_score(x.val[i], _halves(x)[i], (lo[i] + hi[i]) / 2, (hi[i] - lo[i]) / 2, 1.0,
                         MIN_OTHERS if named else MIN_OTHERS + 1)


def _one_slipped_row(x: Obj, y: Obj, off: np.ndarray) -> bool:
    """One row of three or more does not add up to 1 because one of its weights is wrong (0.09 printed 0.90): every
    other entry of that row is the softmax of its scores, and every other row adds up."""
    if off.sum() != 1 or y.val.shape[0] < 3 or y.val.shape[1] < 2:
        return False
    i = int(np.nonzero(off)[0][0])
    _, _, bad = _softmax_agreement(x, y)
    return int(bad[i].sum()) == 1 and int(_live(x)[i].sum()) >= 3


def _live(x: Obj) -> np.ndarray:
    """Entries whose weight is not trivial: finite scores in a row with at least two of them."""
    fin = np.isfinite(x.val)
    return fin & (fin.sum(axis=1, keepdims=True) >= 2)


def _softmax_agreement(x: Obj, y: Obj) -> tuple[int, int, np.ndarray]:
    """(agreeing live entries, live entries, the disagreeing mask) of y against softmax(x)."""
    pmin, pmax = softmax_box(x.val, _halves(x))
    lo, hi = _widened(y)
    bad = ~((pmax >= lo - 1e-9) & (pmin <= hi + 1e-9)) & _live(x)
    live = _live(x)
    return int((live & ~bad).sum()), int(live.sum()), bad


def _halves(x: Obj) -> np.ndarray:
    """How far each printed score may lie from its value: its half-unit (0 for a masked entry)."""
    # no floor on the digits (half_units' default treats short prints as exact inputs): a printout in a chain is
    # itself computed, and 0.87 may stand for 1.5/√3; its rounding may move the weights by more than theirs
    half = half_units(x.a.rows, decimals_floor=0)
    if half is None or (x.a.place.where == "code" and x.a.place.cell is not None):
        return np.zeros_like(x.val)      # typed into a notebook's code (`torch.tensor([0.5, 1.5])`), run: exact
    return np.where(np.isfinite(x.val), half, 0.0) * (10.0 if _padded(x) else 1.0)


def softmax_box(s: np.ndarray, half: np.ndarray, scale: float = 1.0) -> tuple[np.ndarray, np.ndarray]:
    """(least, greatest) value each row's softmax(scale * s) takes while every score stays within its half-unit:
    exact, not a linear band.  Weight j grows with score j and falls with every other, so its least value is at
    s_j - h_j with the others at s_k + h_k, its greatest at the opposite corner.  A weight printed outside
    [least, greatest] follows from no scores the printed ones can stand for."""
    a = abs(scale)
    lo, hi = np.empty_like(s, dtype=float), np.empty_like(s, dtype=float)
    with np.errstate(invalid="ignore", over="ignore"):
        for j in range(s.shape[1]):
            sign = np.ones(s.shape[1])
            sign[j] = -1.0
            lo[:, j] = _rows_softmax(scale * s + a * half * sign)[:, j]
            hi[:, j] = _rows_softmax(scale * s - a * half * sign)[:, j]
    return lo, hi


def _padded(o: Obj) -> bool:
    nums = [n for n in o.a.numbers if np.isfinite(n.value)]
    return bool(nums) and all(n.decimals is not None and n.decimals >= 3 and n.text.rstrip().endswith("0")
                              for n in nums)


def _widened(y: Obj) -> tuple[np.ndarray, np.ndarray]:
    """The weights' intervals; a printout whose every entry ends in 0 (`x.round(decimals=3)` shown by torch with
    4 decimals) stands for values rounded one digit earlier."""
    if _padded(y):
        half = 5 * (y.hi - y.lo)            # ten half-units of the printed digit
        return y.val - half, y.val + half
    return y.lo, y.hi


def _follows(c: PrintChainClaim, i: int) -> str | None:
    """Which printout of a copy pair the weights printed after it follow in row i: "x" is blamed when they are the
    softmax of the masked copy's row and not of the earlier one's (the earlier printout holds the slip), "y" in
    the opposite case, None when they do not tell."""
    w = c.after
    if w is None:
        return None
    lo, hi = _widened(w)

    def fits(row: np.ndarray, k: int = i) -> bool:
        cut = np.isneginf(c.y.val[k])
        pmin, pmax = softmax_box(np.where(cut, -np.inf, row)[None, :], _halves(c.y)[k][None, :])
        return bool(np.all((pmax[0] >= lo[k] - 1e-9) & (pmin[0] <= hi[k] + 1e-9)))

    def fits_row(k: int) -> bool:      # a row where the copies agree: the weights are its softmax, or made up
        return not np.isfinite(c.y.val[k]).any() or fits(c.y.val[k], k)

    by_y, by_x = fits(c.y.val[i]), fits(c.x.val[i])
    if by_y != by_x and not all(fits_row(k) for k in range(c.y.val.shape[0]) if k != i):
        return None          # weights made up beside the scores (other rows not their softmax) tell nothing here
    return "x" if by_y and not by_x else ("y" if by_x and not by_y else None)


def _multiple_after(objs: list[Obj], c: PrintChainClaim, i: int, j: int) -> str | None:
    """Which copy a printout after both follows at (i, j) when it is one constant multiple of them everywhere else
    (the scores divided by √d_k printed next, or a third copy): "x" is blamed when it follows y's entry, "y" when it
    follows x's, None when none tells."""
    at = max((c.x.a.place.cell or 0, c.x.a.line), (c.y.a.place.cell or 0, c.y.a.line))
    agree = np.isfinite(c.x.val) & np.isfinite(c.y.val) & _same(c.x, c.y) & (np.abs(c.x.val) > 0.05)
    agree[i, j] = False
    for o in objs:
        if o is c.x or o is c.y or o.val is None or o.val.shape != c.y.val.shape or \
                (o.a.place.cell or 0, o.a.line) <= at:
            continue
        use = agree & np.isfinite(o.val)
        if use.sum() < 3 or not np.isfinite(o.val[i, j]):
            continue
        r = float(np.median(o.val[use] / c.x.val[use]))
        with np.errstate(invalid="ignore"):          # (-∞ minus -∞ where the copies are masked: not used)
            room = (o.hi - o.lo) / 2 + abs(r) * (c.x.hi - c.x.lo) / 2 + 1e-9
        if r <= 0 or not np.all(np.abs(o.val[use] - r * c.x.val[use]) <= room[use]):
            continue
        by_x = abs(o.val[i, j] - r * c.x.val[i, j]) <= room[i, j]
        by_y = abs(o.val[i, j] - r * c.y.val[i, j]) <= (o.hi[i, j] - o.lo[i, j]) / 2 + abs(r) * (
            c.y.hi[i, j] - c.y.lo[i, j]) / 2 + 1e-9
        if by_x != by_y:
            return "y" if by_x else "x"
    return None


class PrintChainJudging:
    """Judge methods for PrintChainClaim."""

    def judge_print_chain(self, c: PrintChainClaim) -> None:
        self.n_claims += 1
        if c.kind == "copy":
            self._judge_copy(c)
        elif c.kind == "renorm":
            self.n_claims -= 1
            judge_renorm(self, c.y, c.x)
        elif c.kind == "whole":
            judge_whole_softmax(self, c.y, c.x)
        elif not c.labelled or self._labelled_weights(c):
            self._judge_weights(c)
            weights_judged(self, c.y)      # checked against the scores printed before them (verdict.py)

    def _labelled_weights(self, c: PrintChainClaim) -> bool:
        """A link by names alone is judged only where the weights were left unchecked against the configuration
        (they match none of its values) while the scores before them were not: that note gives way to it."""
        def unchecked(o: Obj) -> list:
            return [n for n in self.not_checked if (n.line, n.cell) == (o.a.line, o.a.place.cell)]
        if not unchecked(c.y) or unchecked(c.x):
            self.n_claims -= 1
            return False
        return True

    def _judge_copy(self, c: PrintChainClaim) -> None:
        fin = ~np.isneginf(c.y.val)
        self.n_numbers += int(fin.sum())
        for i, j in zip(*np.nonzero(fin & ~_same(c.x, c.y))):
            told = c.wrong.get((int(i), int(j))) or _follows(c, int(i)) or self._copy_by_trace(c, int(i), int(j)) \
                or _multiple_after(self.objs, c, int(i), int(j))
            blame = told or "y"
            wrong, right = (c.y, c.x) if blame == "y" else (c.x, c.y)
            num, ref = wrong.a.rows[i][j], right.a.rows[i][j]
            # (when nothing after the copies tells which one holds the slip, the later is named, and the cause
            # says that either may be the wrong one)
            self._add_once(Finding(num.line or wrong.a.row_line(i), wrong.a.place.cell,
                                   f"entry [{i + 1},{j + 1}] {_AGAIN} "
                                   f"{right.a.row_line(i)}", num.text, float(ref.value), ref.text, _STEP,
                                   f"the same matrix printed at line {right.a.row_line(i)} has {ref.text} there"
                                   + ("" if told else "; nothing printed after them tells which copy is right"),
                                   _simple_kind(num, float(ref.value))))

    def _copy_by_trace(self, c: PrintChainClaim, i: int, j: int) -> str | None:
        """Which copy holds the slip by the configuration's own value of the entry (the scaled scores computed
        from the given Q and K), when the configuration identifies the copies: "x", "y" or None."""
        g = configured(self, c.x)
        g = g if g is not None else configured(self, c.y)
        exact = None if g is None else float(g[i, j])
        if exact is None or not math.isfinite(exact):
            return None
        nx, ny = c.x.a.rows[i][j], c.y.a.rows[i][j]
        in_x, in_y = nx.contains(exact), ny.contains(exact)
        if not in_x and not in_y:
            # both off (Q and K printed rounded: -0.2846 for -0.28453): the copy a unit from it is the page's value,
            # the other, many units away, holds the slip
            in_x, in_y = nx.contains(exact, 2 * nx.half), ny.contains(exact, 2 * ny.half)
            if in_x == in_y or abs((nx.value if in_y else ny.value) - exact) < 8 * max(nx.half, ny.half):
                return None
        return "y" if in_x and not in_y else ("x" if in_y and not in_x else None)

    def _judge_weights(self, c: PrintChainClaim) -> None:
        x, y = c.x, c.y
        ok, n, bad = _softmax_agreement(x, y)
        self.n_numbers += n
        p = _rows_softmax(x.val)
        held = _held_by_the_configuration(self, y)
        for i in range(bad.shape[0]):
            cols = np.nonzero(bad[i])[0]
            if not len(cols):
                continue
            if held is not None and held[i, cols].all():
                continue                     # the weights are the configuration's: the scores printed before them
                #                              (a reprint after masking, with a slip of its own) are the row off
            copy_row = c.before is not None and bool((~_same(c.before.x, x)[i] & np.isfinite(x.val[i])).any())
            if copy_row:
                self._blame_copy_row(c, i)
                continue
            got = _score_slip(x, y, i, c.named) if len(cols) >= 2 else None
            if got is not None and not plausible_slip(x.a.rows[i][got[0]], got[2], got[3], x.a.rows[i]):
                got = None                   # no slip of the pen gives that score: the weights are the likelier slip
            if got is not None:
                self._add_once(score_finding(x.a.rows[i][got[0]], x.a.row_line(i), x.a.place.cell,
                                             f"score {got[0] + 1} of the row at line {x.a.row_line(i)}", got,
                                             y.a.row_line(i)))
                continue
            if len(cols) != 1 and not c.named:
                continue                     # a whole row off: a score's slip or another scale, not a weight's
            if any(f.severity == "error" and (f.line, f.cell) == (x.a.row_line(i), x.a.place.cell)
                   for f in self.findings):
                continue                     # the scores' row is found wrong: the weights follow it, one slip
            where = f"line {x.a.row_line(i)}" if x.a.place.cell in (None, y.a.place.cell) else \
                f"cell {x.a.place.cell}, line {x.a.row_line(i)}"          # a notebook's scores in a cell before
            for j in cols:
                num = y.a.rows[i][j]
                exact = float(p[i, j])
                self._add_once(entry_finding(num, y.a.row_line(i), y.a.place.cell,
                                             f"softmax of {where}[{j + 1}]", exact, "softmax",
                                             f"the softmax of the scores printed at {where}"))

    def _blame_copy_row(self, c: PrintChainClaim, i: int) -> None:
        """The scores' row differs from its earlier printout: the weights say which printout they follow."""
        cp = c.before
        masked = np.isneginf(c.x.val[i])
        earlier = np.where(masked, -np.inf, cp.x.val[i])[None, :]
        lo, hi = _widened(c.y)
        pmin, pmax = softmax_box(earlier, _halves(c.x)[i][None, :])
        fits_earlier = bool(np.all((pmax[0] >= lo[i] - 1e-9) & (pmin[0] <= hi[i] + 1e-9)))
        if not fits_earlier:
            for j in np.nonzero(~_same(cp.x, c.x)[i] & ~masked)[0]:
                cp.wrong[(i, int(j))] = "x"        # the weights follow the copy: the earlier printout is off
            self._retract_copy(cp, i)

    def _retract_copy(self, cp: PrintChainClaim, i: int) -> None:
        lines = {cp.y.a.row_line(i)}
        self.findings = [f for f in self.findings if not (f.step == _STEP and f.line in lines and f.cell ==
                                                          cp.y.a.place.cell and _AGAIN in f.claim)]
        self._judge_copy_row(cp, i)

    def _judge_copy_row(self, cp: PrintChainClaim, i: int) -> None:
        fin = ~np.isneginf(cp.y.val[i])
        for j in np.nonzero(fin & ~_same(cp.x, cp.y)[i])[0]:
            if cp.wrong.get((i, int(j))) != "x":
                continue
            num, ref = cp.x.a.rows[i][j], cp.y.a.rows[i][j]
            self._add_once(Finding(num.line or cp.x.a.row_line(i), cp.x.a.place.cell,
                                   f"entry [{i + 1},{int(j) + 1}] {_AGAIN} "
                                   f"{cp.y.a.row_line(i)}", num.text, float(ref.value), ref.text, _STEP,
                                   f"the masked copy at line {cp.y.a.row_line(i)} and the weights after it have "
                                   f"{ref.text} there", _simple_kind(num, float(ref.value))))

    def _add_once(self, f: Finding) -> None:
        """A number another claim already found wrong is one finding.  Found against the trace, it is found here
        against the printout's own terms instead: that identity holds whatever the configuration, and survives a
        guess of X that nothing bears out (claims/guessed.py sets aside what rests on the trace)."""
        same = [g for g in self.findings if (g.line, g.cell, g.printed) == (f.line, f.cell, f.printed)]
        traced = getattr(self, "by_trace", [])
        if same and all(g.severity == "error" and any(g is t for t in traced) for g in same):
            # (kept as found, with its own cause, but no longer resting on the trace alone)
            self.own_terms_too = getattr(self, "own_terms_too", set()) | {id(g) for g in same}
        if same:
            return                       # or a note: it follows from a rounded value printed before it
        self.add(f)
