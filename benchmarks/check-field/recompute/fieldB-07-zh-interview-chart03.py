"""fieldB-07: Chinese interview notes, chapter 3 (Transformer and self-attention), HTML build of the site.

Three "output examples" are printed under hand-written attention classes: a single-head layer (seed 42, x of
2x4x8), a causal single-head layer (seed 0, x of 1x5x8) and a causal 4-head layer (seed 42, x of 2x5x16).  The
givens are the seeds and the code: x = torch.randn(...) and W = torch.randn / torch.empty then xavier_uniform_, in the
code's order.  torch draws them here; the attention is recomputed in NumPy.  None of the printed matrices is what the
code gives (the page says the output is "similar to" this for one of them): every printed weight row is an own error
of the page.  Since every derived number sits on an own-error line, no slips can be planted (none are).
"""
import sys
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent))
from _fb import Doc, write_source  # noqa: E402


def softmax(z):
    e = np.exp(z - z.max(axis=-1, keepdims=True))
    return e / e.sum(axis=-1, keepdims=True)


def weights(seed, shape_x, d_model, n_heads, causal, x_first, randn_params):
    import torch
    torch.manual_seed(seed)
    x = torch.randn(*shape_x) if x_first else None
    Ws = []
    for _ in range(4):                                  # W_Q, W_K, W_V, W_O: created, then re-initialised
        Ws.append(torch.randn(d_model, d_model) if randn_params else torch.empty(d_model, d_model))
    for W in Ws:
        torch.nn.init.xavier_uniform_(W)
    if x is None:
        x = torch.randn(*shape_x)
    x = x.double().numpy()
    Wq, Wk = Ws[0].double().numpy(), Ws[1].double().numpy()
    d_k = d_model // n_heads
    Q, K = x @ Wq, x @ Wk                               # zero biases
    b, T, _ = x.shape
    Q = Q.reshape(b, T, n_heads, d_k).transpose(0, 2, 1, 3)
    K = K.reshape(b, T, n_heads, d_k).transpose(0, 2, 1, 3)
    s = Q @ K.transpose(0, 1, 3, 2) / np.sqrt(d_k)
    if causal:
        s = np.where(np.triu(np.ones((T, T), bool), 1), -np.inf, s)
    return softmax(s)


ID = "fieldB-07-zh-interview-chart03"
D = Doc(ID)
# the code creates x before the layer in all three tests (x = torch.randn(...) precedes the constructor)
A1 = weights(42, (2, 4, 8), 8, 1, False, True, True)[0, 0]           # single head, mask all ones
A3 = weights(0, (1, 5, 8), 8, 1, True, True, False)[0, 0]            # causal single head (torch.empty + xavier)
A4 = weights(42, (2, 5, 16), 16, 4, True, True, True)[0, 0]          # causal 4 heads, first sample, first head
for start, A, what in ((D.find("tensor([[0.234"), A1, "single-head weights (sample 1)"),
                       (D.find("tensor([[1.000, 0.000, 0.000, 0.000, 0.000],", nth=0), A3, "causal single-head weights"),
                       (D.find("tensor([[1.000, 0.000, 0.000, 0.000, 0.000],", nth=1), A4, "causal 4-head weights (head 1)")):
    for r in range(A.shape[0]):
        k = (None, start[1] + r)
        import re
        printed = re.findall(r"-?\d+\.\d+", D.lines[k])
        for c, p in enumerate(printed):
            D.add(k, c, p, A[r, c], f"{what}[{r + 1},{c + 1}]")
D.mark_own_errors()
for e in D.own_errors:
    e["why"] = "printed example output is not what the code above it gives (its seed, randn/xavier draws): " + e["why"]
D.write()
write_source(ID, "buffaloboyhlh/interviews", "site/nlp/chart03.html", "990113e2367c2a135135d32a643f6e73b3c13342",
             "html", "zh", "X+weights", False,
             "Chinese interview-notes chapter (MkDocs HTML): hand-written single-head, causal and 4-head attention classes with seeded random inputs and weights, and 'output examples' of the attention matrices",
             {"tests": [{"seed": 42, "x": [2, 4, 8], "H": 1, "mask": "all ones"},
                        {"seed": 0, "x": [1, 5, 8], "H": 1, "mask": "causal"},
                        {"seed": 42, "x": [2, 5, 16], "H": 4, "mask": "causal"}],
              "scale": "1/sqrt(d_k)", "W_O": "seeded, not printed", "weights": "randn/empty then xavier_uniform_, never printed"},
             {"note": "no slips: every derived number is on an own-error line"})
