"""A row of attention weights read out as percentages in the prose under it: weights printed as
`[0.62, 0.27, 0.11]`, then "position 0 gets 62% of the attention, position 1 gets 27%, position 2 gets 11%".  Each
percentage is a claim about one printed weight, and the reader must be able to trust it: a percentage that is
not the weight at its own precision (25% for 0.2718, 84% for 0.8455) is an error on its line.

Identity before verdict.  A block of percentages (on lines that follow one another, right under a printed matrix or
vector of weights: entries in [0, 1], named as weights, the row summing to 1) is a reading of one row when
  - it has as many percentages as the row has nonzero weights, in their order; and
  - most of them agree with their weights (at least two, and two thirds), or they sum to 100 within their rounding
    and either one agrees with its weight (the witness) or each names the position it is about by index, in order
    ("position 0 ... position 1 ...", 1-based or 0-based).
A block that matches more than one row, or none, says nothing; nor does a block whose percentages are the row's
weights in another order (the sentence names the tokens, not the columns: "51% to fell, 31% to itself, 19% to the").  A percentage written as an approximation
("about 50%", "~30%", "约 50%") makes the whole block a paraphrase, not a reading.

The reference is the weight as printed, unless the weight itself was found wrong: then its exact value (the
percentage repeats the wrong weight, as claims/requoted.py does for quotes at the weight's own precision).
Only documents read as text lines (Markdown, LaTeX, HTML, plain text) are scanned.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from decimal import Decimal, InvalidOperation

from .. import labels as lb
from ..report import Finding

GAP = 10             # lines between the weights and the first percentage of their reading
AGAIN = 40           # lines further on where a wrong percentage said again about its position is recognized

_PCT = re.compile(r"(?<![\w.])(\d{1,3}(?:\.\d+)?)\s?(?:\\?%|％|\s?percent\b)")
_APPROX = re.compile(r"about|approx|roughly|around|nearly|almost|close to|over|under|more than|less than|~|≈|"
                     r"约|大约|左右|接近|将近|超过|不到", re.I)
_INDEX = re.compile(r"\b(?:position|pos|token|word|key|index|item|element)\s*#?\s*(\d+)|第\s*(\d+)\s*个", re.I)
_TAG = re.compile(r"<[^>]*>")


@dataclass
class _Pct:
    line: int
    text: str
    value: Decimal
    decimals: int
    index: int | None           # the position its clause names, if any
    approx: bool


def _percents(lines: list[str], first: int, last: int) -> list[_Pct]:
    out: list[_Pct] = []
    for ln in range(first, min(last, len(lines)) + 1):
        s = _TAG.sub(" ", lines[ln - 1])
        prev = 0
        for m in _PCT.finditer(s):
            clause = s[prev:m.start()]
            after = re.split(r"[,;，；。]", s[m.end():])[0]
            idx = [int(a or b) for a, b in _INDEX.findall(clause + " " + after)]
            digits = m.group(1)
            out.append(_Pct(ln, m.group(0).strip(), Decimal(digits), len(digits.split(".")[1]) if "." in digits
                            else 0, idx[0] if len(idx) == 1 else None, bool(_APPROX.search(clause[-25:]))))
            prev = m.end()
    return out


def _block(pcts: list[_Pct], lines: list[str]) -> list[_Pct]:
    """The first run of percentages on lines that follow one another (a loose list may leave one blank line
    between its items): a new paragraph is another statement."""
    item = re.compile(r"\s*(?:[-*+•]|\d+[.)]|\\item)\s")
    out: list[_Pct] = []
    for p in pcts:
        gap = p.line - out[-1].line if out else 0
        if gap > 1 and not (gap == 2 and not lines[p.line - 2].strip() and item.match(lines[p.line - 1])
                            and item.match(lines[out[-1].line - 1])):
            break
        out.append(p)
    return out


def _is_weights(a) -> bool:
    names = [a.label, *a.labels]
    named = any((r := lb.parse_label(n)) is not None and "A" in r.nodes for n in names if n) or \
        a.context.step == "softmax" or "softmax" in (a.source or "")
    return named and not a.context.dropout and not a.context.dropped_copy and not a.elided


def _dec(n) -> tuple[Decimal, int] | None:
    try:
        v = Decimal(n.text.replace("−", "-"))
    except (InvalidOperation, AttributeError):
        return None
    return v, (n.decimals or 0)


def _overlap(p: _Pct, v: Decimal, dec: int) -> bool:
    """Does some value the weight's printed digits allow round to the percentage as written?"""
    hp = Decimal(5) / Decimal(10) ** (p.decimals + 1)
    hv = Decimal(5) / Decimal(10) ** (dec + 1) * 100
    return v * 100 - hv <= p.value + hp and p.value - hp <= v * 100 + hv


