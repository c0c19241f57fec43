"""Sentences that state a number without claiming it of this example: the judge's findings there are withdrawn.

Three kinds of aside are common in lecture notes and none of them is a claim about the example's trace:

* a parameter being varied: "$T=1$ 时 ... $T>1$ 时 ... $T\\to0$ 时" (a softmax temperature) or "when d_k = 1 ...".
  The same symbol is compared or taken to a limit nearby (``T > 1``, ``T \\to 0``, ``d_k → ∞``), given two values
  on one line ("$d=1$ ... $d=64$"), or the assignment sits in a condition ("when", "if", "时", "若"), so the size claim is
  not the example's size;
* a sum the text itself says is not 1: "whose row sum is $0.4011$, not $1$" shows what a wrong order of steps
  would give, which the author disowns in the same sentence;
* a ratio "4:2:1", read as a label and a number;
* a value cut to fewer digits where the text says it truncates ("the values are truncated ... = 0.9544 ≈ 0.9"):
  its convention, not a rounding slip;
* the value after a change told in words, where the value before it is the right one ("the largest weight rises
  from 0.768 to 0.867" when the scale is dropped): the sentence compares this example with another setting, and
  the number found wrong is the other setting's (a value after a change that is this example's is still judged).

Each withdrawn finding becomes a "not checked" line that names why, so nothing is hidden.  Only documents read as
text lines are scanned (the places of a notebook's findings are inside cells, not lines of the file).
"""

from __future__ import annotations

import re

from ..report import Finding, NotChecked

_COMPARED = r"\s*(?:>|<|≥|≤|≠|\\geq?|\\leq?|\\neq|\\to\b|\\rightarrow|→|->)"
_CONDITION = re.compile(r"(?:\bwhen\b|\bif\b|\bfor\b|若|如果|当)[^.。;；]{0,20}$|^[\s$`)*]*(?:时|的时候|\bthen\b)|"
                        # a sentence that opens as a supposition: "If we merged both heads into one head with d_k = 4"
                        r"(?:^|[.。!?！？]\s+|\*\*\s*)(?:if|suppose|imagine|had we|were we|假如|假设|如果|若)\b[^.。;；]*$",
                        re.IGNORECASE)
_NOT_ONE = re.compile(r"(?:\bnot\b|≠|\\neq|instead of|rather than|而不是|不是|不等于|并非)\s*\$?\s*1(?:\.0+)?\b(?!\.\d)",
                      re.IGNORECASE)
_RATIO = re.compile(r"\s*\$?\s*\d+(?:\s*:\s*\d+)+\s*\$?\s*:?\s*")
_CUT = r"(?:truncat|截断|截掉|舍去|切り捨て|abgeschnitten|tronqu|truncad|cắt bớt)"
_VALUES = r"(?:values?|numbers?|decimals?|digits?|places|entries|数值|数字|小数|位|値|数|Werte|valeurs|valores)"
# a statement that the printed values are cut, not rounded ("numbers are truncated to two decimals", "数值都做了截断处理")
_TRUNCATED = re.compile(rf"{_VALUES}[^.。\n]{{0,40}}{_CUT}|{_CUT}[^.。\n]{{0,40}}{_VALUES}", re.IGNORECASE)
NEAR = 3                                         # lines either side where a varied symbol is looked for
# "rises from 0.768 to 0.867", "从 0.77 升到 0.94": the values before and after a change told in words
_CHANGE = re.compile(r"(?:\bfrom|从|由)\s*[$`*]*(-?\d+\.\d+)[$`*]*\s*(?:(?:up|down|all the way)\s+)?"
                     r"(?:to\b|升到|降到|提高到|增加到|变为|变成|到)\s*[$`*]*(-?\d+\.\d+)", re.I)


def _size_symbol(f: Finding) -> str | None:
    m = re.match(r"wrong size: (\S+) is ", f.cause or "")
    return m.group(1) if m else None


