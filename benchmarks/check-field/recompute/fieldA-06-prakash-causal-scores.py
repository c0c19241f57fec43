"""fieldA-06: raw scores given (3x3, from the course's previous section), causal mask, softmax(S/sqrt(d_k)).

d_k is not stated in this section; the scores come from the previous section's Q and K with d_k = 3, and the text
says it scales by sqrt(d_k) "as usual".  No scale at all does not give the printed weights either (row 2 would be
0.24, 0.76)."""
import numpy as np
from _truth import Truth

S = np.array([[2.37, 3.23, 1.83], [3.23, 4.38, 2.49], [1.83, 2.49, 1.48]])
M = np.triu(np.full((3, 3), -np.inf), 1)
Z = (S + M) / np.sqrt(3)
A = np.exp(Z - Z.max(1, keepdims=True)); A /= A.sum(1, keepdims=True)
print("A (d_k = 3)\n", A.round(4))
for d in (1, 2, 4):
    Zd = (S + M) / np.sqrt(d); Ad = np.exp(Zd - Zd.max(1, keepdims=True)); print(f"d_k = {d}:", (Ad / Ad.sum(1, keepdims=True)).round(3).tolist())

T = Truth("fieldA-06-prakash-causal-scores")
at = T.find("Masked%20Scores")
for i, j in ((0, 0), (1, 0), (1, 1), (2, 0), (2, 1), (2, 2)):
    T.num(f"{S[i, j]:.2f}", S[i, j], f"masked S[{i + 1},{j + 1}] (unmasked entry kept)", at)
at = T.find("Causal%20Weights")
printed = [["1.00", "0.00", "0.00"], ["0.22", "0.78", "0.00"], ["0.25", "0.54", "0.21"]]
for i in range(3):
    for j in range(3):
        T.num(printed[i][j], A[i, j], f"A[{i + 1},{j + 1}]", at)
T.num("100", 100 * A[0, 0], "A[1,1] in percent", T.find("(100% weight)"))
at = T.find('"I" (22%)')
T.num("22", 100 * A[1, 0], "A[2,1] in percent", at)
T.num("78", 100 * A[1, 1], "A[2,2] in percent", at)
T.num("0", 100 * A[1, 2], "A[2,3] in percent", T.find('"studying" (0%)'))
T.mark_own_errors({
    37: "row 2 printed 0.22, 0.78 and row 3 0.25, 0.54, 0.21: neither softmax(S/sqrt(3)) (0.34, 0.66; 0.30, 0.45, 0.25) nor softmax(S) (0.24, 0.76; 0.27, 0.53, 0.19)",
    41: "the wrong row-2 weights as percentages",
})
T.slip("4.38%20%26%20-%5Cinfty", "4.83%20%26%20-%5Cinfty", "swapped digits in a kept masked score")
T.slip("-%5Cinfty%20%5C%5C%201.83", "-%5Cinfty%20%5C%5C%201.38", "swapped digits in a kept masked score")
T.slip("(100% weight)", "(10% weight)", "a dropped digit in a percentage")
T.write()
