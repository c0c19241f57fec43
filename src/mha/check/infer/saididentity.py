"""Weights the document says are the identity: `W_Q = W_K = W_V = I`, `W_1^Q = I_2` (one head's), a hint such as
"without projections", or `Q = K = V = X` written as a formula.  Such a weight is I "(stated)", not assumed
(infer/candidates.py)."""

from __future__ import annotations

import re

from .. import labels as lb
from ..objects import LabelPart
from .prepare import _is

_I = re.compile(r"I(_\{?\d+\}?)?|\\?mathbf\{?I\}?(_\{?\d+\}?)?|\{?I\}?_?\{?\d*\}?")
_OUTPUT_OF = {"W_Q": "Q", "W_K": "K", "W_V": "V"}


def identity_heads(doc, role: str) -> set[int]:
    """Heads whose weight for `role` the document sets to the identity: W_1^Q = W_2^K = I."""
    out: set[int] = set()
    for c in doc.chains:
        if doc.in_opened_section(c.place):
            continue
        labs = [p.text.replace(" ", "") for p in c.parts if isinstance(p, LabelPart)]
        if not any(_I.fullmatch(x) for x in labs):
            continue
        for x in labs:
            r = lb.parse_label(x)
            if r is not None and role in r.nodes and r.raw_head is not None:
                out.add(r.raw_head - 1)
    return {h for h in out if h >= 0}


def said_identity(doc, hints, objs, role: str) -> bool:
    """Does the document say the weight `role` is the identity (see the module)?"""
    for h in hints:
        if doc.in_opened_section(h.place):
            continue                     # "Given X = I_2 and W_Q = W_K = W_V = I_2" set as an exercise
        if h.kind == "identity" and h.value == role:
            return True
        if h.kind == "identity_name":
            r = lb.parse_label(h.value)
            if r is not None and role in r.nodes:
                return True
    for c in doc.chains:
        if doc.in_opened_section(c.place):
            continue
        labs = [p.text.replace(" ", "") for p in c.parts if isinstance(p, LabelPart)]
        if _names_x_as(c, labs, role) and not any(_is(o, role) for o in objs):
            return True              # (a page that prints the weight too holds another example as well)
        if any(_I.fullmatch(x) for x in labs):
            for x in labs:
                r = lb.parse_label(x)
                if r is not None and role in r.nodes and r.nodes[0].startswith("W_"):
                    return True
    return False


def _names_x_as(c, labs: list[str], role: str) -> bool:
    """`Q = K = V = X` (`Q=K=V=X` in a formula): names only, equal, X among them, so the projection whose output is
    named is I, said so."""
    if role not in _OUTPUT_OF or len(labs) < 2 or len(labs) != len(c.parts) or set(c.rels) != {"="}:
        return False
    nodes = [lb.parse_label(x) for x in labs]
    if any(r is None or len(r.nodes) != 1 or r.raw_row is not None or r.raw_head is not None for r in nodes):
        return False
    names = {r.nodes[0] for r in nodes}
    return "X" in names and _OUTPUT_OF[role] in names
