"""Terms that name a vector the page gave before by an index in brackets (`0.6652 × V[1]`) or by a token
(`0.21×V_你`), in a weighted sum:

    Values: V[1] = [1, 0], V[2] = [0, 2], V[3] = [1, 1]
    output = 0.6652 × V[1] + 0.2447 × V[2] + 0.0900 × V[3] = [0.7552, 0.5794]

Each such name is replaced by the vector it was given, so the line reads as `0.6652 × [1, 0] + ...`, the weighted
sum of printed vectors that expr.py already judges term by term (the expression reader would take `V[1]` for the
symbol V times the vector [1]).  Names with subscripts (`0.4 v_1`, `0.4 v₁`) need no rewriting: claims/vector.py
puts the vectors of such names in (named_vector_sum).  A name counts only when the page gives it one flat vector of
numbers, once (or always the same one), before the line that uses it, and only where a number multiplies it; in
code fences nothing is replaced (there `V[1]` is Python's indexing, counted from 0).
"""

from __future__ import annotations

import re

# a vector's name with its index in brackets: V[1], val[2] (one to three letters); or with a token for its
# subscript, a word of Chinese, Japanese or Korean or a special token (`V_你`, `V_<s>`), which claims/vector.py's
# subscripts (`v_1`, `v₁`) do not cover
_NAME = r"(?:[A-Za-z]{1,3}\[\d{1,2}\]|[A-Za-z]{1,3}_(?:[\u4e00-\u9fff\u3040-\u30ff\uac00-\ud7af]{1,4}|<[a-z/]{1,5}>))"
_FLAT = r"\[\s*-?\d+(?:\.\d+)?(?:\s*,\s*-?\d+(?:\.\d+)?){1,15}\s*\]"
_GIVEN = re.compile(r"(?<![\w\]])(" + _NAME + r")\s*=\s*(" + _FLAT + r")")
_NUMBER = r"-?\d+(?:\.\d+)?"
_TERM = re.compile(r"(" + _NUMBER + r")\s*([×*·⋅]|\\times|\\cdot)\s*(" + _NAME + r")(?![\w\[(])")
_FENCE = re.compile(r"^\s*(```|~~~)")


def name_vectors_in_terms(text: str) -> str:
    """The text with each `number × NAME` whose NAME holds one vector given before it written with that vector."""
    if not _GIVEN.search(text) or not _TERM.search(text):
        return text
    lines = text.split("\n")
    given: dict[str, str | None] = {}          # name -> its vector as written; None when given two different ones
    fenced = False
    for k, line in enumerate(lines):
        if _FENCE.match(line):
            fenced = not fenced
            continue
        if fenced:
            continue
        if given and _TERM.search(line):
            lines[k] = _TERM.sub(lambda m: _with_vector(m, given), line)
        for m in _GIVEN.finditer(line):
            vector = re.sub(r"\s+", "", m.group(2))
            name = m.group(1)
            given[name] = vector if given.get(name, vector) == vector else None
    return "\n".join(lines)


def _with_vector(m: re.Match, given: dict[str, str | None]) -> str:
    vector = given.get(m.group(3))
    if vector is None:
        return m.group(0)
    return f"{m.group(1)} {m.group(2)} {vector.replace(',', ', ')}"
