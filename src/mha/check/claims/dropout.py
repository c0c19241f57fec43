"""The dropout claim: a printout and, a few lines on, the same printout after dropout in training mode
(`input: [1.0, 2.0, 3.0]`, `Dropout(p=0.2)`, `output: [1.25, 0.0, 3.75]`).  Each entry of the second is 0 (dropped)
or the first's entry times 1/(1-p).  The pair carries its own identity, as a softmax pair does: the words name
dropout (and do not deny it: "no dropout here"), the shapes agree, and the scale is the one that most kept entries
share (or 1/(1-p) from a stated p, when the kept entries agree with it), at least three of them, with one kept
entry off it at most.  That entry is judged only when at least two other kept entries, and two thirds of them,
are on the scale: a printout that disagrees more is not this one's dropout (W_K printed under W_Q is not)."""

from __future__ import annotations

import re
from dataclasses import dataclass

from ..model import half_units
from ..objects import Array, Chain, Document, LabelPart
from ..report import Finding
from .common import _simple_kind

WORDS = re.compile(r"dropout|随机失活|丢弃", re.I)
NOT = re.compile(r"(?:\bno|\bwithout|\bnot|\bnor|\bskip\w*|\bdisabled?)\W{1,3}(?:\w+\W{1,3}){0,2}?dropout"
                 r"|(?:不|无|没有|未|去掉|关闭)(?:使用|用|加|做|应用|采用|经过)?\s*(?:dropout|随机失活)", re.I)
STATED_P = re.compile(r"(?:dropout\s*\(\s*(?:p\s*=\s*)?|\bp\s*=\s*|丢弃概率\s*[=为]?\s*)(0?\.\d+)", re.I)
REACH = 8            # lines from the printout to its dropped-out copy


@dataclass
class DropoutClaim:
    x: Array         # before dropout, as printed
    y: Array         # after dropout, as printed
    p: float | None  # the rate the words state, if they state one


def dropout_pairs(doc: Document) -> list[DropoutClaim]:
    """Each printout after words that name dropout, with the nearest earlier printout of its shape (the one of
    the same name first: `位置1` after dropout pairs with `位置1` before it) a few lines above, in the same cell."""
    out = []
    arrays = [a for a in doc.arrays if not a.elided and a.numbers and not a.lead]
    for k, y in enumerate(arrays):
        before = [x for x in arrays[max(0, k - 24):k] if x.shape == y.shape and x.place.cell == y.place.cell
                  and 0 < y.line - x.line <= REACH]
        if not before:
            continue
        same = [x for x in before if x.label and x.label == y.label]
        x = (same or before)[-1]
        words = _words_between(doc.chains, x, y)
        if not WORDS.search(words) or NOT.search(words):
            continue                  # "no dropout here": the two printouts are something else
        m = STATED_P.search(words)
        p = float(m.group(1)) if m else None
        out.append(DropoutClaim(x, y, p if p is not None and 0 < p < 1 else None))
    return out


def _words_between(chains: list[Chain], x: Array, y: Array) -> str:
    """The labels and prose from the first printout to the second, and what names the second."""
    texts = [y.label, *y.labels, y.context.before]
    for c in chains:
        if c.place.cell == y.place.cell and x.line <= c.place.line <= y.line:
            texts += [p.text for p in c.parts if isinstance(p, LabelPart)]
    return " ".join(t for t in texts if t)


class DropoutJudging:
    """Judge methods for DropoutClaim."""

    def judge_dropout(self, c: DropoutClaim) -> None:
        pairs = []
        for rx, ry in zip(c.x.rows, c.y.rows):
            pairs += [(a, b) for a, b in zip(rx or [], ry or []) if a is not None and b is not None]
        band = half_units([[a for a, _ in pairs]])
        bands = [0.0] * len(pairs) if band is None else [float(h) for h in band[0]]
        kept = [(a, b, h) for (a, b), h in zip(pairs, bands) if b.value != 0]
        scale = _scale(kept, c.p)
        if scale is None:
            return
        ok = [_on(a, b, h, scale) for a, b, h in kept]
        if len(ok) - sum(ok) > 1 or sum(ok) < 2:
            return                    # a copy after dropout differs from its scale in one slip at most
        self.n_claims += 1
        for k, (a, b, h) in enumerate(kept):
            self.n_numbers += 1
            others = ok[:k] + ok[k + 1:]
            if ok[k] or sum(others) < 2 or 3 * sum(others) < 2 * len(others):
                continue
            if _row_off(c.x, a):
                continue              # the weights' own row does not sum to 1: the slip is there, not in the copy
            exact = a.value * scale
            self.add(Finding(b.line or c.y.line, c.y.place.cell, f"dropout of {a.text} (line {a.line or c.x.line})",
                             b.text, exact, b.rounded(exact), "dropout",
                             f"the kept entries are the input times 1/(1-p) = {scale:g}", _simple_kind(b, exact)))


def _row_off(x, a) -> bool:
    """Is `a` in a row of weights that does not sum to 1 within its rounding, where the other rows do?"""
    rows = [r for r in x.rows if r and None not in r]
    if len(rows) < 2 or not all(0 <= n.value <= 1 for r in rows for n in r):
        return False
    def off(r) -> bool:
        return abs(sum(n.value for n in r) - 1) > sum(n.half for n in r) + 1e-9
    mine = next((r for r in rows if any(n is a for n in r)), None)
    return mine is not None and off(mine) and sum(off(r) for r in rows) == 1


def _on(a, b, h: float, scale: float) -> bool:
    """Is the kept entry b the input a times the scale, within their rounding?"""
    return b.contains(a.value * scale, h * scale)


def _scale(kept: list, p: float | None) -> float | None:
    """The scale most kept entries share (the stated 1/(1-p) first), above 1: else None (no dropout seen)."""
    ratios = [b.value / a.value for a, b, _ in kept if a.value != 0]
    # a ratio of rounded entries is near the scale; the rate an author picks has two decimals (p = 0.1, 0.25)
    nice = [1.0 / (1.0 - round(1.0 - 1.0 / r, 2)) for r in ratios if r > 1.0 and round(1.0 - 1.0 / r, 2) < 1.0]
    cands = ([1.0 / (1.0 - p)] if p is not None else []) + nice + ratios
    best = None
    for s in cands:
        if not s > 1.0 + 1e-9:
            continue
        n = sum(_on(a, b, h, s) for a, b, h in kept)
        if n >= 2 and (best is None or n > best[0]):
            best = (n, s)
    return None if best is None else best[1]
