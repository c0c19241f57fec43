"""Terminal view: headed sections, aligned matrices, a little colour (rich).

Plain text when piped or when NO_COLOR is set; CJK keeps its alignment
because widths are measured in terminal cells.
"""

from __future__ import annotations

import io
import re
from typing import IO

from rich.cells import cell_len
from rich.console import Console, Group, RenderableType
from rich.rule import Rule
from rich.table import Table as RichTable
from rich.text import Text
from rich.text import Text as RichText

from ..explanation import Cell, Display, Explanation, Items, Matrix, Note, Para, Table
from ..explanation.numbers import format_number
from .common import grid, numbered, relation_latex, shape_latex
from .unicode import prose_to_unicode, superscript, to_unicode


# Chinese closing punctuation never starts a line (it may run one cell past the width instead)
NO_BREAK_BEFORE = frozenset("，。、；：？！）》」』”’")
_PIECE = re.compile(r"[A-Za-z0-9_.,:;'’()\[\]=+\-]+ ?|.", re.S)


def fold_cjk(text: str, width: int) -> str:
    """Greedy line breaking by terminal cells, keeping runs of Latin letters and digits whole.

    Closing punctuation never starts a line: the piece before it moves down with it.
    """
    lines: list[str] = []
    line: list[str] = []
    for piece in _PIECE.findall(text):
        if piece == "\n":
            lines.append("".join(line))
            line = []
            continue
        if line and cell_len("".join(line) + piece) > width:
            carry = [line.pop()] if piece in NO_BREAK_BEFORE and len(line) > 1 else []
            lines.append("".join(line).rstrip())
            line = [p.lstrip() if k == 0 else p for k, p in enumerate(carry + [piece])]
        else:
            line.append(piece)
    lines.append("".join(line))
    return "\n".join(lines)


def text_number(x: float, precision: int) -> str:
    """A number in the terminal: digits, -∞, or mantissa×10 with a superscript exponent."""
    p = format_number(x, precision)
    if p.digits == "inf":
        return p.sign + "∞"
    if p.exponent is not None:
        return f"{p.sign}{p.digits}×10{superscript(p.exponent)}"
    return p.sign + p.digits


def _matrix(m: Matrix, color: bool) -> Text:
    cells = grid(m, lambda c: text_number(c.value, m.precision), row_dots="⋮", col_dots="…", diag_dots="⋱")
    widths = [max(cell_len(row[j]) for row in cells) for j in range(len(m.cols))]
    if m.col_labels:
        widths = [max(w, cell_len(lab)) for w, lab in zip(widths, m.col_labels)]
    label = to_unicode(m.symbol) + " " + to_unicode(relation_latex(m)) + " "
    suffix = "  " + to_unicode(shape_latex(m)) if m.show_shape else ""
    if m.row_labels:
        lab_w = max(3, *(cell_len(lab) for lab in m.row_labels))
        row_lab = [" " * (lab_w - cell_len(lab)) + lab + " " for lab in m.row_labels]
    else:
        row_lab = [""] * len(cells)
    pad = " " * cell_len(label)
    out = Text()
    if m.col_labels:
        heads = "  ".join(" " * (w - cell_len(lab)) + lab for lab, w in zip(m.col_labels, widths))
        out.append(" " * (cell_len(row_lab[0]) + cell_len(label) + 2) + heads + "\n", style="dim")
    n = len(cells)
    mid = (n - 1) // 2
    for r, row in enumerate(cells):
        left, right = ("[", "]") if n == 1 else ("⎡", "⎤") if r == 0 else ("⎣", "⎦") if r == n - 1 else ("⎢", "⎥")
        out.append(row_lab[r], style="dim")
        out.append(label if r == mid else pad, style="bold" if r == mid else "")
        out.append(left + " ")
        for j, (c, w) in enumerate(zip(row, widths)):
            out.append(" " * (w - cell_len(c)) + c, style=_cell_style(m.cells[r][j], m.heat and color))
            if j < len(row) - 1:
                out.append("  ")
        out.append(" " + right)
        if r == mid:
            out.append(suffix, style="dim")
        out.append("\n")
    out.rstrip()
    return out


def _cell_style(cell: Cell | None, heat: bool) -> str:
    """Masked cells dim; attention weights shaded when colour is on."""
    if cell is None:
        return ""
    if cell.masked:
        return "dim"
    if heat:
        level = int(40 + 160 * max(0.0, min(1.0, float(cell.value))))
        return f"on rgb({255 - level // 2},{255 - level // 3},255) black"
    return ""


def _renderables(ex: Explanation, color: bool, width: int) -> list[RenderableType]:
    zh = ex.lang == "zh"

    def Text(text: str = "", style: str = "") -> RichText:  # noqa: N802 - a drop-in for rich's Text
        if zh:  # Chinese has no spaces to wrap at: break between characters, not inside Latin words
            return RichText(fold_cjk(text, width), style=style, no_wrap=True)
        return RichText(text, style=style)

    items: list[RenderableType] = [Text(prose_to_unicode(ex.title), style="bold"), Text(ex.subtitle, style="dim"),
                                   Text()]
    for number, sec in numbered(ex.sections):
        title = f"{number}. {prose_to_unicode(sec.title)}"
        if sec.level <= 2:
            items.append(Rule(Text(title, style="bold cyan"), align="left", style="cyan"))
        else:
            items.append(Text(title, style="bold"))
        for b in sec.blocks:
            match b:
                case Note():
                    items.append(Text("› " + prose_to_unicode(b.text), style="italic yellow"))
                case Para():
                    items.append(Text(prose_to_unicode(b.text)))
                case Items():
                    items.append(Group(*(Text("  • " + prose_to_unicode(i)) for i in b.items)))
                case Display():
                    items.append(Text("    " + to_unicode(b.latex), style="green"))
                case Matrix():
                    items.append(_matrix(b, color))
                case Table():
                    t = RichTable(*(prose_to_unicode(h) for h in b.header), show_edge=False, header_style="bold")
                    for row in b.rows:
                        t.add_row(*(prose_to_unicode(c) for c in row))
                    items.append(t)
        items.append(Text())
    return items


def render_text(ex: Explanation, *, color: bool = False, width: int = 100) -> str:
    buf = io.StringIO()
    console = Console(file=buf, width=width, force_terminal=color, no_color=not color,
                      color_system="truecolor" if color else None, highlight=False, emoji=False,
                      soft_wrap=False)
    for r in _renderables(ex, color, width):
        console.print(r)
    return "\n".join(line.rstrip() for line in buf.getvalue().splitlines()) + "\n"


def print_text(ex: Explanation, file: IO[str] | None = None) -> None:
    console = Console(file=file, highlight=False, emoji=False)
    color = console.is_terminal and not console.no_color
    if not color:
        # piped or NO_COLOR: the same text as render_text, no escape codes
        (file or console.file).write(render_text(ex, color=False, width=max(console.width, 100)))
        return
    for r in _renderables(ex, True, console.width):
        console.print(r)
