"""A table with a column of scores and a column of their softmax weights, one row per key:

    | Second | Attention score | Softmax weight |
    |---|---|---|
    | 1 | 2.6 | 0.18 |
    | 2 | 0.9 | 0.03 |
    | 3 | 4.1 | **0.79** ← most of the weight |

The header says which column is which; the weights column is the softmax of the scores column, as a sentence
saying so would (softmaxsaid.py), and the two are tied (`Array.softmax_of`) to be judged against each other
(claims/softmax.py), whatever the configuration (t216a, a walkthrough's pooling table).

Only a plain case is read: one score column (score, logit; 分数, 得分, 점수, スコア, puntaje), one weight column
that names the softmax or the weights (softmax, weight, probability; 权重, 概率, 가중치, 重み, peso), neither naming
another operation (a scale, a temperature, a mask); every row a number in both cells (emphasis and a remark after the
number allowed); two rows or more; the weights can be the scores' softmax as far as their values say (in [0, 1],
summing to 1 within the rounding or one slip, not the scores over their sum); every weight within 0.05 of the plain
softmax; no scale 1/√d that gives them all as printed (the raw scores beside the weights of scaled ones); and
the weights column not read already as a column of the table (a remark in a cell keeps the table reader from it).
"""

from __future__ import annotations

import math
import re

from ..numbers import Num
from ..objects import Array, Context, Document, Place
from .softmaxsaid import _OTHER, _TABLE_ROW, _a_softmax_pair

_SCORE_HEAD = re.compile(r"(?i)^(?:(?:attention|raw|scaled|dot[- ]product)\s+)?(?:scores?|logits?)(?:\s*\(.*\))?$|"
                         r"^(?:注意力)?(?:分数|得分)$|^점수$|^スコア$|^puntajes?$")
_WEIGHT_HEAD = re.compile(r"(?i)^(?:softmax|(?:softmax|attention)\s+(?:weights?|probabilit(?:y|ies))|weights?|"
                          r"probabilit(?:y|ies))(?:\s*\(.*\))?$|^(?:注意力)?(?:权重|概率)$|^가중치$|^重み$|^pesos?$")
_LEADING = re.compile(r"^[*_`$\s]*(-?\d+(?:\.\d+)?)(?:[*_`$\s]*)(?:$|[←<(（#—–-]\s*\D)")


def tie_column_softmax(doc: Document, text: str) -> None:
    """Tie the weights column of each such table to its scores column (module doc)."""
    if doc.format not in ("md", "text") or "|" not in text:
        return
    lines = text.split("\n")
    added = False
    k = 0
    while k < len(lines):
        m = _TABLE_ROW.match(lines[k])
        cols = _columns(m.group(1)) if m else None
        if cols is None:
            k += 1
            continue
        rows: list[tuple[int, str, str]] = []
        j = k + 1
        while j < len(lines) and (row := _TABLE_ROW.match(lines[j])):
            cells = [c.strip() for c in row.group(1).split("|")]
            if not re.fullmatch(r"[\s:|-]*", row.group(1)) and max(cols) < len(cells):
                rows.append((j + 1, cells[cols[0]], cells[cols[1]]))
            j += 1
        added |= _tie(doc, rows, lines[k])
        k = j
    if added:
        doc.set_arrays(doc.arrays, in_reading_order=True)


def _columns(header: str) -> tuple[int, int] | None:
    cells = [c.strip().strip("*_`").strip() for c in header.split("|")]
    scores = [i for i, c in enumerate(cells) if _SCORE_HEAD.match(c)]
    weights = [i for i, c in enumerate(cells) if _WEIGHT_HEAD.match(c)]
    if len(scores) != 1 or len(weights) != 1 or any(_OTHER.search(cells[i].replace("softmax", ""))
                                                      for i in scores + weights):
        return None
    return scores[0], weights[0]


def _tie(doc: Document, rows: list[tuple[int, str, str]], header: str) -> bool:
    if len(rows) < 2:
        return False
    xs, ys = [], []
    for line, score, weight in rows:
        a, b = _LEADING.match(score), _LEADING.match(weight)
        if a is None or b is None:
            return False
        xs.append(Num.parse(a.group(1), line))
        ys.append(Num.parse(b.group(1), line))
    if not _a_softmax_pair([x.value for x in xs], ys) or not _the_softmax([x.value for x in xs], ys):
        return False
    texts = [(n.line, n.text) for n in ys]
    if any([(n.line, n.text) for n in a.numbers] == texts for a in doc.arrays if a.place.cell is None):
        return False            # the table reader made the weights column already: judged there, one finding a slip
    first = rows[0][0]
    x = Array([xs], Place(first, None, "table"), label="softmax input", labels=["softmax input"],
              context=Context())
    y = Array([ys], Place(first, None, "table"), label="softmax weights", labels=["softmax weights"],
              context=Context())
    y.softmax_of = x
    doc.arrays.extend([x, y])
    return True


NEAR = 0.05          # how far a weight may be from the plain softmax of its score and the column still be its softmax


def _softmax(xs: list[float], scale: float = 1.0) -> list[float]:
    m = max(xs)
    e = [math.exp((v - m) * scale) for v in xs]
    return [v / sum(e) for v in e]


def _the_softmax(xs: list[float], ys: list[Num]) -> bool:
    """Is the weights column the plain softmax of the scores column, a slip or a rounding aside?  Every weight near
    it, and no scale (1/√d for a whole d) that gives every weight as printed while the plain softmax does not: a
    table may list the raw scores beside the weights of the scaled ones, which is no slip."""
    p = _softmax(xs)
    if any(abs(n.value - v) > NEAR for n, v in zip(ys, p)):
        return False
    if all(n.contains(v) for n, v in zip(ys, p)):
        return True
    return not any(all(n.contains(v) for n, v in zip(ys, _softmax(xs, 1 / math.sqrt(d)))) for d in range(2, 1025))
