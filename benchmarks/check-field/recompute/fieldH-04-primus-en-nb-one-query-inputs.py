"""fieldH-04: 11PRIMUS/attention-mechanism, simple_attention.ipynb (English notebook, executed).  Six 3-wide input
vectors (its own values, not the book's), the second one as the query: dot-product scores, softmax weights and their
sum, then the "context vector z^2".  The scores and weights agree with a float64 recomputation at 4 decimals.  The
context-vector loop reuses a stale index (`attn_weights2[i]` inside `for x, x_i in ...`, with i = 5 left over from the
score loop), so the printed [0.4089, 0.5580, 0.4955] is 0.1603 times the sum of the inputs, not the context vector
sum_j alpha_j x_j = [0.4332, 0.6532, 0.5543] that the cell's heading names: an own error of the author's (the printout
is faithful to the code, the number is wrong for what it is said to be)."""
import numpy as np
from _truth import Truth

X = np.array([[0.42, 0.13, 0.81], [0.55, 0.87, 0.66], [0.22, 0.58, 0.33],
              [0.54, 0.85, 0.64], [0.77, 0.25, 0.10], [0.05, 0.80, 0.55]])
q = X[1]
s = X @ q
a = np.exp(s) / np.exp(s).sum()
z = a @ X
stale = a[5] * X.sum(0)
print(s, a, a.sum(), z, stale, sep="\n")

T = Truth("fieldH-04-primus-en-nb-one-query-inputs")
for r in range(6):
    T.row(X[r], f"inputs x{r + 1}", (4, 5 + r, False), role="input")
T.row(s, "attn_score2 = x_i . x2", (5, 1, True))
T.row(a, "attn_weights2 = softmax(scores)", (6, 1, True))
T.num("1.", a.sum(), "sum of the weights", (6, 2, True))
T.row(z, "context vector z^2 = sum_j alpha_j x_j", (7, 1, True), carried=stale, correct=False)
T.own_error((7, 1, True), "the loop multiplies every input by attn_weights2[i] with a stale i = 5, so the printed "
            "[0.4089, 0.5580, 0.4955] is 0.1603 * sum(inputs), not the context vector sum_j alpha_j x_j = "
            "[0.4332, 0.6532, 0.5543]")
T.own_errors[-1]["output"] = True
T.slip("tensor([0.8787, 1.4950, 0.8434", "tensor([0.8787, 1.4590, 0.8434", "swapped digits in a score")
T.slip("0.2412, 0.1257, 0.2327", "0.2412, 0.1257, 0.2372", "swapped digits in a weight")
T.write()
