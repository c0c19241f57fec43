"""fieldJ-01: kshirol-dev/learnAI, HowLLMsWork/03-attention.html (English HTML lesson).
One query ("sat") against three keys: the raw scores 2.1, 8.7, 3.2 are given, d_k = 128 and sqrt(128) ~ 11.3, the scaled
scores and their softmax, then the weighted sum of the values written with the weights.  Not in the truth: the
shapes and sizes in the narration (128K context, 16 billion elements), which are no arithmetic on printed givens.
Own errors: softmax([0.19, 0.77, 0.28]) is [0.258, 0.460, 0.282], printed [0.22, 0.48, 0.30]; the same wrong weights
are quoted again ("cat" (0.48), and in the weighted sum of the values)."""
import numpy as np
from _truth import Truth

s = np.array([2.1, 8.7, 3.2])
r = np.sqrt(128)
ss = s / 11.3                        # the page divides by its rounded 11.3
w = np.exp(np.round(ss, 2)) / np.exp(np.round(ss, 2)).sum()   # softmax of the printed scaled scores
print(ss, w, s / r)

T = Truth("fieldJ-01-kshirol-en-html-given-scores")
at = lambda needle: T.find(needle)   # noqa: E731
T.num("11.3", r, "sqrt(128) in the key insight", at("&radic;128 &asymp; 11.3"))
for k, nm in enumerate(("The", "cat", "sat")):
    T.num(f"{s[k]}", s[k], f"score(sat, {nm})", at(f'# score("sat","{nm}")'), role="input")
T.num("11.3", r, "sqrt(d_k = 128)", at("# d_k = 128, √128 ≈ 11.3"))
T.nums(["2.1", "11.3", "8.7", "11.3", "3.2", "11.3"], [2.1, r, 8.7, r, 3.2, r], "scores over sqrt(d_k)",
       at("# scaled: [2.1/11.3"), role="input")
T.nums(["0.19", "0.77", "0.28"], ss, "scaled scores", at("#       = [0.19, 0.77, 0.28]"), carried=s / r)
T.nums(["0.19", "0.77", "0.28"], np.round(ss, 2), "scaled scores into the softmax", at("# weights = softmax([0.19"),
       role="input")
T.nums(["0.22", "0.48", "0.30"], w, "softmax weights", at("#         = [0.22, 0.48, 0.30]"))
T.num("0.48", w[1], "weight of cat, quoted", at('# "sat" attends most to "cat" (0.48)'))
T.nums(["0.22", "0.48", "0.30"], w, "weights in the weighted sum of values", at("# output = 0.22"))
T.mark_own_errors()
T.slip("#       = [0.19, 0.77, 0.28]", "#       = [0.19, 0.71, 0.28]", "a wrong digit in a scaled score")
T.slip("# d_k = 128, √128 ≈ 11.3", "# d_k = 128, √128 ≈ 11.8", "a wrong square root")
T.slip("Dividing by &radic;128 &asymp; 11.3", "Dividing by &radic;128 &asymp; 16.3", "a wrong square root in prose")
T.write()
