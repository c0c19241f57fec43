"""Two indices written as Unicode subscripts, parted by a comma or run together (`A₁,₂ = 0.94`, `α₁₂`), name one
entry, as `A_{1,2}` and `\\alpha_{12}` do (an outside trial's soft-lookup page, t256c: `A₁,₁` named the whole of A,
and `α₁,₂` row 1 alone).  One subscript index stays a row (`q₁`)."""

from mha.check.labels import parse_label


def _entry(label):
    r = parse_label(label)
    return r.nodes, r.raw_row, r.raw_col


def test_a_pair_of_subscripts_names_one_entry_as_the_braced_form_does():
    for label in ("A₁,₂", "A₁₂", "α₁,₂", "a₁₂"):
        assert _entry(label) == _entry("A_{1,2}") == (("A",), 1, 2), label


def test_one_subscript_is_a_row():
    assert _entry("q₁") == (("Q",), 1, None)
    assert _entry("k₃") == (("K",), 3, None)
