"""One query's vectors in a table whose rows name their role (| Query (Q) | [0.5, 1] |, | Key (K) - tea | [1, 0] |),
and its scores and weights listed one per item under a caption that names them ("Weights after the softmax:" over
"- tea: 0.452"): the table gives Q, K and V, the lists give one row each, and a slip in a listed weight is found on
its line."""

import numpy as np
import pytest

from mha.check import check_document
from mha.check.readers import read_document
from mha.check.readers.listed import caption_quantity

Q = np.array([0.5, 1.0])
K = np.array([[1.0, 0.0], [0.0, 1.0], [1.0, 1.0]])
V = np.array([[2.0, 0.0], [0.0, 2.0], [1.0, 1.0]])
_s = K @ Q
_w = np.exp(_s) / np.exp(_s).sum()
_y = _w @ V


def _doc(caption="Weights after the softmax:", weights=None, lang="en"):
    w = weights or [f"{x:.3f}" for x in _w]
    role = ("Query (Q)", "Key (K)", "Value (V)") if lang == "en" else ("쿼리 (Q)", "키 (K)", "값 (V)")
    names = ("tea", "juice", "soda")
    rows = [f"| {role[0]} | the next order | [0.5, 1] |"]
    rows += [f"| {role[1]} - {n} | a past order | [{k[0]:g}, {k[1]:g}] |" for n, k in zip(names, K)]
    rows += [f"| {role[2]} - {n} | what it carries | [{v[0]:g}, {v[1]:g}] |" for n, v in zip(names, V)]
    scores = "\n".join(f"- {n}: 0.5×{k[0]:g} + 1×{k[1]:g} = {s:g}" for n, k, s in zip(names, K, _s))
    listed = "\n".join(f"- {n}: {x}" for n, x in zip(names, w))
    return f"""# Guessing the next drink

| role | what | vector |
|---|---|---|
{chr(10).join(rows)}

Dot products of the query with each key:

{scores}

{caption}

{listed}

Output = [{_y[0]:.3f}, {_y[1]:.3f}]
"""


def test_role_rows_and_listed_weights_are_checked_and_hold():
    r = check_document(_doc(), fmt="md")
    assert not r.errors, [f.describe() for f in r.errors]
    assert "starts from Q, K, V given" in r.configuration["mode"]
    assert "unscaled" in r.configuration["scale"] or "none" in r.configuration["scale"]
    assert r.n_numbers >= 10


def test_a_slip_in_a_listed_weight_is_found_on_its_line():
    w = [f"{x:.3f}" for x in _w]
    slipped = [w[0], w[1][:-2] + w[1][-1] + w[1][-2], w[2]]
    assert slipped[1] != w[1]
    text = _doc(weights=slipped)
    line = next(k + 1 for k, x in enumerate(text.split("\n")) if x == f"- juice: {slipped[1]}")
    r = check_document(text, fmt="md")
    assert [f.line for f in r.errors] == [line], [f.describe() for f in r.errors]


def test_korean_captions_and_roles_are_read_too():
    r = check_document(_doc(caption="소프트맥스 후 가중치:", lang="ko"), fmt="md")
    assert not r.errors and "starts from Q, K, V given" in r.configuration["mode"]
    w = [f"{x:.3f}" for x in _w]
    r = check_document(_doc(caption="소프트맥스 후 가중치:", lang="ko", weights=[w[0], "0.100", w[2]]), fmt="md")
    assert len(r.errors) == 1 and "0.100" in r.errors[0].describe()


@pytest.mark.parametrize("caption, named", [("Weights after the softmax:", True), ("Attention scores:", True),
                                            ("가중치:", True), ("Past orders:", False), ("Weights", False),
                                            ("The query is the row of weights for one token, as follows:", False)])
def test_only_a_short_caption_ending_in_a_colon_that_names_a_row_quantity_names_the_list(caption, named):
    assert (caption_quantity(caption) is not None) == named


def test_a_list_under_a_caption_naming_nothing_stays_unread():
    labels = [a.label for a in read_document(_doc(caption="Past orders:"), "md").arrays]
    assert "Past orders" not in labels and "Weights after the softmax" in [a.label for a in
                                                                          read_document(_doc(), "md").arrays]


TEXT_BLOCK = """# One query, drawn in a code block

```
Scores (q · k):
  - "rain" → "cloud": 0.40
  - "rain" → "sun":   0.10
  - "rain" → "rain":  0.25

After softmax:
  - "rain" → "cloud": WEIGHT
  - "rain" → "sun":   0.28
  - "rain" → "rain":  0.33
```
"""


def test_rows_listed_in_a_code_block_are_a_softmax_pair():
    assert not check_document(TEXT_BLOCK.replace("WEIGHT", "0.38"), fmt="md").errors
    r = check_document(TEXT_BLOCK.replace("WEIGHT", "0.45"), fmt="md")
    assert [f.line for f in r.errors] == [10], [f.describe() for f in r.errors]


@pytest.mark.parametrize("word, nodes", [("어텐션", ("A",)), ("어텐션 가중치", ("A",)), ("문맥 벡터", ("O", "O_concat")),
                                         ("점수", ("QKt", "S")), ("출력", ("Y", "O_concat", "O"))])
def test_korean_words_for_the_steps(word, nodes):
    from mha.check import labels as lb
    assert lb.parse_label(word).nodes == nodes
