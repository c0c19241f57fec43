"""Three ways pages draw their numbers that hid them from the checker (trials t170a and t170d):

- a score table drawn with each cell in brackets of its own and an arrow after the token
  (`  cat  →  [ 2 ]  [ 0 ]  [ 1 ]   ← q_cat · each k`): the rows were read as one-number vectors, so a wrong score
  was never compared;
- sums written out one per line in a fence with no language (`Topic: 0.120 + 0.305 + 0.041 = 0.466`): Python
  parses such a line as an annotated assignment, so the block was taken for code and its sums never added;
- a marker emoji between the equals sign and the result (`= 🔴 **0.466**`): the division was not read.

My own example (X, W_Q, W_K given; unscaled scores), every number computed with NumPy."""

import numpy as np

from mha.check import check_document

X = np.array([[1, 0, 1], [0, 1, 0], [1, 1, 0]])
W_Q = np.array([[1, 0], [0, 1], [1, 1]])
W_K = np.array([[0, 1], [1, 0], [1, 1]])


def _matrix(m):
    return "\n".join("  " + " & ".join(str(x) for x in r) + r" \\" for r in m)


def _boxed_page(slip=None):
    s = (X @ W_Q) @ (X @ W_K).T
    rows = [f"  {w:<5}→  " + "  ".join(f"[ {x} ]" for x in r) + f"   ← q_{w} · each k"
            for w, r in zip(("cat", "sat", "mat"), s)]
    text = "\n".join(["# Scores by hand", "", "$$X = \\begin{bmatrix}", _matrix(X), "\\end{bmatrix}$$", "",
                      "$$W_Q = \\begin{bmatrix}", _matrix(W_Q), "\\end{bmatrix} \\quad W_K = \\begin{bmatrix}",
                      _matrix(W_K), "\\end{bmatrix}$$", "", "Unscaled scores Q Kᵀ:", "", "```",
                      "          cat    sat    mat", *rows, "```", ""])
    return text.replace(*slip) if slip else text, s


def test_a_wrong_score_in_a_boxed_row_is_found():
    text, s = _boxed_page()
    r = check_document(text, fmt="md")
    assert not r.errors and r.n_numbers >= 9, ([f.describe() for f in r.findings], r.n_numbers)
    wrong_row = "[ " + " ]  [ ".join(str(x) for x in s[1]) + " ]"
    slipped = wrong_row.replace(f"[ {s[1][2]} ]", f"[ {s[1][2] + 1} ]")
    r = check_document(text.replace(wrong_row, slipped), fmt="md")
    assert [f.printed for f in r.errors] == [str(s[1][2] + 1)], [f.describe() for f in r.findings]


def test_sums_in_a_fence_without_language_are_added():
    terms = [[0.120, 0.305, 0.041], [0.233, 0.018, 0.402]]
    lines = [f"{name}: " + " + ".join(f"{t:.3f}" for t in ts) + f" = {sum(ts):.3f}"
             for name, ts in zip(("Topic", "Place"), terms)]
    text = "# Contributions\n\n```\n" + "\n".join(lines) + "\n```\n"
    r = check_document(text, fmt="md")
    assert not r.errors and r.n_claims == 2, ([f.describe() for f in r.findings], r.n_claims)
    wrong = f"{sum(terms[1]) + 0.01:.3f}"
    r = check_document(text.replace(f"= {sum(terms[1]):.3f}", f"= {wrong}"), fmt="md")
    assert [(f.line, f.printed) for f in r.errors] == [(5, wrong)], [f.describe() for f in r.findings]


def test_a_marker_before_a_result_is_no_obstacle():
    e = np.exp([2.0, 1.0, 0.5])
    rows = [f"| {w} | {x:.2f} | {x:.2f} / {e.sum():.2f} = 🔴 **{x / e.sum():.3f}** |" for w, x in zip("abc", e)]
    text = "\n".join(["# Shares", "", "| token | e^s | share |", "|---|---|---|", *rows, ""])
    r = check_document(text, fmt="md")
    assert not r.errors and r.n_claims >= 3, ([f.describe() for f in r.findings], r.n_claims)
    right = f"{e[0] / e.sum():.3f}"
    wrong = f"{float(right) + 0.01:.3f}"
    r = check_document(text.replace(f"**{right}**", f"**{wrong}**"), fmt="md")
    assert [f.printed for f in r.errors] == [wrong], [f.describe() for f in r.findings]


def test_a_sum_inside_a_drawn_frame_is_worked_out():
    """`│  W_query: 512 × 512 + 512 = 262,656      │` (trial t179a, a notebook's box of parameter counts): with the
    frame closed after the number, the sum was never read; the frame is blanked as for a bracketed vector."""
    right = "```\n┌──────────────────────────────────────────┐\n│  W_query: 512 × 512 + 512 = 262656      │\n" \
            "└──────────────────────────────────────────┘\n```\n"
    text = "# Parameters\n\n" + right
    r = check_document(text, fmt="md")
    assert not r.errors and r.n_numbers == 1, ([f.describe() for f in r.findings], r.n_numbers)
    r = check_document(text.replace("262656", "262756"), fmt="md")
    assert [f.printed for f in r.errors] == ["262756"], [f.describe() for f in r.findings]


def test_a_row_sum_column_is_no_key():
    """A table of weights with a last column "Row sum" (trials t170d and t179a): the table was read as 3×4 and matched
    nothing, so its rows were never compared with the scores above them; the sums' column is set aside."""
    s = np.array([[1.4, -np.inf, -np.inf], [0.6, 1.1, -np.inf], [0.3, 0.9, 1.7]])
    e = np.exp(s - s.max(1, keepdims=True))
    w = e / e.sum(1, keepdims=True)
    cell = lambda x: "-∞" if np.isinf(x) else f"{x:g}"
    words = ("cat", "sat", "down")
    scores = "\n".join(f"| **{t}** | " + " | ".join(cell(x) for x in r) + " |" for t, r in zip(words, s))
    weights = "\n".join(f"| **{t}** | " + " | ".join(f"{x:.2f}" for x in r) + " | 1.0 |" for t, r in zip(words, w))
    text = "\n".join(["# Causal weights", "", "**The masked score matrix (3 × 3):**", "", "|  | cat | sat | down |",
                      "|--|--|--|--|", scores, "", "**The attention matrix (softmax of each row):**", "",
                      "|  | cat | sat | down | Row sum |", "|--|--|--|--|--|", weights, ""])
    r = check_document(text, fmt="md")
    assert not r.errors and r.n_numbers >= 9, ([f.describe() for f in r.findings], r.n_numbers)
    wrong = f"{w[2, 1] + 0.05:.2f}"
    r = check_document(text.replace(f"| {w[2, 1]:.2f} |", f"| {wrong} |"), fmt="md")
    assert wrong in [f.printed for f in r.errors], [f.describe() for f in r.findings]
