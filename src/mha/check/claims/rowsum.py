"""Attention weights whose row does not sum to 1.  Each row of softmax weights sums to 1 whatever the scores were,
so a printed row that sums to 0.63 is wrong before any trace is consulted: the author made the weights up, copied
a row short, or typed an entry wrong.  A reader sees it with a pencil, and so does this claim; one finding per row,
on the row's line.

Identity before verdict: the matrix is called the weights (its name, or the caption just above it: "attention
weights", "after softmax", 注意力权重), every entry is in [0, 1], at least two of its rows do sum to 1 within their
rounding (it is row-stochastic where it is right), and its columns do not all sum to 1 (a softmax over the other
axis).  A row is judged only when all of its weight is in view: the matrix is square, the row ends in zeros (a
causal row, whose later entries are masked), or it has three rows or more, two of which end in a weight above 0
and sum to 1 (whole rows of more keys than queries, as in cross-attention).  Weights after dropout, or named as
not normalized, are left alone, and a row whose line already carries a finding is not judged again (one slip, one
finding).  When the masked scores
were printed just before (the same shape, -∞ exactly where the weights are 0 in most rows), a weight that is not 0
where its score is -∞ is an error too.

Only documents read as text lines (Markdown, LaTeX, HTML, plain text) are scanned: the caption is read from the
lines above the matrix.
"""

from __future__ import annotations

import re
from decimal import Decimal, InvalidOperation

from .. import labels as lb
from ..numbers import half_unit
from ..report import Finding

# how far a notebook's printed row of weights may sum from 1 and still be judged: a slipped digit (0.4020 printed
# 0.4820, a row of 1.08), not a row of something else (most rows must sum to 1 for the printout to be the weights)
OUTPUT_ROOM = Decimal("0.2")
MASK_LINES = 20         # lines from the masked scores to their weights
CAPTION_LINES = 3        # non-blank lines above the first row where the caption may stand (a header row between)
# ("weight matrix", 权重矩阵 alone name W_Q, W_K, W_V as often as the attention weights: no caption of them)
_WEIGHTS = re.compile(r"attention[ _-]?weights?|after (?:the )?softmax|softmax\s*\(|attention "
                      r"probabilit|注意力权重|softmax\s*之?后|"
                      # "each column is what that word attends to": how much of its attention each gets
                      r"\battends? to\b|\battention to\b", re.I)
# a table's corner cell naming its rows ("Query Word", "Query token"): the rows' words, not Q
_ROW_WORDS = re.compile(r"^\s*(?:query|queries)\s+(?:words?|tokens?)\s*$", re.I)
# ("masked_softmax(" is the weights after the mask, normalised: a call of the softmax, not words about the mask)
_NOT_NORMALIZED = re.compile(r"unnormali[sz]|not normali[sz]|\bmask(?!ed_?softmax)|掩码|before (?:the )?softmax|dropout|"
                             r"exp\(|未归一|归一化前|softmax\s*之?前", re.I)


def _caption(lines: list[str], first: int) -> str:
    """The non-blank lines just above the matrix's first row (1-based line), nearest last."""
    out: list[str] = []
    k = first - 1
    while k >= 1 and len(out) < CAPTION_LINES:
        s = lines[k - 1].strip()
        if s and not s.startswith("```"):
            out.insert(0, s)
        k -= 1
    # the nearest line that names the matrix as weights decides ("Example with causal masking:" over "Causal
    # attention weights:" is about the weights, not the masked scores)
    near = next((x for x in reversed(out) if _WEIGHTS.search(x) or _NOT_NORMALIZED.search(x)), None)
    return near if near is not None and _WEIGHTS.search(near) and not _NOT_NORMALIZED.search(near) else " ".join(out)


_VECTORS = {"X", "Q", "K", "V", "Qh", "Kh", "Vh", "O", "Y"}


def _named_weights(a, caption: str) -> bool:
    names = [n for n in (a.label, *a.labels) if n and not _ROW_WORDS.match(n)]
    if any(_NOT_NORMALIZED.search(n) for n in names + [caption]):
        return False
    refs = [r for n in names if (r := lb.parse_label(n)) is not None]
    if any((r.strong or set(r.nodes) & _VECTORS) and "A" not in r.nodes for r in refs):
        return False                 # named W^Q (or V, or S): the caption above is not about it
    # (a column named "Value vector" beside "Attention wt" in one table: its header is no caption of the values)
    return any(r.nodes == ("A",) for r in refs) or bool(_WEIGHTS.search(caption))


