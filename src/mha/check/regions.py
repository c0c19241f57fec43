"""Other examples in one document (before its givens, in sections it explains nothing in, after a rebinding):
inferred and judged on their own.

A document often works more than one example: a notebook draws random Q, K and V, works attention out, then draws
them again and works it once more; a course page computes a small self-attention and then, under its own heading, a
causal mask over scores it gives.  One configuration explains one of them; the judge says "not checked" for the
others (claims/scope.py).  A reader does not stop there: each example is checked against its own givens.

So what comes before the configuration's first given, a run of consecutive sections in which it explains no
printed object, and what follows code that gives an input new values (claims/rebind.py) up to the configuration's
next object, are each read as a document of their own (when they hold at least two arrays): inferred, judged, and
its findings and "not checked" objects replace what the first judge said about that region.  Identity is the same as
everywhere: the region's configuration must explain some of its printed objects beyond its own inputs, and each
finding is one the judge would give on that region alone.  A region whose search rests on weights assumed to be I,
or that starts from printed (rounded) weights, says nothing.
"""

from __future__ import annotations

import re

import copy
from typing import Any, Callable

from .objects import Document, Place

MIN_ARRAYS = 2          # a region needs a given and something computed from it
MAX_REGIONS = 4         # inference is cheap, but a document of many small sections is not many examples
MAX_REBOUND = 6         # the tutorial's queries given again one after another over the same keys and values


def judge_other_examples(doc: Document, j: Any) -> list[str]:
    """Infer and judge each other example (module docstring) on its own; fold the results into `j` (findings,
    not checked, counts).  Returns one evidence line per region judged."""
    if not getattr(j, "explained_objects", 0) or not getattr(j, "explained_sections", None):
        return []
    regions: list[Callable[[Place], bool]] = []
    first = _first_input(j)
    if first is not None:
        regions.append(lambda p: p.order < first)
    for run in _unexplained_runs(doc, j):
        if first is None or not any(a.place.order < first for a in doc.arrays if j.section_of(a.place) in run):
            regions.append(lambda p, run=run: j.section_of(p) in run)
    rebound: list[tuple[Callable[[Place], bool], list]] = []      # each with the givens it keeps from before it
    for start, end, kept in _rebound_spans(j):
        if not any(inside(Place(start[1], start[0] or None)) for inside in regions + [r for r, _ in rebound]):
            rebound.append((lambda p, s=start, e=end: s <= p.order and (e is None or p.order < e), kept))
    evidence = []
    for inside, kept in [(r, []) for r in regions[:MAX_REGIONS]] + rebound[:MAX_REBOUND]:
        if sum(1 for a in doc.arrays if len(a.numbers) >= 2 and inside(a.place)) < MIN_ARRAYS:
            continue
        line = _judge_region(doc, j, inside, kept)
        if line:
            evidence.append(line)
    return evidence



def _first_input(j: Any) -> tuple[int, int] | None:
    """Where the configuration's first given stands (an example printed before it is another one)."""
    keys = [o.a.place.order for o in j.objs if o.a.id in j.uses]
    return min(keys) if keys else None


_UPSTREAM = {"X", "W_Q", "W_K", "W_V"}


