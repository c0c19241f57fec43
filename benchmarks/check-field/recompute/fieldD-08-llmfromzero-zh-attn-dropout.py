"""fieldD-08: helloooooooooooooo97/llm_from_zero, dropout.md (Chinese study note).  Starts from given attention weights
(two rows, no values): the "with dropout" rows drop one entry and scale the kept ones by 1/(1-p) = 1.25, i.e.
p = 0.2, the p of the note's first dropout example (the attention-layer code nearby has dropout=0.1, which would scale
by 1.111: the example follows the p = 0.2 of section 1.3, and that reading makes every printed number right).
Section 1.3's own example (inputs 1..5, p = 0.2, two entries dropped) and its inference line are right too."""
import numpy as np
from _truth import Truth

x = np.array([1.0, 2.0, 3.0, 4.0, 5.0])
keep = np.array([1, 0, 1, 1, 0], float)          # the note's "possible output" drops entries 2 and 5
scale = 1 / (1 - 0.2)
A = np.array([[0.1, 0.8, 0.05, 0.05], [0.05, 0.9, 0.03, 0.02]])
keepA = np.array([[1, 0, 1, 1], [1, 1, 1, 1]], float)
print(x * keep * scale, A * keepA * scale)

T = Truth("fieldD-08-llmfromzero-zh-attn-dropout")
at = T.find("可能输出: [1.25, 0.0, 3.75, 5.0, 0.0]")
T.nums(["1.25", "0.0", "3.75", "5.0", "0.0"], x * keep * scale, "dropout(x), p = 0.2", at)
T.nums(["0.2", "1.25"], [0.2, scale], "p and 1/(1-p)", (at[0], at[1], at[2]))
T.row(x, "inference output = input", T.find("输出: [1.0, 2.0, 3.0, 4.0, 5.0]"))
T.nums(["0.125", "0.0", "0.0625", "0.0625"], A[0] * keepA[0] * scale, "attention row 0 after dropout",
       T.find("位置0: [0.125, 0.0, 0.0625, 0.0625]"))
T.nums(["0.0625", "1.125", "0.0375", "0.025"], A[1] * keepA[1] * scale, "attention row 1 after dropout",
       T.find("位置1: [0.0625, 1.125, 0.0375, 0.025]"))
T.slip("位置0: [0.125, 0.0, 0.0625, 0.0625]", "位置0: [0.125, 0.0, 0.0652, 0.0625]", "swapped digits in a dropped-out weight")
T.slip("位置1: [0.0625, 1.125, 0.0375, 0.025]", "位置1: [0.0625, 1.125, 0.0375, 0.25]", "dropped digit in a dropped-out weight")
T.slip("可能输出: [1.25, 0.0, 3.75, 5.0, 0.0]", "可能输出: [1.25, 0.0, 3.57, 5.0, 0.0]", "swapped digits in the dropout example")
T.mark_own_errors()
T.write()