def _varied(lines: list[str], i: int, symbol: str, text: str) -> bool:
    """The symbol is compared or taken to a limit near line i, or its assignment sits in a condition."""
    sym = re.escape(symbol)
    near = lines[max(0, i - NEAR): i + NEAR + 1]
    if any(re.search(rf"(?<![A-Za-z_]){sym}\$?{_COMPARED}", ln) for ln in near):
        return True
    # "in one dimension ($d=1$) ... at $d=64$ ...": the symbol, as the claim writes it, given two values or more on
    # its own line (on two lines near by, one of them may be the slip)
    written = re.match(r"\s*([A-Za-z][\w{}\\]*?)\s*=", text or "")
    here = lines[i] if 0 <= i < len(lines) else ""
    for name in {sym} | ({re.escape(written.group(1))} if written else set()):
        values = {m.group(1) for m in re.finditer(rf"(?<![A-Za-z_]){name}\s*=\s*(\d+(?:\.\d+)?)(?![\d.])", here)}
        if len(values) >= 2:
            return True
    line = lines[i] if 0 <= i < len(lines) else ""
    k = line.find(text.strip()[:12]) if text.strip() else -1
    if k < 0:
        m = re.search(rf"(?<![A-Za-z_]){sym}\s*=", line)
        k = m.start() if m else -1
    if k < 0:
        return False
    before, after = line[:k], line[k:]
    after = after[after.find("=") + 1:] if "=" in after else after
    after = re.sub(r"^[\s$`]*[\d.]+", "", after)
    return bool(_CONDITION.search(before)) or bool(_CONDITION.match(after))


def _why(f: Finding, lines: list[str]) -> str | None:
    i = f.line - 1
    line = lines[i] if 0 <= i < len(lines) else ""
    symbol = _size_symbol(f)
    if symbol and _varied(lines, i, symbol, f.claim):
        return (f"{symbol} is a parameter the text varies here (compared, given other values, or in a condition), not "
                "this example's size")
    if "sum" in f.claim.lower() and _NOT_ONE.search(line):
        return "the text itself says this sum is not 1: it shows a wrong order of steps, not the weights"
    if _RATIO.fullmatch(f.claim):
        return "a ratio, not a label and its value"
    if _cut(f) and any(_TRUNCATED.search(ln) for ln in lines[:i + 1]):
        return "the text says its values are truncated: the printed value is the exact one cut to its digits"
    m = _CHANGE.search(line)
    if m and m.group(2) == f.printed and isinstance(f.exact, (int, float)) and \
            abs(float(m.group(1)) - f.exact) <= 0.5 * 10.0 ** -len(m.group(1).partition(".")[2]) + 1e-12:
        return (f"the value after a change told in words (from {m.group(1)} to {m.group(2)}), where the value "
                "before it is this example's: the other setting's value, not this one's")
    return None


def _cut(f: Finding) -> bool:
    """The printed value is the exact one with its further digits dropped (0.9 for 0.9544), not rounded."""
    try:
        printed = float(f.printed.replace("−", "-"))
    except (TypeError, ValueError):
        return False
    if f.exact is None or not isinstance(f.exact, (int, float)):
        return False
    decimals = len(f.printed.split(".")[1]) if "." in f.printed else 0
    unit = 10.0 ** -decimals
    return abs(printed) <= abs(f.exact) < abs(printed) + unit and (printed >= 0) == (f.exact >= 0)


def withdraw_asides(j, doc, text: str | None) -> None:
    """Turn the judge's error findings on asides into "not checked" lines (text documents only)."""
    if text is None or doc.format == "ipynb":
        return
    lines = text.splitlines()
    kept: list[Finding] = []
    for f in j.findings:
        why = _why(f, lines) if f.severity == "error" and f.cell is None else None
        if why is None:
            kept.append(f)
        else:
            j.not_checked.append(NotChecked(f.line, None, f"{f.claim}: printed {f.printed}", why))
    j.findings[:] = kept
