"""Held-out documents 1, 2, 3 and 5: beamer, a Chinese post, a Q&A answer, a README (run by make.py, in its order)."""
import math

import numpy as np

from _common import add, amp, attn, f, g, grow, row, swap, tex


# 1. Beamer slides, d_k = 3, the scale written as 0.577 --------------------------------------------------------
X = np.array([[1, 0, 1], [0, 2, 1], [1, 1, 0]], float)
WQ = np.array([[1, 0, 0.5], [0, 1, 0], [0.5, 0, 1]])
WK = np.array([[0, 1, 0], [1, 0, 0], [0, 0.5, 1]])
WV = np.array([[1, 0, 0], [0, 0, 1], [0, 1, 0]])
Q, K, V = X @ WQ, X @ WK, X @ WV
QK, S, A, O = attn(Q, K, V, 1 / math.sqrt(3))
E0 = np.exp(S[0])
t = rf"""\documentclass{{beamer}}
\usetheme{{Madrid}}
\usepackage{{amsmath}}
\title{{Self-attention, one head, by hand}}
\subtitle{{Tutorial 7 -- Sequence models}}
\date{{Week 9}}

\begin{{document}}

\begin{{frame}}
  \titlepage
\end{{frame}}

\begin{{frame}}{{Setup}}
  \begin{{itemize}}
    \item three tokens, $d_{{model}} = 3$, one head with $d_k = d_v = 3$
    \item no output projection on these slides
    \item scale factor $1/\sqrt{{d_k}} = 1/\sqrt{{3}} \approx 0.577$
  \end{{itemize}}
  \[
    X = \left(\begin{{array}}{{ccc}} {amp(X)} \end{{array}}\right)
  \]
\end{{frame}}

\begin{{frame}}{{Weights}}
  \[
    W^Q = {tex(WQ, env="pmatrix")}, \quad
    W^K = {tex(WK, env="pmatrix")}, \quad
    W^V = {tex(WV, env="pmatrix")}
  \]
  \pause
  \alert{{Note:}} $W^V$ only swaps the last two features.
\end{{frame}}

\begin{{frame}}{{Step 1: projections}}
  \[
    Q = XW^Q = {tex(Q, env="pmatrix")}, \qquad
    K = XW^K = {tex(K, env="pmatrix")}
  \]
  \[
    V = XW^V = {tex(V, env="pmatrix")}
  \]
\end{{frame}}

\begin{{frame}}{{Step 2: scores}}
  \[
    QK^\top = \left(\begin{{array}}{{rrr}} {amp(QK)} \end{{array}}\right)
  \]
  \only<2->{{
  Scaled, with $1/\sqrt{{3}} \approx 0.577$:
  \[
    \frac{{QK^\top}}{{\sqrt{{3}}}} \approx \left(\begin{{array}}{{rrr}} {amp(S, 2)} \end{{array}}\right)
  \]
  }}
\end{{frame}}

\begin{{frame}}{{Step 3: softmax, first row}}
  \begin{{align*}}
    e^{{{f(S[0,0], 2)}}} &\approx {f(E0[0], 3)} \\
    e^{{{f(S[0,1], 2)}}} &\approx {f(E0[1], 3)} \\
    e^{{{f(S[0,2], 2)}}} &\approx {f(E0[2], 3)} \\
    \textstyle\sum &\approx {f(E0.sum(), 3)}
  \end{{align*}}
  so $\alpha_1 \approx ({row(A[0], 3)})$.
\end{{frame}}

\begin{{frame}}{{Step 3: all weights}}
  \[
    A = \operatorname{{softmax}}\!\left(\frac{{QK^\top}}{{\sqrt{{3}}}}\right) \approx
    \left(\begin{{array}}{{ccc}} {amp(A, 3)} \end{{array}}\right)
  \]
  Each row sums to $1$ (up to rounding).
\end{{frame}}

\begin{{frame}}{{Step 4: output}}
  \[
    Z = AV \approx {tex(O, 3, env="pmatrix")}
  \]
  \begin{{block}}{{Check}}
    $z_{{11}} = {f(A[0,0],3)} \cdot {g(V[0,0])} + {f(A[0,1],3)} \cdot {g(V[1,0])} + {f(A[0,2],3)} \cdot {g(V[2,0])} \approx {f(O[0,0],3)}$
  \end{{block}}
\end{{frame}}

\end{{document}}
"""
add("tex_beamer_slides_dk3.tex", "tex", "en",
    {"X": X.tolist(), "n_heads": 1, "W_Q": WQ.tolist(), "W_K": WK.tolist(), "W_V": WV.tolist(),
     "W_O": "none", "scale": "1/sqrt(d_k)"},
    "beamer lecture slides: \\begin{frame}, \\pause/\\only, \\left(\\begin{array}\\right) and pmatrix, "
    "d_k = 3 with the scale written as 0.577, align* exponentials, block",
    t, [(f"{f(S[1,0],2)} & {f(S[1,1],2)} & {f(S[1,2],2)}", f"{f(QK[1,0],2)} & {f(QK[1,1],2)} & {f(QK[1,2],2)}",
         "scale", "missing_scale"),
        ("\\sum &\\approx " + f(E0.sum(), 3), "\\sum &\\approx " + f(E0.sum()+0.01, 3), "softmax", "arithmetic"),
        (f"{f(O[2,0],3)} & {f(O[2,1],3)} & {f(O[2,2],3)}", f"{f(O[2,0],3)} & {f(O[2,2],3)} & {f(O[2,1],3)}",
         "weighted_sum", "neighbour_value")])


