"""fieldC-04: the solution of a course exercise (csc477/website_fall24, ex/w09/questions/attn-dot_product_attention-
sol.md; CSC413 week 9, a Quarto include): one "alignment source" s = (1, 2, 1) scored by dot product (no scale)
against three vectors h_1, h_2, h_3 that serve as keys and values; softmax weights and the context vector in LaTeX
with the course's own macros (\\bpmat ... \\epmat, \\li( \\ri), \\fh, \\fs), then the same in torch code.  The
question itself (the givens in prose) is another file; here the givens are the transposed matrix [h_1 h_2 h_3]^T
in the softmax argument and the code's tensors.  All numbers hold."""
import numpy as np
from _fieldc import Truth, softmax, source

ID = "fieldC-04-csc413-hw-dot-attention-sol"
h = np.array([[1, 2, 3], [1, 2, 1], [0, 1, -1]], float)
s = np.array([1, 2, 1], float)
a = softmax(h @ s)
c = a @ h
print("scores", h @ s, "a", a, "c", c)

T = Truth(ID)
for i, ln in enumerate((5, 6, 7)):      # the matrix printed is [h_1 h_2 h_3] with h_i as columns (then ^T)
    T.row(h[:, i], f"[h_1 h_2 h_3] row {i + 1}", (None, ln, False), role="input")
T.row(s, "s", T.find("\\bpmat 1\\\\ 2\\\\ 1\\epmat"), role="input")
T.row(a, "a = softmax(h s)", T.find("\\bpmat 0.88"))
T.row(c, "c = sum a_i h_i", T.find("\\approx \\bpmat 1.00"))
T.row(h.ravel(), "h (code)", T.find("h = torch.tensor("), role="input")
T.row(s, "s (code)", T.find("s = torch.tensor("), role="input")
T.mark_own_errors()
T.slip("\\bpmat 0.88", "\\bpmat 0.86", "one digit off in a_1")
T.slip("2.00\\\\ 2.76", "2.00\\\\ 2.67", "swapped digits in c_3")
T.slip("1.00\\\\ 2.00", "1.00\\\\ 2.10", "one digit off in c_2")
T.write()

source(ID, source={"repo": "csc477/website_fall24", "path": "ex/w09/questions/attn-dot_product_attention-sol.md",
                   "commit": "9f7c9539871ef4f38b71469207eab13dc5967277"},
       format="md", lang="en", starts_from="one-query",
       what="homework solution (Q&A style, Quarto include): one source vector against three vectors used as keys "
            "and values, unscaled softmax and context vector in LaTeX with course macros (\\bpmat, \\li, \\ri), "
            "then torch code",
       config={"T": 1, "S": 3, "H": 1, "d_k": 3, "scale": "none", "mask": None, "W_O": None,
               "givens": "s and h_i (as the transposed matrix in the softmax argument, and in code)"})
