"""fieldJ-05: mytechnotalent/HackingGPT-4, README.md (English; a notebook rendered as Markdown, code and outputs).
Causal averaging as a matrix product: the table of tril rows divided by their counts, the tril row sums, the
row-normalised weight matrix (printed three times), the fractions 1/k and percentages, row sums, then wei @ x with x
(4 x 8 x 2, drawn by torch.randn and printed to 4 decimals): the averaged tensor (printed three times) and, for
batch 0, each product weight x value and each sum worked out.
The averages are judged against the printed x: a printed average counts as right when it lies within 1e-4 of the one
recomputed from the 4-decimal x (the notebook averaged the unrounded draws); likewise the worked products and sums.
Not in the truth: the float32 printouts with 16-17 significant digits (result:, verify:, row k: [0.333...] lines),
whose last digits depend on the unrounded draws or on float32 rounding; the tril matrices of ones and zeros (no
arithmetic); shapes and sizes.  No own errors."""
import re
import numpy as np
import _causal_average as ca
from _truth import Truth

T = Truth("fieldJ-05-hackinggpt-en-md-tril-average")
lines = T.text.split("\n")
L = lambda n: (None, n, False)  # noqa: E731
W = ca.W
ca.averages(T, lines, 149, 687, (609, 1224, 1284), (363, 479, 697))
for j in range(8):                                      # the table: normalised rows and their fraction
    n = T.find(f"| {j} | [")
    cells = T.lines[(None, n[1])].split("|")
    p = re.findall(r"\d+\.\d+|\b\d\b", cells[2])
    T.nums(p, W[j], f"table weights row {j}", n)
    q = re.findall(r"\d+\.\d+", cells[3])
    T.nums(q, [1 / (j + 1)], f"table 1/{j + 1}", n)
for j in range(8):
    T.num(f"{j + 1}.0", j + 1.0, f"tril row {j} sum", T.find(f"row {j} sum: {j + 1}.0 (has", nth=1))
    T.num("1.0000", 1.0, f"normalised row {j} sum", T.find(f"row {j} sum: 1.0000"))
    s = f"       1/{j + 1} " + ("≈" if j in (2, 5, 6) else "=")
    n = T.find(s, nth=1)
    T.num(T.lines[(None, n[1])].split()[-1], 1 / (j + 1), f"1/{j + 1}", n)
for j, pct in ((2, "33.3"), (5, "16.7"), (6, "14.3"), (7, "12.5")):
    T.num(pct, 100 / (j + 1), f"weight of position {j} in percent", T.find(f"       position {j} gives {pct}%", nth=1))
ca.worked_products(T, lines, 700)  # batch 0
T.mark_own_errors()
T.slip("| 5 | [0.167, 0.167, 0.167, 0.167, 0.167, 0.167, 0, 0] |", "| 5 | [0.167, 0.167, 0.167, 0.176, 0.167, 0.167, 0, 0] |",
       "swapped digits in a table weight")
T.slip("   0.5000 * 1.9269 = 0.9635", "   0.5000 * 1.9269 = 0.9365", "swapped digits in a product")
T.slip("0.143\n       position 6 gives 14.3%", "0.143\n       position 6 gives 13.4%", "a wrong percentage")
T.write()
