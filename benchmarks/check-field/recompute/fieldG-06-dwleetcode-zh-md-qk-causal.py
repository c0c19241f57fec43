"""fieldG-06: datawhalechina/llm-algo-leetcode, docs/00_Prerequisites/16_Attention_Mechanism_Intro.md (Chinese
course page, Markdown with code blocks and no printed outputs).  Starts from Q/K/V given as tensors (batch 1, two
tokens): the one number block a reader can check is the expected causal attention weights for q = [[1,0],[0,1]],
k = [[1,2],[3,4]] (d_k = 2, scale 1/sqrt(2), lower-triangular mask): [[1, 0], [0.19557033, 0.80442965]], which is
right.  The other tensors on the page (a 3-wide q/k/v, raw scores [[1,2,3],[4,5,6]] for a masked softmax, v) are
inputs whose results are printed only when the code is run, so they are recorded as inputs."""
import numpy as np
from _truth import Truth

q = np.array([[1.0, 0.0], [0.0, 1.0]])
k = np.array([[1.0, 2.0], [3.0, 4.0]])
S = q @ k.T / np.sqrt(2)
S[0, 1] = -np.inf                                   # causal: token 1 sees only itself
A = np.exp(S - S.max(1, keepdims=True))
A /= A.sum(1, keepdims=True)
# the page's digits come from float32 (torch's default dtype): 0.19557033 / 0.80442965 against float64 0.19557032 /
# 0.80442968, a difference of 3e-8 (float32's own resolution near 0.8 is 6e-8) that a careful reader accepts:
# "carried" is the printed value itself when it lies within two float32 steps of the exact one
P = np.array([1.0, 0.0, 0.19557033, 0.80442965])
f32_step = np.spacing(np.float32(0.8)).astype(float)
A32 = np.where(np.abs(P - A.ravel()) <= 2 * f32_step, P, A.ravel())
print(S, A, A32, sep="\n")

T = Truth("fieldG-06-dwleetcode-zh-md-qk-causal")
L = lambda n: (None, n, False)
given = {71: [1, 0, 1, 0, 1, 1], 72: [1, 2, 0, 3, 0, 1], 73: [10, 0, 0, 20], 90: [1, 0, 0, 1], 91: [1, 2, 3, 4],
         138: [1, 2, 3, 4, 5, 6], 153: [1, 2, 3, 4, 5, 6], 168: [1, 0, 0, 1], 169: [1, 2, 3, 4], 170: [10, 0, 0, 20],
         186: [1, 0, 0, 1], 187: [1, 2, 3, 4], 188: [10, 0, 0, 20]}
for ln, xs in given.items():
    T.row(xs, "given q / k / v / scores entries", L(ln), role="input")
T.nums(["1.0", "0.0", "0.19557033", "0.80442965"], A.ravel(), "expected causal weights A", L(94), carried=A32)
T.mark_own_errors()
T.slip("[0.19557033, 0.80442965]", "[0.19575033, 0.80442965]", "swapped digits in a weight")
T.slip("0.80442965]]])", "0.80424965]]])", "swapped digits in a weight")
T.slip("expected = torch.tensor([[[1.0, 0.0], [0.1", "expected = torch.tensor([[[1.0, 0.1], [0.1",
       "a masked weight given a neighbour's digit")
T.write()
