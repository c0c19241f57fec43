"""Bare numbers set equal in a chain that computes nothing: a supposition written as an equation ("it would need
3.1 = 2.7, which is impossible"), or values set side by side under columns (`= 0.85   = 0.60   = 0.55`).  Neither
is arithmetic to judge; a number copied with a slip (0.4512 = 0.4521) stays within a few percent and is judged.
And a total written in a larger unit than its terms count (`7\\times10^9 \\times 16 = 112` GB).
"""

from __future__ import annotations

import math
import re

from .. import numbers as nb


def two_givens(left, right) -> bool:
    """Two bare numbers far apart (3.1 = 2.7): no rounding and no computation, so a condition or a supposition
    written as an equation; a number copied with a slip (0.4512 = 0.4521) stays within a few percent."""
    a, b = nb.plain_number(left), nb.plain_number(right)
    return a is not None and b is not None and math.isfinite(a.value) and math.isfinite(b.value) and \
        abs(a.value - b.value) > 0.05 * max(abs(a.value), abs(b.value))


def bare_run(values) -> bool:
    """Three or more bare numbers in a row of the chain (`= 0.85 = 0.60 = 0.55`): columns' values set side by side,
    not one quantity rewritten."""
    run = best = 0
    for _, p, _ in values:
        run = run + 1 if nb.plain_number(p.expr) is not None else 0
        best = max(best, run)
    return best >= 3


# a unit right after a number: GB, MiB, KB, "billion", "M" (parameters), 亿
_UNIT_AFTER = r"\s*\$?\s*(?:[KMGTP]i?B\b|(?:[KMGTP]|bn)\b|billion|million|thousand|trillion|亿|万)"


def in_larger_unit(n, got: float, lines: list[str], place) -> bool:
    """Is the printed result the computed one in a unit a thousandfold (or 1024-fold) larger, with that unit written
    right after it on its line (`7\\times10^9 \\times 16 = 112` GB: 1.12e11 bytes are 112 GB)?"""
    if place.cell is not None or not (0 < place.line <= len(lines)) or n.value == 0 or got == 0:
        return False
    if not re.search(re.escape(n.text) + _UNIT_AFTER, lines[place.line - 1]):
        return False
    return any(n.contains(got / base ** k, n.half) for base in (1000.0, 1024.0) for k in range(1, 5))
