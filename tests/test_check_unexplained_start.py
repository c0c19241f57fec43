"""Q, K and V given, and weights that follow from none of them: the refusal says which start it found.

Outside trial t141a: a machine-written page gave Q, K and V and then weights worked from nothing on the page (the
exact weights are almost one-hot).  `mha check` refused with "looked for an input X with weights, or Q, K and V",
which reads as if Q, K and V were not found.  It is still refused (a matrix wrong everywhere identifies nothing),
but the message names the start it found and says that no printed result follows from it.
"""

import subprocess
import sys

PAGE = """# 注意力计算示例

$$
\\mathbf{Q}=\\begin{bmatrix}1 & 0 & 2\\\\ 0 & 1 & 1\\end{bmatrix},\\quad
\\mathbf{K}=\\begin{bmatrix}1 & 1 & 0\\\\ 0 & 2 & 1\\\\ 1 & 0 & 1\\end{bmatrix},\\quad
\\mathbf{V}=\\begin{bmatrix}1 & 0\\\\ 0 & 1\\\\ 1 & 1\\end{bmatrix}
$$

注意力权重矩阵：

$$
\\mathbf{A}=\\begin{bmatrix}0.21 & 0.33 & 0.46\\\\ 0.16 & 0.33 & 0.51\\end{bmatrix}
$$
"""


def test_the_refusal_names_the_start_found(tmp_path):
    f = tmp_path / "page.md"
    f.write_text(PAGE, encoding="utf-8")
    r = subprocess.run([sys.executable, "-m", "mha", "check", str(f)], capture_output=True, text=True, timeout=120)
    assert r.returncode == 2, r
    assert r.stderr.count("\n") == 1 and "Traceback" not in r.stderr, r.stderr
    assert "starts from Q, K, V given (Q at line 4; K at line 5; V at line 6)" in r.stderr, r.stderr
    assert "no printed result follows from it" in r.stderr, r.stderr


def test_right_weights_are_checked(tmp_path):
    from mha.check import check_document
    import numpy as np
    Q = np.array([[1, 0, 2], [0, 1, 1]], float)
    K = np.array([[1, 1, 0], [0, 2, 1], [1, 0, 1]], float)
    S = Q @ K.T / np.sqrt(3)
    A = np.exp(S) / np.exp(S).sum(axis=1, keepdims=True)
    rows = " \\\\ ".join(" & ".join(f"{x:.4f}" for x in r) for r in A)
    page = PAGE.split("\\mathbf{A}")[0] + "\\mathbf{A}=\\begin{bmatrix}" + rows + "\\end{bmatrix}\n$$\n"
    r = check_document(page, fmt="md")
    assert not r.errors and r.n_numbers >= 6, ([f.describe() for f in r.findings], r.n_numbers)