def _rebound_spans(j: Any) -> list[tuple[tuple[int, int], tuple[int, int] | None, list]]:
    """From each code literal that gives an input other values (claims/rebind.py) to the next that gives one of the
    same inputs again, or to the next object the configuration uses or explains: the other example that literal
    opens.  With each span, the configuration's givens it keeps (the tutorial's `temp_q = ...` again and again, over
    the `temp_k` and `temp_v` above them): those that neither this span nor a rebinding before it binds again."""
    rebinds = sorted(j._find_rebinds() if hasattr(j, "_find_rebinds") else [], key=lambda r: r.a.place.order)
    ids = {r.a.id for r in rebinds}
    nodes = [{nd for x in r.refs for nd in x.nodes} for r in rebinds]
    givens = [x for x in j.objs if x.a.id in j.uses]
    spans = []
    for n, r in enumerate(rebinds):
        start = r.a.place.order
        later = [x.a.place.order for x in j.objs if x.a.place.order > start and x.a.id not in ids
                 and (x.a.id in j.uses or j._explained(x))]
        own = set(nodes[n])
        for r2, mine in zip(rebinds[n + 1:], nodes[n + 1:]):
            if mine & own:
                later.append(r2.a.place.order)       # the same input given again: the next example starts
                break
            own |= mine                              # another input of this example (its X, then its W_Q)
        end = min(later, default=None)
        # the inputs given other values up to this span's end (its own rebindings, and any before it)
        bound = set().union(*(mine for r2, mine in zip(rebinds, nodes) if end is None or r2.a.place.order < end))
        # a start downstream of X given again (Q, K, V typed in) leaves X and the projections behind: they gave
        # what is now given, and carried in they would be the region's start instead
        if bound - _UPSTREAM - {"W_O"}:
            bound |= _UPSTREAM
        kept = [x.a for x in givens if x.a.place.order < start and x.refs and
                not any(set(x2.nodes) & bound for x2 in x.refs)]
        spans.append((start, end, kept))
    return spans


def _unexplained_runs(doc: Document, j: Any) -> list[set[int]]:
    """Maximal runs of consecutive sections none of which the configuration explains."""
    runs: list[set[int]] = []
    current: set[int] = set()
    for s in range(len(doc.headings) + 1):
        if s in j.explained_sections:
            if current:
                runs.append(current)
            current = set()
        else:
            current.add(s)
    if current:
        runs.append(current)
    return runs


def _region(doc: Document, inside: Callable[[Place], bool], kept: list = ()) -> Document:
    """The region's own arrays, chains, readings and hints (copies), with the givens it keeps from before it."""
    arrays, chains, readings, hints = copy.deepcopy(([a for a in doc.arrays if inside(a.place) or
                                                      any(a is x for x in kept)],
                                                     [c for c in doc.chains if inside(c.place)],
                                                     [r for r in doc.readings if inside(r.place)],
                                                     [h for h in doc.hints if inside(h.place)]))
    sub = Document(chains=chains, readings=readings, hints=hints, format=doc.format, n_lines=doc.n_lines,
                   headings=list(doc.headings))
    for a in arrays:
        sub.add_array(a)
    return sub


def _set_aside_lines(doc: Document, j: Any, inside: Callable[[Place], bool]) -> set[tuple[int | None, int]]:
    """The lines of the region's arrays that the first judge listed as not checked (an arithmetic line it judged,
    against the configuration, is not judged again against the region's own)."""
    starts = {(n.cell, n.line) for n in j.not_checked if inside(Place(n.line, n.cell))}
    out: set[tuple[int | None, int]] = set()
    for a in doc.arrays:
        if (a.place.cell, a.line) in starts or (a.place.cell, a.place.line) in starts:
            out |= {(a.place.cell, n.line or a.line) for n in a.numbers} | {(a.place.cell, a.line)}
    return out


def _held(k: Any) -> tuple[set[tuple[int | None, int]], set[tuple[int | None, int, str]]]:
    """The (cell, line) of every number of the objects a region's judge took as givens or found to hold, and the
    (cell, line, text) of each such number (a finding on another number of their line, the sum said after a row
    of exponentials that holds, is not theirs)."""
    plans = getattr(k, "plans", {})
    lines: set[tuple[int | None, int]] = set()
    texts: set[tuple[int | None, int, str]] = set()
    for o in k.objs:
        if o.a.id in k.uses or (plans.get(o.a.id) or {}).get("kind") == "holds":
            lines |= {(o.a.place.cell, n.line or o.a.line) for n in o.a.numbers} | {(o.a.place.cell, o.a.line)}
            texts |= {(o.a.place.cell, n.line or o.a.line, n.text) for n in o.a.numbers}
    return lines, texts


