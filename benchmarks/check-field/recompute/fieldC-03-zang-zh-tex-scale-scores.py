"""fieldC-03: a chapter of Chinese LaTeX lecture notes (ZangXuanyi/fai-for-dbd, chapters/transformer.tex), an
`example` box on why 1/sqrt(d_k): one query's raw scores against four keys [20, 5, -3, 8], their exponentials in
scientific notation, the unscaled weight of the first key (约 0.999), the scores divided by sqrt(64) = 8 and the
softmax of those.

Own error: softmax([2.5, 0.625, -0.375, 1.0]) is [0.698, 0.107, 0.039, 0.156]; the notes print [0.72, 0.11, 0.04,
0.13] (line 165).  "几乎为 1（约 0.999）" for 0.9999935 is a declared approximation of "almost 1" and is accepted."""
import numpy as np
from _fieldc import Truth, softmax, source

ID = "fieldC-03-zang-zh-tex-scale-scores"
s = np.array([20.0, 5.0, -3.0, 8.0])
e = np.exp(s)
a_raw = e / e.sum()
z = s / np.sqrt(64)
a = softmax(z)
print("exp", e, "raw weights", a_raw, "scaled", z, "weights", a)

T = Truth(ID)
at = T.find("对应的标准差约为")
T.num("64", 64, "d_k (and the variance of q.k)", at, role="input")
T.num("8", np.sqrt(64), "standard deviation sqrt(d_k)", at)
T.nums(["20", "5", "-3", "8"], s, "raw scores", T.find("的内积（未经缩放）为"), role="input")
at = T.find("未缩放：$\\exp(20)")
T.num("4.85", e[0] / 1e8, "exp(20) = 4.85 x 10^8 (mantissa)", at)
T.num("1.48", e[1] / 1e2, "exp(5) = 1.48 x 10^2 (mantissa)", at)
T.num("4.98", e[2] / 1e-2, "exp(-3) = 4.98 x 10^-2 (mantissa)", at)
T.num("2.98", e[3] / 1e3, "exp(8) = 2.98 x 10^3 (mantissa)", at)
T.num("0.999", a_raw[0], "unscaled weight of key 1, 约 0.999 (declared: almost 1)", at, correct=True)
at = T.find("内积变为 $[2.5")
T.num("64", 64, "d_k", at, role="input")
T.nums(["2.5", "0.625", "-0.375", "1.0"], z, "scores / sqrt(d_k)", at)
T.nums(["0.72", "0.11", "0.04", "0.13"], a, "softmax(scores / sqrt(d_k))", at)
T.mark_own_errors({165: "softmax([2.5, 0.625, -0.375, 1.0]) is [0.698, 0.107, 0.039, 0.156]: 0.72 and 0.13 are off"})
T.slip("\\exp(20) \\approx 4.85\\times", "\\exp(20) \\approx 4.58\\times", "swapped digits in exp(20)")
T.slip("$2.98\\times 10^3$", "$2.89\\times 10^3$", "swapped digits in exp(8)")
T.slip("标准差约为 $8$", "标准差约为 $6$", "sqrt(64) written as 6")
T.write()

source(ID, source={"repo": "ZangXuanyi/fai-for-dbd", "path": "chapters/transformer.tex",
                   "commit": "17c01d7a0ea221c978b671e74879fa514664443e"},
       format="tex", lang="zh", starts_from="scores",
       what="Chinese LaTeX lecture notes (a 72k-character chapter): an example box with one query's raw scores "
            "[20, 5, -3, 8], exponentials in scientific notation, scores / 8 and their softmax (two weights off)",
       config={"T": 1, "S": 4, "H": 1, "d_k": 64, "scale": "1/sqrt(d_k) = 1/8 (and unscaled)", "mask": None,
               "W_O": None, "givens": "raw scores"})
