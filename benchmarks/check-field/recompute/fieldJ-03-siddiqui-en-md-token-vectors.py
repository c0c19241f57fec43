"""fieldJ-03: siddiquiduet/transformer, self_attention.md (English notes in Markdown).
Word vectors in two dimensions (Apple = (2, 2), phones = (2, 2), love = (-4, 3), juice = (4, 0)), their dot products
with Apple written term by term, and the softmax of the similarities [-2, 8, 8] (love, Apple, phones), with the
weights quoted again in the weighted sum.  Not in the truth: the illustrative mixing weights of the opening sections
(0.1 x love + 0.5 x Apple + 0.4 x phones and the percentages), which are stated, not computed.
No own errors (softmax([-2, 8, 8]) is [0.0000227, 0.49999, 0.49999], [0.0, 0.5, 0.5] to one decimal)."""
import numpy as np
from _truth import Truth

E = {"Apple": np.array([2., 2.]), "phones": np.array([2., 2.]), "love": np.array([-4., 3.]), "juice": np.array([4., 0.])}
s = np.array([E["Apple"] @ E["love"], E["Apple"] @ E["Apple"], E["Apple"] @ E["phones"]])
w = np.exp(s) / np.exp(s).sum()
print(s, w)

T = Truth("fieldJ-03-siddiqui-en-md-token-vectors")
at = T.find
for nm, needle in (("phones", "phones = (2, 2)"), ("love", "love = (-4, 3)"), ("juice", "juice = (4, 0)")):
    T.row(E[nm], f"E({nm})", at(needle), role="input")
for nm, needle, terms, parts in (("phones", "Similarity = (2 × 2) + (2 × 2) = 4 + 4 = 8", [2, 2, 2, 2], ["4", "4"]),
                                 ("love", "Similarity = (2 × -4) + (2 × 3)", [2, -4, 2, 3], ["-8", "6"]),
                                 ("juice", "Similarity = (2 × 4) + (2 × 0)", [2, 4, 2, 0], ["8", "0"])):
    a, b = E["Apple"], E[nm]
    T.nums([str(t) for t in terms], terms, f"terms of Apple . {nm}", at(needle), role="input")
    T.nums(parts, a * b, f"products of Apple . {nm}", at(needle))
    T.num(str(int(a @ b)), a @ b, f"Apple . {nm}", at(needle))
T.nums(["-2", "8", "8"], s, "similarity scores", at("similarity scores are: -2, 8, 8"))
T.nums(["-2", "8", "8"], s, "softmax input", at("Input:  [-2, 8, 8]"), role="input")
T.nums(["0.0", "0.5", "0.5"], w, "softmax output", at("Output: [0.0, 0.5, 0.5]"))
T.num("1.0", w.sum(), "sum of the weights", at("Sum = 1.0"))
T.num("-2", s[0], "sim(Apple, love)", at("sim(Apple, love)   = E(Apple) · E(love)   = -2"))
T.num("8", s[1], "sim(Apple, Apple)", at("sim(Apple, Apple)  = E(Apple) · E(Apple)  = 8"))
T.num("8", s[2], "sim(Apple, phones)", at("sim(Apple, phones) = E(Apple) · E(phones) = 8"))
T.nums(["-2", "8", "8", "0.0", "0.5", "0.5"], [*s, *w], "softmax of the similarities", at("[-2, 8, 8] → Softmax → ["))
T.nums(["0.0", "0.5", "0.5"], w, "weights in the weighted sum", at("= 0.0 × E(love) + 0.5 × E(Apple)"))
T.mark_own_errors()
T.slip("= (2 × 4) + (2 × 0) = 8 + 0 = 8", "= (2 × 4) + (2 × 0) = 8 + 0 = 6", "a wrong sum in a dot product")
T.slip("Output: [0.0, 0.5, 0.5]", "Output: [0.0, 0.3, 0.5]", "a wrong softmax weight")
T.slip("= (2 × -4) + (2 × 3) = -8 + 6 = -2", "= (2 × -4) + (2 × 3) = -8 + 6 = -3", "a wrong sum in a dot product")
T.write()
