r"""A notebook that takes one head's slice under code's name for a local copy, `Q_ = Q[b, h]`, and prints it, then
the raw scores, the scaled ones and the masked ones (an outside trial's SDPA notebook, t250b).  `Q_` named
nothing, so no d_k was known for the raw scores: the search started from the scaled scores as printed, a slip in
them became the truth and the masked copy, which is right, took the blame.  A trailing underscore is a local copy
of the quantity it names; the raw scores start the chain with 1/√d_k from Q_'s width.  My own numbers."""

from check_helpers import code_notebook, error_findings

from mha.check import check_document
from mha.check.labels import parse_label

_OUT = """Q_: tensor([[0., 1.],
        [2., 3.],
        [4., 5.]])
Raw scores: tensor([[ 1.,  3.,  5.],
        [ 3., 13., 23.],
        [ 5., 23., 41.]])
Scaled scores: tensor([[ 0.7071,  2.1213,  3.5355],
        [ {s21},  9.1924, 16.2635],
        [ 3.5355, 16.2635, 28.9914]])
Masked scores: tensor([[ 0.7071,    -inf,    -inf],
        [ 2.1213,  9.1924,    -inf],
        [ 3.5355, 16.2635, 28.9914]])"""

_SRC = """Q_ = Q[b, h]
K_ = K[b, h]
print("Q_:", Q_)
scores = Q_ @ K_.T
print("Raw scores:", scores)
scores = scores / math.sqrt(Q_.shape[1])
print("Scaled scores:", scores)
scores = scores.masked_fill(~mask, float('-inf'))
print("Masked scores:", scores)"""


def _nb(s21="2.1213"):
    return code_notebook([(_SRC, _OUT.replace("{s21}", s21))])


def test_a_trailing_underscore_names_the_quantity():
    assert parse_label("Q_").nodes == ("Q",) and parse_label("x_").nodes == ("X",)
    assert parse_label("W_") is None


def test_the_raw_scores_start_the_chain_with_the_scale_of_q_width():
    report = check_document(_nb(), fmt="ipynb")
    assert [f for f in report.findings if f.severity == "error"] == []
    assert report.configuration["scale"].startswith("1/√d_k with d_k = 2")


def test_a_slip_in_the_scaled_scores_is_found_there_and_not_on_the_masked_copy():
    found = error_findings(_nb(s21="2.1231"), fmt="ipynb")
    assert [f.printed for f in found] == ["2.1231"]
