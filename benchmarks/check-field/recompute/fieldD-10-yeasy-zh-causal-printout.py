"""fieldD-10: yeasy/llm_internals 2.4 (Chinese book chapter, Markdown; same author as fieldD-02, another section).
Starts from printed scores: a torch program (seeded randn Q, K, never printed) prints the scaled 4x4 scores rounded
to 3 decimals (the givens here), the causally masked copy, and the masked softmax rounded to 3 decimals but shown
with 4 digits (round(decimals=3) then torch's 4-digit display: 0.0590 is 0.059).  The weights are judged against the
softmax of the printed scores, accepted when they equal it rounded to 3 decimals (the program's own rounding)."""
import numpy as np
from _truth import Truth

S = np.array([[-2.054, -1.307, -1.542, -3.056], [-1.251, 1.527, -0.500, 0.423],
              [-1.070, -0.388, -0.508, 0.516], [-0.558, -0.624, -0.544, 0.248]])
A = np.zeros((4, 4))
for i in range(4):
    e = np.exp(S[i, :i + 1] - S[i, :i + 1].max())
    A[i, :i + 1] = e / e.sum()
print(A.round(4))


def reachable(i, j, printed):
    """printed (3 decimals) is the softmax of some scores within +-0.0005 of the printed (3-decimal) ones: the scores
    were rounded before printing, the weights come from the unrounded ones (rounded inputs carried forward)"""
    import itertools
    n = i + 1
    for signs in itertools.product((-1, 0, 1), repeat=n):
        z = S[i, :n] + 0.0005 * np.array(signs)
        e = np.exp(z - z.max())
        if j < n and round(float(e[j] / e.sum()), 3) == round(printed, 3):
            return True
    return j >= n and printed == 0

T = Truth("fieldD-10-yeasy-zh-causal-printout")
s0 = T.find(" tensor([[-2.0540, -1.3070")[1]
m0 = T.find(" tensor([[-2.0540,    -inf")[1]
a0 = T.find(" tensor([[1.0000, 0.0000")[1]
for i in range(4):
    T.row(S[i], f"scaled scores[{i + 1},:]", (None, s0 + i, False), role="input")
    T.row(S[i, :i + 1], f"masked scores[{i + 1},:{i + 1}]", (None, m0 + i, False), last=False)
    line = T.lines[(None, a0 + i)]
    printed = [float(v) for v in __import__("re").findall(r"\d+\.\d+", line)[:4]]
    ok = [reachable(i, j, printed[j]) for j in range(4)]
    T.row(A[i], f"A[{i + 1},:] (rounded to 3 decimals)", (None, a0 + i, False), carried=np.round(A[i], 3))
    for k, n in enumerate(T.numbers[-4:]):
        n["correct"] = n["correct"] or ok[k]
T.num("1", 1, "non-zero weights of row 0", T.find("位置 0 的非零权重数: 1"))
T.num("4", 4, "non-zero weights of row 3", T.find("位置 3 的非零权重数: 4"))
at = T.find("位置 0 的整行权重集中在自身（1.00）")
T.num("1.00", A[0, 0], "A[1,1] (prose)", at)
T.num("4", 4, "positions seen by row 3 (prose)", at)
T.slip("[0.2110, 0.4180, 0.3710, 0.0000]", "[0.2110, 0.4810, 0.3710, 0.0000]", "swapped digits in A[3,2]")
T.slip("[0.1930, 0.1800, 0.1950, 0.4320]", "[0.1930, 0.1800, 0.1950, 0.4230]", "swapped digits in A[4,4]")
T.slip("[-1.2510,  1.5270,    -inf,    -inf]", "[-1.2510,  1.5720,    -inf,    -inf]", "swapped digits in a masked score")
T.mark_own_errors()
T.write()