def _rows(a) -> list[tuple[int, list[tuple[int, Decimal, int]]]]:
    """(row, [(column, weight, decimals)] of its nonzero weights) for the rows of a that sum to 1 as printed."""
    out = []
    for i, row in enumerate(a.rows):
        if not row or any(n is None for n in row):
            continue
        vals = [_dec(n) for n in row]
        if any(v is None or not (0 <= v[0] <= 1) for v in vals):
            return []
        tol = sum(Decimal(5) / Decimal(10) ** (d + 1) for _, d in vals) + Decimal("1e-9")
        if abs(sum(v for v, _ in vals) - 1) > tol:
            continue
        out.append((i, [(j, v, d) for j, (v, d) in enumerate(vals) if v != 0]))
    return out


def _identified(block: list[_Pct], live: list[tuple[int, Decimal, int]]) -> bool:
    if len(block) != len(live) or len(block) < 2 or any(p.approx for p in block):
        return False
    agree = sum(_overlap(p, v, d) for p, (_, v, d) in zip(block, live))
    if agree >= 2 and 3 * agree >= 2 * len(block):
        return True                          # most of the row read right: the others are judged by it
    tol = sum(Decimal(5) / Decimal(10) ** (p.decimals + 1) for p in block)
    if abs(sum(p.value for p in block) - 100) > tol + Decimal("1e-9"):
        return False
    if _permuted(block, live, spare=1):
        return False                         # the row's own weights named out of their order ("51% to fell, 31%
                                             # to itself, 19% to the" for [0.19, 0.31, 0.51]): tokens, not columns
    if agree:
        return True
    idx = [p.index for p in block]
    return None not in idx and (idx == [j for j, _, _ in live] or idx == [j + 1 for j, _, _ in live])


def _permuted(block: list[_Pct], live: list[tuple[int, Decimal, int]], spare: int = 0) -> bool:
    """Is every percentage one of the row's weights, each weight once, in another order than the row's?  With
    spare=1, all but one (a slip in a list that names tokens, not columns, leaves it such a list)."""
    left = list(live)
    missing, moved = 0, False
    for p, (_, v0, d0) in zip(block, live):
        k = next((i for i, (_, v, d) in enumerate(left) if _overlap(p, v, d)), None)
        if k is None:
            missing += 1
            if missing > spare:
                return False
            continue
        moved = moved or not _overlap(p, v0, d0)
        left.pop(k)
    return moved


def percent_quotes(doc, findings: list[Finding], text: str) -> list[Finding]:
    """Error findings for percentages that misread the row of weights printed above them."""
    lines = text.splitlines()
    # a line that has a finding already, or a note tying it to one (claims/requoted.py), is not read again
    found = {f.line for f in findings if f.cell is None and (f.severity == "error" or _follows(f))}
    wrong = {(f.line, f.printed): f for f in findings if f.severity == "error" and f.cell is None
             and isinstance(f.exact, float)}
    array_lines = sorted({n.line or a.place.line for a in doc.arrays for n in a.numbers})
    out: list[Finding] = []
    for a in doc.arrays:
        if a.place.cell is not None or a.n_cols < 2 or not _is_weights(a):
            continue
        end = max(n.line or a.place.line for n in a.numbers)
        stop = min([ln for ln in array_lines if ln > end] + [end + GAP + 1]) - 1
        block = _block(_percents(lines, end + 1, stop), lines)
        rows = [(i, live) for i, live in _rows(a) if _identified(block, live)]
        if len(rows) != 1 or any(_permuted(block, live) for _, live in _rows(a)):
            continue      # (another row's weights, named in another order: "look at the third row ... 78% to
                          # itself, 18% to ..., 4% to ...": that row read out, not the row a lone 4% agrees with)
        i, live = rows[0]
        for p, (j, v, d) in zip(block, live):
            if p.line in found:
                continue
            n = a.rows[i][j]
            f = wrong.get((n.line or a.row_line(i), n.text))
            exact = f.exact * 100 if f is not None else float(v) * 100
            rounded = f"{exact:.{p.decimals}f}"
            if (f is not None and rounded == str(p.value)) or (f is None and _overlap(p, v, d)):
                continue
            claim = f"{a.label or 'weights'}[{i + 1},{j + 1}] in percent (prose)"
            if f is not None:            # one slip, one finding: a wrong weight read out again is a note
                out.append(Finding(p.line, None, claim, p.text, exact, rounded + "%", "softmax",
                                   f"follows from line {f.line}: the value found wrong there, read out as a "
                                   "percentage", severity="note"))
            else:
                out.append(Finding(p.line, None, claim, p.text, exact, rounded + "%", "softmax",
                                   f"the weight printed on line {n.line or a.row_line(i)} is {n.text}"))
            found.add(p.line)
            out.extend(_again(lines, p, block[-1].line, claim, exact, rounded, found))
    return out


