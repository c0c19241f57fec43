"""fieldI-09: rohitg00/ai-engineering-from-scratch, phases/07-transformers-deep-dive/02-self-attention-from-scratch/
docs/zh.md (Chinese lesson in Markdown, the course's own translation).  A 5x5 score matrix is given as a table; the
first row's raw scores [2.1, 0.3, 0.1, 0.8, 0.2] are passed through a softmax ("Softmax 将原始分数转换为...概率分布"), the
weights are printed with "(总和 ≈ 1.0)", and token 1's output is written as those weights times v1..v5.
Own errors: softmax([2.1, 0.3, 0.1, 0.8, 0.2]) is [0.5805, 0.0960, 0.0786, 0.1583, 0.0868] (0.58, 0.10, 0.08, 0.16,
0.09); the printed [0.52, 0.09, 0.07, 0.14, 0.08] sums to 0.90 and no scale 1/s makes a softmax of the row match it; the
output line repeats the wrong weights.  No slip is planted: the two derived lines both hold an own error (set G had the
same exception)."""
import numpy as np
from _truth import Truth

S = np.array([[2.1, 0.3, 0.1, 0.8, 0.2], [0.4, 1.9, 0.7, 0.1, 0.3], [0.2, 0.6, 2.3, 0.5, 0.1], [0.9, 0.1, 0.4, 1.7, 0.6],
              [0.1, 0.3, 0.2, 0.5, 2.0]])
w = np.exp(S[0]) / np.exp(S[0]).sum()
print(w)

T = Truth("fieldI-09-rohitg-zh-md-scores-softmax")
L = lambda n: (None, n, False)  # noqa: E731
for r in range(5):
    T.nums([f"{x:.1f}" for x in S[r]], S[r], f"scores row {r + 1} (given)", L(90 + 2 * r), role="input")
T.nums([f"{x:.1f}" for x in S[0]], S[0], "row 1 raw scores (given)", L(121), role="input")
T.nums(["0.52", "0.09", "0.07", "0.14", "0.08", "1.0"], [*w, w.sum()], "softmax of row 1, and its sum", L(125))
T.nums(["0.52", "0.09", "0.07", "0.14", "0.08"], w, "weights of output_1", L(138))
T.mark_own_errors({(None, 125): "softmax([2.1, 0.3, 0.1, 0.8, 0.2]) is [0.58, 0.10, 0.08, 0.16, 0.09]; the printed "
                                "weights sum to 0.90",
                   (None, 138): "repeats the wrong weights [0.52, 0.09, 0.07, 0.14, 0.08]"})
T.write()
