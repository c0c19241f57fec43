"""The vector-arithmetic claim: a vector of sums and the vector it gives ([0.80 + 0.80, 0.80 - 0.80] = [1.60, 0.00],
0.4 [1, 0] + 0.6 [0, 1] = [0.4, 0.6]), and a weighted sum of value vectors written out (o_i = Σ_j a_ij v_j)."""

from __future__ import annotations

import re

from dataclasses import dataclass
from typing import Any

import numpy as np

from .. import numbers as nb
from ..objects import ArrayPart, Chain, ExprPart, LabelPart
from ..report import Finding, NotChecked
from .common import _chain_text, _simple_kind, shape_notes
from .conventions import concatenated_shapes


@dataclass
class VectorArithClaim:
    """[0.80 + 0.80, 0.80 - 0.80] = [1.60, 0.00], or 0.4 [1, 0] + 0.6 [0, 1] = [0.4, 0.6]: a vector of sums."""
    chain: Chain
    k: int                    # the expression (or array of expressions) is part k, the printed result part k + 1
    expr: Any = None          # part k's expression with its named vectors put in (named_vector_sum), if it had any
    to: int | None = None     # the printed result's part when it is not k + 1: softmax([30/√512, …]) = softmax([1.33, …])


_SUBSCRIPTS = str.maketrans("₀₁₂₃₄₅₆₇₈₉", "0123456789")


def _plain_name(text: str) -> str:
    """The name a label ends with, as one spelling: "with values v_{1}" → "v1", "v₁" → "v1"."""
    names = re.findall(r"[A-Za-z\u03b1-\u03c9][\w{}]*", text.translate(_SUBSCRIPTS))
    return re.sub(r"[_{}]", "", names[-1]).lower() if names else ""


def named_vector_sum(e, chain: Chain, arrays: list, width: int):
    """0.731·v1 + 0.269·v2 with v1 and v2 printed before as vectors of the result's width (`v1 = [2, 0]`): the
    expression with those printed vectors in place of the names, so that the sum is judged against its own
    terms, as `0.731 [2, 0] + 0.269 [0, 4]` is; None when a name has no such vector (nearest one before wins)."""
    at = (chain.place.cell or 0, chain.place.line)

    names = [_plain_name(s.text) for s in _symbols(e)]
    # v0, v1, v2 (or v1, v2, v3) given one per line and stacked into V: the rows of that V, counted as the names count
    base = 0 if any(re.fullmatch(r"[a-z]0", n) for n in names) else 1

    def vec(name: str):
        key = _plain_name(name)
        found = [a for a in arrays if a.label and _plain_name(a.label) == key and a.is_vector and
                 a.n_cols == width and len(a.rows) == 1 and None not in a.rows[0] and (a.place.cell or 0, a.line) <= at]
        if found:
            return tuple(max(found, key=lambda a: (a.place.cell or 0, a.line)).rows[0])
        m = re.fullmatch(r"([a-z])(\d)", key)
        if m is None:
            return None
        i = int(m.group(2)) - base
        stacked = [a for a in arrays if a.label and a.label.strip() == m.group(1).upper() and a.n_cols == width
                   and (a.place.cell or 0, a.line) < at and 0 <= i < len(a.rows) and a.rows[i] is not None
                   and None not in a.rows[i]]
        return tuple(max(stacked, key=lambda a: (a.place.cell or 0, a.line)).rows[i]) if stacked else None

    def put(x):
        if isinstance(x, nb.Sym):
            row = vec(x.text)
            return None if row is None else nb.Vec(row)
        if isinstance(x, nb.Op):
            args = [put(y) for y in x.args]
            return None if any(y is None for y in args) else nb.Op(x.op, tuple(args))
        return x

    out = put(e)
    return out if out is not None and nb.face_vector(out) is not None else None


def _symbols(e) -> list:
    if isinstance(e, nb.Sym):
        return [e]
    return [s for a in e.args for s in _symbols(a)] if isinstance(e, nb.Op) else []


_CALL = re.compile(r"\s*([A-Za-z]+)\s*\(")


