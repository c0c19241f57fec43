"""fieldK-05: yshavit/llm-notes, book/03-The-LLM/03-self-attention.md (English MyST Markdown with LaTeX).
A chapter on self-attention told mostly in words; its numbers are three softmaxes of two scores each (why the scores
are scaled), and one attention weight (0.27) times one value vector [6.2, 1.4, 7.9] worked out element by element.
Not in the truth: the storage estimate of an n x n x d x d tensor in a dropdown (no attention arithmetic).
No own errors."""
import numpy as np
from _truth import Truth


def sm(x):
    x = np.asarray(x, float)
    return np.exp(x) / np.exp(x).sum()


v = np.array([6.2, 1.4, 7.9])
print(sm([1.0, 1.1]), sm([10, 11]), sm([100, 110]), 0.27 * v)

T = Truth("fieldK-05-yshavit-en-md-softmax-weighted-value")
for x, pr in (([1.0, 1.1], ["0.475", "0.525"]), ([10, 11], ["0.269", "0.731"]), ([100, 110], ["0.000045", "0.999955"])):
    at = T.find(f"\\sigma( & [{x[0]}, {x[1]}] )")
    T.nums(pr, sm(x), f"softmax of {x}", at)
T.num("0.27", 0.27, "attention weight of input 4", T.find("- Attention weight $4$ is 0.27."), role="input")
T.nums(["6.2", "1.4", "7.9"], v, "value vector of input 4", T.find("Input token 4's value vector is"), role="input")
T.nums(["0.27", "6.2", "1.4", "7.9"], [0.27, *v], "weight and value in the product", T.find("  & 0.27 \\cdot [6.2, 1.4, 7.9]"), role="input")
T.nums(["1.67", "0.378", "2.13"], 0.27 * v, "weighted value vector", T.find("= & [1.67, 0.378, 2.13]"))
T.mark_own_errors()
T.slip("= & [1.67, 0.378, 2.13]", "= & [1.67, 0.378, 2.31]", "swapped digits in a weighted value")
T.slip("\\sigma( & [10, 11] ) &= [0.269, 0.731]", "\\sigma( & [10, 11] ) &= [0.296, 0.731]", "swapped digits in a softmax")
T.slip("\\sigma( & [1.0, 1.1] ) &= [0.475, 0.525]", "\\sigma( & [1.0, 1.1] ) &= [0.475, 0.575]", "a wrong digit in a softmax")
T.write()
