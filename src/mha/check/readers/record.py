"""A typed statement stored: its arrays with the labels the statement gives them (a softmax's argument and
result tied, a factor set apart, a subject carried along the chain), and the statement itself as a chain when it
says something (statements.py types the parts)."""

from __future__ import annotations

import math
import re

from .. import labels as lb
from .. import numbers as nb
from ..objects import (Array, ArrayPart, Chain, Context, Document, ExprPart, LabelPart, Part, Place, ShapePart,
                      ShapeProduct)
from .common import arrow_sides
from .derivation import continue_derivation
from .factor import leading_factor, scale_array
from .subjects import INTERVAL, sizes_of_shape, subject_rel, under_head
from .tokens import ARROW_SOFTMAX

SOFTMAX_INPUT = "softmax input"       # the label of the argument of a written softmax call
QUOTES = "\"'“”‘’「」"
_QUOTED = re.compile(rf"[{QUOTES}][^{QUOTES}]{{1,30}}[{QUOTES}]")
_SYMBOL = re.compile(r"[A-Za-z][A-Za-z0-9]{0,3}(\^\{?\(?[A-Za-z0-9]+\)?\}?|_\{?[A-Za-z0-9]+\}?)*")
_PAREN_VECTOR = re.compile(r"\(\s*-?\d+(?:\.\d+)?(?:\s*,\s*-?\d+(?:\.\d+)?)+\s*\)")