_ITSELF = re.compile(r"\bitself\b|自身|自己", re.I)
_ROW_NAMED = re.compile(r"\brow(?:\s+index)?\s*#?\s*(\d+)\b", re.I)
SELF_LINES = 40      # lines from the weights to a sentence about one row's weight on itself


def self_percents(doc, findings: list[Finding], text: str) -> list[Finding]:
    """"For 'I' (row 0): it can only attend to itself (100% weight)": one percentage on a line that names one row
    by its index and says the row attends to itself is that row's diagonal weight, read from the square weights
    printed above.  The index is 0-based only when it is 0 or the lines since the weights name a row 0."""
    lines = text.splitlines()
    found = {f.line for f in findings if f.cell is None and (f.severity == "error" or _follows(f))}
    from .rowsum import _caption, _named_weights
    weights = [a for a in doc.arrays if a.place.cell is None and a.n_rows == a.n_cols >= 2 and not a.elided
               and (_is_weights(a) or _named_weights(a, _caption(lines, a.row_line(0)))) and _rows(a)]
    out: list[Finding] = []
    for ln, raw in enumerate(lines, start=1):
        s = _TAG.sub(" ", raw)
        rows, pcts = _ROW_NAMED.findall(s), _percents(lines, ln, ln)
        if ln in found or len(set(rows)) != 1 or len(pcts) != 1 or pcts[0].approx or not _ITSELF.search(s):
            continue
        above = [a for a in weights if 0 < ln - max(n.line or a.place.line for n in a.numbers) <= SELF_LINES]
        if not above:
            continue
        a = max(above, key=lambda x: max(n.line or x.place.line for n in x.numbers))
        end = max(n.line or a.place.line for n in a.numbers)
        i = int(rows[0])
        zero_based = i == 0 or any(re.search(r"\brow(?:\s+index)?\s*#?\s*0\b", x, re.I) for x in lines[end:ln])
        if not zero_based or i >= a.n_rows or a.rows[i] is None or a.rows[i][i] is None:
            continue
        f = _entry_percent(ln, a, i, i, pcts[0], f"the weight of row {i} on itself")
        if f is not None:
            out.append(f)
    return out


def _entry_percent(ln: int, a, i: int, j: int, p, who: str) -> Finding | None:
    """A percent in prose against entry (i, j) of the weights printed above: a finding when it is not that
    weight at the percent's precision."""
    n = a.rows[i][j]
    got = _dec(n)
    if got is None or _overlap(p, *got):
        return None
    exact = float(got[0]) * 100
    return Finding(ln, None, f"{a.label or 'weights'}[{i + 1},{j + 1}] in percent (prose)", p.text, exact,
                   f"{exact:.{p.decimals}f}%", "softmax", f"{who}, printed on line {n.line or a.row_line(i)}, is {n.text}")


def _follows(f: Finding) -> bool:
    return f.severity == "note" and (f.cause or "").startswith("follows from line")


def _again(lines: list[str], p: _Pct, after: int, claim: str, exact: float, rounded: str,
           found: set[int]) -> list[Finding]:
    """The same wrong percentage said again further on about the same position ("position 0 ... 53%"): wrong
    there too.  Only a percentage whose position was named in the block can be recognized again."""
    if p.index is None:
        return []
    out = []
    for q in _percents(lines, after + 1, after + AGAIN):
        if (q.value, q.decimals, q.index) == (p.value, p.decimals, p.index) and not q.approx and q.line not in found:
            out.append(Finding(q.line, None, f"{claim} (quoted again)", q.text, exact, rounded + "%", "softmax",
                               f"follows from line {p.line}: the same wrong percentage said again", severity="note"))
            found.add(q.line)
    return out


_EACH = re.compile(r"^[^,;，；。]{0,30}?\b(?:weight|attention|share)\b[^,;，；。]{0,12}?\bto each\b|"
                   r"^\s*(?:权重|注意力)?[^,;，；。]{0,6}?给每个", re.I)


