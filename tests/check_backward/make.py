"""Writes the backward-pass worked examples of tests/check_backward and their manifest.

Eight documents that work the backward pass of one attention head out by hand, in the styles people publish
them in: two notebooks with printouts (torch `.grad`, NumPy by hand), two Markdown posts, two LaTeX handouts,
a plain-text forum post and an HTML course page, four of them in Chinese.  Every sentence was written for this
project; every number is computed by `mha` (float64, `mha.trace(..., backward=...)`) and rounded to 4 decimals
as a person would.  The notebooks are executed for real with nbclient.  Each document has planted slips of the
kinds the backward pass invites: a missing D term in the softmax's backward, a transposed dK, a forgotten scale,
a masked entry given a gradient, and an arithmetic slip in a written-out sum.

    PYTHONPATH=src python tests/check_backward/make.py      (needs nbclient and a python3 kernel with torch)

The output files are committed; this script is the record of how they were made.  No test runs `mha check` on
them yet: the checker does not read gradients (the backward vocabulary is the next step of issue 20).
"""
import json
import re
from pathlib import Path

import numpy as np

import mha

HERE = Path(__file__).resolve().parent
DOCS = []
P = 4                                                # decimals printed everywhere


def compute(cfg):
    """The trace with its gradients, and the same layer without its mask (for the masked-entry slip)."""
    t = mha.trace(cfg)
    unmasked = mha.trace({k: v for k, v in cfg.items() if k != "causal"}) if cfg.get("causal") else None
    return t, unmasked


def grads(t):
    """The numbers a hand-worked backward pass of one head prints, as 2-D arrays (row vectors)."""
    g = t.grads
    return {"X": t.config.X[0], "W_Q": t.config.W_Q, "W_K": t.config.W_K, "W_V": t.config.W_V,
            "Q": t.Q[0], "K": t.K[0], "V": t.V[0], "S": t.S[0, 0], "A": t.A[0, 0], "O": t.O[0, 0], "dY": g.dY[0],
            "dA": g.dA[0, 0], "D": g.D[0, 0][:, None], "dS": g.dS[0, 0], "dQ": g.dQ[0], "dK": g.dK[0],
            "dV": g.dV[0], "dW_Q": g.dW_Q, "dW_K": g.dW_K, "dW_V": g.dW_V, "dX": g.dX[0]}


def num(x):
    s = f"{x:.{P}f}"
    return f"{0:.{P}f}" if float(s) == 0 else s


def respell(text, values):
    """text with its numbers replaced by values, each right-aligned in the old number's field (its leading
    spaces included, keeping one where there was one) and in its notation (torch prints a whole tensor in
    e-notation when one entry is tiny)."""
    it = iter(values)

    def one(m):
        spaces, old = m.group(1), m.group(2)
        x = float(next(it))
        new = f"{x:.{P}e}" if "e" in old else num(x)
        after_bracket = m.start() > 0 and text[m.start() - 1] == "["      # torch's "[-0.1945": no space needed
        pad = max(len(spaces) + len(old) - len(new), 1 if spaces and not after_bracket else 0)
        return " " * pad + new
    return re.sub(NUMBER, one, text)


NUMBER = r"( *)(-?\d+\.\d+(?:e[+-]\d+)?)"


def wrong(name, M, t, unmasked):
    """The slip's version of a matrix: what a person gets who drops D, transposes dK, forgets the scale, or
    lets a masked entry through."""
    g = t.grads
    if name == "missing_D":
        return t.A[0, 0] * g.dA[0, 0]
    if name == "transposed_dK":
        return g.dK[0].T
    if name == "missing_scale":
        return g.dQ[0] / t.config.effective_scale
    if name == "masked_gradient":
        return unmasked.grads.dS[0, 0]
    raise KeyError(name)


# ------------------------------------------------------------------ finding the lines

def line_of(text, needle):
    assert text.count(needle) == 1, (needle, text.count(needle))
    return text[:text.index(needle)].count("\n") + 1


def changed(M, W):
    """The rows whose printed numbers the slip changes."""
    rows = [i for i in range(M.shape[0]) if any(num(a) != num(b) for a, b in zip(M[i], W[i]))]
    assert rows, "the slip changes nothing that is printed"
    return rows


# ------------------------------------------------------------------ LaTeX-like styles (md, tex, html)

