"""Writes the held-out documents of tests/check_heldout and their manifest.

Every sentence below was written for this project; the numbers are computed here with NumPy (float64) and
rounded as a person would.  The notebooks are executed for real with nbclient.  Run once; the output files are
committed, this script is kept as the record of how they were made (it does not import mha).

    python tests/check_heldout/make.py      (needs pandas, nbclient and a python3 kernel)
"""
import json
import math
from pathlib import Path

import numpy as np

HERE = Path(__file__).resolve().parent
DOCS = []


def softmax(S):
    S = np.asarray(S, float)
    m = np.where(np.isfinite(S), S, -np.inf).max(axis=-1, keepdims=True)
    E = np.exp(S - m)
    return E / E.sum(axis=-1, keepdims=True)


def attn(Q, K, V, scale, causal=False):
    S = (Q @ K.T) * scale
    if causal:
        S = np.where(np.tril(np.ones(S.shape, bool)), S, -np.inf)
    A = softmax(S)
    return Q @ K.T, S, A, A @ V


def f(x, d):
    if math.isinf(x):
        return "-inf" if x < 0 else "inf"
    s = f"{x:.{d}f}"
    return f"{0:.{d}f}" if float(s) == 0 else s


def g(x):
    """A short exact input number: 1, -0.5, 2.25."""
    s = f"{x:.4f}".rstrip("0").rstrip(".")
    return "0" if s == "-0" else s


def swap(s):
    """Swap the last two different adjacent digits (16.9188 -> 16.9818): swapping "88" plants nothing."""
    for i in range(len(s) - 2, -1, -1):
        if s[i].isdigit() and s[i + 1].isdigit() and s[i] != s[i + 1]:
            return s[:i] + s[i + 1] + s[i] + s[i + 2:]
    raise ValueError(s)


def row(v, d, sep=", "):
    return sep.join(f(x, d) for x in v)


def grow(v, sep=", "):
    return sep.join(g(x) for x in v)


def tex(M, d=None, env="bmatrix"):
    body = r" \\ ".join(" & ".join(g(x) if d is None else f(x, d) for x in r) for r in M)
    return rf"\begin{{{env}}} {body} \end{{{env}}}"


def amp(M, d=None):
    return r" \\ ".join(" & ".join(g(x) if d is None else f(x, d) for x in r) for r in M)


def texinf(M, d):
    body = r" \\ ".join(" & ".join(r"-\infty" if math.isinf(x) else f(x, d) for x in r) for r in M)
    return body


def add(file, fmt, lang, config, notes, text, slips, cells=None):
    """slips: (find, replace, step, kind[, cell, where]); the line is found in the text."""
    out = []
    for s in slips:
        find, rep, step, kind = s[:4]
        assert find != rep, (file, find)          # a slip must change the text
        if cells is None:
            assert text.count(find) == 1, (file, find, text.count(find))
            line = text[:text.index(find)].count("\n") + 1
            out.append({"find": find, "replace": rep, "line": line, "step": step, "kind": kind})
        else:
            cell, where = s[4], s[5]
            hits = [(i, w) for i, c in enumerate(cells, 1) for w in ("source", "output") if find in c[w]]
            assert len(hits) == 1 and hits[0] == (cell, where), (file, find, hits)
            t = cells[cell - 1][where]
            line = t[:t.index(find)].count("\n") + 1
            out.append({"find": find, "replace": rep, "line": line, "cell": cell, "where": where,
                        "step": step, "kind": kind})
    DOCS.append({"file": file, "format": fmt, "lang": lang, "config": config, "notes": notes, "slips": out})
    if cells is None:
        (HERE / file).write_text(text, encoding="utf-8")


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


# 7. Word tokens as row labels in Markdown tables, d_k = 3 ----------------------------------------------------
X = np.array([[1, 0, 0.5, 0], [0, 1, 0, 1], [1, 1, 0, 0.5]], float)
WQ = np.array([[1, 0, 0], [0, 1, 0], [0, 0, 1], [1, 0, 1]], float)
WK = np.array([[0, 1, 0], [1, 0, 0], [0, 0, 1], [0, 1, 1]], float)
WV = np.array([[1, 0, 0], [0, 0, 1], [0, 1, 0], [0.5, 0, 0]], float)
Q, K, V = X @ WQ, X @ WK, X @ WV
QK, S, A, O = attn(Q, K, V, 1 / math.sqrt(3))
tok = ["I", "love", "cats"]