_SOFTMAX_CALL = re.compile(r"softmax\}?\s*(?:\\left|\\big\w*)?\s*[(\[]", re.I)


def _called_softmax(a) -> bool:
    """Is the matrix written as the value of a softmax call in its own equation (`softmax(S) = [...]`)?"""
    return any(n and _SOFTMAX_CALL.search(n) and not _NOT_NORMALIZED.search(n) for n in (a.label, *a.labels))


def _row_values(r) -> list[tuple[Decimal, int]] | None:
    """A printed row as (value, decimals), every value in [0, 1]; None for an elided or unreadable row."""
    if not r or any(n is None for n in r):
        return None
    try:
        vals = [(Decimal(n.text.replace("−", "-")), n.decimals) for n in r]
    except InvalidOperation:
        return None
    # "[0.167, 0.167, 0, 0]": a whole number among decimals is written at their precision (0 for 0.000), not
    # rounded to a whole unit (which would let the row be off by half a unit for each)
    finest = max((d for _, d in vals if d is not None), default=0)
    vals = [(v, finest if d is None else d) for v, d in vals]
    return None if any(not (0 <= v <= 1) for v, _ in vals) else vals


def _grid(a) -> list[list[tuple[Decimal, int]]] | None:
    rows = [_row_values(r) for r in a.rows]
    if any(r is None for r in rows):
        return None
    return rows if len(rows) >= 2 and len({len(r) for r in rows}) == 1 and len(rows[0]) >= 2 else None


def _off(vals: list[tuple[Decimal, int]], slack: float | Decimal = 0.0, said: Decimal = Decimal(1)) -> Decimal | None:
    """The values' sum when it is off from 1 (or the sum the text says) beyond what their rounding allows (and the
    slack of numbers that stand for more than their digits, readers/lowprecision.py); None when within it."""
    tol = sum(Decimal(5) / Decimal(10) ** (d + 1) for _, d in vals) + Decimal("1e-9") + Decimal(slack)
    # 0.999 (all nines): "all but 1", anything in [0.999, 1), as a saturated weight is written (numbers.nines_below_one)
    tol += sum(Decimal(1) / Decimal(10) ** d for v, d in vals if d >= 2 and v == 1 - Decimal(1) / Decimal(10) ** d)
    s = sum(v for v, _ in vals)
    return None if abs(s - said) <= tol else s


def _mask_of(doc, a, grid) -> dict[int, list[int]]:
    """{row: masked columns} of the masked scores printed just before the weights: the nearest earlier array of the
    same shape with a -∞ in it, whose -∞ stand exactly where the weights are 0 in at least two rows (and in
    most)."""
    before = [b for b in doc.arrays if b.place.cell is None and b.line < a.line and b.shape == a.shape
              and a.line - b.line <= MASK_LINES]
    if not before:
        return {}
    b = max(before, key=lambda x: x.line)
    inf = [[n is not None and n.value == float("-inf") for n in (r or [])] for r in b.rows]
    if not any(any(r) for r in inf) or any(len(r) != len(grid[0]) for r in inf):
        return {}
    agree = sum(all(m == (v == 0) for m, (v, _) in zip(mr, row)) for mr, row in zip(inf, grid))
    if agree < 2 or 2 * agree <= len(grid):
        return {}
    return {i: [j for j, m in enumerate(mr) if m] for i, mr in enumerate(inf)}


def _one_row(a, found: set[int]) -> Finding | None:
    """One row of weights named by its symbol (A_1 ≈ [0.6698, 0.3302], α = [...]): a softmax row sums to 1 under
    every configuration, so a row off by more than its rounding is wrong whatever was inferred.  Only a row off by
    at most 0.02 (a slip in a digit, not a view of some of its columns), with decimals (not a one-hot [1, 0])."""
    strong = any((r := lb.parse_label(n)) is not None and r.strong and r.nodes == ("A",) for n in (a.label, *a.labels)
                 if n)
    vals = _row_values(a.rows[0]) if strong and a.n_rows == 1 and a.n_cols >= 2 and a.place.cell is None and \
        not a.elided and not a.context.dropout and not a.context.dropped_copy else None
    # drawn on one line (a table's column read as a row is another claim's), with no finding on it yet
    if vals is None or max(d for _, d in vals) < 2 or {n.line or a.line for n in a.rows[0]} != {a.line} or \
            a.line in found:
        return None
    s = _off(vals)
    # off by a visible amount (a long decimal's last digits, 0.99999998, are the author's float noise)
    if s is None or not Decimal("0.0005") <= abs(s - 1) <= Decimal("0.02"):
        return None
    d = max(dd for _, dd in vals)
    return Finding(a.line, None, f"{a.label}: its sum", " + ".join(n.text for n in a.rows[0]) + f" = {s:.{d}f}", 1.0,
                   f"{1:.{d}f}", "softmax", f"a row of attention weights sums to 1; this one sums to {s:.{d}f}",
                   "wrong_value")


