"""Four readings that made 7 false findings on a Chinese note working Q, K, V for two tokens (outside trial t167a):

* `# d_model=3 → d_k=2` beside a 3×2 weight: an arrow between two sizes, each set by its own name, was read as one
  chain, so d_k "should be 3" (3 findings).  Such an arrow now parts two statements (readers/splitting.py);
* `output[0] = [0.392, 1.000]：token 0 主要是 V[1]=[0, 1] 的贡献`: the words after the colon named another vector,
  whose entries were judged as the output's (2 findings).  A colon after a value, then words, ends the statement;
* `output[1] = [...]` on a page that counts from 0 (output[0] on the line before) was judged as the first row.  An
  output's word with an index in brackets is that token's row, numbered as the page numbers (infer/prepare.py);
* "用 2x2 或 3x3 的小输入再算一遍" (try a 2x2 or 3x3 input) was read as the shape of X.  Sizes offered as
  alternatives are no claim (judge.py).

My own page; the numbers are from plain NumPy."""

import numpy as np
import pytest

from mha.check import check_document

PAGE = """# 两个词的注意力

```
X = [[0.0, 1.0, 1.0],
     [1.0, 0.0, 0.0]]

Wq = [[1.0, 0.0],        # d_model=3 → d_k=2
      [0.0, 1.0],
      [0.0, 1.0]]

Wk = [[0.0, 1.0],
      [1.0, 0.0],
      [1.0, 1.0]]

Wv = [[2.0, 0.0],
      [0.0, 1.0],
      [1.0, 0.0]]
```

```
Q = [[0, 2], [1, 0]]
K = [[2, 1], [0, 1]]
V = [[1, 1], [2, 0]]
alpha = [[0.500, 0.500],
         [0.804, 0.196]]
output = [[1.500, 0.500],
          [1.196, 0.804]]
```

- output[0] = [1.500, 0.500]：token 0 平均地取 V[0]=[1, 1] 和 V[1]=[2, 0]。
- output[1] = [1.196, 0.804]：token 1 主要取 V[0]=[1, 1]。

练习：用 2x2 或 3x3 的小输入再算一遍。
"""


def test_the_numbers_are_numpy_s():
    X = np.array([[0., 1, 1], [1, 0, 0]])
    Q = X @ np.array([[1., 0], [0, 1], [0, 1]])
    K = X @ np.array([[0., 1], [1, 0], [1, 1]])
    V = X @ np.array([[2., 0], [0, 1], [1, 0]])
    s = Q @ K.T / np.sqrt(2)
    a = np.exp(s - s.max(1, keepdims=True))
    a /= a.sum(1, keepdims=True)
    assert np.round(a, 3).tolist() == [[0.5, 0.5], [0.804, 0.196]]
    assert np.round(a @ V, 3).tolist() == [[1.5, 0.5], [1.196, 0.804]]
    assert V.tolist() == [[1, 1], [2, 0]]


def test_the_page_holds():
    r = check_document(PAGE, fmt="md")
    assert not r.errors, [f.describe() for f in r.findings]


def _line_of(text):
    return next(k for k, line in enumerate(PAGE.split("\n"), start=1) if text in line)


@pytest.mark.parametrize("right, wrong", [("output[1] = [1.196, 0.804]", "output[1] = [1.196, 0.814]"),
                                          ("output[0] = [1.500, 0.500]", "output[0] = [1.500, 0.600]")])
def test_a_slipped_output_said_again_in_prose_is_found(right, wrong):
    r = check_document(PAGE.replace(right, wrong), fmt="md")
    assert [f.line for f in r.errors] == [_line_of(right)], [f.describe() for f in r.findings]
