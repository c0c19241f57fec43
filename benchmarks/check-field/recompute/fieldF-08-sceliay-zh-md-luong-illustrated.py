"""fieldF-08: sceliay/blog, source/_posts/attention.md (Chinese Hexo blog post, 2019-2020).  Two worked examples
retold in Chinese from two well-known English articles: (1) one decoder query [10, 5, 10] against four encoder
hidden states: dot-product scores 15, 60, 15, 35, the softmax rounded to 0/1/0/0, alignment vectors; (2) the
"illustrated self-attention" example: three 4-wide inputs with given 4x3 key/query/value weights, K, Q, V, the
scores of input 1, softmax([2, 4, 4]) printed [0.0, 0.5, 0.5], weighted values and output 1.

The softmax of [2, 4, 4] is [0.063, 0.468, 0.468]; "0.0" is a mis-rounding at one decimal (the post does not say
the weights are rounded), so that line is an own error.  The weighted values and the output are computed from the
printed weights [0.0, 0.5, 0.5] and are judged with those weights carried forward.  (The same self-attention example
appears in other documents of the trial; this post is a different author's, in Chinese, with a different first part.)"""
import numpy as np
from _truth import Truth

d = np.array([10.0, 5.0, 10.0])
H = np.array([[0.0, 1, 1], [5, 0, 1], [1, 1, 0], [0, 5, 1]])
s = H @ d
a = np.exp(s - s.max()) / np.exp(s - s.max()).sum()
al = a[:, None] * H
X = np.array([[1.0, 0, 1, 0], [0, 2, 0, 2], [1, 1, 1, 1]])
Wk = np.array([[0.0, 0, 1], [1, 1, 0], [0, 1, 0], [1, 1, 0]])
Wq = np.array([[1.0, 0, 1], [1, 0, 0], [0, 0, 1], [0, 1, 1]])
Wv = np.array([[0.0, 2, 0], [0, 3, 0], [1, 0, 3], [1, 1, 0]])
K, Qm, V = X @ Wk, X @ Wq, X @ Wv
s1 = Qm[0] @ K.T
w1 = np.exp(s1) / np.exp(s1).sum()
w1_printed = np.array([0.0, 0.5, 0.5])
print(s, a, s1, w1, w1 @ V, w1_printed @ V)

T = Truth("fieldF-08-sceliay-zh-md-luong-illustrated")
T.row(d, "decoder hidden state", T.find("decoder_hidden = [10, 5, 10]"), role="input")
for r in range(4):
    h = "[" + ", ".join(str(int(x)) for x in H[r]) + "]"
    at = T.find(f"     {h}     {int(s[r])}", nth=0)
    T.row(H[r], f"encoder h_{r + 1}", at, last=False, role="input")
    T.num(str(int(s[r])), s[r], f"score_{r + 1}", at)
at = T.find("(= 10×0 + 5×1 + 10×1")
T.nums(["10", "0", "5", "1", "10", "1"], [10, 0, 5, 1, 10, 1], "d and h_1 terms", at, role="input")
for r in range(4):
    h = "[" + ", ".join(str(int(x)) for x in H[r]) + "]"
    at = T.find(f"     {h}     {int(s[r])}       ")
    T.row(H[r], f"encoder h_{r + 1} (repeated)", at, last=False, role="input")
    vals = T.lines[(None, at[1])].split()[-2:]
    T.nums(vals, [s[r], a[r]], f"score_{r + 1}, softmax_{r + 1}", at)
for r in range(4):
    h = "[" + ", ".join(str(int(x)) for x in H[r]) + "]"
    at = T.find(f"{h}   {int(s[r])}  ")
    T.row(H[r], f"encoder h_{r + 1} (repeated)", at, last=False, role="input")
    T.nums([str(int(s[r])), str(int(round(a[r])))], [s[r], a[r]], f"score_{r + 1}, softmax_{r + 1} (repeated)", at)
    T.row(al[r], f"alignment a_{r + 1} h_{r + 1}", at)
T.row(H[1], "h_2 (prose)", T.find("嵌入`[5,0,1]`"), role="input")
# self-attention
for r, lab in enumerate(("Input 1: [1, 0, 1, 0]", "Input 2: [0, 2, 0, 2]", "Input 3: [1, 1, 1, 1]")):
    T.row(X[r], f"x_{r + 1}", T.find(lab), last=True, role="input")