def _own_arithmetic(f: Any, texts: set[tuple[int | None, int, str]]) -> bool:
    """A finding of written arithmetic (its identity is its own line) on a number that no held object prints."""
    return f.kind == "arithmetic" and re.fullmatch(r"[-+−]?\d+(?:\.\d+)?%?", (f.printed or "").strip()) is not None \
        and (f.cell, f.line, f.printed) not in texts


def _judge_region(doc: Document, j: Any, inside: Callable[[Place], bool], kept: list = ()) -> str | None:
    from .infer import infer, prepare
    from .infer.refute import projections_disagree
    from .verdict import judge_document
    sub = _region(doc, inside, kept)
    objs, bases = prepare(sub, j.inf.bases)
    inf = infer(sub, objs, bases)
    if inf.best is None or any("(assumed)" in (c.label or "") for c in inf.best.cand.dims.values()):
        return None                      # weights assumed to be I in a side section: too little to identify by
    if inf.best.cand.dims["mode"].value == "weights":
        return None                      # printed (rounded) weights as the givens: the judge takes them as exact
    if inf.best.cand.dims["mode"].value == "X" and \
            projections_disagree(objs, inf.best.views, used=inf.best.cand.uses):
        return None                      # its Q, K or V printed by name are not what its X and weights give
    k = judge_document(sub, inf, inf.best.cand.mapping(), given=False)
    if not getattr(k, "explained_objects", 0) or k.n_claims == 0:
        return None                      # the region's own configuration identifies nothing: nothing is said
    # what the region's own configuration takes as its givens or finds to hold (Exercise 1's `h = [...]`, its keys)
    # is no slip of the document's configuration's quantity of that shape (Exercise 3's V): that verdict goes
    # and so does any other error the document's configuration found inside the region, under other headings than
    # its own first given, that the region's own does not (Example 1's Q judged as a head of Example 2's split, a
    # row sum of its exponentials against Example 2's rows): there, the first configuration's values are another
    # example's (a region under the given's own heading, an answer printed before the script that gives its
    # inputs, is the same example read twice: its findings stand)
    held, texts = _held(k)
    own = {(f.line, f.cell, f.printed) for f in k.findings if f.severity == "error"}
    first = _first_input(j)
    home = j.section_of(Place(first[1], first[0] or None)) if first is not None else None
    dropped = {(f.cell, f.line) for f in j.findings if f.severity == "error" and not _own_arithmetic(f, texts) and
               ((f.cell, f.line) in held or (inside(Place(f.line, f.cell)) and home is not None and
                                              j.section_of(Place(f.line, f.cell)) != home and
                                              (f.line, f.cell, f.printed) not in own))}
    j.findings = [f for f in j.findings if not (f.severity == "error" and (f.cell, f.line) in dropped and
                                                not _own_arithmetic(f, texts))]
    seen = {(f.line, f.cell, f.printed) for f in j.findings}
    set_aside = _set_aside_lines(doc, j, inside)   # the region speaks only where the first judge said nothing
    j.findings.extend(f for f in k.findings if (f.line, f.cell, f.printed) not in seen
                      and ((f.cell, f.line) in set_aside or
                           (f.cell, f.line) in dropped and inside(Place(f.line, f.cell))))
    j.not_checked = [n for n in j.not_checked if not inside(Place(n.line, n.cell))] + k.not_checked
    j.n_claims += k.n_claims
    j.n_numbers += k.n_numbers
    mode = inf.best.cand.describe().get("mode", "")
    start = min((o.a.place.order for o in objs if inside(o.a.place)), default=min(o.a.place.order for o in objs))
    where = f"cell {start[0]}" if start[0] else f"line {start[1]}"
    return f"another example from {where} on, judged on its own: {mode}"
