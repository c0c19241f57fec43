"""One query's scores, or its weights, written as scalars in prose (`q1 · k1 = 112`, `q1 · k2 = 96`; "softmax gives
weights `0.88` and `0.12`"): read together, they are one row, as a reader takes them, so that a page that prints no
array at all can still be checked from the scores it states (the search starts from a row of raw scores).

A row is made only where the page prints no array of its inputs or scores: the scores of one query, named entry by entry
with one query index and consecutive key indices, within a few lines; or two or more unindexed numbers under one
name for the weights on one line.  Each number keeps its own line."""

from __future__ import annotations

import re

from .. import labels as lb
from .. import numbers as nb
from ..numbers import Num
from ..objects import Array, Chain, Document, ExprPart, LabelPart, Place

_NEAR = 3             # lines a row's entries may spread over


def _named_value(c: Chain) -> tuple[lb.Ref, object] | None:
    """(the entry the chain's name names, the number it ends with) for `name = ... = number`."""
    if len(c.parts) < 2 or not isinstance(c.parts[-2], LabelPart) or not isinstance(c.parts[-1], ExprPart):
        return None
    n = nb.plain_number(c.parts[-1].expr)
    ref = lb.parse_label(c.parts[-2].text)        # the name just before the number ("**Score**: ... q1·k1 = 112")
    if n is None or ref is None:
        return None
    return ref, n


def scalar_rows(doc: Document, text: str | None = None) -> None:
    """Add the rows that scalars name (module note) to the document's arrays (the weights' from the text's lines,
    a file read as lines: not a notebook's cells)."""
    printed = {n for a in doc.arrays for r in [lb.parse_label(a.label)] if r is not None for n in r.nodes}
    if printed & {"X", "Q", "K", "V", "QKt", "S"}:
        return            # the page prints its vectors or scores: the scalars are judged as entries of those
    named = [(c, *v) for c in doc.chains for v in [_named_value(c)] if v is not None]
    if _score_rows(doc, [x for x in named if set(x[1].nodes) & {"QKt", "S"}], printed) and text is not None:
        _weight_rows(doc, text.split("\n"), printed)      # only beside scores stated as scalars


def _score_rows(doc: Document, named: list, printed: set) -> bool:
    """Add each query's row of scores named entry by entry; True if one was added."""
    if printed & {"QKt", "S"}:
        return False
    added = False
    groups: dict[tuple, list] = {}
    for c, ref, n in named:
        if ref.raw_row is None or ref.raw_col is None or ref.raw_head is not None:
            continue
        groups.setdefault((ref.nodes, ref.raw_row, c.place.cell), []).append((c, ref, n))
    for (nodes, i, cell), items in groups.items():
        items.sort(key=lambda x: x[1].raw_col)
        cols = [r.raw_col for _, r, _ in items]
        lines = [c.place.line for c, _, _ in items]
        if len(items) < 2 or cols != list(range(cols[0], cols[0] + len(cols))) or cols[0] not in (0, 1) or \
                max(lines) - min(lines) > _NEAR:
            continue
        label = f"s_{i}" if nodes == ("S",) else f"e_{i}"
        _add(doc, [n for _, _, n in items], items[0][0], label)
        added = True
    return added


# "the weights are `0.665`, `0.245` and `0.090`", "pesos que suman 1: `0.88` y `0.12`", "权重：0.6、0.4"
_WEIGHT_WORDS = r"(?:attention\s+)?weights|pesos|poids|Gewichte|pesi|веса|权重|가중치|重み"
_N = r"`?(0?\.\d+|1\.0*|0|1)`?"
_JOIN = r"\s*(?:,|、|，|\band\b|\by\b|\bet\b|\bund\b|\be\b|和|与|及)\s*"
_LISTED = re.compile(rf"(?i)(?<![A-Za-z])(?P<name>{_WEIGHT_WORDS})(?P<between>[^\d\n`]{{0,40}}?)"
                     rf"(?P<nums>{_N}(?:{_JOIN}{_N})+)(?![\d.]*\d)")


# "weights that sum to 1:", "pesos que suman 1:", "权重之和为 1": the sum they have, not one of them
_SUM_TO_ONE = re.compile(r"(?i)(?:sum(?:s|ming)?\s+to|add(?:s|ing)?\s+up\s+to|suman?|somam?|somment\s+à|"
                         r"summieren\s+sich\s+zu|之?和为|加起来(?:等于|为)?|总和为)\s*1(?:\.0+)?(?!\d)")


def _weight_rows(doc: Document, lines: list[str], printed: set) -> None:
    """A line that names the weights and lists two or more numbers in [0, 1] after the name."""
    if "A" in printed:
        return
    for k, line in enumerate(lines):
        m = _LISTED.search(_SUM_TO_ONE.sub(lambda x: " " * len(x.group(0)), line))
        if not m or re.search(r"\d", m.group("between")):
            continue
        texts = re.findall(_N, m.group("nums"))
        nums = [Num.parse(t, k + 1) for t in texts]
        if len(nums) >= 2 and all(0 <= n.value <= 1 for n in nums):
            doc.add_array(Array([nums], Place(k + 1, None, "prose"), label=m.group("name"), labels=[m.group("name")],
                                style="list"))


def _add(doc: Document, nums: list, c: Chain, label: str) -> None:
    doc.add_array(Array([list(nums)], Place(c.place.line, c.place.cell, c.place.where), label=label, labels=[label],
                        style="list", context=c.context))