def restated_argument(parts: list, k: int) -> bool:
    """`softmax([30/√512, 25/√512]) = softmax([1.33, 1.11])`: a call's argument written as arithmetic, then the same
    call of the numbers it gives; the second argument is the first worked out, entry by entry."""
    if k < 1 or k + 2 >= len(parts):
        return False
    before, a, call, b = parts[k - 1:k + 3]
    if not (isinstance(before, LabelPart) and isinstance(a, ArrayPart) and isinstance(call, LabelPart)
            and isinstance(b, ArrayPart) and a.array.is_vector and b.array.is_vector
            and a.array.n_cols == b.array.n_cols):
        return False
    f, g = _CALL.match(before.text), _CALL.match(call.text)
    return f is not None and g is not None and f.group(1).lower() == g.group(1).lower() and \
        any(re.search(r"[-+*/×·√]", n.text.lstrip("-+")) for n in a.array.numbers) and \
        not any(re.search(r"[-+*/×·√]", n.text.lstrip("-+")) for n in b.array.numbers)


def worked_arguments(chains: list) -> tuple[dict[int, list], set[int]]:
    """For each call's argument printed as numbers after the same call of their arithmetic (`softmax([30/√512, …])
    = softmax([1.33, 1.21, …])`) with an entry its arithmetic does not give: that printed row with those entries put
    right (rounded as printed), by the id of the argument's array; and the ids of every array in those chains (the
    weights the call gives stand there too)."""
    rows: dict[int, list] = {}
    members: set[int] = set()
    for ch in chains:
        for k in range(1, len(ch.parts) - 2):
            if not restated_argument(ch.parts, k):
                continue
            worked, printed = ch.parts[k].array.rows[0], ch.parts[k + 2].array
            row = [b.put_at(a.value) if a is not None and b is not None and b.decimals is not None and
                   not b.contains(a.value) else b for a, b in zip(worked, printed.rows[0])]
            if any(x is not y for x, y in zip(row, printed.rows[0])):
                rows[id(printed)] = row
                members |= {id(p.array) for p in ch.parts if isinstance(p, ArrayPart)}
    return rows, members


def _sum_span(n: nb.Num) -> float:
    """[0.804430 - 0.195570, 0 + 0.195570]: a cell written as a sum of rounded terms spans their rounding (half a
    unit of each term of two decimals or more); a cell that multiplies numbers of three decimals or more
    (`0.403×1.411`, values worked at full precision and shown rounded) spans how far their rounding moves the
    product; a printed number, or a product of shorter numbers (`0.1*0.52`), spans nothing: a weight of one or two
    decimals is a given, exact as written."""
    if n.decimals is not None:
        return 0.0
    if re.search(r"[*×·/÷]", n.text):
        return _product_span(n.text)
    return sum(nb.half_unit(len(m.group(1))) for m in re.finditer(r"\d\.(\d+)", n.text) if len(m.group(1)) >= 2)


def _product_span(text: str) -> float:
    """How far a cell's arithmetic moves when each factor of three decimals or more moves within its rounding (the
    moves added: an interval's width); 0 when no factor is that long or the cell does not parse."""
    from ..readers.expr import arithmetic_of
    e = arithmetic_of(text, times_x=True)
    long = [x for x in nb.leaves(e) if (x.decimals or 0) >= 3] if e is not None else []
    if not long:
        return 0.0
    try:
        base = nb.evaluate(e).value
        return sum(abs(nb.evaluate(nb.substitute(e, {id(x): x.value + x.half})).value - base) for x in long)
    except (ArithmeticError, ValueError, TypeError):
        return 0.0


def _result_holds(plan, j: int) -> bool:
    """Entry j of a one-row result agrees with the configuration its object was identified under: then a sum of
    terms that disagrees with it has its slip in the terms (`[1+0, 0+0] = [1, 1]` for q₃ = [1, 1]), not here."""
    hit = plan.get("hit") if plan and plan.get("kind") == "holds" else None
    if hit is None or hit.view is None or np.ndim(hit.ok) != 2 or np.shape(hit.ok)[0] != 1 or j >= np.shape(hit.ok)[1]:
        return False
    return bool(hit.ok[0, j])


