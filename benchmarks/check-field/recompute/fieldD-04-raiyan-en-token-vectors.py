"""fieldD-04: raiyanyahya/how-to-train-your-gpt, chapters/05_attention.md (English Markdown).  Starts from per-token
vectors: a table of Q, K, V rows (head_dim 2) for "I love dogs", then the query of "dogs" against the three keys.

The dot products and the scaling are right; the softmax of [0.297, -0.106, -0.368] is [0.46, 0.31, 0.24], printed
[0.53, 0.35, 0.12], and everything after carries those weights (the weighted values and their sum are right for the
printed weights, wrong for the true ones: they are own-error lines that carry, as in fieldA-01).  The full causal
matrix's row "love" ([0.45, 0.55] for 0.39 / 0.61) is wrong as well.  Later: a softmax pair showing why scaling
matters (right; the 8-decimal line is a float32 printout) and a masked-softmax block whose third row is off
(softmax([0.5, -0.2, 0.3]) = [0.43, 0.21, 0.35], printed 0.42 / 0.21 / 0.37)."""
import numpy as np
from _truth import Truth


def softmax(z):
    e = np.exp(np.asarray(z, float) - np.max(z))
    return e / e.sum()


Q = np.array([[0.8, 0.1], [-0.2, 0.7], [0.5, -0.4]])
K = np.array([[0.6, -0.3], [0.1, 0.5], [-0.4, 0.8]])
V = np.array([[0.4, 0.9], [-0.3, 0.2], [0.7, -0.1]])
s = K @ Q[2]                       # "dogs" against I, love, dogs
z = s / np.sqrt(2)
a = softmax(z)
out = a @ V
A = np.zeros((3, 3))
for i in range(3):
    A[i, :i + 1] = softmax(Q[i] @ K[:i + 1].T / np.sqrt(2))
w_print = np.array([0.53, 0.35, 0.12])     # the document's weights, for what it carries
print("scores", s, "scaled", z.round(4), "weights", a.round(4), "out", out.round(4), "A", A.round(4), sep="\n")

T = Truth("fieldD-04-raiyan-en-token-vectors")
for j, (name, printed) in enumerate((("I", ["0.30", "0.12", "0.42"]), ("love", ["0.05", "0.20", "-0.15"]),
                                     ("dogs", ["0.20", "0.32", "-0.52"]))):
    at = T.find(f'score("dogs"→"{name}")')
    terms = Q[2] * K[j]
    T.nums(printed, [abs(terms[0]), abs(terms[1]), s[j]], f"q_dogs.k_{name}: |terms|, sum", at)
at = T.find("Divide by `sqrt(head_dim)` = `sqrt(2)` ≈ 1.414")
T.num("2", 2, "head_dim", at)
T.num("1.414", np.sqrt(2), "sqrt(2)", at)
at = T.find("Scaled scores: [0.42/1.414")
T.row([s[0], np.sqrt(2), s[1], np.sqrt(2), s[2], np.sqrt(2), *z], "scores/sqrt(2)", at)
at = T.find("softmax([0.297, -0.106, -0.368])")
T.row([*z, *a], "softmax of the scaled scores", at)
for k, (pct, who) in enumerate((("53", '"I"'), ("35", '"love"'), ("12", '"dogs"'))):
    T.num(pct, 100 * a[k], f"weight on {who} in percent", T.find(f"- {pct}% attention to {who}"))
at = T.find('New("dogs") = 0.53 × V("I")')
T.nums(["0.53", "0.35", "0.12"], a, "weights (repeated)", at)
at = T.find("= 0.53 × [ 0.4,  0.9]")
T.nums(["0.53", "0.35", "0.12"], a, "weights (repeated)", at)
at = T.find("= [0.212, 0.477]")
terms = a[:, None] * V
# right for the printed weights (w_print), wrong for the true ones: own-error lines that carry line 141
T.nums(["0.212", "0.477", "-0.105", "0.070", "0.084", "-0.012"], terms.ravel(), "a_j v_j", at)
assert np.allclose((w_print[:, None] * V).ravel(), [0.212, 0.477, -0.105, 0.070, 0.084, -0.012])
for needle in ("            = [0.191, 0.535]", "This new vector [0.191, 0.535]"):
    T.nums(["0.191", "0.535"], out, 'New("dogs")', T.find(needle))
assert np.allclose(w_print @ V, [0.191, 0.535])
for i, lab in enumerate(('"I"      │ 1.00', '"love"   │ 0.45', '"dogs"   │ 0.53')):
    T.row(A[i], f"causal A[{i + 1},:]", T.find(lab))
T.num("1.0", 1.0, "row sum", T.find("each row sums to 1.0"))
at = T.find("So with `d_k = 64`, the dot products have variance 64")
T.num("64", 64, "variance of a 64-term dot product", at, role="derived")
T.num("8", 8, "its standard deviation", at)
T.num("24", 24, "3 standard deviations", at)
at = T.find("After dividing by `√64 = 8`")
T.num("8", 8, "sqrt(64)", at)
T.num("3", 3, "24 / 8", at)
at = T.find("Without scaling:  softmax([24, 8, -16])")
p = softmax([24, 8, -16])
f32 = softmax(np.array([24, 8, -16], np.float32).astype(np.float32)).astype(np.float32)
T.nums(["0.99999988", "0.00000011", "0.00000000"], p, "softmax([24, 8, -16])", at, carried=f32)
at = T.find("With scaling:     softmax([3, 1, -2])")
T.nums(["0.88", "0.12", "0.01"], softmax([3, 1, -2]), "softmax([3, 1, -2])", at)
rows = [[0.3], [0.1, 0.4], [0.5, -0.2, 0.3]]
at = T.find("attn_scores = [[0.3, -inf")
T.row([0.3], "masked scores row 0", at, last=False)
T.row([0.1, 0.4], "masked scores row 1", (None, at[1] + 1, False), last=False)
for i, needle in enumerate(("attn_weights = [[1.0,  0.0", "                [0.43, 0.57", "                [0.42, 0.21, 0.37")):
    full = np.zeros(5)
    full[:i + 1] = softmax(rows[i])
    T.row(full, f"masked softmax row {i}", T.find(needle), last=False)
T.slip("= 0.05 - 0.20 = -0.15", "= 0.05 - 0.20 = -0.51", "swapped digits in a score")
T.slip("= -0.20 - 0.32 = -0.52", "= -0.20 - 0.32 = 0.52", "dropped sign in a score")
T.slip("[0.43, 0.57, 0.0,  0.0,  0.0]", "[0.43, 0.75, 0.0,  0.0,  0.0]", "swapped digits in a masked weight")
T.slip("softmax([3, 1, -2])   = [0.88, 0.12, 0.01]", "softmax([3, 1, -2])   = [0.88, 0.21, 0.01]", "swapped digits in a softmax")
T.mark_own_errors({
    141: "softmax([0.297, -0.106, -0.368]) is [0.46, 0.31, 0.24], printed [0.53, 0.35, 0.12]",
    171: "row 'love': softmax([-0.33, 0.33]/1.414) is [0.39, 0.61], printed [0.45, 0.55]",
    157: "the weighted values are right for the printed weights 0.53 / 0.35 / 0.12, which are wrong (line 141)",
    158: "sum of the weighted values that carry the wrong weights: [0.191, 0.535] for [0.256, 0.450]",
    161: "repeats the wrong output [0.191, 0.535]",
    319: "softmax([0.5, -0.2, 0.3]) is [0.43, 0.21, 0.35], printed [0.42, 0.21, 0.37]",
})
T.write()
