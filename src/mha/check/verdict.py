"""The verdict on a document: every claim judged (judge.Judge) under the inferred configuration, then under the
runner-ups that explain nearly as many printed numbers, and the findings settled: quotes of a wrong value, values
carried on from it, and the other passes that turn a repeated slip into one finding and notes."""

from __future__ import annotations

import re

from typing import Any

from .claims.common import explained_by, object_line
from .claims.guessed import (unless_the_assumed_projections_are_borne_out, unless_the_guess_is_borne_out,
                             unless_the_values_are_borne_out)
from .infer import Inference
from .judge import Judge
from .objects import Document
from .report import NotChecked


def judge_document(doc: Document, inf: Inference, mapping: dict[str, Any] | None, given: bool,
                   text: str | None = None) -> Judge:
    """Judge every claim under the inferred configuration; when other configurations explain nearly as many
    printed numbers (the search's runner-ups, see infer.search.close_call), report only the findings that hold
    under them too, and say so: the evidence names each runner-up, and each finding that depends on the choice
    is listed as not checked.  Once the findings are settled, the quotes of a wrong value in the text (the
    document's text) get notes that follow from it (claims/requoted.py), as do the arithmetic lines that carry it
    on (claims/carried.py)."""
    j = _judged(doc, inf, mapping, given)
    judged = getattr(j, "weights_judged", set())          # weights judged against the scores printed beside them
    j.not_checked = [n for n in j.not_checked if not any((n.line, n.cell) == (ln, cell) and
                                                         (n.what == what or n.what.startswith(what[:-1] + ","))
                                                         for ln, cell, what in judged)]
    from .claims.namedproduct import factor_slips
    factor_slips(j)                          # a product off its printed factors where a factor is the slip
    if text is not None:
        from .claims.shapewords import real_model_sizes
        j.findings = real_model_sizes(j.findings, j.not_checked, text)   # "real models use d_h = 64"
    from .claims.aside import withdraw_asides
    withdraw_asides(j, doc, text)            # a varied parameter, a sum the text disowns, a ratio: not claims
    from .claims.typedsum import withdraw_typed_sums
    withdraw_typed_sums(j, doc, text)        # a notebook's `sum([0.2098, ...])` of weights typed by hand
    from .claims.expshares import rounded_shares
    rounded_shares(doc, j.findings)          # weights worked from the rounded exponentials printed above them
    from .claims.requoted import (add_requotes, beside_wrong_scores, one_per_number, repeated_errors, right_copies,
                                  rounded_requotes, wrong_requotes)
    add_requotes(j, doc, text)
    right_copies(j.findings)                 # a slip in a given, and a later copy that has the right value
    one_per_number(j.findings)               # one printed number found wrong by two claims: one error
    beside_wrong_scores(j.findings)          # weights judged against a row of scores with a score found wrong
    repeated_errors(j.findings)              # a row found wrong, then the matrix that holds it found wrong again
    rounded_requotes(j.findings)             # a number noted as following from rounded values, quoted again
    wrong_requotes(j.findings)               # a weight found wrong, written again into its weighted sum
    from .claims.workedterms import worked_from_wrong
    worked_from_wrong(doc, j.findings)       # `[0.149/1.517, ...] ≈ [0.098, ...]` after 0.149 was found wrong
    from .claims.weighted import worked_copies
    worked_copies(j)                         # `1.13 / 10.22 = 0.111` worked out, then 0.111 printed bare again
    from .claims.quotedsum import symbolic_sums
    j.findings.extend(symbolic_sums(doc, j.findings))   # `0.58·v1 + ... + 0.18·v4` under weights [.., 0.16, ..]
    if text is not None and doc.format != "ipynb":
        from .claims.arrowpairs import arrow_pairs
        from .claims.percentquote import equal_shares, percent_quotes, position_percents, self_percents
        from .claims.rowsum import row_sums
        j.findings.extend(percent_quotes(doc, j.findings, text))    # weights read out as percentages
        j.findings.extend(self_percents(doc, j.findings, text))     # "row 0 ... attends to itself (100%)"
        j.findings.extend(equal_shares(doc, j.findings, text))      # "14.3% weight to each of positions 0-6"
        j.findings.extend(position_percents(doc, j.findings, text))  # "Position 0:" ... "50.6% attention to position 0"
        summed: list = []
        j.findings.extend(row_sums(doc, j.findings, text, summed))  # weights whose row does not sum to 1
        if not getattr(inf, "unexplained", None):
            _count_alone(j, inf, summed)     # (weights that no start they were given with explains: refused; under
            #                                  a configuration, weights that match nothing are judged by their rows)
        j.findings.extend(arrow_pairs(j.findings, text))            # "score 0.8 → weight 0.5", key by key
        from .claims.rootline import root_lines
        j.findings.extend(root_lines(j.findings, text))             # "d = 4, so √d = 2" on one line
        from .claims.expshares import exp_shares
        j.findings.extend(exp_shares(doc, j.findings, text))        # "Exponentials 2.72, 7.39, sum 10.11. Weights .."
        from .claims.sharecells import share_cells
        j.findings.extend(share_cells(j.findings, text))            # | $e^7 / \text{total}$ | 86.5% | in a table
        from .claims.stackedsum import stacked_sums
        j.findings.extend(stacked_sums(doc, j.findings, text))      # vectors added down a column, a rule, `= [..]`
        from .claims.carried import carried_notes, carried_sums
        j.findings.extend(carried_notes(doc, j.findings))           # a wrong value carried into new arithmetic
        carried_sums(doc, j.findings)                               # `Sum = ..` of listed terms, one found wrong
    elif text is not None:
        from .claims.rowsum import cell_row_sums, output_weights
        named = output_weights(doc)          # a notebook's printed weights sum to 1 by row (claims/rowsum.py)
        _count_alone(j, inf, named)
        j.findings.extend(cell_row_sums(named, j.findings))
        from .claims.rootline import notebook_root_lines
        j.findings.extend(notebook_root_lines(j.findings, text))    # `d_k = 3,  sqrt(d_k) = 1.732` printed
        from .claims.cellprose import cell_line_claims
        j.findings.extend(cell_line_claims(j.findings, text))       # a Markdown cell's exponentials, sum, shares
    return j


