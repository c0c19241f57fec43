"""A head worked on the page from its printed weights (A^{(1)}, then head_1 = A^{(1)} V_1 row by row), printed as a
matrix, then copied into the concatenation.  With a slip in the head's matrix, the concatenation (right) was
found wrong against it, the slipped copy quoted as "exact" (t208c, a post on causal multi-head attention).  A
head the page works out and the checker could not confirm is no reference: a cell where the two copies differ
is said, not judged.  Heads given outright are still the reference (test_check_concat_of_printed_heads.py)."""

from check_helpers import error_places

PAGE = r"""## Two heads from given weights

$$A^{(1)} = \begin{bmatrix} 1.000 & 0.000 \\ 0.200 & 0.800 \end{bmatrix}$$

With values $[0.60, 0.20]$ and $[0.10, 0.90]$, head one is $A^{(1)} V_1$:
- Row 1: $1.000 [0.60, 0.20] = [0.600, 0.200]$
- Row 2: $0.200 [0.60, 0.20] + 0.800 [0.10, 0.90] = [0.200, 0.760]$

$$\text{head}_1 = \begin{bmatrix} 0.600 & 0.200 \\ HEAD & 0.760 \end{bmatrix}$$

$$A^{(2)} = \begin{bmatrix} 1.000 & 0.000 \\ 0.500 & 0.500 \end{bmatrix}$$

With values $[0.40, 0.40]$ and $[0.00, 0.80]$, head two is $A^{(2)} V_2$:
- Row 1: $1.000 [0.40, 0.40] = [0.400, 0.400]$
- Row 2: $0.500 [0.40, 0.40] + 0.500 [0.00, 0.80] = [0.200, 0.600]$

$$\text{head}_2 = \begin{bmatrix} 0.400 & 0.400 \\ 0.200 & 0.600 \end{bmatrix}$$

$$\text{Concat}(\text{head}_1, \text{head}_2) = \begin{bmatrix} 0.600 & 0.200 & 0.400 & 0.400 \\ 0.200 & 0.760 & 0.200 & 0.600 \end{bmatrix}$$
"""


def test_the_worked_heads_and_their_concatenation_hold():
    assert error_places(PAGE.replace("HEAD", "0.200")) == []


def test_a_slip_in_a_worked_head_is_not_charged_to_the_concatenation():
    text = PAGE.replace("HEAD", "0.210")
    concat_line = next(i for i, ln in enumerate(text.splitlines(), start=1) if "Concat" in ln)
    assert all(line != concat_line for line, _ in error_places(text))
