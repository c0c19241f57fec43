"""A softmax written out with its argument: `softmax([0.30, -0.11, -0.37]) = [0.46, 0.31, 0.24]`.  The line names
its own input, so it is judged against its own printed argument whatever the configuration, as an arithmetic
line is (identity comes from the words on the line, not from the value judged).

Authors who write the call out often round hard for readability (`softmax([2, 4, 4]) = [0.0, 0.5, 0.5]`), so an
entry printed to one or two decimals is called wrong only when it is more than one unit of its last digit away
from the exact value; longer ones are claims at their own precision.  Both are widened by what the rounding of
the argument can move them; a digit slip or a wrong row is further than that."""

from __future__ import annotations

import re
from dataclasses import dataclass

import numpy as np

from ..infer import Obj
from ..numbers import Num, half_unit
from ..report import Finding
from .common import _simple_kind

# softmax([..]) as written, or as code calls it: np.array / torch.tensor around the list, dim= or axis= after it
# (`F.softmax(torch.tensor([4.0, -1.0, 2.1]), dim=0)`, `scipy.special.softmax(np.array([...]))`)
_WRAP = r"(?:(?:np|numpy|torch|tf|jnp)\.(?:array|asarray|tensor|constant|Tensor)\s*\(\s*)?"
_KW = r"(?:,\s*(?:dim|axis|dtype)\s*=\s*[\w.+-]+\s*)?"
_CALL = re.compile(r"(?:\\(?:text|mathrm|operatorname)\{)?(?<![\w])(?:[A-Za-z_][\w.]*\.)?softmax\}?\s*\(\s*"
                   + _WRAP + r"\\?\[([^\[\]]*)\\?\]\s*" + _KW + r"\)?\s*" + _KW + r"\)\s*$", re.I)
# the same said in words: "Softmax of [4, 3, 2] ≈ [0.67, 0.24, 0.09]"
_WORDED = re.compile(r"(?<![\w])softmax\s*of\s*\\?\[([^\[\]]*)\\?\]\s*$", re.I)
_NEG_INF = re.compile(r"^[-−]\s*(?:inf|\\infty|∞|infinity)$", re.I)


@dataclass
class AppliedSoftmaxClaim:
    y: Obj                 # the printed result, one row
    x: list[Num]           # the argument as printed (-inf entries exact)


def applied_softmax(objs: list[Obj]) -> list[AppliedSoftmaxClaim]:
    out = []
    for o in objs:
        a = o.a
        if a.lead or len(a.rows) != 1 or a.rows[0] is None or any(c is None for c in a.rows[0]) or \
                any(c.value > 1 + 1e-9 or c.value < 0 for c in a.rows[0]):
            continue             # a result outside [0, 1] is no row of weights (shapes, counts)
        for label in [a.label] + list(a.labels):
            x = _argument(label)
            if x is not None and len(x) == len(a.rows[0]) >= 2:
                out.append(AppliedSoftmaxClaim(o, x))
                break
    return out


def _argument(label: str) -> list[Num] | None:
    m = _CALL.search((label or "").strip()) or _WORDED.search((label or "").strip())
    if not m:
        return None
    out = []
    for t in m.group(1).split(","):
        t = t.strip()
        if _NEG_INF.match(t):
            out.append(Num(-np.inf, t, -np.inf, -np.inf, 0, 0))
            continue
        try:
            out.append(Num.parse(t))
        except ValueError:
            return None
    return out if any(np.isfinite(n.value) for n in out) else None


class AppliedSoftmaxJudging:
    """Judge methods for AppliedSoftmaxClaim."""

    def judge_applied_softmax(self, c: AppliedSoftmaxClaim) -> None:
        if id(c.y.a) in getattr(self, "worked_members", ()):
            return       # its argument has a slip that its own line reports; the pair of arrays judges the weights
        if (c.y.a.place.cell, c.y.a.line) in getattr(self, "slipped_rows", ()):
            return       # the weights are the softmax of their scores but one, found slipped (claims/slippedscore.py)
        self.n_claims += 1
        x = np.array([n.value for n in c.x])
        e = np.where(np.isfinite(x), np.exp(x - x[np.isfinite(x)].max()), 0.0)
        p = e / e.sum()
        # an argument written to two decimals or more is the rounding of scores worked at full precision
        rounded = max((n.decimals or 0) for n in c.x if np.isfinite(n.value)) >= 2
        half = np.array([half_unit(n.decimals) if rounded and n.decimals is not None and np.isfinite(n.value)
                         else 0.0 for n in c.x])
        band = 1.25 * np.abs(np.diag(p) - np.outer(p, p)) @ half
        for j, num in enumerate(c.y.a.rows[0]):
            self.n_numbers += 1
            exact = float(p[j])
            # [0.0, 0.5, 0.5] "for readability": within one unit of the last digit (its half-unit and one more half)
            coarse = num.half if (num.decimals or 0) <= 2 else 0.0
            if num.contains(exact, float(band[j]) + coarse) or _truncated(num, exact):
                continue
            line = num.line or c.y.a.line
            if any((g.line, g.cell, g.printed) == (line, c.y.a.place.cell, num.text) or
                   ((g.line, g.cell, g.step) == (line, c.y.a.place.cell, "softmax") and g.severity == "error")
                   for g in self.findings):
                continue                 # found already, or a note (it follows from a rounded value printed before),
                                         # or the row's one finding was given (softmax.SoftmaxJudging: unscaled row)
            self.add(Finding(line, c.y.a.place.cell, f"softmax of its written argument[{j + 1}]", num.text, exact,
                             num.rounded(exact), "softmax",
                             f"softmax of the argument written on the line gives {num.rounded(exact)}",
                             _simple_kind(num, exact)))


def _truncated(num: Num, exact: float) -> bool:
    """0.99999988 for 0.9999998875: the digits cut off rather than rounded, as people often write a long
    probability by hand; that is the exact value at the printed precision, not a slip."""
    if num.decimals is None or num.decimals < 3 or not np.isfinite(exact):
        return False
    scale = 10 ** num.decimals
    return abs(np.trunc(exact * scale) - round(num.value * scale)) < 0.5
