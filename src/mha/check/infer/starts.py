"""Where a document starts when it does not start from X: the first printed point of the chain is its input.

    Q, K and V given         whole matrices, one matrix per head, or one token's vector at a time (q1, q_2,
                             query_3, k₂, 键向量 ...) assembled into rows; a single query row against some keys,
                             the keys perhaps written as the columns of a matrix; V missing: the values are the
                             keys (seq2seq attention) or the document stops at the weights
    raw scores given         Q Kᵀ (or a score row) printed with no Q and K: the scale and the mask are searched
    weights with values      A printed with V: the context vectors are checked

Each start is a mode of the search (a dict of Choices, like the X mode's).  The scores and weights starts are
computed by the core as Q, K, V given: the printed scores as Q against K = I (so that Q Kᵀ is the scores), the
weights as Q = log A (the softmax of log A is A).  The quantities such an encoding invents (that Q, that K, an
identity V) are hidden from matching (`hide`), so that nothing printed is ever compared with them.
"""

from __future__ import annotations

import math
import re

import numpy as np

from ..model import half_units, typed_or_printed
from .candidates import Choice, _arr, _is, _ref_for
from .prepare import Obj
from .printed_inputs import cross_sources
from .tokenrows import token_index, token_rows, word_order
from .written_scale import carries_its_scale, written_scales

# what a start invents and must never be compared with a printed object
HIDE_PROJECTED = ("Q", "K", "Qh", "Kh", "Qr", "Kr")
HIDE_OUTPUT = ("V", "Vh", "Vr", "O", "O_concat", "Y")
HIDE_SCORES = ("QKt", "S", "E", "row_max", "row_sum")

def _radius(objs: list[Obj], decimals_floor: int = 3) -> np.ndarray | None:
    """The rounding radius of each printed entry of the rows that make up one input (decimals_floor: fewer
    decimals than this everywhere read as exact, see model.half_units)."""
    rows = [r for o in objs for r in o.a.rows]
    if any(r is None for r in rows) or len({len(r) for r in rows}) != 1:
        return None
    return half_units(rows, decimals_floor, longest=all(typed_or_printed(o.a) for o in objs))




def _tokens(objs: list[Obj], role: str, order: dict[str, int] | None = None) -> list[int | None]:
    return [token_index(o, role, order) if o.val is not None and o.val.shape[0] == 1 else None for o in objs]


def _same_tokens(k_objs: list[Obj], v_objs: list[Obj]) -> bool:
    """Keys and values of the same tokens: both contiguous from the first (or given whole), or the same indices."""
    order = word_order(k_objs + v_objs)
    k, v = _tokens(k_objs, "K", order), _tokens(v_objs, "V", order)
    sparse = [t for t in (k, v) if None not in t and t != list(range(len(t)))]
    return not sparse or k == v


def whole(objs: list[Obj], role: str) -> tuple[np.ndarray, list[Obj]] | None:
    """A matrix (or a lone vector) labelled `role` as a whole, or one matrix per head side by side."""
    full = [o for o in objs if _is(o, role) and _ref_for(o, role).head is None and _ref_for(o, role).row is None
            and o.val is not None and np.isfinite(o.val).all()]
    if full:
        return _arr(full[0]), [full[0]]
    heads = [o for o in objs if _is(o, role) and _ref_for(o, role).head is not None
             and _ref_for(o, role).row is None and o.slices == 1 and o.val is not None and o.val.shape[0] > 1]
    by: dict[int, Obj] = {}
    for o in heads:
        by.setdefault(_ref_for(o, role).head, o)
    if by and sorted(by) == list(range(len(by))) and len({by[k].val.shape for k in by}) == 1:
        return np.concatenate([by[k].val for k in sorted(by)], axis=1), [by[k] for k in sorted(by)]
    return None


def given(objs: list[Obj], role: str) -> list[tuple[np.ndarray, list[Obj], str]]:
    """Every way the document gives `role`: whole, then assembled from its tokens' vectors.  Values written as one
    row of scalars, `v = [1, 2, 3]`, one value per key, are also offered as the column they stand for."""
    out = []
    w = whole(objs, role)
    if w is not None:
        out.append((w[0], w[1], f"at {w[1][0].a.place}"))
    t = token_rows(objs, role)
    if t is not None and (w is None or t[0].shape != w[0].shape or not np.array_equal(t[0], w[0])):
        name = {"Q": "q", "K": "k", "V": "v"}[role]
        out.append((t[0], t[1], f"as {name}_i vectors from {t[1][0].a.place}"))
    c = token_rows(objs, role, capitals=True) if t is None else None
    if c is not None and (role == "Q" or len(c[1]) >= 2) and \
            (w is None or c[0].shape != w[0].shape or not np.array_equal(c[0], w[0])):
        out.append((c[0], c[1], f"as {role}_i vectors (one per token) from {c[1][0].a.place}"))
    if role == "V" and w is not None and w[0].shape[0] == 1 and w[0].shape[1] >= 2 and t is None and \
            not re.search(r"[vV]_?\{?\d+\}?\s*$", w[1][0].a.label or ""):
        # (`v1 = [10, 0]` alone is one token's value vector, not a value for each key)
        out.append((w[0].T, w[1], f"at {w[1][0].a.place} (one value per key)"))
    return out


