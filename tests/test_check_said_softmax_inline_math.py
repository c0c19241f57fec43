"""A softmax said in a Chinese sentence whose vectors are inline math (t155b, a blog post): "对 $[..]$ 应用
softmax，结果约为 $[..]$", and "分数 $[..]$ 经过 softmax 得到权重 $[..]$".  The `$` around the brackets, the verb
经过/通过 after the scores and the result words 结果约为/约为 were not read, so the statement was never judged
(readers/softmaxsaid.py).
"""

import numpy as np

from mha.check import check_document

DOC = """# 为什么要缩放

对 $[4, 1, 0.5]$ 应用 softmax，结果约为 $[0.926, 0.046, 0.028]$，大部分权重落在第一个位置。

缩放以后的分数 $[1.5, 0.5, -1.0]$ 经过 softmax 得到权重 $[0.690, 0.254, 0.057]$。
"""


def test_the_numbers_are_what_numpy_gives():
    def softmax(x):
        e = np.exp(np.asarray(x, float) - max(x))
        return e / e.sum()
    assert np.round(softmax([4, 1, 0.5]), 3).tolist() == [0.926, 0.046, 0.028]
    assert np.round(softmax([1.5, 0.5, -1.0]), 3).tolist() == [0.690, 0.254, 0.057]


def test_both_statements_are_judged_and_hold():
    r = check_document(DOC, fmt="md")
    assert not r.errors and r.n_numbers >= 6, [f.describe() for f in r.findings]


def test_a_slip_in_either_statement_is_found_on_its_line():
    r = check_document(DOC.replace("0.926, 0.046", "0.936, 0.046"), fmt="md")
    assert [(f.line, f.printed) for f in r.errors] == [(3, "0.936")], [f.describe() for f in r.findings]
    r = check_document(DOC.replace("0.690, 0.254", "0.690, 0.264"), fmt="md")
    assert [(f.line, f.printed) for f in r.errors] == [(5, "0.264")], [f.describe() for f in r.findings]
