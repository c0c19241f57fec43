"""fieldB-21: English note "why scale matters" (yangshiteng/Data-Science-Learning-Path): raw scores [10, 20, 30],
their softmax, the scores divided by sqrt(d_k) = 4 and the softmax of those, in prose and in two tables.

Givens: the raw scores and d_k = 16.  Own errors: the softmax of [2.5, 5.0, 7.5] is [0.0062, 0.0754, 0.9184], not
[0.02, 0.12, 0.86] (lines 56 and 68).  "~0.0, ~0.0, ~1.0" is a declared approximation and holds."""
import sys
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent))
from _fb import Doc, write_source  # noqa: E402

ID = "fieldB-21-en-why-scale-matters"
D = Doc(ID)
s = np.array([10.0, 20.0, 30.0])
sm = lambda z: np.exp(z - z.max()) / np.exp(z - z.max()).sum()  # noqa: E731
raw, scaled = sm(s), s / 4
w = sm(scaled)
k = D.find("Softmax becomes")
for c, p in enumerate(("0.0", "0.0", "1.0")):
    D.add(k, c, p, raw[c], f"softmax([10,20,30])[{c + 1}] (approximate, '~')")
k = D.find("Scores become")
for c, p in enumerate(("2.5", "5.0", "7.5")):
    D.add(k, c, p, scaled[c], f"scores/sqrt(d_k)[{c + 1}]")
k = D.find("* Softmax = ")
for c, p in enumerate(("0.02", "0.12", "0.86")):
    D.add(k, c, p, w[c], f"softmax(scaled)[{c + 1}]")
k = D.find("| \\[10, 20, 30] |")
for c, p in enumerate(("0.000", "0.000", "1.000")):
    D.add(k, c, p, raw[c], f"softmax([10,20,30])[{c + 1}] (table)")
k = D.find("| \\[2.5, 5.0, 7.5] |")
for c, p in enumerate(("2.5", "5.0", "7.5")):
    D.add(k, 10 + c, p, scaled[c], f"scaled scores (table)[{c + 1}]", role="input")
for c, p in enumerate(("0.02", "0.12", "0.86")):
    D.add(k, c, p, w[c], f"softmax(scaled)[{c + 1}] (table)")
D.mark_own_errors()
for e in D.own_errors:
    e["why"] = "softmax([2.5, 5.0, 7.5]) is [0.0062, 0.0754, 0.9184]; printed [0.02, 0.12, 0.86]"
D.slip_at(D.find("Scores become"), "7.5]", "7.0]", "one digit off in a scaled score (30/4)")
D.slip_at(D.find("| \\[10, 20, 30] |"), "1.000", "0.100", "dropped digit in a softmax value")
D.write()
write_source(ID, "yangshiteng/Data-Science-Learning-Path", "deep_learning/transformer/why_scale_matters.md",
             "8657daf946f66e35daee966c1f12ad60d7fbf271", "md", "en", "scores", False,
             "English note: raw scores [10, 20, 30], softmax without and with the 1/sqrt(d_k) scale (d_k = 16), in prose and tables",
             {"T": 1, "S": 3, "d_k": 16, "scale": "1/sqrt(d_k) = 1/4", "mask": None, "W_O": None, "givens": "raw scores"},
             {"added_after_draw": True})
