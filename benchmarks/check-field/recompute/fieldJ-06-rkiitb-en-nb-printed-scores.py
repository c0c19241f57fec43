"""fieldJ-06: Rkiitb/Transformer-From-Scratch, Attention Mechanism/self_attention.ipynb (English notebook).
The "naive" self-attention of the word "bank" in "River bank is calm": its dot products with the four words'
sentence-transformer embeddings are printed (the embeddings themselves are not, beyond an elided printout), then
their softmax; the old similarity of River and bank repeats the first score.  Everything after (the new similarity
from the mixed embedding, random X_e, W_q, W_k and the Q, K printouts) depends on numbers never printed in full and is
not in the truth.  The softmax is judged against the 4-decimal scores it prints: a weight counts as right when it
lies within 1e-4 of the softmax of the printed scores.  No own errors."""
import numpy as np
from _truth import Truth

s = np.array([0.4996, 1.0000, 0.2495, 0.2183])
w = np.exp(s) / np.exp(s).sum()
print(w)

T = Truth("fieldJ-06-rkiitb-en-nb-printed-scores")
at = T.find("tensor([0.4996, 1.0000, 0.2495, 0.2183])", output=True)
T.nums(["0.4996", "1.0000", "0.2495", "0.2183"], s, "dot products of bank with River, bank, is, calm", at, role="input")
at = T.find("tensor([0.2391, 0.3943, 0.1862, 0.1804])", output=True)
for k, p in enumerate(["0.2391", "0.3943", "0.1862", "0.1804"]):
    T.num(p, w[k], f"softmax weight {k + 1}", at, correct=abs(float(p) - w[k]) <= 1e-4)
T.num("0.4996", s[0], "old similarity of River and bank (the first score again)",
      T.find("Old Similarity score between River and bank", output=True), role="input")
T.mark_own_errors()
T.slip("tensor([0.2391, 0.3943, 0.1862, 0.1804])", "tensor([0.2391, 0.3493, 0.1862, 0.1804])", "swapped digits in a weight")
T.slip("tensor([0.2391, 0.3943, 0.1862, 0.1804])", "tensor([0.2391, 0.3943, 0.2862, 0.1804])", "a wrong digit in a weight")
T.write()
