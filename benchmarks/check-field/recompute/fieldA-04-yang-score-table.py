"""fieldA-04 (held out): one query ("sat") with three raw scores given in a Markdown table (2, 4, 6), scaled by
sqrt(d_k) = 2 (the table halves them; d_k = 4 is implied), softmax.  The table's weights 0.10, 0.30, 0.60 are
not softmax([1, 2, 3]) = 0.09, 0.24, 0.67: each table row holds an own error, so no slip can be planted."""
import numpy as np
from _truth import Truth

s = np.array([2.0, 4.0, 6.0])
z = s / 2.0
a = np.exp(z) / np.exp(z).sum()
print("scaled", z, "weights", a)

T = Truth("fieldA-04-yang-score-table")
for j, w in enumerate(['"the"', '"cat"', '"sat"']):
    at = T.find(f"| {w} |")
    T.row([z[j], a[j]], f"({w}: scaled score, weight)", at)
T.mark_own_errors({89: "softmax([1, 2, 3]) gives 0.09 for the, printed 0.10", 90: "0.24 for cat, printed 0.30",
                   91: "0.67 for sat, printed 0.60"})
T.write()