def mdtable(head, M, d=None):
    lines = ["| | " + " | ".join(head) + " |", "|---" * (len(head) + 1) + "|"]
    for name, r in zip(tok, M):
        lines.append(f'| "{name}" | ' + " | ".join(g(x) if d is None else f(x, d) for x in r) + " |")
    return "\n".join(lines)


t = f"""# Who does "cats" listen to? Attention on a three-word sentence

We feed the sentence **"I love cats"** through one attention head. Each word has a 4-dimensional embedding and the
head works in 3 dimensions, so the scores are divided by √3 ≈ 1.732.

## Embeddings

{mdtable(["x1", "x2", "x3", "x4"], X)}

## Queries, keys and values

With the weights W_Q, W_K, W_V (4×3) from the appendix we get:

{mdtable(["q1", "q2", "q3"], Q)}

{mdtable(["k1", "k2", "k3"], K)}

{mdtable(["v1", "v2", "v3"], V)}

## Scores

Each cell is the query of the row word dotted with the key of the column word, divided by √3:

{mdtable(['"I"', '"love"', '"cats"'], S, 3)}

For example "love" → "cats": ({grow(Q[1])}) · ({grow(K[2])}) = {g(QK[1,2])}, and {g(QK[1,2])} / 1.732 = {f(S[1,2],3)}.

## Attention weights

{mdtable(['"I"', '"love"', '"cats"'], A, 3)}

"cats" puts {f(A[2,2]*100,1)}% of its attention on itself and {f(A[2,1]*100,1)}% on "love".

## Output

{mdtable(["z1", "z2", "z3"], O, 3)}

## Appendix: weights

W_Q = {WQ.tolist()}

W_K = {WK.tolist()}

W_V = {WV.tolist()}
"""
add("md_token_labels_tables.md", "md", "en",
    {"X": X.tolist(), "n_heads": 1, "W_Q": WQ.tolist(), "W_K": WK.tolist(), "W_V": WV.tolist(), "W_O": "none",
     "scale": "1/sqrt(d_k)", "tokens": tok},
    "blog post with quoted word tokens as row labels of Markdown tables, weights in an appendix, percentages; "
    "one head, d_k = 3 (divide by 1.732)",
    t, [(f'| "love" | {row(S[1], 3, " | ")} |', f'| "love" | {row(QK[1], 3, " | ")} |', "scale", "missing_scale"),
        (f'| "cats" | {row(A[2], 3, " | ")} |', f'| "cats" | {row(A[2], 3, " | ").replace(f(A[2,0],3), f(A[2,0],3)[:2]+f(A[2,0],3)[3]+f(A[2,0],3)[2]+f(A[2,0],3)[4:])} |',
         "softmax", "swapped_digits"),
        (f'| "I" | {row(O[0], 3, " | ")} |', f'| "I" | {row(O[0], 3, " | ").replace(f(O[0,1],3), f(O[0,1]+0.1,3))} |',
         "weighted_sum", "arithmetic")])


