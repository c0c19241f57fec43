"""fieldH-02: rukenx/attention-by-hand, 06_multi_query_and_grouped_query_attention/solution_by_hand.tex (English
LaTeX solution, by hand).  Two query vectors q_1, q_2 against one shared K and V (d_k = 2): raw scores, softmax
weights after scaling by sqrt(2), outputs; then the bookkeeping of MHA / GQA / MQA for d_model = 8, H_q = 4,
d_k = d_v = 2 (group size, head mapping, projection widths, K/V parameter counts, tensor shapes, KV-cache sizes).
Every printed number agrees with a float64 recomputation at its own precision."""
import numpy as np
from _truth import Truth

q = np.array([[1, 0], [0, 1]], float)
K = np.eye(2)
V = np.array([[1, 0], [1, 1]], float)
S = q @ K.T
A = np.exp(S / np.sqrt(2)) / np.exp(S / np.sqrt(2)).sum(1, keepdims=True)
O = A @ V
print(S, A, O, sep="\n")
d_model, Hq, dk, dv, B, L_, Lc = 8, 4, 2, 2, 1, 3, 3

T = Truth("fieldH-02-rukenx-en-tex-shared-kv-queries")
L = lambda n: (None, n, False)
T.num("4", Hq, "H_q", L(36), role="input")
T.num("2", 2, "H_kv (GQA)", L(36), role="input")
T.num("2", Hq / 2, "group size G = H_q / H_kv", L(38))
T.row([0, 0, 1, 1], "GQA head mapping floor(h / G)", L(46))
T.row([0, 0, 0, 0], "MQA head mapping", L(50))
T.row(q[0], "q_1", L(68), role="input")
T.row(q[1], "q_2", L(70), role="input")
for r in range(2):
    T.row(K[r], f"K_shared[{r + 1},:]", L(75 + r), role="input")
    T.row(V[r], f"V_shared[{r + 1},:]", L(81 + r), role="input")
T.num("2", dk, "d_k", L(84), role="input")
T.row(S[0], "q_1 K^T", L(88))
T.row(S[1], "q_2 K^T", L(90))
T.row(A[0], "A_1", L(94))
T.row(A[1], "A_2", L(96))
T.row(O[0], "O_1 = A_1 V", L(101))
T.row(O[1], "O_2 = A_2 V", L(105))
for ln, hkv, name in ((130, 4, "MHA"), (131, 2, "GQA"), (132, 1, "MQA")):
    T.row([Hq * dk, hkv * dk, hkv * dv], f"{name} Q, K, V widths", L(ln))
for ln, hkv, name in ((143, 4, "MHA"), (144, 2, "GQA"), (145, 1, "MQA")):
    T.num(str(d_model * hkv * (dk + dv)), d_model * hkv * (dk + dv), f"{name} K/V parameters d_model H_kv (d_k + d_v)", L(ln))
T.row([B, Hq, L_, L_], "scores shape", L(165))
T.row([B, Hq, L_, dv], "output shape", L(167))
for ln, hkv, name in ((194, 4, "MHA"), (195, 2, "GQA"), (196, 1, "MQA")):
    T.num(str(B * Lc * hkv * (dk + dv)), B * Lc * hkv * (dk + dv), f"{name} KV-cache elements B L H_kv (d_k + d_v)", L(ln))
T.mark_own_errors()
T.slip("A_1\\approx\\begin{bmatrix}0.6698&0.3302", "A_1\\approx\\begin{bmatrix}0.6689&0.3302", "swapped digits in a weight")
T.slip("\\approx\\begin{bmatrix}1.0000&0.6698", "\\approx\\begin{bmatrix}1.0000&0.6968", "swapped digits in an output")
T.slip("\\text{GQA}=24", "\\text{GQA}=42", "swapped digits in a cache size")
T.write()
