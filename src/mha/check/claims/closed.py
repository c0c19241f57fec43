"""The closed-form claim: a chain stated exactly (`A^{(1)}_{33} = \\frac{e^{1/\\sqrt{2}}}{e^{1/\\sqrt{2}} + 2}`,
`A[3,1] = 1/(2 + exp(1/sqrt(2))) = 0.248255078258`, "which is 0.377540668798"), judged exactly.

A closed form is right when it equals the entry it names to 50 digits (claims/exact_values.py: sympy builds both
numbers, mpmath compares them); a long decimal is right when it is that entry correctly rounded at its own
precision, one unit off in the last digit is a note (truncated, not rounded).  A wrong closed form is a finding
whose exact value is given as a closed form too, written as `mha explain --exact` writes it.

Identity before verdict: the entry is named by the chain's label (or, for a decimal in words, by the closed form
just before it on its line); an unnamed value is only counted when it equals some entry.  The configuration must
explain at least as many of the document's named exact values as it contradicts, or none is called wrong (each
is reported as not checked).  One chain, one finding: its first wrong number.
"""

from __future__ import annotations

import math
import re
from dataclasses import dataclass, field, replace
from typing import Any

from .. import labels as lb
from .. import numbers as nb
from ..infer.scalars import UNNAMED, bases_of, entries, scalars_of
from ..model import View
from ..objects import Chain, ExprPart, LabelPart
from ..readers.closed import _plain, chain_refs, exact_kind, face_value, index_label, is_closed, precise_parts
from ..report import Finding, NotChecked
from .common import _simple_kind


@dataclass
class ClosedClaim:
    chain: Chain
    mixed: bool = False          # closed forms beside printed short decimals: those are an ArithClaim's


@dataclass
class _Verdict:
    """What one exactly stated chain was found to be about, and what is wrong with it."""
    chain: Chain
    named: bool
    entry: tuple[View, int, int] | None = None
    finding: Finding | None = None
    numbers: int = 0
    notes: list[Finding] = field(default_factory=list)


