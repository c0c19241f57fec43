"""A line that gives a size and its root together: "divide by √d_k (√d_k = 4 here, with d_k = 16): 56/4 = 14".  The
two numbers given to `d_k` on one line read as an index running over it ("d_k=0 d_k=1 ..."), so d_k = 16 was
dropped, the scores stayed unscaled, and the weights after them were left unchecked (a Spanish course page in t229d).
`√d_k = 4` is the root of the size, not another value of the name (labels.py `index_header`).  My own numbers."""

import math

W = [math.exp(14) / (math.exp(14) + math.exp(10)), math.exp(10) / (math.exp(14) + math.exp(10))]


def _page(w1=f"{W[0]:.2f}"):
    return "\n".join([
        "# Self-attention, one position", "",
        "1. **Score**: the query of the first word against each key: `q1 · k1 = 56`, `q1 · k2 = 40`.",
        "2. **Divide by √d_k**: the scores are divided by the root of the key size (`√d_k = 4` here, with "
        "$d_k = 16$): `56/4 = 14`, `40/4 = 10`.",
        f"3. **Softmax**: the scaled scores become weights that add up to 1: `{w1}` and `{W[1]:.2f}`.", ""])


def _report(text):
    from mha.check import check_document
    return check_document(text, fmt="md")


def test_the_weights_are_judged_under_the_stated_size_and_hold():
    r = _report(_page())
    assert r.errors == [] and "d_k = 16" in " ".join(map(str, r.configuration.values())), r.configuration


def test_a_slip_in_a_weight_is_found():
    errs = _report(_page(w1="0.89")).errors
    assert [f.printed for f in errs] == ["0.89"], [f.describe() for f in errs]
