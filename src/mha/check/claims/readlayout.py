"""A given printed again in the other layout: a question of reading, not a slip of the author.

A weight can reach a document in pieces before it is printed whole: `W_k1`, `W_k2`, `W_k3` given one by one and
then stacked as the columns of W_K (`torch.stack(ws, dim=1)`), or a matrix given for `x W` and later for `W x`.
The configuration takes the input from one of those printings and one layout.  A later printing of the same input
whose every cell is the transpose of that reading says which layout the author meant; it does not say the author
erred.  Such an object is "not checked", naming the reading it agrees with up to transpose, and never a finding
"transposed".  Computed quantities (Q, the scores, the weights) are not concerned: a transposed printout of them is
still judged (a mislabelled Kᵀ), since nothing before them fixed their layout by reading.
"""

from __future__ import annotations

from typing import Any

from ..infer import Hit, Obj
from .identity import _given_by_start

READ_INPUTS = frozenset({"X", "W_Q", "W_K", "W_V", "W_O"})


def layout_question(judge: Any, o: Obj, hit: Hit) -> str | None:
    """Why a transposed printing of an input read elsewhere is not judged, or None when the rule does not apply
    (not transposed, not an input of the configuration, or a configuration the user gave with --input)."""
    if hit is None or hit.view is None or hit.how != "T" or not hit.all or getattr(judge, "mapping_given", False):
        return None
    best = getattr(getattr(judge, "inf", None), "best", None)
    dims = best.cand.dims if best is not None else {}
    node = hit.view.node
    if node not in READ_INPUTS | _given_by_start(dims):
        return None
    choice = dims.get(node)
    if choice is not None and o.a.id in choice.uses:
        return None                       # the configuration's own reading of this very object
    read = f" ({choice.label})" if choice is not None else ""
    return (f"every cell is that of {node}{read} transposed: a given printed in the other layout asks which "
            "layout the document means (rows or columns); it is not a slip")
