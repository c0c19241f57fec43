"""A notebook that prints Q, K and V, then its scores, weights and output, each under a caption of its own language
(here Vietnamese: "Điểm số", "Trọng số", "Đầu ra").  One wrong score in such a printout made the start from Q, K
and V look as if it computed nothing (the scores were its only printout that matched, and they matched all but one
entry; the page's weights are normalised down the columns, its own real mistake): the checker refused the page
("the numbers found are the inputs only") instead of finding the slip."""

import nbformat
import numpy as np
import pytest

from mha.check import check_document

Q = np.array([[0.12, 0.85, 0.43, 0.67], [0.91, 0.05, 0.38, 0.22], [0.47, 0.63, 0.14, 0.79], [0.33, 0.28, 0.96, 0.51]])
K = np.array([[0.58, 0.17, 0.72, 0.36], [0.24, 0.93, 0.41, 0.08], [0.69, 0.52, 0.27, 0.84], [0.15, 0.46, 0.88, 0.63]])
V = np.array([[0.81, 0.26, 0.55, 0.13], [0.37, 0.74, 0.09, 0.62], [0.48, 0.31, 0.86, 0.27], [0.92, 0.57, 0.19, 0.44]])
S = Q @ K.T / 2.0
E = np.exp(S - S.max(axis=0, keepdims=True))
A = E / E.sum(axis=0, keepdims=True)         # softmax(axis=0), as the page computed it
O = A @ V


def _printed(m: np.ndarray) -> str:
    return np.array2string(m, precision=8, floatmode="fixed", separator=" ")


def _notebook(scores_caption: str = "Điểm số (QKᵀ/√d_k):", scores: np.ndarray = S) -> str:
    nb = nbformat.v4.new_notebook()

    def shown(code: str, out: str):
        c = nbformat.v4.new_code_cell(code)
        c.outputs = [nbformat.v4.new_output("stream", name="stdout", text=out)]
        return c
    nb.cells = [
        nbformat.v4.new_markdown_cell("# Cơ chế Attention từng bước\n\nBốn từ, d_k = 4, một đầu."),
        shown("print('Ma trận Query Q:'); print(Q)\nprint('Ma trận Key K:'); print(K)\n"
              "print('Ma trận Value V:'); print(V)",
              f"Ma trận Query Q:\n{_printed(Q)}\nMa trận Key K:\n{_printed(K)}\nMa trận Value V:\n{_printed(V)}\n"),
        shown("scores = Q @ K.T / np.sqrt(4)\nprint(scores)", f"{scores_caption}\n{_printed(scores)}\n"),
        shown("weights = softmax(scores)\nprint(weights)", f"Trọng số Attention:\n{_printed(A)}\n"),
        shown("out = weights @ V\nprint(out)", f"Đầu ra:\n{_printed(O)}\n"),
    ]
    return nbformat.writes(nb)


def test_the_vietnamese_printouts_are_read_from_q_k_and_v():
    r = check_document(_notebook(), fmt="ipynb")
    assert [(f.cell, "wrong axis" in f.cause) for f in r.errors] == [(4, True)], [f.describe() for f in r.errors]
    assert "Q, K, V given" in r.configuration["mode"], r.configuration
    assert 3 not in {n.cell for n in r.not_checked}, [n.describe() for n in r.not_checked]     # the scores hold


@pytest.mark.parametrize("caption", ["Điểm số (QKᵀ/√d_k):", "Kết quả B:"])
def test_one_wrong_score_is_found_and_the_page_is_not_refused(caption):
    slipped = S.copy()
    slipped[1, 2] += 0.01
    r = check_document(_notebook(caption, slipped), fmt="ipynb")
    assert [(f.cell, f.printed) for f in r.errors][:1] == [(3, f"{slipped[1, 2]:.8f}")], [f.describe() for f in r.errors]


def test_a_sum_of_weights_typed_into_the_code_is_that_sum():
    """`row_2_sum = sum([0.2035, 0.3321, ...])`, rounded weights copied by hand, prints their sum (0.9999 or
    1.0001), not the exact row sum 1: no finding; a printed sum that is not even that sum still is one."""
    E = np.exp(S - S.max(axis=1, keepdims=True))
    rows = E / E.sum(axis=1, keepdims=True)          # the weights as a row softmax gives them
    row = next(r for r in rows if abs(sum(float(f"{w:.4f}") for w in r) - 1) > 5e-5)
    typed = ", ".join(f"{w:.4f}" for w in row)
    total = sum(float(f"{w:.4f}") for w in row)

    def page(printed: str) -> str:
        nb = nbformat.reads(_notebook(), as_version=4)
        c = nbformat.v4.new_code_cell(f"row_2_sum = sum([{typed}])\nprint('Row 2 sum:', row_2_sum)")
        c.outputs = [nbformat.v4.new_output("stream", name="stdout", text=f"Row 2 sum: {printed}\n")]
        nb.cells.append(c)
        return nbformat.writes(nb)
    r = check_document(page(f"{total:.4f}"), fmt="ipynb")
    assert all(f.cell != 6 for f in r.errors), [f.describe() for f in r.errors]
    r = check_document(page(f"{total + 0.01:.4f}"), fmt="ipynb")
    assert [f.cell for f in r.errors if f.cell == 6] == [6], [f.describe() for f in r.findings]