def bmatrix(M, env="bmatrix"):
    rows = [" & ".join(num(x) for x in r) + (r" \\" if i < len(M) - 1 else "") for i, r in enumerate(M)]
    return "\\begin{" + env + "}\n" + "\n".join(rows) + "\n\\end{" + env + "}"


def exact(M):
    return "\\begin{bmatrix}\n" + " \\\\\n".join(" & ".join(f"{x:g}" for x in r) for r in M) + "\n\\end{bmatrix}"


def latex_slips(doc, text, t, unmasked, kinds):
    """Plant each kind of slip on the row it changes, in a document whose matrices are bmatrix rows."""
    v = grads(t)
    steps = {"missing_D": ("dS", "backward_softmax"), "transposed_dK": ("dK", "backward_scores"),
             "missing_scale": ("dQ", "backward_scores"), "masked_gradient": ("dS", "backward_softmax")}
    for kind in kinds:
        name, step = steps[kind]
        M, W = v[name], wrong(kind, v[name], t, unmasked)
        # from the line where the matrix begins (its label is there) through the first row the slip changes:
        # unique even where a row of numbers recurs elsewhere (a row of zeros)
        i = changed(M, W)[0]
        block = bmatrix(M)
        assert text.count(block) == 1, (doc["file"], name)
        start = text.index(block)
        row_end = start + len("\n".join(block.split("\n")[:i + 2]))
        find = text[text.rfind("\n", 0, start) + 1:row_end]
        last = find.rsplit("\n", 1)
        replace = last[0] + "\n" + respell(last[1], W[i])
        doc["slips"].append({"find": find, "replace": replace, "line": line_of(text, find) + find.count("\n"),
                             "step": step, "kind": kind})


def arithmetic_slip(doc, text, needle, value, step):
    """A written-out sum whose result is off in its third decimal."""
    bad = num(float(value) + 0.01)
    doc["slips"].append({"find": needle, "replace": needle.replace(num(value), bad), "line": line_of(text, needle),
                         "step": step, "kind": "arithmetic"})


def D_sum(v, i):
    """D_i written out: the row of A times the row of dA, term by term, and the result."""
    terms = " + ".join(f"{num(a)} \\cdot {'(' + num(b) + ')' if b < 0 else num(b)}"
                       for a, b in zip(v["A"][i], v["dA"][i]) if a != 0)
    return f"{terms} = {num(v['D'][i, 0])}"


# ------------------------------------------------------------------ the documents

CFG = {
    "md_en": {"X": [[1, 0, 1], [0, 2, 1], [1, 1, 0]], "n_heads": 1,
              "W_Q": [[1, 0, 0.5], [0, 1, 0], [0.5, 0, 1]], "W_K": [[0, 1, 0], [1, 0, 0], [0, 0.5, 1]],
              "W_V": [[1, 0, 0], [0, 0, 1], [0, 1, 0]], "W_O": "none", "causal": True, "backward": {"loss": "sum"}},
    "md_zh": {"X": [[0, 1, 1], [1, 0, 2], [2, 1, 0]], "n_heads": 1,
              "W_Q": [[1, 1, 0], [0, 1, 0], [0, 0, 1]], "W_K": [[1, 0, 0], [0, 1, 1], [0, 0, 1]],
              "W_V": [[0, 1, 0], [1, 0, 0], [0, 0, 2]], "W_O": "none",
              "backward": {"target": [[0, 1, 1], [1, 0, 1], [1, 1, 0]]}},
    "tex_en": {"X": [[1, 1, 0], [0, 1, 1], [1, 0, 1]], "n_heads": 1,
               "W_Q": [[0.5, 0, 1], [0, 1, 0], [1, 0, 0]], "W_K": [[1, 0, 0], [0.5, 1, 0], [0, 0, 1]],
               "W_V": [[1, 0, 1], [0, 1, 0], [0, 0, 1]], "W_O": "none", "backward": {"loss": "sum"}},
    "tex_zh": {"X": [[2, 0, 1], [1, 1, 0], [0, 1, 1]], "n_heads": 1,
               "W_Q": [[1, 0, 0], [0, 0.5, 0], [0, 0, 1]], "W_K": [[0, 1, 0], [1, 0, 0.5], [0, 0, 1]],
               "W_V": [[1, 0, 0], [1, 1, 0], [0, 0, 1]], "W_O": "none", "causal": True,
               "backward": {"target": [[1, 0, 0], [0, 1, 0], [0, 0, 1]]}},
    "html_zh": {"X": [[1, 2, 0], [0, 1, 1], [1, 0, 1]], "n_heads": 1,
                "W_Q": [[1, 0, 0], [0, 1, 0], [0.5, 0, 1]], "W_K": [[1, 0, 0.5], [0, 1, 0], [0, 0, 1]],
                "W_V": [[0, 0, 1], [0, 1, 0], [1, 0, 0]], "W_O": "none", "backward": {"loss": "sum"}},
}


