"""fieldE-01: raiyanyahya/how-to-train-your-gpt, "explanations and examples WIP/attention.md" (English Markdown).
Per-token Q/K/V (2 wide) for "I", "love", "dogs" are given in a table.  The query of "dogs" is scored against the
three keys by hand, scaled by 1/1.4 (sqrt(2) rounded, as the text says), softmaxed with two-decimal exponentials, and
the values mixed; a causal weights table follows.  The "love" row of that table (0.45 0.55) is the author's error:
its scores are -0.33 and 0.33, which give 0.385 / 0.615 under either scale.  The 4-wide word vectors are not used by
the worked numbers (the Q/K/V table is given directly); the closing code draws torch.randn weights and prints nothing."""
import numpy as np
from _truth import Truth

Q = np.array([[0.8, 0.1], [-0.2, 0.7], [0.5, -0.4]])
K = np.array([[0.6, -0.3], [0.1, 0.5], [-0.4, 0.8]])
V = np.array([[0.4, 0.9], [-0.3, 0.2], [0.7, -0.1]])
S = Q @ K.T
A = np.exp(S / np.sqrt(2)) * np.tril(np.ones((3, 3)))
A /= A.sum(1, keepdims=True)
q = Q[2]
prod = q[None, :] * K                      # the terms of each dot product
s = S[2]
sc = s / np.sqrt(2)
w = A[2]
# the page's carried values: scaled by 1.4, rounded to 2 places, e^x to 2 places, weights to 2 places
sc_c = np.round(s / 1.4, 2)
e_c = np.round(np.exp(sc_c), 2)
w_c = np.round(e_c / e_c.sum(), 2)
print("S", S, "\nA", A.round(4), "\nout", w @ V, "carried", w_c @ V)

T = Truth("fieldE-01-raiyan-en-qkv-table-one-query")
for name, r in (('"I"', 0), ('"love"', 1), ('"dogs"', 2)):
    at = T.find(f"{name:<8}| [")
    T.row(list(Q[r]) + list(K[r]) + list(V[r]), f"Q|K|V {name}", at, role="input")
for j, (a, b) in enumerate(((".30 + 0.12", "= 0.42"), ("0.05 + (-0.20)", "= -0.15"), ("-0.20 + (-0.32)", "= -0.52"))):
    at = T.find(a)
    T.nums([f"{prod[j, 0]:.2f}", f"{prod[j, 1]:.2f}"], prod[j], f"q_dogs*k_{j + 1} terms", at)
    T.num(b.split()[-1], s[j], f"S[3,{j + 1}]", T.find("               " + b if j == 0 else "                  " + b))
at = T.find("score is 0.42 which")
T.num("0.42", s[0], "S[3,1] (prose)", at)
T.num("-0.15", s[1], "S[3,2] (prose)", T.find("score is -0.15 which"))
T.num("-0.52", s[2], "S[3,3] (prose)", T.find("-0.52 which is quite negative"))
T.num("1.4", np.sqrt(2), "sqrt(d_k)", T.find("1.4. This scaling"))
at = T.find("Scaled scores: [0.42/1.4")
for k, p in enumerate(("0.42", "-0.15", "-0.52")):
    T.num(p, s[k], f"S[3,{k + 1}] (repeated)", at)
T.nums(["0.30", "-0.11", "-0.37"], sc, "S[3,:]/sqrt(2)", T.find("= [0.30, -0.11, -0.37]"), carried=s / 1.4)
T.nums(["0.30", "-0.11", "-0.37"], sc, "S[3,:]/sqrt(2) (repeated)", T.find("Scores: [0.30, -0.11, -0.37]"),
       carried=s / 1.4)
for k, (p, line) in enumerate((("1.35", "e^0.30 = 1.35"), ("0.90", "e^-0.11 = 0.90"), ("0.69", "e^-0.37 = 0.69"))):
    T.num(p, np.exp(sc[k]), f"exp(scaled[{k + 1}])", T.find(line), carried=e_c[k])
at = T.find("1.35 + 0.90 + 0.69 = 2.94")
T.nums(["1.35", "0.90", "0.69", "2.94"], list(np.exp(sc)) + [np.exp(sc).sum()], "exp terms and sum", at,
       carried=list(e_c) + [e_c.sum()])
for k, (num, line) in enumerate((("1.35", "1.35 / 2.94 = 0.46"), ("0.90", "0.90 / 2.94 = 0.31"),
                                 ("0.69", "0.69 / 2.94 = 0.23"))):
    at = T.find(line)
    T.nums([num, "2.94", line.split()[-1]], [np.exp(sc[k]), np.exp(sc).sum(), w[k]], f"A[3,{k + 1}] step", at,
           carried=[e_c[k], e_c.sum(), e_c[k] / e_c.sum()])
    T.num(line.split()[-1][2:], 100 * w[k], f"A[3,{k + 1}] in percent", at, carried=100 * e_c[k] / e_c.sum())
wr = e_c / e_c.sum()                       # the weights from the page's rounded exponentials
T.nums(["0.46", "0.31", "0.23"], w, "A[3,:]", T.find("Final attention weights for dogs: [0.46"), carried=wr)
at = T.find("model pays 46 percent")
T.num("46", 100 * w[0], "A[3,1] in percent (prose)", at, carried=100 * w_c[0])
at = T.find("to *I* 31 percent")
T.nums(["31", "23"], 100 * w[1:], "A[3,2:] in percent (prose)", at, carried=100 * wr[1:])
for k, line in enumerate(("= (0.46 × Value of I)", "+ (0.31 × Value of love)", "+ (0.23 × Value of dogs)")):
    T.num(line.split("(")[1].split()[0], w[k], f"A[3,{k + 1}] (mixing)", T.find(line), carried=wr[k])
at = T.find("= 0.46 × [0.4, 0.9] + 0.31")
T.nums(["0.46", "0.31", "0.23"], w, "A[3,:] (mixing line)", at, carried=wr)
terms = w_c[:, None] * V
at = T.find("= [0.184, 0.414] + [-0.093")
T.nums(["0.184", "0.414", "-0.093", "0.062", "0.161", "-0.023"], (w[:, None] * V).ravel(), "A[3,j] v_j", at,
       carried=terms.ravel())
T.nums(["0.252", "0.453"], w @ V, "O[3,:]", T.find("= [0.252, 0.453]"), carried=w_c @ V)
T.nums(["0.252", "0.453"], w @ V, "O[3,:] (prose)", T.find("The new vector for *dogs* is [0.252"), carried=w_c @ V)
for r, name in ((0, "I         1.00"), (1, "love      0.45"), (2, "dogs      0.46")):
    T.row(A[r], f"causal A[{r + 1},:]", T.find(name), carried=wr if r == 2 else None)
T.num("64", 768 / 12, "d_model / H", T.find("dimensions and 12 heads each head works with 64"))
T.mark_own_errors({243: "the love row of the causal weights: its scores are -0.33 and 0.33 (scaled -0.24, 0.24), "
                        "softmax 0.385 / 0.615, not 0.45 / 0.55"})
T.slip("= 0.42\n", "= 0.24\n", "swapped digits in a score")
T.slip("e^-0.37 = 0.69", "e^-0.37 = 0.96", "swapped digits in an exponential")
T.slip("= [0.252, 0.453]\n```", "= [0.252, 0.435]\n```", "swapped digits in the output")
T.slip("dogs      0.46    0.31    0.23", "dogs      0.46    0.13    0.23", "swapped digits in a table weight")
T.write()