# 8. Column-vector convention (q_i = W_Q x_i), plain text ------------------------------------------------------
Xc = np.array([[1, 0, 2], [0, 1, 1], [2, 1, 0]], float)        # rows here are the x_i
WQc = np.array([[1, 0, 0.5], [0, 1, 0]])                        # d_k x d_model
WKc = np.array([[0, 1, 0], [1, 0, 0.5]])
WVc = np.array([[1, 1, 0], [0, 0, 1]])
Q, K, V = Xc @ WQc.T, Xc @ WKc.T, Xc @ WVc.T
QK, S, A, O = attn(Q, K, V, 1 / math.sqrt(2))
t = f"""EE-5xx  Homework 4, problem 2 (solution)
=========================================

Convention: vectors are COLUMNS.  x_i is in R^3, and q_i = W_Q x_i, k_i = W_K x_i, v_i = W_V x_i
with W_Q, W_K, W_V in R^(2x3).  Scores e_ij = q_i^T k_j / sqrt(2).

Given
-----
x_1 = ({grow(Xc[0])})^T      x_2 = ({grow(Xc[1])})^T      x_3 = ({grow(Xc[2])})^T

        [ {grow(WQc[0], "  ")} ]          [ {grow(WKc[0], "  ")} ]          [ {grow(WVc[0], "  ")} ]
W_Q  =  [ {grow(WQc[1], "  ")} ]   W_K =  [ {grow(WKc[1], "  ")} ]   W_V =  [ {grow(WVc[1], "  ")} ]

(a) queries, keys, values
-------------------------
q_1 = W_Q x_1 = (1*1 + 0*0 + 0.5*2, 0*1 + 1*0 + 0*2)^T = ({grow(Q[0])})^T
q_2 = ({grow(Q[1])})^T
q_3 = ({grow(Q[2])})^T

k_1 = ({grow(K[0])})^T     k_2 = ({grow(K[1])})^T     k_3 = ({grow(K[2])})^T
v_1 = ({grow(V[0])})^T     v_2 = ({grow(V[1])})^T     v_3 = ({grow(V[2])})^T

(b) scores for query 1
----------------------
q_1^T k_1 = {g(Q[0,0])}*{g(K[0,0])} + {g(Q[0,1])}*{g(K[0,1])} = {g(QK[0,0])}
q_1^T k_2 = {g(Q[0,0])}*{g(K[1,0])} + {g(Q[0,1])}*{g(K[1,1])} = {g(QK[0,1])}
q_1^T k_3 = {g(Q[0,0])}*{g(K[2,0])} + {g(Q[0,1])}*{g(K[2,1])} = {g(QK[0,2])}

scaled:  e_1 = ({row(S[0], 4)})

(c) weights for query 1
-----------------------
alpha_1 = softmax(e_1) = ({row(A[0], 4)})

(d) output for query 1 (a column again)
---------------------------------------
z_1 = sum_j alpha_1j v_j
    = {f(A[0,0],4)} ({grow(V[0])})^T + {f(A[0,1],4)} ({grow(V[1])})^T + {f(A[0,2],4)} ({grow(V[2])})^T
    = ({row(O[0], 4)})^T

(e) the other two queries, same procedure
-----------------------------------------
alpha_2 = ({row(A[1], 4)})      z_2 = ({row(O[1], 4)})^T
alpha_3 = ({row(A[2], 4)})      z_3 = ({row(O[2], 4)})^T

Grading: 2 pts each for (a)-(d), 2 pts for (e).
"""
add("txt_column_vector_convention.txt", "txt", "en",
    {"X": Xc.tolist(), "n_heads": 1, "W_Q": WQc.T.tolist(), "W_K": WKc.T.tolist(), "W_V": WVc.T.tolist(),
     "W_O": "none", "scale": "1/sqrt(d_k)"},
    "homework solution in the column-vector convention (q_i = W_Q x_i, W 2x3, ^T on vectors), ASCII arithmetic",
    t, [(f"= {g(QK[0,1])}\nq_1^T k_3", f"= {g(QK[0,1] + 1)}\nq_1^T k_3", "scores", "arithmetic"),
        (f"alpha_1 = softmax(e_1) = ({row(A[0], 4)})", f"alpha_1 = softmax(e_1) = ({row(softmax(QK[0]), 4)})",
         "softmax", "missing_scale"),
        (f"z_3 = ({row(O[2], 4)})^T", f"z_3 = ({row(O[2], 4).replace(f(O[2,1],4), '-' + f(O[2,1],4)) if O[2,1] > 0 else ''})^T",
         "weighted_sum", "dropped_sign")])


