"""`mha check` never cries wolf on what is not the configuration's: attention weights printed after dropout (and
what is computed from them), however the document says so.  Every document below was written for these tests;
its numbers come from mha.trace and a dropout mask chosen here."""

import numpy as np

import mha
from mha.check import check_document
from mha.check.readers.dropout import DropState, after_dropout, dropped_prints
from check_helpers import numpy_rows

X = [[0.6, -0.2, 0.9, 0.1], [0.3, 0.8, -0.4, 0.5], [-0.7, 0.4, 0.2, 0.6], [0.2, 0.5, 0.7, -0.3]]
CFG = {"X": X, "n_heads": 1, "W_Q": "identity", "W_K": "identity", "W_V": "identity", "scale": "1/sqrt(d_k)",
       "W_O": "none", "causal": True}
KEEP = np.array([[1, 1, 1, 1], [0, 1, 1, 1], [1, 1, 0, 1], [1, 0, 1, 1]], dtype=float)


def _numbers(p: float, decimals: int = 2):
    t = mha.trace(CFG)
    A = t.A[0, 0]
    D = A * KEEP / (1 - p)
    V = np.asarray(X)
    return A, D, D @ V, A @ V, decimals


def _doc(p: float, decimals: int, words_before: str = "", code: bool = True) -> str:
    A, D, DV, AV, d = _numbers(p, decimals)
    rows = lambda M: numpy_rows(M, d)                                      # noqa: E731
    drop = (f"```python\nweights = torch.nn.Dropout(p={p})(weights)\nprint(weights)\nprint(weights.sum(dim=-1))\n```\n\n"
            if code else "")
    sums = f"{numpy_rows(D.sum(axis=-1, keepdims=True).T, d)}\n" if code else ""
    return f"""# Causal weights and dropout

```python
X = torch.tensor({X})
weights = torch.softmax(masked_scores(X @ X.T / 2), dim=-1)   # causal, scaled by 1/sqrt(4)
print(weights)
```

```text
{rows(A)}
```

{words_before}

{drop}```text
{rows(D)}
{sums}```

```python
print(weights @ X)
```

```text
{rows(DV)}
```

Without dropout the output is:

```text
{rows(AV)}
```
"""


def test_weights_after_dropout_in_code_are_not_judged_as_weights():
    # p = 0.1 at 2 decimals: most survivors, divided by 0.9, still look like weights, so the printout "mostly
    # matches" A; before the dropout reading, its dropped entries were findings
    for p in (0.1, 0.5):
        r = check_document(_doc(p, 2), fmt="md")
        assert not r.errors, (p, [f.describe() for f in r.errors])
        why = [n for n in r.not_checked if "dropout" in n.reason]
        assert len(why) >= 2, [f"{n.what}: {n.reason}" for n in r.not_checked]
        assert r.n_numbers >= 16          # the weights before dropout and the dropout-free output were judged


def test_words_that_say_after_dropout_are_enough_without_code():
    for words in ("The attention weights after dropout (training mode):", "对注意力权重做 dropout（p=0.1）之后："):
        r = check_document(_doc(0.1, 2, words, code=False), fmt="md")
        assert not r.errors, (words, [f.describe() for f in r.errors])


def test_a_slip_before_dropout_is_still_found():
    A, D, *_ = _numbers(0.1)
    good = f"{A[2, 1]:.2f}"
    doc = _doc(0.1, 2)
    row = numpy_rows(A, 2).split("\n")[2]
    slipped = row.replace(good, f"{A[2, 1] + 0.11:.2f}", 1)
    r = check_document(doc.replace(row, slipped, 1), fmt="md")
    line = doc[:doc.index(row)].count("\n") + 1
    assert any(f.line == line and f.step == "softmax" for f in r.errors), [f.describe() for f in r.errors]


def test_a_dropout_that_drops_nothing_is_judged():
    # rate 0: what it prints is the weights themselves, so a slip in that printout is found
    A, D, *_ = _numbers(0.1)
    doc = _doc(0.1, 2).replace("Dropout(p=0.1)", "Dropout(p=0.0)")
    same = numpy_rows(A, 2)
    slipped = same.replace(f"{A[3, 2]:.2f}", f"{A[3, 2] + 0.2:.2f}", 1)
    k = doc.index(numpy_rows(D, 2))
    doc = doc[:k] + slipped + doc[k + len(numpy_rows(D, 2)):]
    line = doc[:k].count("\n") + 4
    r = check_document(doc, fmt="md")
    assert any(f.line == line for f in r.errors), [f.describe() for f in r.errors]


def test_before_dropout_words_do_not_hide_a_slip():
    assert not after_dropout("The weights before dropout:")
    assert not after_dropout("Without dropout the output is:")
    assert not after_dropout("推理时不做 dropout：")
    assert after_dropout("经过 dropout 之后的权重：") and after_dropout("Now apply dropout to the weights:")


def test_dropped_names_follow_assignments_across_cells():
    s = DropState()
    first = dropped_prints("attn = torch.softmax(s, -1)\nprint(attn)\nattn = self.dropout(attn)\n", s)
    assert first.labels == set() and "attn" in s.dropped
    second = dropped_prints("ctx = attn @ v\nprint(ctx)\nattn = torch.softmax(s, -1)\nprint(attn)", s)
    assert second.labels == {"ctx"}                    # attn is clean again after its reassignment
    inert = dropped_prints("drop = nn.Dropout(0.0)\nw = drop(w)\nprint(w)\nprint(F.dropout(w, p=0.0))", DropState())
    assert inert.labels == set()
    words = dropped_prints('print("Sum of first row:", nn.Dropout(0.5)(w)[0].sum())', DropState())
    assert words.texts == ["Sum of first row:"]

