"""fieldH-08: cluster1900/vllm_reader, experiments/ch01-minimal-inference.md (Chinese experiment record, Markdown; the
repository could not be mirrored here, so the text was saved from the stored index at the cited commit and its
character count checked, 2226).  It prints the outputs of the book's two chapter-1 scripts: a KV-cache equivalence run
of a one-layer decoder with random weights (cache entries, cached/full differences, sampled token ids, a QK-score count
with and without cache for P=128, G=32), and a numerical walkthrough (softmax of the logits [4, 2, 1, 0] at T = 0.5, 1,
2; attention scores, probabilities and output of one query against three keys).
Only the attention probabilities follow from numbers printed in this record (softmax of the printed scores); the
logits, Q/K/V and the counting protocol are printed in the book's chapter, not here, and the sampled ids come from
random weights: those entries are marked for reachable.py ("(elsewhere)", "(random)") and their exact values are
recomputed from the chapter's inputs (Q=[1,0.5], K0..K2=[1,0],[0,1],[1,1], V0..V2=[1,0],[0,2],[2,1], d=2).  The test
count and timing line and the environment versions are not computations and are left out.  Every number agrees."""
import numpy as np
from _truth import Truth

z = np.array([4.0, 2.0, 1.0, 0.0])
P = lambda T: np.exp(z / T) / np.exp(z / T).sum()  # noqa: E731
q = np.array([1.0, 0.5])
K = np.array([[1.0, 0.0], [0.0, 1.0], [1.0, 1.0]])
V = np.array([[1.0, 0.0], [0.0, 2.0], [2.0, 1.0]])
s = K @ q / np.sqrt(2)
s_printed = np.array([0.7071, 0.3536, 1.0607])
w_from_printed = np.exp(s_printed) / np.exp(s_printed).sum()
w = np.exp(s) / np.exp(s).sum()
out = w @ V
Pn, G = 128, 32
full = Pn * (Pn + 1) // 2 + sum(n * (n + 1) // 2 for n in range(Pn + 1, Pn + G))   # prefill, then 31 full recomputes
cached = Pn * (Pn + 1) // 2 + sum(range(Pn + 1, Pn + G))                           # prefill, then 31 cached decodes
print(P(0.5), P(1.0), P(2.0), s, w, w_from_printed, out, full, cached, sep="\n")

T = Truth("fieldH-08-cluster-zh-md-experiment-record")
T.num("4", 4, "prefill cache entries = prompt tokens (<bos> 我 喜欢 读)", T.find("prefill cache entries per layer"))
for k in (1, 2, 3):
    at = T.find(f"decode step {k}:")
    T.num("0.00e+00", 0.0, f"max |cached - full| at decode step {k} (equal in exact arithmetic)", at)
    T.num(("5", "5", "6")[k - 1], (5, 5, 6)[k - 1], f"(random) sampled token id at decode step {k}", at)
at = T.find("QK score count example")
T.num("128", 128, "prompt length P", at, role="input")
T.num("32", 32, "generated tokens G", at, role="input")
T.num("333136", full, "(elsewhere) QK scores without cache", at)
T.num("12720", cached, "(elsewhere) QK scores with cache", at)
for Tv, needle in ((0.5, "T=0.5:"), (1.0, "T=1.0:"), (2.0, "T=2.0:")):
    T.row(P(Tv), f"(elsewhere) softmax([4,2,1,0] / {Tv})", T.find(needle))
T.row(s, "(elsewhere) attention scores Q.K_j / sqrt(2)", T.find("attention scores:"))
T.row(w_from_printed, "attention probabilities = softmax(printed scores)", T.find("attention probabilities:"))
T.row(out, "(elsewhere) attention output = sum_j w_j V_j", T.find("attention output:"))
T.mark_own_errors()
T.slip("[0.3199, 0.2246, 0.4555]", "[0.3199, 0.2264, 0.4555]", "swapped digits in an attention probability")
T.slip("[1.2309, 0.9047]", "[1.2309, 0.9074]", "swapped digits in the attention output")
T.slip("[0.8310, 0.1125, 0.0414, 0.0152]", "[0.8310, 0.1152, 0.0414, 0.0152]", "swapped digits in a probability")
T.write()
