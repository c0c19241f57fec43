r"""A weighted sum written with its value vectors (`y1 = 0.401*[2,0] + 0.198*[0,1] + 0.401*[2,1]`) on a page whose
W_V the checker did not read (an outside trial's slide script, t246a: the weights stood beside X in one drawing),
so that it assumed W_V = I and held the written vectors against V = X: "v_1[1]: printed 2; exact 1", twice, on a
right line.  Vectors that differ from an assumed V in more than one entry say the page has a W_V of its own; they
are judged only where every entry but one is V's.  My own numbers: X with W_Q = W_K = I, and values from a W_V
that doubles the first column, never printed as a matrix."""

import numpy as np
from check_helpers import error_places, line_of, softmax

from mha.check import check_document

X = np.array([[1.0, 0.0], [0.0, 1.0], [1.0, 1.0]])


def _page(v_text, out):
    a = softmax(X[0] @ X.T / np.sqrt(2))
    w = [f"{x:.3f}" for x in a]
    terms = " + ".join(f"{wk}*{vk}" for wk, vk in zip(w, v_text))
    return "\n".join([
        "X = [[1, 0], [0, 1], [1, 1]]", "",
        "Q = K = X (no projection for the queries and keys).", "",
        "S = Q K^T / sqrt(2)",
        "row 1 of S = [0.707, 0.000, 0.707]",
        f"weights of token 1 = [{', '.join(w)}]", "",
        f"y1 = {terms} = {out}", ""])


def _out(V):
    a = softmax(X[0] @ X.T / np.sqrt(2))
    return "[" + ", ".join(f"{x:.3f}" for x in a @ V) + "]"


def test_values_from_a_weight_the_page_keeps_to_itself_are_not_judged():
    V = X * np.array([2.0, 1.0])
    page = _page(["[2,0]", "[0,1]", "[2,1]"], _out(V))
    assert line_of(page, "y1 =") not in {ln for ln, _ in error_places(page, fmt="md")}


def test_a_slip_in_one_value_under_v_equal_to_x_is_still_found():
    page = _page(["[1,0]", "[0,1]", "[1,2]"], _out(X))
    assert (line_of(page, "y1 ="), "2") in error_places(page, fmt="md")
