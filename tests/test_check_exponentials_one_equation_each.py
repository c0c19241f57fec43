r"""One row of a softmax worked out in display math, one equation per exponential on one line, the sum on the
next, and the row of weights named by code's indexing two lines further down (an outside trial's course guide,
t254c: a slipped weight there was missed, and the page's configuration, which hung on that row, was lost):

    $$e^{2.0} = 7.39, \quad e^{1.0} = 2.72, \quad ...$$
    $$\text{sum} = 12.76$$

    $$A_1[0,:] = [0.58 \; 0.21 \; 0.13 \; 0.08]$$

The exponentials are a row when each stands in its own equation, once (not "e^{0.5} ≈ 1.65 (twice)"); the weights
row is found three lines below, under a name indexed as code indexes (`A_1[0,:]`).  My own numbers."""

from check_helpers import error_findings

_PAGE = r"""## Softmax of the first row

The scaled scores of the first query are $[2.0, 1.0, 0.5, 0.0]$.

$$e^{2.0} = 7.39, \quad e^{1.0} = 2.72, \quad e^{0.5} = 1.65, \quad e^{0.0} = 1.00$$
$$\text{sum} = 12.76$$

$$A_1[0,:] = \begin{bmatrix} 0.58 & {w} & 0.13 & 0.08 \end{bmatrix}$$
"""


def test_the_row_holds():
    assert error_findings(_PAGE.replace("{w}", "0.21")) == []


def test_a_weight_that_is_not_its_share_is_found():
    found = error_findings(_PAGE.replace("{w}", "0.31"))
    assert [(f.line, f.printed) for f in found] == [(8, "0.31")]


def test_exponentials_that_stand_for_several_are_no_row():
    page = _PAGE.replace("{w}", "0.31").replace(r"e^{0.0} = 1.00$$", r"e^{0.0} = 1.00$$ (each twice)")
    assert error_findings(page) == []


def test_exponentials_of_unrounded_scores_are_not_slips():
    # scores printed rounded to three decimals (1/√2 and √2), their exponentials worked from the exact values:
    # e^{1.414} is 4.1123, but e^{√2} = 4.1133 is what the page prints, within the score's own rounding
    page = (r"""$$\text{scores} = [0.707,\ 0.707,\ 1.414]$$""" "\n\n"
            r"""$$e^{0.707} \approx 2.028, \quad e^{0.707} \approx 2.028, \quad e^{1.414} \approx 4.113$$""" "\n")
    assert error_findings(page) == []