def row_sums(doc, findings: list[Finding], text: str, judged: list | None = None) -> list[Finding]:
    """Error findings for rows of attention weights that do not sum to 1, in a document read as text lines (a
    notebook's printouts: cell_row_sums); judged: gets each matrix of weights whose rows were added up."""
    lines = text.splitlines()
    found = {f.line for f in findings if f.severity == "error" and f.cell is None}
    out: list[Finding] = []
    for a in doc.arrays:
        if a.place.cell is not None:
            continue
        for f in _said_sums(a, lines, found) + _listed_total(a, lines, found):
            out.append(f)                              # [0.34, 0.04, 0.68, 0.06]   # sums to 1.0; "Total: 1.00"
            found.add(f.line)
        one = _one_row(a, found)
        if one is not None:
            out.append(one)
            found.add(a.line)
            continue
        # whole numbers only (1 0 0 / 1 1 0) are a mask or counts, never weights
        grid = _grid(a) if not a.elided and not a.context.dropout \
            and not a.context.dropped_copy and not a.all_integers() else None
        if grid is None or not _named_weights(a, _caption(lines, a.row_line(0))):
            continue
        slack = [[max(0.0, (n.hi - n.lo) / 2 - half_unit(n.decimals or 0)) for n in r] for r in a.rows]
        sums = [_off(r, sum(x)) for r, x in zip(grid, slack)]
        cols = [_off([r[j] for r in grid], sum(x[j] for x in slack)) for j in range(len(grid[0]))]
        # (one row that sums to 1 is enough when the equation itself names the matrix the softmax of the scores,
        # `\text{Attention Weights} = \text{softmax}(QK^T/\sqrt{2}) = [...]`: its rows are the softmax's)
        # (so is one when torch printed the matrix as a softmax's output: `grad_fn=<SoftmaxBackward0>`)
        if sum(s is None for s in sums) < (1 if _called_softmax(a) or _printed_softmax(a) else 2) or \
                all(c is None for c in cols):
            continue
        if judged is not None:
            judged.append(a)
        # (two rows that end in a weight above 0 sum to 1: the last key is in view, the rows are whole)
        # (and a softmax's output as torch printed it is whole rows by how it was made)
        square = len(grid) == len(grid[0]) or _printed_softmax(a) or \
            len(grid) >= 3 and sum(1 for r, s in zip(grid, sums) if s is None and r[-1][0] != 0) >= 2
        masked = _mask_of(doc, a, grid)
        for i, (row, s) in enumerate(zip(grid, sums)):
            line = a.row_line(i)
            live = [j for j in masked.get(i, ()) if row[j][0] != 0]
            if live and line not in found:
                j = live[0]
                out.append(Finding(line, None, f"{a.label or 'weights'}[{i + 1},{j + 1}]", a.rows[i][j].text, 0.0,
                                   f"{0:.{row[j][1]}f}", "softmax", "the score there is masked (-∞) in the matrix "
                                   "printed before: its weight is 0", "wrong_value"))
                found.add(line)
            if s is None or line in found or not (square or row[-1][0] == 0):
                continue
            d = max(dd for _, dd in row)
            terms = " + ".join(n.text for n in a.rows[i] if Decimal(n.text.replace("−", "-")) != 0)
            name = "weights" if not a.label or _ROW_WORDS.match(a.label) else a.label
            out.append(Finding(line, None, f"{name} row {i + 1}: its sum", f"{terms} = {s:.{d}f}",
                               1.0, f"{1:.{d}f}", "softmax",
                               f"a row of attention weights sums to 1; this one sums to {s:.{d}f}", "wrong_value"))
            found.add(line)
    return out + _stacked_rows(doc, lines, found)


