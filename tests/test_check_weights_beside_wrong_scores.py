"""Weights judged against the scores printed beside them, where a score of that row is found wrong itself: the
score is the one slip, and the weights that the right scores give are a note on it, not a finding of their own.
The document is this project's own."""

from check_helpers import error_lines


_BESIDE = """# 三个词的注意力（不缩放）

```
句子: "猫 坐 垫"
每个词的 Q、K 都是二维向量

Q = [[1, 0], [0, 1], [1, 1]]
K = [[1, 0], [0, 1], [0.5, 0.5]]

注意力分数 = Q × K^T:
        猫    坐    垫
猫   [1.0,  0.0,  0.5]
坐   [0.0,  1.0,  0.5]
垫   [1.0,  1.0,  SCORE]

Softmax 之后:
        猫     坐     垫
猫   [0.45,  0.15,  0.40]
坐   [0.15,  0.45,  0.40]
垫   [0.33,  0.33,  0.33]
```
"""


def test_weights_beside_a_score_found_wrong_are_a_note_on_that_score():
    """Rows 1 and 2 of the weights are the author's own slips (softmax of [1, 0, 0.5] is [0.51, 0.19, 0.31]) and
    stay errors; row 3 is right for the right scores [1, 1, 1], and its 1.5 is the one slip of that row."""
    text = _BESIDE.replace("SCORE", "1.5")
    found = error_lines(text)
    assert sorted(found) == [14, 18, 19] and [f.claim for f in found[14]] == ["Q Kᵀ[3,3]"]
    from mha.check import check_document
    notes = [f for f in check_document(text, fmt="md").findings if f.line == 20]
    assert len(notes) == 3 and all(f.severity == "note" and f.cause.startswith("follows from line 14") for f in notes)
    right = error_lines(_BESIDE.replace("SCORE", "1.0"))
    assert sorted(right) == [18, 19]                 # with the right score, only the author's two rows
