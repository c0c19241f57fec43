"""Weights typed in code above Q, K and V that are printed (from an embedding the page never prints).

Outside trial t138c: the checker started from the printed Q, K and V; the code's `W_k = np.array([...])` was then
taken for "W_K given other values" (a new example), and a slip planted in the printed score matrix was set aside
with it.  With a start after X, X and the weights in code are upstream of the start, not new values of it
(claims/rebind.py).
"""

from mha.check import check_document

PAGE = """# Scores from printed projections

```python
W_q = np.array([[0.2, 0.1], [0.3, 0.5], [0.4, 0.6], [0.1, 0.2]])
W_k = np.array([[0.1, 0.3], [0.2, 0.4], [0.5, 0.7], [0.1, 0.2]])
Q = embed(tokens) @ W_q
K = embed(tokens) @ W_k
print("Q:", Q)
print("K:", K)
print("scores:", Q @ K.T)
```

```
Q: [[ 0.512 -0.231]
 [ 1.104  0.377]
 [-0.648  0.915]]
K: [[ 0.233  0.871]
 [-0.455  0.129]
 [ 0.902 -0.318]]
scores: [[-0.082 -0.263  0.535]
 [ 0.586 -0.454  0.876]
 [ 0.646  0.413 -0.875]]
```
"""


def test_clean():
    r = check_document(PAGE, fmt="md")
    assert not r.errors, [f.describe() for f in r.errors]
    assert r.n_numbers >= 9, r.n_numbers


def test_a_slip_in_the_scores_is_found():
    r = check_document(PAGE.replace("0.586 -0.454", "0.586 -0.445"), fmt="md")
    assert [f.line for f in r.errors] == [21], [f.describe() for f in r.findings]


LATER = PAGE + """
A second try, with another key projection:

```python
W_k = np.array([[0.3, 0.1], [0.0, 0.4], [0.2, 0.2], [0.1, 0.0]])
K = embed(tokens) @ W_k
print("scores:", Q @ K.T)
```

```
scores: [[-0.082 -0.263  0.111]
 [ 0.222 -0.454  0.876]
 [ 0.646  0.333 -0.875]]
```
"""


def test_weights_given_below_the_start_still_open_another_example():
    # six of the nine new scores equal the first ones by construction; the new W_k says they are other scores
    r = check_document(LATER, fmt="md")
    assert not r.errors, [f.describe() for f in r.errors]
