"""What one example of a page says is no evidence about another: an early example whose first product went wrong
(every entry of QKᵀ off, and all that follows worked from them) must not be judged against a configuration
built from a later section's projections (its output taken for the queries of a cross-attention, or for the X
those projections take); a causal mask explained 1,400 lines after an unmasked example does not make that
example causal; and three entries of a 2×2 printout to four decimals identify it even when the fourth is a slip."""

import numpy as np

from mha.check import check_document


def _bm(M, d):
    return " \\\\ ".join(" & ".join(f"{x:.{d}f}" for x in r) for r in M)


def _softmax(S):
    E = np.exp(S - S.max(axis=1, keepdims=True))
    return E / E.sum(axis=1, keepdims=True)


def two_sections(wrong_first_product: bool = True, wrong_weights: bool = False, states: bool = False) -> str:
    Q = np.array([[0.2, 0.5], [0.4, 0.1]])
    K = np.array([[0.3, 0.6], [0.7, 0.2]])
    V = np.array([[1.0, 0.5], [0.5, 1.5]])
    S = (Q @ K.T + (np.array([[0.06, 0.04], [0.13, 0.03]]) if wrong_first_product else 0)).round(2)
    Ss = (S / np.sqrt(2)).round(3)
    A = _softmax(Ss).round(3) + (np.array([[0.026, -0.026], [0.0, 0.0]]) if wrong_weights else 0)
    O = A @ V
    Xd = np.array([[1.0, 0.0], [0.5, 1.0]])
    Xe = np.array([[0.5, 1.0], [1.0, 0.5]])
    WQ = np.array([[0.1, 0.2], [0.3, 0.1]])
    WK = np.array([[0.2, 0.1], [0.1, 0.3]])
    WV = np.array([[0.5, 0.1], [0.2, 0.6]])
    Qc, Kc, Vc = Xd @ WQ, Xe @ WK, Xe @ WV
    Ac = _softmax(Qc @ Kc.T / np.sqrt(2))
    states_shown = f"""
\\[
X_{{dec}} = \\begin{{bmatrix}} {_bm(Xd, 1)} \\end{{bmatrix}}, \\quad X_{{enc}} = \\begin{{bmatrix}} {_bm(Xe, 1)} \\end{{bmatrix}}
\\]
""" if states else ""
    rows = "\n".join(f"| [{Q[i, 0]}, {Q[i, 1]}] | [{K[i, 0]}, {K[i, 1]}] | [{V[i, 0]}, {V[i, 1]}] |" for i in range(2))
    return f"""### 1. Attention from given matrices

#### a. One head

Take these small matrices:

| Q | K | V |
|---|---|---|
{rows}

The products:

\\[
QK^T = \\begin{{bmatrix}} {_bm(S, 2)} \\end{{bmatrix}}
\\]

Scaled by \\( \\sqrt{{2}} \\):

\\[
\\frac{{QK^T}}{{\\sqrt{{2}}}} = \\begin{{bmatrix}} {_bm(Ss, 3)} \\end{{bmatrix}}
\\]

\\[
\\text{{softmax}}\\left(\\frac{{QK^T}}{{\\sqrt{{2}}}}\\right) = \\begin{{bmatrix}} {_bm(A, 3)} \\end{{bmatrix}}
\\]

\\[
\\text{{Attention}}(Q, K, V) = \\begin{{bmatrix}} {_bm(A, 3)} \\end{{bmatrix}} \\times \\begin{{bmatrix}} {_bm(V, 1)} \\end{{bmatrix}} = \\begin{{bmatrix}} {_bm(O, 3)} \\end{{bmatrix}}
\\]

So the output is

\\[
\\begin{{bmatrix}} {_bm(O, 3)} \\end{{bmatrix}}
\\]

---

#### b. Cross-attention

In cross-attention the queries come from the decoder and the keys and values from the encoder.
{states_shown}
\\[
W_Q = \\begin{{bmatrix}} {_bm(WQ, 1)} \\end{{bmatrix}}, \\quad W_K = \\begin{{bmatrix}} {_bm(WK, 1)} \\end{{bmatrix}}, \\quad W_V = \\begin{{bmatrix}} {_bm(WV, 1)} \\end{{bmatrix}}
\\]

\\[
Q_1 = \\begin{{bmatrix}} {_bm(Qc, 2)} \\end{{bmatrix}}, \\quad K_1 = \\begin{{bmatrix}} {_bm(Kc, 2)} \\end{{bmatrix}}, \\quad V_1 = \\begin{{bmatrix}} {_bm(Vc, 2)} \\end{{bmatrix}}
\\]

\\[
\\text{{softmax}}\\left(\\frac{{Q_1 K_1^T}}{{\\sqrt{{2}}}}\\right) = \\begin{{bmatrix}} {_bm(Ac, 3)} \\end{{bmatrix}}
\\]
"""


