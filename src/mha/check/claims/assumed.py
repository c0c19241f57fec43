"""Readings that rest on an assumption rather than on the document: a projection the configuration takes as I where
the document prints its own.  What would be judged against such an assumption is said, not judged."""

from __future__ import annotations

import numpy as np

from ..infer import Hit, Obj
from ..report import NotChecked
from .common import _show_view


def assumed_weight(j, hit: Hit | None) -> bool:
    """Is what the object is matched with a projection the configuration assumes rather than takes as printed?"""
    best = j.inf.best
    if hit is None or hit.view is None or hit.view.node not in ("W_Q", "W_K", "W_V") or best is None:
        return False
    choice = best.cand.dims.get(hit.view.node)
    return choice is not None and "(assumed)" in choice.label


def split_assumed(j, o: Obj, h: Hit, what: str) -> bool:
    """"These are head 1's values" is only as good as the split of the projection: when the configuration assumes
    it is I although the document prints it, how the author splits the heads is not known.  Says so (not checked)
    and returns True."""
    best = j.inf.best
    role = {"Q": "W_Q", "Qh": "W_Q", "K": "W_K", "Kh": "W_K", "V": "W_V", "Vh": "W_V"}.get(h.view.node)
    choice = best.cand.dims.get(role) if best is not None and role else None
    if choice is None or "(assumed)" not in choice.label or \
            not any(role in r.nodes for x in j.objs for r in x.refs):
        return False
    j.not_checked.append(NotChecked(o.a.line, o.a.place.cell, what, f"its values are {_show_view(h)}'s, but the "
                                    f"heads' split comes from {role} = I, assumed where the document prints its own"))
    return True


_PROJECTED = {"Q": "W_Q", "Qh": "W_Q", "K": "W_K", "Kh": "W_K", "V": "W_V", "Vh": "W_V"}


def copy_of_an_input(j, o: Obj, hit: Hit | None) -> bool:
    """Matched, all but some cells, with Q, K or V of a projection the configuration assumes to be I (not printed):
    that quantity is a copy of an input, so an unnamed row most of whose cells equal an input row is as likely
    another quantity built on the same numbers (a table of positional encodings beside X = E + PE, each row one
    entry apart) as a slip in the copy.  Its values do not identify it; only its name could."""
    best = j.inf.best
    if hit is None or hit.view is None or best is None or hit.all:
        return False
    role = _PROJECTED.get(hit.view.node)
    choice = best.cand.dims.get(role) if role else None
    if choice is None or "(assumed)" not in choice.label:
        return False
    return not any(r.strong and (hit.view.node in r.nodes or role in r.nodes) for r in (o.refs or []))


def above_its_start(j, o: Obj, hit: Hit | None) -> bool:
    """An unnamed row printed above the start the configuration takes as given (raw scores, or Q, K and V), most of
    whose cells equal a row of that start: the material the author wrote the start from (word vectors that a score
    table copies, one cell changed), not a step computed from the start, which nothing above it can be.  Its values
    do not identify it; only a name could."""
    best = j.inf.best
    if hit is None or hit.view is None or best is None or hit.all or o.val is None or \
            (o.ref is not None and o.ref.strong) or best.cand.dims["mode"].value == "X":
        return False
    starts = [x for x in j.objs if x.a.id in best.cand.uses and x.val is not None]
    if not starts or o.a.place.order >= min(x.a.place.order for x in starts):
        return False
    want = np.asarray(hit.exact, dtype=float).reshape(-1)
    return any(x.val.shape[-1] == want.size and any(np.allclose(r, want) for r in x.val.reshape(-1, want.size))
               for x in starts)


def rows_unlike_unprinted(j, o: Obj, hit: Hit | None, agree: np.ndarray) -> bool:
    """Q, K or V judged against an input times a projection the document does not print (taken as I, assumed or
    said in passing), with a row of which at most half the cells agree: such a row is as likely another sequence's
    vector (a decoder's queries beside the encoder's words) as a slip, and the assumption is all that ties it to
    the input; its cells are not judged one by one."""
    best = j.inf.best
    if hit is None or hit.view is None or best is None or hit.all or agree.ndim != 2:
        return False
    # (a head's slice of a row, two entries of a row the page projects whole, is judged as before: its row is
    # the one the input and the projection give)
    role = {"Q": "W_Q", "K": "W_K", "V": "W_V"}.get(hit.view.node)
    choice = best.cand.dims.get(role) if role else None
    if choice is None or not ("(assumed)" in choice.label or "(stated)" in choice.label):
        return False
    return any(not row.all() and 2 * int(row.sum()) <= row.size for row in agree)
