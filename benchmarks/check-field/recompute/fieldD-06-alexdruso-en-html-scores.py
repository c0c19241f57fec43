"""fieldD-06: Alexdruso/Alexdruso.github.io, docs/_posts/2026-07-18-self-attention.html (English blog post, HTML).
Starts from scores: the query of "it" has already-scaled scores 3.4 / 2.8 / 2.1 against "ball" / "heavy" / "robot" and
0 against the seven other tokens; the post exponentiates by hand (e^x rounded to 1 decimal), sums the normaliser and
gives the weights to 2 decimals, all right.  The page's interactive part holds its score matrices in a <script>
(JavaScript, not text) and prints nothing else: it is not in the truth."""
import numpy as np
from _truth import Truth

s = np.array([3.4, 2.8, 2.1] + [0.0] * 7)
e = np.exp(s)
Z = e.sum()
a = e / Z
print(e[:3].round(3), Z.round(3), a[:3].round(4), a[3:].sum().round(4))

T = Truth("fieldD-06-alexdruso-en-html-scores")
at = T.find("e<sup>3.4</sup> &asymp; 30.0")
T.nums(["30.0", "16.4", "8.2"], e[:3], "e^score for ball, heavy, robot", at)
T.num("1", 1.0, "e^0", T.find("seven tokens at e<sup>0</sup> = 1 each"))
at = T.find("Z &asymp; 30.0 + 16.4 + 8.2 + 7.0 = 61.6")
T.nums(["30.0", "16.4", "8.2", "7.0", "61.6"], [*e[:3], e[3:].sum(), Z], "terms of Z and Z", at)
at = T.find("&asymp; 0.49 to \"ball\"")
T.nums(["0.49", "0.27", "0.13"], a[:3], "weights of ball, heavy, robot", at)
T.num("0.11", a[3:].sum(), "weight left for the seven other tokens", T.find("remaining &asymp; 0.11 thinly"))
T.slip("+ 7.0 = 61.6, so", "+ 7.0 = 66.1, so", "swapped digits in the normaliser")
T.slip("0.27 to \"heavy\"", "0.72 to \"heavy\"", "swapped digits in a weight")
T.slip("remaining &asymp; 0.11 thinly", "remaining &asymp; 0.01 thinly", "one digit off in the leftover weight")
T.mark_own_errors()
T.write()
