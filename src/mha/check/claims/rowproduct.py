"""A token's vector times a named matrix, written out: `q_bank = [0, 1] × W_Q = [1, 0]`, `v_river = [1, 0] × W_V =
[2, 0]`.  The row is typed in the line, the matrix printed above under that name; the result is the product
x·W of the two, whatever the configuration (per-token pages often have none, or take the results as given).

Identity before verdict:
* the name is bound to a full printed matrix before the line (claims/namedproduct._bound), whose rows are as
  many as the row's entries;
* the page's convention is x·W: at least two lines of this kind on the page, and every line but the one judged
  holds as x·W (within the printed rounding), or this line is the only one, and W·x does not explain it either;
* a line that holds as W·xᵀ and not as x·W is not judged (another convention, not a slip).
One finding per line, on its first wrong entry."""

from __future__ import annotations

import re
from dataclasses import dataclass

import numpy as np

from .. import labels as lb
from ..numbers import Num
from ..objects import Array, ArrayPart, Chain, Document, LabelPart
from ..report import Finding
from .namedproduct import _bound
from .product import _values

_ROW_TIMES_NAME = re.compile(r"\[([-+0-9.,\s]+)\]\s*(?:\*|×|·|@|\\times|\\cdot)\s*([A-Za-z][\w^{}]*)")


@dataclass
class RowProductClaim:
    chain: Chain
    text: str            # "[1,0]*W_V"
    row: list[float]
    matrix: Array
    result: Array
    others: list["RowProductClaim"]      # the page's other lines of this kind


def _parse(text: str) -> tuple[list[float], str] | None:
    m = _ROW_TIMES_NAME.fullmatch(text.strip())
    if not m:
        return None
    try:
        row = [float(x) for x in m.group(1).split(",")]
    except ValueError:
        return None
    return (row, m.group(2)) if len(row) >= 2 else None


def row_products(doc: Document) -> list[RowProductClaim]:
    out = []
    for c in doc.chains:
        for k in range(len(c.parts) - 1):
            p, q = c.parts[k], c.parts[k + 1]
            if c.rels[k] not in ("=", "≈") or not isinstance(p, LabelPart) or not isinstance(q, ArrayPart):
                continue
            got = _parse(p.text)
            if got is None or not q.array.is_vector:
                continue
            row, name = got
            ref = lb.parse_label(name)
            if ref is None:
                continue
            W = _bound(doc, ref, q.array)
            vals = _values(W) if W is not None else None
            if vals is None or vals[0].shape[0] != len(row) or vals[0].shape[1] != q.array.n_cols:
                continue
            out.append(RowProductClaim(c, p.text, row, W, q.array, []))
    out.extend(_arrow_products(doc))
    for x in out:
        x.others = [y for y in out if y is not x]
    return out


_PROJECTS = {"W_Q": "Q", "W_K": "K", "W_V": "V"}
_REACH = 6              # printed arrays between the token's vector and the projection line


def _arrow_products(doc: Document) -> list[RowProductClaim]:
    """`x = [1, 0]`, then `W_K = [[0.3, 0.7], [0.6, 0.4]] → K = [0.3, 0.7]` on a line of its own: the arrow takes
    the token's vector just given through the matrix written on the line, x·W_K.  The vector is the last one-row
    array named x (or a token's x_i) a few arrays before, as wide as the matrix is tall."""
    out = []
    for c in doc.chains:
        ps = c.parts
        for k in range(len(ps) - 3):
            w, m, name, v = ps[k:k + 4]
            if not (isinstance(w, LabelPart) and isinstance(m, ArrayPart) and isinstance(name, LabelPart) and
                    isinstance(v, ArrayPart)) or c.rels[k + 1] != "→" or not v.array.is_vector:
                continue
            rw, rq = lb.parse_label(w.text), lb.parse_label(name.text)
            if rw is None or rq is None or len(rw.nodes) != 1 or _PROJECTS.get(rw.nodes[0]) != rq.nodes[0]:
                continue
            x = _token_before(doc, m.array)
            if x is None or m.array.n_rows != len(x) or m.array.n_cols != v.array.n_cols:
                continue
            out.append(RowProductClaim(c, f"x·{w.text.strip()}", x, m.array, v.array, []))
    return out


def _token_before(doc: Document, a: Array) -> list[float] | None:
    for b in reversed([b for b in doc.arrays if b.id < a.id][-_REACH:]):
        r = lb.parse_label(b.label.split()[-1]) if b.label and b.label.split() else None   # "the same word x"
        if r is not None and r.nodes == ("X",) and b.n_rows == 1 and b.rows[0] and None not in b.rows[0]:
            return [n.value for n in b.rows[0]]
    return None


def _holds(c: RowProductClaim, transposed: bool = False) -> np.ndarray | None:
    (wv, wh), got = _values(c.matrix), _values(c.result)
    if got is None:
        return None
    cv, ch = got
    x = np.array(c.row, dtype=float)
    if transposed:
        if wv.shape[0] != wv.shape[1]:
            return None
        exact, slack = wv @ x, wh @ np.abs(x)
    else:
        exact, slack = x @ wv, np.abs(x) @ wh
    return np.abs(cv[0] - exact) <= (slack + ch[0]) * (1 + 1e-9) + 1e-9 * np.maximum(1.0, np.abs(exact))


class RowProductJudging:
    """Judge method for RowProductClaim (a mixin of Judge)."""

    def judge_row_product(self, c: RowProductClaim) -> None:
        ok = _holds(c)
        if ok is None or c.chain.context.partial:
            return
        self.n_claims += 1
        self.n_numbers += len(ok)
        if ok.all():
            return
        others = [_holds(o) for o in c.others]
        if c.others and (len(c.others) < 1 or not all(o is not None and o.all() for o in others)):
            return                       # the page's other lines do not all hold as x·W: no convention to judge by
        alt = _holds(c, transposed=True)
        if alt is not None and alt.all():
            return                       # W·x: the other convention, not a slip
        j = int(np.flatnonzero(~ok)[0])
        wv, _ = _values(c.matrix)
        exact = float(np.array(c.row) @ wv[:, j])
        num: Num = c.result.rows[0][j]
        # (once: a number found wrong already, as the configuration's row, is one slip, one finding)
        self._add_once(Finding(num.line or c.result.line, c.result.place.cell, f"{c.result.label or c.text}[{j + 1}]",
                         num.text, exact, num.rounded(exact), "projection",
                         f"arithmetic slip: {c.text} with the {c.matrix.label} printed at line {c.matrix.line} "
                         f"gives {num.rounded(exact)}", "arithmetic"))
