"""Seq2seq attention in its own notation: encoder states written one per token (`h_1`, `h_2`, `h_3`), a decoder state
`s_t`, the scores as dot products stated by name (`s_t · h_2 = 0.44`), a softmax and a context vector `c_t`.

No name says query, key or value (labels.py reads h_i as a head's output and s as the scores' letter), so a public
slide deck in this notation was "not inferred" and none of its numbers checked.  Now the states assemble into the
keys (and values) of the decoder state, and each named dot product is judged against the vectors its names were
last given."""

import pytest

from mha.check import check_document

SLIDE = r"""# One decoding step

Encoder states: $h_1 = [0.5, 0]$, $h_2 = [0.2, 0.8]$, $h_3 = [0, 1]$.

Decoder state: $s_t = [0.6, 0.4]$.

Scores: $s_t \cdot h_1 = 0.3$, $s_t \cdot h_2 = 0.44$, $s_t \cdot h_3 = 0.4$.

Softmax: $[0.31, 0.35, 0.34]$.

Context: $c_t = 0.31 h_1 + 0.35 h_2 + 0.34 h_3 = [0.22, 0.62]$.
"""


def test_the_decoding_step_checks_clean_from_the_states():
    r = check_document(SLIDE, fmt="md")
    assert not r.errors, [f.describe() for f in r.errors]
    assert "one query against its keys" in r.configuration["mode"], r.configuration
    assert r.n_numbers >= 8, r.n_numbers


@pytest.mark.parametrize("old, new, line", [
    (r"s_t \cdot h_2 = 0.44", r"s_t \cdot h_2 = 0.46", 7),     # a dot product stated by name
    ("[0.31, 0.35, 0.34]", "[0.31, 0.37, 0.34]", 9),           # a weight
    ("= [0.22, 0.62]", "= [0.22, 0.64]", 11),                   # the context vector
])
def test_a_slip_is_found_on_its_line(old, new, line):
    assert old in SLIDE
    r = check_document(SLIDE.replace(old, new), fmt="md")
    assert [f.line for f in r.errors] == [line], [f.describe() for f in r.findings]


def test_a_name_bound_to_another_vector_is_not_judged_with_it():
    """`s_t · h_4` names a state never printed: no claim; the printed states stay the keys."""
    r = check_document(SLIDE.replace(r"$s_t \cdot h_3 = 0.4$", r"$s_t \cdot h_4 = 0.9$"), fmt="md")
    assert not r.errors, [f.describe() for f in r.errors]


README = """# Dot-product attention in NumPy

```python
encoder_outputs = np.array([[0.3, 0.6], [0.8, 0.2]])
decoder_hidden_state = np.array([0.5, 0.5])
```

Expected output:

```
Alignment scores:
[0.45 0.5 ]
Attention weights:
[0.4875026 0.5124974]
Context vector:
[{c1} {c2}]
```
"""


def test_a_context_vector_a_little_off_its_weights_is_found():
    """A printed context vector from another run, off in both entries by less than a hundredth: it is the context
    vector (its name, and its printed inputs within a hundredth), printed wrong; it was "not checked" as matching
    nothing of its name.  Right, it checks clean; far off (another quantity), it stays not checked."""
    r = check_document(README.format(c1="0.5562487", c2="0.39500104"), fmt="md")
    assert not r.errors and "one query against its keys" in r.configuration["mode"], \
        [f.describe() for f in r.findings] + [r.configuration["mode"]]
    r = check_document(README.format(c1="0.5558387", c2="0.39521613"), fmt="md")
    assert {f.line for f in r.errors} == {16}, [f.describe() for f in r.findings]
    r = check_document(README.format(c1="0.2", c2="0.9"), fmt="md")
    assert not r.errors, [f.describe() for f in r.errors]


def test_a_name_given_a_new_value_is_not_the_vector_printed_before():
    """An interactive page prints q and k as vectors, then a slider sets `Q = 3`, `K = 4` and shows
    `s = Q·K = 12`: the names now hold numbers, and the product is not judged with the old vectors."""
    page = ("# Gradients\n\n$Q = [0.5, 0.2]$, $K = [0.4, 0.7]$, $Q \\cdot K = 0.34$.\n\n"
            "Try it: Query Q = 3, Key K = 4.\n\nscore s = Q·K = 12\n")
    r = check_document(page, fmt="md")
    assert not r.errors, [f.describe() for f in r.errors]
    r = check_document(page.replace("= 0.34", "= 0.43"), fmt="md")
    assert [f.line for f in r.errors] == [3], [f.describe() for f in r.findings]


STEPS = """# A decoding step, line by line

Encoder states:
h₁ = [0.9, 0.2]
h₂ = [0.3, 0.7]

Decoder state: s_t = [0.8, 0.4]

e₁ = s_t · h₁ = 0.72 + 0.08 = 0.80
e₂ = s_t · h₂ = 0.24 + 0.28 = 0.52

exp(0.80) = 2.226, exp(0.52) = 1.682, sum = 3.908

α₁ = 2.226 / 3.908 = 0.57
α₂ = 1.682 / 3.908 = 0.43

c_t = 0.57 × [0.9, 0.2] + 0.43 × [0.3, 0.7] = [{c}, 0.415]
"""


def test_a_slip_in_the_only_printed_vector_after_the_states_is_found():
    """The context vector is the one vector the start computes; the scores and weights are scalars named by their
    entry (e₁, α₂).  A slip in the context vector left the start computing nothing, and nothing was inferred; the
    named scalars now count as what it computes."""
    r = check_document(STEPS.format(c="0.642"), fmt="md")
    assert not r.errors and "one query against its keys" in r.configuration["mode"], \
        [f.describe() for f in r.findings] + [r.configuration["mode"]]
    r = check_document(STEPS.format(c="0.652"), fmt="md")
    assert [(f.line, f.printed) for f in r.errors] == [(17, "0.652")], [f.describe() for f in r.findings]