class ClosedJudging:
    """Judge methods for ClosedClaim."""

    def judge_closed(self, claim: ClosedClaim) -> None:
        if not claim.mixed:
            self.n_claims += 1           # a mixed chain is counted by its arithmetic claim
        v = self.closed_verdicts().get(id(claim.chain))
        if v is None:
            return
        self.n_numbers += v.numbers
        for f in v.notes + ([v.finding] if v.finding else []):
            self.add(f)

    def closed_slip(self, c: Chain) -> bool:
        """A wrong closed form in this chain: its printed decimals carry the same slip (one slip, one finding)."""
        v = self.closed_verdicts().get(id(c))
        return v is not None and v.finding is not None

    def closed_verdicts(self) -> dict[int, _Verdict]:
        """Every exactly stated chain judged at once: the configuration must explain most named ones."""
        if getattr(self, "_closed", None) is not None:
            return self._closed
        self._closed = {}
        chains = [c for c in self.doc.chains if exact_kind(c)]
        if self.vs is None or not chains:
            return self._closed
        from .exact_values import ExactTrace
        self._exact = ExactTrace.of(self.mapping)
        written = bases_of(scalars_of(self.doc))        # how the exact values count rows and heads
        bases = replace(self.inf.bases, row=written.row, head=written.head)
        for c in chains:
            self._closed[id(c)] = self._closed_verdict(c, bases, chains)
        named = [v for v in self._closed.values() if v.named]
        wrong = [v for v in named if v.finding is not None]
        if wrong and len(named) - len(wrong) < len(wrong):
            for v in wrong:                 # the configuration explains too few of them to call any wrong
                self.not_checked.append(NotChecked(v.finding.line, v.finding.cell, _text(v.chain),
                                                   "the configuration explains too few of the document's exact "
                                                   "values to judge this one", v.finding.claim.split(":")[0]))
                v.finding = None
        return self._closed

    def _closed_verdict(self, c: Chain, bases, chains: list[Chain]) -> _Verdict:
        """Each entry the chain names against each exactly stated number of it; an unnamed chain against the
        entry it equals, if any."""
        refs = [bases.resolve(r) for r in chain_refs(c)]
        parts = [p for _, p in precise_parts(c)]
        lead = None                          # a decimal in words after the closed form on its line
        if not refs and not any(is_closed(p.expr) for p in parts):
            lead = _lead(c, chains)
            refs = [bases.resolve(r) for r in chain_refs(lead)] if lead is not None else []
        v = _Verdict(c, any(r.row is not None and r.col is not None for r in refs))
        first = parts[0] if lead is None else next(p for _, p in precise_parts(lead) if is_closed(p.expr))
        for ref in refs or [None]:
            cands = entries(ref, self.vs) if ref is not None else \
                [(w, i, j) for node in UNNAMED for w in self.vs.get(node, b=0)
                 for i in range(w.M.shape[0]) for j in range(w.M.shape[1])]
            entry = next((e for e in cands if self._states(first, e)), None)
            if entry is None and lead is not None:
                return v                     # its closed form is wrong: that chain has the finding
            if entry is None and ref is not None and ref.row is not None and ref.col is not None and cands:
                entry = cands[0]
            if entry is None:
                continue
            v.entry = entry
            for p in parts:
                v.numbers += 1
                if not self._states(p, entry):
                    self._closed_finding(v, p, ref)
                    return v
        return v

    # ---------------------------------------------------------- one number against one entry
    def _states(self, p: ExprPart, e: tuple[View, int, int]) -> bool:
        """Does this closed form or long decimal state the entry (exactly, or correctly rounded)?"""
        view, i, j = e
        x = float(view.M[i, j])
        band = float(view.band[i, j]) if hasattr(view.band, "shape") else float(view.band)
        exact = self._exact.value(view, i, j) if self._exact is not None and band == 0 else None
        n = nb.plain_number(p.expr)
        if n is not None:                    # a long decimal
            if exact is None:
                return n.contains(x, band + 1e-15 * abs(x))
            from .exact_values import printed_decimal, rounded_text
            return printed_decimal(n.text) == printed_decimal(rounded_text(exact, n.decimals))
        from .exact_values import same, to_sympy
        mine = to_sympy(p.expr)
        if mine is None:
            return False
        if exact is None:
            return abs(float(mine.evalf(20)) - x) <= band + 1e-12 * max(1.0, abs(x))
        return same(mine, exact)

    def _closed_finding(self, v: _Verdict, p: ExprPart, ref: lb.Ref | None) -> None:
        view, i, j = v.entry
        c = v.chain
        x = float(view.M[i, j])
        exact = self._exact.value(view, i, j) if self._exact is not None else None
        step = "output" if ref is not None and ref.nodes[0] == "Y" and view.node in ("Y", "O_concat") \
            else self.step_of(view.node)
        name = lb.SHOWN.get(view.node, view.node) + (f"^({view.h + 1})" if view.h is not None else "") + \
            f"[{i + 1},{j + 1}]"
        n = nb.plain_number(p.expr)
        line = (n.line if n is not None and n.line else 0) or _first_line(p) or c.place.line
        if n is not None:
            from .exact_values import printed_decimal, rounded_text
            want = rounded_text(exact, n.decimals) if exact is not None else n.rounded(x)
            off = abs(printed_decimal(n.text) - printed_decimal(want)) if exact is not None else None
            if off is not None and off <= printed_decimal("1").scaleb(-n.decimals):
                v.notes.append(Finding(line, c.place.cell, f"{name}: {_text(c)}", n.text, x, want,
                                       step, "one unit in the last digit (truncated, or rounded twice)",
                                       "rounded_sum", "note"))
                return
            kind = _simple_kind(n, x)
            cause = f"swapped digits: the value rounds to {want}" if kind == "swapped_digits" else \
                f"the exact value rounds to {want}"
            shown = rounded_text(exact, n.decimals + 4) + "…" if exact is not None else x
            v.finding = Finding(line, c.place.cell, f"{name}: {_text(c)}", n.text, shown, want, step, cause, kind)
            return
        closed = self._closed_text(view, i, j)
        cause, kind = self._closed_cause(p, view, i, j)
        label = _label(c)
        v.finding = Finding(line, c.place.cell, f"{name}" + (f" ({label})" if label else ""), p.text, closed or x,
                            f"{x:.12g}", step, f"wrong closed form{cause}", kind)

    def _closed_cause(self, p: ExprPart, view: View, i: int, j: int) -> tuple[str, str]:
        """A wrong scale is the usual slip of a closed form (√2 where √d_k is √3): the entry under each other
        scale a person might use, against the value written."""
        from ..model import Views, compute
        x = face_value(p.expr)
        if x is None or view.node not in ("S", "E", "A", "O", "O_concat", "Y", "row_sum"):
            return "", "wrong_closed_form"
        for label, scale in _SCALES:
            t = compute({**self.mapping, "scale": scale})
            if t is None:
                continue
            for w in Views.of(t).get(view.node, view.b or 0, view.h):
                if w.M.shape == view.M.shape and abs(float(w.M[i, j]) - x) <= 1e-9 * max(1.0, abs(x)):
                    return f" ({label})", "wrong_scale"
        return "", "wrong_closed_form"

    def _closed_text(self, view: View, i: int, j: int) -> str:
        """The entry's closed form in the document's own notation (LaTeX, or Unicode for plain text)."""
        if self._exact is None:
            return ""
        latex = re.sub(r"e\^\{1\}", "e", self._exact.latex(view, i, j))       # e^{1} is e
        if self.doc.format in ("txt", "ipynb") and latex:
            from ...render.unicode import to_unicode
            return to_unicode(latex)
        return latex


