"""Printouts in a half-precision dtype (`dtype=torch.bfloat16`, `torch.float16`, `dtype=float16`): their digits
say more than the numbers hold.  bfloat16 keeps 8 bits of mantissa (a relative step of 2⁻⁸), float16 11, and
every step of the computation was rounded to that before the next one, so a weight printed as 0.4199 may be
0.4170 in float64 and still be right.  Each number of such a printout stands for an interval as wide as a few of
those steps of the largest entry of its array (rounding carried through a dot product and a softmax), or its
printed precision when that is wider.  A slip (0.3477 for 0.3747) is still far outside it."""

from __future__ import annotations

import math
import re

from ..numbers import Num

# the dtype and the width it gives, as a fraction of the array's largest magnitude (four of its steps)
_DTYPES = {"bfloat16": 4 * 2.0 ** -8, "float16": 4 * 2.0 ** -11, "half": 4 * 2.0 ** -11}
_LOW = re.compile(r"dtype\s*=\s*(?:torch\.|np\.|numpy\.)?(bfloat16|float16|half)\b")


def low_precision_lines(seg) -> list[tuple[int, float]]:
    """(file line, relative width) of each half-precision dtype annotation in an output segment."""
    return [(seg.line_of(m.start()), _DTYPES[m.group(1)]) for m in _LOW.finditer(seg.text)]


def widen_low_precision(arrays: list, marks: list[tuple[int, float]]) -> None:
    """Widen the numbers of each array whose printout ends with a half-precision annotation (module doc): the
    annotation is the first one at or after the array's first line, before the next array starts."""
    if not marks:
        return
    starts = sorted(a.place.line for a in arrays)
    for a in arrays:
        nxt = next((s for s in starts if s > a.place.line), math.inf)
        width = next((w for line, w in marks if a.place.line <= line < nxt or line == a.place.line), None)
        if width is None:
            continue
        finite = [abs(n.value) for n in a.numbers if math.isfinite(n.value)]
        if not finite:
            continue
        half = width * max(finite)
        for r in a.rows:
            for k, n in enumerate(r or []):
                if n is not None and math.isfinite(n.value):
                    r[k] = Num(n.value, n.text, min(n.lo, n.value - half), max(n.hi, n.value + half), n.line,
                               n.decimals)