def _printed_softmax(a) -> bool:
    """torch printed the matrix as a softmax's output (`grad_fn=<SoftmaxBackward0>`), over its last axis as far as
    the code that made it says (`F.softmax(scores, dim=-1)`; not dim=0 of a matrix, or dim=1 of a batch)."""
    m = re.search(r"(?:dim|axis)\s*=\s*(-?\d+)", a.source or "")
    return bool(a.softmax_out) and (m is None or int(m.group(1)) in (-1, len(a.lead) + 1))


# the words a caption over one row of weights uses: "Attention of output step 2:", "step 1 attended mainly to", or
# only "Head #1:" under a line that speaks of attention
_ROW_CAPTION = re.compile(r"\battention\b|\battn\b|\battend(?:s|ed|ing)?\b|注意力|\bhead\s*#?\s*\d", re.I)
_ATTENTION_WORDS = re.compile(r"\battention\b|\battn\b|\battend(?:s|ed|ing)?\b|注意力", re.I)
_OTHER_QUANTITY = re.compile(r"\b(?:quer(?:y|ies)|keys?|values?|outputs?(?!\s+steps?)|embeddings?|inputs?(?!\s+steps?))\b",
                             re.I)
STACK_GAP = 3           # lines from one captioned row to the next


def _captions(lines: list[str], row) -> tuple[str, str]:
    """The line just above a printed row (its caption), and the nearest line of words above that (fences and blank
    lines passed over)."""
    caption = lines[row.line - 2].strip() if row.line >= 2 else ""
    above = next((x.strip() for x in reversed(lines[max(0, row.line - 6):max(0, row.line - 2)])
                  if x.strip() and not x.strip().startswith(("```", "~~~"))), "")
    return caption, above


def _stacked_rows(doc, lines: list[str], found: set[int]) -> list[Finding]:
    """Rows of weights printed one at a time, each under a caption of its own ("Attention of output step 1:" over
    `[0.0, 0.989, 0.0, 0.011]`), three or more of one width: a matrix printed row by row.  A row is judged when every
    caption is a line of its own over its row (not the row before), speaks of attention (or says "Head #k" under a line that does)
    and names no other quantity (queries, keys, values, outputs), and all rows but it sum to 1 within their rounding
    (two at least); it is off by a slip's amount (at most 0.1), not a part of a longer row."""
    rows = [a for a in doc.arrays if a.place.cell is None and a.n_rows == 1 and a.n_cols >= 3 and not a.elided
            and not a.context.dropout and _row_values(a.rows[0]) is not None and not a.all_integers()]
    rows.sort(key=lambda a: a.line)
    groups: list[list] = []
    for a in rows:
        g = groups[-1] if groups else None
        if g and a.n_cols == g[-1].n_cols and 0 < a.line - g[-1].line <= STACK_GAP:
            g.append(a)
        else:
            groups.append([a])
    out: list[Finding] = []
    for g in groups:
        pairs = [_captions(lines, a) for a in g]
        captions = [c for c, _ in pairs]
        said = any(_ATTENTION_WORDS.search(c) for c in captions) or _ATTENTION_WORDS.search(pairs[0][1])
        row_lines = {a.line for a in g}
        if len(g) < 3 or not said or any(a.line - 1 in row_lines for a in g) or not all(
                _ROW_CAPTION.search(c) and not _NOT_NORMALIZED.search(c) and not _OTHER_QUANTITY.search(c)
                for c in captions):
            continue            # (a caption is a line of words over its row, never the row before it)
        vals = [_row_values(a.rows[0]) for a in g]
        sums = [_off(v) for v in vals]
        if sum(s is None for s in sums) < max(2, len(g) - 1):
            continue
        for a, v, s, caption in zip(g, vals, sums, captions):
            if s is None or a.line in found or abs(s - 1) > Decimal("0.1") or max(d for _, d in v) < 2:
                continue
            d = max(dd for _, dd in v)
            out.append(Finding(a.line, None, f"{caption[:40].rstrip(': ')}: its sum",
                               " + ".join(n.text for n in a.rows[0]) + f" = {s:.{d}f}", 1.0, f"{1:.{d}f}",
                               "softmax", f"a row of attention weights sums to 1; the rows printed beside it do, this "
                               f"one sums to {s:.{d}f}", "wrong_value"))
            found.add(a.line)
    return out


