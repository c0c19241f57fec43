"""A product stated by name, its factors printed just before: `W_Q = [..], Q = X W_Q = [..]` with X printed a few
lines up.  The names on the line are the result's own arithmetic, so the result is judged against the product of
the arrays those names were last bound to, whatever the configuration.

This is for the product the rest of the checker leaves alone: one that most of its entries disagree with (the
configuration's Q is then "not established", since a matrix that mostly disagrees was probably misidentified).
Here the identity comes from the names, not from the values, and it is taken only when nothing else explains the
printout:

- both names are bound to full printed arrays, in reading order before the result, within a few objects and with
  no new example opened in between; the shapes multiply to the result's shape;
- no other reading of the same factors explains a third of the entries: a transposed factor, the factors swapped,
  the product transposed, an elementwise product, a constant multiple of the product (a scale the label leaves
  out).

A product that most entries agree with is judged entry by entry elsewhere (the configuration's trace, or
claims/product.py); here it yields nothing.  A wrong one yields one finding, at its first wrong entry; its other
lines with a wrong entry get a note that points there (one slip, one finding)."""

from __future__ import annotations

import re
from dataclasses import dataclass

import numpy as np

from .. import labels as lb
from ..objects import Array, ArrayPart, Chain, Document, LabelPart
from ..report import Finding
from .product import _values

REACH = 12          # the factors are among the last few objects printed before the result
_SYMBOL = re.compile(r"[A-Za-z](?:_\{[^{}]*\}|_[A-Za-z0-9]|\^\{[^{}]*\}|\^\\top|\^[A-Za-z0-9]|ᵀ|\.T)*")
_TIMES = re.compile(r"\\cdot|\\times|[·×@*]|\\,|\\;|\\!")


@dataclass
class NamedProductClaim:
    chain: Chain
    text: str            # the product as written, "X W_Q"
    left: Array
    right: Array
    left_t: bool         # the factor is named transposed (K^T)
    right_t: bool
    result: Array


def _factors(text: str) -> list[tuple[str, lb.Ref]] | None:
    """The two symbols of a product written by name ("X W_Q", "X·W_Q", "XW_Q", "Q K^T"), each with its reference,
    or None when the text is anything more (a scale, a softmax, a sum, three factors)."""
    s = _TIMES.sub(" ", text.replace("\\mathbf", "").replace("\\mathrm", "").replace("\\boldsymbol", ""))
    s = re.sub(r"\{([A-Za-z])\}", r"\1", s).strip()
    syms = _SYMBOL.findall(s)
    if len(syms) != 2 or re.sub(r"\s+", "", s) != "".join(syms):
        return None
    out = []
    for sym in syms:
        ref = lb.parse_label(sym)
        if ref is None or len(ref.nodes) != 1 or ref.raw_row is not None or ref.raw_col is not None:
            return None
        out.append((sym, ref))
    return out


def _same(a: lb.Ref, b: lb.Ref) -> bool:
    return a.nodes == b.nodes and a.raw_head == b.raw_head and a.batch == b.batch


def _key(a: Array) -> tuple[int, int]:
    return (a.place.cell or 0, a.line)


def _bound(doc: Document, ref: lb.Ref, result: Array) -> Array | None:
    """The array the name was last bound to before the result, if it is near and no new example opened since."""
    before = [a for a in doc.arrays if a.id < result.id][-REACH:]
    for a in reversed(before):
        r = lb.parse_label(a.label) if a.label else None
        if r is None or len(r.nodes) != 1 or r.raw_row is not None or r.raw_col is not None:
            continue
        if _same(r, ref) and not r.transposed:
            if any(_key(a) < (o.cell or 0, o.line) <= _key(result) for o in doc.openers):
                return None
            if ref.nodes != ("X",) and any(a.id < b.id < result.id and _names_x(b) for b in doc.arrays):
                return None                  # X given anew since ("now take Q = K = V = X"): Q and K were of the old
            return a
    return None


def _names_x(a: Array) -> bool:
    r = lb.parse_label(a.label) if a.label else None
    return r is not None and tuple(r.nodes) == ("X",) and r.raw_row is None and len(a.numbers) >= 4


def named_products(c: Chain, doc: Document) -> list[NamedProductClaim]:
    """`lhs = X W_Q = [..]` (or `X W_Q = [..]`): a LabelPart naming two factors, then the array it equals."""
    out = []
    for k in range(len(c.parts) - 1):
        p, q = c.parts[k], c.parts[k + 1]
        if c.rels[k] not in ("=", "≈") or not isinstance(p, LabelPart) or p.operands is not None or \
                not isinstance(q, ArrayPart):
            continue
        fs = _factors(p.text)
        if fs is None:
            continue
        arrays = [_bound(doc, ref, q.array) for _, ref in fs]
        if any(a is None or a is q.array for a in arrays) or arrays[0] is arrays[1]:
            continue
        out.append(NamedProductClaim(c, p.text, arrays[0], arrays[1], fs[0][1].transposed, fs[1][1].transposed,
                                     q.array))
    return out


