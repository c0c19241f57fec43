"""The likely cause of a wrong value, tried as alternative traces a careful reader would think of: another head,
the transpose, the scale left out, swapped rows, a dropped sign, swapped digits, a neighbour's value."""

from __future__ import annotations

import numpy as np

from ..infer import Hit, Obj, within
from ..model import Views, compute
from ..numbers import Num
from .common import _show_view, _simple_kind


class Causes:
    """Judge methods: the cause of a whole wrong object or of one wrong cell."""

    def alt(self, kind: str) -> Views | None:
        """The trace of a usual mistake: the scale left out (or added)."""
        if kind not in self._alt:
            m = dict(self.mapping)
            if kind == "scale":
                m["scale"] = "none" if m.get("scale") in (None, "1/sqrt(d_k)", "1/d_k") else "1/sqrt(d_k)"
            t = compute(m)
            self._alt[kind] = Views.of(t) if t is not None else None
        return self._alt[kind]

    def whole_cause(self, o: Obj, hit: Hit, alt: Hit | None) -> tuple[str, str] | None:
        """A cause that explains the whole object: another head, the transpose, the scale left out, swapped rows."""
        n_bad = int((~hit.ok).sum())
        if n_bad < 2:
            return None
        if alt is not None and alt.view is not None:
            v, w = hit.view, alt.view
            if w.node == v.node and w.h != v.h and w.h is not None:
                return (f"wrong head: these are head {w.h + 1}'s values", "wrong_head")
            if w.node == v.node and alt.how == "T":
                return ("transposed: this is the transpose", "transposed")
            return (f"these are the values of {_show_view(alt)}", "wrong_value")
        # scale left out
        av = self.alt("scale")
        if av is not None and hit.view is not None and hit.view.node in ("S", "A", "O", "O_concat", "Y", "E",
                                                                         "row_sum"):
            for w in av.get(hit.view.node, hit.view.b, hit.view.h, variant=hit.view.variant):
                M = _layout(hit, w.M)
                if M is not None and within(o.lo, o.hi, M, 0.0, 1.0).all():
                    said = "without" if self.mapping.get("scale") in (None, "1/sqrt(d_k)", "1/d_k") else "with"
                    return (f"missing scale: computed {said} dividing by √d_k", "missing_scale")
        # rows swapped
        if hit.how == "full" and o.val.shape[0] > 1:
            M = hit.exact
            perm_ok = True
            for i in range(o.val.shape[0]):
                if hit.ok[i].all():
                    continue
                if not any(within(o.lo[i:i + 1], o.hi[i:i + 1], M[k:k + 1], 0.0).all() for k in range(M.shape[0])
                           if k != i):
                    perm_ok = False
                    break
            if perm_ok:
                return ("rows swapped", "transposed")
        return None

    def cell_cause(self, hit: Hit, i: int, j: int, num: Num, o: Obj) -> tuple[str | None, str]:
        v = hit.view
        M = v.M
        x = float(M[i, j]) if hit.how != "stack" else float(hit.exact.flat[0])
        if hit.how == "stack":
            return (None, _simple_kind(num, x))
        slip = self.backward_cause(v, i, j, num) if hit.how == "full" else None      # claims/backward.py
        if slip is not None:
            return slip
        if x != 0 and num.contains(-x):
            return ("dropped sign", "dropped_sign")
        k = _simple_kind(num, x)
        if k == "swapped_digits":
            return (f"swapped digits: the value rounds to {num.rounded(x)}", "swapped_digits")
        if M.shape[0] == M.shape[1] and i != j and num.contains(float(M[j, i])):
            return (f"transposed indices: this is entry [{j + 1},{i + 1}]", "transposed")
        for w in self.vs.get(v.node, v.b, None, variant=v.variant):
            if w.h is not None and w.h != v.h and w.M.shape == M.shape and num.contains(float(w.M[i, j])):
                return (f"wrong head: this is head {w.h + 1}'s value", "wrong_head")
        av = self.alt("scale")
        if av is not None and v.node in ("S", "A", "O", "O_concat", "Y"):
            added = self.mapping.get("scale") not in (None, "1/sqrt(d_k)", "1/d_k")    # the other reading scales
            for w in av.get(v.node, v.b, v.h, variant=v.variant):
                # (only when the two readings differ by a printed unit: 0.250 for 0.25062 is its rounding, not the
                # 0.25044 of a scale applied, at three decimals)
                if w.M.shape == M.shape and num.contains(float(w.M[i, j])) and \
                        abs(float(w.M[i, j]) - x) >= 2 * num.half:
                    return ("extra scale: this is the value after dividing by √d_k", "missing_scale") if added else \
                        ("missing scale: this is the value without dividing by √d_k", "missing_scale")
        for (a, b) in ((i, j - 1), (i, j + 1), (i - 1, j), (i + 1, j)):
            if 0 <= a < M.shape[0] and 0 <= b < M.shape[1] and num.contains(float(M[a, b])):
                return (f"neighbour's value: this is entry [{a + 1},{b + 1}]", "neighbour_value")
        for b2 in range(M.shape[1]):
            if b2 != j and num.contains(float(M[i, b2])):
                return (f"another entry's value: this is entry [{i + 1},{b2 + 1}]", "neighbour_value")
        return (None, k)


def _layout(h: Hit, M: np.ndarray) -> np.ndarray | None:
    if h.how == "full":
        return M
    if h.how == "T":
        return M.T
    if h.how == "row":
        return M[h.index:h.index + 1].reshape(h.ok.shape)
    if h.how == "col":
        return M[:, h.index:h.index + 1].T.reshape(h.ok.shape)
    return None
