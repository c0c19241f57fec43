"""fieldI-02: AayushRaut/knowledge-base, 06-transformers/lessons/masked-and-cross-attention.md (English lesson in
Markdown with LaTeX).  A 4x4 score matrix S is given ("values illustrative"), the causal mask M is added (S + M keeps
the lower triangle of S), and the row-wise softmax is printed rounded to two decimals.  The scores go into the
softmax as they are (they are said to be scaled already), so the weights follow from the page.
Own error: the last row is printed 0.21, 0.08, 0.21, 0.50; softmax([1, 0, 1, 2]) is 0.1966, 0.0723, 0.1966, 0.5344
(0.20, 0.07, 0.20, 0.53).  The other rows are right (0.2447 prints as 0.24)."""
import numpy as np
from _truth import Truth

S = np.array([[2, 1, 3, 0], [1, 2, 1, 2], [0, 1, 2, 1], [1, 0, 1, 2]], float)
mask = np.triu(np.ones((4, 4), bool), 1)
Sm = np.where(mask, -np.inf, S)
A = np.exp(Sm - Sm.max(1, keepdims=True))
A /= A.sum(1, keepdims=True)
print(A)

T = Truth("fieldI-02-aayush-en-md-causal-scores")
L = lambda n: (None, n, False)  # noqa: E731
T.row(S.ravel(), "S (given scores)", L(62), role="input")
T.row(S[~mask], "S + M, the entries the mask keeps", L(64))
T.row(A.ravel(), "softmax(S + M), two decimals", L(70))
T.mark_own_errors({(None, 70): "row 4 printed 0.21, 0.08, 0.21, 0.50: softmax([1, 0, 1, 2]) is 0.1966, 0.0723, "
                               "0.1966, 0.5344 (0.20, 0.07, 0.20, 0.53); the row sums to 1.00 but is not the softmax"})
T.slip("S + M = \\begin{pmatrix} 2 & -\\infty", "S + M = \\begin{pmatrix} 3 & -\\infty",
       "a neighbour's value (S[1,3]) copied into the kept score")
T.slip("0 & 1 & 2 & -\\infty \\\\ 1 & 0 & 1 & 2", "0 & 1 & 2 & -\\infty \\\\ 1 & 0 & 1 & -2",
       "a dropped-in sign on a kept score")
T.write()