# 2. Zhihu-style Chinese post, aligned chains, full-width punctuation --------------------------------------------
X = np.array([[1, 0, 1, 0], [0, 1, 0, 1], [1, 1, 1, 0]], float)
WQ = np.array([[1, 0], [1, 1], [1, 1], [0, 1]], float)
WK = np.array([[0, 1], [1, 0], [1, 0], [0, 0.5]], float)
WV = np.array([[1, 0], [0, 1], [0, 0], [0.5, 1]], float)
Q, K, V = X @ WQ, X @ WK, X @ WV
QK, S, A, O = attn(Q, K, V, 1 / math.sqrt(2))
E1 = np.exp(S[1])
t = f"""# 手推 Self-Attention：一个 3×4 的小例子（附完整计算过程）

> 本文约 2000 字，阅读需要 8 分钟。看懂公式不难，难的是亲手算一遍。

大家好，这一篇我们不讲大道理，直接上数字。公式是熟悉的：

$$\\mathrm{{Attention}}(Q,K,V)=\\mathrm{{softmax}}\\left(\\frac{{QK^{{T}}}}{{\\sqrt{{d_k}}}}\\right)V$$

## 一、输入与参数

句子有 3 个词，每个词是 4 维向量（$d_{{model}}=4$），单头，$d_k=d_v=2$：

$$X=\\begin{{bmatrix}}{amp(X)}\\end{{bmatrix}}$$

三个投影矩阵（都是 4×2）：

$$W_Q={tex(WQ)},\\quad W_K={tex(WK)},\\quad W_V={tex(WV)}$$

## 二、计算 Q、K、V

$$\\begin{{aligned}}
Q&=XW_Q={tex(Q)}\\\\
K&=XW_K={tex(K)}\\\\
V&=XW_V={tex(V)}
\\end{{aligned}}$$

以第三个词为例：$q_3=[1+1+1,\\ 1+1]=[3,\\ 2]$，$k_3=[1+1,\\ 1]=[2,\\ 1]$。

## 三、注意力分数

$$\\begin{{aligned}}
q_2\\cdot k_1&=1\\times 1+2\\times 1={g(QK[1,0])}\\\\
q_2\\cdot k_2&=1\\times 1+2\\times 0.5={g(QK[1,1])}\\\\
q_2\\cdot k_3&=1\\times 2+2\\times 1={g(QK[1,2])}
\\end{{aligned}}$$

完整的分数矩阵：

$$QK^T={tex(QK)}$$

除以 $\\sqrt{{2}}\\approx 1.414$（保留四位小数）：

$$\\frac{{QK^T}}{{\\sqrt{{d_k}}}}={tex(S, 4)}$$

## 四、Softmax

以第二行为例，先取指数：

$$\\begin{{aligned}}
e^{{{f(S[1,0],4)}}}&\\approx {f(E1[0],4)}\\\\
e^{{{f(S[1,2],4)}}}&\\approx {f(E1[2],4)}\\\\
\\text{{和}}&={f(E1[0],4)}+{f(E1[1],4)}+{f(E1[2],4)}={f(E1.sum(),4)}
\\end{{aligned}}$$

于是第二行的权重为 $[{row(A[1],4)}]$。三行合起来：

$$A={tex(A, 4)}$$

注意：每一行加起来都等于 1。

## 五、加权求和

$$Z=AV={tex(O, 4)}$$

例如 $z_{{21}}={f(A[1,0],4)}\\times 1+{f(A[1,1],4)}\\times 0.5+{f(A[1,2],4)}\\times 1={f(O[1,0],4)}$。

## 小结

- 分数越大，softmax 之后的权重越大；
- 第三个词的 key 最“大”，所以每一行里它拿到的权重都最高；
- 觉得有用的话，点个赞吧！
"""
add("md_zhihu_aligned_chains_zh.md", "md", "zh",
    {"X": X.tolist(), "n_heads": 1, "W_Q": WQ.tolist(), "W_K": WK.tolist(), "W_V": WV.tolist(),
     "W_O": "none", "scale": "1/sqrt(d_k)"},
    "Zhihu-style Chinese post: $$\\begin{aligned}...$$ chains of dot products and exponentials, full-width "
    "punctuation, bmatrix; one head, W 4x2",
    t, [(f"1\\times 2+2\\times 1={g(QK[1,2])}", "1\\times 2+2\\times 1=5", "scores", "arithmetic"),
        (f"e^{{{f(S[1,2],4)}}}&\\approx {f(E1[2],4)}", f"e^{{{f(S[1,2],4)}}}&\\approx " + swap(f(E1[2], 4)), "softmax", "swapped_digits"),
        (f"Z=AV={tex(O, 4)}", "Z=AV=" + tex(O[[1, 0, 2]], 4), "weighted_sum", "transposed")])