_SCALES = [(f"scores divided by √{d}", 1 / math.sqrt(d)) for d in range(2, 9)] + \
    [("scores not scaled", "none")] + [(f"scores divided by {d}", 1 / d) for d in range(2, 9)]


def _text(c: Chain) -> str:
    """The chain as a reader sees it: A_{33} as A_33, but e^{1/2} keeps its braces."""
    text = re.sub(r"\s+([_^])", r"\1", c.text if c.place.where != "prose" else _plain(c.text))
    return re.sub(r"([_^])\{([\w,]*)\}", r"\1\2", text)[:80]


def _lead(c: Chain, chains: list[Chain]) -> Chain | None:
    """The closed form a decimal in words restates: the one just before it on its line, else just after."""
    k = chains.index(c)
    return next((x for x in chains[:k][::-1] + chains[k + 1:] if x.place.line == c.place.line
                 and x.place.cell == c.place.cell and any(is_closed(p.expr) for _, p in precise_parts(x))), None)


def _label(c: Chain) -> str:
    """The name the chain gives its entry, as a reader sees it (α_12, A[3,1])."""
    text = next((p.text if isinstance(p, LabelPart) else index_label(p.expr) for p in c.parts
                 if isinstance(p, LabelPart) or (isinstance(p, ExprPart) and index_label(p.expr))), "")
    return re.sub(r"([_^])\{([\w,]*)\}", r"\1\2", re.sub(r"\s+([_^])", r"\1", text))[:40]


def _first_line(p: ExprPart) -> int:
    return next((n.line for n in nb.leaves(p.expr) if n.line), 0)


def closed_claim(c: Chain) -> list[Any]:
    """[ClosedClaim] for a chain with a closed form or a long decimal (see readers.closed.exact_kind), else []."""
    kind = exact_kind(c)
    return [ClosedClaim(c, kind == "mixed")] if kind else []
