r"""Markdown exported by HTML-to-Markdown converters escapes what could start a link or an emphasis: `\[2, 0]`,
`\[\[0, 1], \[1, 0]]`, `W\_Q`, `0.982 \* [0, 2]` (an outside page, fieldA-03, writes its second head's weights so).
Flat escaped lists were read before; a nested one and the escaped `_` and `*` kept the weights unread, so the page
started from its scores and nothing before them was checked.  Outside TeX and code these are plain characters.
My own numbers: X = [[2, 0], [0, 1]], W_Q = W_K = W_V = the swap matrix, no scaling."""

import numpy as np
from check_helpers import error_places, line_of, softmax

from mha.check import check_document

X = np.array([[2.0, 0.0], [0.0, 1.0]])
P = np.array([[0.0, 1.0], [1.0, 0.0]])


def _page(sun_out="[0.018, 1.964]"):
    Q = X @ P
    w_sun, w_rain = softmax(Q[0] @ Q.T), softmax(Q[1] @ Q.T)
    assert np.allclose(w_sun @ Q, [0.017986, 1.964028], atol=1e-6) and np.allclose(w_rain @ Q, [0.731059, 0.537883])
    return "\n".join([
        "# A two-token example, exported from a notes app", "",
        'Tokens "sun" and "rain" are the rows of X:', "", r'* "sun" → \[2, 0]', r'* "rain" → \[0, 1]', "",
        r"so X = \[\[2, 0], \[0, 1]].", "",
        r"Let the three projections be the same swap matrix: W\_Q = W\_K = W\_V = \[\[0, 1], \[1, 0]]", "",
        r"Then Q = K = V = X @ W\_Q:", "", r'* "sun" → \[0, 2]', r'* "rain" → \[1, 0]', "",
        r'Scores for "sun" (no scaling): \[0, 2] · \[0, 2] = 4 and \[0, 2] · \[1, 0] = 0', "",
        rf"* softmax(\[4, 0]) ≈ \[{w_sun[0]:.3f}, {w_sun[1]:.3f}]",
        rf'* output for "sun": 0.982 \* \[0, 2] + 0.018 \* \[1, 0] = \{sun_out}', "",
        r'Scores for "rain": \[1, 0] · \[0, 2] = 0 and \[1, 0] · \[1, 0] = 1', "",
        rf"* softmax(\[0, 1]) ≈ \[{w_rain[0]:.3f}, {w_rain[1]:.3f}]",
        r'* output for "rain": 0.269 \* \[0, 2] + 0.731 \* \[1, 0] = \[0.731, 0.538]', ""])


def test_escaped_weights_are_read_and_the_page_holds():
    report = check_document(_page(), fmt="md")
    assert [f for f in report.findings if f.severity == "error"] == []
    assert "W_Q printed at line 10" in report.configuration["W_Q"]
    assert "W_V printed at line 10" in report.configuration["W_V"]      # the chain names all three
    assert report.n_numbers >= 40, report.n_numbers


def test_a_slip_in_an_escaped_output_is_found():
    page = _page("[0.018, 1.946]")
    assert error_places(page) == [(line_of(page, "1.946"), "1.946")]