def md_en():
    name, cfg = "md_blog_backprop_by_hand.md", CFG["md_en"]
    t, un = compute(cfg)
    v = grads(t)
    text = f"""# Backprop through one causal attention head, by hand

Last week I walked through the forward pass of a single causal head. This time we go backwards: where does
the gradient of the loss go, and why does the softmax not simply pass it through?

Setup: three tokens, $d_{{model}} = d_k = 3$, one head, causal mask, no output projection. The loss is the
plain sum of all outputs, $L = \\sum_{{ij}} Y_{{ij}}$, so the upstream gradient is all ones.

$$
X = {exact(v["X"])}, \\quad
W_Q = {exact(v["W_Q"])}, \\quad
W_K = {exact(v["W_K"])}, \\quad
W_V = {exact(v["W_V"])}
$$

## Forward, briefly

The attention weights (a masked score becomes a weight of exactly 0):

$$
A = {bmatrix(v["A"])}
$$

and the output $Y = A V$:

$$
Y = {bmatrix(v["O"])}
$$

## Backward

Since $L$ is a sum, $dY$ is a matrix of ones. Through $Y = A V$ we get $dA = dY\\, V^\\top$:

$$
dA = {bmatrix(v["dA"])}
$$

Now the softmax. Each row of $A$ depends on the whole row of scores, so we need
$dS_{{ij}} = A_{{ij}} (dA_{{ij}} - D_i)$ with $D_i = \\sum_k A_{{ik}} dA_{{ik}}$. For row 3:

$$
D_3 = {D_sum(v, 2)}
$$

All three:

$$
D = {bmatrix(v["D"])}
$$

$$
dS = {bmatrix(v["dS"])}
$$

The masked entries of $dS$ are exactly zero: those scores never influenced anything.

Through the scale $1/\\sqrt{{3}}$ and $S = Q K^\\top$:

$$
dQ = \\frac{{1}}{{\\sqrt{{3}}}}\\, dS\\, K = {bmatrix(v["dQ"])}
$$

$$
dK = \\frac{{1}}{{\\sqrt{{3}}}}\\, dS^\\top Q = {bmatrix(v["dK"])}
$$

and $dV = A^\\top dY$:

$$
dV = {bmatrix(v["dV"])}
$$

Finally the weights, $dW_Q = X^\\top dQ$:

$$
dW_Q = {bmatrix(v["dW_Q"])}
$$

$$
dW_K = {bmatrix(v["dW_K"])}
$$

$$
dW_V = {bmatrix(v["dW_V"])}
$$

and the input, which feeds all three projections: $dX = dQ W_Q^\\top + dK W_K^\\top + dV W_V^\\top$:

$$
dX = {bmatrix(v["dX"])}
$$

I checked every matrix against `torch.autograd` in float64 before posting.
"""
    doc = {"file": name, "format": "md", "lang": "en", "config": cfg, "slips": [],
           "notes": "blog post, causal head, L = sum of Y, bmatrix in $$, D_3 written out"}
    latex_slips(doc, text, t, un, ["missing_D", "transposed_dK", "missing_scale", "masked_gradient"])
    arithmetic_slip(doc, text, D_sum(v, 2), v["D"][2, 0], "backward_softmax")
    return name, text, doc


