"""A finding is withdrawn when a near-equal reading of the page explains its number; that reading must explain it
as the same quantity.

On public lecture slides (outside trial t130e) a context vector printed [0.51, 0.58] was wrong under both the
unscaled reading (0.596) and the scaled one (0.597), yet 0.58 was set aside as "holds under a configuration nearly
as good": the other reading's trace held a score of 0.58.  A score says nothing of an output
(claims/common.explained_by).
"""

from types import SimpleNamespace

import numpy as np

from mha.check.claims.common import explained_by
from mha.check.report import Finding


def _reading(**views):
    return SimpleNamespace(vs=SimpleNamespace(views=[SimpleNamespace(node=k, M=np.array(v)) for k, v in views.items()]))


def _finding(printed: str, step: str) -> Finding:
    return Finding(17, None, "O[1,2]", printed, 0.596, "0.60", step, None, "wrong_value")


def test_a_score_does_not_explain_an_output():
    other = _reading(QKt=[[0.58, 0.63, 0.62]], A=[[0.33, 0.34, 0.33]], O=[[0.504, 0.597]])
    assert not explained_by(other, _finding("0.58", "weighted_sum"))


def test_the_same_quantity_does():
    other = _reading(QKt=[[0.58, 0.63, 0.62]], O=[[0.504, 0.581]])
    assert explained_by(other, _finding("0.58", "weighted_sum"))
    assert explained_by(_reading(QKt=[[0.58, 0.63, 0.62]]), _finding("0.58", "scores"))


def test_an_output_named_y_stands_for_the_weighted_sum():
    assert explained_by(_reading(Y=[[0.504, 0.581]]), _finding("0.58", "weighted_sum"))
