"""A row worked in words, its exponentials listed in inline math and their sum after them:

    - **Row 1.** Scores $(0.707, 0, 0.707)$, exponentials $(2.028, 1, 2.028)$, sum 5.056.

in a block the page calls "Unmasked", under a page whose own example is causal.  The sum was held against the
configuration's row sum (the causal row 1's, 2.028): an error on a right sum, and notes "carried from" it on the
right outputs after it (an outside trial's page, t239a).  A total printed right after the numbers it adds is their
sum whatever example they are of, now also when the list closes its math first (`$(…)$, sum`,
`claims/conventions.py`).  My own scores."""

import numpy as np

from check_helpers import error_findings, line_of

Q = np.array([[1.0, 0.0], [0.0, 1.0], [1.0, 1.0]])


def _page(total=None):
    s = Q @ Q.T / np.sqrt(2)
    causal = np.where(np.tril(np.ones((3, 3))) > 0, s, -np.inf)
    A = np.exp(causal - causal.max(axis=1, keepdims=True))
    A /= A.sum(axis=1, keepdims=True)
    rows = "\\\\".join("&".join(f"{x:.3f}" for x in r) for r in A)
    e = np.exp(s[0])
    total = total or f"{e.sum():.3f}"
    return "\n".join([
        "# Masked and unmasked", "",
        "$$Q=K=V=\\begin{bmatrix}1&0\\\\0&1\\\\1&1\\end{bmatrix}$$", "",
        f"With the causal mask and the scale $1/\\sqrt{{2}}$: $$A=\\begin{{bmatrix}}{rows}\\end{{bmatrix}}$$", "",
        "### Unmasked: every row sees every key", "",
        f"- **Row 1.** Scores $({s[0, 0]:.3f}, {s[0, 1]:.0f}, {s[0, 2]:.3f})$, exponentials "
        f"$({e[0]:.3f}, {e[1]:.0f}, {e[2]:.3f})$, sum {total}.", ""])


def test_the_sum_of_its_own_exponentials_holds():
    assert error_findings(_page()) == []


def test_a_slipped_sum_is_found_against_its_exponentials():
    page = _page("5.065")
    errs = error_findings(page)
    assert [(f.line, f.printed) for f in errs] == [(line_of(page, "**Row 1.**"), "5.065")], [f.message for f in errs]
