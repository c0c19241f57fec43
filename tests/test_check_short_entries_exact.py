"""An input typed with entries of different lengths (`0.2` beside `0.71234`), then results printed to 8 decimals.

Outside trial t144a (planted slips missed): each short entry was taken as a rounding to its own precision (0.2 as
0.2 ± 0.05), and that doubt, carried through the chain, let a slip of 0.01 in an 8-decimal output pass.  An entry
shorter than the rest of its object is its value to the longest precision there, as NumPy prints (`[0.1 0.60999]`)
and as people type (model.half_units).
"""

from mha.check import check_document

PAGE = """# Self-attention with NumPy

```python
import numpy as np
X = np.array([[0.2, 1.1, 0.5], [0.93, 0.4, 0.71234], [1.2, -0.35, 0.8]])
W_Q = np.array([[0.5, 0.1, 0.0], [0.2, 0.6, 0.3], [0.0, 0.4, 0.9]])
W_K = np.array([[0.3, 0.0, 0.7], [0.1, 0.8, 0.0], [0.6, 0.2, 0.4]])
W_V = np.array([[1.0, 0.2, 0.0], [0.0, 0.5, 0.3], [0.4, 0.0, 0.6]])
scores = (X @ W_Q) @ (X @ W_K).T
print(scores)
```

    [[1.278      1.3758512  1.0568    ]
     [1.12050332 1.40491231 1.24745564]
     [0.6836     1.0775624  1.11245   ]]

```python
weights = np.exp(scores / np.sqrt(3))
weights = weights / weights.sum(axis=1, keepdims=True)
output = weights @ (X @ W_V)
print(output)
```

    [[1.02895783 0.35927816 0.52387341]
     [1.06539791 0.34254891 0.51578039]
     [1.0949911  0.32741328 0.50831172]]
"""


def test_the_clean_page_holds():
    r = check_document(PAGE, fmt="md")
    assert not r.errors and r.n_numbers >= 18, ([f.describe() for f in r.findings], r.n_numbers)


def test_a_slip_of_a_hundredth_in_the_output_is_found():
    r = check_document(PAGE.replace("1.02895783", "1.03895783"), fmt="md")
    assert [(f.line, f.printed) for f in r.errors] == [(24, "1.03895783")], [f.describe() for f in r.findings]


def test_a_slip_of_a_hundredth_in_the_scores_is_found():
    r = check_document(PAGE.replace("1.3758512 ", "1.3858512 "), fmt="md")
    assert [(f.line, f.printed) for f in r.errors] == [(13, "1.3858512")], [f.describe() for f in r.findings]
