"""A table whose rows each write a weight as its exponential's share of one total and then print it:

    | key   | softmax             | weight           |
    | the   | $e^1 / \\text{total}$ | 0.2% (`0.002`)  |
    | cat   | $e^7 / \\text{total}$ | 86.5% (`0.865`) |
    ...

Each row carries its own arithmetic: e^a over the sum of every row's e^a.  Identity: three rows or more in one
table, each with one such formula over the same word (total, sum, Σ, Z, totale, 合计...), and the first number each
row prints after it adds up to 1 over the rows (so the rows are the whole softmax, not a few of its keys).  A printed
weight (or percentage) is judged against its share, the rounding of the exponents allowed; every number a row prints
after its formula is judged, one finding per row.  Documents read as text lines are scanned; a notebook's Markdown
cells through cellprose.py."""

from __future__ import annotations

import math
import re

from ..numbers import Num
from ..report import Finding

_EXP = r"e\s*\^\s*\{?\s*([-−]?\d+(?:\.\d+)?)\s*\}?"
_WORD = r"(?:\\text\{|\\mathrm\{|\\operatorname\{)?\s*([A-Za-z\u00c0-\u024f\u4e00-\u9fff]+|Σ|\\Sigma|\\sum|Z)\s*\}?"
_FORMULA = re.compile(r"^\s*\$?\s*(?:" + _EXP + r"\s*/\s*" + _WORD + r"|\\frac\s*\{\s*" + _EXP + r"\s*\}\s*\{\s*"
                      + _WORD + r"\s*\})\s*\$?\s*$")
_NUMBER = re.compile(r"(?<![\w.^{])([-−]?\d+(?:\.\d+)?)(\s*%)?(?![\w.]|\s*\})")
MIN_ROWS = 3


def _cells(line: str) -> list[str] | None:
    s = line.strip()
    if not s.startswith("|") or s.count("|") < 3:
        return None
    return [c.strip() for c in s.strip("|").split("|")]


def _row(cells: list[str]) -> tuple[Num, str, list[tuple[Num, bool]]] | None:
    """(the exponent, the denominator's word, the numbers after the formula: (number, is a percentage))."""
    for k, c in enumerate(cells):
        m = _FORMULA.match(c)
        if m is None:
            continue
        a, word = (m.group(1), m.group(2)) if m.group(1) else (m.group(3), m.group(4))
        nums = []
        for later in cells[k + 1:]:
            for n in _NUMBER.finditer(later.replace("`", " ").replace("*", " ")):
                try:
                    nums.append((Num.parse(n.group(1).replace("−", "-")), bool(n.group(2))))
                except ValueError:
                    continue
        return Num.parse(a.replace("−", "-")), word.lower(), nums
    return None


def share_cells(findings: list[Finding], text: str, cell: int | None = None) -> list[Finding]:
    """Error findings for printed weights that are not the shares their own row's formula writes."""
    found = {f.line for f in findings if f.severity == "error" and f.cell == cell}
    out: list[Finding] = []
    run: list[tuple[int, tuple]] = []
    for ln, line in enumerate(text.splitlines() + [""], start=1):
        cells = _cells(line)
        row = _row(cells) if cells is not None else None
        if row is not None and row[2] and (not run or run[0][1][1] == row[1]):
            run.append((ln, row))
            continue
        if cells is not None and row is None and not run:
            continue                  # the header and its rule
        if len(run) >= MIN_ROWS:
            out.extend(_judge(run, found, cell))
        run = [(ln, row)] if row is not None and row[2] else []
    return out


def _judge(run: list, found: set[int], cell: int | None) -> list[Finding]:
    if max(abs(a.value) for _, (a, _, _) in run) > 50:
        return []
    lo = [math.exp(a.lo) for _, (a, _, _) in run]
    hi = [math.exp(a.hi) for _, (a, _, _) in run]
    mid = [math.exp(a.value) for _, (a, _, _) in run]

    def holds(i: int, n: Num, pct: bool) -> bool:
        v, half = (n.value / 100, n.half / 100) if pct else (n.value, n.half)
        least = lo[i] / (lo[i] + sum(hi) - hi[i])
        most = hi[i] / (hi[i] + sum(lo) - lo[i])
        return least - half - 1e-12 <= v <= most + half + 1e-12

    firsts = [nums[0][0].value / (100 if nums[0][1] else 1) for _, (_, _, nums) in run]
    halves = [nums[0][0].half / (100 if nums[0][1] else 1) for _, (_, _, nums) in run]
    ok = [holds(i, *nums[0]) for i, (_, (_, _, nums)) in enumerate(run)]
    # the whole softmax: its weights add up to 1, or all rows but one are their shares and the odd one is a slip
    whole = abs(sum(firsts) - 1) <= sum(halves) + 1e-9 or \
        (abs(sum(firsts) - 1) <= 0.1 and ok.count(False) == 1 and ok.count(True) >= 2)
    if not whole:
        return []                     # not the whole softmax: a few keys of it, or another total
    out = []
    for i, (ln, (a, word, nums)) in enumerate(run):
        if ln in found:
            continue
        share = mid[i] / sum(mid)
        for n, pct in nums:
            if holds(i, n, pct):
                continue
            shown = share * 100 if pct else share
            unit = "%" if pct else ""
            out.append(Finding(ln, cell, f"weight of e^{a.text} (its share of the {word})", n.text + unit,
                               shown, n.rounded(shown) + unit, "softmax",
                               f"arithmetic slip: e^{a.text} / ({' + '.join('e^' + r[1][0].text for r in run)}) "
                               f"gives {n.rounded(shown)}{unit}", "arithmetic"))
            break                     # one finding per row
    return out
