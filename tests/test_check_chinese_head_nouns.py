"""A Chinese label names its quantity by its last noun: "由词向量算出的Q矩阵" is the Q matrix (computed from the
word vectors), not the word vectors; "K矩阵", "V 向量" are K and V.  A printout under such labels starts from Q, K
and V, and its scores, weights and outputs are checked."""

import numpy as np
import pytest

from mha.check import check_document
from mha.check import labels as lb

Q = np.array([[0.9, -0.2], [0.1, 0.4], [-0.3, 0.6]])
K = np.array([[1.1, 0.3], [-0.5, 0.2], [0.0, 0.7]])
V = np.array([[0.5, -1.0, 2.0], [1.5, 0.25, -0.5], [-0.75, 1.0, 0.0]])
S = Q @ K.T / np.sqrt(2)
A = np.exp(S) / np.exp(S).sum(axis=1, keepdims=True)
Y = A @ V


def _rows(M, d=3):
    return "\n".join(("[[" if k == 0 else " [") + " ".join(f"{x:.{d}f}" for x in r) + ("]]" if k == len(M) - 1
                     else "]") for k, r in enumerate(M))


def _doc():
    return f"""# 一个注意力头的打印结果

运行上面的代码，输出如下：

```
由词向量算出的Q矩阵：
{_rows(Q, 2)}

由词向量算出的K矩阵：
{_rows(K, 2)}

由词向量算出的V矩阵：
{_rows(V, 2)}

缩放后的注意力得分：
{_rows(S)}

注意力权重：
{_rows(A)}

注意力输出：
{_rows(Y)}
```
"""


@pytest.mark.parametrize("label, nodes", [("由词向量算出的Q矩阵", ("Q",)), ("K矩阵", ("K",)), ("V 向量：", ("V",)),
                                          ("从embeddings生成的Q矩阵", ("Q",)), ("输入序列的值", ("X",))])
def test_the_letter_before_matrix_or_vector_at_the_end_names_the_label(label, nodes):
    assert lb.parse_label(label).nodes == nodes


def test_a_printout_of_q_k_v_under_chinese_labels_is_checked():
    r = check_document(_doc(), fmt="md")
    assert not r.errors, [f.describe() for f in r.errors]
    assert "starts from Q, K, V given" in r.configuration["mode"]
    assert r.n_numbers >= 27


def test_a_slip_in_the_weights_is_found():
    text = _doc()
    old = f"{A[1, 2]:.3f}"
    new = old[:-2] + old[-1] + old[-2] if old[-1] != old[-2] else old[:-1] + str((int(old[-1]) + 3) % 10)
    lines = text.split("\n")
    k = next(i for i, x in enumerate(lines) if x.startswith("注意力权重"))
    lines[k + 2] = lines[k + 2].replace(old, new, 1)
    r = check_document("\n".join(lines), fmt="md")
    assert [f.line for f in r.errors] == [k + 3], [f.describe() for f in r.errors]
