"""fieldJ-10: Antonio-Ardigo/Attention-Mechanism, TTT-TRAINING-PLAN.md (English training plan in Markdown).
Two worked examples: raw match scores 8, 3, 1 of "it" against three keys turned into shares of their sum (8/12, 3/12,
1/12 as percentages; the text says real attention would use a softmax, which it does not apply), then scalar values
10, 0, 5 blended with those weights (0.67, 0.25, 0.08) into 7.1.  Not in the truth: the exercises without worked
answers and the gradient examples further down, which are no attention arithmetic.
No own errors: the shares are the stated linear normalisation, and 10 x 0.67 + 5 x 0.08 = 7.1 (85/12 = 7.08)."""
import numpy as np
from _truth import Truth

s = np.array([8., 3., 1.])
w = s / s.sum()
v = np.array([10., 0., 5.])
wp = np.round(w, 2)                 # the weights as the second example writes them
print(w, wp * v, (wp * v).sum(), w @ v)

T = Truth("fieldJ-10-ardigo-en-md-weights-values")
at = T.find
T.nums(["8", "3", "1"], s, "raw match scores", at("animal: 8, street: 3, tired: 1"), role="input")
T.nums(["8", "3", "1"], s, "similarity scores", at("similarity scores 8, 3, 1"), role="input")
T.nums(["8", "12", "67", "3", "12", "25", "1", "12", "8"],
       [8, s.sum(), 100 * w[0], 3, s.sum(), 100 * w[1], 1, s.sum(), 100 * w[2]], "shares of the sum in percent",
       at("8/12 = 67%, 3/12 = 25%, 1/12 = 8%"))
T.nums(["67", "25", "8"], 100 * w, "attention weights in percent", at("**Result:** Attention weights = {animal 67%"))
T.nums(["67", "25", "8"], 100 * w, "given weights in percent", at("**Given:** Weights {animal 67%"), role="input")
T.nums(["10", "0", "5"], v, "values (animate-ness)", at("animal = 10, street = 0, tired = 5"), role="input")
T.nums(["10", "0.67", "6.7", "0", "0.25", "0", "5", "0.08", "0.4"],
       [10, w[0], wp[0] * 10, 0, w[1], 0, 5, w[2], wp[2] * 5], "values times weights",
       at("10 × 0.67 = 6.7; 0 × 0.25 = 0; 5 × 0.08 = 0.4"), carried=[10, wp[0], wp[0] * 10, 0, wp[1], 0, 5, wp[2], wp[2] * 5])
T.nums(["6.7", "0", "0.4", "7.1"], [w[0] * 10, 0, w[2] * 5, w @ v], "sum of the weighted values",
       at("6.7 + 0 + 0.4 = **7.1**"), carried=[6.7, 0, 0.4, 7.1])
T.num("7.1", w @ v, "blended animate-ness", at("now carries animate-ness ≈ 7.1"))
T.mark_own_errors()
T.slip("8/12 = 67%, 3/12 = 25%, 1/12 = 8%", "8/12 = 67%, 3/12 = 52%, 1/12 = 8%", "swapped digits in a share")
T.slip("6.7 + 0 + 0.4 = **7.1**", "6.7 + 0 + 0.4 = **7.4**", "a wrong sum of weighted values")
T.slip("10 × 0.67 = 6.7;", "10 × 0.67 = 6.2;", "a wrong product")
T.write()
