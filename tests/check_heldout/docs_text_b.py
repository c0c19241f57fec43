"""Held-out documents 7 to 10: word-token tables, column vectors, a REPL transcript, an HTML page (run by make.py, in its order)."""
import math

import numpy as np

from _common import add, attn, f, g, grow, row, softmax


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
