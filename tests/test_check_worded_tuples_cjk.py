"""A stage's values written in a Japanese or Korean sentence after the stage's word, from an outside trial's page
(t240d): "…内積は(1,2)、softmaxは約(0.330,0.670)。".  Only the inputs of such a line (`Q=(0,1)`) were read, so a
slipped weight went unseen, and a slipped output left the configuration with nothing computed to stand on.  A
tuple after the word of a stage (scores, weights) and a copula (は, 約, 为, 是, 는, 은) is now that stage's row
(`readers/closed.py`, `_worded_tuples`).  My own numbers."""

import pytest
from check_helpers import error_places, line_of

from mha.check import check_document

_JA = ("Q=(0,1)、K₁=(1,1)、K₂=(0,2)、V₁=(1,0)、V₂=(3,1)、d_k=2とします。内積は(1,2)、softmaxは約({w})。"
       "出力は0.330(1,0)+0.670(3,1)≈(2.340,0.670)です。")
_KO = ("Q=(0,1), K₁=(1,1), K₂=(0,2), V₁=(1,0), V₂=(3,1), d_k=2 로 둡니다. 점수는 (1,2) 이고 가중치는 ({w}) 입니다. "
       "출력은 0.330(1,0)+0.670(3,1)≈(2.340,0.670) 입니다.")


def _page(line, w="0.330,0.670"):
    return "\n".join(["# 二つのキー", "", line.format(w=w), ""])


@pytest.mark.parametrize("line", [_JA, _KO])
def test_the_weights_in_the_sentence_are_read_and_hold(line):
    report = check_document(_page(line), fmt="md")
    assert [f for f in report.findings if f.severity == "error"] == [], [f.message() for f in report.findings]
    assert report.n_numbers >= 4, report.n_numbers       # the scores and the weights, beside the written sum


@pytest.mark.parametrize("line", [_JA, _KO])
def test_a_slipped_weight_in_the_sentence_is_found(line):
    page = _page(line, "0.350,0.670")
    assert error_places(page) == [(line_of(page, "0.350"), "0.350")]
