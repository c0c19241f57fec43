"""The two notebooks, executed for real with nbclient (make.py runs them)."""
import json
import re

import numpy as np

from _common import compute, grads, respell, NUMBER, wrong, changed, P


# ------------------------------------------------------------------ notebooks, executed for real

def notebook(lang):
    import nbformat
    from nbclient import NotebookClient
    if lang == "en":
        name = "nb_torch_autograd_grads.ipynb"
        cfg = {"X": [[1, 0, 1], [0, 1, 1], [1, 1, 0]], "n_heads": 1, "W_Q": [[1, 0, 0], [0, 1, 0], [0, 0, 1]],
               "W_K": [[0, 1, 0], [1, 0, 0], [0, 0, 1]], "W_V": [[1, 0, 0], [0, 2, 0], [0, 0, 1]], "W_O": "none",
               "causal": True, "backward": {"loss": "sum"}}
        intro = ("## Gradients of one causal attention head with `torch.autograd`\n\nThree tokens, one head, "
                 "$d_k = 3$, no output projection, $L = \\sum Y$. I print every `.grad` and then redo the softmax's "
                 "backward by hand to see where $D$ comes in.")
        code = [
            "import torch\ntorch.set_printoptions(precision=4)\n"
            f"X = torch.tensor({cfg['X']}, dtype=torch.float64)\n"
            f"W_Q = torch.tensor({cfg['W_Q']}, dtype=torch.float64, requires_grad=True)\n"
            f"W_K = torch.tensor({cfg['W_K']}, dtype=torch.float64, requires_grad=True)\n"
            f"W_V = torch.tensor({cfg['W_V']}, dtype=torch.float64, requires_grad=True)",
            "Q, K, V = X @ W_Q, X @ W_K, X @ W_V\nQ.retain_grad(); K.retain_grad(); V.retain_grad()\n"
            "S = (Q @ K.T) / 3 ** 0.5\nS = S.masked_fill(torch.triu(torch.ones(3, 3, dtype=torch.bool), 1), "
            "float('-inf'))\nS.retain_grad()\nA = torch.softmax(S, dim=-1)\nA.retain_grad()\nY = A @ V\nY.sum().backward()\nA",
            "A.grad",
            "S.grad",
            "D = (A.grad * A).sum(-1, keepdim=True)\nprint(D)\ntorch.allclose(S.grad, A * (A.grad - D))",
            "print(Q.grad)\nprint(K.grad)\nprint(V.grad)",
            "W_Q.grad",
            "W_K.grad",
        ]
    else:
        name = "nb_numpy_manual_backward_zh.ipynb"
        cfg = {"X": [[1, 1, 0], [0, 1, 2], [1, 0, 1]], "n_heads": 1, "W_Q": [[1, 0, 1], [0, 1, 0], [0, 0, 1]],
               "W_K": [[1, 0, 0], [0, 1, 0], [1, 1, 1]], "W_V": [[1, 0, 0], [0, 1, 0], [0, 0, 1]], "W_O": "none",
               "backward": {"target": [[1, 0, 0], [0, 1, 0], [0, 0, 1]]}}
        intro = ("## 用 NumPy 手写注意力的反向传播\n\n单头，3 个 token，$d_k = 3$，不加掩码，没有输出投影。"
                 "损失是 $L = \\frac{1}{2}\\|Y - T\\|^2$，目标 $T$ 是单位矩阵。每一步都打印出来。")
        code = [
            "import numpy as np\nnp.set_printoptions(precision=4, suppress=True)\n"
            f"X = np.array({cfg['X']}, dtype=float)\nW_Q = np.array({cfg['W_Q']}, dtype=float)\n"
            f"W_K = np.array({cfg['W_K']}, dtype=float)\nW_V = np.array({cfg['W_V']}, dtype=float)\nT = np.eye(3)",
            "Q, K, V = X @ W_Q, X @ W_K, X @ W_V\nS = Q @ K.T / np.sqrt(3)\nE = np.exp(S - S.max(1, keepdims=True))\n"
            "A = E / E.sum(1, keepdims=True)\nY = A @ V\nprint(A)\nprint(Y)",
            "dY = Y - T      # 上游梯度\ndA = dY @ V.T\ndV = A.T @ dY\nprint(dA)\nprint(dV)",
            "D = (dA * A).sum(1, keepdims=True)   # 每行一个数\ndS = A * (dA - D)\nprint(D)\nprint(dS)",
            "dQ = dS @ K / np.sqrt(3)\ndK = dS.T @ Q / np.sqrt(3)\nprint(dQ)\nprint(dK)",
            "dW_Q = X.T @ dQ\ndW_K = X.T @ dK\ndW_V = X.T @ dV\nprint(dW_Q)\nprint(dW_K)\nprint(dW_V)",
            "dX = dQ @ W_Q.T + dK @ W_K.T + dV @ W_V.T   # 三条路径相加\ndX",
        ]
    nb = nbformat.v4.new_notebook()
    nb.cells = [nbformat.v4.new_markdown_cell(intro)] + [nbformat.v4.new_code_cell(c) for c in code]
    nb.metadata["kernelspec"] = {"name": "python3", "display_name": "Python 3", "language": "python"}
    NotebookClient(nb, timeout=120, kernel_name="python3", record_timing=False).execute()
    t, un = compute(cfg)
    v = grads(t)
    doc = {"file": name, "format": "ipynb", "lang": lang, "config": cfg, "slips": [],
           "notes": "torch notebook printing .grad of S, A, Q, K, V and the weights, causal" if lang == "en" else
           "Chinese NumPy notebook, MSE loss against the identity, every step printed"}
    kinds = {"missing_D": ("dS", "backward_softmax"), "transposed_dK": ("dK", "backward_scores"),
             "missing_scale": ("dQ", "backward_scores")}
    if cfg.get("causal"):
        kinds["masked_gradient"] = ("dS", "backward_softmax")
    for kind, (nm, step) in kinds.items():
        M, W = v[nm], wrong(kind, v[nm], t, un)
        i = changed(M, W)[0]
        for c, cell in enumerate(nb.cells, start=1):
            out = "".join(o.get("text", "") or o.get("data", {}).get("text/plain", "") + "\n"
                          for o in cell.get("outputs", []))
            lines = out.split("\n")
            hit = _row_line(lines, M, i, nm, cell, lang)
            if hit is not None:
                k, row_text = hit
                doc["slips"].append({"find": row_text, "replace": respell(row_text, W[i]), "line": k + 1, "cell": c,
                                     "where": "output", "step": step, "kind": kind})
                break
        else:
            raise ValueError((name, kind))
    text = nbformat.writes(nb)
    for s in doc["slips"]:
        assert text.count(json.dumps(s["find"])[1:-1]) == 1, (name, s["find"], text.count(json.dumps(s["find"])[1:-1]))
    return name, text, doc


def _row_line(lines, M, i, nm, cell, lang):
    """(line index, the row's bracketed text) of row i of matrix nm in one cell's outputs, if the cell prints it."""
    src = cell.source if cell.cell_type == "code" else ""
    wanted = {"dS": "S.grad" if lang == "en" else "print(dS)", "dK": "print(K.grad)" if lang == "en" else "print(dK)",
              "dQ": "print(Q.grad)" if lang == "en" else "print(dQ)"}[nm]
    if wanted not in src:
        return None
    for k, line in enumerate(lines):
        for group in re.findall(r"\[[^\[\]]*\]", line):
            found = [float(x) for _, x in re.findall(NUMBER, group)]
            if len(found) == M.shape[1] and np.allclose(found, M[i], rtol=0, atol=0.6 * 10 ** -P):
                return k, line                     # the whole printed line: a row may recur in another tensor
    return None