def md_zh():
    name, cfg = "md_zhihu_backprop_zh.md", CFG["md_zh"]
    t, un = compute(cfg)
    v = grads(t)
    target = np.array(cfg["backward"]["target"], float)
    text = f"""# 手推注意力的反向传播（单头，均方误差损失）

很多文章只写前向，这篇把反向传播一步一步算出来。配置：3 个 token，$d_{{model}} = d_k = 3$，单头，
不加掩码，没有输出投影。损失取 $L = \\frac{{1}}{{2}}\\lVert Y - T \\rVert^2$，所以 $dY = Y - T$。

$$
X = {exact(v["X"])}, \\quad T = {exact(target)}
$$

$$
W_Q = {exact(v["W_Q"])}, \\quad W_K = {exact(v["W_K"])}, \\quad W_V = {exact(v["W_V"])}
$$

## 前向结果

注意力权重：

$$
A = {bmatrix(v["A"])}
$$

输出 $Y = AV$：

$$
Y = {bmatrix(v["O"])}
$$

## 反向传播

上游梯度 $dY = Y - T$：

$$
dY = {bmatrix(v["dY"])}
$$

经过 $Y = AV$：$dA = dY V^\\top$，$dV = A^\\top dY$。

$$
dA = {bmatrix(v["dA"])}
$$

$$
dV = {bmatrix(v["dV"])}
$$

softmax 的反向是关键：雅可比矩阵是 $\\mathrm{{diag}}(a) - a a^\\top$，乘上 $dA$ 的一行之后化简为
$dS = A \\odot (dA - D)$，其中 $D_i = \\sum_k A_{{ik}} dA_{{ik}}$。例如第 1 行：

$$
D_1 = {D_sum(v, 0)}
$$

$$
D = {bmatrix(v["D"])}, \\quad dS = {bmatrix(v["dS"])}
$$

别忘了缩放 $1/\\sqrt{{d_k}} = 1/\\sqrt{{3}}$：

$$
dQ = \\frac{{dS\\, K}}{{\\sqrt{{3}}}} = {bmatrix(v["dQ"])}
$$

$$
dK = \\frac{{dS^\\top Q}}{{\\sqrt{{3}}}} = {bmatrix(v["dK"])}
$$

最后是权重的梯度：

$$
dW_Q = X^\\top dQ = {bmatrix(v["dW_Q"])}
$$

$$
dW_K = X^\\top dK = {bmatrix(v["dW_K"])}
$$

$$
dW_V = X^\\top dV = {bmatrix(v["dW_V"])}
$$

以及输入的梯度（三条路径相加）：

$$
dX = {bmatrix(v["dX"])}
$$
"""
    doc = {"file": name, "format": "md", "lang": "zh", "config": cfg, "slips": [],
           "notes": "Zhihu-style Chinese post, MSE loss against a target, D and dS side by side in one $$ block"}
    latex_slips(doc, text, t, un, ["missing_D", "transposed_dK", "missing_scale"])
    arithmetic_slip(doc, text, D_sum(v, 0), v["D"][0, 0], "backward_softmax")
    return name, text, doc


