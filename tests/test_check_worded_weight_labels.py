"""A widely copied NumPy tutorial (t219e, two notebooks of it): random integer weights printed as "Weight matrix -
Queries:", "Weight matrix - Keyes:" (sic), then Q, K, V as "Queries:", "Keyes:", "Values:", and the output as
"Attention:".  The worded labels were read as Q (and nothing), so the weights were assumed to be I and nothing after
X was checked.  "Weight matrix - Queries" names W_Q (vocabulary.py `_WEIGHTS_OF`), "Keyes" the keys; and Q, K and V
that hold with the printed weights bear out the first matrix guessed as X (claims/guessed.py).  My own words and
weights; the printouts are NumPy's."""

import numpy as np

from check_helpers import code_notebook, error_places

X = np.array([[0, 1, 0], [1, 0, 1], [1, 1, 0], [0, 0, 1]])
W = {"Queries": np.array([[1, 2, 0], [0, 1, 1], [2, 0, 1]]), "Keyes": np.array([[0, 1, 2], [1, 1, 0], [1, 0, 1]]),
     "Values": np.array([[2, 0, 1], [1, 1, 0], [0, 1, 2]])}


def _shown(name, M):
    return f"{name}:\n {M} \n Shape: {M.shape}\n\n"


def _cells(slip_q=None, slip_out=None):
    Q, K, V = (X @ W[k] for k in ("Queries", "Keyes", "Values"))
    S = Q @ K.T / np.sqrt(3)
    e = np.exp(S - S.max(1, keepdims=True))
    out = (e / e.sum(1, keepdims=True)) @ V
    with np.printoptions(precision=8, suppress=True):
        printed_q = _shown("Queries", Q)
        printed_out = "Attention:\n " + str(out) + "\n"
    if slip_q:
        printed_q = printed_q.replace(*slip_q, 1)
    if slip_out:
        printed_out = printed_out.replace(*slip_out, 1)
    return [
        ("words = array([[0, 1, 0], [1, 0, 1], [1, 1, 0], [0, 0, 1]])\nprint('Words:\\n {} \\n Shape: {}'.format("
         "words, words.shape))", _shown("Words", X)),
        ("W_Q = random.randint(3, size=(3, 3))\nW_K = random.randint(3, size=(3, 3))\n"
         "W_V = random.randint(3, size=(3, 3))",
         "".join(_shown(f"Weight matrix - {k}", W[k]) for k in W)),
        ("Q = words @ W_Q\nK = words @ W_K\nV = words @ W_V",
         printed_q + _shown("Keyes", X @ W["Keyes"]) + _shown("Values", X @ W["Values"])),
        ("weights = softmax(Q @ K.T / K.shape[1] ** 0.5, axis=1)\nattention = weights @ V\n"
         "print('Attention:\\n', attention)", printed_out),
    ]


def test_the_tutorial_checks_clean_and_whole():
    from mha.check import check_document
    r = check_document(code_notebook(_cells()), fmt="ipynb")
    assert [f for f in r.findings if f.severity == "error"] == []
    assert r.configuration["W_Q"].startswith("W_Q printed") and r.n_numbers >= 48


def test_a_slip_in_a_query_is_found():
    text = code_notebook(_cells(slip_q=("[1 3 1]", "[1 3 2]")))
    assert [p for _, p in error_places(text, fmt="ipynb")] == ["2"]


def test_a_slip_in_the_output_is_found():
    with np.printoptions(precision=8, suppress=True):
        first = str(_cells()[3][1]).split()[1].lstrip("[")
    slipped = first[:2] + first[3] + first[2] + first[4:]        # 2.19934911 -> 2.91934911: two digits swapped
    assert slipped != first
    text = code_notebook(_cells(slip_out=(first, slipped)))
    assert [p for _, p in error_places(text, fmt="ipynb")] == [slipped]
