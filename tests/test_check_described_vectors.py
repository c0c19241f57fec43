"""Per-token vectors written `K2 (key for word 2) = [...]` in a code block, then `Before softmax: [...]` and `After
softmax: [...]`.

Outside trial t138b: `K2` (a capital and a digit) read as head 2's K, the description in parentheses hid the
index, and "Before softmax" named the weights: nothing was started from, and the weights and output were checked
only by their sums.  An indexed symbol with words about a word or token in parentheses is that token's vector
(labels.py, infer/starts.py), and "before (the) softmax" is the scores.
"""

import pytest

from mha.check import check_document

PAGE = """# Attention for word 1

Identity projections, so each word's query, key and value are its embedding:

```
Q1 (query for word 1) = [0.5, 1.0, 0.0]
K1 (key for word 1) = [0.5, 1.0, 0.0]
K2 (key for word 2) = [1.0, 0.2, 0.4]
K3 (key for word 3) = [0.0, 0.6, 0.9]

V1 (value for word 1) = [0.5, 1.0, 0.0]
V2 (value for word 2) = [1.0, 0.2, 0.4]
V3 (value for word 3) = [0.0, 0.6, 0.9]
```

Scores are the dot products of Q1 with each key (no scaling here):

```
Before softmax: [1.25, 0.70, 0.60]
After softmax: [0.48, 0.27, 0.25]
```

```
Output1 = 0.48 * V1 + 0.27 * V2 + 0.25 * V3
        = [0.51, 0.68, 0.33]
```
"""


def test_the_vectors_are_the_start_and_the_page_holds():
    r = check_document(PAGE, fmt="md")
    assert not r.errors, [f.describe() for f in r.errors]
    assert "q_i vectors" in r.configuration.get("mode", ""), r.configuration
    assert r.n_numbers >= 9, r.n_numbers          # scores, weights, output


@pytest.mark.parametrize("good, bad, line", [("[1.25, 0.70, 0.60]", "[1.25, 0.70, 0.66]", 19),
                                             ("[0.51, 0.68, 0.33]", "[0.51, 0.66, 0.33]", 25)])
def test_slips_are_found(good, bad, line):
    r = check_document(PAGE.replace(good, bad), fmt="md")
    assert line in [f.line for f in r.errors], [f.describe() for f in r.findings]


def test_before_softmax_names_the_scores():
    from mha.check.labels import parse_label
    assert parse_label("Before softmax").nodes == ("QKt", "S")
    assert parse_label("After softmax").nodes == ("A",)
    assert parse_label("K2 (key for word 2)").raw_head == 2      # the index kept (a token's, said by the words)
