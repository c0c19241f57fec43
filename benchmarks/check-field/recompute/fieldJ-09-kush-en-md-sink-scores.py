"""fieldJ-09: Kush-Singh-26/blogs, content/NLP-Attention-Optimize.md (English blog post in Markdown).
One query against three local tokens and a sink token: the scores 1.0, 0.9, 0.8 and 1.2 are given, the sum of their
exponentials and the sink's softmax weight are worked, then the sink score is raised by 0.2 to 1.4 and the weight
recomputed, with the relative change in percent.  Nothing else in the post is attention arithmetic on printed givens.
Own errors: the sum of exponentials is 10.724 (2.718 + 2.460 + 2.226 + 3.320), printed 10.73; e^1.4 is 4.055, printed
4.05 (the sum 11.46 is right).  The relative boost, 13%, is 0.35 / 0.31 - 1 from the rounded weights (14% unrounded),
counted right as carried."""
import numpy as np
from _truth import Truth

s = np.array([1.0, 0.9, 0.8, 1.2])
e = np.exp(s)
w = e[3] / e.sum()
s2 = s.copy(); s2[3] = 1.4          # noqa: E702
e2 = np.exp(s2)
w2 = e2[3] / e2.sum()
print(e, e.sum(), w, e2.sum(), w2, 100 * (w2 / w - 1))

T = Truth("fieldJ-09-kush-en-md-sink-scores")
at = T.find
for k, needle in enumerate(("Local 1: score = 1.0", "Local 2: score = 0.9", "Local 3: score = 0.8", "Sink token: score = 1.2")):
    T.num(needle.split("= ")[1], s[k], needle.split(":")[0], at(needle), role="input")
T.num("10.73", e.sum(), "sum of exp(scores)", at("exponentiated scores will give 10.73"))
T.nums(["3.32", "10.73", "0.31", "1.2", "3.32"], [e[3], e.sum(), w, 1.2, e[3]], "sink weight", at("sink weight = 3.32 / 10.73"),
       carried=[e[3], 10.73, 3.32 / 10.73, 1.2, e[3]])
T.nums(["0.2", "1.4"], [0.2, 1.4], "raised sink score", at("increases by just 0.2 to 1.4"), role="input")
T.nums(["4.05", "11.46", "0.35"], [e2[3], e2.sum(), w2], "sink weight after the raise", at("sink weight = 4.05 / 11.46"))
T.nums(["0.2", "13"], [0.2, 100 * (w2 / w - 1)], "change of score, relative boost in percent",
       at("a tiny change in score (+0.2) gave the sink a 13%"), carried=[0.2, 100 * (0.35 / 0.31 - 1)])
T.mark_own_errors()
T.slip("($e^{1.2} = 3.32$)", "($e^{1.2} = 3.23$)", "swapped digits in an exponential")
T.slip("Thus sink weight = 3.32 / 10.73 = 0.31", "Thus sink weight = 3.32 / 10.73 = 0.13", "swapped digits in a weight")
T.slip("gave the sink a 13% relative", "gave the sink a 31% relative", "swapped digits in a percentage")
T.write()
