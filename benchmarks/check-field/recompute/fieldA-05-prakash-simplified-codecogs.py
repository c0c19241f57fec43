"""fieldA-05: X (3x3) used as Q = K = V, scaled by sqrt(3); matrices printed inside codecogs image URLs."""
import numpy as np
from _truth import Truth

X = np.array([[1.8, 0.1, 0.5], [0.3, 1.2, 0.8], [1.8, -0.3, 0.8]])
S = X @ X.T
Z = S / np.sqrt(3)
A = np.exp(Z - Z.max(1, keepdims=True)); A /= A.sum(1, keepdims=True)
O = A @ X
np.set_printoptions(precision=5, suppress=True)
print("S\n", S, "\nZ\n", Z, "\nA\n", A, "\nO\n", O)

# what a reader gets from the rounded numbers printed before each step
# (had the earlier steps been printed right, at the document's two decimals)
Z_c = np.round(S, 2) / 1.732
A_c = np.exp(np.round(Z, 2)); A_c /= A_c.sum(1, keepdims=True)
O_c = np.round(A, 2) @ X
print("carried Z\n", Z_c, "\ncarried A\n", A_c, "\ncarried O\n", O_c)

T = Truth("fieldA-05-prakash-simplified-codecogs")
def mat(printed, exact, what, at, carried=None):
    for i in range(3):
        for j in range(3):
            T.num(printed[i][j], exact[i, j], f"{what}[{i + 1},{j + 1}]", at,
                  carried=None if carried is None else carried[i, j])

f = lambda M: [[f"{v:.2f}" for v in r] for r in M]          # the document prints two decimals
at = T.find("Attention Scores Calculation")
S_p = np.array([[3.50, 1.06, 3.61], [1.06, 1.70, 1.12], [3.61, 1.12, 3.97]])
Z_p = np.array([[2.02, 0.61, 2.08], [0.61, 0.98, 0.65], [2.08, 0.65, 2.30]])
A_p = np.array([[0.44, 0.10, 0.46], [0.25, 0.40, 0.35], [0.45, 0.18, 0.37]])
mat(f(S_p), S, "S = X X^T", at)
at = T.find("is `1.06`")
T.num("1.06", S[1, 0], "S[2,1]", at); T.num("3.97", S[2, 2], "S[3,3]", at)
T.num("1.732", np.sqrt(3), "sqrt(d_k)", T.find("`sqrt(3) ≈ 1.732`"))
mat(f(Z_p), Z, "S/sqrt(d_k)", T.find("Scaled Scores Matrix"), carried=Z_c)
mat(f(A_p), A, "A", T.find("Attention Weights Matrix"), carried=A_c)
at = T.find("(`[0.45, 0.18, 0.37]`)")
T.nums(["0.45", "0.18", "0.37"], A[2], "A[3,:]", at, carried=None)
for p, j in (("45", 0), ("18", 1), ("37", 2)):
    T.num(p, 100 * A[2, j], f"A[3,{j + 1}] in percent", at, carried=100 * A_c[2, j])
at = T.find("Context Vector Calculation")
mat(f(A_p), A, "A (repeated)", at, carried=A_c)
O_p = [["1.64", "0.02", "0.67"], ["1.20", "0.39", "0.83"], ["1.53", "-0.02", "0.60"]]
mat(O_p, O, "O = A X", at, carried=O_c)
T.nums(["1.53", "-0.02", "0.60"], O[2], "O[3,:]", T.find('"studying" `[1.53'), carried=None)

T.mark_own_errors({
    46: "S = X X^T: S[2,2] printed 1.70 for 2.17 and S[2,3] = S[3,2] printed 1.12 for 0.82 (x_am . x_am and x_am . x_studying miscomputed)",
    57: "scaled scores follow the wrong S (0.98, 0.65 for 1.25, 0.47) and S[3,3]/sqrt(3) = 2.29 is printed 2.30",
    61: "softmax rows do not follow from the scaled scores printed above (row 3 should be about 0.40, 0.10, 0.50 from them; exact 0.41, 0.08, 0.51)",
    63: "repeats the wrong row 3 of A and its percentages",
    70: "the wrong A repeated, and O = A X does not follow from it either (row 2 should be 1.20, 0.40, 0.73 from the printed A; row 3 1.53, 0.15, 0.67)",
    74: "repeats the wrong O[3,:]",
})
T.slip("is `1.06`", "is `1.60`", "swapped digits in S[2,1] quoted in prose")
T.slip("highest score is `3.97`", "highest score is `3.79`", "swapped digits in S[3,3] quoted in prose")
T.slip("`sqrt(3) ≈ 1.732`", "`sqrt(3) ≈ 1.723`", "swapped digits in sqrt(d_k)")
T.write()
