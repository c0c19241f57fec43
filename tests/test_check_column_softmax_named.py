"""A notebook's own softmax that sums down the columns (t157d, a Portuguese lecture notebook; a helper's small copy):
`def softmax(x): return np.exp(x) / np.sum(np.exp(x), axis=0)` applied to a 3×3 score matrix.  The printed weights
are the column softmax of the scores, and here its values are the row softmax's moved about, so the finding said
"swapped entries".  The one mistake is the axis, and the finding says so (claims/array._one_mistake)."""

import json

import numpy as np

from mha.check import check_document

Q = np.array([[1.0, 0.0], [0.0, 1.0], [1.0, 1.0]])
K = np.array([[1.0, 0.0], [1.0, 1.0], [0.0, 1.0]])


def _notebook() -> str:
    S = Q @ K.T / np.sqrt(2)
    W = np.exp(S) / np.exp(S).sum(axis=0)

    def cell(n, src, out):
        return {"cell_type": "code", "execution_count": n, "id": f"c{n}", "metadata": {}, "source": src,
                "outputs": [{"output_type": "execute_result", "execution_count": n, "metadata": {},
                             "data": {"text/plain": out}}]}
    with np.printoptions(precision=8):
        cells = [cell(1, "import numpy as np\ndef softmax(x):\n    return np.exp(x) / np.sum(np.exp(x), axis=0)\n"
                         "Q = np.array([[1.,0.],[0.,1.],[1.,1.]])\nQ", repr(Q)),
                 cell(2, "K = np.array([[1.,0.],[1.,1.],[0.,1.]])\nK", repr(K)),
                 cell(3, "scores = Q.dot(K.T) / np.sqrt(2)\nscores", repr(S)),
                 cell(4, "weights = softmax(scores)\nweights", repr(W))]
    return json.dumps({"cells": cells, "metadata": {}, "nbformat": 4, "nbformat_minor": 5})


def test_the_columns_sum_to_one_and_the_rows_do_not():
    S = Q @ K.T / np.sqrt(2)
    W = np.exp(S) / np.exp(S).sum(axis=0)
    assert np.allclose(W.sum(axis=0), 1) and not np.allclose(W.sum(axis=1), 1)


def test_the_finding_names_the_axis():
    r = check_document(_notebook(), fmt="ipynb")
    assert len(r.errors) == 1 and "wrong axis" in r.errors[0].cause, [f.describe() for f in r.findings]
