"""Decimal commas: a document written the way much of Europe writes numbers (0,5; 1,25; in TeX 0{,}7778) is read
with decimal points, before any reader sees it.

Only a document that says so is read this way: a TeX decimal comma (`0{,}5`) is one sign; a number like 0,34 (a
zero, a comma, digits) outside code, or one beside a semicolon that separates entries ("(1,0; 0,5)"), another.
Three signs, and at least one for every four numbers written with a decimal point outside code, make it one.
Code (Markdown fences and spans, notebook code cells and outputs, HTML <pre>/<code>, TeX verbatim, REPL lines)
keeps its points and is left alone.  Lines stay where they are: `0{,}5` becomes `0.5` and two spaces after the
number, so that columns after it keep their place.

In such a document a point between groups of three digits separates thousands (`100.480` is 100480).  What a
comma is never taken for: one inside a run of commas without spaces (`0,1,2`: a list), and the only
content of a bracket (`(3,4)`, `[0,1]`, `(0,1]`, `x_{1,2}`: a shape, an index, an interval).
"""

from __future__ import annotations

import json
import math
import re

SIGNS_MIN = 3            # signs of decimal commas a document must give
POINTS_PER_SIGN = 4      # and no more than this many decimal points outside code per sign

_TEX_COMMA = re.compile(r"(\d)\{,\}(\d+)")
# 32{,}768 and 1{,}048{,}576: TeX's thousands separator (one to three leading digits, then groups of three); in a
# document that writes decimal commas 32{,}768 is 32.768, so such a number is no sign either way
_TEX_THOUSANDS = re.compile(r"(?<![\d.}])([1-9]\d{0,2})((?:\{,\}\d{3})+)(?!\d|\{,\})")
# 786,432 after "=" or "≈" (one to three leading digits, groups of three, and no list going on after it)
_PLAIN_THOUSANDS = re.compile(r"((?:=|≈|\\approx)\s*)([1-9]\d{0,2})((?:,\d{3})+)(?![\d,]|\.\d|\s*,\s*\d)")
# a number that groups thousands beside a multiplication sign (`4,096 × 8,192`, `× 1,024`)
_PRODUCT_THOUSANDS = re.compile(r"(?:[×*·]|\\times)\s*[1-9]\d{0,2}(?:,\d{3})+(?![\d,]|\.\d)|"
                                r"(?<![\w.,])[1-9]\d{0,2}(?:,\d{3})+\s*(?:[×*·]|\\times)")
_FACTOR_THOUSANDS = re.compile(r"(?:[×*·]|\\times)\s*[1-9]\d{0,2}(?:,\d{3})+\s*(?:[×*·]|\\times)")
_GROUPED = re.compile(r"(?<![\w.,])[1-9]\d{0,2}(?:,\d{3})+(?![\d,]|\.\d)")
_COMMA = re.compile(r"(?<![\w.])(?<!\d,)([-−–]?)(\d+),(\d+)(?!\w|,\d|\.\d)")
_POINT = re.compile(r"(?<![\w.])\d+\.\d+")
# a bracket of numbers separated by semicolons, "(1,0; 0,5)": the semicolons separate entries
_GAP = r"(?:\s|\\[ ,;:!]|\\quad)*"        # spaces, and TeX's spacing commands (`[0,198;\ 0,401]`)
_NUM = rf"{_GAP}[-−–]?\d+(?:\.\d+)?{_GAP}"
_SEMI_TUPLE = re.compile(rf"\((?:{_NUM};)+{_NUM}\)|\[(?:{_NUM};)+{_NUM}\]")
_OPEN, _CLOSE = "([{", ")]}"

# what is code in each format: those spans keep their points
_CODE = {
    "md": re.compile(r"^ {0,3}(```|~~~)[^\n]*\n.*?(?:^ {0,3}\1[^\n]*$|\Z)|`[^`\n]+`", re.M | re.S),
    "tex": re.compile(r"\\begin\{(verbatim|lstlisting|minted|Verbatim)\*?\}.*?\\end\{\1\*?\}"
                      r"|\\verb(\W).*?\2|\\lstinline(\W).*?\3", re.S),
    "html": re.compile(r"<(pre|code|script|style)\b.*?</\1\s*>", re.S | re.I),
    "txt": re.compile(r"^ {0,3}(```|~~~)[^\n]*\n.*?(?:^ {0,3}\1[^\n]*$|\Z)"
                      r"|^\s*(?:>>>|>>|\.\.\.|In \[|Out\[|octave:\d+>|julia>|> )[^\n]*$", re.M | re.S),
}