def _carried_rounding(expr, face: list[float]) -> list[float] | None:
    """How far each entry of a written vector sum moves when each rounded scalar term moves by half a unit of its
    last digit (the sum is linear in each weight), the moves added in quadrature (independent roundings rarely all
    lean one way; weights summing to one lean less still): the entry's room for the terms' own rounding.  A vector's
    entry of three decimals or more is a rounded value too (`1.103 [0.008, 0.101]`, a gradient worked at full
    precision); shorter ones ([1, 0], [0.12, 0.85]) are givens, exact as written."""
    out = [0.0] * len(face)
    moves = [{id(leaf): leaf.value + leaf.half} for leaf in nb.leaves(expr) if (leaf.decimals or 0) >= 2 and
             not any(leaf is c for v in _vectors(expr) for c in v.cells)]
    moves += [{(id(v), i): c.value + c.half} for v in _vectors(expr) for i, c in enumerate(v.cells)
              if (c.decimals or 0) >= 3]
    for move in moves:
        try:
            moved = nb.face_vector(_moved(expr, move))
        except (ArithmeticError, ValueError, TypeError):
            return None
        if moved is None or len(moved) != len(face):
            continue
        out = [o + (m - f) ** 2 for o, m, f in zip(out, moved, face)]
    return [x ** 0.5 for x in out]


def _given_vectors(expr) -> bool:
    """Is the sum weighted, and are its vectors givens typed as whole numbers ([1, 0], [0, 2])?  Vectors with decimals
    ([1.74, 1.31], a product rounded on the line before; `[0.4, 1.0] + [0.4, 2.0]`, terms rounded to one decimal)
    may carry rounding of their own."""
    vs = _vectors(expr)
    weighted = any((leaf.decimals or 0) >= 1 and not any(leaf is c for v in vs for c in v.cells)
                   for leaf in nb.leaves(expr))
    return bool(vs) and weighted and all(not c.decimals for v in vs for c in v.cells)


def _coarser_vectors(expr, finest: int) -> bool:
    """0.28·[0.2, 0.5] + 0.23·[0.8, 0.1]: vectors written coarser than the weights (one decimal against two), as
    givens are; then only the weights' rounding moves the sum, as with whole vectors."""
    return all((c.decimals or 0) < finest for v in _vectors(expr) for c in v.cells)


def _weighted_sum(expr) -> bool:
    """(0.28 * [0.2, 0.5]) + (0.23 * [0.8, 0.1]) + ...: two or more terms, each one written weight times one
    written vector.  No other operation reads so; its printed result is that sum or a slip."""
    terms = nb.terms_of(expr)
    if len(terms) < 2:
        return False
    for t in terms:
        fs = nb.factors_of(t)
        if len(fs) != 2 or sum(isinstance(f, nb.Vec) for f in fs) != 1 or \
                not any(nb.plain_number(f) is not None for f in fs):
            return False
    return True


def _vectors(e) -> list:
    if isinstance(e, nb.Vec):
        return [e]
    return [v for a in e.args for v in _vectors(a)] if isinstance(e, nb.Op) else []


def _moved(e, move: dict):
    """The expression with one printed number moved: a scalar (keyed by its Num's id) or a vector's entry (keyed
    by the vector's id and the entry's place)."""
    if isinstance(e, nb.Vec):
        cells = tuple(nb.Num(move[(id(e), i)], c.text, move[(id(e), i)], move[(id(e), i)], c.line, None)
                      if (id(e), i) in move else c for i, c in enumerate(e.cells))
        return nb.Vec(cells)
    if isinstance(e, nb.Op):
        return nb.Op(e.op, tuple(_moved(a, move) for a in e.args))
    return nb.substitute(e, move)


def _weights_rounding(c: Chain, k: int, n: int) -> list[float] | None:
    """When the terms of part k are vectors that the part before writes as products and gives exactly (`0.25 ×
    [1, 0] + 0.50 × [2, 1] = [0.25, 0.00] + [1.00, 0.50]`), the terms carry no rounding of their own: the sum can
    differ from theirs only by what the weights' own rounding moves it (each weight of two or more decimals within
    half a unit, times the value it weighs; weights of one decimal are givens).  That room per entry, else None."""
    if k < 1 or not isinstance(c.parts[k], ExprPart) or not isinstance(c.parts[k - 1], ExprPart):
        return None
    now, before = nb.terms_of(c.parts[k].expr), nb.terms_of(c.parts[k - 1].expr)
    if len(now) != len(before) or len(now) < 2 or not all(isinstance(t, nb.Vec) for t in now) or \
            all(isinstance(t, nb.Vec) for t in before):
        return None
    for t, v in zip(before, now):
        face = nb.face_vector(t)
        if face is None or len(face) != len(v.cells) or \
                any(abs(f - x.value) > 1e-12 * max(1.0, abs(f)) for f, x in zip(face, v.cells)):
            return None
    expr = c.parts[k - 1].expr
    base = nb.face_vector(expr)
    if base is None or len(base) != n:
        return None
    room = [0.0] * n
    for leaf in nb.leaves(expr):
        if (leaf.decimals or 0) < 2:
            continue
        try:
            moved = nb.face_vector(nb.substitute(expr, {id(leaf): leaf.value + leaf.half}))
        except (ArithmeticError, ValueError, TypeError):
            return None
        if moved is None or len(moved) != n:
            return None
        room = [r + abs(m - b) for r, m, b in zip(room, moved, base)]
    return room


