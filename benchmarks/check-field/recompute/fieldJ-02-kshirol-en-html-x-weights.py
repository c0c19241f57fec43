"""fieldJ-02: kshirol-dev/learnAI, AIFundamentals/09-attention-and-transformers-under-the-hood.html (English HTML
lesson; the worked numbers sit in the step details of its script).
X (3 tokens x 4) and W_Q, W_K (4 x 2) are given; Q = X W_Q is printed row by row.  The next step starts again from
"given Q, K" and prints Q and K^T explicitly (its K^T is the printed Q transposed, not X W_K): QK^T, the scores over
sqrt(2), and a row softmax; then softmax([8, -8]) and softmax([1, -1]) as asides on scaling, with sqrt(64) = 8.
Numbers of step 1 on are judged against the printed Q and K^T of that step (the givens it restates).
Not in the truth: the sizes in the narration (n = 128K, 16.4 billion entries) and the positional-encoding and
KV-cache steps further down, which are no attention arithmetic on printed givens.
Own errors: Q for "cat" is [0.41, 0.60] (0.06 + 0.18 + 0.35 + 0.01), printed [0.41, 0.52]; every row of the
softmax is wrong in the second or third decimal (row 1 is [0.360, 0.326, 0.314], printed [0.371, 0.336, 0.324], and
rows 2 and 3 likewise; the printed rows do not sum to 1); softmax([8, -8]) is [1.0000, 0.0000] to four decimals,
printed [0.9999, 0.0001]; softmax([1, -1]) is [0.881, 0.119], printed [0.731, 0.269] (the softmax of [1, 0])."""
import numpy as np
from _truth import Truth

X = np.array([[1.0, 0.5, 0.3, 0.8], [0.2, 0.9, 0.7, 0.1], [0.6, 0.3, 0.5, 0.4]])
WQ = np.array([[0.1, 0.3], [0.4, 0.2], [0.0, 0.5], [0.3, 0.1]])
WK = np.array([[0.2, 0.0], [0.1, 0.5], [0.3, 0.1], [0.0, 0.4]])
Q = X @ WQ
Qp = np.array([[0.54, 0.63], [0.41, 0.52], [0.30, 0.53]])      # Q and K^T as printed in step 1
S = Qp @ Qp.T
Ss = S / np.sqrt(2)
A = np.exp(Ss) / np.exp(Ss).sum(1, keepdims=True)
sm = lambda v: np.exp(v) / np.exp(v).sum()  # noqa: E731
print(Q, S, Ss, A, sm(np.array([8., -8.])), sm(np.array([1., -1.])), sep="\n")

T = Truth("fieldJ-02-kshirol-en-html-x-weights")
at = T.find
for r, nm in enumerate(('"The"', '"cat"', '"sat"')):
    T.nums([f"{v:.1f}" for v in X[r]], X[r], f"X {nm}", at(f"{X[r][0]:.1f}, {X[r][1]:.1f}, {X[r][2]:.1f}, {X[r][3]:.1f}]"),
           role="input")
for r in range(4):
    line = at(f"[{WQ[r][0]:.1f}, {WQ[r][1]:.1f}]" + ("]" if r == 3 else ","), nth=0)
    T.nums([f"{WQ[r][0]:.1f}", f"{WQ[r][1]:.1f}"], WQ[r], f"W_Q row {r + 1}", line, role="input")
T.nums(["0.54", "0.63"], Q[0], 'Q "The"', at('"The": [1'))
T.nums(["0.41", "0.52"], Q[1], 'Q "cat"', at('"cat": [...] = ['))
T.nums(["0.30", "0.53"], Q[2], 'Q "sat"', at('"sat": [...] = ['))
T.nums(["0.54", "0.63", "0.54", "0.41", "0.30"], [0.54, 0.63, 0.54, 0.41, 0.30], "Q row 1, K^T row 1 (given)",
       at("Q = [[0.54, 0.63],"), role="input")
T.nums(["0.41", "0.52", "0.63", "0.52", "0.53"], [0.41, 0.52, 0.63, 0.52, 0.53], "Q row 2, K^T row 2 (given)",
       at("[0.41, 0.52],           [0.63"), role="input")
rows_qk = [["0.689", "0.549", "0.496"], ["0.549", "0.439", "0.399"], ["0.496", "0.399", "0.371"]]
for r in range(3):
    T.nums(rows_qk[r], S[r], f"QK^T row {r + 1}",
           at(f'[<span class="hl-num">{rows_qk[r][0]}</span>, <span class="hl-num">{rows_qk[r][1]}</span>'))
rows_s = [["0.487", "0.388", "0.351"], ["0.388", "0.310", "0.282"], ["0.351", "0.282", "0.262"]]
for r in range(3):
    T.nums(rows_s[r], Ss[r], f"QK^T / sqrt(2) row {r + 1}",
           at(f'[<span class="hl-num">{rows_s[r][0]}</span>, <span class="hl-num">{rows_s[r][1]}</span>'))
rows_a = [["0.371", "0.336", "0.324"], ["0.345", "0.319", "0.311"], ["0.340", "0.317", "0.312"]]
for r in range(3):
    T.nums(rows_a[r], A[r], f"softmax row {r + 1}", at(f">{rows_a[r][0]}</span>, <span class"))
T.num("8", np.sqrt(64), "std of q.k for d_k = 64", at("q\\u00b7k has std = <span class=\"hl-num\">8"))
T.nums(["0.9999", "0.0001"], sm(np.array([8., -8.])), "softmax([8, -8])", at("softmax([8, -8]) = ["))
T.nums(["0.731", "0.269"], sm(np.array([1., -1.])), "softmax([1, -1])", at("softmax([1, -1]) = ["))
T.mark_own_errors()
T.slip('= [[<span class="hl-num">0.689</span>', '= [[<span class="hl-num">0.698</span>', "swapped digits in a score")
T.slip('[<span class="hl-num">0.388</span>, <span class="hl-num">0.310</span>',
       '[<span class="hl-num">0.388</span>, <span class="hl-num">0.340</span>', "a wrong digit in a scaled score")
T.slip('"sat": [...] = [<span class="hl-num">0.30</span>', '"sat": [...] = [<span class="hl-num">0.36</span>',
       "a wrong digit in a projected query")
T.write()
