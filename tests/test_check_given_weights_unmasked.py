"""Weights a page gives are already masked or not: no mask is laid over them.

Outside trial t191f (a lab README): Q and K are the 2×2 identity, the weights are given unmasked to six decimals
(the first cut short, the second one minus it, so the chain from Q and K misses them by a unit), and the output
follows from those weights.  The start became the given weights, and the identity Q and K, which look like a causal
mask, voted one in: row 1 of the weights became [1, 0], and the right output row two false errors.  A start from the
weights has no mask to choose (infer/candidates.py).
"""

from check_helpers import error_places

# softmax([[1, 0], [0, 1]] / √2) = [[0.66976155, 0.33023845], ...]: the first cut after six decimals, the second
# written as one minus it
PAGE = """# A lab run

Q = [[1,0], [0,1]]

K = [[1,0], [0,1]]

V = [[10,0], [0,30]]

weights = [[0.669761, 0.330239], [0.330239, 0.669761]]

output = [[6.69761, 9.90717], [3.30239, 20.09283]]
"""



def test_the_given_weights_keep_their_upper_entries():
    assert error_places(PAGE) == []


def test_a_slipped_output_is_still_found():
    assert error_places(PAGE.replace("9.90717", "9.91717")) == [(11, "9.91717")]
