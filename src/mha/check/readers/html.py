"""HTML with the standard library's html.parser: text, tables, <pre>, MathJax / KaTeX TeX source, MathML."""

from __future__ import annotations

import re
from html.parser import HTMLParser

from ..objects import Place
from .common import Segment
from .htmlgrid import VOID, find_grids, title
from .javascript import script_pages, script_segment
from .python import read_python
from .tables import HeaderCell, LinedCell, read_table
from .text import read_text


_PROMPT = re.compile(r"\s*(?:In|Out)?\s*\[\s*\d*\s*\]\s*:\s*")
_GLUE, _END = "\x00", "\x01"        # where a <sub> / <sup> of running text opens and closes


def read_html(text: str, b: "Builder", line0: int = 1, cell: int | None = None) -> None:
    """An HTML page (or an HTML block of Markdown, or a notebook's HTML output) from line line0."""
    p = _HtmlReader(b, line0, cell)
    p.grids = find_grids(text)
    try:
        p.feed(text)
        p.close()
    except (AssertionError, ValueError, RecursionError):
        pass
    p.flush()


class _HtmlReader(HTMLParser):
    """Text, headings, tables, <pre>, MathJax / KaTeX TeX source and MathML, handed to the other readers."""

    def __init__(self, b: "Builder", line0: int, nb_cell: int | None):
        super().__init__(convert_charrefs=True)
        self.b, self.line0, self.nb_cell = b, line0, nb_cell      # the builder, the first line, the notebook cell
        self.stack: list[str] = []
        self.skip = 0
        self.buf: list[tuple[int, str]] = []
        self.mode: list[str] = ["prose"]
        self.math_depth = 0
        self.mathml: list[str] = []
        self.math_line = 0
        self.annotation = None
        self.table: list[tuple[int, list[str]]] | None = None
        self.row: list[str] | None = None
        self.cellbuf: list[str] | None = None
        self.row_line = 0
        self.pre = None
        self.pre_line = 0
        self.script_tex = None
        self.script_js = None          # a page script's text: its numeric array declarations are read (javascript.py)
        self.script_line = 0
        self.heading = None
        self.heading_line = 0
        self.caption = None
        self.caption_line = 0
        self.table_caption = ""
        self.table_symbol = ""
        self.cell_is_th = False
        self.cell_line = 0
        self.last_math = None
        self.grids: dict = {}          # matrices drawn as CSS grids of numbers, by their start tag (htmlgrid.py)
        self.gridding = None           # the grid being passed over, and how deep inside it
        self.grid_depth = 0
        self.recent: list[tuple[int, str]] = []      # the last lines of prose, for a grid's title

    def line(self) -> int:
        return self.getpos()[0] + self.line0 - 1

    def flush(self):
        if not self.buf:
            return
        lines: dict[int, list[str]] = {}
        for ln, s in self.buf:
            parts = s.split("\n")
            for k, p in enumerate(parts):
                lines.setdefault(ln + k, []).append(p)
        self.buf = []
        keys = sorted(lines)
        # a subscript or superscript in running text is glued to its base as TeX writes it: W<sub>V</sub> is
        # W_V, not a W and a V (a "V (2×2)" that would then read as a shape of V)
        txt = "\n".join(re.sub(rf"\s*{_END}", "", re.sub(rf"\s*{_GLUE}([_^])\s*", r"\1", " ".join(lines[k])))
                        for k in keys)
        if not txt.strip():
            return
        self.recent = (self.recent + [(k, t) for k, t in zip(keys, txt.split("\n")) if t.strip()])[-8:]
        read_text(txt, self.b, keys[0], self.nb_cell, keys)

    def handle_starttag(self, tag, attrs):
        a = dict(attrs)
        if tag in ("br",):
            if self.buf and self.buf[-1][0] == self.line() and not (self.skip or self.math_depth or self.gridding or
                                                                   self.heading is not None or self.caption is not None
                                                                   or self.cellbuf is not None or self.pre is not None):
                # `S¹ = [11.6, 3.8]<br>A¹ = [0.99, 0.01]` on one source line: two lines as the page shows them,
                # each read on its own (joined, the second vector was taken as part of the first statement)
                self.flush()
            return
        if self.gridding is not None:
            self.grid_depth += tag not in VOID
            return
        if not self.skip and not self.math_depth and self.getpos() in self.grids:
            self.flush()
            self.gridding, self.grid_depth = self.grids[self.getpos()], 0
            return
        if self.skip or a.get("aria-hidden") == "true" or tag in ("style", "head", "svg", "noscript") or \
                "katex-html" in (a.get("class") or ""):
            if tag not in ("br", "img", "meta", "link", "input", "hr", "col", "area", "base", "wbr",
                           "source", "path", "circle", "rect", "line", "use"):
                self.skip += 1
            return
        if tag == "script":
            typ = a.get("type") or ""
            if "math/tex" in typ:
                self.script_tex = []
                self.math_line = self.line()
            else:
                if not self.skip and (not typ or "javascript" in typ or typ == "module"):
                    self.script_js, self.script_line = [], self.line()
                self.skip += 1
            return
        if self.math_depth:
            self.math_depth += 1
            if tag == "annotation" and "tex" in (a.get("encoding") or "").lower():
                self.annotation = []
            self.mathml.append(("<", tag))
            return
        if tag == "math":
            self.flush()
            self.math_depth = 1
            self.mathml = []
            self.annotation = None
            self.math_line = self.line()
            return
        if tag in ("h1", "h2", "h3", "h4", "h5", "h6"):
            self.flush()
            self.heading = []
            self.heading_line = self.line()
            return
        if tag == "table":
            self.flush()
            self.table = []
            self.table_symbol = a.get("data-symbol") or ""
            if not self.table_symbol and self.last_math and self.last_math[1] >= self.line() - 2 and \
                    re.search(r"(=|\\approx|≈)\s*$", self.last_math[0]):
                self.table_symbol = re.sub(r"(=|\\approx|≈)\s*$", "", self.last_math[0]).strip()
            return
        if tag == "tr" and self.table is not None:
            self.row = []
            self.row_line = self.line()
            return
        if tag in ("td", "th") and self.row is not None:
            self.cellbuf = []
            self.cell_is_th = tag == "th"
            self.cell_line = self.line()
            return
        if tag == "pre" or (tag == "code" and self.pre is None and "block" in (a.get("class") or "")):
            self.flush()
            self.pre = []
            self.pre_line = self.line()
            self.pre_class = a.get("class") or ""
            return
        if tag == "caption" and self.table is not None:
            self.caption = []
            self.caption_line = self.line()
            return
        if tag in ("sub", "sup") and self._in_prose():
            self.buf.append((self.line(), _GLUE + ("_" if tag == "sub" else "^")))    # W<sub>V</sub>: W_V
            return
        if tag in ("p", "div", "li", "section", "article", "blockquote", "figcaption", "caption", "dt", "dd"):
            self.flush()

    def _in_prose(self) -> bool:
        return not self.math_depth and self.cellbuf is None and self.heading is None and self.caption is None \
            and self.pre is None and self.script_tex is None and self.script_js is None

    def handle_endtag(self, tag):
        if self.gridding is not None:
            if tag in VOID:
                return
            self.grid_depth -= 1
            if self.grid_depth < 0:
                self.grid_table(self.gridding)
                self.gridding = None
            return
        if tag == "script" and self.script_js is not None:
            js, self.script_js = "".join(self.script_js), None
            seg = script_segment(js, self.script_line, self.nb_cell)
            if seg is not None:
                self.flush()
                self.b.segment(seg)
            for text, line in script_pages(js, self.script_line):
                self.flush()
                read_html(text, self.b, line, self.nb_cell)      # a lesson's panels, written as HTML in the script
        if self.skip:
            if tag not in ("br",):
                self.skip -= 1
            return
        if tag == "script" and self.script_tex is not None:
            tex = "".join(self.script_tex)
            self.script_tex = None
            self.emit_math(tex, self.math_line)
            return
        if self.math_depth:
            self.math_depth -= 1
            if tag == "annotation" and self.annotation is not None:
                self.mathml.append(("tex", "".join(self.annotation)))
                self.annotation = None
                return
            self.mathml.append((">", tag))
            if self.math_depth == 0:
                tex = next((x[1] for x in self.mathml if x[0] == "tex"), None)
                if tex is None:
                    tex = mathml_to_tex(self.mathml)
                self.emit_math(tex, self.math_line)
            return
        if tag in ("h1", "h2", "h3", "h4", "h5", "h6") and self.heading is not None:
            title = " ".join("".join(self.heading).split())
            self.heading = None
            self.b.heading(title, int(tag[1]), Place(self.heading_line, self.nb_cell, "heading"))
            return
        if tag in ("td", "th") and self.cellbuf is not None and self.row is not None:
            text = " ".join("".join(self.cellbuf).split())
            if self.cell_is_th:
                self.row.append(HeaderCell(text))
            else:
                c = LinedCell(text)
                c.line = self.cell_line
                self.row.append(c)
            self.cellbuf = None
            return
        if tag == "tr" and self.row is not None and self.table is not None:
            self.table.append((self.row_line, self.row))
            self.row = None
            return
        if tag == "caption" and self.caption is not None:
            self.table_caption = " ".join("".join(self.caption).split())
            self.caption = None
            self.b.line(self.table_caption, Place(self.caption_line, self.nb_cell, "prose"))
            return
        if tag == "table" and self.table is not None:
            rows, self.table = self.table, None
            read_table(self.b, rows, self.nb_cell, self.table_caption, self.table_symbol)
            self.table_caption = ""
            self.last_math = None
            return
        if tag == "pre" and self.pre is not None:
            body = "".join(self.pre)
            self.pre = None
            if _PROMPT.fullmatch(body):
                return       # a notebook cell's execution prompt, "[9]:" (nbsphinx): no number of the example
            lead = len(body) - len(body.lstrip("\n"))
            where = "code" if re.search(r"python|language-py|highlight-py", self.pre_class) else "output"
            if where == "output":
                if read_python(body).parsed and re.search(r"^\s*\w+\s*=|import ", body, re.M):
                    where = "code"
            self.b.segment(Segment(body.lstrip("\n"), self.pre_line + lead, where, self.nb_cell))
            return
        if tag in ("sub", "sup") and self._in_prose():
            self.buf.append((self.line(), _END))
            return
        if tag in ("p", "div", "li", "section", "article", "blockquote", "figcaption", "caption", "dt", "dd"):
            self.flush()

    def grid_table(self, g) -> None:
        """A matrix drawn as a grid of numbers, read as a table captioned by the title above it."""
        shift = self.line0 - 1
        rows = []
        for ln, cells in g.rows():
            row = []
            for cl, t in cells:
                c = LinedCell(t)
                c.line = cl + shift
                row.append(c)
            rows.append((ln + shift, row))
        read_table(self.b, rows, self.nb_cell, title(self.recent, g.line + shift))

    def emit_math(self, tex: str, line: int):
        # inline math stays in the running prose (for labels and hints) and is read as math
        self.last_math = (tex, line)
        if self.cellbuf is not None:
            self.cellbuf.append(tex)
            return
        if self.heading is not None:
            self.heading.append(tex)
            return
        if self.caption is not None:
            self.caption.append(" $" + tex + "$ ")
            return
        self.buf.append((line, " $" + " ".join(tex.split("\n")) + "$ "))

    def handle_data(self, data):
        if self.gridding is not None:
            return
        if self.script_js is not None:
            self.script_js.append(data)
            return
        if self.skip:
            return
        if self.script_tex is not None:
            self.script_tex.append(data)
            return
        if self.math_depth:
            if self.annotation is not None:
                self.annotation.append(data)
            else:
                self.mathml.append(("t", data))
            return
        if self.heading is not None:
            self.heading.append(data)
            return
        if self.caption is not None:
            self.caption.append(data)
            return
        if self.cellbuf is not None:
            self.cellbuf.append(data)
            return
        if self.pre is not None:
            self.pre.append(data)
            return
        self.buf.append((self.line(), data))


