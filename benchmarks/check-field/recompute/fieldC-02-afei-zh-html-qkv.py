"""fieldC-02: a Chinese blog page (afei2333/ai-notes, posts/attention-mechanism.html): the sentence 猫很累, X (3x4)
shown but Q, K, V given directly (W_Q, W_K, W_V never printed), so the givens are Q, K (3x4) and V = I (3x3).
S = Q K^T, the row of 累 scaled by sqrt(d_k) = 2, softmax with e^x spelled out (KaTeX), the weights, o_累 = A V and
a causal mask.  Most matrices live in the page's JavaScript (const Q=[[...]]...), which draws them at run time; the
prose carries the row of 累 and the weights.  All numbers hold (checked below).  The eight-head heat maps (line 841
on) are illustrative patterns, not computed from the givens, and are left out."""
import numpy as np
from _fieldc import Truth, softmax, source

ID = "fieldC-02-afei-zh-html-qkv"
X = np.array([[1, 0, 1, 0], [0, 1, 0, 1], [1, 1, 0, 0]], float)
Q = np.array([[1, 0, 1, 0], [0, 1, 0, 1], [1, 0, 2, 0]], float)
K = np.array([[1, 0, 1, 0], [0, 1, 0, 1], [0, 0, 1, 1]], float)
V = np.eye(3)
S = Q @ K.T
Ss = S / np.sqrt(4)
A = softmax(Ss)
O = A @ V
e = np.exp(Ss[2])
print("S", S, "scaled", Ss, "A", A.round(4), "e", e, e.sum(), sep="\n")

T = Truth(ID)
f = lambda m: [f"{x:g}" for x in np.ravel(m)]  # noqa: E731
at = T.find("const X=[[")
T.nums(f(X), X.ravel(), "X", at, role="input")
T.nums(f(Q), Q.ravel(), "Q", T.find("const Q=[["), role="input")
T.nums(f(K), K.ravel(), "K", T.find("const K=[["), role="input")
T.nums(f(V), V.ravel(), "V", T.find("const V=[["), role="input")
T.nums(f(S), S.ravel(), "S = Q K^T", T.find("const S=[["))
T.nums(["1.0", "0", "0.5", "0", "1.0", "0.5", "1.5", "0", "1.0"], Ss.ravel(), "S / sqrt(d_k)", T.find("const Sscale="))
T.nums(["0.51", "0.19", "0.31", "0.19", "0.51", "0.31", "0.55", "0.12", "0.33"], A.ravel(), "A", T.find("const A=[["))
# q_累 . k_猫 written out
at = T.find("k<sub>猫</sub> = 1 + 0 + 2 + 0")
T.nums(["1", "0", "2", "0", "3"], [Q[2, 0] * K[0, 0], 0, Q[2, 2] * K[0, 2], 0, S[2, 0]], "q_累 . k_猫 terms", at)
T.nums(["3", "0", "2"], S[2], "S_累 before scaling", T.find("makeMatrix([[3,0,2]]"))
T.nums(["1.5", "0", "1.0"], Ss[2], "S_累 / 2", T.find("makeMatrix([['1.5','0','1.0']]"))
at = T.find("高亮的「累」这一行")
T.nums(["3", "0", "2"], S[2], "row of 累", at)
at = T.find("\\div 2 = [1.5")
T.nums(["3", "0", "2", "2", "1.5", "0", "1.0"], [*S[2], 2, *Ss[2]], "row of 累 / sqrt(d_k)", at)
T.nums(["1.5", "0", "1.0"], Ss[2], "softmax argument", T.find("softmax([1.5, 0, 1.0])"))
at = T.find("e^{1.5}=4.48")
T.nums(["1.5", "4.48", "0", "1", "1.0", "2.72", "8.20", "0.55", "0.12", "0.33"],
       [Ss[2, 0], e[0], 0, e[1], Ss[2, 2], e[2], e.sum(), *A[2]], "exp and weights of 累", at)
for k, line in enumerate((451, 452, 453)):
    T.num(["0.55", "0.12", "0.33"][k], A[2, k], f"A[累,{k + 1}] (opening figure)", (None, line, False))
T.nums(["0.55", "0.12", "0.33"], A[2], "A[累] (prose)", T.find("这三个数字（0.55"))
T.nums(["0.55", "0.12", "0.33"], A[2], "A[累] (prose, weighted sum)", T.find("最后一步，也是"))
T.nums(["0.55", "0.12", "0.33"], A[2], "A[累] (animation)", T.find("const vals=[0.55"))
T.nums(["0.55", "0.12", "0.33"], A[2], "A[累] (animation, final)", T.find("if(i===5){ const vals=[0.55"))
at = T.find("const rows=[['0.55','v猫','[1, 0, 0]']")
T.nums(["0.55", "1", "0", "0", "0.12", "0", "1", "0", "0.33", "0", "0", "1"],
       [A[2, 0], *V[0], A[2, 1], *V[1], A[2, 2], *V[2]], "alpha_j, v_j", at)
T.nums(["0.55", "0.12", "0.33"], O[2], "o_累 = A V", T.find("<span class=\"out\">[0.55, 0.12, 0.33]"))
at = T.find("const data=[[2,'−∞','−∞']")
T.nums(["2", "0", "2", "3", "0", "2"], [S[0, 0], S[1, 0], S[1, 1], *S[2]], "S + causal mask (unmasked cells)", at)
T.mark_own_errors()
T.slip("e^{1.5}=4.48", "e^{1.5}=4.84", "swapped digits in an exponential")
T.slip("三者之和 8.20", "三者之和 8.02", "swapped digits in the sum")
T.slip("const A=[[0.51,0.19,0.31]", "const A=[[0.51,0.91,0.31]", "swapped digits in a weight of row 1")
T.slip("\\div 2 = [1.5,\\,0,\\,1.0]", "\\div 2 = [1.5,\\,0,\\,2.0]", "a row entry not divided")
T.write()

source(ID, source={"repo": "afei2333/ai-notes", "path": "posts/attention-mechanism.html",
                   "commit": "cec8f37ab82d7b5d1c157d66ee22221c0d26b505"},
       format="html", lang="zh", starts_from="QKV",
       what="Chinese blog page with KaTeX: Q, K (3x4) and V = I given in the page's JavaScript, S = Q K^T, the row "
            "of one token scaled by 2, exponentials and weights 0.55/0.12/0.33 in prose, A V, causal mask; the "
            "matrices are drawn by script",
       config={"T": 3, "S": 3, "H": 1, "d_k": 4, "scale": "1/sqrt(d_k) = 1/2", "mask": "none (causal shown after)",
               "W_O": None, "givens": "Q, K, V in <script> arrays"})
