"""A weighted sum worked down a Markdown list, each item going on with the one above (`- o = 0.25 * [2, 4] + 0.75 *
[4, 0]`, `- = [0.5, 1] + [3, 0]`, `- = [3.5, 1]`): the items are one derivation, so a slip in a term or in the
total is found on its own line, and items that are not the next step of an equation stay items."""

import pytest

from mha.check import check_document
from mha.check.readers.markdown import _continued_items

DERIVATION = """# One query, two tokens

Token values: v1 = [2, 4] and v2 = [4, 0]. The query scores 0 against k1 and 1.0986 against k2.

**Softmax.** exp(0) = 1 and exp(1.0986) = 3.0000, so the sum is 4.0000.

- weight of token 1: 1 / 4 = 0.25
- weight of token 2: 3 / 4 = 0.75

**Weighted sum:**

- o = 0.25 * [2, 4] + 0.75 * [4, 0]
- = [0.5, 1.0] + [3.0, 0.0]
- = [3.5, 1.0]

So the output leans toward token 2.
"""


def test_a_clean_bulleted_derivation_draws_no_error():
    r = check_document(DERIVATION, fmt="md")
    assert not r.errors, [f.describe() for f in r.errors]


@pytest.mark.parametrize("find, replace, line", [("[0.5, 1.0] + [3.0, 0.0]", "[0.5, 1.0] + [3.0, 0.5]", 13),
                                                 ("- = [3.5, 1.0]", "- = [3.5, 1.5]", 14),
                                                 ("[0.5, 1.0] +", "[0.5, 1.5] +", 13)])
def test_a_slip_in_a_term_or_the_total_is_found_on_its_line(find, replace, line):
    r = check_document(DERIVATION.replace(find, replace), fmt="md")
    assert [f.line for f in r.errors] == [line], [f.describe() for f in r.errors]


def test_only_items_after_an_equation_with_brackets_lose_their_bullet():
    text = "- o = 0.5 * [1, 2]\n- = [0.5, 1]\n\n- a plain item\n- = [1, 2]\n"
    out = _continued_items(text)
    assert len(out) == len(text)
    assert out.split("\n")[1] == "  = [0.5, 1]"        # the next step: its bullet is spaces
    assert out.split("\n")[4] == "- = [1, 2]"          # after an item with no equation: still an item
