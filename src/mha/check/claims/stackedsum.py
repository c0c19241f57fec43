"""Vectors added down a column, as a hand-worked example draws it (the weighted values of one query, summed into
its output):

      [0.0, 0.0, 0.0]
    + [1.0, 4.0, 0.0]
    + [1.0, 3.0, 1.5]
    -----------------
    = [2.0, 7.0, 1.5]

The drawing is its own arithmetic: the last vector is the sum of the ones above it, entry by entry, whatever the
configuration.  Each entry is judged with interval arithmetic on the printed terms (their own rounding, and the
result's); a wrong entry is one finding on the result's line."""

from __future__ import annotations

import re

from .. import numbers as nb
from ..numbers import Num
from ..objects import ArrayPart, Document, ExprPart
from ..report import Finding
from .common import _simple_kind

_NUM = r"[-−]?\d+(?:\.\d+)?"
_VEC = rf"\[\s*{_NUM}(?:\s*,?\s+{_NUM}|\s*,\s*{_NUM})+\s*,?\s*\]"
_FIRST = re.compile(rf"^\s*(?:[|>]\s*)?({_VEC})\s*$")
_PLUS = re.compile(rf"^\s*(?:[|>]\s*)?\+\s*({_VEC})\s*$")
_RULE = re.compile(r"^\s*(?:[|>]\s*)?[-─—_=]{3,}\s*$")
_TOTAL = re.compile(rf"^\s*(?:[|>]\s*)?=?\s*({_VEC})\s*$")


def _vector(text: str, line: int) -> list[Num]:
    return [Num.parse(x, line) for x in re.findall(_NUM, text)]


def _blocks(lines: list[str]):
    """(terms, result, result line) of each drawn column sum: a vector, one or more `+ [..]` lines, an optional
    rule, and `= [..]` (or the vector alone under the rule)."""
    k = 0
    while k < len(lines):
        m = _FIRST.match(lines[k])
        if m is None:
            k += 1
            continue
        terms = [_vector(m.group(1), k + 1)]
        j = k + 1
        while j < len(lines) and (p := _PLUS.match(lines[j])):
            terms.append(_vector(p.group(1), j + 1))
            j += 1
        ruled = j < len(lines) and _RULE.match(lines[j]) is not None
        at = j + 1 if ruled else j
        t = _TOTAL.match(lines[at]) if len(terms) >= 2 and at < len(lines) else None
        if t is not None and (ruled or lines[at].lstrip(" |>").startswith("=")):
            total = _vector(t.group(1), at + 1)
            if len({len(v) for v in terms} | {len(total)}) == 1:
                yield terms, total, at + 1
            k = at + 1
            continue
        k = max(j, k + 1)


def _worked_exactly(doc: Document) -> set[tuple[float, ...]]:
    """The vectors the document works out exactly from printed terms (`0.5 * [2, 8, 0] = [1.0, 4.0, 0.0]`): drawn
    again in a column sum, they carry no rounding of their own."""
    out = set()
    for c in doc.chains:
        for k in range(len(c.parts) - 1):
            p, q = c.parts[k], c.parts[k + 1]
            if not isinstance(p, ExprPart) or not isinstance(q, ArrayPart) or not q.array.is_vector or \
                    any(n is None for n in q.array.rows[0]):
                continue
            try:
                face = nb.face_vector(p.expr)
            except (ArithmeticError, OverflowError, ValueError, TypeError):
                continue
            got = [n.value for n in q.array.rows[0]]
            if face is not None and len(face) == len(got) and all(abs(f - g) <= 1e-12 * max(1.0, abs(f))
                                                                  for f, g in zip(face, got)):
                out.add(tuple(got))
    return out


def _exact(v: list[Num]) -> list[Num]:
    return [Num(n.value, n.text, n.value, n.value, n.line, n.decimals) for n in v]


def stacked_sums(doc: Document, findings: list[Finding], text: str) -> list[Finding]:
    out: list[Finding] = []
    if "+" not in text:
        return out
    worked = None
    for terms, total, line in _blocks(text.split("\n")):
        if worked is None:
            worked = _worked_exactly(doc)
        terms = [_exact(v) if tuple(n.value for n in v) in worked else v for v in terms]
        for j, t in enumerate(total):
            s = terms[0][j]
            for v in terms[1:]:
                s = nb.add(s, v[j])
            if s.lo <= t.hi + 1e-9 and t.lo <= s.hi + 1e-9:
                continue
            exact = sum(v[j].value for v in terms)
            if any((f.line, f.printed) == (line, t.text) for f in findings + out):
                continue
            out.append(Finding(line, None, f"the sum of the {len(terms)} vectors above [{j + 1}]", t.text, exact,
                               t.rounded(exact), "weighted_sum",
                               f"arithmetic slip: the vectors added above it give {t.rounded(exact)}",
                               _simple_kind(t, exact) if _simple_kind(t, exact) != "wrong_value" else "arithmetic"))
    return out