# a remark after a printed row that states its sum: "# Sums to 1.0", "// sum = 1", "← 和为 1"
_SAID_SUM = re.compile(r"(?:#|//|←|<-|--)\s*(?:each\s+row\s+|this\s+row\s+|row\s+)?(?:sums?\s+(?:up\s+)?to|sum\s*[=:]|"
                       r"adds?\s+up\s+to|总和(?:为|是|=)|和为|和是)\s*(\d+(?:\.\d+)?)\s*$|"
                       # "(합계: 1.0)", "(sum: 1.0)" after the row, in parentheses
                       # (the colon may be left out, a decimal comma used: "(Summe 1,0000)"; a string's quote may
                       # close the line: `"Softmax: 0,06 / 0,94 (Summe 1,00)",`)
                       r"\(\s*(?:sum|total|합계|合計|合计|总和|summe|suma|soma|somme)\s*[:=：]?\s*(\d+(?:[.,]\d+)?)\s*\)"
                       r"\s*[\"',;]*\s*$",
                       re.I)


def _said_sums(a, lines: list[str], found: set[int]) -> list[Finding]:
    """Rows whose own line states their sum in a remark: the author's claim, judged by adding the row up (its terms'
    rounding allowed); one finding per row that does not add up to what it says."""
    out = []
    for i, r in enumerate(a.rows):
        line = a.row_line(i)
        if not r or any(n is None for n in r) or line in found or not 0 < line <= len(lines):
            continue
        m = _SAID_SUM.search(lines[line - 1])
        if m is None or {n.line or line for n in r} != {line}:
            continue
        try:
            vals = [(Decimal(n.text.replace("−", "-")), n.decimals or 0) for n in r]
            text = (m.group(1) or m.group(2)).replace(",", ".")
            said = Decimal(text)
        except InvalidOperation:
            continue
        total = _off(vals, Decimal(5) / Decimal(10) ** (len(text.partition(".")[2]) + 1), said)
        if total is None:
            continue
        d = max(dd for _, dd in vals)
        out.append(Finding(line, None, f"{a.label or 'row'} row {i + 1}: its sum",
                           " + ".join(n.text for n in r) + f" = {total:.{d}f}", float(said), text,
                           "softmax", f"the row is said to sum to {text}; its entries add up to {total:.{d}f}",
                           "wrong_value"))
    return out


# the line under a list of one query's values that totals them: "Total: 1.00 (100 percent)", "合计：1.00"
_TOTAL_LINE = re.compile(r"^\s*(?:[-*•]\s*)?(?:\*\*)?(?:total|sum|合计|总和|总计|summe|suma|soma|somme)(?:\*\*)?"
                         r"\s*[:：=]\s*(\d+(?:[.,]\d+)?)(?![\d%])(?:\s*\([^()]*\))?\s*$", re.I)


def _listed_total(a, lines: list[str], found: set[int]) -> list[Finding]:
    """A row listed one value a line (`sat attending to "cat": 0.35`, listed.py) and a total on the line right
    under it: the author's claim about those values, judged by adding them up (their rounding and the total's
    allowed); one finding, on the total's line."""
    if a.n_rows != 1 or len(a.rows[0] or []) < 2 or any(n is None or n.line is None for n in a.rows[0]):
        return []
    row = a.rows[0]
    nums = [n.line for n in row]
    if nums != list(range(nums[0], nums[0] + len(nums))) or not 0 < nums[-1] < len(lines):
        return []
    m = _TOTAL_LINE.match(lines[nums[-1]])
    line = nums[-1] + 1
    if m is None or line in found:
        return []
    try:
        text = m.group(1).replace(",", ".")
        said = Decimal(text)
        vals = [(Decimal(repr(n.value)), n.decimals if n.decimals is not None else 0) for n in row]
    except InvalidOperation:
        return []
    total = _off(vals, Decimal(5) / Decimal(10) ** (len(text.partition(".")[2]) + 1), said)
    if total is None:
        return []
    d = max(len(text.partition(".")[2]), max(dd for _, dd in vals))
    return [Finding(line, None, f"{a.label or 'the values listed'}: their total", text, float(total),
                    f"{total:.{d}f}", "softmax", f"the values listed above add up to {total:.{d}f}",
                    "wrong_value")]


