"""Matrices drawn as CSS grids: a <div> laid out with `grid-template-columns: repeat(N, ...)` whose children each
hold one number (<div class="matrix"><div class="cell">0.5</div>...</div>).  The page's style sheet (or the
element's own style) says how many columns; the nearest title above names the matrix."""

from __future__ import annotations

import re
from html.parser import HTMLParser

from .. import labels as lb

_RULE = re.compile(r"([^{}]+)\{([^{}]*)\}")
_COLUMNS = re.compile(r"grid-template-columns\s*:\s*([^;}]+)")
_REPEAT = re.compile(r"repeat\(\s*(\d+)\s*,")
_NUMBER = re.compile(r"[-+−]?(?:\d+\.\d*|\.\d+|\d+)")
VOID = ("br", "img", "meta", "link", "input", "hr", "col", "area", "base", "wbr", "source", "path", "circle", "rect",
        "line", "use")


def _count(value: str) -> int | None:
    """How many equal columns a grid-template-columns value lays out: repeat(4, 70px) or 1fr 1fr 1fr."""
    m = _REPEAT.match(value.strip())
    if m:
        return int(m.group(1))
    parts = value.split()
    if len(parts) >= 2 and len(set(parts)) == 1 and re.fullmatch(r"[\d.]+(?:fr|px|em|rem)", parts[0]):
        return len(parts)
    return None


def grid_columns(page: str) -> dict[str, int]:
    """Class name -> column count, from the page's style sheets (a rule for one plain class, `.matrix {...}`)."""
    out: dict[str, int] = {}
    for css in re.findall(r"<style[^>]*>(.*?)</style>", page, re.S | re.I):
        for sel, body in _RULE.findall(re.sub(r"/\*.*?\*/", "", css, flags=re.S)):
            m = _COLUMNS.search(body)
            n = _count(m.group(1)) if m else None
            if not n:
                continue
            for one in sel.split(","):
                c = re.fullmatch(r"\s*\.([\w-]+)\s*", one)
                if c:
                    out[c.group(1)] = n
    return out


def columns_of(attrs: dict, classes: dict[str, int]) -> int | None:
    """The column count of an element laid out as an equal-column grid, from its style or one of its classes."""
    m = _COLUMNS.search(attrs.get("style") or "")
    if m:
        return _count(m.group(1))
    for c in (attrs.get("class") or "").split():
        if c in classes:
            return classes[c]
    return None


class Grid:
    """The children of one grid element being collected: one text per child."""

    def __init__(self, columns: int, line: int):
        self.columns, self.line = columns, line
        self.depth = 0                      # open elements inside the grid
        self.cells: list[tuple[int, list[str]]] = []
        self.loose = False                  # text outside any child: no grid of numbers

    def start(self, tag: str, line: int) -> None:
        if tag in VOID:
            return
        self.depth += 1
        if self.depth == 1:
            self.cells.append((line, []))

    def end(self) -> bool:
        """True when the grid element itself closes."""
        self.depth -= 1
        return self.depth < 0

    def data(self, text: str) -> None:
        if self.depth == 0:
            self.loose = self.loose or bool(text.strip())
        elif self.cells:
            self.cells[-1][1].append(text)

    def texts(self) -> list[tuple[int, str]]:
        return [(ln, " ".join("".join(t).split())) for ln, t in self.cells]

    def rows(self) -> list[tuple[int, list[tuple[int, str]]]] | None:
        """The cells as rows of the grid's width, when every child holds one number and the rows come out whole."""
        cells = self.texts()
        n = self.columns
        if self.loose or len(cells) < 4 or n < 1 or len(cells) % n or \
                not all(_NUMBER.fullmatch(t.strip()) for _, t in cells):
            return None
        return [(cells[k][0], cells[k:k + n]) for k in range(0, len(cells), n)]


def title(recent: list[tuple[int, str]], line: int) -> str:
    """The nearest text above a grid (within four lines) that names a quantity in a few words: "W_Q (Query
    Matrix)", not a sentence about it."""
    for ln, text in reversed(recent):
        if ln < line - 4:
            break
        words = re.sub(r"\s*\([^()]*\)", "", text).strip().rstrip(":：")
        if words and len(words) <= 40 and len(words.split()) <= 4 and lb.parse_label(words) is not None:
            return text
    return ""


class _GridFinder(HTMLParser):
    """A first pass over the page: every equal-column grid element whose children each hold one number."""

    def __init__(self, classes: dict[str, int]):
        super().__init__(convert_charrefs=True)
        self.classes = classes
        self.open: list[tuple[tuple[int, int], Grid]] = []
        self.found: dict[tuple[int, int], Grid] = {}

    def handle_starttag(self, tag, attrs):
        for _, g in self.open:
            g.start(tag, self.getpos()[0])
        n = None if tag in VOID else columns_of(dict(attrs), self.classes)
        if n:
            self.open.append((self.getpos(), Grid(n, self.getpos()[0])))

    def handle_endtag(self, tag):
        if tag in VOID:
            return
        for pos, g in list(self.open):
            if g.end():
                self.open.remove((pos, g))
                if g.rows():
                    self.found[pos] = g

    def handle_data(self, data):
        for _, g in self.open:
            g.data(data)


def find_grids(page: str) -> dict[tuple[int, int], Grid]:
    """(line, column) of each grid element's start tag -> its cells, for the grids of numbers on the page."""
    classes = grid_columns(page)
    if not classes and "grid-template-columns" not in page:
        return {}
    f = _GridFinder(classes)
    try:
        f.feed(page)
        f.close()
    except (AssertionError, ValueError, RecursionError):
        pass
    return f.found
