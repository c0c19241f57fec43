"""One slipped score under a row of weights (t155a, a lesson page: "scaled: 8.910 / 10.691 / …" over
"Softmax: 0.0613 / 0.3639 / …"; and a row written `softmax([...]) = [...]`).  A wrong score moves every weight of
its row, so judging weight by weight blamed four right weights (written), or dropped the link in silence (two
printed lines).  The weights keep the differences of the scores in their ratios: when all scores but one agree
with them, that one is the slip, and it is one finding, on the score (claims/slippedscore.py).
"""

import numpy as np

from mha.check import check_document
from mha.check.claims.slippedscore import slipped_score

WRITTEN = """# One query, four keys

The scaled scores of the query are [0.8, 2.1, 1.3, -0.4].

softmax([0.8, 2.1, 1.3, -0.4]) = [0.1511, 0.5543, 0.2491, 0.0455]
"""

PRINTED = """# Five keys

```
scaled scores: [ 1.2  0.4  2.6  0.9 -0.3]
weights:       [0.1546 0.0695 0.6269 0.1145 0.0345]
```
"""


def _softmax(x):
    e = np.exp(np.asarray(x, float) - max(x))
    return e / e.sum()


def test_the_numbers_are_what_numpy_gives():
    assert np.round(_softmax([0.8, 2.1, 1.3, -0.4]), 4).tolist() == [0.1511, 0.5543, 0.2491, 0.0455]
    assert np.round(_softmax([1.2, 0.4, 2.6, 0.9, -0.3]), 4).tolist() == [0.1546, 0.0695, 0.6269, 0.1145, 0.0345]


def test_the_weights_name_the_one_score_that_slipped():
    w = [0.1511, 0.5543, 0.2491, 0.0455]
    j, value, lo, hi = slipped_score([0.8, 2.7, 1.3, -0.4], [0] * 4, w, [5e-5] * 4)
    assert j == 1 and lo <= 2.1 <= hi and abs(value - 2.1) < 1e-3
    assert slipped_score([0.8, 2.1, 1.3, -0.4], [0] * 4, w, [5e-5] * 4) is None        # the row holds
    # a slipped weight (the row no longer sums to 1) is no score's slip
    assert slipped_score([0.8, 2.1, 1.3, -0.4], [0] * 4, [0.1511, 0.5843, 0.2491, 0.0455], [5e-5] * 4) is None
    # two scores off: no single score explains the row
    assert slipped_score([0.8, 2.7, 1.9, -0.4], [0] * 4, w, [5e-5] * 4) is None


def test_right_pages_are_clean():
    for doc in (WRITTEN, PRINTED):
        r = check_document(doc, fmt="md")
        assert not r.errors and r.n_numbers >= 4, [f.describe() for f in r.findings]


def test_a_written_score_slip_is_one_finding_on_the_score():
    r = check_document(WRITTEN.replace("softmax([0.8, 2.1,", "softmax([0.8, 2.7,"), fmt="md")
    assert [(f.line, f.printed, f.rounded) for f in r.errors] == [(5, "2.7", "2.1")], \
        [f.describe() for f in r.findings]


def test_a_printed_score_slip_is_found_on_its_line():
    r = check_document(PRINTED.replace("0.4  2.6", "0.4  2.9"), fmt="md")
    assert [(f.line, f.printed) for f in r.errors] == [(4, "2.9")], [f.describe() for f in r.findings]


def test_a_slipped_weight_is_still_blamed_on_the_weight():
    r = check_document(PRINTED.replace("0.6269", "0.6569"), fmt="md")
    assert [(f.line, f.printed) for f in r.errors] == [(5, "0.6569")], [f.describe() for f in r.findings]


def test_a_row_under_another_scale_is_not_blamed_on_one_score():
    """`softmax([0, 2, 4]) = [0.0900, 0.2447, 0.6652]`: the weights are those of the row halved (the √4 left out of
    the written argument).  Shifting one score also fits them (softmax([0, 1, 2]) is softmax([1, 2, 3])), but the
    whole row scaled is the plainer account: no score is named (the row's weights are judged as before)."""
    assert np.round(_softmax([0, 1, 2]), 4).tolist() == [0.0900, 0.2447, 0.6652]
    assert slipped_score([0, 2, 4], [0] * 3, [0.0900, 0.2447, 0.6652], [5e-5] * 3) is None
    r = check_document("# scaled?\n\nsoftmax([0, 2, 4]) = [0.0900, 0.2447, 0.6652]\n", fmt="md")
    assert not any("slip is here" in (f.cause or "") for f in r.findings), [f.describe() for f in r.findings]