# 3. StackExchange answer, inline code and => ---------------------------------------------------------------
Q = np.array([[1, 0], [0, 2]], float)
K = np.array([[1, 1], [0, 1], [2, 0]], float)
V = np.array([[1, 0], [0, 1], [1, 1]], float)
QK, S, A, O = attn(Q, K, V, 1 / math.sqrt(2))
t = f"""**Short answer:** your numbers are fine up to the scores; the slip is in the softmax, where you divided by the
row *max* instead of the row *sum*. Here is the whole thing for your example, step by step.

You have 2 queries and 3 keys/values, `d_k = 2`:

    Q = [[1, 0],
         [0, 2]]
    K = [[1, 1],
         [0, 1],
         [2, 0]]
    V = [[1, 0],
         [0, 1],
         [1, 1]]

**1. Scores.** `Q @ K.T` => `[[{grow(QK[0])}], [{grow(QK[1])}]]`, e.g. `q2 . k1 = 0*1 + 2*1 = {g(QK[1,0])}`.

**2. Scale.** Divide by `sqrt(2) = 1.4142`:

    S = Q @ K.T / sqrt(d_k)
      => [[{row(S[0], 4)}],
          [{row(S[1], 4)}]]

**3. Softmax, row by row.** For the first row, `exp(S[0])` => `[{row(np.exp(S[0]), 4)}]`, which sums to
`{f(np.exp(S[0]).sum(), 4)}`, so

    softmax(S[0]) => [{row(A[0], 4)}]
    softmax(S[1]) => [{row(A[1], 4)}]

(You had `[1.0, 0.4931, 1.0]` for the first row: that is `exp(S[0]) / max(exp(S[0]))`, which is not a distribution.)

**4. Output.** `A @ V` =>

    [[{row(O[0], 4)}],
     [{row(O[1], 4)}]]

A quick sanity check: `out[0][0] = {f(A[0,0],4)}*1 + {f(A[0,1],4)}*0 + {f(A[0,2],4)}*1 = {f(O[0,0],4)}`.

Each output row is a convex combination of the rows of `V`, so every entry has to lie between 0 and 1 here, which is
another quick way to catch this kind of mistake.
"""
add("md_stackexchange_inline_code.md", "md", "en",
    {"Q": Q.tolist(), "K": K.tolist(), "V": V.tolist(), "n_heads": 1, "scale": "1/sqrt(d_k)"},
    "StackExchange answer: indented code blocks, inline code with =>, a correction of the asker's softmax; Q 2x2, "
    "K and V 3x2 given",
    t, [(f"`Q @ K.T` => `[[{grow(QK[0])}], [{grow(QK[1])}]]`", f"`Q @ K.T` => `[[{grow(QK[0])}], [{grow(QK[1][::-1])}]]`",
         "scores", "transposed"),
        (f"      => [[{row(S[0], 4)}],", f"      => [[{row(QK[0], 4)}],", "scale", "missing_scale"),
        (f"softmax(S[1]) => [{row(A[1], 4)}]", f"softmax(S[1]) => [{row(A[1], 4).replace(f(A[1,1],4), f(A[1,1]+0.01,4))}]",
         "softmax", "wrong_value")])