_TEXT_FENCE = re.compile(r" {0,3}(?:```|~~~)\s*(?:text|txt|plain|plaintext)\s*\n")
_BARE_FENCE = re.compile(r" {0,3}(?:```|~~~)\s*\n")
# a bracket of entries parted by semicolons, the first with a decimal comma: `[0,707 ; 0 ; −0,707]` (no program
# writes that: in Python it does not even parse)
_COMMA_TUPLE = re.compile(r"[\[(]\s*[-−–]?\d+,\d+\s*;")
# entries with decimal commas parted by a spaced comma: `[0,2 , 0,3]`, `[1 , 0,5]` (no program spaces a list so)
_SPACED_TUPLE = re.compile(r"(?:[-−–]?\d+,\d+|\d+)[ \t]+,[ \t]+[-−–]?\d+,\d+|[-−–]?\d+,\d+[ \t]+,[ \t]+[-−–]?\d+")


def _prose(text: str, fmt: str) -> list[tuple[int, int]]:
    """The spans of text outside code."""
    code = _CODE.get(fmt, _CODE["txt"])
    spans, at = [], 0
    for m in code.finditer(text):
        if _TEXT_FENCE.match(m.group(0)) and re.search(r"\d,\d", m.group(0)):
            continue                   # a fence marked ```text holding worked numbers as prose: `Q = [ 1,0   0,0 ]`
                                       # (one without a comma between digits is a program's printout: points)
        if (_BARE_FENCE.match(m.group(0)) or m.group(0)[:1] == "`" and m.group(0)[:3] != "```") and \
                (_COMMA_TUPLE.search(m.group(0)) or _SPACED_TUPLE.search(m.group(0))):
            continue                   # a fence with no language (or a code span) holding `[0,707 ; 0 ; −0,707]`
            #                            or `[0,2 , 0,3]`: worked numbers
        if _BARE_FENCE.match(m.group(0)) and re.search(r"\d,\d", m.group(0)) and not _parses(m.group(0)):
            continue                   # `t0·e1 = 0,40 -> 0,283` in a fence with no language: no program either
        spans.append((at, m.start()))
        at = m.end()
    spans.append((at, len(text)))
    return [(a, b) for a, b in spans if b > a]


def _parses(fence: str) -> bool:
    """Does the body of a fenced block parse as Python?"""
    from .pyparse import parse_code
    body = fence.split("\n", 1)[1] if "\n" in fence else ""
    body = re.sub(r"(?m)^ {0,3}(```|~~~)\s*$", "", body)
    try:
        parse_code(body)
    except (SyntaxError, ValueError, RecursionError, MemoryError):
        return False
    return True


def _sole(text: str, a: int, b: int) -> bool:
    """The number is the only content of a bracket: (3,4), [0,1], x_{1,2}, or of a half-open interval: (0,1]."""
    if a > 1 and text[a - 2:a] == "^{":
        return False                   # e^{0,707}: an exponent, not an index
    return a > 0 and b < len(text) and text[a - 1] in _OPEN and (text[b] == _CLOSE[_OPEN.index(text[a - 1])] or
                                                                 text[a - 1] in "([" and text[b] in ")]")


def _candidates(piece: str):
    for m in _COMMA.finditer(piece):
        if not _sole(piece, m.start(), m.end()):
            yield m


def _signs(pieces: list[str]) -> tuple[int, int]:
    """(signs of decimal commas, decimal points) in the prose pieces."""
    signs = points = 0
    for piece in pieces:
        signs += len(_TEX_COMMA.findall(_TEX_THOUSANDS.sub(" ", piece)))
        points += len(_POINT.findall(piece))
        signs += len(_SPACED_TUPLE.findall(piece))
        for m in _candidates(piece):
            before, after = piece[max(0, m.start() - 2):m.start()], piece[m.end():m.end() + 1]
            if m.group(2) == "0" or ";" in before or after == ";":
                signs += 1
    return signs, points


# 100.480 and 1.048.576 where commas are decimal: points that group thousands (a leading 1-9, groups of three)
_POINT_THOUSANDS = re.compile(r"(?<![\w.,{])([1-9]\d{0,2})((?:\.\d{3})+)(?![\w.]|,\d|\{,\})")


