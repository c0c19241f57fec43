"""fieldB-16: English notebook comparing a NumPy and a PyTorch scaled-dot-product attention (rsnemmen/toy-transformer).

Its weights come from unseeded np.random.rand and are never printed, so the printed attention scores (cell 24) are
this document's givens, with the printed input and keys.  Derived and recomputed here: softmax of the scores (cell
27) and the attention weights softmax(scores / sqrt(2)) (cell 30).  The context vectors need the unprinted values:
the NumPy printout (cell 33) is taken as given, and the PyTorch printout (cell 42) and the repeat (cell 44) are
judged against it (the notebook's own claim that they agree).
"""
import re
import sys
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent))
from _fb import Doc, write_source  # noqa: E402

S = np.array([[1.61744518, 1.35153675, 1.48872608, 1.57951193],      # printed attn_scores (cell 24)
              [1.39766512, 1.10238484, 1.25296955, 1.30298844],
              [1.67081042, 1.39618009, 1.53787067, 1.63167416],
              [1.22167049, 0.87404728, 1.04945537, 1.05431901]])
C = np.array([[1.04199908, 1.1026673],                                # printed NumPy context (cell 33)
              [1.04514966, 1.10237919],
              [1.04210659, 1.10270256],
              [1.04925196, 1.10208835]])


def softmax_rows(z):
    e = np.exp(z - z.max(axis=1, keepdims=True))
    return e / e.sum(axis=1, keepdims=True)


ID = "fieldB-16-en-toy-scaled-dot-comparison"
D = Doc(ID)


def block(cell, arr, what, role="derived"):
    keys = sorted(k for k in D.lines if k[0] == cell and k[2])
    r = 0
    for k in keys:
        nums = re.findall(r"-?\d+\.\d+", D.lines[k])
        if len(nums) != arr.shape[1]:
            continue
        for c, p in enumerate(nums):
            D.add(k, c, p, arr[r, c], f"{what}[{r + 1},{c + 1}]", role=role)
        r += 1
    assert r == arr.shape[0], (cell, r)


cell = lambda needle: D.find(needle)[0]   # noqa: E731
block(cell("input = np.random.rand(ntokens, dim)") + 1, np.array([[0.84711883, 0.29366239, 0.6859246],
      [0.01094959, 0.91137307, 0.48771804], [0.30762366, 0.60051404, 0.80047688],
      [0.46252616, 0.94153513, 0.05022171]]), "X", role="input")
block(cell("keys = x @ W_key") + 1, np.array([[1.04736787, 0.78204195], [0.4219047, 1.03244979],
      [0.73243049, 0.91343069], [0.59448109, 1.12181464]]), "K", role="input")
block(cell("attn_scores = queries @ keys.T") + 1, S, "S = Q K^T", role="input")
block(cell("softmax(attn_scores)"), softmax_rows(S), "softmax(S)")
block(cell("attn_weights = softmax(attn_scores / keys.shape[-1]**0.5)") + 1, softmax_rows(S / np.sqrt(2)), "A = softmax(S/sqrt(2))")
block(cell("context_vec = attn_weights @ values") + 1, C, "context (NumPy)", role="input")
block(cell("sa_v1 = SelfAttention_v1(dim, dk, W_query, W_key, W_value)"), C, "context (PyTorch)")
block(cell("### Compare with mine") + 1, C, "context (repeat)")
D.mark_own_errors()
D.slip_at(D.find("[0.28414938, 0.21149891", output=True), "0.21149891", "0.21419891", "swapped digits in softmax(S)")
D.slip_at(D.find("[0.27400623, 0.222373", output=True), "0.27400623", "0.27040623", "swapped digits in a scaled weight")
D.slip_at(D.find("[1.0451, 1.1024]", output=True), "1.0451", "1.0541", "swapped digits in the PyTorch context")
D.write()
write_source(ID, "rsnemmen/toy-transformer", "scaled-dot-p_comparison.ipynb", "9eeec76624135b86a5f9006627ed2f28736855af", "ipynb", "en", "scores", False,
             "English notebook: random (unprinted) weights; printed input, keys and raw scores; softmax of the scores, softmax(scores/sqrt(2)), context vectors from NumPy and from a PyTorch class",
             {"T": 4, "d": 3, "d_k": 2, "H": 1, "scale": "1/sqrt(d_k) (also an unscaled softmax)", "mask": None, "W_O": None,
              "givens": "printed scores (weights never printed)"})
