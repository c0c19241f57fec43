"""Scoring a candidate configuration: how many printed numbers of the document its trace explains."""

from __future__ import annotations

import numpy as np

from .. import labelwords as lw
from ..model import Views
from .match import alignments
from .prepare import Obj, _family


SELF_W_O = 0.75        # of each entry of a printed W^O taken as given, not counted towards the score


def score(objs: list[Obj], vs: Views, uses: frozenset, assumed: frozenset = frozenset(),
          per: dict | None = None) -> tuple[float, int, int]:
    """(score, numbers explained, numbers printed).  An object counts when a view explains at least half of its
    numbers; an input the candidate takes as printed (`uses`) explains itself.  A printout of zeros only is not
    counted at all: a zero row of any view (the causal mask's last row, a masked score row) explains it.  A
    printed weight whose role the candidate assumes to be I (`assumed`: no text states it) counts only when all of
    it agrees (an assumed W^O = I matches 12 of 16 entries of a printed W^O whose last rows repeat its first).
    per: filled with each printed object's id and whether the candidate explains all of it."""
    explained = total = 0
    discount = 0.0
    fast = Stacks(vs)
    for o in objs:
        if o.a.context.dropout or o.a.example:
            continue                 # printed after dropout: no configuration explains it (readers/dropout.py); a
            #                          softmax shown by example is judged against its own input
        if o.ref is not None and lw.names_variant(" ".join([o.a.label, *o.a.labels])):
            continue                 # named unscaled or unmasked: another reading, no evidence for this one
        n = o.val.size
        if n >= 2 and not np.any(o.val) and o.a.id not in uses:
            continue                 # all zeros: any zero row of any view explains it, so it is no evidence
        total += n
        if o.a.id in uses:
            explained += n           # an input taken as printed agrees with itself
            if o.ref is not None and set(o.ref.nodes) <= {"W_O", "b_O"}:
                # but W^O is the last input: taking it is evidence mostly through the outputs it explains (a 3×6
                # W^O of a later example otherwise outweighs V and O); its own entries only break a tie
                discount += SELF_W_O * n
            continue
        nodes = None
        if o.ref is not None and o.ref.strong:
            nodes = _family(o.ref)
        if o.slices == 1:
            best = fast.best(o, nodes)
            if nodes is not None and set(o.ref.nodes) <= assumed and best < n:
                continue             # a printed weight where the candidate assumes I: all of it, or chance
            if best >= max(1.0, 0.5 * n):
                explained += int(round(best))
            if per is not None:
                per[o.a.id] = best >= n
            continue
        best = 0
        for hit in alignments(o, vs, nodes=None, slack=1.0):
            k = hit.n_ok
            if nodes is not None and hit.view is not None and hit.view.node not in nodes:
                k = k * 0.8          # a value match against another quantity than the label says
            if k > best:
                best = k
                if best >= n:
                    break
        if best >= max(1.0, 0.5 * n):
            explained += int(round(best))
        if per is not None:
            per[o.a.id] = best >= n
    return float(explained) - discount, explained, total


class Stacks:
    """Every view of a trace stacked by shape, so that one comparison scores an object against all of them.  A
    stack is built the first time an object of its shape asks for it: a long document's trace has large views
    (T×T scores of a 100-token X) that no printed object matches, and stacking them for every candidate of the
    search cost most of its time and gigabytes of memory."""

    def __init__(self, vs: Views):
        self._by_shape = vs.by_shape
        self._full: dict[tuple[int, int], tuple[np.ndarray, list[str]] | None] = {}
        self._rows: dict[int, tuple[np.ndarray, list[str]] | None] = {}

    def full(self, shape: tuple[int, int]) -> tuple[np.ndarray, list[str]] | None:
        if shape not in self._full:
            views = self._by_shape.get(shape)
            self._full[shape] = (np.stack([v.M for v in views]), [v.node for v in views]) if views else None
        return self._full[shape]

    def rows(self, n: int) -> tuple[np.ndarray, list[str]] | None:
        """Every row of a view n wide and every column of a view n high (more than one row), as rows."""
        if n not in self._rows:
            items = []
            for shape, views in self._by_shape.items():
                for v in views:
                    if shape[1] == n:
                        items.append((v.M, v.node))
                    if shape[0] == n and shape[0] > 1:
                        items.append((v.M.T, v.node))
            self._rows[n] = (np.concatenate([m for m, _ in items], axis=0),
                             [node for m, node in items for _ in range(m.shape[0])]) if items else None
        return self._rows[n]

    @staticmethod
    def _counts(lo: np.ndarray, hi: np.ndarray, M: np.ndarray) -> np.ndarray:
        with np.errstate(invalid="ignore", over="ignore"):
            finite = np.isfinite(M)
            unit = hi - lo
            tol = 1e-9 * np.maximum(1.0, np.abs(np.where(finite, M, 0.0))) + unit
            ok = (M >= lo - tol) & (M <= hi + tol) & (finite | np.isneginf(lo))
            ok |= np.isneginf(M) & np.isneginf(lo)       # a printed -∞ where the view masks the score
        return ok.reshape(ok.shape[0], -1).sum(axis=1)

    def best(self, o: "Obj", nodes: set[str] | None) -> float:
        r, c = o.val.shape
        best = 0.0
        cands = []
        if self.full((r, c)) is not None:
            cands.append((self.full((r, c)), o.lo, o.hi, False))
        if self.full((c, r)) is not None:
            cands.append((self.full((c, r)), o.lo.T, o.hi.T, False))
        if (r == 1 or c == 1) and self.rows(r * c) is not None:
            cands.append((self.rows(r * c), o.lo.reshape(1, -1), o.hi.reshape(1, -1), True))
        inputs = nodes is not None and bool(nodes & {"W_Q", "W_K", "W_V", "W_O", "X"})
        for (M, names), lo, hi, is_rows in cands:
            counts = self._counts(lo[None] if not is_rows else lo, hi[None] if not is_rows else hi, M)
            if nodes is not None:
                # a matrix labelled as a weight is a weight: matching some other quantity earns nothing
                weights = np.array([1.0 if name in nodes else (0.0 if inputs else 0.8) for name in names])
                counts = counts * weights
            if counts.size:
                best = max(best, float(counts.max()))
        return best
