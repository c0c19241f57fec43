"""Ratios written side by side, `Ratio 2:1 / 4:1 / 8:1` (query heads per key/value head), or times `10:30 /
11:45`: the colon is no equals sign and the slash no division.  The page is this project's own."""

from check_helpers import error_lines

PAGE = """# Grouped-query attention

```
   MHA                  GQA                       MQA
Ratio 1:1 (all kept)   Ratio 2:1 / 4:1 / 8:1     Ratio 8:1 (one K, one V)
```

Sessions at 10:30 / 11:45 go through the example.

q = [1, 1], k_1 = [1, 0], k_2 = [0, 1], d_k = 2.

Scores: q·k_1 = 1, q·k_2 = 1; scaled: 1 / 1.4142 = SCALED
"""


def test_ratios_and_times_side_by_side_are_no_arithmetic():
    assert error_lines(PAGE.replace("SCALED", "0.7071")) == {}


def test_a_slip_in_the_arithmetic_beside_them_is_found():
    found = error_lines(PAGE.replace("SCALED", "0.7171"))
    assert list(found) == [12] and [f.printed for f in found[12]] == ["0.7171"]