# a heading that numbers an example: "## Example 2: medium magnitude", "例 3", "Case 2"
_EXAMPLE_NO = re.compile(r"(?i)\b(?:example|case|exercise|problem)\s*#?\s*(\d{1,2})\b|(?:例|示例|练习)\s*(\d{1,2})")


def _other_examples(a: list, b: list) -> bool:
    """The two inputs stand under headings that number different examples (Q printed under "Example 1", K given
    under "Example 2"): no one start is made of them."""
    def number(objs: list) -> set:
        return {m.group(1) or m.group(2) for o in objs for m in [_EXAMPLE_NO.search(o.a.context.heading or "")] if m}
    na, nb = number(a), number(b)
    return bool(na) and bool(nb) and na.isdisjoint(nb)


UNKNOWN = 1e12           # the rounding radius of an entry that is not given (infer/starts.py's masked scores)


class Starts:
    """The start modes other than X with weights, read from the objects (a mixin of Options)."""

    objs: list[Obj]
    sizes: dict[str, int]
    hints: dict

    def start_modes(self) -> list[dict[str, Choice]]:
        return (self._qkv_modes() + self._scores_modes() + self._weights_modes() + self._heads_modes())[:6]

    # ---------------------------------------------------------- cross-attention: two sequences
    def cross_options(self) -> list[dict[str, Choice]]:
        """Starts for a page that names cross-attention: queries from one printed matrix, keys and values from
        another (infer/printed_inputs.cross_sources), with the printed projections."""
        if "cross" not in self.hints:
            return []
        out = []
        for a, b in cross_sources(self.objs):
            dims = {"mode": Choice("X", "X and weights"),
                    "X": Choice(_arr(a), f"queries from the matrix at {a.a.place}", frozenset([a.a.id]), 0.3),
                    "Xkv": Choice(_arr(b), f"keys and values from the matrix at {b.a.place} (cross-attention)",
                                  frozenset([b.a.id]), 0.0)}
            for role in ("W_Q", "W_K", "W_V"):
                dims[role] = self.options(dims, role)[0]
            out.append(dims)
        return out

    # ---------------------------------------------------------- Q, K and V given
    def _qkv_modes(self) -> list[dict[str, Choice]]:
        qs, ks, vs = (given(self.objs, r) for r in ("Q", "K", "V"))
        out = []
        for Q, q_objs, q_where in qs[:2]:
            for K0, k_objs, k_where in ks[:2]:
                if _other_examples(q_objs, k_objs):
                    continue
                for K, how, cost in _key_layouts(K0, Q.shape[1]):
                    if K.shape[0] < 2:
                        continue                    # one key: its weight is 1 whatever the numbers
                    values = [(V, v_objs, f"V {v_where}", 0.0) for V, v_objs, v_where in vs[:2]
                              if V.shape[0] == K.shape[0] and _same_tokens(k_objs, v_objs) and
                              not _other_examples(k_objs, v_objs)]
                    if not values:
                        # the keys serve as values (seq2seq attention), or the document stops at the weights
                        values = [(K, [], "V = K (the keys are the values)", 0.4),
                                  (np.eye(K.shape[0]), None, "no V: the weights are the last step", 0.5)]
                    for V, v_objs, v_where, v_cost in values:
                        used = q_objs + k_objs + (v_objs or [])
                        label = f"starts from Q, K, V given (Q {q_where}; K {k_where}{how}; {v_where})"
                        mode = Choice("QKV", label, frozenset(o.a.id for o in used), cost + v_cost)
                        # one printed object each: a slip in one of its cells can be undone (search.repair)
                        dims = {"mode": mode, "Q": Choice(Q, "", _one(q_objs), radius=_radius(q_objs)),
                                "K": Choice(K, "", _one(k_objs) if not how else frozenset(),
                                            radius=_layout(_radius(k_objs), how)),
                                "V": Choice(V, "", _one(v_objs or []), radius=_radius(v_objs) if v_objs else None)}
                        if v_objs is None:
                            dims["hide"] = Choice(HIDE_OUTPUT, "")
                        out.append(dims)
        # the readings that take every role as printed first (a stable sort: the page's order among them); only
        # six starts are climbed, and a lesson that gives `q`, `k1`, `k2` before `q_ML`, `k_I`.. `v_ML` has eight
        return sorted(out, key=lambda d: d["mode"].cost)

    # ---------------------------------------------------------- raw scores given
    def _scores_modes(self) -> list[dict[str, Choice]]:
        out = []
        seen: list[np.ndarray] = []
        # "HEAD 0: Scaled Scores" where no other head's scores are printed: the one head's scores
        heads = {r.head for o in self.objs if o.val is not None and (_is(o, "QKt") or _is(o, "S"))
                 for r in [_ref_for(o, "QKt") or _ref_for(o, "S")] if r is not None}
        one = next(iter(heads - {None}), None) if len(heads - {None}) == 1 else None
        for o in self.objs:
            if o.val is None or o.slices != 1 or not (_is(o, "QKt") or _is(o, "S")) or o.n < 2:
                continue
            ref = _ref_for(o, "QKt") or _ref_for(o, "S")
            if not ref.strong and o.n < 3:
                continue                            # two numbers named only by the prose around them
            if (ref.head is not None and (ref.head != one or one not in (0, 1))) or ref.col is not None or \
                    (ref.row is not None and o.val.shape[0] > 1):
                continue
            scores = o.val
            if np.isnan(scores).any() or np.isposinf(scores).any() or np.isneginf(scores).all(axis=1).any():
                continue
            if any(s.shape == scores.shape and np.array_equal(s, scores) for s in seen):
                continue
            seen.append(scores)
            out.append(self._scores_mode(o, scores))
            if len(seen) == 2:
                break
        return out

    def _scores_mode(self, o: Obj, scores: np.ndarray) -> dict[str, Choice]:
        T, S = scores.shape
        hide = HIDE_PROJECTED
        values = [v for v in given(self.objs, "V") if v[0].shape[0] == S]
        uses = {o.a.id}
        if values:
            V, v_objs, v_where = values[0]
            uses |= {x.a.id for x in v_objs}
            v_choice = Choice(V, "", radius=_radius(v_objs))
        else:
            hide = hide + HIDE_OUTPUT
            v_choice = Choice(np.eye(S), "")
        label = f"starts from raw scores given ({T}×{S} at {o.a.place})" + (f", V {values[0][2]}" if values else "")
        mode = Choice("scores", label, frozenset(uses), 0.5)
        # scores a program printed are its rounded output even at two decimals (print(scores.round(2))): what
        # follows from them is judged within their rounding; scores typed by hand (1.2, 0.3) are exact
        r = _radius([o], decimals_floor=1 if o.a.place.where == "output" else 3)
        # a score the mask hides is not given at all: the scores before the mask, printed elsewhere, may hold any
        # number there (an unbounded radius, so that nothing is judged of it)
        hidden = np.isneginf(scores)
        radius = None if r is None and not hidden.any() else \
            np.where(hidden, UNKNOWN, 0.0 if r is None else r)
        dims = {"mode": mode, "Q": Choice(np.where(hidden, 0.0, scores), "", frozenset([o.a.id]), radius=radius),
                "K": Choice(np.eye(S), ""), "V": v_choice, "hide": Choice(hide, "")}
        if np.isneginf(scores).any():
            # the -∞ the scores print are part of what is given: the climb starts from their mask (the encoding
            # above writes them as 0, and exp(0) is no stand-in for exp(-∞))
            dims["mask"] = Choice({"mask": (~np.isneginf(scores)).tolist()}, "the mask of the printed -∞")
        return dims

    def scores_scale_options(self, start: frozenset = frozenset()) -> list[Choice]:
        """The scores' own scale: none, or 1/√d_k (or 1/d_k) for a d_k the document states or prints, or one written
        beside scores printed after them (start: the ids of the scores the chain starts from, whose own label's
        scale, "Raw scores (with 1/√2):", says it is applied already)."""
        out = [Choice("none", "none (the scores as printed)")]
        if any(o.a.id in start and carries_its_scale(o) for o in self.objs):
            return out              # "Raw scores (with 1/√2): [[√2, 0], ...]": the scale is in them already
        dks = [self.sizes.get("d_k")] + [o.val.shape[1] for o in self.objs if o.val is not None and
                                         (_is(o, "K") or _is(o, "Q")) and o.val.shape[0] > 1]
        said: set[int] = set()
        for h in getattr(self, "hint_list", []):
            if h.kind == "scale_sqrt":
                try:
                    said.add(int(float(h.value)))
                except (TypeError, ValueError):
                    pass
        dks += sorted(said)
        for dk in dict.fromkeys(d for d in dks if d and 1 < d < 100000):
            # ("scaled by 1/sqrt(4)" in words: on a tie, the scale the text says, not the scores as printed)
            out.append(Choice(1 / math.sqrt(dk), f"1/√d_k with d_k = {dk}", frozenset(), -0.01 if dk in said else 0.1))
            out.append(Choice(1 / dk, f"1/d_k with d_k = {dk}", frozenset(), 0.6))
        return out + [Choice(v, label, frozenset(), 0.05) for v, label in written_scales(self.objs)]

    # ---------------------------------------------------------- weights with values
    def _weights_modes(self) -> list[dict[str, Choice]]:
        out = []
        for o in self.objs:
            # a weak name ("weights") counts here: the rows must sum to 1 and the values must be given beside it
            if o.val is None or o.slices != 1 or not _is(o, "A") or o.n < 2:
                continue
            ref = _ref_for(o, "A")
            if ref.head is not None or ref.col is not None or ref.row is not None:
                continue
            A = o.val
            if not np.isfinite(A).all() or (A < 0).any() or not np.allclose(A.sum(axis=1), 1.0, atol=0.02):
                continue
            if o.a.softmax_of is not None or o.a.softmax_arrow:
                continue        # `scores: [..] → softmax → [..]`: weights worked from the scores beside them, no input
            values = [v for v in given(self.objs, "V") if v[0].shape[0] == A.shape[1]]
            if not values:
                continue
            V, v_objs, v_where = values[0]
            with np.errstate(divide="ignore"):
                logs = np.where(A > 0, np.log(np.where(A > 0, A, 1.0)), 0.0)
            mode = Choice("weights", f"starts from attention weights given ({o.a.place}) with V {v_where}",
                          frozenset([o.a.id] + [x.a.id for x in v_objs]), 0.5)
            dims = {"mode": mode, "Q": Choice(logs, ""), "K": Choice(np.eye(A.shape[1]), ""),
                    "V": Choice(V, "", radius=_radius(v_objs)),
                    "hide": Choice(HIDE_PROJECTED + HIDE_SCORES, "")}
            if (A == 0).any():
                dims["mask"] = Choice({"mask": (A > 0).tolist()}, "the zero weights", frozenset())
            out.append(dims)
            break
        return out


    # ---------------------------------------------------------- the heads' outputs given
    def _heads_modes(self) -> list[dict[str, Choice]]:
        """`head_1 = [..]`, `head_2 = [..]`, then their concatenation and `Concat · W_O`: the heads' outputs are
        the start.  Each head attends to its own token only (weights I, scores hidden), so its output is its values,
        the printed head; W_O is searched as after X."""
        heads: dict[int, Obj] = {}
        if any(o.ref is not None and set(o.ref.nodes) & {"X", "Q", "K", "V", "QKt", "S", "A"} for o in self.objs):
            return []           # the page prints what the heads are worked from: they are results, not the start
        for o in self.objs:
            ref = o.ref
            if o.val is None or o.slices != 1 or ref is None or ref.nodes != ("O",) or ref.head is None or \
                    ref.row is not None or ref.col is not None or not np.isfinite(o.val).all():
                continue
            heads.setdefault(ref.head, o)
        H = len(heads)
        if H < 2 or sorted(heads) != list(range(H)) or len({heads[h].val.shape for h in heads}) != 1:
            return []
        T = heads[0].val.shape[0]
        V = np.concatenate([heads[h].val for h in range(H)], axis=1)
        apart = np.full((T, T), -1e4)
        np.fill_diagonal(apart, 0.0)          # each query's only live key is itself: its weights are I
        objs = [heads[h] for h in range(H)]
        radii = [_radius([o]) for o in objs]
        mode = Choice("heads", f"starts from the heads' outputs given ({', '.join(str(o.a.place) for o in objs)})",
                      frozenset(o.a.id for o in objs), 0.5)
        return [{"mode": mode, "Q": Choice(np.concatenate([apart] * H, axis=1), ""),
                 "K": Choice(np.concatenate([np.eye(T)] * H, axis=1), ""),
                 "V": Choice(V, "", radius=None if any(r is None for r in radii) else np.concatenate(radii, axis=1)),
                 "hide": Choice(HIDE_PROJECTED + HIDE_SCORES + ("A",), ""),
                 "heads": Choice(H, f"H = {H} (the heads given)")}]


def _one(objs: list[Obj]) -> frozenset:
    """The id of the one object a given comes from (none when it is assembled from several)."""
    return frozenset([objs[0].a.id]) if len(objs) == 1 else frozenset()


def _key_layouts(K: np.ndarray, d: int) -> list[tuple[np.ndarray, str, float]]:
    """K as printed (one key per row), or its columns as the keys (a d×S matrix, np.transpose([...]))."""
    out = []
    if K.shape[1] == d:
        out.append((K, "", 0.0))
    if K.shape[0] == d and K.shape[0] != K.shape[1] or (K.shape[0] == d == K.shape[1]):
        out.append((K.T.copy(), ", its columns as the keys", 0.3))
    return out


def _layout(r: np.ndarray | None, how: str) -> np.ndarray | None:
    return None if r is None else (r.T.copy() if how else r)
