"""The six text documents: two Markdown posts, two LaTeX handouts, an HTML page and a forum post (make.py
runs them)."""
import numpy as np

from _common import (CFG, D_sum, arithmetic_slip, bmatrix, changed, compute, exact, grads, latex_slips, num, respell,
                     wrong)


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
