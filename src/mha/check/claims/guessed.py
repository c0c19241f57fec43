"""X guessed as a document's first matrix (infer/candidates.py), or X named but every projection assumed, is judged
only where the guess is borne out: a printout computed from it holds in full, or all of a large one but a slip
(nine tenths, and sixteen entries), or, with X named, most of one (four entries, two thirds).  Otherwise what it
would call wrong (by the trace, and the sizes and shapes that come from X) is set aside, and the evidence says that
only what the document writes out is checked."""

from __future__ import annotations

import re

import numpy as np

from ..infer.candidates import FIRST_MATRIX
from ..report import NotChecked

_UNBORNE = ("X or its projections are a guess, and no printout computed from them holds in full: nothing of the "
            "chain after X is confirmed, only what the document writes out is checked")

_GIVEN = frozenset({"X", "W_Q", "W_K", "W_V", "W_O", "Q", "K", "V", "Qh", "Kh", "Vh"})
_PROJECTED = {"W_Q": ("Q", "Qh"), "W_K": ("K", "Kh"), "W_V": ("V", "Vh")}


def _informative(val) -> bool:
    """Does a printout say anything about X: two entries or more that are neither 0 nor 1?  A saturated one-hot row of
    weights ([0, ..., 0, 1, 0, ...]), or a causal first row [1, 0, 0], holds whatever X was guessed."""
    if val is None:
        return False
    v = np.asarray(val, dtype=float).ravel()
    v = v[np.isfinite(v)]
    return int(np.sum((np.abs(v) > 1e-3) & (np.abs(v - 1) > 1e-3))) >= 2


def unless_the_guess_is_borne_out(j) -> None:
    """X guessed as the document's first unlabelled matrix (infer/candidates.py) is a guess: the first matrix of a
    lesson is as often its scores, its weights or its queries (and a named X with every projection assumed is a guess
    of the same kind).  Its entries are judged only when a printout computed from it bears the guess out (see the
    module's note); otherwise what it would call wrong is not checked."""
    dims = j.inf.best.cand.dims
    x = dims.get("X")
    if x is None:
        return
    if x.label.startswith(FIRST_MATRIX):
        guess = f"X was guessed ({x.label})"
    elif x.label.startswith("X: the matrix the printed"):
        # no X named, and the printed projections take an unnamed matrix: as much a guess (the output of an
        # earlier example is as wide as W_Q's rows), though the printed weights make it likelier
        guess = f"X was taken for unnamed ({x.label})"
    elif all(w in dims and "(assumed)" in dims[w].label for w in ("W_Q", "W_K", "W_V")):
        # X named, but every projection assumed to be I (no text says so): self-attention of X itself is as much a
        # guess; a page whose hand-picked weights [0.1, 0.2, 0.7] give its output matches it in a digit by chance
        guess = "every projection was assumed (W = I)"
    else:
        return
    plans = getattr(j, "plans", {})
    # a projection printed (not assumed) computes Q, K or V from the guessed X: their printouts bear it out too
    given = _GIVEN - {n for w, ns in _PROJECTED.items() if w in dims and "(assumed)" not in dims[w].label for n in ns}
    items = [(i, p) for i, p in plans.items() if i not in j.uses and p.get("hit") is not None
             and p["hit"].view is not None and p["hit"].view.node not in given]
    computed = [p for _, p in items]
    vals = {o.a.id: o.val for o in j.objs}
    if any(p["kind"] == "holds" and _informative(vals.get(i)) for i, p in items):
        return
    if not guess.startswith("X was guessed") and any(p["kind"] == "wrong" and p["hit"].n_ok >= 4 and
                                             p["hit"].n_ok >= 2 * p["hit"].ok.size / 3 and _informative(vals.get(i))
                                             for i, p in items):
        return      # X named: a printout that four entries and two thirds of it match bears the projections out
        #             (not one of 0s and 1s: a binary matrix matches a causal mask's pattern whatever X is)
    if any(p["kind"] == "wrong" and p["hit"].n_ok >= 16 and p["hit"].n_ok >= 0.9 * p["hit"].ok.size
           for p in computed):
        return      # X guessed: a large printout all but a slip of which matches (127 of 128 weights) bears it out
    if _UNBORNE not in j.inf.evidence:      # "all claims hold" then speaks of the written arithmetic only
        j.inf.evidence.append(_UNBORNE)
    confirmed = getattr(j, "own_terms_too", set())     # found against the printout's own terms as well
    judged = [f for f in getattr(j, "by_trace", []) + getattr(j, "by_size", []) if id(f) not in confirmed]
    if not any(any(f is g for g in judged) for f in j.findings):
        return
    # a printout judged against its own printed terms (a softmax of the scores beside it, a matrix printed again)
    # carries its own identity, whatever X is; and a named X printed again (`inputs[1]`) is X, whatever the
    # projections were assumed to be
    named = guess.startswith("every projection")
    sized = getattr(j, "by_size", [])       # (a shape said for "an input" is no printout of X: set aside too)
    _set_aside(j, [f for f in j.findings if any(f is g for g in judged) and
                   not (named and f.step == "input" and not any(f is g for g in sized))],
               f"{guess}, and no printout computed from it holds in full: the guess is not borne out")


