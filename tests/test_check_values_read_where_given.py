"""Values given where the checker did not look, from an outside trial's pages (t240a); in both, the values were
assumed to be the keys and a right output was reported wrong, or a slip in it went unseen.  My own numbers.

- A table of cached values whose vector column is headed by the letter spelled out as its components (`v = [v1,
  v2]`, beside `k = [k1, k2]`): the header was no label.  It now names its letter (`labels.py`).
- `V = np.eye(3)` in code: an `np.eye` assignment was read only as "this weight is the identity".  A name that says
  an input (V, X, Q, K, values...) assigned the identity is that input now, its numbers read as any code's
  (`readers/python.py`); `W_Q = np.eye(4)` still says a weight is the identity.
"""

import pytest
from check_helpers import clean_report, error_places, line_of


def _table_page(out="[2.534, 2.621]"):
    return "\n".join([
        "# One decoding step", "", "**K cache**", "", "| token | k = [k1, k2] |", "|---|---|",
        "| a | [1, 0] |", "| b | [0, 1] |", "| c | [1, 1] |", "", "**V cache**", "", "| token | v = [v1, v2] |",
        "|---|---|", "| a | [4, 2] |", "| b | [0, 6] |", "| c | [2, 2] |", "",
        "The new query is `q = [1, 0]`; we leave the scores unscaled here.", "",
        "- scores: [1, 0, 1]", "- weights ≈ [0.422, 0.155, 0.422]", f"- out ≈ {out}", ""])


def _eye_page(out_row3="0.2483 0.2483 0.5035"):
    return "\n".join([
        "# Attention with one-hot values", "", "```python", "import numpy as np", "",
        "Q = np.array([[1.0, 0.0], [0.0, 1.0], [1.0, 1.0]])", "K = Q.copy()", "V = np.eye(3)",
        "A = softmax(Q @ K.T / np.sqrt(2))", "print(np.round(A, 4))", "```", "", "```",
        "[[0.4011 0.1978 0.4011]", " [0.1978 0.4011 0.4011]", " [0.2483 0.2483 0.5035]]", "```", "",
        "Since V is the identity, the output repeats the weights:", "", "```python", "print(np.round(A @ V, 4))",
        "```", "", "```", "[[0.4011 0.1978 0.4011]", " [0.1978 0.4011 0.4011]", f" [{out_row3}]]", "```", ""])


# (the page, where V is given, a slipped output and the slipped number)
CASES = [(_table_page, "| a | [4, 2] |", "[2.354, 2.621]", "2.354"),
         (_eye_page, "V = np.eye(3)", "0.2483 0.2483 0.5053", "0.5053")]


@pytest.mark.parametrize("page, given, slipped, printed", CASES)
def test_v_is_read_where_it_is_given(page, given, slipped, printed):
    text = page()
    report = clean_report(text)
    assert f"V at line {line_of(text, given)}" in report.configuration["mode"], report.configuration


@pytest.mark.parametrize("page, given, slipped, printed", CASES)
def test_a_slip_in_the_output_is_found(page, given, slipped, printed):
    text = page(slipped)
    assert error_places(text) == [(line_of(text, printed), printed)]