def record(parts: list[Part], rels: list[str], place: Place, text: str, doc: Document, ctx: Context,
           shown: str = "") -> None:
    """Store the arrays of a statement with their labels, and the statement itself when it says something (shown:
    its text with the spaces it was written with, for findings to quote)."""
    labels = [p.text for p in parts if isinstance(p, LabelPart) and p.text != ARROW_SOFTMAX and not p.scalar]
    sides = arrow_sides([p.text if isinstance(p, LabelPart) and p.text != ARROW_SOFTMAX and not p.scalar else None
                         for p in parts], rels)
    applied = None                            # the vector of a written softmax([...]) = ...
    for k, p in enumerate(parts):
        if isinstance(p, LabelPart) and k and isinstance(parts[k - 1], ArrayPart) and \
                parts[k - 1].array.label == SOFTMAX_INPUT:
            got = _paren_vector(p.text, place)          # softmax(0.71, 1.41, 0.00) = (0.29, 0.57, 0.14)
            if got is not None:
                parts[k] = p = ArrayPart(got)
        if isinstance(p, ArrayPart):
            a = p.array
            if k and (isinstance(parts[k - 1], LabelPart) and INTERVAL.search(parts[k - 1].text) or
                      rels[k - 1] == "∈") and a.is_vector and a.n_cols == 2:
                continue                      # "each value stays in [-1, 1]", "y ∈ [1.17, 1.54]": a range, no value
            if sizes_of_shape(parts, k, a):
                continue                      # "Q × K^T shape: [3 × 2] × [2 × 3] = [3 × 3]": sizes, no value
            if a.label == SOFTMAX_INPUT:
                applied = a
                a.labels = [a.label]
                a.rel = ""
                a.context = Context(**{**ctx.__dict__})
                doc.add_array(a)
                continue
            if applied is not None and a.is_vector and a.n_cols == applied.n_cols:
                a.softmax_of = applied        # "= [0.1544, 0.8456, 0, 0]": the softmax of that vector, as written
            if k >= 2 and isinstance(parts[k - 1], LabelPart) and (parts[k - 1].text == ARROW_SOFTMAX or (
                    parts[k - 1].text.strip().lower() == "softmax" and rels[k - 2:k] == ["→", "→"])) and \
                    isinstance(parts[k - 2], ArrayPart) and a.is_vector and parts[k - 2].array.is_vector and \
                    parts[k - 2].array.n_cols == a.n_cols:
                a.softmax_of = parts[k - 2].array     # [1.5, 0] --softmax--> [0.55, ..], [10, 1] → softmax → [..]
            if k and a.softmax_of is None and k - 1 < len(rels) and rels[k - 1] == "→" and \
                    isinstance(parts[k - 1], ArrayPart) and \
                    _softmax_context(ctx, text) and _arrow_softmax(parts[k - 1].array, a):
                a.softmax_of = parts[k - 1].array     # `[1, 0, 1]  →  [0.42, 0.16, 0.42]` under a softmax heading
                a.softmax_arrow = True
            if k >= 2 and k == len(parts) - 1 and isinstance(parts[k - 1], LabelPart) and \
                    isinstance(parts[k - 2], LabelPart):
                f = leading_factor(parts[k - 1].text)     # W_O = \frac{1}{2}[...]: W_O is the product (factor.py)
                if f is not None:
                    scale_array(a, f, parts[k - 1].text)
                    parts[k - 1] = LabelPart("")
            if k and isinstance(parts[k - 1], LabelPart) and parts[k - 1].scalar:
                # "S = \frac{1}{2} [M] ≈ [M']": M is a factor of the product, not S; unnamed
                a.label, a.labels, a.rel = "", [], ""
                a.context = Context(**{**ctx.__dict__})
                doc.add_array(a)
                continue
            left, first = _label_of(parts, rels, k)
            # "和 = 5.06 → [0.40, 0.20, 0.40]": the sum's name is not the row's
            after_scalar = k >= 2 and rels[k - 1] in ("→", "⇒") and isinstance(parts[k - 1], ExprPart) and \
                nb.plain_number(parts[k - 1].expr) is not None and not sides[k]
            # "QK^T = [[..]] \xrightarrow{÷√2} [[..]]": the matrix after the arrow is the next step's, not QK^T
            # (a label equated to the first matrix only: "Scaled: [7, 4] → [7/2, 4/2]" captions the whole line, and
            # softmax([0, 1]) → [..] is the call's result)
            after_scalar = after_scalar or (k >= 2 and rels[k - 1] in ("→", "⇒") and rels[0] == "=" and
                                            isinstance(parts[k - 1], ArrayPart) and not sides[k] and
                                            parts[k - 1].array.label != SOFTMAX_INPUT)
            mine = sides[k]
            if mine:                          # "exp = [2.03, 1.00] → α = [0.67, 0.33]": each side its own names
                left = left if left in mine else mine[-1]
            # "QK^T = [..] \xrightarrow{÷√2} [..] \xrightarrow{row softmax} [..]": the last is the weights
            said_softmax = not mine and k >= 2 and isinstance(parts[k - 1], LabelPart) and \
                parts[k - 1].text == ARROW_SOFTMAX and isinstance(parts[k - 2], ArrayPart)
            if said_softmax:
                left, after_scalar = "softmax", False
            a.label = "" if after_scalar else left
            a.labels = [] if after_scalar else (["softmax"] if said_softmax else (mine or labels))
            a.rel = rels[k - 1] if 0 < k <= len(rels) else ""
            if k > 0 and isinstance(parts[k - 1], ExprPart):
                a.prev_expr = parts[k - 1].expr
            elif k > 0 and isinstance(parts[k - 1], LabelPart) and parts[k - 1].operands is not None:
                a.prev_factors = parts[k - 1].operands
            a.context = Context(**{**ctx.__dict__})
            a.context.approx = ctx.approx
            if first and first != left and not subject_rel(parts, rels, first):
                under_head(a, first, left)    # "Head1: Q(token2) = [0, 1]" is q_2^(1) (subjects.py)
            doc.add_array(a)
    _shape_results(parts, doc)
    lone = len(parts) == 1 and isinstance(parts[0], (ExprPart, ArrayPart)) and \
        re.match(r"\s*(=|≈|\\approx)", text) is not None     # "= [0.41, 0.49]": goes on with the display above
    if len(parts) >= 2 or lone or any(isinstance(p, (ShapePart, ShapeProduct)) for p in parts):
        c = Context(**{**ctx.__dict__})
        c.approx = ctx.approx
        chain = Chain(parts, rels, place, text, c, shown)
        if not continue_derivation(doc, chain):      # "z1 = ..." again on the next line: the same chain
            doc.chains.append(chain)