def tex(lang):
    key = "tex_en" if lang == "en" else "tex_zh"
    name = "tex_lecture_backward.tex" if lang == "en" else "tex_handout_backward_zh.tex"
    cfg = CFG[key]
    t, un = compute(cfg)
    v = grads(t)
    causal = cfg.get("causal", False)
    words = {
        "en": ("Backward pass of scaled dot-product attention", "One head, three tokens, $d_k = 3$"
               + (", causal mask" if causal else "") + ". Loss: the sum of all outputs.",
               "The softmax's Jacobian for row $i$ is $\\operatorname{diag}(a_i) - a_i a_i^\\top$; applied to "
               "$dA_{i,:}$ it gives $dS = A \\odot (dA - D)$ with", "Gradients of the projections:"),
        "zh": ("缩放点积注意力的反向传播", "单头，三个 token，$d_k = 3$" + ("，因果掩码" if causal else "")
               + "。损失：$L = \\frac{1}{2}\\|Y - T\\|^2$。",
               "softmax 第 $i$ 行的雅可比矩阵是 $\\operatorname{diag}(a_i) - a_i a_i^\\top$，作用在 $dA_{i,:}$ 上得到"
               " $dS = A \\odot (dA - D)$，其中", "投影矩阵的梯度："),
    }[lang]
    head = "\\documentclass{article}\n\\usepackage{amsmath}\n" + \
        ("\\usepackage{ctex}\n" if lang == "zh" else "") + "\\begin{document}\n"
    body = f"""\\section*{{{words[0]}}}
{words[1]}

\\[
X = {exact(v["X"])},\\quad W_Q = {exact(v["W_Q"])},\\quad W_K = {exact(v["W_K"])},\\quad W_V = {exact(v["W_V"])}
\\]

\\[
A = {bmatrix(v["A"])}
\\]

\\[
dY = {bmatrix(v["dY"])},\\qquad dA = dY\\,V^\\top = {bmatrix(v["dA"])}
\\]

{words[2]}

\\begin{{align*}}
D_2 &= {D_sum(v, 1)}
\\end{{align*}}

\\[
dS = {bmatrix(v["dS"])}
\\]

\\[
dQ = \\tfrac{{1}}{{\\sqrt{{3}}}}\\, dS\\, K = {bmatrix(v["dQ"])},\\qquad
dK = \\tfrac{{1}}{{\\sqrt{{3}}}}\\, dS^\\top Q = {bmatrix(v["dK"])}
\\]

\\[
dV = A^\\top dY = {bmatrix(v["dV"])}
\\]

{words[3]}
\\[
dW_Q = {bmatrix(v["dW_Q"])},\\quad dW_K = {bmatrix(v["dW_K"])},\\quad dW_V = {bmatrix(v["dW_V"])}
\\]

\\[
dX = dQ\\,W_Q^\\top + dK\\,W_K^\\top + dV\\,W_V^\\top = {bmatrix(v["dX"])}
\\]
\\end{{document}}
"""
    text = head + body
    doc = {"file": name, "format": "tex", "lang": lang, "config": cfg, "slips": [],
           "notes": "LaTeX " + ("lecture notes" if lang == "en" else "handout in Chinese (ctex)")
           + ", \\[ \\] displays with several matrices per line, align* for D"}
    kinds = ["missing_D", "transposed_dK", "missing_scale"] + (["masked_gradient"] if causal else [])
    latex_slips(doc, text, t, un, kinds)
    arithmetic_slip(doc, text, D_sum(v, 1), v["D"][1, 0], "backward_softmax")
    return name, text, doc


def html_zh():
    name, cfg = "html_course_page_zh.html", CFG["html_zh"]
    t, un = compute(cfg)
    v = grads(t)

    def show(label, M):
        return f"<p>\\[ {label} = {bmatrix(M)} \\]</p>"
    text = f"""<!DOCTYPE html>
<html lang="zh-CN"><head><meta charset="utf-8"><title>第 7 讲：注意力的反向传播</title>
<script src="https://cdn.jsdelivr.net/npm/mathjax@3/es5/tex-chtml.js"></script></head>
<body>
<h1>第 7 讲：注意力的反向传播</h1>
<p>本讲用一个单头、三个 token 的例子，把梯度从损失一直推回到权重。损失是所有输出之和，所以 \\(dY\\) 全为 1。</p>
<p>\\[ X = {exact(v["X"])} \\]</p>
<p>\\[ W_Q = {exact(v["W_Q"])},\\ W_K = {exact(v["W_K"])},\\ W_V = {exact(v["W_V"])} \\]</p>
<h2>前向</h2>
{show("A", v["A"])}
{show("Y", v["O"])}
<h2>反向</h2>
<p>第一步：\\(dA = dY\\,V^\\top\\)，\\(dV = A^\\top dY\\)。</p>
{show("dA", v["dA"])}
{show("dV", v["dV"])}
<p>第二步：softmax。先算每行的 \\(D_i = \\sum_k A_{{ik}}\\,dA_{{ik}}\\)，再算 \\(dS = A \\odot (dA - D)\\)。</p>
<p>\\[ D_3 = {D_sum(v, 2)} \\]</p>
{show("dS", v["dS"])}
<p>第三步：缩放 \\(1/\\sqrt{{3}}\\) 和 \\(S = QK^\\top\\)。</p>
{show("dQ", v["dQ"])}
{show("dK", v["dK"])}
<p>第四步：权重。</p>
{show("dW_Q", v["dW_Q"])}
{show("dW_K", v["dW_K"])}
{show("dW_V", v["dW_V"])}
{show("dX", v["dX"])}
<p>课后练习：把损失换成 \\(\\frac{{1}}{{2}}\\|Y - X\\|^2\\) 重做一遍。</p>
</body></html>
"""
    doc = {"file": name, "format": "html", "lang": "zh", "config": cfg, "slips": [],
           "notes": "course page saved from the browser, MathJax \\[ \\] with bmatrix, Chinese"}
    latex_slips(doc, text, t, un, ["missing_D", "transposed_dK", "missing_scale"])
    arithmetic_slip(doc, text, D_sum(v, 2), v["D"][2, 0], "backward_softmax")
    return name, text, doc