def output_weights(doc) -> list:
    """A notebook's printouts of the weights, named so by what printed them (`masked_softmax(torch.rand(2, 2, 4),
    valid_lens)`, `attn_weights`), with rows in [0, 1] of which most (and at least two) sum to 1: each is a claim
    that its rows sum to 1, whatever the configuration (judged in row_sums)."""
    out = []
    defines = [h for h in doc.hints if h.kind == "define"]
    for a in doc.arrays:
        if a.place.cell is None or a.place.where != "output" or a.elided or a.context.dropout or \
                a.context.dropped_copy or a.all_integers() or not (
                    any(_softmax_output(n) for n in (a.label, *a.labels) if n) or _softmax_source(a.source) or
                    _softmax_source(_last_value(a, defines))):
            continue
        grid = [_row_values(r) for r in a.rows if r]
        if len(grid) < 2 or any(g is None for g in grid) or len({len(g) for g in grid}) != 1 or len(grid[0]) < 2:
            continue
        holds = sum(_off(g) is None for g in grid)
        if holds >= 2 and 2 * holds > len(grid):      # rows that sum to 1 identify the weights; most of them must
            out.append(a)
        elif a.softmax_out and holds >= 1 and 2 * holds >= len(grid):
            out.append(a)     # torch printed it as a softmax's output (grad_fn=<SoftmaxBackward0>): one row of two will do
    return out


def _last_value(a, defines: list) -> str:
    """The code that last gave the printed name its value before a notebook's printout (`wei = F.softmax(wei,
    dim=-1)` a cell above `wei[0]`), or ''."""
    m = re.fullmatch(r"\s*([A-Za-z_]\w*)(?:\[[\d\s,:]*\])?\s*", a.label or "")
    if m is None:
        return ""
    # (a notebook's output comes after all of its cell's code: a define in the same cell is before it)
    before = sorted((h for h in defines if h.value[0].strip() == m.group(1) and a.place.cell is not None and
                     h.place.cell is not None and h.place.cell <= a.place.cell),
                    key=lambda h: (h.place.cell, h.place.line))
    return before[-1].value[1] if before else ""


def _softmax_source(code: str) -> bool:
    """The code that made a printout, read across cells (`weights = F.softmax(weights, dim=-1)` in one cell, `weights`
    shown in the next): a softmax over the last axis."""
    return bool(code) and bool(re.match(r"\s*(?:F\.|torch\.|nn\.functional\.|scipy\.special\.)?softmax\s*\(", code)) and \
        not re.search(r"(?:dim|axis)\s*=\s*(?:0|1|-2)\b", code) and not re.search(r"log_?softmax", code)


def _softmax_output(name: str) -> bool:
    """A printout's name says it is softmax weights: a softmax call (masked_softmax(...) too: its masked entries are
    0 and its rows still sum to 1), or a name of the weights that says nothing of being unnormalized."""
    if re.search(r"dropout|exp\(|log_?softmax|logits?|scores?", name, re.I):
        return False
    if re.search(r"softmax\s*\(", name):
        return True
    r = lb.parse_label(name)
    # a symbol of the weights (attn_weights, A), or words that say attention weights ("Head 1 注意力权重")
    return r is not None and (r.strong or bool(_WEIGHTS.search(name))) and r.nodes == ("A",) and \
        not _NOT_NORMALIZED.search(name)


def cell_row_sums(weights: list, findings: list[Finding]) -> list[Finding]:
    """A notebook's printouts of the weights (output_weights: named so by what printed them, a cell has no
    caption): each row that does not sum to 1, one finding on its line unless the line has one."""
    found = {(f.cell, f.line) for f in findings if f.severity == "error" and f.cell is not None}
    return [f for a in weights for f in _output_rows(a, found)]


def _output_rows(a, found: set) -> list[Finding]:
    """Each row of a printout from output_weights (printed whole: its rows are the softmax's, most of them sum to 1)
    that does not sum to 1 within its rounding: one finding on its line."""
    rows = [r for r in a.rows if r]
    grid = [_row_values(r) for r in rows]
    sums = [_off(g) for g in grid]
    out = []
    for r, g, s in zip(rows, grid, sums):
        line = r[0].line or a.line
        if s is None or (a.place.cell, line) in found or \
                not Decimal("0.0005") <= abs(s - 1) <= OUTPUT_ROOM:
            continue
        d = max(dd for _, dd in g)
        terms = " + ".join(n.text for n in r if Decimal(n.text.replace("−", "-")) != 0)
        out.append(Finding(line, a.place.cell, f"{a.label or 'weights'}: a row's sum", f"{terms} = {s:.{d}f}", 1.0,
                           f"{1:.{d}f}", "softmax", f"a row of attention weights sums to 1; this one sums to {s:.{d}f}",
                           "wrong_value"))
        found.add((a.place.cell, line))
    return out
