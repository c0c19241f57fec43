"""A softmax drawn downwards in a Korean lesson (trial t176d): the scores, `|`, 소프트맥스, `|`, then the weights with
a remark on their sum, `(합 ~1.0)`.  Hangul was no word to the tokenizer (each syllable an operator), so the
one-syllable remark 합 did not read as words, the weights row was lost, and the drawing's word 소프트맥스 was not
the softmax either: the page's wrong weights went unreported.  My own scores; the right weights are NumPy's."""

import numpy as np
import pytest

from mha.check import check_document

S = [1.6, 0.4, -0.2, 0.9]


def _page(weights, word="소프트맥스", remark="(합 ~1.0)"):
    return "\n".join(["# 어텐션 가중치", "", "```", f"q1의 점수:   [{', '.join(f'{x:g}' for x in S)}]",
                      "                |", f"             {word}", "                |",
                      f"가중치:   [{', '.join(f'{x:.2f}' for x in weights)}]   {remark}", "```", ""])


def _right():
    e = np.exp(np.array(S) - max(S))
    return e / e.sum()


@pytest.mark.parametrize("word,remark", [("소프트맥스", "(합 ~1.0)"), ("softmax", "(합 ~1.0)"),
                                         ("소프트맥스", "(сумма ~1.0)"), ("softmax", "(和 ~1.0)")])
def test_the_drawn_softmax_is_judged(word, remark):
    w = _right()
    r = check_document(_page(w, word, remark), fmt="md")
    assert not r.errors and r.n_numbers >= 4, ([f.describe() for f in r.findings], r.n_numbers)
    slipped = w.copy()
    slipped[1] += 0.05
    r = check_document(_page(slipped, word, remark), fmt="md")
    assert [f.printed for f in r.errors] == [f"{slipped[1]:.2f}"], [f.describe() for f in r.findings]
