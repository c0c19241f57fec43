"""fieldD-03: mindcarver/91ai, stage4-nlp/04-attention.md (Chinese course note).  Starts from Q, K, V.

The worked example (a fenced text block) gives Q, K (3x4, 0/1) and V (3x4 decimals), prints S = QK^T, S/2, the
weights A (2 decimals) and writes O as A's weights times V1..V3.  S and S/2 are right; rows 1 and 2 of A are not the
softmax of S/2 ([1, 0, 0.5] gives 0.51 / 0.19 / 0.31, printed 0.50 / 0.12 / 0.38), and the O lines and the prose after
it repeat them.  Earlier, a schematic block says the similarities 0.8 / 0.2 / 0.9 become the weights 0.5 / 0.1 / 0.4
right under the sentence that the weights are the softmax of the scores: softmax gives 0.38 / 0.21 / 0.42.
The program's "expected output" comes from torch.randn inputs that are never printed: only what follows from the
configuration is in the truth (shapes, the row sum 1, the causal row 0 and the masked zeros of row 5); the nonzero
weights of row 5, the parameter counts and the FLOP table (not attention values) are left out."""
import numpy as np
from _truth import Truth

Q = np.array([[1, 0, 1, 0], [0, 1, 0, 1], [1, 1, 1, 1]], float)
K = np.array([[1, 0, 1, 0], [0, 1, 0, 1], [1, 1, 0, 0]], float)
V = np.array([[0.1, 0.2, 0.3, 0.4], [0.5, 0.6, 0.7, 0.8], [0.9, 1.0, 1.1, 1.2]])
S = Q @ K.T
Ss = S / 2
A = np.exp(Ss) / np.exp(Ss).sum(1, keepdims=True)
sim = np.array([0.8, 0.2, 0.9])
w = np.exp(sim) / np.exp(sim).sum()
print(S, Ss, A.round(4), w.round(4), sep="\n")

T = Truth("fieldD-03-mindcarver-zh-qkv-weights")
for k, (s, p) in enumerate((("0.8", "0.5"), ("0.2", "0.1"), ("0.9", "0.4"))):
    at = T.find(f"相似度 {s} → 权重 {p}")
    T.num(p, w[k], f"schematic weight {k + 1} (softmax of the similarities)", at)
at = T.find("Output = 0.5 × Value1")
T.nums(["0.5", "0.1", "0.4"], w, "schematic weights in Output", at)
r = T.find("S = [[2, 0, 1],")[1]
for i in range(3):
    T.row(S[i], f"S[{i + 1},:]", (None, r + i, False), last=False)
r = T.find("S_scaled = [[1.0, 0.0, 0.5],")[1]
for i in range(3):
    T.row(Ss[i], f"S/2[{i + 1},:]", (None, r + i, False))
r = T.find("A ≈ [[0.50, 0.12, 0.38],")[1]
for i in range(3):
    T.row(A[i], f"A[{i + 1},:]", (None, r + i, False))
r = T.find("O ≈ [[0.50×V1")[1]
for i, printed in enumerate((["0.50", "0.12", "0.38"], ["0.12", "0.50", "0.38"], ["0.33", "0.33", "0.33"])):
    T.nums(printed, A[i], f"A[{i + 1},:] in O's row {i + 1}", (None, r + i, False))
at = T.find("注意 Query 1 和 Key 1 完全匹配")
T.num("2", S[0, 0], "q1.k1", at)
T.num("0.50", A[0, 0], "A[1,1] (prose)", at)
T.num("0.33", A[2, 0], "A[3,:] (prose)", at)
# the program's expected output: only what the configuration fixes (batch 2, 4 heads, 10 tokens, d_model 64)
T.row([2, 4, 10, 16] * 3, "Q, K, V shapes", T.find("输入: Q=[2, 4, 10, 16]"))
T.row([2, 4, 10, 16], "output shape", T.find("   输出: [2, 4, 10, 16]"))
T.row([2, 4, 10, 10], "weights shape", T.find("   注意力权重: [2, 4, 10, 10]", nth=0))
T.num("1.000000", 1.0, "a row sum of the weights", T.find("权重和（应为1.0）: 1.000000"))
T.row([1, 1, 10, 10], "mask shape", T.find("Mask 形状: [1, 1, 10, 10]"))
T.row([1] + [0] * 9, "causal weights of position 0", T.find("位置 (0,0) 的权重: [1.0"))
at = T.find("位置 (5,5) 的权重（应只看前6个）: ['0.12'")
for k, p in enumerate(["0.00", "0.00", "0.00", "0.000"]):
    T.num(p, 0.0, f"masked weight of position 5, key {7 + k}", at)
T.slip("S_scaled = [[1.0, 0.0, 0.5],", "S_scaled = [[1.0, 0.0, 0.05],", "dropped digit in S/2[1,3]")
T.slip("            [1.0, 1.0, 1.0]]", "            [1.0, 1.0, 0.1]]", "neighbour-like slip in S/2[3,3]")
T.slip("     [0.33, 0.33, 0.33]]", "     [0.33, 0.33, 0.38]]", "a neighbour row's value in A[3,3]")
T.mark_own_errors({
    44: "softmax([0.8, 0.2, 0.9]) gives 0.21 for the second key, printed 0.1",
})
T.write()