def _label_of(parts: list[Part], rels: list[str], k: int) -> tuple[str, str]:
    """The label an array at parts[k] is named by (the nearest before it, or the chain's subject), and the first
    label of the chain."""
    left = next((q.text for q in reversed(parts[:k]) if isinstance(q, LabelPart) and not q.scalar and q.text), "")
    first = next((q.text for q in parts[:k] if isinstance(q, LabelPart) and not q.scalar and q.text), "")
    if first and first != left and _SYMBOL.fullmatch(first) and not _SYMBOL.fullmatch(left) and \
            subject_rel(parts, rels, first):
        # "Y = Concat(O^(1), O^(2)) ≈ [...]": the chain's subject; not past a name of its own
        # ("W_K = [[...]] → K = [0.3, 0.7]": K), nor a heading before a colon ("Head1: Q(token2) = ...")
        left = first
    elif first and first != left and _QUOTED.fullmatch(left.strip()) and \
            getattr(lb.parse_label(first), "strong", False):
        left = first                  # `Query = "cat" = [0, 1]`: the quantity, not the word it is for
    if not left:
        left = next((q.text for q in parts[k + 1:] if isinstance(q, LabelPart) and q.text != ARROW_SOFTMAX), "")
    return left, first


def _shape_results(parts: list[Part], doc: Document) -> None:
    """Shape products take their result from the next part: [3,2] × [2,3] = [3,3], (3, 4) @ (4, 2) -> (3, 2)."""
    for k, p in enumerate(parts):
        if isinstance(p, ShapeProduct) and k + 1 < len(parts):
            nxt = parts[k + 1]
            if isinstance(nxt, ArrayPart) and nxt.array.is_vector and nxt.array.all_integers():
                p.result = [int(c.value) for c in nxt.array.numbers]
                if nxt.array in doc.arrays:
                    doc.arrays.remove(nxt.array)
            elif isinstance(nxt, (LabelPart, ExprPart)):
                m = re.fullmatch(r"\(?\s*(\d+(?:\s*[,*]\s*\d+)+)\s*\)?", nxt.text.replace(" ", ""))
                if m:
                    p.result = [int(x) for x in re.split(r"[,*]", m.group(1))]
                    if isinstance(nxt, ExprPart):
                        parts[k + 1] = LabelPart(nxt.text)


def _softmax_context(ctx: Context, text: str) -> bool:
    """The step at hand is the softmax: the heading names it (or the step it sets), or the line itself does."""
    return ctx.step == "softmax" or "softmax" in (ctx.heading or "").lower() or "softmax" in text.lower()


def _arrow_softmax(x: Array, y: Array) -> bool:
    """`[scores] → [weights]`: two one-row vectors of one length (two or more), the second a row of probabilities
    (none negative, summing to 1 within their rounding), the first not one (it would be the same weights again)."""
    if not (x.is_vector and y.is_vector and len(x.rows) == len(y.rows) == 1 and x.n_cols == y.n_cols >= 2):
        return False
    xs, ys = x.rows[0], y.rows[0]
    if any(n is None or not math.isfinite(n.value) for n in ys) or any(n is None for n in xs):
        return False
    if any(n.value < 0 or n.value > 1 for n in ys) or abs(sum(n.value for n in ys) - 1) > 0.2:
        return False                # (a slipped weight moves the sum; the judge asks most such rows to fit)
    finite = [n.value for n in xs if math.isfinite(n.value)]
    return len(finite) >= 2 and not (all(0 <= v <= 1 for v in finite) and abs(sum(finite) - 1) < 0.02)


def _paren_vector(text: str, place: Place) -> Array | None:
    """(0.29, 0.57, 0.14) as a one-row array (the value of a softmax written out just before it)."""
    if not _PAREN_VECTOR.fullmatch(text.strip()):
        return None
    nums = [nb.Num.parse(x.strip(), place.line) for x in text.strip()[1:-1].split(",")]
    return Array([nums], place, style="tuple")
