"""Readings a careful reader allows before a verdict (claims/conventions.py), and the contract's "an object that
mostly disagrees was misidentified" for a vector written as a sum of vectors (claims/vector.py)."""

from mha.check import check_document
from mha.check import numbers as nb
from mha.check.claims.conventions import concatenated_shapes, spread_reading
from mha.check.numbers import Num

SUMS = """# Gates

```
r = [0.5, 0.2, 0.4]
p = [0.3, 0.6, 0.1]
u = [0.5, 0.2, 0.4] + [0.3, 0.6, 0.1] = [0.8, 0.8, 0.5]
g * h = [0.5, 0.2, 0.4] + [0.3, 0.6, 0.1] = [0.15, 0.12, 0.04]
```
"""


def _vec(*xs):
    return nb.Vec(tuple(Num.parse(str(x)) for x in xs))


def _cells(*xs):
    return [Num.parse(str(x)) for x in xs]


def test_a_vector_sum_whose_entries_mostly_disagree_is_one_not_checked_line():
    r = check_document(SUMS, fmt="md")
    assert not r.errors, [f.describe() for f in r.errors]
    lines = [n for n in r.not_checked if n.line == 7 and "not the sum of its terms" in n.reason]
    assert len(lines) == 1, [n.reason for n in r.not_checked]


def test_one_slip_in_a_vector_sum_is_still_found():
    r = check_document(SUMS.replace("= [0.8, 0.8, 0.5]", "= [0.8, 0.3, 0.5]"), fmt="md")
    assert [(f.line, f.printed) for f in r.errors] == [(6, "0.3")], [f.describe() for f in r.errors]


def test_shapes_side_by_side_are_a_concatenation():
    assert concatenated_shapes(nb.Op("+", (_vec(5, 8), _vec(5, 8))), _cells(5, 16))
    assert concatenated_shapes(nb.Op("+", (_vec(2, 3, 4), _vec(2, 3, 4))), _cells(2, 3, 8))
    assert not concatenated_shapes(nb.Op("+", (_vec(5, 8), _vec(5, 8))), _cells(5, 17))      # no axis adds up
    assert not concatenated_shapes(nb.Op("+", (_vec(5, 8), _vec(4, 8))), _cells(5, 16))      # another size differs
    assert not concatenated_shapes(nb.Op("+", (_vec(0.5, 8), _vec(0.5, 8))), _cells(0.5, 16))  # not sizes


def _spread(values, mean, n, root="outside"):
    total = nb.Op("+", tuple(nb.Op("pow", (nb.Op("+", (nb.Lit(Num.parse(str(v))), nb.Op("neg", (nb.Lit(
        Num.parse(str(mean))),)))), nb.Lit(Num.parse("2")))) for v in values))
    div = lambda top: nb.Op("/", (top, nb.Lit(Num.parse(str(n)))))  # noqa: E731
    return {"outside": div(nb.Op("sqrt", (total,))), "inside": nb.Op("sqrt", (div(total),)), "none": div(total)}[root]


def test_a_spread_is_population_or_sample_and_nothing_else():
    e = _spread([3, 5, 7, 9], 6, 4)
    assert "sample standard deviation" in spread_reading(e, Num.parse("2.58"))[0]
    assert "population standard deviation" in spread_reading(e, Num.parse("2.24"))[0]
    assert spread_reading(e, Num.parse("2.85")) is None
    assert "sample variance" in spread_reading(_spread([3, 5, 7, 9], 6, 4, "none"), Num.parse("6.67"))[0]
    assert spread_reading(_spread([3, 5, 7, 9], 6, 3, "inside"), Num.parse("2.58")) is None   # 4 terms over 3


def test_sizes_after_the_word_shape_are_no_matrix():
    """"an output matrix of shape `[4, 4]`" in prose: sizes, never an input such as W_O (readers/statements.py)."""
    from pathlib import Path
    text = (Path(__file__).resolve().parent / "check_clean" / "md_norm_aside_and_head_shapes.md").read_text("utf-8")
    r = check_document(text, fmt="md")
    assert r.configuration["W_O"].startswith("no W_O"), r.configuration["W_O"]
    assert not any(n.line == 28 for n in r.not_checked), [n.what for n in r.not_checked]


def test_a_divisor_too_large_for_a_count_is_no_spread_and_raises_nothing():
    # a damaged document (benchmarks/check_fuzz_field.py) divided a sum of squares by 1e400: OverflowError before
    assert spread_reading(_spread([3, 5, 7, 9], 6, "1e400", "none"), Num.parse("5")) is None
    r = check_document("v = ((3-6)² + (5-6)² + (7-6)² + (9-6)²)/1e400 = 5\n", fmt="txt")
    assert [f.exact for f in r.errors] == [0.0]        # the line is still judged as arithmetic: 20/1e400 is 0
