"""fieldK-02: KMnO4-zx/tmp, attention/attention.md (Chinese Markdown; notes that follow an English blog post on
attention as a soft key-value lookup).
A dictionary lookup with weights 0.6 / 0.4 / 0.0 over the values 10, 5, 2 (printed result 8), a softmax of the
printed scores [4.0, -1.0, 2.1], and, on scaling, softmax([3, 2, 1]) and softmax([30, 20, 10]).  Not in the truth:
random word vectors (np.random.normal, never printed) and the value vectors of the dictionary example, on which no
arithmetic is done.
Own error: softmax([3, 2, 1]) is [0.665, 0.245, 0.090]; the line prints 0.244 (the digits cut, not rounded)."""
import numpy as np
from _truth import Truth


def sm(x):
    x = np.asarray(x, float)
    return np.exp(x) / np.exp(x).sum()


print(sm([4.0, -1.0, 2.1]), sm([3, 2, 1]), sm([30, 20, 10]))

T = Truth("fieldK-02-kmno4-zh-md-lookup-softmax")
at = T.find('>>> 0.6 * d["apple"] + 0.4 * d["banana"] + 0.0 * d["chair"]')
T.nums(["0.6", "0.4", "0.0"], [0.6, 0.4, 0.0], "weights of the lookup", at, role="input")
T.num("8", 0.6 * 10 + 0.4 * 5 + 0.0 * 2, "weighted sum of the values 10, 5, 2", (None, at[1] + 1, False))  # the next line
T.nums(["4.0", "-1.0", "2.1"], [4.0, -1.0, 2.1], "scores", T.find(">>> softmax(np.array([4.0, -1.0, 2.1]))"), role="input")
T.nums(["0.8648", "0.0058", "0.1294"], sm([4.0, -1.0, 2.1]), "softmax of [4.0, -1.0, 2.1]", T.find("[0.8648, 0.0058, 0.1294]"))
at = T.find("`softmax([3, 2, 1]) = [0.665, 0.244, 0.090]`")
T.nums(["0.665", "0.244", "0.090"], sm([3, 2, 1]), "softmax of [3, 2, 1]", at)
T.nums(["9.99954600e-01", "4.53978686e-05", "2.06106005e-09"], sm([30, 20, 10]), "softmax of [30, 20, 10]", at)
T.mark_own_errors()
T.slip("[0.8648, 0.0058, 0.1294]", "[0.8648, 0.0058, 0.1924]", "swapped digits in a weight")
T.slip(">>> 0.6 * d[\"apple\"] + 0.4 * d[\"banana\"] + 0.0 * d[\"chair\"]\n8", ">>> 0.6 * d[\"apple\"] + 0.4 * d[\"banana\"] + 0.0 * d[\"chair\"]\n9",
       "a wrong weighted sum")
T.write()
