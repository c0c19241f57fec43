"""Matrices in a text block with the name before the first row's token, each row named by its token, alone or side
by side:

     X = we  [ 1  0  1 ]           Q = we  [1 0 2]     K = we  [0 1 1]     V = we  [1 1 0]
         saw [ 0  1  1 ]               saw [0 2 1]         saw [1 0 1]         saw [0 1 1]

The first row was read as a vector "X = we" of its own and the other rows as an unnamed matrix, so X was one row,
a caption's "X (3 × 4)" became a false "wrong shape", and Q, K and V were never read whole (an outside trial's
page, t238a).  The tokens are blanked and each block is one matrix named by its name (`readers/continued.py`,
`token_named_rows`).  My own matrices."""

import numpy as np

from check_helpers import error_findings, line_of
from mha.check import check_document
from mha.check.readers.continued import token_named_rows

TOK = ["we", "saw", "it"]
X = np.array([[1, 0, 1], [0, 1, 1], [1, 1, 0]])
W = {"Q": np.array([[1, 0, 1], [0, 1, 0], [0, 0, 1]]), "K": np.array([[0, 1, 0], [1, 0, 0], [0, 0, 1]]),
     "V": np.array([[1, 0, 0], [0, 1, 0], [1, 1, 1]])}


def _rows(name, M, width=5):
    out = []
    for i, (t, r) in enumerate(zip(TOK, M)):
        head = f"{name} = " if i == 0 else " " * (len(name) + 3)
        out.append(head + f"{t:<4}[" + " ".join(f"{x:g}" for x in r) + "]")
    return out


def _page(out_row=None):
    P = {n: X @ w for n, w in W.items()}
    s = P["Q"] @ P["K"].T / np.sqrt(3)
    A = np.exp(s) / np.exp(s).sum(axis=1, keepdims=True)
    O = A @ P["V"]
    shown = out_row or ", ".join(f"{x:.4f}" for x in O[2])
    side = ["     ".join(parts) for parts in zip(*(_rows(n, P[n]) for n in "QKV"))]
    lines = ["# Three tokens by hand", "", "```text", *(" " + r for r in _rows("X", X)), "```", "",
             "The weights:", "", "```text"]
    for n, w in W.items():
        lines += [(f"W_{n} = " if i == 0 else " " * 6) + "[" + " ".join(str(x) for x in r) + "]"
                  for i, r in enumerate(w)] + [""]
    lines += ["```", "", "The projections, Q = X W_Q and so on:", "", "```text", *(" " + r for r in side), "```", "",
              f"Output of *it* (scaled by √3): [{shown}]", "", "Panel 1 of the animation shows X (3×3).", ""]
    return "\n".join(lines)


def test_the_tokens_are_blanked_and_the_lines_keep_their_length():
    text = " X = we  [1 0]\n     saw [0 1]\n"
    got = token_named_rows(text)
    assert got.split("\n")[0] == " X =     [1 0]" and got.split("\n")[1] == "         [0 1]"
    assert [len(x) for x in got.split("\n")] == [len(x) for x in text.split("\n")]


def test_the_matrices_are_read_whole_and_hold():
    r = check_document(_page(), fmt="md")
    assert r.ok, [f.message for f in r.errors]
    assert r.configuration["mode"] == "X and weights"
    assert r.n_numbers >= 27            # Q, K and V, 3×3 each, read whole


def test_a_slipped_projection_entry_is_found():
    page = _page()
    lines = page.split("\n")
    k = next(i for i, x in enumerate(lines) if x.lstrip().startswith("Q = we"))
    lines[k + 1] = lines[k + 1].replace("[0 1 1]", "[0 1 2]", 1)     # Q's row for "saw" is [0 1 1]
    page = "\n".join(lines)
    errs = error_findings(page)
    assert errs and {f.line for f in errs} == {k + 2}, [f.message for f in errs]
