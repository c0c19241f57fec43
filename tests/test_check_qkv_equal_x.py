"""`Q = K = V = X` written as a formula (t219d: "我们直接令 $Q=K=V=X$") says the projections are I.  They were taken
as assumed, and a configuration resting on assumed weights only judges what a printout computed from X bears out.
The formula makes them stated (infer/candidates.py `_names_x_as`), unless the page prints that weight as well (then
the formula belongs to another of its examples)."""

from mha.check import check_document

PAGE = """# Without projections

Let ${said}$ and

$$
X = \\begin{{bmatrix}} 1 & 0 \\\\ 0 & 2 \\end{{bmatrix}}
$$

The weights of the first query are $[0.670, 0.330]$.
"""


def test_the_formula_states_the_identity():
    r = check_document(PAGE.format(said="Q = K = V = X"), fmt="md")
    assert r.configuration["W_Q"] == "W_Q = I (stated)" and r.configuration["W_V"] == "W_V = I (stated)"


def test_without_it_they_are_assumed():
    r = check_document(PAGE.format(said="d_k = 2"), fmt="md")
    assert r.configuration["W_Q"] == "W_Q = I (assumed)"


def test_a_printed_weight_is_not_overruled():
    text = PAGE.format(said="Q = K = V = X").replace("[0.670, 0.330]", "[0.196, 0.804]").replace(
        "\\end{bmatrix}\n$$", "\\end{bmatrix},\\quad W_K = \\begin{bmatrix} 0 & 1 \\\\ 1 & 0 \\end{bmatrix}\n$$")
    r = check_document(text, fmt="md")
    assert "W_K = \\begin" in text and r.configuration["W_K"].startswith("W_K printed")
