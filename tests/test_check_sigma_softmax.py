r"""σ defined as the softmax, then used (field document K-05, a blog post on softmax): `\text{softmax}(v)_i = \sigma(v)_i`,
then `\sigma([1.0, 1.1]) = [0.475, 0.525]` in an align block.  The σ calls were read as expressions of an unknown
function, so the rows were never judged.  Where the text defines σ as the softmax and names no sigmoid, σ(...) is
read as softmax(...) (readers/softmaxsaid.sigma_as_softmax); where σ is not so defined it is left alone (it is often
the sigmoid, which gives other numbers).
"""

import numpy as np
import pytest

from mha.check import check_document
from mha.check.command import NothingToCheck

DOC = r"""# How sharp is the softmax

Write the softmax of a vector as

$$
\text{softmax}(v)_i = \sigma(v)_i = \frac{e^{v_i}}{\sum_j e^{v_j}}
$$

Two numbers 10% apart, at two sizes:

$$
\begin{align}
\sigma( & [2.0, 2.2] ) &= [0.450, 0.550] \\
\sigma( & [20, 22] ) &= [0.1192, 0.8808]
\end{align}
$$
"""

SIGMOID = r"""# Gates

The gate is $\sigma$, the logistic sigmoid, applied entry by entry:

$$
\sigma([0.5, -0.5]) = [0.622, 0.378]
$$
"""


def _softmax(x):
    e = np.exp(np.asarray(x, float) - max(x))
    return e / e.sum()


def test_the_numbers_are_what_numpy_gives():
    assert np.round(_softmax([2.0, 2.2]), 3).tolist() == [0.450, 0.550]
    assert np.round(_softmax([20, 22]), 4).tolist() == [0.1192, 0.8808]
    assert np.round(1 / (1 + np.exp(-np.array([0.5, -0.5]))), 3).tolist() == [0.622, 0.378]


def test_sigma_defined_as_softmax_is_judged_as_one():
    r = check_document(DOC, fmt="md")
    assert not r.errors and r.n_numbers >= 4, [f.describe() for f in r.findings]
    r = check_document(DOC.replace("[0.1192, 0.8808]", "[0.1129, 0.8808]"), fmt="md")
    assert [(f.line, f.printed) for f in r.errors] == [(14, "0.1129")], [f.describe() for f in r.findings]


def test_sigma_as_the_sigmoid_is_not_read_as_a_softmax():
    # nothing on the page is a softmax, so there is nothing to check (and above all no finding)
    with pytest.raises(NothingToCheck):
        check_document(SIGMOID, fmt="md")