for name, W, lead in (("W_K", Wk, "key 的权值"), ("W_Q", Wq, "query 的权值"), ("W_V", Wv, "value 的权值")):
    start = T.find(lead)[1]
    for r in range(4):
        T.row(W[r], f"{name} row {r + 1}", (None, start + 2 + r, False), role="input")
for name, W, M, lead in (("K", Wk, K, "- key:"), ("Q", Wq, Qm, "- query:"), ("V", Wv, V, "- value:")):
    start = T.find(lead)[1] + 2            # the line after ``` holds W's first row alone
    T.row(W[0], f"{name}: W row 1 (repeated)", (None, start, False), role="input")
    for r in range(3):
        at = (None, start + 1 + r, False)
        nums = [x for x in T.lines[(None, at[1])].replace("[", " ").replace("]", " ").replace(",", " ").replace("x", " ")
                .replace("=", " ").split()]
        T.nums(nums[:4], X[r], f"{name}: x_{r + 1} (repeated)", at, role="input")
        T.nums(nums[4:7], W[r + 1], f"{name}: W row {r + 2} (repeated)", at, role="input")
        T.nums(nums[7:10], M[r], f"{name}[{r + 1},:]", at)
start = T.find("计算公式为：` Input 1's query x keys^T`")[1] + 2
T.row(K[:, 0], "K^T row 1", (None, start, False))
at = (None, start + 1, False)
T.nums(["1", "0", "2", "1", "4", "3", "2", "4", "4"], list(Qm[0]) + list(K[:, 1]) + list(s1), "q_1 | K^T row 2 | s_1", at)
T.row(K[:, 2], "K^T row 3", (None, start + 2, False))
at = T.find("softmax([2, 4, 4]) = [0.0, 0.5, 0.5]")
T.nums(["2", "4", "4"], s1, "s_1 (repeated)", at)
T.nums(["0.0", "0.5", "0.5"], w1, "softmax(s_1)", at)
for r in range(3):
    lead = f"{r + 1}: {w1_printed[r]:.1f} * ["
    at = T.find(lead)
    nums = T.lines[(None, at[1])].replace("[", " ").replace("]", " ").replace(",", " ").replace("*", " ") \
        .replace("=", " ").split()[1:]
    T.num(nums[0], w1[r], f"a_1{r + 1} (repeated)", at, carried=w1_printed[r])
    T.nums(nums[1:4], V[r], f"v_{r + 1} (repeated)", at)
    T.nums(nums[4:7], w1[r] * V[r], f"a_1{r + 1} v_{r + 1}", at, carried=w1_printed[r] * V[r])
for k, lead in enumerate(("  [0.0, 0.0, 0.0]", "+ [1.0, 4.0, 0.0]", "+ [1.0, 3.0, 1.5]")):
    T.row(w1[k] * V[k], f"a_1{k + 1} v_{k + 1} (sum)", T.find(lead, nth=0) if k else (None, T.find("  [0.0, 0.0, 0.0]")[1], False),
          carried=w1_printed[k] * V[k])
T.row(w1 @ V, "o_1", T.find("= [2.0, 7.0, 1.5]"), carried=w1_printed @ V)
T.mark_own_errors({T.find("softmax([2, 4, 4]) = [0.0, 0.5, 0.5]")[1]:
                   "softmax([2, 4, 4]) is [0.063, 0.468, 0.468]: 0.0 is not 0.063 at one decimal (no rounding is declared)"})
T.slip("     [5, 0, 1]     60\n", "     [5, 0, 1]     50\n", "one digit off in a score")
T.slip("[0, 2, 0, 2] x [0, 0, 1] = [2, 2, 2]", "[0, 2, 0, 2] x [0, 0, 1] = [2, 2, 4]", "one entry off in Q")
T.slip("[1, 0, 2] x [1, 4, 3] = [2, 4, 4]", "[1, 0, 2] x [1, 4, 3] = [2, 4, 6]", "a wrong score")
T.slip("= [2.0, 7.0, 1.5]", "= [2.0, 7.5, 1.5]", "a wrong output entry")
T.write()