def test_an_output_printed_again_after_its_product_follows_from_the_same_rounded_weights():
    """O = A × V worked from A rounded to three decimals, then "So the output is" the same matrix: both are notes
    (the V a later section prints is no copy of the V the first example gives)."""
    r = check_document(two_sections(), fmt="md")
    assert not r.errors, [f.describe() for f in r.errors]
    assert {29, 35} <= {f.line for f in r.findings if f.severity == "note"}


def test_a_slip_in_the_weights_of_the_early_example_is_found_there():
    r = check_document(two_sections(wrong_weights=True), fmt="md")
    assert r.errors and {f.line for f in r.errors} == {25}, [f.describe() for f in r.errors]


def test_the_sequences_of_a_cross_attention_are_not_taken_from_another_section_nor_from_weights():
    from mha.check.infer.prepare import prepare
    from mha.check.infer.printed_inputs import cross_sources
    from mha.check.readers import read_document
    objs, _ = prepare(read_document(two_sections(states=True), "md"))
    pairs = cross_sources([o for o in objs if o.val is not None])
    lines = {o.a.place.line for pair in pairs for o in pair}
    assert lines and all(line > 40 for line in lines), lines


def _far_causal(slip: bool) -> str:
    """A short unmasked example in code, then a long stretch of other material, then a section on causal masks."""
    Q = np.array([[1.0, 0.5], [0.3, 0.8]])
    K = np.array([[0.9, 0.1], [0.2, 0.7]])
    S = Q @ K.T / np.sqrt(2)
    shown = [[f"{x:.4f}" for x in r] for r in S]
    if slip:
        shown[0][1] = shown[0][1][:-2] + shown[0][1][-1] + shown[0][1][-2]
    filler = "\n".join(f"Exercise {k}: multiply the {k}-th pair of small matrices by hand." for k in range(160))
    return f"""# Matrices for attention

```python
Q = torch.tensor([[1.0, 0.5], [0.3, 0.8]])
K = torch.tensor([[0.9, 0.1], [0.2, 0.7]])
scores = Q @ K.T / 2 ** 0.5
print(f"Attention scores:\\n{{scores.round(decimals=4)}}")
```

```
Attention scores:
[[{shown[0][0]} {shown[0][1]}]
 [{shown[1][0]} {shown[1][1]}]]
```

{filler}

## The causal mask

A decoder hides future tokens with a lower-triangular mask:

$$
M = \\begin{{bmatrix}} 0 & -\\infty & -\\infty \\\\ 0 & 0 & -\\infty \\\\ 0 & 0 & 0 \\end{{bmatrix}}
$$
"""


def test_a_causal_section_far_away_does_not_mask_an_early_example():
    clean = check_document(_far_causal(False), fmt="md")
    assert not clean.errors and clean.configuration.get("mask") == "no mask"
    r = check_document(_far_causal(True), fmt="md")
    assert [f.line for f in r.errors] == [12], [f.describe() for f in r.errors]
    assert "-inf" not in r.errors[0].describe() and "∞" not in r.errors[0].describe()