# 9. Two heads printed as 3-D arrays (2, 3, 3), REPL transcript in Markdown ------------------------------------
X = np.array([[1, 0, 1, 0], [0, 1, 1, 0], [1, 1, 0, 1]], float)
WQ = np.array([[1, 0, 0, 1], [0, 1, 1, 0], [1, 0, 0, 0], [0, 0, 1, 1]], float)
WK = np.array([[0, 1, 1, 0], [1, 0, 0, 1], [0, 0, 1, 0], [1, 1, 0, 0]], float)
WV = np.array([[1, 0, 0, 0], [0, 0, 1, 0], [0, 1, 0, 0], [0, 0, 0, 1]], float)
WO = np.array([[1, 0, 0, 0], [0, 1, 0, 0], [0, 0, 0.5, 0.5], [0, 0, 0.5, -0.5]])
Q, K, V = X @ WQ, X @ WK, X @ WV
Qh, Kh, Vh = (M.reshape(3, 2, 2).transpose(1, 0, 2) for M in (Q, K, V))
S3 = Qh @ Kh.transpose(0, 2, 1) / math.sqrt(2)
A3 = softmax(S3)
O3 = A3 @ Vh
C = O3.transpose(1, 0, 2).reshape(3, 4)
Y = C @ WO
r4 = lambda M: repr(np.round(M, 4))
t = f"""# Splitting into heads: watching the shapes

Two heads, `d_model = 4`, so each head gets `d_k = 2`. I keep both heads in one 3-D array of shape
`(n_heads, seq_len, d_k)` and let broadcasting do the work. Inputs:

```python
>>> X = np.array({X.astype(int).tolist()})
>>> Q, K, V = X @ W_q, X @ W_k, X @ W_v        # each (3, 4)
>>> Q
{repr(Q)}
>>> K
{repr(K)}
>>> V
{repr(V)}
```

Split the last axis into `(2, 2)` and move the head axis to the front:

```python
>>> Qh = Q.reshape(3, 2, 2).transpose(1, 0, 2)
>>> Qh.shape
(2, 3, 2)
```

Scores for both heads at once, scaled by `1/np.sqrt(2)`:

```python
>>> S = Qh @ Kh.transpose(0, 2, 1) / np.sqrt(2)
>>> S.shape
(2, 3, 3)
>>> np.round(S, 4)
{r4(S3)}
```

Softmax along the last axis:

```python
>>> A = np.exp(S) / np.exp(S).sum(-1, keepdims=True)
>>> np.round(A, 4)
{r4(A3)}
```

Weighted sums, then heads back side by side:

```python
>>> O = A @ Vh            # (2, 3, 2)
>>> np.round(O, 4)
{r4(O3)}
>>> concat = O.transpose(1, 0, 2).reshape(3, 4)
>>> np.round(concat, 4)
{r4(C)}
>>> Y = concat @ W_o
>>> np.round(Y, 4)
{r4(Y)}
```

The weights were

```python
W_q = np.array({WQ.astype(int).tolist()})
W_k = np.array({WK.astype(int).tolist()})
W_v = np.array({WV.astype(int).tolist()})
W_o = np.array({WO.tolist()})
```
"""
SLIPS9 = [("[1.4142, 0.7071, 0.7071]", "[2.    , 1.    , 1.    ]", "scale", "missing_scale"),
          ("[[0.1978, 0.4011, 0.4011]", "[[0.1978, 0.4101, 0.4011]", "softmax", "swapped_digits"),
          ("[0.9033, 0.1934, 0.4965, 0.2483]", "[0.9033, 0.1934, 0.5035, 0.2483]", "concat", "neighbour_value")]
sA = r4(A3).splitlines()
sS = r4(S3).splitlines()
sO = r4(O3).splitlines()
add("md_repl_two_heads_3d_arrays.md", "md", "en",
    {"X": X.tolist(), "n_heads": 2, "W_Q": WQ.tolist(), "W_K": WK.tolist(), "W_V": WV.tolist(), "W_O": WO.tolist(),
     "scale": "1/sqrt(d_k)"},
    "Markdown post of a Python REPL: both heads as 3-D NumPy arrays (2, 3, 3) with blank lines between heads, "
    "reshape/transpose shapes, W_O with halves",
    t, SLIPS9 + [(">>> Qh.shape\n(2, 3, 2)", ">>> Qh.shape\n(2, 2, 3)", "split", "wrong_shape")])