_AFTER = {"W_K": ({"Kh", "Kr", "QKt", "S", "E", "row_max", "row_sum", "A", "O", "O_concat", "Y"},
                  {"scores", "scale", "softmax", "weighted_sum", "concat", "output"}),
          "W_V": ({"Vh", "Vr", "O", "O_concat", "Y"}, {"weighted_sum", "concat", "output"})}


def unless_the_assumed_projections_are_borne_out(j) -> None:
    """W_K (or W_V) assumed to be I while W_Q is printed: what follows from the keys (the values) is judged only when
    a printout computed from them bears the assumption out (holds, or most of it matches); otherwise what the trace
    would call wrong there is set aside.  ("Assume K' = Q'" in words leaves W_K unread: the identity guessed for it
    makes every score and row sum another example's.)"""
    dims = j.inf.best.cand.dims
    assumed = [w for w in ("W_K", "W_V") if w in dims and "(assumed)" in dims[w].label]
    if not assumed or all(w in dims and "(assumed)" in dims[w].label for w in ("W_Q", "W_K", "W_V")):
        return              # (every projection assumed: unless_the_guess_is_borne_out speaks for that)
    plans = getattr(j, "plans", {})
    vals = {o.a.id: o.val for o in j.objs}
    steps: set[str] = set()
    unborne = []
    for w in assumed:
        nodes, after = _AFTER[w]
        bearing = [(i, p) for i, p in plans.items() if i not in j.uses and p.get("hit") is not None and
                   p["hit"].view is not None and p["hit"].view.node in nodes]
        if any((p["kind"] == "holds" and _informative(vals.get(i))) or
               (p["kind"] == "wrong" and p["hit"].n_ok >= 4 and p["hit"].n_ok >= 2 * p["hit"].ok.size / 3)
               for i, p in bearing):
            continue
        steps |= after
        unborne.append(w)
    judged = getattr(j, "by_trace", [])
    traced = [f for f in j.findings if f.step in steps and any(f is g for g in judged)]
    if traced:
        _set_aside(j, traced, f"{' and '.join(unborne)} assumed (= I), and no printout computed from "
                   f"{'them' if len(unborne) > 1 else 'it'} holds: the assumption is not borne out")


def _set_aside(j, traced: list, why: str) -> None:
    """The findings judged under a guess that nothing bore out: errors become "not checked" (why), notes go (they
    say nothing either)."""
    j.findings = [f for f in j.findings if not any(f is g for g in traced)]
    for f in traced:
        if f.severity == "error":
            j.not_checked.append(NotChecked(f.line, f.cell, f"{f.claim}: printed {f.printed}", why))


_KEYS_AS_VALUES = "V = K (the keys are the values)"
# a printed matrix named as values the reading did not take (`V_enc`, `\mathbf{V}_{\text{enc}}`, "values:")
_VALUES_NAMED = re.compile(r"\W*(?:\{?V\}?(?:\s*_|\b)|values?\b)", re.I)


def unless_the_values_are_borne_out(j) -> None:
    """One query against its keys with no values read (infer/onequery.py) takes the keys for the values: a guess
    about every output when the page prints a matrix of the keys' shape named as values that the reading did not
    take (`V_enc` beside `K_enc`); with none, the keys are the values (a seq2seq decoder's encoder states).  An
    output judged by the trace under that guess is set aside as not checked unless some printed output holds under
    it (the weights, computed without V, bear out nothing about V)."""
    mode = j.inf.best.cand.dims.get("mode")
    if mode is None or _KEYS_AS_VALUES not in mode.label:
        return
    shape = j.inf.best.cand.dims["K"].value.shape
    if not any(o.val is not None and o.val.shape == shape and o.a.id not in j.uses and
               _VALUES_NAMED.match(o.a.label or "") for o in j.objs) and not _values_written_unread(j):
        return              # no values printed apart: the keys are the values (seq2seq's encoder states are both)
    plans = getattr(j, "plans", {})
    vals = {o.a.id: o.val for o in j.objs}
    if any(p.get("kind") == "holds" and p.get("hit") is not None and p["hit"].view is not None and
           j.step_of(p["hit"].view.node) == "weighted_sum" and _informative(vals.get(i)) for i, p in plans.items()):
        return
    judged = getattr(j, "by_trace", [])
    _set_aside(j, [f for f in j.findings if f.step == "weighted_sum" and any(f is g for g in judged)],
               "the keys were taken for the values (no V is read), and no output computed from them holds in full: "
               "the guess is not borne out")


_VALUES_ASSIGNED = re.compile(r"^\W*(?:V|values?)\s*(?:=|:)\s*[\[(]", re.I)


def _values_written_unread(j) -> bool:
    """A line that assigns V a value (`V = [[1, 1, 3], ...]`, however it goes on) where no array named V was read:
    the page gives values the reading missed, so the keys are no stand-in for them."""
    if any(_VALUES_NAMED.match(o.a.label or "") for o in j.objs):
        return False
    return any(_VALUES_ASSIGNED.match(line) for line in getattr(j.doc, "lines", []) or [])
