"""A notebook's Markdown cells are hand-written text, as a Markdown page is: the claims that a line carries by
itself, whatever the configuration, are read in each of them too (a row of exponentials with their worded sum and
the weights that are their shares, scores and weights paired by arrows, vectors added down a column).  Each cell
is read on its own, as a small Markdown document, and its findings are placed in it (`cell N:line L`).  Code
cells are not: what code prints it computed itself."""

from __future__ import annotations

import json
from dataclasses import replace

from ...inputs import MHAInputError
from ..report import Finding


# what a cell must hold for one of the line claims to be in it: a sum, an arrow, a plus, a table's bar
_CLAIM_WORDS = ("sum", "total", "→", "->", "+", "合计", "总和", "和为", "總和", "|")


def notebook_cells(text: str):
    """(cell number, cell) of each cell of a notebook's JSON text that is a mapping; none when it is not readable."""
    try:
        cells = json.loads(text).get("cells", [])
    except (ValueError, AttributeError):
        return
    for k, cell in enumerate(cells if isinstance(cells, list) else [], start=1):
        if isinstance(cell, dict):
            yield k, cell


def markdown_cells(text: str):
    """(cell number, source) of each Markdown cell of a notebook's JSON text."""
    from ..readers.notebook import _text_of
    for k, cell in notebook_cells(text):
        if cell.get("cell_type") == "markdown":
            yield k, _text_of(cell.get("source", ""))


def cell_line_claims(findings: list[Finding], text: str) -> list[Finding]:
    """Error findings of the self-identifying line claims in each Markdown cell of a notebook."""
    from ..readers import read_document
    from .arrowpairs import arrow_pairs
    from .expshares import exp_shares
    from .sharecells import share_cells
    from .stackedsum import stacked_sums
    out: list[Finding] = []
    for k, src in markdown_cells(text):
        if not any(w in src.lower() for w in _CLAIM_WORDS):
            continue
        mine = [replace(f, cell=None) for f in findings if f.cell == k]
        try:
            doc = read_document(src, "md")
        except MHAInputError:          # (a cell the reader cannot take is no claim; the notebook reader said so)
            continue
        got: list[Finding] = []
        for claim in (lambda: exp_shares(doc, mine + got, src), lambda: arrow_pairs(mine + got, src),
                      lambda: stacked_sums(doc, mine + got, src), lambda: share_cells(mine + got, src)):
            got.extend(claim())
        out.extend(replace(f, cell=k) for f in got)
    return out
