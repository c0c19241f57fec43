"""Three readings from an outside trial of Chinese pages (t238b), each a finding on a right number before:

* "Softmax 后假设约为 `[0.51, 0.19, 0.30]`": weights supposed, about so much (the author makes them sum to 1), then
  worked exactly further down.  假设…约 declares the approximation (`prosewords.APPROX_WORDS`): a unit or two off is
  a note.
* "行和可能出现 $0.0001$ 量级偏差": the size of a drift of the row sums, not a row sum (`readers/prose.py`,
  `_A_DEVIATION`; this page holds the behaviour, the trial's longer page is the one that failed before).
* "sequence 2 output (row 3 is a padded query)": the second sequence of a batch, under a padding mask of its own,
  printed after the first; the configuration (one sequence, causal) does not hold it (`claims/setaside.py`).

My own numbers and pages."""

import numpy as np

from check_helpers import error_findings
from mha.check import check_document


def _supposed(w3="0.30"):
    return "\n".join(["# 一个查询", "", "```", "q = [1, 0]", "k1 = [1, 0]", "k2 = [0, 1]", "k3 = [0.5, 0.5]",
                      "```", "", "不缩放，点积为 1、0、0.5。", "",
                      f"Softmax 后假设约为 `[0.51, 0.19, {w3}]`。", ""])


def test_supposed_weights_a_unit_off_are_a_note_and_a_slip_is_still_found():
    assert error_findings(_supposed()) == []
    errs = error_findings(_supposed("0.40"))
    assert [f.printed for f in errs] == ["0.40"], [f.message for f in errs]


def test_the_size_of_a_drift_is_no_row_sum():
    Q = np.array([[1.0, 0.0, 1.0], [0.0, 1.0, 1.0], [1.0, 1.0, 0.0]])
    s = Q @ Q.T / np.sqrt(3)
    A = np.exp(s) / np.exp(s).sum(axis=1, keepdims=True)
    rows = "\\\\".join("&".join(f"{x:.4f}" for x in r) for r in A)
    page = "\n".join(["# 权重", "", "$$Q=K=V=\\begin{bmatrix}1&0&1\\\\0&1&1\\\\1&1&0\\end{bmatrix}$$", "",
                      f"$$A=\\text{{softmax}}(QK^T/\\sqrt{{3}})=\\begin{{bmatrix}}{rows}\\end{{bmatrix}}$$", "",
                      "小数四舍五入后，行和可能出现 $0.0001$ 量级偏差，未舍入结果的每行总和都是 1。", ""])
    assert not any(f.printed == "0.0001" for f in error_findings(page))


def _batch(second="[[1.   0.  ]\n [0.33 1.34]\n [0.5  1.  ]]"):
    Q = np.array([[1.0, 0.0], [0.0, 1.0], [1.0, 1.0]])
    V = np.array([[1.0, 0.0], [0.0, 2.0], [2.0, 2.0]])
    s = Q @ Q.T / np.sqrt(2)
    s[np.triu_indices(3, 1)] = -np.inf
    A = np.exp(s - s.max(axis=1, keepdims=True))
    A /= A.sum(axis=1, keepdims=True)
    O = A @ V
    first = "[" + "\n ".join("[" + " ".join(f"{x:.3f}" for x in r) + "]" for r in O) + "]"
    return "\n".join(["# 两条序列", "", "```python", "Q = K = [[1, 0], [0, 1], [1, 1]]", "V = [[1, 0], [0, 2], [2, 2]]",
                      "# causal, scaled by sqrt(2); sequence 2 pads its third token", "```", "", "```output",
                      "sequence 1 output:", first, "sequence 2 output (row 3 is a padded query):", second, "```", ""])


def test_the_other_sequence_of_a_batch_is_not_judged_as_the_first():
    r = check_document(_batch(), fmt="md")
    assert r.ok, [f.message for f in r.errors]
    assert any("another sequence of a batch" in n.reason for n in r.not_checked)
