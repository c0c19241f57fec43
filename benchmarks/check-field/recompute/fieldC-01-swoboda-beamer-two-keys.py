"""fieldC-01: beamer slides of a course (pawelswoboda/ADL, slides/attention.tex).  One query q_2 = [4, 6, 2] against
two keys k_1 = [5, 4, 6] and k_2 = [2, 4, 3], each entry a TikZ node of its own; the dot products 56 and 38 appear
in the nodes, in the drawing's comments and in a flow diagram, which then divides by sqrt(d_k) and takes the softmax.

The slide says d_k = 3 (the vectors have three entries), but the diagram prints 7.0 and 4.8: 56/8 and 38/8, the
sqrt(64) of the paper's example.  With d_k = 3 the scaled scores are 32.33 and 21.94 and the weights 1.0000 and
0.0000; 0.90 / 0.10 follow only from the wrong 7.0 / 4.8.  Those lines are the author's own errors.  The values v_1,
v_2 are drawn as empty cells, so z_2 is not computed.  Two TeX comments keep the author's discarded drafts (other
vectors, dot products 62 and 40); their arithmetic holds and they are recorded as derived numbers."""
import numpy as np
from _fieldc import Truth, softmax, source

ID = "fieldC-01-swoboda-beamer-two-keys"
q2 = np.array([4.0, 6.0, 2.0])
k1, k2 = np.array([5.0, 4.0, 6.0]), np.array([2.0, 4.0, 3.0])
d_k = 3
s = np.array([q2 @ k1, q2 @ k2])                  # 56, 38
z = s / np.sqrt(d_k)                              # 32.33, 21.94
a = softmax(z)
z_doc = s / 8.0                                   # what the slide did (sqrt(64))
a_doc = softmax(np.round(z_doc, 1))
print("scores", s, "scaled", z, "weights", a, "| slide's reading: /8", z_doc, softmax(z_doc))

T = Truth(ID)
# givens: one TikZ node per entry, and each vector once more in a comment above its nodes
lines = {"q_2": (384, 385, 386), "k_1": (390, 391, 392), "k_2": (396, 397, 398)}
for name, vec in (("q_2", q2), ("k_1", k1), ("k_2", k2)):
    for j, ln in enumerate(lines[name]):
        T.num(str(int(vec[j])), vec[j], f"{name}[{j + 1}]", (None, ln, False), role="input")
for needle, vec in (("% ---- q2 = [4, 6, 2]", q2), ("% ---- k1 = [5, 4, 6]", k1), ("% ---- k2 = [2, 4, 3]", k2)):
    T.nums([str(int(x)) for x in vec], vec, needle[8:10] + " (comment)", T.find(needle), role="input")
# drafts in comments (other vectors; arithmetic right)
at = T.find("% q2 = [3, 7, 4],  k1 = [4, 6, 2]")
T.nums(["12", "42", "8", "62"], [3 * 4, 7 * 6, 4 * 2, 62], "draft q.k (comment)", at)
at = T.find("% q2 = [4, 6, 2],  k2 = [3, 3, 5]")
T.nums(["12", "18", "10", "40"], [4 * 3, 6 * 3, 2 * 5, 40], "draft q.k (comment)", at)
# the real dot products
at = T.find("% q2 = [4, 6, 2],  k1 = [5, 4, 6]")
T.nums(["20", "24", "12", "56"], [20, 24, 12, s[0]], "q_2.k_1 terms (comment)", at)
at = T.find("% q2 = [4, 6, 2],  k2 = [2, 4, 3]")
T.nums(["8", "24", "6", "38"], [8, 24, 6, s[1]], "q_2.k_2 terms (comment)", at)
T.num("56", s[0], "q_2.k_1 (comment)", T.find("% q2·k1 = 56"))
T.num("38", s[1], "q_2.k_2 (comment)", T.find("% q2·k2 = 38"))
T.num("56", s[0], "q_2.k_1", T.find("{$q_2 \\!\\cdot\\! k_1 = \\mathbf{56}$}"))
T.num("38", s[1], "q_2.k_2", T.find("{$q_2 \\!\\cdot\\! k_2 = 38$}"))
at = T.find("k_1 = 4{\\cdot}5 + 6{\\cdot}4")
T.num("56", s[0], "q_2.k_1 = 4.5+6.4+2.6", at)
at2 = T.find("k_2 = 4{\\cdot}2 + 6{\\cdot}4")
T.num("38", s[1], "q_2.k_2 = 4.2+6.4+2.3", at2)
T.num("56", s[0], "s_21", T.find("{$s_{21} = 56$}"))
T.num("38", s[1], "s_22", T.find("{$s_{22} = 38$}"))
T.num("7.0", z[0], "s_21 / sqrt(d_k)", T.find("{$7.0$}"))
T.num("4.8", z[1], "s_22 / sqrt(d_k)", T.find("{$4.8$}"))
T.num("0.90", a[0], "alpha_21", T.find("{$\\alpha_{21} = 0.90$}"))
T.num("0.10", a[1], "alpha_22", T.find("{$\\alpha_{22} = 0.10$}"))
T.num("0.90", a[0], "alpha_21 (comment)", T.find("% --- term 1: 0.90"))
T.num("0.90", a[0], "alpha_21 in z_2", T.find("{$0.90\\;\\times$}"))
T.num("0.10", a[1], "alpha_22 (comment)", T.find("% --- term 2: 0.10"))
T.num("0.10", a[1], "alpha_22 in z_2", T.find("{$0.10\\;\\times$}"))
why_scale = "d_k = 3 (stated, 3-entry vectors) but 56 and 38 are divided by 8 = sqrt(64): 32.33 and 21.94"
why_w = "softmax of the wrongly scaled 7.0 / 4.8; with d_k = 3 the weights are 1.0000 / 0.0000"
T.mark_own_errors({437: why_scale, 438: why_scale, 440: why_w, 441: why_w, 469: why_w, 470: why_w,
                   482: why_w, 483: why_w})
T.slip("2{\\cdot}6 = \\mathbf{56}", "2{\\cdot}6 = \\mathbf{65}", "swapped digits in q_2.k_1")
T.slip("2{\\cdot}3 = 38$}", "2{\\cdot}3 = 36$}", "arithmetic slip in q_2.k_2")
T.slip("{$s_{22} = 38$}", "{$s_{22} = 83$}", "swapped digits in s_22")
T.slip("k_1 = \\mathbf{56}$}", "k_1 = \\mathbf{46}$}", "one digit off in the arrow label q_2.k_1")
T.write()

source(ID, source={"repo": "pawelswoboda/ADL", "path": "slides/attention.tex",
                   "commit": "1a6eade32c6530eb8a67db42c0924cc870339a8f"},
       format="tex", lang="en", starts_from="one-query",
       what="beamer/TikZ slides of a course: one query q_2 = [4, 6, 2] against two keys, each entry a TikZ node; "
            "dot products 56 and 38 in nodes, comments and a flow diagram, then divided by sqrt(d_k) (printed 7.0 "
            "and 4.8, i.e. by 8 although d_k = 3) and softmax 0.90 / 0.10; values drawn empty",
       config={"T": 1, "S": 2, "H": 1, "d_k": 3, "scale": "1/sqrt(d_k) stated; the slide divides by 8",
               "mask": None, "W_O": None, "givens": "q_2, k_1, k_2 as TikZ nodes"})
