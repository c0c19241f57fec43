"""A quiz whose shared context gives X and the weights, and whose later question brings its own vectors in the same
sentence as "Let": `### Q7 — One masked query` then `**Let $q=[1,3]$, $k_1=[1,2]$, ... $v_2=[0,3]$.**`.  Those
vectors were judged as rows of the context's Q, K and V (three false findings on one line of a quiz in t229a): a
question heading did not open an example of its own (scoped.py), and "Let" on the very line of the givens did not
count as saying they are given (claims/array.py `_exercise_given`).  My own quiz."""

CONTEXT = r"""# Attention quiz

## Context for every question

$$X = \begin{bmatrix} 1 & 0 \\ 0 & 1 \\ 1 & 1 \end{bmatrix}, \qquad W_Q = W_K = I, \qquad
W_V = \begin{bmatrix} 2 & 0 \\ 0 & 1 \end{bmatrix}.$$

### Q1 — The scores (Numeric Input)

With $Q = XW_Q$ and $K = XW_K$ the unscaled scores are
$$QK^\top = \begin{bmatrix} 1 & 0 & 1 \\ 0 & 1 & 1 \\ 1 & 1 & 2 \end{bmatrix}.$$

### Q7 — One masked query (Numeric Input)

**Let $q=[1,3]$, $k_1=[1,2]$, $k_2=[0,1]$, and $v_1=[2,5]$, $v_2=[0,3]$. Use no scaling. What are the scores?**

The scores are $q \cdot k_1 = 7$ and $q \cdot k_2 = 3$.
"""


def _errors(text):
    from mha.check import check_document
    return check_document(text, fmt="md").errors


def test_a_question_s_own_givens_are_not_the_context_s_rows():
    errs = _errors(CONTEXT)
    assert errs == [], [f.describe() for f in errs]


def test_a_slip_in_the_context_s_scores_is_still_found():
    errs = _errors(CONTEXT.replace(r"1 & 1 & 2 \end", r"1 & 1 & 3 \end"))
    assert [f.printed for f in errs] == ["3"], [f.describe() for f in errs]
