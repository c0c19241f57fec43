"""The shares claim: a normaliser written out as a sum, and the shares stated in words after it, in the order of
its terms ("Z ≈ 30.0 + 16.4 + 8.2 = 54.6, so it attends ≈ 0.55 to 'ball', 0.30 to 'heavy' and 0.15 to 'robot'").
Each share is its term over the total.  The line carries its own identity: the shares are the numbers that follow
the total in reading order (on its line and the next three), each below 1 (or a percent), at least three of them;
a share is judged only when at least two of the others, and two thirds of them, are their terms' shares, so that
the order is known to be the sum's."""

from __future__ import annotations

from dataclasses import dataclass

from .. import numbers as nb
from ..objects import Chain, Document, ExprPart
from ..readers.shares import said_in_order
from ..report import Finding
from .common import _simple_kind

REACH = 3               # lines after the normaliser's line where its shares may stand


@dataclass
class SharesClaim:
    chain: Chain
    terms: list[nb.Num]
    total: nb.Num
    shares: list[tuple[nb.Num, bool]]      # (as printed, written as a percent)


def share_claims(doc: Document) -> list[SharesClaim]:
    said = said_in_order(doc.hints)
    worked = {(c.place.cell or 0, c.place.line) for c in doc.chains
              if any(isinstance(p, ExprPart) and isinstance(p.expr, nb.Op) for p in c.parts)}
    out = []
    for c in doc.chains:
        found = _normaliser(c)
        if found is None:
            continue
        terms, total = found
        cell, line = c.place.cell or 0, c.place.line
        near = [(k, n, pct) for k, n, pct in said if k[0] == cell and line <= k[1] <= line + REACH]
        at = next((i for i, (k, n, _) in enumerate(near) if k[1] == line and n.text == total.text), None)
        after = near[at + 1:] if at is not None else [x for x in near if x[0][1] > line]
        shares = []
        for k, n, pct in after:
            if len(shares) == len(terms) or not (0 <= n.value <= (100 if pct else 1)):
                break
            if k[1] > line and (k[0], k[1]) in worked:
                break                # the factors of the next line's arithmetic (`Q[3] = 0.6×0.2 + ...`), not shares
            shares.append((n, pct))
        if len(shares) >= 3:
            out.append(SharesClaim(c, terms, total, shares))
    return out


def _normaliser(c: Chain) -> tuple[list[nb.Num], nb.Num] | None:
    """(terms, total) of `t1 + t2 + ... = total` with three or more printed terms that add up to the total."""
    for a, b in zip(c.parts, c.parts[1:]):
        if not (isinstance(a, ExprPart) and isinstance(b, ExprPart)):
            continue
        terms = [nb.plain_number(t) for t in nb.terms_of(a.expr)]
        total = nb.plain_number(b.expr)
        if len(terms) < 3 or total is None or any(t is None or t.value <= 0 for t in terms) or total.value <= 0:
            continue
        s = nb.evaluate(a.expr)
        if s.lo - total.half - 1e-9 <= total.value <= s.hi + total.half + 1e-9:
            return terms, total
    return None


def _share(t: nb.Num, total: nb.Num, n: nb.Num, pct: bool):
    e = nb.Op("/", (nb.Lit(t), nb.Lit(total)))
    if pct:
        e = nb.Op("*", (e, nb.Lit(nb.Num.exact_value(100.0, "100"))))
    return nb.evaluate(nb.exact_below(e, n.decimals or 0))


class SharesJudging:
    """Judge methods for SharesClaim."""

    def judge_shares(self, c: SharesClaim) -> None:
        try:
            ivs = [_share(t, c.total, n, pct) for t, (n, pct) in zip(c.terms, c.shares)]
        except (ArithmeticError, ZeroDivisionError):
            return
        ok = [iv.lo <= n.hi + 1e-9 and n.lo - 1e-9 <= iv.hi for iv, (n, _) in zip(ivs, c.shares)]
        if sum(ok) < 2:
            return                           # not this sum's shares: numbers that happen to follow it
        self.n_claims += 1
        for k, (iv, (n, pct)) in enumerate(zip(ivs, c.shares)):
            self.n_numbers += 1
            others = ok[:k] + ok[k + 1:]
            if ok[k] or sum(others) < 2 or 3 * sum(others) < 2 * len(others):
                continue
            t = c.terms[k]
            self.add(Finding(n.line or c.chain.place.line, c.chain.place.cell,
                             f"share {k + 1} of {c.total.text} ({t.text}/{c.total.text})",
                             n.text + ("%" if pct else ""),
                             iv.value, n.rounded(iv.value), "softmax",
                             f"its term over the normaliser gives {n.rounded(iv.value)}", _simple_kind(n, iv.value)))