class VectorJudging:
    """Judge methods for VectorArithClaim, and the weighted sums inside arithmetic lines."""

    def judge_vector_arith(self, c: Chain, k: int, plans: dict[int, Any], expr=None, to: int | None = None) -> None:
        if c.context.partial or c.context.dropout or (id(c), k) in getattr(self, "termwise_slips", ()):
            return                   # dropped values, or a term of this sum is wrong and reported already (termwise.py)
        if shape_notes(c.text):
            return                   # "[100*100] * [100*64] = [100*64]": shapes multiplied, no vectors
        left, right = c.parts[k], c.parts[k + 1 if to is None else to]
        result = right.array
        cells = result.rows[0] if result.n_rows == 1 else [r[0] for r in result.rows]    # a row, or a column
        if isinstance(left, ExprPart):
            expr = expr or left.expr
            face = nb.face_vector(expr)
            terms = nb.leaves(expr)
            spans = None
        else:
            if any(n is None for n in left.array.rows[0]):
                return
            face = [n.value for n in left.array.rows[0]]
            terms = left.array.numbers
            spans = [_sum_span(n) for n in left.array.rows[0]]
        if face is None or len(face) != len(cells) or any(x is None for x in cells):
            return
        if isinstance(left, ExprPart) and concatenated_shapes(left.expr, cells):
            return                           # [5, 8] + [5, 8] → [5, 16]: shapes side by side, not a sum
        self.n_claims += 1
        obj = next((o for o in self.objs if o.a is result), None)
        plan = plans.get(result.id) if obj is not None else None
        if plan is None and obj is not None and self.vs is not None and result.id not in set(self.uses):
            plan = self.attribute(obj)       # a result no array claim placed (the end of `= [7.39/10.10, ...]`),
            #                                  unless the configuration starts from it (it then holds by definition)
        step = None
        if plan and plan["kind"] == "holds" and plan.get("hit") is not None and plan["hit"].view is not None:
            step = self.step_of(plan["hit"].view.node)
        if step is None and isinstance(left, ExprPart) and re.search(r"(?<![A-Za-z])e\^|exp", left.text):
            step = "softmax"                 # [e^1, e^0, e^{0.5}] / (e^1 + e^0 + e^{0.5}): exponentials over their sum
        if step is None and isinstance(left, ExprPart) and any(isinstance(f, nb.Vec) for t in nb.terms_of(expr)
                                                               for f in nb.factors_of(t)):
            step = "weighted_sum"            # Σ_j a_j v_j
        if step is None and plan and plan.get("hit") is not None and plan["hit"].view is not None:
            step = self.step_of(plan["hit"].view.node)
        step = step or c.context.step or "weighted_sum"
        finest = max((t.decimals or 0) for t in terms) if terms else 0
        # exp([0, 5.657, 2.828]): the call names the operation; each entry moves with its argument's rounding
        args = expr.args[0].cells if isinstance(left, ExprPart) and isinstance(expr, nb.Op) and expr.op == "exp" \
            else None
        carried = _carried_rounding(expr, face) if isinstance(left, ExprPart) and args is None else None
        # one scalar times one vector (`0.39 * [0, 1, 1]`): only the scalar's own rounding moves it, not a share of
        # every printed digit's
        single = carried is not None and len(nb.terms_of(expr)) == 1
        weighed = _weights_rounding(c, k, len(cells))
        # a sum of weights times value vectors, every number written: its result is that sum or a slip
        written = isinstance(left, ExprPart) and _weighted_sum(expr)
        # its vectors given as written (whole, or coarser than the weights): only each weight's rounding moves it
        givens = carried is not None and (_given_vectors(expr) or (written and _coarser_vectors(expr, finest)))
        exact_terms = to is None and isinstance(left, ExprPart) and self._products_worked_before(
            c, k, face, said_equal=k < len(c.rels) and c.rels[k] == "=")
        bad = []
        for j, (f, n) in enumerate(zip(face, cells)):
            self.n_numbers += 1
            slack = n.half * (1 + 1e-9) + 1e-12 + (spans[j] if spans else 0.0)
            if exact_terms:
                pass                             # 0.6·v1 + 0.3·v2 = [0.6, 0.0] + [0.0, 0.6]: products, exact as written
            elif weighed is not None:
                slack += weighed[j]              # [0.25, 0.00] + [0.25, 0.25] + [1.00, 0.50]: exact products
            elif args is not None:
                slack += abs(f) * (args[j].hi - args[j].lo) / 2
            elif single:
                slack += carried[j]
            elif (n.decimals or 0) <= finest and not (n.decimals is None and all(t.decimals is None for t in terms)):
                if givens:
                    # 0.14·[0, 1] + 0.28·[1, 1]: vectors given as written, so only each weight's rounding moves the
                    # sum, times the value it weighs (`= [.., 0.44]` is off by more than that allows)
                    slack += carried[j]
                else:
                    slack += len(terms) * nb.half_unit(finest) / max(1, len(cells))   # the terms' own rounding
                    if carried is not None:
                        # 0.1470·(1.74, 2.1) + ...: each weight's rounding, times the value it weighs
                        slack = max(slack, n.half * (1 + 1e-9) + carried[j])
                # (whole terms adding to a whole result are exact: [4, 0] + [0, 2] + [2, 2] = [6, 4])
            if abs(f - n.value) > slack and not _result_holds(plan, j):
                bad.append((j, f, n))
        if len(cells) >= 2 and 2 * len(bad) > len(cells) and args is None and not written:
            # most entries unlike the sum of its terms: another operation was meant, not one slip per entry
            self.not_checked.append(NotChecked(c.place.line, c.place.cell, _chain_text(c),
                                               f"{len(bad)} of its {len(cells)} entries are not the sum of its terms: "
                                               "another operation (a product, a concatenation) is meant; no entry "
                                               "is judged", "the entrywise sum",
                                               max(abs(f - n.value) for _, f, n in bad)))
            return
        for j, f, n in bad:
            name = f"entry {j + 1} of the argument of {c.parts[to - 1].text}" if to is not None \
                else f"{obj.ref.show()}[{j + 1}]" if obj is not None and obj.ref is not None and obj.ref.strong \
                else f"{_chain_text(c)} [{j + 1}]"
            self.add(Finding(n.line or c.place.line, c.place.cell, name, n.text, f,
                             n.rounded(f), step, f"arithmetic slip: the terms give {n.rounded(f)}",
                             _simple_kind(n, f) if _simple_kind(n, f) != "wrong_value" else "arithmetic"), merge=True)

    def _products_worked_before(self, c: Chain, k: int, face: list[float], said_equal: bool = True) -> bool:
        """`out = 0.6*v1 + 0.3*v2 + 0.1*v3 = [0.6,0.0] + [0.0,0.6] + [0.3,0.1] = [0.9, 0.7]` with v1, v2, v3 printed
        before: the vectors summed are the weighted values worked out, exactly (their sum is the named sum's), so
        they carry no rounding of their own and the result is their sum to its printed digits."""
        before = c.parts[k - 1] if k >= 1 else None
        if not isinstance(before, ExprPart) or not nb.has_symbols(before.expr):
            return False
        sub = named_vector_sum(before.expr, c, self.doc.arrays, len(face))
        got = nb.face_vector(sub) if sub is not None else None
        if got is None or len(got) != len(face) or any(abs(a - b) > 1e-9 for a, b in zip(got, face)):
            return False
        if said_equal:
            return True          # `= [0.216, 0.054] + [0.219, 0.657] = [0.435, 0.711]`: their sum, said to be equal
        # after "≈", only with the weights given as they are (`[0.6, 0.3, 0.1]`), not results worked out before and
        # rounded (`7.389 / 12.826 = 0.5761`, then `0.5761 * [1, 1] ≈ ...`), whose full values the author may carry
        weights = {x.text for x in nb.leaves(before.expr) if x.decimals}
        return not any(c2.place.order < c.place.order and len(c2.parts) >= 2 and
                       (n := nb.plain_number(getattr(c2.parts[-1], "expr", None))) is not None and n.text in weights
                       for c2 in self.doc.chains)
