"""fieldK-09: boblee0717/llm-learning, papers/notes/notes_attention_qkv.md (Chinese Markdown reading notes on the
attention section of the Transformer paper).
The notes are mostly prose and shapes; their numbers are a table of two softmaxes ([1, 2, 3] and [10, 20, 30], why
scores are scaled by sqrt(d_k)) and a causal-mask diagram whose first softmax row is [1.0, 0, 0, 0] (the first
token sees only itself; the other rows are dots).  No own errors."""
import numpy as np
from _truth import Truth


def sm(x):
    x = np.asarray(x, float)
    return np.exp(x) / np.exp(x).sum()


print(sm([1, 2, 3]), sm([10, 20, 30]))

T = Truth("fieldK-09-boblee-zh-md-softmax-saturation")
at = T.find("| `[1, 2, 3]` | `[0.09, 0.24, 0.67]`")
T.nums(["1", "2", "3"], [1, 2, 3], "scores", at, role="input")
T.nums(["0.09", "0.24", "0.67"], sm([1, 2, 3]), "softmax of [1, 2, 3]", at)
at = T.find("| `[10, 20, 30]` | `[2e-9, 4.5e-5, ~1.0]`")
T.nums(["10", "20", "30"], [10, 20, 30], "scores", at, role="input")
T.nums(["2e-9", "4.5e-5", "1.0"], sm([10, 20, 30]), "softmax of [10, 20, 30]", at)
T.nums(["1.0", "0", "0", "0"], [1, 0, 0, 0], "first causal softmax row", T.find("[1.0  0   0   0 ]"))
T.mark_own_errors()
T.slip("`[0.09, 0.24, 0.67]`", "`[0.09, 0.42, 0.67]`", "swapped digits in a weight")
T.slip("`[2e-9, 4.5e-5, ~1.0]`", "`[2e-9, 4.5e-3, ~1.0]`", "a wrong exponent in a weight")
T.slip("[1.0  0   0   0 ]", "[0.5  0   0   0 ]", "a first causal row that does not sum to one")
T.write()
