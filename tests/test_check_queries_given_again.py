"""Fixed keys and values probed with one query after another, each bound again in its own code cell and printed
with its weights and output: the pattern of a widely copied Transformer tutorial (t148c, a Korean copy of it).

Only the first query's example was judged.  Each later `query = ...` opened "another example" whose region held the
query alone, so nothing could be inferred there, and the batched query (two rows) was "another shape".  A region
opened by a rebinding now keeps the configuration's givens that nothing has bound again (the keys and values above),
ends at the next rebinding, and up to MAX_REBOUND of them are judged (regions.py).
"""

from mha.check import check_document

DOC = """# Probing attention with hand-made queries

Three keys and three values stay fixed while we try several queries.

```python
np.set_printoptions(suppress=True, precision=4)

def show(q, k, v):
    out, w = attention(q, k, v)   # softmax(q k^T / sqrt(d_k)) v
    print("weights:")
    print(w)
    print("output:")
    print(out)

keys = np.array([[10, 0],
                 [0, 10],
                 [0, 10]], dtype=float)
values = np.array([[2, 0],
                   [0, 6],
                   [4, 3]], dtype=float)

# lines up with the first key only
query = np.array([[10, 0]], dtype=float)
show(query, keys, values)
```

```
weights:
[[1. 0. 0.]]
output:
[[2. 0.]]
```

```python
# the second and third keys are the same, so their values are averaged
query = np.array([[0, 10]], dtype=float)
show(query, keys, values)
```

```
weights:
[[0.  0.5 0.5]]
output:
[[2.  4.5]]
```

```python
# every key scores the same: the plain mean of the values
query = np.array([[10, 10]], dtype=float)
show(query, keys, values)
```

```
weights:
[[0.3333 0.3333 0.3333]]
output:
[[2. 3.]]
```

```python
query = np.array([[0, 10],
                  [10, 10]], dtype=float)
show(query, keys, values)
```

```
weights:
[[0.     0.5    0.5   ]
 [0.3333 0.3333 0.3333]]
output:
[[2.  4.5]
 [2.  3. ]]
```
"""


def test_every_query_is_judged_and_holds():
    r = check_document(DOC, fmt="md")
    assert not r.findings and not r.not_checked, ([f.describe() for f in r.findings], r.not_checked)
    assert r.n_numbers >= 25


def test_a_slip_in_a_later_example_is_found_there():
    for old, new, line in (("[[0.  0.5 0.5]]", "[[0.  0.6 0.5]]", 42), ("[2.  3. ]]", "[2.  3.5]]", 72),
                           ("[[0.3333 0.3333 0.3333]]", "[[0.3333 0.3433 0.3333]]", 55)):
        assert DOC.count(old) == 1
        r = check_document(DOC.replace(old, new), fmt="md")
        assert [f.line for f in r.errors] == [line], (old, [f.describe() for f in r.findings])