def txt_en():
    name = "txt_forum_post_numpy.txt"
    cfg = {"X": [[1, 0, 2], [0, 1, 0], [1, 1, 1]], "n_heads": 1, "W_Q": [[1, 0, 0], [0, 1, 1], [0, 0, 1]],
           "W_K": [[1, 0, 0], [0, 1, 0], [1, 0, 1]], "W_V": [[0, 1, 0], [1, 0, 0], [0, 0, 1]], "W_O": "none",
           "causal": True, "backward": {"dY": [[1, 0, 0], [0, 1, 0], [0, 0, 1]]}}
    t, un = compute(cfg)
    v = grads(t)

    def arr(M):
        rows = ["[" + ", ".join(num(x).rjust(7) for x in r) + "]" for r in M]
        return "array([" + ",\n       ".join(rows) + "])"
    text = f"""Subject: checking my manual backward for causal attention (numpy)

Hi all, I'm implementing attention backward by hand to understand FlashAttention. Single head, T = 3,
d_k = 3, causal, no output projection. dY is given (identity, as if the next layer sent it). Can someone
confirm these? Inputs:

X   = {v["X"].astype(int).tolist()}
W_Q = {v["W_Q"].astype(int).tolist()}
W_K = {v["W_K"].astype(int).tolist()}
W_V = {v["W_V"].astype(int).tolist()}

>>> A
{arr(v["A"])}
>>> dA = dY @ V.T
>>> dA
{arr(v["dA"])}
>>> D = (dA * A).sum(-1, keepdims=True)
>>> D
{arr(v["D"])}
>>> dS = A * (dA - D)
>>> dS
{arr(v["dS"])}
>>> dQ = dS @ K / np.sqrt(3)
>>> dQ
{arr(v["dQ"])}
>>> dK = dS.T @ Q / np.sqrt(3)
>>> dK
{arr(v["dK"])}
>>> dV = A.T @ dY
>>> dV
{arr(v["dV"])}
>>> dW_Q = X.T @ dQ
>>> dW_Q
{arr(v["dW_Q"])}
>>> dX = dQ @ W_Q.T + dK @ W_K.T + dV @ W_V.T
>>> dX
{arr(v["dX"])}

torch.autograd gives the same for dX, so I think it's right, but the masked entries of dS worry me.
"""
    doc = {"file": name, "format": "txt", "lang": "en", "config": cfg, "slips": [],
           "notes": "forum post with a REPL transcript of NumPy arrays, dY given, causal"}
    steps = {"missing_D": ("dS", "backward_softmax"), "transposed_dK": ("dK", "backward_scores"),
             "missing_scale": ("dQ", "backward_scores"), "masked_gradient": ("dS", "backward_softmax")}
    for kind, (nm, step) in steps.items():
        M, W = v[nm], wrong(kind, v[nm], t, un)
        i = changed(M, W)[0]
        right = "[" + ", ".join(num(x).rjust(7) for x in M[i]) + "]"
        # a row may repeat across arrays (a row of zeros): take the one after this array's prompt
        start = text.index(f">>> {nm}\n")
        pos = text.index(right, start)
        line = text[:pos].count("\n") + 1
        marked = text[start:pos + len(right)]
        doc["slips"].append({"find": marked, "replace": marked[:-len(right)] + respell(right, W[i]), "line": line,
                             "step": step, "kind": kind})
    return name, text, doc


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


def main():
    files = [md_en(), md_zh(), tex("en"), tex("zh"), html_zh(), txt_en(), notebook("en"), notebook("zh")]
    for name, text, doc in files:
        (HERE / name).write_text(text, encoding="utf-8")
        for s in doc["slips"]:
            assert text.count(s["find"]) >= 1 and s["find"] != s["replace"], (name, s)
        DOCS.append(doc)
    manifest = {"documents": DOCS}
    (HERE / "manifest.json").write_text(json.dumps(manifest, indent=1, ensure_ascii=False,
                                                   default=lambda a: a.tolist()) + "\n", encoding="utf-8")
    print(f"{len(DOCS)} documents, {sum(len(d['slips']) for d in DOCS)} slips")


if __name__ == "__main__":
    main()
