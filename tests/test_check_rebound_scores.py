"""A page that starts from scores gives `scores` other values in a later code block: another example.

Outside trial t136a: a page on the scale's purpose printed softmax of `[10, 50, 15]` "without scaling", then, a
section later, `scores = np.array([0.5, 2.2, 0.7])` "with scaling".  Two of the three entries agreed at one
decimal with the first scores divided by √512 (stated far above), so the literal was taken for the scaled scores
and its 0.5 reported as a wrong 0.4.  A code literal that gives the start's own name other values defines new
scores (claims/rebind.py), as one that rebinds X or Q does.
"""

from mha.check import check_document

PAGE = """# Why the scale matters

With a key width of d_k = 256 the dot products grow large, so the scores are divided by √256 = 16.

## Too sharp

```python
# no scaling
scores = np.array([8, 40, 12])
probs = softmax(scores)
print(probs)
# Output: [0.0, 1.0, 0.0]
```

## Just right

```python
# scaled version
scores = np.array([0.6, 2.5, 0.8])
probs = softmax(scores)
print(probs)
# Output: [0.11, 0.75, 0.14]
```
"""


def test_the_second_literal_is_not_judged_as_the_first_scaled():
    r = check_document(PAGE, fmt="md")
    assert not r.errors, [f.describe() for f in r.errors]


def test_its_own_softmax_is_still_checked():
    r = check_document(PAGE.replace("[0.11, 0.75, 0.14]", "[0.11, 0.74, 0.14]"), fmt="md")
    assert [f.line for f in r.errors] == [22], [f.describe() for f in r.findings]