def equal_shares(doc, findings: list[Finding], text: str) -> list[Finding]:
    """"position 6 gives 14.3% weight to each of positions 0 to 6", just under a row of seven equal weights that
    sums to 1 (an average over the visible positions): the one percentage is every nonzero weight of that row.
    The sentence names what it reads (weight, attention or share, to each); the row must sum to 1 as printed and
    hold at least two equal nonzero weights and nothing else."""
    lines = text.splitlines()
    found = {f.line for f in findings if f.cell is None and (f.severity == "error" or _follows(f))}
    array_lines = sorted({n.line or a.place.line for a in doc.arrays for n in a.numbers})
    out: list[Finding] = []
    for a in doc.arrays:
        rows = _rows(a) if a.place.cell is None and a.n_rows == 1 and not a.elided else []
        live = rows[0][1] if rows else []
        if len(live) < 2 or len({v for _, v, _ in live}) != 1:
            continue
        end = max(n.line or a.place.line for n in a.numbers)
        stop = min([ln for ln in array_lines if ln > end] + [end + GAP + 1]) - 1
        pcts = [p for p in _percents(lines, end + 1, stop) if not p.approx]
        if len(pcts) != 1 or pcts[0].line in found:
            continue
        p = pcts[0]
        after = _TAG.sub(" ", lines[p.line - 1]).split(p.text, 1)[-1]
        j, v, d = live[0]
        if not _EACH.search(after) or _overlap(p, v, d):
            continue
        exact = float(v) * 100
        out.append(Finding(p.line, None, f"{a.label or 'weights'}[1,{j + 1}] in percent (prose)", p.text, exact,
                           f"{exact:.{p.decimals}f}%", "softmax",
                           f"each of the {len(live)} equal weights printed on line {end} is {a.rows[0][j].text}"))
        found.add(p.line)
    return out


_TO_POSITION = re.compile(r"^\s*(?:of\s+(?:the\s+|its\s+)?)?(?:attention|weight)\s+(?:to|on)\s+(?:position|pos|key|token)"
                          r"\s*#?\s*(\d+)\b", re.I)
_ROW_HEAD = re.compile(r"^\W*(?:position|pos|query|row|token)\s*#?\s*(\d+)\s*\W*[:：]\W*$", re.I)
HEAD_LINES = 3       # non-blank lines between a "Position 0:" heading and the percentage under it


def position_percents(doc, findings: list[Finding], text: str) -> list[Finding]:
    """"**Position 0:**" and under it "After softmax: 50.6% attention to position 0": one percentage that names
    the key it goes to, under a line that names the query row alone, is that entry of the square weights printed
    above (as self_percents reads "row 0 attends to itself (100%)").  0-based when a position 0 is named since the
    weights, 1-based when an index is the row count; otherwise nothing is read."""
    lines = text.splitlines()
    found = {f.line for f in findings if f.cell is None and (f.severity == "error" or _follows(f))}
    from .rowsum import _caption, _named_weights
    weights = [a for a in doc.arrays if a.place.cell is None and a.n_rows == a.n_cols >= 2 and not a.elided
               and (_is_weights(a) or _named_weights(a, _caption(lines, a.row_line(0)))) and _rows(a)]
    out: list[Finding] = []
    for ln in range(1, len(lines) + 1):
        pcts = _percents(lines, ln, ln)
        if ln in found or len(pcts) != 1 or pcts[0].approx:
            continue
        p = pcts[0]
        col = _TO_POSITION.match(_TAG.sub(" ", lines[ln - 1]).split(p.text, 1)[-1])
        heads = [x for x in lines[max(0, ln - 1 - 2 * HEAD_LINES):ln - 1] if x.strip()][-HEAD_LINES:]
        rows = [m.group(1) for m in (_ROW_HEAD.match(x.strip()) for x in heads) if m]
        above = [a for a in weights if 0 < ln - max(n.line or a.place.line for n in a.numbers) <= SELF_LINES]
        if col is None or len(rows) != 1 or not above:
            continue
        a = max(above, key=lambda x: max(n.line or x.place.line for n in x.numbers))
        i, j = int(rows[0]), int(col.group(1))
        since = " ".join(lines[a.row_line(0) - 2:ln])
        if not re.search(r"(?i)(?:position|pos|query|row|token|key)\s*#?\s*0\b", since):
            if max(i, j) != a.n_rows:
                continue                             # no 0 named and no index past the end: the base is unknown
            i, j = i - 1, j - 1                      # "position 1 ... to position 3" of three: 1-based
        if not (0 <= i < a.n_rows and 0 <= j < a.n_cols) or a.rows[i] is None or a.rows[i][j] is None:
            continue
        f = _entry_percent(ln, a, i, j, p, f"the weight of row {rows[0]} on position {col.group(1)}")
        if f is None:
            continue
        out.append(f)
        found.add(ln)
    return out
