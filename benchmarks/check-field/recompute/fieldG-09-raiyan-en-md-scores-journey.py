"""fieldG-09: raiyanyahya/how-to-train-your-gpt, "explanations and examples WIP/a_tokens_journey.md" (English prose
walk of one token through GPT-2).  Starts from raw scores: "sat" against seven tokens (0.42 ... 0.05), said to be
divided by sqrt(64) = 8 and then softmaxed; the printed weights (0.18, 0.35, 0.10, 0.13, 0.11, 0.12, 0.01, with
percentages) are not that softmax, which is nearly uniform (0.1415 ... 0.1467); nor are they a softmax of the
unscaled scores (0.155, 0.221, ...).  Every weight line and the weighted-sum lines that repeat them are the author's
own errors; "Total: 1.00" and sqrt(64) = 8 are right.  The embeddings, Q, K, V shown with "..." are inputs (768 and
64 numbers, most not printed) and the FFN numbers after the attention section are not attention arithmetic."""
import numpy as np
from _truth import Truth

s = np.array([0.42, 0.78, 0.15, 0.31, 0.22, 0.28, 0.05])
w = np.exp(s / 8) / np.exp(s / 8).sum()
print(w, np.exp(s) / np.exp(s).sum())

T = Truth("fieldG-09-raiyan-en-md-scores-journey")
L = lambda n: (None, n, False)
for j, ln in enumerate(range(104, 111)):
    T.num(f"{s[j]:.2f}", s[j], f"raw score sat->token {j}", L(ln), role="input")
T.num("64", 64, "d_k", L(118), role="input")
T.num("8", 8.0, "sqrt(64)", L(118))
P = ["0.18", "0.35", "0.10", "0.13", "0.11", "0.12", "0.01"]
pct = ["18", "35", "10", "13", "11", "12", "1"]
for j, ln in enumerate(range(124, 131)):
    T.num(P[j], w[j], f"softmax(scores / 8)[{j}]", L(ln))
    T.num(pct[j], 100 * w[j], f"percent [{j}]", L(ln))
T.num("1.00", w.sum(), "total of the weights", L(131))
T.num("100", 100 * w.sum(), "total percent", L(131))
for ln, js in ((138, (0, 1, 2)), (139, (3, 4, 5)), (140, (6,))):
    for j in js:
        T.num(P[j], w[j], f"weight of V[{j}] in the sum", L(ln))
T.mark_own_errors({ln: "printed weight is not softmax(scores / 8) (nearly uniform, 0.1415 to 0.1467), nor a "
                       "softmax of the unscaled scores" for ln in list(range(124, 131)) + [138, 139, 140]})
T.slip("square root of 64 which is 8.", "square root of 64 which is 6.", "a wrong square root")
T.slip("Total: 1.00 (100 percent)", "Total: 1.10 (100 percent)", "one digit off in the total")
T.write()
