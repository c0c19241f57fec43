"""A notebook that prints the exact weights, then replaces them, under a comment that says so, with a rounded
matrix it goes on with ("для удобства аппроксимируем матрицу так", 次のように近似する, 다음과 같이 근사한다, xấp xỉ).
One entry of that matrix is further off than its rounding (0.0 for 0.0634): the page declares an approximation, in
whatever language, so that entry is a note, not an error.  The notebook is this project's own."""

import json

import pytest

from check_helpers import error_findings

COMMENTS = ["# для удобства аппроксимируем матрицу так", "# 見やすさのため、次のように近似する",
            "# 보기 쉽게 다음과 같이 근사한다", "# để dễ nhìn, xấp xỉ ma trận như sau",
            "# para simplificar, aproximamos la matriz así"]


def notebook(comment: str) -> str:
    def cell(src, out=None):
        outs = [] if out is None else [{"output_type": "stream", "name": "stdout", "text": out + "\n"}]
        return {"cell_type": "code", "execution_count": 1, "metadata": {}, "source": src, "outputs": outs}
    cells = [cell("x = np.array([[1, 0, 1], [0, 2, 0], [1, 1, 1]], dtype=float)"),
             cell("scores = x @ x.T\nprint(scores)", "[[2. 0. 2.]\n [0. 4. 2.]\n [2. 2. 3.]]"),
             cell("weights = softmax(scores)\nprint(weights)",
                  "[[4.6831e-01 6.3379e-02 4.6831e-01]\n [1.5876e-02 8.6681e-01 1.1731e-01]\n"
                  " [2.1194e-01 2.1194e-01 5.7612e-01]]"),
             cell(f"{comment}\nweights = np.array([[0.5, 0.0, 0.5],\n                    [0.0, 0.9, 0.1],\n"
                  "                    [0.2, 0.2, 0.6]])")]
    return json.dumps({"cells": cells, "metadata": {}, "nbformat": 4, "nbformat_minor": 5})


@pytest.mark.parametrize("comment", COMMENTS)
def test_a_declared_approximation_in_any_of_these_languages_is_no_slip(comment):
    assert error_findings(notebook(comment), "ipynb") == []


def test_without_the_declaration_the_entry_is_found():
    found = error_findings(notebook("# the weights, typed in"), "ipynb")
    assert [f.printed for f in found] == ["0.0"]
