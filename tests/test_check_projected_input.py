"""A block that projects LayerNorm(X + P), not X: the embeddings X are printed first, then the positions, then the
normalized rows, and Q, K, V are worked from those.

On a public walk-through (outside trial t129d) the part before the configuration's first given was read again as
another example starting from the raw X; with one weight used transposed and one of its signs "undone" that
reading fitted many later numbers by chance, and the correct K rows (and the printed weight) were called wrong.
A reading whose Q, K or V printed by name mostly disagree with it projects another input than the author did: it
is neither a repair of a slip (infer/search.repair) nor another example to judge (regions.py).
"""

from mha.check import check_document

PAGE = r"""
# A tiny GPT block with numbers

## 1. Embeddings

Four tokens, two numbers each:

```
X = [[1.0, 0.0],    # red
     [0.0, 1.0],    # blue
     [1.0, 1.0],    # fast
     [2.0, 1.0]]    # car
```

## 2. Positions

```
P = [[0.2, 0.0],
     [0.0, 0.2],
     [0.2, 0.2],
     [0.1, 0.3]]

H0 = X + P =
  [[1.2, 0.0],
   [0.0, 1.2],
   [1.2, 1.2],
   [2.1, 1.3]]
```

## 3. LayerNorm before attention

Each row minus its mean, over its standard deviation:

```
LN(H0) =
  [[ 1.0, -1.0],
   [-1.0,  1.0],
   [ 0.0,  0.0],
   [ 1.0, -1.0]]
```

## 4. Q, K, V

We project LN(H0), not X:

```
W_Q = [[1, 0],
       [0, 1]]

W_K = [[1, 0],
       [1, 1]]

W_V = [[1, 1],
       [0, 1]]
```

**Q = LN(H0) @ W_Q** (the identity):
```
Q =
  [[ 1.0, -1.0],
   [-1.0,  1.0],
   [ 0.0,  0.0],
   [ 1.0, -1.0]]
```

**K = LN(H0) @ W_K**:
```
red: [1.0, -1.0] @ W_K -> [0, -1]
blue: [-1.0, 1.0] @ W_K -> [0, 1]
fast: [0.0, 0.0] @ W_K -> [0, 0]
car: [1.0, -1.0] @ W_K -> [0, -1]
```

**V = LN(H0) @ W_V**:
```
V =
  [[1, 0],
   [-1, 0],
   [0, 0],
   [1, 0]]
```

## 5. Scores

```
S = Q @ K.T =
  [[1, -1, 0, 1],
   [-1, 1, 0, -1],
   [0, 0, 0, 0],
   [1, -1, 0, 1]]
```

## 6. Scale, mask, softmax

```
A =
  [[1.000, 0.000, 0.000, 0.000],
   [0.196, 0.804, 0.000, 0.000],
   [0.333, 0.333, 0.333, 0.000],
   [0.365, 0.089, 0.180, 0.365]]
```

## 7. Output

```
O = A @ V =
  [[1.000, 0.000],
   [-0.609, 0.000],
   [0.000, 0.000],
   [0.642, 0.000]]
```
"""


def test_the_block_checks_clean():
    r = check_document(PAGE, fmt="md")
    assert not r.errors, [f.describe() for f in r.errors]
    assert r.n_numbers >= 20, r.n_numbers


def test_a_slip_in_the_weights_after_the_mask_is_found():
    r = check_document(PAGE.replace("[0.196, 0.804", "[0.196, 0.840"), fmt="md")
    assert [f.printed for f in r.errors] == ["0.840"], [f.describe() for f in r.findings]

