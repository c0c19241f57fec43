"""`[scores] → [weights]` where the line, or the comment above it, says softmax or 归一化 (t149c, a Chinese note's
bullet `第一行分数 [...] → 归一化后 [...]`; t148a, a script's comment `# [3.1, 0.4, 0.5, -inf] → [...]` under
`# softmax 归一化`).  Neither was read as a softmax: the first has words between the arrow and the weights, the
second has no softmax heading.  Both are arrows (readers/softmaxsaid.tie_arrow_softmax), judged as the document's
arrows are: most must be softmax rows (of the scores, or of the scores over √d) before one that is not is a slip.
Weights that are the scores over their sum are a normalisation, not the softmax: nothing is tied.
"""

from mha.check import check_document

BULLETS = """# Softmax 归一化

- 第一行分数 [0.4, 0.8, 1.6] → 归一化后 [0.17, 0.26, 0.57]
- 第二行分数 [1.0, 0.2, 0.6] → 归一化后 [0.47, {w}, 0.32]
- 第三行分数 [0.0, 0.5, 1.5] → 归一化后 [0.14, 0.23, 0.63]
"""

SCRIPT = """import numpy as np


def attend(scores):
    # softmax 归一化: each row of scores becomes a row of weights
    # [2.0, 0.5, -inf] → [0.82, 0.18, 0.00]
    # [1.0, 1.5, 0.5]  → [0.31, {w}, 0.19]
    # [0.3, -0.2, 0.9] → [0.29, 0.18, 0.53]
    w = np.exp(scores - scores.max(-1, keepdims=True))
    return w / w.sum(-1, keepdims=True)
"""


def test_bullets_hold_and_a_slip_is_found():
    assert not check_document(BULLETS.format(w="0.21"), fmt="md").findings
    r = check_document(BULLETS.format(w="0.31"), fmt="md")
    assert [(f.line, f.printed) for f in r.errors] == [(4, "0.31")], [f.describe() for f in r.findings]


def test_commented_arrows_hold_and_a_slip_is_found():
    r = check_document(SCRIPT.format(w="0.51"), fmt="py")
    assert not r.findings and r.n_numbers >= 9, [f.describe() for f in r.findings]
    r = check_document(SCRIPT.format(w="0.61"), fmt="py")
    assert [(f.line, f.printed) for f in r.errors] == [(7, "0.61")], [f.describe() for f in r.findings]


def test_a_normalisation_by_the_sum_ties_nothing():
    text = ("# 归一化\n\n- [2, 1, 1] → 归一化后 [0.5, 0.25, 0.25]\n- [1, 1, 2] → 归一化后 [0.25, 0.25, 0.5]\n"
            "- [3, 1, 0] → 归一化后 [0.75, 0.25, 0.0]\n\n$2 + 1 + 1 = 4$\n")
    r = check_document(text, fmt="md")
    assert r.n_claims and not r.errors, [f.describe() for f in r.errors]
