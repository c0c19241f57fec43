"""A token's vector given once, then each projection on a line of its own as the matrix and where it takes the
vector (t224/fieldH-05, an HTML lesson: `x = [1, 0]`, then `W_K=[[0.3, 0.7],[0.6, 0.4]] → K = [0.3, 0.7]`).  The
lines were judged only when the configuration happened to take these matrices as the page's W_Q, W_K, W_V; with
a later example's W_K read, the slip in K went unseen.  The arrow says what it computes, x·W, so the line is
judged on its own (claims/rowproduct.py `_arrow_products`), under the same rule as `[1, 0] × W_K = [..]`: the
page's other such lines must hold as x·W.  My own matrices."""

import numpy as np

from check_helpers import error_places, line_of

x = np.array([0.0, 1.0])
W = {"Q": [[0.4, 0.6], [0.7, 0.2]], "K": [[0.5, 0.1], [0.3, 0.9]], "V": [[0.8, 0.2], [0.6, 0.4]]}


def _page(k_row=None):
    rows = {n: ", ".join(f"{v:.1f}" for v in x @ np.array(m)) for n, m in W.items()}
    if k_row:
        rows["K"] = k_row
    lines = ["# One word, three views", "", "The word is x = [0, 1].", ""]
    for n, m in W.items():
        lines.append(f"W_{n} = [[{m[0][0]}, {m[0][1]}], [{m[1][0]}, {m[1][1]}]] → {n} = [{rows[n]}]")
        lines.append("")
    return "\n".join(lines)


def test_the_rows_are_right():
    assert (x @ np.array(W["K"])).tolist() == [0.3, 0.9]


def test_the_clean_page_checks_clean():
    assert error_places(_page()) == []


def test_a_slipped_key_is_found():
    text = _page(k_row="0.3, 0.6")
    assert error_places(text) == [(line_of(text, "W_K"), "0.6")]