_MO = {"×": "\\times ", "·": "\\cdot ", "⋅": "\\cdot ", "−": "-", "≈": "\\approx ", "∈": "\\in ", "⊤": "^T",
       "…": "\\cdots ", "⋯": "\\cdots ", "⋮": "\\vdots ", "⋱": "\\ddots ", "∞": "\\infty ", "√": "\\sqrt "}


def mathml_to_tex(events: list[tuple[str, str]]) -> str:
    """A little MathML (mi, mn, mo, msup, msub, mfrac, msqrt, mtable) as TeX, for pages without a TeX annotation."""
    pos = 0

    def node() -> str:
        nonlocal pos
        if pos >= len(events):
            return ""
        kind, val = events[pos]
        if kind == "t":
            pos += 1
            return _MO.get(val.strip(), val)
        if kind != "<":
            pos += 1
            return ""
        tag = val
        pos += 1
        kids: list[str] = []
        while pos < len(events) and not (events[pos][0] == ">" and events[pos][1] == tag):
            kids.append(node())
        pos += 1
        if tag == "msup" and len(kids) >= 2:
            return "{" + kids[0] + "}^{" + kids[1] + "}"
        if tag == "msub" and len(kids) >= 2:
            return "{" + kids[0] + "}_{" + kids[1] + "}"
        if tag == "msubsup" and len(kids) >= 3:
            return "{" + kids[0] + "}_{" + kids[1] + "}^{" + kids[2] + "}"
        if tag == "mfrac" and len(kids) >= 2:
            return "\\frac{" + kids[0] + "}{" + kids[1] + "}"
        if tag == "msqrt":
            return "\\sqrt{" + "".join(kids) + "}"
        if tag == "mtable":
            return "\\begin{bmatrix}" + " \\\\ ".join(k for k in kids if k.strip()) + "\\end{bmatrix}"
        if tag == "mtr":
            return " & ".join(k for k in kids if k is not None)
        if tag in ("mtext",):
            return "\\text{" + "".join(kids) + "}"
        return " ".join(kids) if tag in ("mrow", "math", "mstyle", "semantics", "mtd", "mpadded") else "".join(kids)

    out = []
    while pos < len(events):
        out.append(node())
    return " ".join(out)
