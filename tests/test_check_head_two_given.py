r"""Two heads where only head 1's projections are printed and head 2's Q, K and V are given directly, then a
section of exercises with sizes of their own.

Outside trial t137d (a Vietnamese lecture) brought six false findings from three patterns:
* `W_K^{(1)}` alone was taken as one weight that every head shares, so head 2's given K and V were "wrong" in a
  row: only a chain that says so (`W_V^{(1)} = W_V^{(2)} = ...`) makes a weight shared; head 1's alone is one
  head's (infer/candidates.py), and with it no configuration of more heads is tried (infer/search.py): head 2's
  givens are then not judged against a guess;
* "T = 2", "d_k = d_v = 4" and "W_Q = W_K = W_V = I" under a heading "Bài tập" (exercises) were judged as the
  example's: a heading over exercises, in the languages read, opens a section of its own (scoped.py);
* (with a slip planted in A^(1)) the product O^(1) = A^(1) V^(1), right, was called off its printed factors: a
  product whose printed factor is itself found wrong is not its copy (claims/namedproduct.factor_slips).
"""

from mha.check import check_document

PAGE = r"""# Two heads by hand

Let $B = 1, T = 3, D = 4, d_k = d_v = 2$ and

$$X = \begin{bmatrix}1&0&0&1\\0&1&1&0\\1&1&0&1\end{bmatrix}.$$

The first head uses

$$W_Q^{(1)} = W_K^{(1)} = \begin{bmatrix}1&0\\0&1\\0&0\\0&0\end{bmatrix},\qquad
W_V^{(1)} = \begin{bmatrix}0&0\\0&0\\1&0\\0&1\end{bmatrix},$$

so

$$Q^{(1)} = K^{(1)} = \begin{bmatrix}1&0\\0&1\\1&1\end{bmatrix},\qquad V^{(1)} = \begin{bmatrix}0&1\\1&0\\0&1\end{bmatrix}.$$

$$A^{(1)} = \begin{bmatrix}0.401&0.198&0.401\\0.198&0.401&0.401\\0.248&0.248&0.503\end{bmatrix},\qquad
O^{(1)} = A^{(1)} V^{(1)} = \begin{bmatrix}0.198&0.802\\0.401&0.599\\0.248&0.752\end{bmatrix}.$$

For the second head we take, directly,

$$Q^{(2)} = K^{(2)} = \begin{bmatrix}0&1\\1&0\\0&1\end{bmatrix},\qquad V^{(2)} = \begin{bmatrix}1&0\\0&1\\1&1\end{bmatrix}.$$

$$A^{(2)} = \begin{bmatrix}0.401&0.198&0.401\\0.248&0.503&0.248\\0.401&0.198&0.401\end{bmatrix},\qquad
O^{(2)} = \begin{bmatrix}0.802&0.599\\0.497&0.752\\0.802&0.599\end{bmatrix}.$$

## Bài tập

1. Cho $T = 2$, $D = d_k = d_v = 2$, $X = I_2$ và $W_Q = W_K = W_V = I_2$. Tính $A$ và $O$.
2. Cho $T = 5$, $D = 8$, $H = 2$, $d_k = d_v = 4$. Ghi kích thước của $Q, K, V$.
"""


def test_the_page_has_no_false_finding():
    r = check_document(PAGE, fmt="md")
    assert not r.errors, [f.describe() for f in r.errors]
    assert r.n_numbers >= 20, r.n_numbers


def test_a_slip_in_head_one_weights_is_one_finding():
    r = check_document(PAGE.replace(r"0.198&0.401&0.401\\0.248", r"0.198&0.410&0.401\\0.248"), fmt="md")
    assert [f.line for f in r.errors] == [16], [f.describe() for f in r.errors]
    assert "0.410" in r.errors[0].describe()


def test_exercise_headings_open_a_section():
    from mha.check.scoped import _EXERCISES
    for heading in ("## Bài tập", "### Exercises", "## 练习", "## Übungen", "### 3. Homework", "## 연습 문제"):
        assert _EXERCISES.match(heading), heading
    for heading in ("## Worked example", "## Exercising the model"):
        assert not _EXERCISES.match(heading), heading