def labelled_products(doc: Document, taken: set[int]) -> list[NamedProductClaim]:
    """A drawn matrix whose label is the product by name (`Q · K^T = ┌ .. ┐` under Q and K drawn the same way):
    the label is the result's own arithmetic, as on a line of its own (taken: the arrays a chain already equates
    with a product)."""
    out = []
    for a in doc.arrays:
        if a.id in taken or not a.label or a.style == "table" or a.elided:
            continue
        fs = _factors(a.label)
        if fs is None:
            continue
        arrays = [_bound(doc, ref, a) for _, ref in fs]
        if any(x is None or x is a for x in arrays) or arrays[0] is arrays[1]:
            continue
        chain = Chain([LabelPart(a.label), ArrayPart(a)], ["="], a.place, a.label, a.context)
        out.append(NamedProductClaim(chain, a.label, arrays[0], arrays[1], fs[0][1].transposed, fs[1][1].transposed,
                                     a))
    return out


def _agree(lv, lh, rv, rh, cv, ch) -> np.ndarray | None:
    """Which entries of the printed result are the product of the printed factors, within their rounding."""
    if lv.shape[1] != rv.shape[0] or cv.shape != (lv.shape[0], rv.shape[1]):
        return None
    exact = lv @ rv
    slack = np.abs(lv) @ rh + lh @ np.abs(rv) + lh @ rh + ch
    return np.abs(cv - exact) <= slack * (1 + 1e-9) + 1e-9 * np.maximum(1.0, np.abs(exact))


def _other_readings(lv, lh, rv, rh, cv, ch) -> int:
    """The most entries any other reading of the same factors explains."""
    best = 0
    for a, ah, b, bh in ((lv.T, lh.T, rv, rh), (lv, lh, rv.T, rh.T), (lv.T, lh.T, rv.T, rh.T), (rv, rh, lv, lh),
                         (rv.T, rh.T, lv.T, lh.T)):
        for c_, chh in ((cv, ch), (cv.T, ch.T)):
            g = _agree(a, ah, b, bh, c_, chh)
            if g is not None:
                best = max(best, int(g.sum()))
    g = _agree(lv, lh, rv, rh, cv.T, ch.T)
    if g is not None:
        best = max(best, int(g.sum()))
    for a, ah, b, bh in ((lv, lh, rv, rh), (lv, lh, rv.T, rh.T), (lv.T, lh.T, rv, rh)):
        if a.shape == b.shape == cv.shape:            # "×" read elementwise
            slack = np.abs(a) * bh + ah * np.abs(b) + ah * bh + ch
            best = max(best, int((np.abs(cv - a * b) <= slack * (1 + 1e-9) + 1e-9).sum()))
    if lv.shape[1] == rv.shape[0] and cv.shape == (lv.shape[0], rv.shape[1]):
        p = lv @ rv                                   # a constant multiple: a scale the label leaves out
        big = np.abs(p) > 1e-9
        den = float(np.sum(p * p))
        scales = [float(np.sum(p * cv)) / den] if den > 0 else []
        scales += [float(np.median(cv[big] / p[big]))] if big.any() else []
        for s in scales:
            if abs(s - 1) > 1e-9 and s != 0:
                g = _agree(lv * s, lh * abs(s), rv, rh, cv, ch)
                best = max(best, int(g.sum()) if g is not None else 0)
    return best


def _given(a: Array, h: np.ndarray) -> np.ndarray:
    """The half-units a factor's printed rounding allows: none for a given typed by hand (integers and one
    decimal: X, a weight matrix, or Q, K, V given; not a program's printout nor said to be rounded), which the
    author multiplies as printed; its own half-units otherwise.  A matrix drawn with brackets in a code block
    (`Q = ┌ .. ┐`) is typed by hand too."""
    r = lb.parse_label(a.label)
    typed = a.rel != "≈" and not a.context.approx and (a.place.where not in ("output", "comment") or
                                                        a.style in ("tex", "box"))
    if typed and r is not None and r.nodes[0] in ("X", "W_Q", "W_K", "W_V", "W_O", "Q", "K", "V") and \
            all(n.decimals is None or n.decimals <= 1 for n in a.numbers):
        return np.zeros_like(h)
    return h            # a printout, or a rounding said so (X ≈ [...]): the printed digits are not all there is


