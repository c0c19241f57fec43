"""A dot product stated by name, the two vectors printed before it: `s_t · h_3 = 0.11` under `h_3 = [0.2, 0.1]`
and `s_t = [0.1, 0.9]` (a decoder state against encoder states), `q_ML · k_I = 1`.  The names on the line are its
own arithmetic: the number is judged against the vectors those names were last bound to, whatever the
configuration (which often has no name for such states).

Each name binds to the last vector printed under exactly that name before the line, among the last few arrays and
with no new example opened in between; both vectors have the same length.  A product of matrices by name is
claims/namedproduct.py's."""

from __future__ import annotations

import re
from dataclasses import dataclass

import numpy as np

from .. import numbers as nb
from ..model import half_units
from ..numbers import Num
from ..objects import Array, Chain, Document, ExprPart, LabelPart
from ..tokenpairs import pair_label
from .namedproduct import REACH, _given, _key

# two names and a product sign between them: s_t · h_1, s_t \cdot h_{2}, q_ML*k_I
_NAME = r"[A-Za-z](?:_\{[^{}]{1,12}\}|_[A-Za-z0-9]{1,12}|\d{1,2}|[₀-₉]{1,2})?|[a-z]{2,12}"  # s_t, h_{2}, K3, h₁, cat
NEAR = 20           # the vectors are printed within this many lines above the product (and in its cell)
_DOT = re.compile(rf"\s*({_NAME})\s*(?:\\cdot|[·⋅*•@])\s*({_NAME})(?:\.T|\^\{{?(?:T|\\top)\}}?|ᵀ)?\s*")


@dataclass
class NamedDotClaim:
    chain: Chain
    text: str
    left: Array
    right: Array
    result: Num
    pair: bool = False      # q_1 · k_2: an entry of the configuration's scores too (judged here only without one)


def _bound(doc: Document, name: str, at: tuple[int, int]) -> Array | None:
    """The vector last printed under this name on the line or the NEAR lines before it (among the last REACH
    arrays), if no new example opened since."""
    before = [a for a in doc.arrays if _key(a) <= at and (a.place.cell or 0) == at[0] and at[1] - a.line <= NEAR]
    before = before[-REACH:]
    exact = [a for a in before if a.label and _bare(a.label) == _bare(name)]
    # else a label that ends in the name after plain words ("Start token t0"; not "R_3 q", q rotated)
    loose = [a for a in before if a.label and len(a.label.split()) > 1 and _bare(a.label.split()[-1]) == _bare(name)
             and all(re.fullmatch(r"[^\W\d_]{2,}", w) for w in a.label.split()[:-1])]
    for a in reversed(exact or loose):
        if any(_key(a) < (o.cell or 0, o.line) <= at for o in doc.openers) or _rebound(doc, name, _key(a), at):
            return None
        if len(a.rows) != 1 or a.rows[0] is None or None in a.rows[0]:
            return None
        return a
    return None


def _rebound(doc: Document, name: str, after: tuple[int, int], at: tuple[int, int]) -> bool:
    """The name given another value between the vector and the line (`Q = 3`, a scalar, on a slider)."""
    key = _bare(name)
    for c in doc.chains:
        k = (c.place.cell or 0, c.place.line)
        words = c.parts[0].text.split() if c.parts and isinstance(c.parts[0], LabelPart) else []
        if after < k <= at and words and key in (_bare(c.parts[0].text), _bare(words[-1])) and \
                len(c.parts) >= 2 and isinstance(c.parts[1], ExprPart):   # ("Query Q = 3" too)
            return True
    return False


def _bare(name: str) -> str:
    return re.sub(r"[\s{}\"'“”‘’`]", "", name)       # (a word's vector is often printed under its quoted name)


def named_dots(c: Chain, doc: Document) -> list[NamedDotClaim]:
    out = []
    at = (c.place.cell or 0, c.place.line)
    for k in range(len(c.parts) - 1):
        p, q = c.parts[k], c.parts[k + 1]
        if c.rels[k] not in ("=", "≈") or not isinstance(p, LabelPart) or p.operands is not None or \
                not isinstance(q, ExprPart):
            continue
        total = nb.plain_number(q.expr)
        m = _DOT.fullmatch(p.text)
        if total is None or m is None or m.group(1) == m.group(2):
            continue
        # (`q_3 · k_1`: a score of the configuration's, tokenpairs.py, judged against it when there is one)
        pair = pair_label(p.text.replace("*", "·")) is not None
        left, right = _bound(doc, m.group(1), at), _bound(doc, m.group(2), at)
        if left is None or right is None or left is right or len(left.rows[0]) != len(right.rows[0]) or \
                len(left.rows[0]) < 2:
            continue
        out.append(NamedDotClaim(c, p.text, left, right, total, pair))
    return out


def _typed(a: Array) -> np.ndarray:
    """The half-units a vector's printed rounding allows: none for one typed by hand (one decimal at most, not a
    printout nor said to be rounded: `h_3 = [0.2, 0.1]` is exact as written), its own otherwise."""
    if a.rel != "≈" and not a.context.approx and a.place.where not in ("output", "comment"):
        # (`k_2 = (2.0, 0.5, 0.25)`: an entry typed shorter than the rest is its value to the longest precision
        # there, not a rounding to one decimal)
        return half_units([a.rows[0]], decimals_floor=2, longest=True)[0]
    return _given(a, np.array([n.half for n in a.rows[0]], dtype=float))


class NamedDotJudging:
    """Judge method for NamedDotClaim (a mixin of Judge)."""

    def judge_named_dot(self, c: NamedDotClaim) -> None:
        if c.chain.context.partial or c.chain.context.dropout:
            return
        if c.pair and _a_scaled_dot(c):
            return       # the scaled score quoted under the dot product's name (q_3 · k_1 = 0.577 after the √3):
            #              not a slip of the dot product
        if c.pair and self._the_right_score(c):
            self.n_claims += 1
            self.n_numbers += 1
            return       # `q_1 · k_2 = 0` right, from a q_1 printed with a slip: the vector's slip, on its own line
        self.judge_dot(c.chain, c.text, (c.left.rows[0], _typed(c.left)), (c.right.rows[0], _typed(c.right)), c.result,
                       "scores", f"{c.left.label} and {c.right.label} printed before it give")

    def _the_right_score(self, c: NamedDotClaim) -> bool:
        """The printed number is the configuration's q_i · k_j (the unscaled score of that pair)."""
        m = re.fullmatch(r"q_(\d+) · k_(\d+)", pair_label(c.text.replace("*", "·")) or "")
        if m is None or self.vs is None:
            return False
        i, j = int(m.group(1)) - 1, int(m.group(2)) - 1
        return any(c.result.contains(float(v.M[i, j]), c.result.half) for v in self.vs.views
                   if v.node == "QKt" and (v.b or 0) == 0 and i < v.M.shape[0] and j < v.M.shape[1])


def _a_scaled_dot(c: NamedDotClaim) -> bool:
    """The number is the dot product scaled by 1/√d or 1/d (d the vectors' length), not the product itself."""
    x = float(np.dot([n.value for n in c.left.rows[0]], [n.value for n in c.right.rows[0]]))
    d = len(c.left.rows[0])
    return any(c.result.contains(x * f, 2 * c.result.half) for f in (d ** -0.5, 1 / d)) and \
        not c.result.contains(x, 2 * c.result.half)