# a point no thousands separator can be (0.154, 2.5, 0.6931): a line that writes one writes decimal points, and its
# 1.382 beside 0.154 is a decimal too
_DOT_DECIMAL = re.compile(r"(?<![\w.,])(?:0\.\d+|[1-9]\d*\.(?:\d{1,2}|\d{4,}))(?![\w.]|,\d)")


def _convert(piece: str) -> str:
    def tex(m: re.Match) -> str:
        return f"{m.group(1)}.{m.group(2)}  "
    piece = "\n".join(ln if _DOT_DECIMAL.search(ln) else
                      _POINT_THOUSANDS.sub(lambda m: m.group(1) + m.group(2).replace(".", "") +
                                           " " * m.group(2).count("."), ln) for ln in piece.split("\n"))
    piece = _TEX_COMMA.sub(tex, piece)
    out, at = [], 0
    for m in _candidates(piece):
        out.append(piece[at:m.start()] + f"{m.group(1)}{m.group(2)}.{m.group(3)}")
        at = m.end()
    return _SEMI_TUPLE.sub(lambda m: m.group(0).replace(";", ","), "".join(out) + piece[at:])


def _uses_commas(pieces: list[str]) -> bool:
    signs, points = _signs(pieces)
    return signs >= SIGNS_MIN and signs * POINTS_PER_SIGN >= points


def _notebook(text: str) -> str:
    """A notebook's Markdown cells (its code and outputs keep their points)."""
    try:
        nb = json.loads(text)
    except (json.JSONDecodeError, RecursionError):
        return text
    cells = nb.get("cells") if isinstance(nb, dict) else None
    cells = [c for c in cells if isinstance(c, dict) and c.get("cell_type") == "markdown"] \
        if isinstance(cells, list) else []
    sources = {id(c): _source(c.get("source")) for c in cells}
    if not _uses_commas([p for s in sources.values() if s for p in _pieces(s, "md")]):
        return text
    for c in cells:
        s = sources[id(c)]
        if s:
            s = decimal_points(s, "md", force=True)
            c["source"] = s if isinstance(c["source"], str) else s.splitlines(keepends=True)
    return json.dumps(nb, ensure_ascii=False)


def _source(s) -> str:
    if isinstance(s, list):
        return "".join(x for x in s if isinstance(x, str))
    return s if isinstance(s, str) else ""


def _pieces(text: str, fmt: str) -> list[str]:
    return [text[a:b] for a, b in _prose(text, fmt)]


_PADDED_UNIT = re.compile(r"(\d)( +)( (?:bytes?|[kKMGTP]i?B)(?![A-Za-z]))")


def _thousands(text: str, tex: bool = True) -> str:
    """32{,}768 as 32768, padded after with the spaces the separators took (columns keep their place); and a result
    written with plain thousands commas after its equals sign, `512 × 3 × 512 = 786,432`, as 786432."""
    def join(m: re.Match) -> str:
        return m.group(1) + m.group(2).replace("{,}", "") + " " * (3 * m.group(2).count("{,}"))

    def grouped(m: re.Match) -> str:
        return m.group(0).replace(",", "") + " " * m.group(0).count(",")

    def line(ln: str) -> str:
        # a line whose result after "=" groups thousands with commas groups its terms so too: 3 × 262,144 = 786,432
        m = _PLAIN_THOUSANDS.search(ln)
        if m is None:
            # `= 2 × 16 × 4,096 × 8,192 × 2`, its total on the next line: grouped factors of a product
            # (or one grouped factor between two multiplication signs: `16e6 * 5,120 * (1 + 2 * 2.7)`)
            return _GROUPED.sub(grouped, ln) if "=" in ln and (len(_PRODUCT_THOUSANDS.findall(ln)) >= 2 or
                                                               _FACTOR_THOUSANDS.search(ln)) else ln
        if _decimal_reading(ln, m):         # √3 ≈ 1,732: one comma that the left side says is a decimal one
            return ln[:m.start(3)] + "." + ln[m.start(3) + 1:]
        # `= 524,288 bytes ≈ 0.5 MB`: the unit stays next to its number, the padding goes after the unit
        return _PADDED_UNIT.sub(r"\1\3\2", _GROUPED.sub(grouped, ln))
    def tex_line(ln: str) -> str:
        def one(m: re.Match) -> str:
            # `\sqrt{2} \approx 1{,}414`: one group after "≈" that the left side reads as a decimal comma
            rel = re.search(r"(?:=|≈|\\approx)\s*$", ln[:m.start()])
            if m.group(2).count("{,}") == 1 and rel:
                left = re.sub(r"\\sqrt\{([^{}]*)\}", r"sqrt(\1)", ln[:rel.start()].rstrip())
                probe = f"{left} = {m.group(1)},{m.group(2)[3:]}"
                if _decimal_reading(probe, _Group(len(left) + 1, m.group(1), "," + m.group(2)[3:])):
                    return m.group(1) + "." + m.group(2)[3:] + "  "
            return join(m)
        return _TEX_THOUSANDS.sub(one, ln)
    if tex and "{,}" in text:
        text = "\n".join(tex_line(ln) for ln in text.split("\n"))
    elif "{,}" in text:
        # two separators or more (2{,}147{,}483{,}648) group thousands whatever the document's commas: no
        # decimal comma comes twice in one number
        text = _TEX_THOUSANDS.sub(lambda m: join(m) if m.group(2).count("{,}") >= 2 else m.group(0), text)
    return "\n".join(line(ln) for ln in text.split("\n")) if "," in text else text


