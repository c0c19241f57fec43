"""Which configuration a document describes: a search over candidates, scored by the numbers they explain.

Candidates are built from the objects that can be inputs (X, the weights shared or per head, Q/K/V
given directly) and vary the head count, the K/V head count, the scale, the causal mask, the output
projection, the row- or column-vector convention and RoPE.  Each candidate's trace is computed
(`mha.trace`), and its score is how many printed numbers of the other objects it explains within
their rounding.  Coordinate ascent keeps the best; ties go to the simplest.  The runner-up of each
choice is kept as evidence.

    prepare.py     the document's arrays ready for matching (labels resolved, printed intervals, 0- or 1-based)
    match.py       an object against the views of a trace: which cells each view explains
    candidates.py  the dimensions of the search and the values each may take
    score.py       how many printed numbers a candidate's trace explains
    search.py      coordinate ascent, the repair of a slipped input, the evidence
"""

from __future__ import annotations

from ..objects import Document
from .candidates import Candidate, Choice, Inference, Scored
from .match import Hit, alignments, within
from .prepare import KEY_SIDE, QUERY_SIDE, Bases, Obj, _family, prepare
from .search import Search

__all__ = ["infer", "prepare", "Inference", "Obj", "Bases", "KEY_SIDE", "QUERY_SIDE", "Hit", "alignments", "within", "Candidate",
           "Choice", "Scored", "Search", "_family"]


def infer(doc: Document, objs: list[Obj], bases: Bases | None = None) -> Inference:
    # arrays under a heading about another layer (a CNN, the feed-forward network) are no evidence for attention's
    # configuration; they are judged (not checked, mostly) with the rest
    inf = Search(doc, [o for o in objs if not o.other_layer]).run()
    inf.objs = objs
    inf.bases = bases or Bases()
    return inf
