"""Why an array the configuration does not explain is set aside rather than judged (claims/array.py): what the
document says of it, or where it stands, makes it no claim about the inferred example.  Each reason is one line of
the "not checked" list; None when the array is to be judged."""

from __future__ import annotations

import re
from typing import Any

from .. import labelwords as lw
from ..gradients import GRAD_STEP
from .assumed import assumed_weight
from .restated_inputs import given_restated

DROPPED = ("printed after dropout (in training mode it zeroes entries and scales the rest by 1/(1-p)): "
           "not the attention weights, nor what the dropout-free weights give")

# a name that says its values are the wrong ones, shown for contrast: "wrong weights", "buggy output", 错误权重
DECLARED_WRONG = re.compile(r"\b(?:wrong|incorrect|buggy|erroneous|broken)\b|错误的?(?:权重|输出|结果|分数)|"
                            r"错的|有误|誤った|間違った|잘못된|falsch|incorrect[oa]s?|errad[oa]s?|erron[ée]", re.I)

# torch.empty(3), np.empty_like(x): memory left as it was, whatever it prints
_EMPTY = re.compile(r"\b(?:torch|np|numpy|jnp)\.empty(?:_like)?\s*\(")


def set_aside(j, o, plan: dict[str, Any]) -> str | None:
    """The reason the judge (j) leaves the array o unjudged, or None (see the module)."""
    a, kind = o.a, plan["kind"]
    if kind == "holds":
        return None
    hit = plan.get("hit")
    wrong = kind in ("wrong", "layout")
    reasons = (
        (a.context.partial, "a running quantity of a tiled (online softmax) walk-through"),
        (a.context.dropout, a.context.dropped_copy or DROPPED),
        (a.id in getattr(j, "stale", {}), getattr(j, "stale", {}).get(a.id)),
        # `softmax(12, 0, 0) = ...`, then `softmax(3, 0, 0) = ...`: each call's argument is its own line's input
        # (judged with what the line says it gives), not one row of the configuration's scores
        (a.label == "softmax input" and a.id not in j.uses and
         len([x for x in j.objs if x.a.label == "softmax input"]) > 1,
         "the argument written in a softmax call: its own line's input, not the configuration's scores"),
        (bool(DECLARED_WRONG.search(a.label or "")),
         "the text calls these values wrong (a buggy version shown for contrast): not a claim"),
        # (typed in a later cell, they are a copy of the computed values only when all of them but one agree: a
        # slip in that copy is still found; otherwise they are the author's own, for another illustration)
        (a.retyped or (a.retyped_later and (hit is None or hit.n_ok < o.val.size - 1)),
         "typed in code for a name the code computed before: values the author sets in its place, not a result"),
        (a.parameter and a.id not in j.uses and wrong and o.ref is not None and
         not o.ref.nodes[0].startswith(("W_", "b_")),
         "printed from a module's parameter (a .weight or .bias): a value the code sets, not the computed "
         "quantity its caption names"),
        (a.made, "made in code by a constructor (torch.ones, np.arange): a value the code sets, not one it "
                 "computes"),
        (bool(_EMPTY.match((a.label or "").strip())),    # (the printed expression itself: a name made by empty
         #                                                    and then filled in a loop holds what the loop put there)
         "memory `empty` leaves as it found it (torch.empty, np.empty): no value anything computes"),
        (hit is not None and hit.view is not None and hit.view.node in GRAD_STEP and hit.view.node != "target"
         and not any(n in GRAD_STEP for r in o.refs for n in r.nodes),
         "matched with a gradient by its values alone, and not named as one (dQ, ∂L/∂S, grad): not judged as one"),
        (o.other_layer, "under a heading about another layer (a convolution, the feed-forward network, a "
                        "neuron), not attention"),
        (bool(lw.CROSS_ATTENTION.search(a.context.heading)) and (j.t is None or j.t.config.key is None) and
         not j._from_givens(),
         "under a heading about cross-attention (queries from another sequence than the keys), which the "
         "inferred self-attention configuration does not model"),
    )
    for applies, why in reasons:
        if applies:
            return why
    if wrong and o.batch_hint is not None and j.t is not None and j.t.config.B == 1 and \
            o.batch_hint - j._batch_base() >= 1 and _names_its_sequence(a.label):
        # "sequence 2 output (row 3 is a padded query)" under a configuration of one sequence: the batch's other
        # sequence, with a mask of its own the configuration does not hold
        return "named for another sequence of a batch, which the inferred configuration (one sequence) does not hold"
    if wrong and a.id not in j.uses and j.section_of(a.place) in getattr(j, "reshaped_sections", ()):
        return "its section names an input of another width than the configuration's: another example's"
    if wrong and hit is not None and hit.view is not None and given_restated(j, o, hit.view.node):
        return "named as the input the example starts from, with other values: another example's input"
    if wrong and assumed_weight(j, hit):
        # a printed projection is a given: the configuration's assumed one (W_Q = I) cannot overrule it
        return (f"a printed {hit.view.node}, while the configuration assumes {hit.view.node} = I: not judged "
                "against an assumption (another example's weights?)")
    return None


_SEQUENCE = re.compile(r"(?i)\b(?:batch|sequence|sample|seq)\s*#?\s*\d|第\s*\d+\s*(?:条|个)(?:序列|样本)|"
                       r"\b(?:second|third|2nd|3rd)\s+(?:sequence|sample|batch)")


def _names_its_sequence(label: str | None) -> bool:
    """Does the object's own label name its sequence of a batch ("sequence 2 output", "second sequence's mask")?"""
    return bool(_SEQUENCE.search(label or ""))
