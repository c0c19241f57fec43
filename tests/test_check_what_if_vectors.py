"""A worked line, its softmax, and the answer a slip would give, in a script's comments (t152d, a coding exercise's
tests: two false findings):

    # scores = [2, 1] / sqrt(4) = [1.0, 0.5]
    # softmax -> [0.622459, 0.377541]
    # if you got [0.731059, 0.268941] you forgot to divide

The warning's vector matched the unscaled softmax, so the configuration became "unscaled", and the weights were paired
with `[2, 1]`, the first vector of the line above: both weights were called wrong.  Now the warning's vector is no
value of the example (readers/__init__._drop_what_ifs, hint `whatif`), a line with two rows of scores pairs neither
by order with the weights under it (claims/softmax.softmax_pairs), and `[...] / sqrt(4)` states the scale (hint
`scale_sqrt`): the weights hold, and a slip in them is found.
"""

from mha.check import check_document

SCRIPT = """import numpy as np

# scores = [2, 1] / sqrt(4) = [1.0, 0.5]
# softmax -> [{w}, 0.377541]
# if you got [0.731059, 0.268941] you forgot to divide
expected = np.array([{w}, 0.377541])
"""


def test_the_weights_hold():
    r = check_document(SCRIPT.format(w="0.622459"), fmt="py")
    assert not r.findings and r.n_numbers >= 2, [f.describe() for f in r.findings]


def test_a_slip_in_them_is_found():
    r = check_document(SCRIPT.format(w="0.632459"), fmt="py")
    assert 4 in [f.line for f in r.errors] and all(f.printed == "0.632459" for f in r.errors), \
        [f.describe() for f in r.findings]
