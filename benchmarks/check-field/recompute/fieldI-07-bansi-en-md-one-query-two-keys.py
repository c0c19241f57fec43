"""fieldI-07: bansi-007/research-reading, 01_attention_is_all_you_need/paper_notes.md (English notes in Markdown).
One query ("it") against two keys ("cat", "mat") with their values, d = 4: the two dot products written out term by
term, the scale sqrt(4) = 2, the scaled scores, the softmax, the weighted sum of the values, and the percentages;
later, three input embeddings plus positional encodings summed element by element (the inputs of the step-by-step
example).  Not in the truth: the illustrative weight rows, the head mixture, the positional-encoding values and the
layer-norm example, which are no attention arithmetic on printed givens (or not attention at all).
Own errors: Query . Key_cat is 0.06 + 0.56 + 0.02 + 0.20 = 0.84, printed 0.86; Query . Key_mat is 0.02 + 0.16 + 0.09
+ 0.15 = 0.42, printed 0.41; the scaled scores (0.42, 0.21), the weights (0.5523, 0.4477: 0.55 and 0.45, printed
0.56 and 0.44) and the third output component (0.4686, printed 0.46) follow the wrong scores."""
import numpy as np
from _truth import Truth

q = np.array([0.2, 0.8, 0.1, 0.5])
k_cat, k_mat = np.array([0.3, 0.7, 0.2, 0.4]), np.array([0.1, 0.2, 0.9, 0.3])
v_cat, v_mat = np.array([1.0, 0.5, 0.2, 0.8]), np.array([0.3, 0.1, 0.8, 0.4])
s = np.array([q @ k_cat, q @ k_mat])
ss = s / 2
w = np.exp(ss) / np.exp(ss).sum()
out = w[0] * v_cat + w[1] * v_mat
print(s, ss, w, out)

T = Truth("fieldI-07-bansi-en-md-one-query-two-keys")
L = lambda n: (None, n, False)  # noqa: E731
for ln, v, nm in ((47, q, "Query (it)"), (48, k_cat, "Key (cat)"), (49, k_mat, "Key (mat)"), (50, v_cat, "Value (cat)"),
                  (51, v_mat, "Value (mat)")):
    T.row(v, nm, L(ln), role="input")
for ln, kv, j, nm in ((56, k_cat, 0, "cat"), (57, k_mat, 1, "mat")):
    terms = [x for pair in zip(q, kv) for x in pair]
    T.nums([f"{x:.1f}" for x in terms], terms, f"terms of Query . Key_{nm}", L(ln), role="input")
    T.row([s[j]], f"Query . Key_{nm}", L(ln))
T.nums(["4", "2"], [4, 2], "d, sqrt(d)", L(62))
for ln, j, nm in ((63, 0, "cat"), (64, 1, "mat")):
    T.row([s[j], 2, ss[j]], f"similarity to {nm}, sqrt(d), scaled similarity", L(ln))
T.nums(["0.43", "0.43", "0.205", "0.56"], [ss[0], ss[0], ss[1], w[0]], "scaled scores in the softmax, weight of cat",
       L(69))
T.nums(["0.205", "0.43", "0.205", "0.44"], [ss[1], ss[0], ss[1], w[1]], "scaled scores in the softmax, weight of mat",
       L(70))
T.nums(["0.56", "0.44"], w, "weights in the weighted sum", L(75))
T.nums(["0.56", "0.44"], w, "weights with the values", L(76))
T.nums(["1.0", "0.5", "0.2", "0.8", "0.3", "0.1", "0.8", "0.4"], [*v_cat, *v_mat], "Value_cat, Value_mat in the weighted sum",
       L(76), role="input")
T.row(out, "final representation", L(77))
T.nums(["56", "44"], 100 * w, "weights in percent", L(80))
emb = [([0.1, 0.3, 0.2], [0.0, 1.0, 0.0]), ([0.5, 0.1, 0.8], [0.84, 0.54, 0.1]), ([0.2, 0.9, 0.1], [0.91, -0.42, 0.2])]
for r, (e, p) in enumerate(emb):
    T.row(np.add(e, p), f"embedding + positional encoding, token {r + 1}", L(196 + r))
T.mark_own_errors({(None, 56): "Query . Key_cat is 0.84 (0.06 + 0.56 + 0.02 + 0.20), printed 0.86",
                   (None, 57): "Query . Key_mat is 0.42 (0.02 + 0.16 + 0.09 + 0.15), printed 0.41"})
T.slip("d = 4 (vector length), so √d = 2", "d = 4 (vector length), so √d = 4", "a neighbour's value for sqrt(d)")
T.slip("[0.5, 0.1, 0.8] + [0.84, 0.54, 0.1] = [1.34, 0.64, 0.9]", "[0.5, 0.1, 0.8] + [0.84, 0.54, 0.1] = [1.43, 0.64, 0.9]",
       "swapped digits in an embedding sum")
T.slip("[0.2, 0.9, 0.1] + [0.91, -0.42, 0.2] = [1.11, 0.48, 0.3]", "[0.2, 0.9, 0.1] + [0.91, -0.42, 0.2] = [1.11, 0.84, 0.3]",
       "swapped digits in an embedding sum")
T.write()
