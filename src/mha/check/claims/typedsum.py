"""A notebook's printed sum of numbers typed into its code: `row_1_sum = sum([0.2098, 0.2006, ..., 0.1452])`, then
`print("Row 1 sum:", row_1_sum)` giving 0.9999.  The code adds the rounded weights copied from a printout by hand,
so what it prints is the sum of those numbers (0.9999), not the row sum of the weights (1): a finding that holds
the printout to the exact row sum is withdrawn, as a "not checked" line that says why."""

from __future__ import annotations

import json
import re

from ..numbers import Num
from ..report import Finding, NotChecked

_TYPED_SUM = re.compile(r"\bsum\(\s*[\[(]\s*(-?\d+(?:\.\d+)?(?:\s*,\s*-?\d+(?:\.\d+)?)+)\s*,?\s*[\])]\s*\)")


def _sources(text: str) -> dict[int, str]:
    """Each code cell's source by its 1-based number."""
    try:
        nb = json.loads(text)
    except (json.JSONDecodeError, RecursionError):
        return {}
    cells = nb.get("cells") if isinstance(nb, dict) else None
    out = {}
    for k, c in enumerate(cells if isinstance(cells, list) else []):
        src = c.get("source") if isinstance(c, dict) else None
        src = "".join(x for x in src if isinstance(x, str)) if isinstance(src, list) else src
        if isinstance(src, str) and c.get("cell_type") == "code":
            out[k + 1] = src
    return out


def withdraw_typed_sums(j, doc, text: str | None) -> None:
    if text is None or doc.format != "ipynb" or "sum(" not in text:
        return
    sources = _sources(text)
    kept: list[Finding] = []
    for f in j.findings:
        typed = _typed(f, sources.get(f.cell or 0, "")) if f.severity == "error" and "sum" in f.claim.lower() \
            else None
        if typed is None:
            kept.append(f)
        else:
            j.not_checked.append(NotChecked(f.line, f.cell, f"{f.claim}: printed {f.printed}",
                                            f"its code sums numbers typed by hand ({typed}), whose sum it prints"))
    j.findings[:] = kept


def _typed(f: Finding, source: str) -> str | None:
    """The typed sum of the finding's cell that gives its printed value, at its printed digits."""
    try:
        printed = Num.parse(f.printed)
    except ValueError:
        return None
    for m in _TYPED_SUM.finditer(source):
        terms = [float(x) for x in m.group(1).split(",")]
        total = sum(terms)
        if printed.lo - 1e-12 <= total <= printed.hi + 1e-12:
            return f"{len(terms)} numbers, {total:.10g}"
    return None
