"""fieldJ-04: mytechnotalent/HackingGPT-5, README.md (English; a notebook rendered as Markdown, code and outputs).
Zero scores under a causal mask: the table of masked rows and their softmax, softmax of equal values, the masked
softmax weight matrix (printed twice), e^0, e^1, e^-1, e^-10, e^-100, the row-by-row traces of the masked softmax,
row sums, then wei @ x with x (4 x 8 x 2, drawn by torch.randn and printed to 4 decimals): the averaged tensor
(printed four times) and, for batch 0, each product weight x value and each sum worked out.
The averages are judged against the printed x: a printed average counts as right when it lies within 1e-4 of the one
recomputed from the 4-decimal x (the notebook averaged the unrounded draws); likewise the worked products and sums.
Not in the truth: the float32 printouts with 16-17 significant digits (result:, verify:, actual: lines, wei[k] =
[0.333...]), whose last digits depend on the unrounded draws or on float32 rounding; the illustrative raw weights
[0.5, 0.8, ...] (no value is computed from them); shapes and sizes.  No own errors."""
import re
import numpy as np
import _causal_average as ca
from _truth import Truth

T = Truth("fieldJ-04-hackinggpt-en-md-masked-zeros")
lines = T.text.split("\n")
L = lambda n: (None, n, False)  # noqa: E731
W = ca.W
ca.averages(T, lines, 141, 794, (716, 1331, 1387, 1452), (457, 804))
for j in range(8):                                      # the table: masked rows and their softmax
    n = T.find(f"| row {j} | [0, 0, 0, 0, 0, 0, 0, 0] |")
    p = re.findall(r"\d+\.\d+|\b\d\b", T.lines[(None, n[1])].split("|")[4])
    T.nums(p, W[j], f"table softmax row {j}", n)
for ln_text, vals in (("   softmax([0, 0, 0]) = [0.333, 0.333, 0.333]", [1 / 3] * 3), ("   softmax([0, 0]) = [0.5, 0.5]", [0.5, 0.5]),
                      ("   softmax([0]) = [1.0]", [1.0])):
    n = T.find(ln_text, nth=1)                          # the output, not the print statement
    T.nums(re.findall(r"\d\.\d+", ln_text), vals, "softmax of equal values", n)
for txt, val in (("   e^(0) = 1.0000", 1.0), ("   e^(1) = 2.7183", np.e), ("   e^(-1) = 0.3679", np.exp(-1)),
                 ("   e^(-10) = 0.0000453999", np.exp(-10))):
    T.num(txt.split("= ")[1], val, txt.strip().split(" =")[0], T.find(txt))
T.num("0.00000000000000000000000000000000000000000003720076", np.exp(-100), "e^(-100)",
      T.find("   e^(-100) = 0.0000000000"))
for j in range(8):                                      # the traces: softmax = [...] = [weights], output lines only
    hits = [k for k, s in T.lines.items() if s.startswith("   softmax = [1/") and k[1] > 540 and
            s.count(",") >= 7 and f"1/{j + 1}" in s.split("]")[0]]
    for k in hits:
        s = T.lines[k]
        p = re.findall(r"(?<![/\d])\d+\.\d+|(?<=[\[ ])0(?=[,\]])", s.split("] ")[-1] if "≈" not in s else s.split("≈")[1])
        T.nums(p, W[j][:len(p)], f"traced softmax row {j}", (None, k[1], False))
for j in range(8):
    T.num("1.0000", W[j].sum(), f"row {j} sum", T.find(f"row {j} sum: 1.0000"))
ca.worked_products(T, lines, 840)  # batch 0
T.mark_own_errors()
T.slip("   e^(1) = 2.7183", "   e^(1) = 2.7138", "swapped digits in an exponential")
T.slip("| [0.167, 0.167, 0.167, 0.167, 0.167, 0.167, 0, 0] |", "| [0.167, 0.167, 0.167, 0.176, 0.167, 0.167, 0, 0] |",
       "swapped digits in a table weight")
T.slip("   0.5000 * 1.9269 = 0.9635", "   0.5000 * 1.9269 = 0.9365", "swapped digits in a product")
T.write()