# 5. README with Unicode box matrices and plain [[...]] fenced blocks, causal ---------------------------------
X = np.array([[1, 2], [0, 1], [2, 1]], float)
WQ = np.array([[1, 0], [0.5, 1]])
WK = np.array([[0, 1], [1, 0.5]])
WV = np.array([[1, 1], [0, 1]])
Q, K, V = X @ WQ, X @ WK, X @ WV
QK, S, A, O = attn(Q, K, V, 1 / math.sqrt(2), causal=True)


def box(name, M, d=None):
    cells = [[("-inf" if math.isinf(x) else (g(x) if d is None else f(x, d))) for x in r] for r in M]
    w = max(len(c) for r in cells for c in r)
    body = ["  ".join(c.rjust(w) for c in r) for r in cells]
    inner = len(body[0])
    pad = " " * (len(name) + 3)
    lines = [pad + "┌ " + " " * inner + " ┐"]
    for i, b in enumerate(body):
        lead = (name + " = ") if i == len(body) // 2 else pad
        lines.append(lead + "│ " + b + " │")
    lines.append(pad + "└ " + " " * inner + " ┘")
    return "\n".join(lines)


t = f"""# tiny-gpt-attn

A single causal attention head in 40 lines of NumPy, with every number written out so you can follow it on paper.

![build](https://img.shields.io/badge/build-passing-green) ![python](https://img.shields.io/badge/python-3.10%2B-blue)

## Install

```
pip install -e .
python demo.py --seq 3 --dim 2
```

## The worked example

Three tokens, `d_model = d_k = d_v = 2`, one head, causal mask, scale `1/sqrt(2)`.

```
{box("X", X)}

{box("Wq", WQ)}
```

```
Wk = {WK.tolist()}
Wv = {WV.tolist()}
```

Projections (`Q = X @ Wq` and so on):

```
{box("Q", Q)}

{box("K", K)}

{box("V", V)}
```

Raw scores `Q @ K.T`, then scaled and masked (token *i* may only look at tokens 1..*i*):

```
{box("QKt", QK)}

{box("S", S, 3)}
```

Softmax over each row; the masked entries become exactly 0:

```
[[{row(A[0], 3)}],
 [{row(A[1], 3)}],
 [{row(A[2], 3)}]]
```

Row 2 by hand: `exp({f(S[1,0],3)}) = {f(math.exp(S[1,0]),3)}`, `exp({f(S[1,1],3)}) = {f(math.exp(S[1,1]),3)}`, so the weights are
`{f(math.exp(S[1,0]),3)} / {f(math.exp(S[1,0])+math.exp(S[1,1]),3)} = {f(A[1,0],3)}` and `{f(A[1,1],3)}`.

Output `A @ V`:

```
{box("out", O, 3)}
```

The first token can only attend to itself, so its output is just `v1 = {V[0].tolist()}`.

## License

MIT
"""
add("md_readme_unicode_box_causal.md", "md", "en",
    {"X": X.tolist(), "n_heads": 1, "W_Q": WQ.tolist(), "W_K": WK.tolist(), "W_V": WV.tolist(), "W_O": "none",
     "scale": "1/sqrt(d_k)", "causal": True},
    "GitHub README: Unicode box-drawing matrices in fenced blocks without a language, plain [[...]] lists, "
    "-inf in a box, inline code arithmetic; one causal head, X 3x2",
    t, [(f"│ {f(S[2,0],3)}", f"│ {f(S[2,0],3)[::-1] if False else f(-S[2,0],3)}", "scale", "dropped_sign"),
        (f" [{row(A[2], 3)}]]", f" [{row(A[2][[1,0,2]], 3)}]]", "softmax", "neighbour_value"),
        (f"exp({f(S[1,0],3)}) = {f(math.exp(S[1,0]),3)}", f"exp({f(S[1,0],3)}) = {f(math.exp(S[1,0])+0.1,3)}",
         "softmax", "arithmetic")])
