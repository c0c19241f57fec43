"""What every reader shares: the `Segment` (a run of one kind of text and its file lines), a copy of the reading
context, line offsets, optional parsers, and rows named x_1, x_2, ... ."""

from __future__ import annotations

import bisect
import functools
import re
from dataclasses import dataclass, field

from ..objects import Context, Place


@dataclass
class Segment:
    """A run of one kind of text and where its characters are in the file."""
    text: str
    line: int                        # file line of its first character (1-based)
    where: str = "prose"             # math, prose, code, comment, output, table, heading
    cell: int | None = None
    line_map: list[int] | None = None   # file line of each of its own lines, when not consecutive
    _starts: list[int] = field(default_factory=list, repr=False)

    def line_of(self, pos: int) -> int:
        if not self._starts:
            self._starts = [0] + [i + 1 for i, ch in enumerate(self.text) if ch == "\n"]
        k = max(0, bisect.bisect_right(self._starts, pos) - 1)
        if self.line_map:
            return self.line_map[min(k, len(self.line_map) - 1)]
        return self.line + k

    def place(self, pos: int, where: str | None = None) -> Place:
        return Place(self.line_of(pos), self.cell, where or self.where)


# an image embedded as base64 (`![](data:image/png;base64,iVBOR...)`): its text has digit-x-digit runs that read as
# shapes ("3x7") and count as numbers, and nothing a reader reads
DATA_URI = re.compile(r"data:[\w/+.-]+;base64,[A-Za-z0-9+/=]+")


def copy_context(ctx: Context) -> Context:
    return Context(**ctx.__dict__)


def line_offset(text: str, line_index: int) -> int:
    """Where line line_index (0-based) of text starts (the last line's start past the end)."""
    starts = _line_starts(text)
    return starts[min(line_index, len(starts) - 1)]


@functools.lru_cache(maxsize=16)
def _line_starts(text: str) -> tuple[int, ...]:
    return (0,) + tuple(m.end() for m in re.finditer("\n", text))


def need(module: str, package: str):
    """Import an optional reader library, or say in one line what to install."""
    import importlib
    try:
        return importlib.import_module(module)
    except ImportError:
        from ...inputs import UsageError
        raise UsageError(f"mha check needs {package} to read this format (a dependency of mha): pip install {package}") from None


def row_letter(names: list[str]) -> str:
    """Rows named x_1, x_2, x_3 (or q1, q2...) are the rows of X (or Q...)."""
    letters = set()
    for n in names:
        m = re.fullmatch(r"\$?\s*([A-Za-z])\s*_?\{?\s*(\d+)\s*\}?\s*\$?", n.strip())
        if not m:
            return ""
        letters.add(m.group(1))
    return letters.pop().upper() if len(letters) == 1 else ""


def arrow_sides(names: list[str | None], rels: list[str]) -> list[list[str]]:
    """For each part of a statement (its name, or None), the names on its side of the arrows: an arrow says what
    follows from what, never that its two sides are equal, so the names on one side are not the other's."""
    out: list[list[str]] = []
    side: list[str] = []
    start = 0
    for k, name in enumerate(names):
        if k and k - 1 < len(rels) and rels[k - 1] == "→":
            out.extend([side] * (k - start))
            side, start = [], k
        if name is not None:
            side.append(name)
    out.extend([side] * (len(names) - start))
    return out


def blank_lines(seg: Segment, used: list[int]) -> Segment:
    """The segment with the lines at these indices blanked (kept as spaces, so that every place stays put): what
    a reader has read on its own is not read again line by line."""
    if not used:
        return seg
    lines = seg.text.split("\n")
    text = "\n".join(" " * len(x) if n in used else x for n, x in enumerate(lines))
    out = Segment(text, seg.line, seg.where, seg.cell, seg.line_map)
    if hasattr(seg, "result"):
        out.result = seg.result
    return out


# words of their own before an inline value ("identical shape $= 416{,}256$", "fator de escala $= 0.25$"): the value
# is those words', not a continuation of the formula before them (connectives do not count)
WORDS = re.compile(r"\b(?!(?:which|that|then|thus|hence|so|and|gives?|equals?|is|are|also|or|i\.e)\b)[^\W\d_]{3,}",
                   re.I)
# ... in Chinese or Japanese, two characters are a word ("- 总和 $\\approx 156$", "合計 $= 9$"), once the connectives
# are taken out ("所以 $= 5$", "约为 $0.3$" go on with the formula before them)
_CJK_RUN = re.compile(r"[\u4e00-\u9fff\u3040-\u30ff]+")
_CJK_LINKS = re.compile(r"也就是说|也就是|所以|因此|于是|从而|得到|等于|约等于|约为|结果是|结果为|结果|那么|即|则|故|就|是|为|约|有")


def own_words(text: str) -> bool:
    """Do the words before an inline value name it (WORDS, or two Chinese or Japanese characters that are no
    connective)?"""
    return bool(WORDS.search(text)) or any(len(_CJK_LINKS.sub("", r)) >= 2 for r in _CJK_RUN.findall(text))
