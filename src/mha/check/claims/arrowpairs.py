"""Scores and their weights listed key by key, one line each, as an intuition section draws them:

    ├── Key1 → similarity 0.8 → weight 0.5
    ├── Key2 → similarity 0.2 → weight 0.1
    └── Key3 → similarity 0.9 → weight 0.4

The weights are the softmax of the scores listed with them, so each line is a claim a reader can check with the
other lines' scores.  Identity: at least two lines in a row, each naming a score and a weight by word and giving a
number for each, the weights summing to 1 within their rounding.  Because a section like this often leaves out a
scale (the scores divided by √d_k before the softmax), the weights are judged only when no scale at all explains
them: if softmax(scores / s) gives every printed weight for some s > 0, nothing is said.  A weight within one unit of
its last digit is an illustration's rounding, as for a written softmax (softmax.py's _rough), not an error.  Only
documents read as text lines are scanned.
"""

from __future__ import annotations

import re

import numpy as np

from ..numbers import Num
from ..report import Finding

_SCORE = r"(?:相似度|相关性|注意力分数|分数|得分|similarity|score|logit)"
_WEIGHT = r"(?:注意力权重|权重|概率|weight|probability|prob)"
_NUM = r"([-−]?\d+(?:\.\d+)?)"
_PAIR = re.compile(_SCORE + r"\s*[:：=]?\s*" + _NUM + r"\s*(?:→|->|=>|⟶|,|，|;)\s*(?:softmax\s*)?(?:→|->)?\s*"
                   + _WEIGHT + r"\s*[:：=]?\s*" + _NUM + r"(?![\d.])", re.I)
QUOTE_LINES = 8          # lines after the list where its weights may be written again in order
_SCALES = np.exp(np.linspace(np.log(0.05), np.log(50.0), 400))


def _rows(lines: list[str]) -> list[list[tuple[int, Num, Num]]]:
    """Runs of consecutive lines with one score → weight pair each."""
    runs: list[list[tuple[int, Num, Num]]] = []
    run: list[tuple[int, Num, Num]] = []
    for i, s in enumerate(lines, start=1):
        m = list(_PAIR.finditer(s))
        if len(m) == 1:
            x, w = (Num.parse(g.replace("−", "-")) for g in m[0].groups())
            run.append((i, x, w))
            continue
        if len(run) >= 2:
            runs.append(run)
        run = []
    if len(run) >= 2:
        runs.append(run)
    return runs


def _explained(x: np.ndarray, ws: list[Num]) -> bool:
    """Does softmax(x / s) give every printed weight, for some scale s?"""
    for s in _SCALES:
        e = np.exp((x - x.max()) / s)
        p = e / e.sum()
        if all(w.contains(float(q)) for w, q in zip(ws, p)):
            return True
    return False


def arrow_pairs(findings: list[Finding], text: str) -> list[Finding]:
    """Error findings for weights that are not the softmax of the scores listed with them."""
    found = {f.line for f in findings if f.severity == "error" and f.cell is None}
    out: list[Finding] = []
    for run in _rows(text.splitlines()):
        x = np.array([r[1].value for r in run], dtype=float)
        ws = [r[2] for r in run]
        if any(not 0 <= w.value <= 1 for w in ws) or \
                abs(sum(w.value for w in ws) - 1) > sum(w.hi - w.lo for w in ws) / 2 + 1e-9 or _explained(x, ws):
            continue
        e = np.exp(x - x.max())
        p = e / e.sum()
        unit = [w.hi - w.lo for w in ws]
        if all(abs(w.value - q) <= u + 1e-9 for w, q, u in zip(ws, p, unit)):
            continue                         # within a unit of the last digit everywhere: an illustration
        wrong = []
        for (line, xs, w), q in zip(run, p):
            if w.contains(float(q)) or line in found:
                continue
            wrong.append(Finding(line, None, f"weight beside score {xs.text}", w.text, float(q), w.rounded(float(q)),
                                 "softmax", "the softmax of the scores listed with it gives " + w.rounded(float(q)),
                                 "wrong_value"))
            found.add(line)
        out.extend(wrong)
        if wrong:
            out.extend(_quoted_again(text.splitlines(), run, list(p), found))
    return out


def _quoted_again(lines: list[str], run, p: list[float], found: set[int]) -> list[Finding]:
    """The same weights written again in order a few lines on (`0.5 × V1 + 0.1 × V2 + 0.4 × V3`): a line whose
    decimal numbers are exactly the run's weights, three at least."""
    texts = [w.text for _, _, w in run]
    if len(texts) < 3:
        return []
    out = []
    last = run[-1][0]
    for i in range(last + 1, min(last + QUOTE_LINES, len(lines)) + 1):
        if re.findall(r"(?<![\w.])\d+\.\d+(?![\w.])", lines[i - 1]) == texts and i not in found:
            bad = [(w, q) for (_, _, w), q in zip(run, p) if not w.contains(float(q))]
            w, q = bad[0]
            out.append(Finding(i, None, "weights beside the scores (quoted again)", w.text, float(q),
                               w.rounded(float(q)), "softmax",     # one slip, one finding: the copy is a note
                               f"follows from line {run[0][0]}: the wrong weights of lines {run[0][0]}-{last} written "
                               "again", "wrong_value", severity="note"))
            found.add(i)
    return out
