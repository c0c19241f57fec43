"""A memory size worked out in display math with its unit inside the math (t224c, a guide to multi-query
attention: `$$2 \\times 96 \\times 96 \\times 2048 \\times 128 \\times 2 = 19.2 \\text{ GB}$$`, which is 9.66 GB, and
`... = 200 \\text{ MB}` for 100.7 MB).  `19.2 GB` was read as a label, so the product was never compared with
anything.  A number with a unit of size or work after it is the result (readers/statements.py `_with_unit`),
judged in that unit; a size is an estimate, so one within a few percent of the product holds (100 MB for
100,663,296 bytes).  My own model sizes."""

import pytest

from check_helpers import error_places

LINE = "The cache of one sequence:\n\n$$2 \\times 24 \\times 16 \\times 4096 \\times 64 \\times 2 = {v} \\text{{ {unit} }}$$\n"
BYTES = 2 * 24 * 16 * 4096 * 64 * 2            # 402,653,184


def test_the_product():
    assert BYTES == 402_653_184 and round(BYTES / 1e6, 1) == 402.7 and BYTES / 2 ** 20 == 384


@pytest.mark.parametrize("v, unit", [("402.7", "MB"), ("403", "MB"), ("400", "MB"), ("384", "MiB"), ("0.4", "GB")])
def test_a_right_size_holds(v, unit):
    assert error_places(LINE.format(v=v, unit=unit)) == []


@pytest.mark.parametrize("v, unit", [("805.3", "MB"), ("201", "MB"), ("4.0", "GB")])
def test_a_wrong_size_is_found(v, unit):
    assert error_places(LINE.format(v=v, unit=unit)) == [(3, v)]
