"""A page that works its example twice: first a section that says it leaves the scale out ("First without scaling",
"暫略 √d_k 縮放"), its outputs written as weighted sums, then the scaled version (trial t177b, a Traditional Chinese
chapter: 2 false findings).  The unscaled outputs were "O row 2 ... the scale left out" under the scaled
configuration the page as a whole takes, though the section's heading and prose say so; and the Traditional forms
of the words (縮放, 未除以, 暫略) were not read at all.  My own X and weights; every number is NumPy's."""

import numpy as np
import pytest

from mha.check import check_document

X = np.array([[2.0, 0.0], [0.0, 1.0], [1.0, 1.0]])
W_K = np.array([[1.0, 0.0], [1.0, 1.0]])
W_V = np.array([[1.0, 0.0], [0.0, 2.0]])


def _softmax(s):
    e = np.exp(s - s.max(-1, keepdims=True))
    return e / e.sum(-1, keepdims=True)


def _vec(v, d=3):
    return "[" + ", ".join(f"{x:.{d}f}" for x in v) + "]"


def _page(heading, prose):
    q, k, v = X, X @ W_K, X @ W_V
    s = q @ k.T
    lines = ["# Small attention example", "",
             f"Input X = {X.astype(int).tolist()}, W_Q = I, W_K = {W_K.astype(int).tolist()}, "
             f"W_V = {W_V.astype(int).tolist()}.", "",
             f"Q = {q.astype(int).tolist()}, K = {k.astype(int).tolist()}, V = {v.astype(int).tolist()}.", "",
             f"## {heading}", "", prose, ""]
    for i in (1, 2):
        w = _softmax(s[i])
        terms = " + ".join(f"{a:.3f}{v[j].astype(int).tolist()}" for j, a in enumerate(w))
        lines += [f"softmax({s[i].astype(int).tolist()}) ≈ {_vec(w)}", "",
                  f"c_{i + 1} = {terms} = {_vec(w @ v)}", ""]
    a = _softmax(s / np.sqrt(2))
    lines += ["## Scaled version", "", "Divide by √2:", "",
              "A ≈ [" + ", ".join(_vec(r) for r in a) + "]", "", "C ≈ [" + ", ".join(_vec(r) for r in a @ v) + "]", ""]
    return "\n".join(lines)


@pytest.mark.parametrize("heading, prose", [
    ("First without scaling", "Here we skip the scaling and apply the softmax to the raw scores:"),
    ("先不縮放", "這裡暫略 √d_k 縮放，直接對原始分數做 softmax（未除以 √d_k）："),
])
def test_the_unscaled_section_is_no_slip(heading, prose):
    r = check_document(_page(heading, prose), fmt="md")
    assert not r.errors, [f.describe() for f in r.findings]


def test_a_slip_in_the_scaled_version_is_still_found():
    text = _page("First without scaling", "Here we skip the scaling:")
    a = _softmax(X @ (X @ W_K).T / np.sqrt(2))
    right = f"{a[2, 1]:.3f}"
    wrong = f"{a[2, 1] + 0.01:.3f}"
    line = next(ln for ln in text.splitlines() if ln.startswith("A ≈"))
    r = check_document(text.replace(line, line.replace(right, wrong)), fmt="md")
    assert wrong in [f.printed for f in r.errors], [f.describe() for f in r.findings]
