"""A row worked out from terms written on its own line, one of them a value found wrong a little before:

    exp = [e^{-1.9}, e^0, e^{-1.0}] ≈ [0.149, 1.0, 0.368]          <- 0.149 found wrong (e^{-1.9} is 0.1496)
    softmax = [0.149/1.517, 1.0/1.517, 0.368/1.517] ≈ [0.098, 0.659, 0.242]

The 0.098 is what its own written fraction gives (0.149/1.517 = 0.0982); judged against the configuration's weight
(0.0986) it was a second error for the one slip (t214c, a softmax and cross-entropy walkthrough).  Such an entry
becomes a note pointing to the line where the term was found wrong.  Only when the row is written as terms in the
same statement, the printed entry agrees with its own term within its rounding, and a number of that term is, digit
for digit, the printed value of an error on an earlier line, or the result of a sum written after it that adds it
in (the row's total).
"""

from __future__ import annotations

import re

from ..objects import ArrayPart
from ..report import Finding

_NUM = re.compile(r"(?<![\w.])-?\d+\.\d+(?![\w.]|\d)")
_ARITH = re.compile(r"frac|/|[+*×·]")
REACH = 20           # lines back within which the wrong term was found


def worked_from_wrong(doc, findings: list[Finding]) -> None:
    """Turn each such error into a note (module doc)."""
    errors = [f for f in findings if f.severity == "error" and f.cell is None]
    if not errors:
        return
    for f in errors:
        # the term itself judged as the entry (`\frac{0.149}{1.517}` against A[1,1]), or the number it gives
        term = f.printed.strip() if _ARITH.search(f.printed) and _NUM.search(f.printed) else _written_term(doc, f)
        if term is None:
            continue
        numbers = set(_NUM.findall(term))
        first = next((e for e in errors if e is not f and f.line - REACH <= e.line < f.line and
                      (numbers & _tainted(doc, e, f.line))), None)
        if first is not None:
            f.severity, f.kind = "note", "carried"
            f.cause = (f"follows from line {first.line}: the value found wrong there is a term of this one "
                       f"({term} as written)")


def _tainted(doc, e: Finding, before: int) -> set[str]:
    """The printed value found wrong, and the results of the arithmetic written after it (before the line
    `before`) that takes it as a term: `sum = 0.670 + 0.122 + 1.0 = 1.792` after 0.670 was found wrong."""
    out = {e.printed.strip()}
    for c in sorted((c for c in doc.chains if c.place.cell is None and e.line <= c.place.line < before),
                    key=lambda c: c.place.line):
        texts = [getattr(p, "text", "") or "" for p in c.parts]
        if len(texts) >= 2 and set(_NUM.findall(" ".join(texts[:-1]))) & out and _NUM.fullmatch(texts[-1].strip()):
            out.add(texts[-1].strip())
    return out


def _written_term(doc, f: Finding) -> str | None:
    """The arithmetic the statement writes for the finding's printed number, where it holds within rounding."""
    for c in doc.chains:
        if c.place.cell is not None or c.place.line != f.line:
            continue
        arrays = [p.array for p in c.parts if isinstance(p, ArrayPart)]
        for before, after in zip(arrays, arrays[1:]):
            if len(before.rows) != len(after.rows):
                continue
            for row_b, row_a in zip(before.rows, after.rows):
                if len(row_b) != len(row_a):
                    continue
                for nb_, na in zip(row_b, row_a):
                    if nb_ is None or na is None or na.text != f.printed.strip() or not _ARITH.search(nb_.text):
                        continue
                    if na.lo - 1e-12 <= nb_.value <= na.hi + 1e-12:
                        return nb_.text
    return None
