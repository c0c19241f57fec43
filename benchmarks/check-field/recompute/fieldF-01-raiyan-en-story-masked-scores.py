"""fieldF-01: raiyanyahya/how-to-train-your-gpt, "explanations and examples WIP/the_complete_story.md" (English Markdown).
Starts from scores: Part 6 prints a 7x7 score matrix for "The cat sat on the mat ." (already divided by sqrt(64), as
the code above it says), the same matrix after a causal mask, then "attention weights (after softmax)".  Only the rows
of "The" and "cat" are the softmax of the masked scores; rows 3 to 7 are not (they do not sum to 1, and the rows of
"on" and "the" keep weight on masked, future positions), so each of those rows is an own error, as are the prose
percentages and the mixing line for "sat" that repeat them.  Scope: the attention section; the rest of the document
(tokenizer, RoPE, loss, optimizer) is not an attention computation."""
import numpy as np
from _truth import Truth

S = np.array([[0.42, 0.15, 0.08, -0.03, -0.11, 0.02, -0.18],
              [0.38, 0.52, 0.22, 0.01, -0.05, 0.09, -0.21],
              [0.21, 0.78, 0.15, 0.31, 0.22, 0.28, 0.05],
              [-0.05, 0.11, 0.45, 0.55, 0.38, 0.42, 0.12],
              [-0.09, 0.03, 0.21, 0.48, 0.61, 0.35, 0.08],
              [-0.12, -0.01, 0.15, 0.41, 0.52, 0.58, 0.11],
              [-0.22, -0.15, -0.08, 0.12, 0.18, 0.22, 0.48]])
causal = np.tril(np.ones((7, 7)))
E = np.exp(S) * causal
A = E / E.sum(1, keepdims=True)          # the softmax of the masked scores, row by row
print(A.round(4))

names = ["The     ", "cat     ", "sat     ", "on      ", "the     ", "mat     ", ".       "]
T = Truth("fieldF-01-raiyan-en-story-masked-scores")
for i, nm in enumerate(names):
    T.row(S[i], f"S[{i + 1},:] (given, already scaled)", T.find(f"{nm}{S[i, 0]: .2f}"),
          role="input")
for i, nm in enumerate(names):
    at = T.find(f"{nm}{S[i, 0]: .2f}", nth=1)
    T.row(S[i, :i + 1], f"masked S[{i + 1},:{i + 1}] (repeated)", at, last=False, role="input")
at = T.find("(0.78) and moderate scores for on (0.31)")
T.nums(["0.78", "0.31", "0.28"], [S[2, 1], S[2, 3], S[2, 5]], "S[3,2|4|6] (prose)", at, role="input")
at = T.find("less about itself (0.15) and the period (0.05)")
T.nums(["0.15", "0.05"], [S[2, 2], S[2, 6]], "S[3,3|7] (prose)", at, role="input")
wnames = ["The      1.00", "cat      0.47", "sat      0.18", "on       0.08", "the      0.05", "mat      0.04",
          ".        0.03"]
for i, lead in enumerate(wnames):
    T.row(A[i], f"A[{i + 1},:]", T.find(lead))
at = T.find("It attends 25 percent to itself")
T.nums(["25"], [100 * A[3, 3]], "A[4,4] in percent (prose)", at)
at = T.find("and 22 percent to sat and 20 percent to the and 15 percent to mat")
T.nums(["22", "20", "15"], [100 * A[3, 2], 100 * A[3, 4], 100 * A[3, 5]], "A[4,3|5|6] in percent (prose)", at)
T.num("100", 100 * A[0, 0], "A[1,1] in percent (prose)", T.find("It attends 100 percent to itself"))
at = T.find("new_sat = 0.18 × V_The + 0.35 × V_cat + 0.10 × V_sat")
T.nums(["0.18", "0.35", "0.10"], A[2, :3], "A[3,:3] (mixing line)", at)
T.num("10", 100 * A[2, 2], "A[3,3] in percent (prose)", T.find("self attention (10 percent)"))
T.mark_own_errors()
T.slip("cat      0.47   0.53   0.00", "cat      0.74   0.53   0.00", "swapped digits in a weight")
T.slip("The      1.00   0.00", "The      0.10   0.00", "a dropped digit in a weight")
T.slip("It attends 100 percent to itself", "It attends 10 percent to itself", "a dropped digit in a percentage")
T.write()