class _Group:
    """A TeX-grouped number read as _decimal_reading reads a plain one: where it starts, its whole part, its comma
    and digits."""
    def __init__(self, at: int, whole: str, rest: str):
        self._at, self._groups = at, (None, None, whole, rest)

    def start(self) -> int:
        return self._at

    def group(self, k: int) -> str:
        return self._groups[k]


_LEFT_ARITH = re.compile(r"(?:sqrt|exp|√|[\d.()+\-*/×÷·^ ])+$")


def _decimal_reading(ln: str, m: re.Match) -> bool:
    """`√3 ≈ 1,732`, `e^{0,5}`...: a lone comma group after "=" that the arithmetic on its left puts nearer the
    decimal reading (1.732) than the thousands one (1732): the comma is a decimal one.  Only for one group and a
    left side that evaluates; `2^10 = 1,024` and `512 × 3 × 512 = 786,432` stay thousands."""
    before = ln[:m.start()].rstrip("`$ ")
    if m.group(3).count(",") != 1 or re.search(r"\d,\d{3}", before):
        return False                         # (3 × 262,144 = 786,432: the terms group thousands as well)
    before = re.sub(r"\\times\b", "×", re.sub(r"\\cdot\b", "·", before))
    left = _LEFT_ARITH.search(before)
    # the whole left side, not its tail: `$512 \times 512 = 262,144$` read as `512 = 262,144` took the decimal
    if left is None or not re.search(r"\d", left.group(0)) or \
            (left.start() and (before[left.start() - 1] in ",." or re.match(r"[A-Za-z0-9]", before[left.start() - 1])
                               or before[left.start() - 1] in "\\_^}")):
        return False
    from .. import numbers as nb
    from .expr import arithmetic_of
    e = arithmetic_of(left.group(0))
    try:
        face = nb.face(e) if e is not None else None
    except (ArithmeticError, OverflowError, ValueError, TypeError):
        return False
    if face is None or not math.isfinite(face) or face <= 0:
        return False
    decimal = float(m.group(2) + "." + m.group(3)[1:])
    grouped = float(m.group(2) + m.group(3)[1:])
    return abs(math.log(face / decimal)) < abs(math.log(face / grouped))


def decimal_points(text: str, fmt: str, force: bool = False) -> str:
    """The text with its decimal commas written as points, when it writes decimal commas (module doc); otherwise
    with TeX's thousands separators taken out (1{,}048{,}576)."""
    if fmt == "ipynb":
        out = _notebook(text)
        return _thousands(out) if out is text else out
    if "," not in text:
        return text
    spans = _prose(text, fmt)
    pieces = [text[a:b] for a, b in spans]
    if not force and not _uses_commas(pieces):
        # separators taken out only where no number is written with a decimal comma: with 0{,}707 beside it,
        # 1{,}414 is a decimal (too few signs to convert the document, too many to read it as thousands)
        signs, points = _signs(pieces)
        if signs == 0:
            return _thousands(text)
        # "G = 114,800; D = 110,849" gives one sign among 56 decimal points: a document of points, whose results
        # after "=" may still group thousands (= 142,400 + 400); TeX's 1{,}414 beside a 0{,}707 stays a decimal
        return _thousands(text, tex=False) if points > POINTS_PER_SIGN * SIGNS_MIN * signs else text
    out, at = [], 0
    for a, b in spans:
        out.append(text[at:a] + _convert(text[a:b]))
        at = b
    return "".join(out) + text[at:]
