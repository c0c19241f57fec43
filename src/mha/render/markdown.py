"""Markdown view: headings, prose, and $$...$$ display math with bmatrix (GitHub and Jupyter render it)."""

from __future__ import annotations

from typing import Any

from ..explanation.blocks import Display, Items, Matrix, Note, Para, Table
from .common import grid, numbered


def matrix_latex(m: Matrix) -> str:
    """`symbol rel \\begin{bmatrix}...\\end{bmatrix} suffix`, one matrix row per line."""
    rows = grid(m, row_dots="\\vdots", col_dots="\\cdots", diag_dots="\\ddots")
    body = " \\\\\n".join(" & ".join(row) for row in rows)
    tail = f" {m.suffix}" if m.suffix else ""
    return f"{m.symbol} {m.rel} \\begin{{bmatrix}}\n{body}\n\\end{{bmatrix}}{tail}"


def render_markdown(ex: Any) -> str:
    out = [f"# {ex.title}", "", f"*{ex.subtitle}*", ""]
    for number, sec in numbered(ex.sections):
        out += [f"{'#' * sec.level} {number}. {sec.title}", ""]
        for b in sec.blocks:
            if isinstance(b, Para):
                out += [b.text, ""]
            elif isinstance(b, Note):
                out += [f"> {b.text}", ""]
            elif isinstance(b, Items):
                out += [f"- {item}" for item in b.items] + [""]
            elif isinstance(b, Display):
                out += ["$$", b.latex, "$$", ""]
            elif isinstance(b, Matrix):
                out += ["$$", matrix_latex(b), "$$", ""]
            elif isinstance(b, Table):
                out += ["| " + " | ".join(b.header) + " |", "|" + "---|" * len(b.header)]
                out += ["| " + " | ".join(row) + " |" for row in b.rows] + [""]
    return "\n".join(out).rstrip() + "\n"
