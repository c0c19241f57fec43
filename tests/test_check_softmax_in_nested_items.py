"""Weights said by a nested list (t223e, a Japanese page on the softmax): a list item gives the scores, `スコアが
`[...]` （合計 ...）のとき：`, and the items nested under it say what is done to them, `**ソフトマックス** $\\to$
`[...]``.  Three things kept the page from being read: kana before a vector (the words of a line were read for
Chinese and Korean, not Japanese), a remark in parentheses after a vector (`(sum 2.0)`), and no reader tied a
nested item's weights to its parent's scores.  The page's own wrong row of weights went unreported, and a slip in
its percentages was missed.  Now the nested item is read as a sentence saying softmax is read
(readers/softmaxbullets.py); the item that divides by the sum is another step and is left alone.

My own scores and weights, computed below with plain NumPy (not mha)."""

import numpy as np
import pytest

from check_helpers import error_places, line_of

EN = """# Why the softmax

* scores `[-1.0, 0.5, 2.0]` (they sum to 1.5):
    * divided by their sum → `[-0.67, 0.33, 1.33]` (a negative share: no use)
    * **softmax** → `[{a}, {b}, {c}]` (every weight in [0, 1])
* scores `[0.0, 1.0, 2.0]` (the last is largest):
    * divided by their sum → `[0%, 33%, 67%]`
    * **softmax** → `[{p}%, {q}%, {r}%]` (the last takes about two thirds)
"""

JA = """## ソフトマックスの性質

*   スコアが `[-1.0, 0.5, 2.0]` （合計 1.5）のとき：
    *   単純な割り算 $\\to$ `[-0.67, 0.33, 1.33]` （負の値が出てしまう）
    *   **ソフトマックス** $\\to$ `[{a}, {b}, {c}]` （すべて0〜1に収まる）
*   スコアが `[0.0, 1.0, 2.0]` （2.0が一番大きい）のとき：
    *   単純な割り算 $\\to$ `[0%, 33%, 67%]`
    *   **ソフトマックス** $\\to$ `[{p}%, {q}%, {r}%]` （約7割を占める）
"""


def _softmax(s):
    e = np.exp(np.asarray(s) - np.max(s))
    return e / e.sum()


def _fill(page, first=None, second=None):
    a, b, c = first or [f"{w:.3f}" for w in _softmax([-1.0, 0.5, 2.0])]
    p, q, r = second or [f"{100 * w:.0f}" for w in _softmax([0.0, 1.0, 2.0])]
    return page.format(a=a, b=b, c=c, p=p, q=q, r=r)


def test_the_numbers_are_what_the_pages_say():
    assert [f"{w:.3f}" for w in _softmax([-1.0, 0.5, 2.0])] == ["0.039", "0.175", "0.786"]
    assert [f"{100 * w:.0f}" for w in _softmax([0.0, 1.0, 2.0])] == ["9", "24", "67"]


@pytest.mark.parametrize("page", [EN, JA], ids=["en", "ja"])
def test_the_clean_page_checks_clean(page):
    assert error_places(_fill(page)) == []


@pytest.mark.parametrize("page", [EN, JA], ids=["en", "ja"])
def test_a_slipped_weight_is_found(page):
    text = _fill(page, first=["0.039", "0.157", "0.786"])
    assert error_places(text) == [(line_of(text, "0.157"), "0.157")]


@pytest.mark.parametrize("page", [EN, JA], ids=["en", "ja"])
def test_a_slipped_percentage_is_found(page):
    text = _fill(page, second=["9", "42", "67"])
    assert error_places(text) == [(line_of(text, "42%"), "42%")]


def test_an_item_that_names_another_step_is_not_the_softmax():
    """The softmax of the scores divided by their sum is not said to be the softmax: nothing is tied."""
    text = _fill(EN).replace("**softmax** →", "softmax of them divided by 2 →")
    from mha.check.readers import read_document
    doc = read_document(text, "md")
    assert not any(a.softmax_of is not None for a in doc.arrays)


@pytest.mark.parametrize("line, label", [
    ("* scores [-2.0, 1.0, 3.0] (sum 2.0)", "scores"),
    ("スコアが `[-2.0, 1.0, 3.0]` （合計 2.0）のとき：", "スコアが"),
    ("The scores `[-2.0, 1.0, 3.0]` (they add up to 2) come first.", "The scores"),
])
def test_a_vector_before_a_remark_in_parentheses_is_read(line, label):
    from mha.check.readers import read_document
    doc = read_document(line + "\n", "md")
    assert [(a.label, [n.value for n in a.rows[0]]) for a in doc.arrays] == [(label, [-2.0, 1.0, 3.0])]


def test_an_expression_in_parentheses_is_no_remark():
    from mha.check.readers import read_document
    doc = read_document("the weights [0.2, 0.8] (a + b) more\n", "md")
    assert doc.arrays == []
