"""Held-out documents 4 and 6: notebooks, executed for real with nbclient (run by make.py, in its order)."""
import math

import numpy as np

from _common import attn, notebook


# 4. Kaggle-style notebook with pandas DataFrames of weights
X = np.array([[0.2, 0.8, -0.4], [0.9, -0.1, 0.3], [-0.5, 0.4, 0.7], [0.6, 0.6, 0.1]])
WQ = np.array([[0.5, -0.2, 0.1], [0.3, 0.8, -0.5], [-0.6, 0.1, 0.9]])
WK = np.array([[0.7, 0.2, -0.3], [-0.1, 0.6, 0.4], [0.2, -0.5, 0.8]])
WV = np.array([[0.4, 0.1, 0.6], [0.2, -0.7, 0.3], [-0.3, 0.5, 0.2]])
src4 = [
    ("md", "# 🔍 Self-attention explained with a DataFrame\n\nA toy sentence of four tokens. We compute one attention "
           "head with NumPy and look at the weights as a labelled table. Upvote if it helps!"),
    ("code", "import numpy as np\nimport pandas as pd\npd.set_option('display.precision', 3)\n\n"
             "tokens = ['the', 'cat', 'sat', 'down']\n"
             f"X = np.array({X.tolist()})\n"
             f"W_q = np.array({WQ.tolist()})\nW_k = np.array({WK.tolist()})\nW_v = np.array({WV.tolist()})\n"
             "print(X.shape, W_q.shape)"),
    ("code", "Q, K, V = X @ W_q, X @ W_k, X @ W_v\npd.DataFrame(Q, index=tokens, columns=['q0', 'q1', 'q2'])"),
    ("code", "d_k = K.shape[1]\nscores = Q @ K.T / np.sqrt(d_k)\n"
             "pd.DataFrame(scores, index=tokens, columns=tokens).round(4)"),
    ("md", "## Softmax\n\nEach row of the score table becomes a probability distribution over the tokens."),
    ("code", "def softmax(z):\n    e = np.exp(z - z.max(axis=1, keepdims=True))\n    return e / e.sum(axis=1, keepdims=True)\n\n"
             "weights = softmax(scores)\ndf = pd.DataFrame(weights, index=tokens, columns=tokens)\ndf"),
    ("code", "df.sum(axis=1)"),
    ("code", "out = weights @ V\npd.DataFrame(out, index=tokens, columns=['z0', 'z1', 'z2']).round(4)"),
    ("code", "print('most attended token for each query:')\nprint(df.idxmax(axis=1).to_dict())"),
]
Q, K, V = X @ WQ, X @ WK, X @ WV
QK, S, A, O = attn(Q, K, V, 1 / math.sqrt(3))
dfrow = lambda name, v, d: name + "  " + "  ".join(f"{x:.{d}f}".rjust(6) for x in v)
notebook("nb_kaggle_pandas_dataframes.ipynb", src4,
         {"X": X.tolist(), "n_heads": 1, "W_Q": WQ.tolist(), "W_K": WK.tolist(), "W_V": WV.tolist(), "W_O": "none",
          "scale": "1/sqrt(d_k)", "tokens": ["the", "cat", "sat", "down"]},
         "Kaggle-style notebook: pandas DataFrames (display.precision 3, .round(4)) with token index and columns, "
         "row sums as a Series, emoji heading; one head, d_k = 3, 4 tokens", [
             ("cat  -0.113  0.084  0.199  0.029", "cat   0.113  0.084  0.199  0.029", "scale", "dropped_sign", 4, "output"),
             ("sat   0.285  0.183  0.289  0.242", "sat   0.285  0.138  0.289  0.242", "softmax", "swapped_digits", 6, "output"),
             ("down  0.190 -0.194  0.373", "down  0.190 -0.149  0.373", "weighted_sum", "swapped_digits", 8, "output")])


# 6. torch notebook, F.softmax, set_printoptions(precision=3), two heads via view/transpose, W_O
X = np.array([[1.0, 0.5, -0.5, 0.0], [0.0, 1.0, 0.5, -1.0], [0.5, 0.0, 1.0, 0.5]])
WQ = np.array([[1, 0, 0.5, 0], [0, 1, 0, 0.5], [0.5, 0, 1, 0], [0, 0.5, 0, 1]])
WK = np.array([[0, 1, 0, 0], [1, 0, 0, 0], [0, 0, 0, 1], [0, 0, 1, 0]], float)
WV = np.array([[1, 0, 0, 1], [0, 1, 1, 0], [0, 0, 1, 0], [1, 0, 0, 0]], float)
WO = np.array([[0.5, 0, 0, 0.5], [0, 0.5, 0.5, 0], [0.5, 0, 0.5, 0], [0, 0.5, 0, 0.5]])
src6 = [
    ("md", "## Multi-head attention with `torch.nn.functional`\n\nBatch of one sentence, 3 tokens, `d_model = 4`, "
           "2 heads. Weights are fixed by hand so the numbers are reproducible."),
    ("code", "import torch\nimport torch.nn.functional as F\ntorch.set_printoptions(precision=3)\n\n"
             f"x = torch.tensor([{X.tolist()}])          # (batch, seq, d_model)\n"
             f"W_q = torch.tensor({WQ.tolist()})\nW_k = torch.tensor({WK.tolist()})\n"
             f"W_v = torch.tensor({WV.tolist()})\nW_o = torch.tensor({WO.tolist()})\n"
             "B, T, D = x.shape\nH = 2\nd_k = D // H\nprint(x.shape, d_k)"),
    ("code", "q = (x @ W_q).view(B, T, H, d_k).transpose(1, 2)\nk = (x @ W_k).view(B, T, H, d_k).transpose(1, 2)\n"
             "v = (x @ W_v).view(B, T, H, d_k).transpose(1, 2)\nprint(q.shape)\nq"),
    ("code", "scores = q @ k.transpose(-2, -1) / d_k ** 0.5\nprint(scores.shape)\nscores"),
    ("code", "attn = F.softmax(scores, dim=-1)\nattn"),
    ("code", "heads = attn @ v\nheads"),
    ("code", "concat = heads.transpose(1, 2).reshape(B, T, D)\nout = concat @ W_o\nprint(concat)\nprint(out)"),
]
notebook("nb_torch_functional_precision3.ipynb", src6,
         {"X": [X.tolist()], "n_heads": 2, "W_Q": WQ.tolist(), "W_K": WK.tolist(), "W_V": WV.tolist(), "W_O": WO.tolist(),
          "scale": "1/sqrt(d_k)"},
         "torch notebook: torch.nn.functional.softmax, set_printoptions(precision=3), view/transpose to "
         "(1, 2, 3, 2), scores (1, 2, 3, 3) as 4-D tensors, concat and W_O", [
             ("[ 0.177, -0.530, -0.177]", "[ 0.177,  0.530, -0.177]", "scale", "dropped_sign", 4, "output"),
             ("[0.456, 0.225, 0.320]", "[0.456, 0.252, 0.320]", "softmax", "swapped_digits", 5, "output"),
             ("[0.526, 0.558, 0.578, 0.505]", "[0.526, 0.558, 0.587, 0.505]", "output", "swapped_digits", 7, "output")])
