"""fieldK-01: talManan/Study-of-Transformers-, README.md (English Markdown study notes).
Self-attention worked by hand for "The CAT SAT": 4-wide embeddings, W_Q = W_K = W_V = I so that Q = K = V are the
embeddings, the nine dot products, d_k = 4 and sqrt(d_k) = 2, the scaled scores of "The", the softmax of each row,
and the weighted sum of values for "The"; an aside on scaling ([6, 4] against [3, 2]).  Also the paper's sqrt(64) = 8 in
the encoder summary.  Not in the truth: the layer-norm and positional-encoding sections further down (no attention
arithmetic).
Own errors: the rows of "CAT" and "SAT" write Softmax([0, 2, 2]) and Softmax([2, 2, 4]) (the unscaled scores) but
print the softmax of the scaled scores [0, 1, 1] and [1, 1, 2]; the output of "The" is printed [1.2669, 0.9999, ...]
where 0.4223 [1,0,1,0] + 0.1554 [0,1,0,1] + 0.4223 [1,1,1,1] = [0.8446, 0.5777, 0.8446, 0.5777]."""
import numpy as np
from _truth import Truth

E = np.array([[1, 0, 1, 0], [0, 1, 0, 1], [1, 1, 1, 1]], float)
S = E @ E.T


def sm(x):
    x = np.asarray(x, float)
    return np.exp(x) / np.exp(x).sum()


wt = sm(S[0] / 2)
out = np.round(wt, 4) @ E
print(S, wt, sm([0, 2, 2]), sm([2, 2, 4]), out)

T = Truth("fieldK-01-talmanan-en-md-identity-qkv")
for k, nm in enumerate(("The", "CAT", "SAT")):
    T.row(E[k], f"E_{nm}", T.find(f"E_{nm} = ["), role="input")
    T.row(E[k], f"Q = K = V of {nm}", T.find(f"Q_{nm} = K_{nm} = V_{nm} = ["), role="input")
for j, nm in enumerate(("The", "CAT", "SAT")):
    T.num(str(int(S[0, j])), S[0, j], f"score(The, {nm})", T.find(f"Score(Q_The, K_{nm}) = [1,0,1,0]"))
for i, row in ((1, "Score(Q_CAT, K_The) = 0,"), (2, "Score(Q_SAT, K_The) = 2,")):
    at = T.find(row)
    text = T._line(at)
    for j, nm in enumerate(("The", "CAT", "SAT")):
        p = text.split(f"K_{nm}) = ")[1].split(",")[0].strip()
        T.num(p, S[i, j], f"score({['The', 'CAT', 'SAT'][i]}, {nm})", at)
T.num("2", 2.0, "sqrt(d_k = 4)", T.find("dk = 4  →  √dk = 2"))
T.num("8", 8.0, "sqrt(64) in the paper's sizes (d_k = d_v = 64)", T.find("  V    = 64     √64 = 8"))
T.nums(["0.88", "0.12"], sm([6, 4]), "softmax of [6, 4]", T.find("Scores [6, 4] → Softmax ≈ [0.88, 0.12]"))
at = T.find("[6,4] → [6/2, 4/2] = [3,2]")
T.nums(["3", "2"], [3, 2], "[6, 4] / 2", at)
T.nums(["0.73", "0.27"], sm([3, 2]), "softmax of [3, 2]", at)
for j, nm in enumerate(("The", "CAT", "SAT")):
    T.num(str(int(S[0, j] / 2)), S[0, j] / 2, f"scaled score(The, {nm})", T.find(f"  Score(Q_The, K_{nm}) = {int(S[0, j])}/2"))
T.nums(["0.4223", "0.1554", "0.4223"], wt, "weights of The", T.find('Attention Weights "The" = Softmax([1, 0, 1])'))
T.nums(["0.1554", "0.4223", "0.4223"], sm([0, 2, 2]), "weights of CAT = Softmax([0, 2, 2]) as written",
       T.find('Attention Weights "CAT" = Softmax([0, 2, 2])'))
T.nums(["0.2119", "0.2119", "0.5762"], sm([2, 2, 4]), "weights of SAT = Softmax([2, 2, 4]) as written",
       T.find('Attention Weights "SAT" = Softmax([2, 2, 4])'))
T.nums(["0.4223", "0.1554", "0.4223"], np.round(wt, 4), "weights of The in the weighted sum",
       T.find("Output(The) = 0.4223 × V_The"), role="input")
T.nums(["1.2669", "0.9999", "1.2669", "0.9999"], out, "output of The", T.find("= [1.2669, 0.9999, 1.2669, 0.9999]"))
T.mark_own_errors({
    T.find('Attention Weights "CAT" = Softmax([0, 2, 2])')[1]: "Softmax([0, 2, 2]) is [0.0634, 0.4683, 0.4683]; the printed row is the softmax of the scaled scores [0, 1, 1]",
    T.find('Attention Weights "SAT" = Softmax([2, 2, 4])')[1]: "Softmax([2, 2, 4]) is [0.1065, 0.1065, 0.7870]; the printed row is the softmax of [1, 1, 2]",
    T.find("= [1.2669, 0.9999, 1.2669, 0.9999]")[1]: "the weighted sum is [0.8446, 0.5777, 0.8446, 0.5777]",
})
T.slip('Softmax([1, 0, 1]) = [0.4223, 0.1554, 0.4223]', 'Softmax([1, 0, 1]) = [0.4223, 0.1545, 0.4223]', "swapped digits in a weight")
T.slip("= [3,2] → Softmax ≈ [0.73, 0.27]", "= [3,2] → Softmax ≈ [0.75, 0.27]", "a wrong weight in the scaling aside")
T.slip("K_SAT) = [1,0,1,0]·[1,1,1,1]ᵀ = 2", "K_SAT) = [1,0,1,0]·[1,1,1,1]ᵀ = 3", "a wrong dot product")
T.write()
