"""A wrong value quoted again: a row of weights found wrong is often read out once more in the prose ("53% to
'I', 35% to 'love', 12% to 'dogs'"), written into the weighted sum (`0.53×v1 + 0.35×v2 + 0.12×v3`), a summary
table or a figure.  The quote is the same printed number, the same quantity, printed again: one slip, one finding.
Each quote gets a note pointing to the line where the value was found wrong ("follows from line N"), never a new
error, so a finding that was itself mistaken is never counted twice.

Identity before verdict: a quote is the found object only when at least three of that object's printed numbers
follow one another in the text, in its order, each digit for digit (or as a percentage: 0.53 and 53%), with at
least two different values among them, none of them an integer as printed, all within a few lines.  And a quote
may only follow a finding whose object was identified without the quote and without its disputed numbers: an
array whose other cells match what it was attributed to (identity.identified), or an array judged against its own
printed terms (`softmax([...]) = [...]`, `0.5·[..] + .. = [..]`).  Lines that already carry a finding are left as
they are.

Only documents read as text lines (Markdown, LaTeX, HTML, plain text) are scanned: a notebook's lines are counted
per cell, which the text of the whole file does not give.  The judging calls `add_requotes` once it has settled
its findings (verdict.judge_document).
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from decimal import Decimal, InvalidOperation
from urllib.parse import unquote

import numpy as np

from ..report import Finding
from .identity import AGREE_MIN, evidence, identified
from .softmax import OF_PRINTED_SCORES
from .slippedscore import SLIPPED_HERE

MIN_RUN = 3          # numbers in a row that must agree with the found object: each judged one has two witnesses
MAX_SPAN = 8         # lines a quote may spread over ("- 53% ...", "- 35% ...", "- 12% ..." one per line)

# a number that is not part of a word or a longer number (V1, q_2, x86, 1.2.3); a percent sign may follow
_NUM = re.compile(r"(?<![\w.])([-−]?\d+(?:\.\d+)?)(\\?%)?(?![\w.]|\d)")
_URL_ESCAPES = re.compile(r"%(?:20|5C|7B|7D|26)", re.I)


@dataclass(frozen=True)
class Token:
    line: int
    value: Decimal        # as a fraction when printed as a percentage
    decimals: int         # digits after the point at that scale
    text: str


def _token(line: int, digits: str, percent: str | None) -> Token | None:
    try:
        v = Decimal(digits.replace("−", "-"))
    except InvalidOperation:
        return None
    dec = len(digits.split(".")[1]) if "." in digits else 0
    if percent:
        v, dec = v / 100, dec + 2
    if dec == 0:
        return None                          # an integer as printed: an index, a count, a size
    return Token(line, v, dec, digits + ("%" if percent else ""))


def tokens(text: str) -> list[Token]:
    """The decimal numbers of a text in reading order, with their lines (1-based).  A line that is an escaped
    URL (an equation rendered by an image service: `%5Cbegin%7Bbmatrix%7D%200.44%20%26`) is read unescaped."""
    out: list[Token] = []
    for i, raw in enumerate(text.splitlines(), start=1):
        line = unquote(raw) if len(_URL_ESCAPES.findall(raw)) >= 3 else raw
        for m in _NUM.finditer(line):
            t = _token(i, m.group(1), m.group(2))
            if t is not None:
                out.append(t)
    return out


@dataclass
class Source:
    """An object with at least one entry found wrong: its printed numbers in order, the findings by position."""
    line: int
    nums: list[tuple[Decimal, int]]
    wrong: dict[int, Finding]
    lines: frozenset[int]


def _key(n) -> tuple[Decimal, int] | None:
    try:
        return Decimal(n.text.replace("−", "-")).normalize(), n.decimals or 0
    except (InvalidOperation, AttributeError):
        return None


def sources(doc, findings: list[Finding], plans: dict | None = None) -> list[Source]:
    """The arrays that hold a wrong number: for each error finding of a text document, the array printed on its
    line that holds its printed number, when that array was identified without its disputed numbers (plans: the
    judge's attribution of each array, by id; None trusts every array, for callers without a judge)."""
    out: dict[int, Source] = {}
    for f in findings:
        if f.severity != "error" or f.cell is not None or not isinstance(f.exact, float):
            continue
        for a in doc.arrays:
            nums = a.numbers
            at = [k for k, n in enumerate(nums) if n.text == f.printed and (n.line or a.place.line) == f.line]
            if len(at) != 1 or any(_key(n) is None for n in nums) or not _independent(a, plans):
                continue
            src = out.setdefault(a.id, Source(f.line, [_key(n) for n in nums], {},
                                              frozenset(n.line or a.place.line for n in nums)))
            src.wrong.setdefault(at[0], f)
    return list(out.values())


def _independent(a, plans: dict | None) -> bool:
    """Was the array identified by evidence other than its disputed numbers?  Either its own printed terms stand
    beside it (its finding is their arithmetic), or most of its other cells match the intermediate it was
    attributed to.  A finding on an array named only by its label, or by a reading of its own, is not followed."""
    if plans is None or a.softmax_of is not None or a.prev_expr is not None:
        return True
    plan = plans.get(a.id)
    hit = plan.get("hit") if plan else None
    size = len(a.numbers)
    if hit is None or plan["kind"] != "wrong" or size < MIN_RUN or np.size(hit.ok) != size:
        return False
    return identified(hit.n_ok, size) and evidence(np.array([n.value for n in a.numbers]), hit.ok) >= AGREE_MIN


def _runs(src: Source, toks: list[Token]) -> list[list[tuple[Token, int]]]:
    """Maximal runs of consecutive tokens equal to consecutive numbers of the source, in its order."""
    keys = [(t.value.normalize(), t.decimals) for t in toks]      # an integer as printed never matches (0)
    out = []
    i = 0
    while i < len(toks):
        best: list[tuple[Token, int]] = []
        for s in range(len(src.nums)):
            run = []
            while i + len(run) < len(toks) and s + len(run) < len(src.nums) and \
                    keys[i + len(run)] == src.nums[s + len(run)]:
                run.append((toks[i + len(run)], s + len(run)))
            if len(run) > len(best):
                best = run
        if len(best) >= MIN_RUN:
            out.append(best)
            i += len(best)
        else:
            i += 1
    return out


def _strided(src: Source, toks: list[Token], taken: set[int]) -> list[list[tuple[Token, int]]]:
    """A weighted sum written out on one line, each weight followed by its vector
    (`0.53 × [0.4, 0.9] + 0.35 × [-0.3, 0.2] + 0.12 × [0.7, -0.1]`): from its first weight to the line's end, the
    line's numbers are blocks of one weight and g entries, and the weights are consecutive numbers of the source."""
    by_line: dict[int, list[Token]] = {}
    for t in toks:
        if t.line not in taken:
            by_line.setdefault(t.line, []).append(t)
    out = []
    for line_toks in by_line.values():
        for g in range(1, 5):
            for p in range(g + 1):
                if (len(line_toks) - p) % (g + 1) or (len(line_toks) - p) // (g + 1) < MIN_RUN:
                    continue
                weights = line_toks[p::g + 1]
                run = _runs(src, weights)
                if run and len(run[0]) == len(weights):
                    out.append(run[0])
                    break
            else:
                continue
            break
    return out


def requoted(doc, findings: list[Finding], text: str, plans: dict | None = None) -> list[Finding]:
    """Notes for the quotes of wrong values, one per quoted wrong number, on lines without a finding: each
    follows from the line where the value was found wrong."""
    found_lines = {f.line for f in findings if f.severity == "error" and f.cell is None}
    srcs = sources(doc, findings, plans)
    if not srcs:
        return []
    toks = tokens(text)
    # a vector with its own terms printed beside it (softmax([...]) = [...], 0.5·[..] + .. = [..]) was judged by
    # them; one that has no finding holds, whatever an earlier line printed
    own_terms = {n.line or a.place.line for a in doc.arrays if a.softmax_of is not None or a.prev_expr is not None
                 for n in a.numbers}
    out: list[Finding] = []
    for src in srcs:
        runs = _runs(src, toks)
        for run in runs + _strided(src, toks, {t.line for r in runs for t, _ in r}):
            lines = {t.line for t, _ in run}
            if max(lines) - min(lines) > MAX_SPAN or len({t.value for t, _ in run}) < 2 or \
                    lines & (src.lines | own_terms):
                continue
            for t, k in run:
                f = src.wrong.get(k)
                if f is None or t.line in found_lines:
                    continue
                scale = 100.0 if t.text.endswith("%") else 1.0
                exact = f.exact * scale
                rounded = f"{exact:.{t.decimals - (2 if scale != 1.0 else 0)}f}"
                if rounded == t.text.rstrip("%"):
                    continue                 # right at this precision after all
                rounded += "%" if scale != 1.0 else ""
                out.append(Finding(t.line, None, f"{f.claim} (quoted again)", t.text, exact, rounded, f.step,
                                   f"follows from line {f.line}: the value found wrong there, quoted again",
                                   f.kind, severity="note"))
    return out


def add_requotes(j, doc, text: str | None) -> None:
    """The judge's last step on a text document: notes for the quotes of the values it found wrong."""
    if text is None or doc.format == "ipynb":
        return
    j.findings.extend(requoted(doc, j.findings, text, getattr(j, "plans", None) or {}))


def rounded_requotes(findings: list[Finding]) -> None:
    """A number whose cell got a rounding note (it follows from the rounded values printed before it) and that is
    quoted again later, in prose or a table, is the same number: the quote gets the note too, never an error of its
    own ("the strongest weight (0.769)" after a row whose 0.769 follows from scores printed to 2 decimals)."""
    notes = [f for f in findings if f.severity == "note" and isinstance(f.exact, float) and
             (f.cause or "").startswith("follows from the rounded")]
    for f in findings:
        if f.severity != "error" or not isinstance(f.exact, float):
            continue
        first = next((n for n in notes if (n.cell, n.line) < (f.cell, f.line) and n.cell == f.cell and
                      n.printed.strip() == f.printed.strip() and abs(n.exact - f.exact) <= 1e-9 * max(1.0, abs(f.exact))),
                     None)
        if first is not None:
            f.severity, f.kind = "note", "rounded_sum"
            f.cause = f"the number printed on line {first.line}, quoted; {first.cause}"


QUOTE_LINES = 12     # lines within which a wrong weight written again into a weighted sum is the same slip


def wrong_requotes(findings: list[Finding]) -> None:
    """A weight found wrong in its row (`α ≈ [[0.47, 0.33, 0.20], ...]`) and written again as a coefficient of the
    weighted sum a few lines on (`z₁ = 0.47·[1,0] + 0.33·[0.5,0.5] + ...`): the same printed number for the same
    exact value, one slip; the later one is a note pointing to the first, never a second error."""
    errors = [f for f in findings if f.severity == "error" and isinstance(f.exact, float) and f.cell is None]
    for f in errors:
        if f.step != "weighted_sum" or " in " not in f.claim:
            continue                 # only a coefficient read inside a weighted sum (claims/vector.py names it so)
        first = next((e for e in errors if e is not f and e.line < f.line <= e.line + QUOTE_LINES and
                      e.printed.strip() == f.printed.strip() and e.rounded == f.rounded), None)
        if first is not None:
            f.severity, f.kind = "note", "rounded_sum"
            f.cause = f"follows from line {first.line}: the value found wrong there, written again into this sum"


def repeated_errors(findings: list[Finding]) -> None:
    """The same wrong value found twice: a row of weights (`a_2 = [0.248, 0.248, 0.504]`) and then the whole matrix
    that holds it again (`A = [[...], [0.248, 0.248, 0.504], ...]`) give two errors for one slip.  The later one, the
    same printed number (with a decimal point) for the same exact value of the same step a few lines on, becomes a
    note pointing to the first."""
    errors = sorted((f for f in findings if f.severity == "error" and isinstance(f.exact, float)),
                    key=lambda f: (f.cell or 0, f.line))
    for k, f in enumerate(errors):
        if "." not in f.printed:
            continue
        first = next((e for e in errors[:k] if e.severity == "error" and e.cell == f.cell and e.step == f.step
                      and e.line < f.line <= e.line + 40 and e.printed.strip() == f.printed.strip()
                      and abs(e.exact - f.exact) <= 1e-12 * max(1.0, abs(f.exact))
                      and _entry(e.claim) is not None and _entry(e.claim) == _entry(f.claim)), None)
        if first is not None:
            f.severity = "note"
            f.claim = f.claim + " (quoted again)"
            f.cause = f"follows from line {first.line}: the value found wrong there, quoted again"


def _entry(claim: str) -> str | None:
    """The entry a finding names, "[2,3]" of "A^(1) row 2[2,3]": two cells of one matrix that happen to be equal
    (A[1,3] = A[2,3] by symmetry) are two slips, the same entry printed twice is one."""
    m = re.search(r"\[\d+(?:,\d+)*\]$", claim.strip())
    return m.group(0) if m else None



def right_copies(findings: list[Finding]) -> None:
    """A value found wrong by its own arithmetic (`v = [1, 0] × W_V = [2, 1]`, the product gives [2, 0]) and a later
    copy of it found "wrong" with the two numbers swapped (`0.67 × [2, 0]` judged against the slipped 1): the later
    copy holds the value the first should have; it is no second slip.  It becomes a note pointing to the first."""
    errors = sorted((f for f in findings if f.severity == "error" and isinstance(f.exact, float)),
                    key=lambda f: (f.cell or 0, f.line))
    for k, f in enumerate(errors):
        if f.kind == "arithmetic":
            continue                 # its own written terms disagree with it: a slip of its own, not a copy
        first = next((e for e in errors[:k] if e.severity == "error" and e.kind == "arithmetic" and
                      e.cell == f.cell and e.line < f.line <= e.line + 40 and _same_number(e.printed, f.exact)
                      and _same_number(f.printed, e.exact)), None)
        if first is not None:
            f.severity, f.kind = "note", "carried"
            f.cause = (f"follows from line {first.line}: the value found wrong there is taken as given; this copy "
                       f"has the value its arithmetic gives")


def _same_number(text: str, x: float | str | None) -> bool:
    try:
        return isinstance(x, float) and abs(float(text) - x) <= 1e-9 * max(1.0, abs(x))
    except ValueError:
        return False


def one_per_number(findings: list[Finding]) -> None:
    """A printed number found wrong twice on its line, by two claims (the sum of its terms, and the configuration's
    exact value): one number, one error.  The one its own written arithmetic gives is kept (the line's evidence,
    whatever the configuration); the other becomes a note that names it.  Only one of each: two findings of
    the configuration on one printed text are two entries that print alike."""
    groups: dict[tuple, list[Finding]] = {}
    for f in findings:
        if f.severity == "error":
            groups.setdefault((f.cell, f.line, f.printed.strip()), []).append(f)
    for fs in groups.values():
        # (a score its weights say slipped is the line's own evidence as well: claims/slippedscore.py)
        arith = [f for f in fs if f.kind == "arithmetic" or SLIPPED_HERE in (f.cause or "")]
        other = [f for f in fs if f not in arith]
        if len(arith) != 1 or len(other) != 1:
            continue                 # (two entries of one row that print alike, [0.4223, 0.1554, 0.4223]: two numbers)
        keep, f = arith[0], other[0]
        f.severity, f.kind = "note", "carried"
        f.cause = f"the same number is found wrong on this line already ({keep.claim}: {keep.rounded})"


_PAIR_ROW = re.compile(r"^weight \d+ " + re.escape(OF_PRINTED_SCORES) + r" (?P<line>\d+)")
_CHAIN_ROW = re.compile(r"^softmax of (?:cell (?P<cell>\d+), )?line (?P<line>\d+)\[")      # a notebook's printout chain (printchain.py)


def beside_wrong_scores(findings: list[Finding]) -> None:
    """Weights judged against the scores printed beside them (claims/softmax.py), where a score of that row is found
    wrong itself: the pair disagrees, but the slip may be the score's as well as the weights' (scores [1.0, 1.0,
    1.5] over weights [0.33, 0.33, 0.33]: the 1.5 slipped, the weights are those of the right scores), and the score
    is found already.  One slip, one finding: the weights' findings become notes that name the score's line."""
    # (a scaled printout found wrong against its own code, `[3,3] of sims / 2**0.5` (claims/formula.py), is such a
    # row too; a scaled score found wrong against the configuration stays out: its line may hold the whole matrix)
    # (and any line of arithmetic found off that a pair names as its scores: `[0.2-1.0, 0.4-0] = [-0.8, 0.5]`)
    wrong = {(f.cell, f.line) for f in findings if f.severity == "error" and
             ("score" in f.step or f.step == "scale" and f.claim.startswith("[") or
              (f.cause or "").startswith("arithmetic slip"))
             and not _PAIR_ROW.match(f.claim) and not _CHAIN_ROW.match(f.claim)}
    for f in findings:
        m = (_PAIR_ROW.match(f.claim) or _CHAIN_ROW.match(f.claim)) if f.severity == "error" else None
        cell = int(m.group("cell")) if m and m.groupdict().get("cell") else f.cell
        if m and (cell, int(m.group("line"))) in wrong:
            f.severity, f.kind = "note", "carried"
            f.cause = (f"follows from line {m.group('line')}: a score found wrong there; these weights may be those "
                       f"of the right scores")
