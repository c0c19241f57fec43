"""Markdown view: headings, prose, and $$...$$ display math with bmatrix (GitHub and Jupyter render it)."""

from __future__ import annotations

from ..explanation import Display, Explanation, Items, Matrix, Note, Para, Table
from ..explanation.numbers import latex_number
from .common import grid, numbered, relation_latex, shape_latex


def matrix_latex(m: Matrix) -> str:
    """`symbol = \\begin{bmatrix}...\\end{bmatrix} \\in \\mathbb{R}^{r \\times c}`, one matrix row per line."""
    rows = grid(m, lambda c: latex_number(c.value, m.precision),
                row_dots="\\vdots", col_dots="\\cdots", diag_dots="\\ddots")
    body = " \\\\\n".join(" & ".join(row) for row in rows)
    tail = f" {shape_latex(m)}" if m.show_shape else ""
    return f"{m.symbol} {relation_latex(m)} \\begin{{bmatrix}}\n{body}\n\\end{{bmatrix}}{tail}"


def render_markdown(ex: Explanation) -> str:
    out = [f"# {ex.title}", "", f"*{ex.subtitle}*", ""]
    for number, sec in numbered(ex.sections):
        out += [f"{'#' * sec.level} {number}. {sec.title}", ""]
        for b in sec.blocks:
            match b:
                case Note():
                    out += [f"> {b.text}", ""]
                case Para():
                    out += [b.text, ""]
                case Items():
                    out += [f"- {item}" for item in b.items] + [""]
                case Display():
                    out += ["$$", b.latex, "$$", ""]
                case Matrix():
                    out += ["$$", matrix_latex(b), "$$", ""]
                case Table():
                    out += ["| " + " | ".join(b.header) + " |", "|" + "---|" * len(b.header)]
                    out += ["| " + " | ".join(row) + " |" for row in b.rows] + [""]
    return "\n".join(out).rstrip() + "\n"