def _count_alone(j: Judge, inf: Inference, weights: list) -> None:
    """Printed weights whose rows were added up (claims/rowsum.py): with no configuration, or none they are part
    of, that is the claim made of them, counted as such, and not "not checked"."""
    alone = [a for a in weights if inf.best is None or any((n.cell, n.line) == (a.place.cell, a.line) and
                                                           _matches_nothing(n) for n in j.not_checked)]
    j.n_claims += len(alone)
    j.n_numbers += sum(len(a.numbers) for a in alone)
    if inf.best is None:      # (under a configuration, that they match nothing of it is still said)
        j.not_checked = [n for n in j.not_checked if not any((n.cell, n.line) == (a.place.cell, a.line)
                                                             for a in alone)]


def _matches_nothing(n: NotChecked) -> bool:
    """A not-checked line that only says the object matched nothing of the configuration, by value or by shape (not
    that it is stale or dropped): the printout's own row sums are then all that is said of it."""
    return any(w in n.reason for w in ("matches nothing", "matches no intermediate", "shape is not that of"))


def _carried_copies(j: Judge, k: Judge, only: list) -> list:
    """Of the findings wrong only under the best reading, those the other reading calls a value that follows from
    the rounded one printed before it, where that one is the same wrong number found under both (O printed 3.33,
    then "the output vector [3.33, ...]" as Y): one slip, one finding; the copy becomes a note on it.  The rest."""
    carried = {(g.cell, g.line, g.printed) for g in k.findings if g.severity == "note" and
               (g.cause or "").startswith("follows from")}
    kept = [f for f in j.findings if f.severity == "error" and f not in only]
    rest = []
    for f in only:
        src = next((g for g in kept if (f.cell, f.line, f.printed) in carried and g.printed == f.printed and
                    g.line < f.line and isinstance(g.exact, float) and isinstance(f.exact, float) and
                    abs(g.exact - f.exact) <= 1e-9 * max(1.0, abs(f.exact))), None)
        if src is None:
            rest.append(f)
            continue
        f.severity, f.kind = "note", "carried"
        f.cause = f"the same wrong value as line {src.line}, carried: one slip, found there"
    return rest


# the runner-ups judged again (each a full judgement, only when the best finds errors), one of each dimension first
# (infer/search.py): a page whose projections read either way tied three of them before its scale's (t199a: the
# unscaled reading, fourth, was never tried)
RUNNER_UPS = 4


def _judged(doc: Document, inf: Inference, mapping: dict[str, Any] | None, given: bool) -> Judge:
    import copy
    j = Judge(doc, inf, mapping, given)
    j.run()
    if given or inf.best is None:
        return j
    unless_the_guess_is_borne_out(j)
    unless_the_values_are_borne_out(j)
    unless_the_assumed_projections_are_borne_out(j)
    for other in getattr(inf, "runner_ups", [])[:RUNNER_UPS]:
        if not j.errors_found():
            break
        alt = copy.copy(inf)
        alt.best, alt.objs = other, copy.deepcopy(inf.objs)      # a repaired input is repaired in both
        alt.bases = copy.copy(inf.bases)
        k = Judge(doc, alt, other.cand.mapping(), given=False)
        k.run()
        also = {(f.cell, f.line, f.printed) for f in k.findings if f.severity == "error"}
        # (an object the other reading leaves unjudged is not borne out by it: its findings stand)
        unjudged = {(n.cell, n.line) for n in k.not_checked}
        only = [f for f in j.findings if f.severity == "error" and (f.cell, f.line, f.printed) not in also
                and not (object_line(doc, f) in unjudged and not explained_by(k, f))]
        only = _carried_copies(j, k, only)
        if not only:
            continue
        differ = "; ".join(c.label for name, c in other.cand.dims.items()
                           if inf.best.cand.dims.get(name) is None or inf.best.cand.dims[name].label != c.label)
        inf.evidence.append(f"runner-up: {differ} — explains {other.explained} of {other.total} printed numbers "
                            f"(the best: {inf.best.explained}); {len(only)} finding(s) wrong only under the best "
                            f"are not reported")
        gone = {(f.cell, f.line) for f in only}
        # (and the notes that follow from them: "follows from line 207", the weight set aside there)
        j.findings = [f for f in j.findings if f not in only and not (
            f.severity == "note" and any(re.search(rf"follows from line {ln}\b", f.cause or "") and
                                         (cell == f.cell or cell is None) for cell, ln in gone))]
        for f in only:
            j.not_checked.append(NotChecked(f.line, f.cell, f"{f.claim}: printed {f.printed}",
                                            f"holds under a configuration nearly as good ({differ}): wrong only "
                                            f"under one of two near-equal readings"))
    return j