class NamedProductJudging:
    """Judge method for NamedProductClaim (a mixin of Judge)."""

    def judge_named_product(self, c: NamedProductClaim) -> None:
        got = [_values(a) for a in (c.left, c.right, c.result)]
        if any(g is None for g in got) or c.chain.context.partial or c.result.context.partial:
            return
        (lv, lh), (rv, rh), (cv, ch) = got
        lh, rh = _given(c.left, lh), _given(c.right, rh)
        if c.left_t:
            lv, lh = lv.T, lh.T
        if c.right_t:
            rv, rh = rv.T, rh.T
        agree = _agree(lv, lh, rv, rh, cv, ch)
        n = cv.size
        if agree is not None and n >= 4 and agree.sum() >= max(2, 2 * n / 3):
            self._mostly_the_product(c, agree, lv @ rv, _other_readings(lv, lh, rv, rh, cv, ch))
            return
        if agree is None or n < 4:
            return                       # not this product's shape, or too small to say
        if _other_readings(lv, lh, rv, rh, cv, ch) >= max(2, n / 3):
            return                       # another reading of the same factors explains it
        plan = getattr(self, "plans", {}).get(c.result.id)
        if plan is not None and (plan["kind"] in ("holds", "layout", "shape", "elided") or (
                plan.get("hit") is not None and (plan["hit"].n_ok >= max(3, n / 3) or
                                                 plan["hit"].n_ok > agree.sum()))):
            return                       # the configuration explains it: the printed factor is the slip, not this
        exact = lv @ rv
        a = c.result
        wrong = [(i, j) for (i, j), ok in np.ndenumerate(agree) if not ok]
        self.n_claims += 1
        self.n_numbers += n
        i, j = wrong[0]
        num = a.rows[i][j]
        x = float(exact[i, j])
        first = num.line or a.row_line(i)
        name = a.label or c.text
        self.add(Finding(first, a.place.cell, f"{name}[{i + 1},{j + 1}]", num.text, x, num.rounded(x),
                         c.chain.context.step or "projection",
                         f"arithmetic slip: {c.text} from the {c.left.label} and {c.right.label} printed before it "
                         f"gives {num.rounded(x)}; {len(wrong)} of {n} entries are not that product", "arithmetic"))
        seen = {first}
        for i, j in wrong[1:]:
            num = a.rows[i][j]
            line = num.line or a.row_line(i)
            if line in seen:
                continue
            seen.add(line)
            x = float(exact[i, j])
            self.add(Finding(line, a.place.cell, f"{name}[{i + 1},{j + 1}]", num.text, x, num.rounded(x),
                             c.chain.context.step or "projection",
                             f"follows from line {first}: the same product {c.text}, wrong there as well",
                             "arithmetic", severity="note"))

    def _mostly_the_product(self, c: NamedProductClaim, agree: np.ndarray, exact: np.ndarray, other: int) -> None:
        """Most entries are the product the label names: each other entry is a slip of it, unless the configuration
        judges the printout already (its trace identifies it) or another reading of the factors explains more."""
        if agree.all() or other > agree.sum():
            return
        plan = getattr(self, "plans", {}).get(c.result.id)
        hit = plan.get("hit") if plan is not None else None
        if plan is not None and (plan["kind"] in ("holds", "layout", "shape", "elided") or (
                hit is not None and hit.n_ok >= 2 * c.result.numbers.__len__() / 3)):
            return
        a = c.result
        self.n_claims += 1
        self.n_numbers += agree.size
        name = a.label or c.text
        for (i, j), ok in np.ndenumerate(agree):
            if ok:
                continue
            num = a.rows[i][j]
            x = float(exact[i, j])
            self.add(Finding(num.line or a.row_line(i), a.place.cell, f"{name}[{i + 1},{j + 1}]", num.text, x,
                             num.rounded(x), c.chain.context.step or "scores",
                             f"arithmetic slip: {c.text} from the {c.left.label} and {c.right.label} printed before "
                             f"it gives {num.rounded(x)}", "arithmetic"), merge=True)
            self._note_factors(num.line or a.row_line(i), a.place.cell, num.text, c)

    def _note_factors(self, line: int, cell, printed: str, c: NamedProductClaim) -> None:
        """Remember the printed factors a product finding was worked from (factor_slips settles it)."""
        self.product_factors.append(((line, cell, printed), (c.left, c.right)))


def factor_slips(j) -> None:
    """A product found off its printed factors where one of those factors is itself found wrong (an error on one
    of its lines): the slip is in the factor, and the product, worked from the right values, is not its copy."""
    def found_wrong(a) -> bool:
        lines = {n.line for n in a.numbers if n is not None and n.line}
        return any(f.severity == "error" and f.cell == a.place.cell and f.line in lines for f in j.findings)
    for key, factors in j.product_factors:
        if any(found_wrong(a) for a in factors):
            j.findings = [f for f in j.findings if not (f.severity == "error" and (f.line, f.cell, f.printed) == key)]
