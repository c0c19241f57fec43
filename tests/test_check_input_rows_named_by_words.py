r"""The input given one token at a time, each row named by its word (`x_dog = [2, 0]`, `x_runs = [0, 1]`), as an
outside trial's blog post does (t243a).  Rows numbered `x_1, x_2` were stacked into X; rows named by words were
each taken for X given again ("another example"), and the page's scores, weights and output went unchecked.
My own page and numbers: Q = K = V = X, scaled by √2."""

import numpy as np
from check_helpers import error_places, line_of, softmax

from mha.check import check_document


def _page(out=None):
    X = np.array([[2.0, 0.0], [0.0, 1.0], [1.0, 1.0]])
    s = X[1] @ X.T
    w = softmax(s / np.sqrt(2))
    o = w @ X
    out = out or f"[{o[0]:.2f}, {o[1]:.2f}]"
    return "\n".join([
        "## The dog runs far", "", "Toy embeddings, used directly as queries, keys and values:", "",
        "```python", "x_dog  = [2, 0]", "x_runs = [0, 1]", "x_far  = [1, 1]", "```", "",
        'Scores of "runs" against every word: 0, 1 and 1; divided by √2 they are 0.00, 0.71 and 0.71.', "",
        "```", f"weights ≈ [{w[0]:.2f}, {w[1]:.2f}, {w[2]:.2f}]   # dog, runs, far", "```", "",
        "```", f"output_runs = {w[0]:.2f}·[2,0] + {w[1]:.2f}·[0,1] + {w[2]:.2f}·[1,1]", f"            = {out}",
        "```",
        ""])


def test_rows_named_by_words_make_x_and_the_page_holds():
    report = check_document(_page(), fmt="md")
    assert report.configuration["X"].startswith("X from its rows")
    assert [f for f in report.findings if f.severity == "error"] == []
    assert report.n_numbers >= 10, report.n_numbers


def test_a_slip_in_the_output_is_found():
    page = _page("[0.80, 0.08]")
    assert error_places(page) == [(line_of(page, "[0.80, 0.08]"), "0.08")]
