"""fieldF-04: sajagmathur/Generative-AI---Attentions-and-Transformers, "Day2 Exercise.ipynb" (English notebook).
Starts from Q/K/V: three 4-wide token vectors are given and used as queries, keys and values; the notebook prints
QK^T, the scores over sqrt(4), the row softmax (and each row's sum), the weights again, and the weighted values.
All printed numbers agree with a float64 recomputation (printed at torch's 4 decimals).  Cells 6, 10 and 11 also
show numbers inside rendered Markdown outputs (text/markdown: the scaling factor 2.0000, the third row of weights, the
third context row computed by hand and by torch); the line model of score.py and the checker reads text/plain only,
where these outputs are "<IPython.core.display.Markdown object>", so they have no line and are not recorded."""
import numpy as np
from _truth import Truth

X = np.array([[0.1, 0.2, 0.3, 0.4], [0.5, 0.6, 0.7, 0.8], [0.9, 0.0, 0.1, 0.2]])
S = X @ X.T
Ssc = S / np.sqrt(4)
E = np.exp(Ssc)
A = E / E.sum(1, keepdims=True)
O = A @ X
print(S, Ssc, A, O, sep="\n")

T = Truth("fieldF-04-sajag-en-nb-given-qkv")


def tensor_rows(cell: int) -> list:
    """The output lines of a cell that hold a printed tensor row, in order."""
    keys = [k for k in T.lines if len(k) == 3 and k[0] == cell and k[2]
            and ("tensor([[" in T.lines[k] or T.lines[k].lstrip().startswith("[")) and "]" in T.lines[k]]
    return sorted(keys, key=lambda k: k[1])


for r, tok in enumerate(('"He"', '"is"', '"awesome"')):
    T.row(X[r], f"x_{tok}", T.find(f"# Token {r}: {tok}", cell=2), last=False, role="input")
for cell, n in ((2, 1), (3, 3), (10, 1)):
    rows = tensor_rows(cell)
    assert len(rows) == 3 * n, (cell, rows)
    for k, at in enumerate(rows):
        T.row(X[k % 3], f"Q|K|V printed, row {k % 3 + 1}", at, role="input")
for cell, M, what in ((4, S, "S = QK^T"), (5, S, "S = QK^T (shown again)"), (6, Ssc, "S / sqrt(4)"),
                      (7, A, "A = softmax"), (8, A, "A (shown again)"), (9, O, "O = A V")):
    rows = tensor_rows(cell)
    assert len(rows) == 3, (cell, rows)
    for r, at in enumerate(rows):
        T.row(M[r], f"{what}[{r + 1},:]", at)
for r, word in enumerate(("first", "second", "third")):
    T.num("1.0000", A[r].sum(), f"sum of A[{r + 1},:]", T.find(f"Sum of {word} row: 1.0000", cell=7, output=True))
T.mark_own_errors()
T.slip('1.7400, 0.6800],\\n",\n       "        [0.2000, 0.6800, 0.8600]])"\n      ]\n     },\n     "execution_count": 8',
       '1.4700, 0.6800],\\n",\n       "        [0.2000, 0.6800, 0.8600]])"\n      ]\n     },\n     "execution_count": 8',
       "swapped digits in a score")
T.slip('0.4581, 0.2696],\\n",\n       "        [0.2731, 0.3471, 0.3798]])"\n      ]\n     },\n     "metadata": {},\n     "output_type": "display_data"',
       '0.4518, 0.2696],\\n",\n       "        [0.2731, 0.3471, 0.3798]])"\n      ]\n     },\n     "metadata": {},\n     "output_type": "display_data"',
       "swapped digits in a weight")
T.slip("[0.5427, 0.2629, 0.3629, 0.4629]])", "[0.5427, 0.2629, 0.3269, 0.4629]])", "swapped digits in an output")
T.write()
