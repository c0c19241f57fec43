"""What a start computes beyond its givens (helpers of search.py's gate): printouts named and mostly right, long
matches, all entries but one, and one query's scores named by their key."""

from __future__ import annotations

from .. import labels as lb
from ..objects import LabelPart
from .prepare import Obj

INPUTS = frozenset({"X", "Q", "K", "V", "Qh", "Kh", "Vh", "W_Q", "W_K", "W_V", "W_O", "Kc", "Vc"})


def named_mostly(o: Obj, hits: list, least: int = 4) -> int:
    """The entries of an object that its own label names (C ≈ [...] for the output) and that mostly match that
    intermediate, whole: a slip in one entry leaves the start computing the rest (two thirds, and at least four)."""
    nodes = set(o.ref.nodes) if o.ref is not None and o.ref.nodes else set()
    if least > 3 and o.a.numbers and all((n.decimals or 0) >= 3 for n in o.a.numbers):
        least = 3          # three entries to three decimals and more do not match by chance (a 2×2 with a slip)
    best = 0
    for h in hits:
        # (one query's page: its named row, `weights = [..]`, matched as a row of the weights)
        hows = ("full", "T", "stack", "row") if least <= 2 else ("full", "T", "stack")   # (stack: a batch, whole)
        if h.view is None or h.view.node in INPUTS or h.view.node not in nodes or h.how not in hows:
            continue
        if 3 * h.n_ok >= 2 * o.val.size and (h.n_ok >= least or (h.n_ok >= 3 and _long_matches(o, h) >= 6)):
            best = max(best, h.n_ok)
    return best


def _long_matches(o: Obj, h) -> int:
    """The decimals printed in the cells a view matches, the cells that print 0 or ±1 left out (a causal row's 1.0 and
    0.0 match any mask): `[[1.0, 0.0], [0.19575033, 0.80442965]]` checked against the weights by `allclose`
    matches in 0.80442965 with eight decimals, which no wrong reading does by chance."""
    nums = o.a.numbers
    if len(nums) != o.val.size:
        return 0
    return sum((n.decimals or 0) for n, ok in zip(nums, h.ok.reshape(-1))      # (ok is in the printout's layout)
               if n is not None and ok and abs(n.value) not in (0.0, 1.0))


def mostly_right(o: Obj, hits: list) -> int:
    """The entries of a printout that match one computed intermediate whole, two of them at least and two thirds of
    it (alone, too few to count: see Search.computes)."""
    best = 0
    for h in hits:
        if h.view is None or h.view.node in INPUTS or h.how not in ("full", "T", "stack"):
            continue
        if h.n_ok >= 2 and 3 * h.n_ok >= 2 * o.val.size:
            best = max(best, h.n_ok)
    return best


def all_but_one(o: Obj, hits: list) -> int:
    """The entries of a large printout, named or not, that match one intermediate whole but for a single slip (15 of
    a 4×4 of scores printed to eight decimals): one wrong score does not make the start compute nothing."""
    best = 0
    # (four entries or more printed to three decimals or more: three of them agreeing by chance is no risk)
    fine = o.val.size >= 4 and all((n.decimals or 0) >= 3 for n in o.a.numbers)
    for h in hits:
        if h.view is None or h.view.node in INPUTS or h.how not in ("full", "T", "stack"):
            continue
        if (o.val.size >= 9 or fine) and h.n_ok >= o.val.size - 1:
            best = max(best, h.n_ok)
    return best


def key_named(c) -> lb.Ref | None:
    """`Q·K1 = (0×1)+(2×0) = 0`: one query's score against the key its label names (a column, no row); None for a
    label that names no key."""
    first = c.parts[0] if c.parts else None
    ref = lb.parse_label(first.text) if isinstance(first, LabelPart) else None
    return ref if ref is not None and ref.raw_col is not None and ref.raw_row is None and ref.strong else None