# 10. Medium-style HTML: no LaTeX, Unicode subscripts and symbols ----------------------------------------------
X = np.array([[0.5, 1], [1, -0.5], [1.5, 0.5]])
WQ = np.array([[1, 0.5], [0, 1]])
WK = np.array([[1, 0], [0.5, 1]])
WV = np.array([[1, 1], [-1, 0]])
Q, K, V = X @ WQ, X @ WK, X @ WV
QK, S, A, O = attn(Q, K, V, 1 / math.sqrt(2))
sub = str.maketrans("0123456789", "₀₁₂₃₄₅₆₇₈₉")
U = lambda s: s.translate(sub)
E2 = np.exp(S[1])
dot = lambda a, b: " + ".join(f"({g(x)})×({g(y)})" if (x < 0 or y < 0) else f"{g(x)}×{g(y)}" for x, y in zip(a, b))
t = f"""<!DOCTYPE html>
<html lang="en">
<head><meta charset="utf-8"><title>Attention, without the scary notation – Medium</title></head>
<body>
<article>
<h1>Attention, without the scary notation</h1>
<p class="byline">5 min read · Mar 3</p>
<p>No LaTeX in this one, only arithmetic. Three tokens, two features each, one head, d<sub>k</sub> = 2.</p>
<h2>The inputs</h2>
<p>x{U("1")} = [{grow(X[0])}], x{U("2")} = [{grow(X[1]).replace("-", "−")}], x{U("3")} = [{grow(X[2])}]</p>
<p>W<sub>Q</sub> = [[{grow(WQ[0])}], [{grow(WQ[1])}]], W<sub>K</sub> = [[{grow(WK[0])}], [{grow(WK[1])}]],
W<sub>V</sub> = [[{grow(WV[0])}], [{grow(WV[1]).replace("-", "−")}]]</p>
<h2>Queries, keys, values</h2>
<pre>
q{U("1")} = [{grow(Q[0])}]    k{U("1")} = [{grow(K[0])}]    v{U("1")} = [{grow(V[0])}]
q{U("2")} = [{grow(Q[1])}]    k{U("2")} = [{grow(K[1])}]    v{U("2")} = [{grow(V[1])}]
q{U("3")} = [{grow(Q[2])}]    k{U("3")} = [{grow(K[2])}]    v{U("3")} = [{grow(V[2])}]
</pre>
<h2>Scores for the second token</h2>
<p>q{U("2")} · k{U("1")} = {dot(Q[1], K[0])} = {g(QK[1,0])}</p>
<p>q{U("2")} · k{U("2")} = {dot(Q[1], K[1])} = {g(QK[1,1])}</p>
<p>q{U("2")} · k{U("3")} = {dot(Q[1], K[2])} = {g(QK[1,2])}</p>
<p>Divide by √2 ≈ 1.4142: <strong>[{row(S[1], 4)}]</strong>.</p>
<h2>Softmax</h2>
<p>e<sup>{f(S[1,0],4)}</sup> ≈ {f(E2[0],4)}, e<sup>{f(S[1,1],4)}</sup> ≈ {f(E2[1],4)}, e<sup>{f(S[1,2],4)}</sup> ≈ {f(E2[2],4)}; total ≈ {f(E2.sum(),4)}.</p>
<p>Weights for token 2: α{U("2")} = [{row(A[1], 4)}].</p>
<h2>The new vector for token 2</h2>
<p>z{U("2")} = {f(A[1,0],4)}·v{U("1")} + {f(A[1,1],4)}·v{U("2")} + {f(A[1,2],4)}·v{U("3")} = [{row(O[1], 4)}]</p>
<h2>All three at once</h2>
<pre>
weights          output
{row(A[0], 4)}   {row(O[0], 4)}
{row(A[1], 4)}   {row(O[1], 4)}
{row(A[2], 4)}   {row(O[2], 4)}
</pre>
<p>Thanks for reading! 👏</p>
</article>
</body>
</html>
"""
add("html_medium_unicode_no_latex.html", "html", "en",
    {"X": X.tolist(), "n_heads": 1, "W_Q": WQ.tolist(), "W_K": WK.tolist(), "W_V": WV.tolist(), "W_O": "none",
     "scale": "1/sqrt(d_k)"},
    "Medium-style saved page without LaTeX: Unicode subscripts (q₂, α₂), × and ·, √2, <sub>/<sup>, U+2212 minus, "
    "side-by-side <pre> columns",
    t, [(f"= {g(QK[1,2])}</p>", f"= {g(QK[1,2]) + '5'}</p>", "scores", "arithmetic"),
        (f"α{U('2')} = [{row(A[1], 4)}]", f"α{U('2')} = [{row(A[1][[1,0,2]], 4)}]", "softmax", "neighbour_value"),
        (f"{row(A[2], 4)}   {row(O[2], 4)}", f"{row(A[2], 4)}   {row(O[2], 4).replace(f(O[2,0],4), f(O[2,0],4)[:-2] + f(O[2,0],4)[-1] + f(O[2,0],4)[-2])}",
         "weighted_sum", "swapped_digits")])


# Notebooks, executed for real ---------------------------------------------------------------------------------
def notebook(file, cells_src, config, notes, slips, lang="en"):
    import nbformat
    from nbclient import NotebookClient
    nb = nbformat.v4.new_notebook()
    for kind, src in cells_src:
        nb.cells.append(nbformat.v4.new_markdown_cell(src) if kind == "md" else nbformat.v4.new_code_cell(src))
    nb.metadata["kernelspec"] = {"name": "python3", "display_name": "Python 3", "language": "python"}
    NotebookClient(nb, timeout=120, kernel_name="python3").execute()
    for c in nb.cells:
        c.metadata = {}
    cells = []
    for c in nb.cells:
        out = ""
        for o in c.get("outputs", []):
            txt = o.get("text") if o["output_type"] == "stream" else o.get("data", {}).get("text/plain", "")
            out += txt if txt.endswith("\n") else txt + "\n"
        cells.append({"source": c.source, "output": out})
    add(file, "ipynb", lang, config, notes, None, [s for s in slips if s[0] != "?"], cells=cells)
    nbformat.write(nb, str(HERE / file))
    return cells


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


(HERE / "manifest.json").write_text(json.dumps({"documents": DOCS}, ensure_ascii=False, indent=1) + "\n", encoding="utf-8")
