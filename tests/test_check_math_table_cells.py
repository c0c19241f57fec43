"""A table whose cells work the softmax out in TeX, `$\\frac{e^{1.8}}{e^{2.5}+e^{1.8}+e^{0.5}} = 0.30$` (trial
t174d, a Chinese page on graph attention): the same expression on a display line was judged, in a cell it was read
as prose and never worked out, so a wrong weight in the table went unreported.  A cell that is all math is read
as TeX.  My own scores; the weights are NumPy's, at two decimals."""

import numpy as np

from mha.check import check_document

E = [2.1, 1.3, 0.4]


def _page(slip=None):
    w = np.exp(E) / np.exp(E).sum()
    den = "+".join(f"e^{{{x}}}" for x in E)
    rows = [f"| {k + 1} | {x} | $\\frac{{e^{{{x}}}}}{{{den}}} = {w[k]:.2f}$ |" for k, x in enumerate(E)]
    text = "\n".join(["# Weights of one node", "", "| neighbour | e | α |", "|---|---|---|", *rows, ""])
    return text.replace(*slip) if slip else text, w


def test_each_cell_is_worked_out():
    text, w = _page()
    r = check_document(text, fmt="md")
    assert not r.errors and r.n_numbers >= 3, ([f.describe() for f in r.findings], r.n_numbers)
    wrong = f"{w[1] + 0.05:.2f}"
    r = check_document(text.replace(f"= {w[1]:.2f}$", f"= {wrong}$"), fmt="md")
    assert [(f.line, f.printed) for f in r.errors] == [(6, wrong)], [f.describe() for f in r.findings]
