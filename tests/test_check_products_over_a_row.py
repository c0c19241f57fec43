r"""A line of written dot products, `scores: [1,1]·[0,1] = 1 ; [1,1]·[1,1] = 2`, over a line that prints a row in
the same column, `softmax: [0.330, 0.670]` (an outside trial's design notes, t247a).  The brackets lined up, so the
lines were read as the rows of one matrix drawn down them: the products were cut into bare rows and the rest of the
line dropped, and the page's second example was judged against its first ("Q Kᵀ[1,1]: printed 1; exact 0").  A line
whose brackets are the factors of a product is no row of a drawn matrix.  My own numbers."""

from check_helpers import error_places, line_of

from mha.check import check_document


def _page(first="1", weights="[0.330, 0.670]"):
    return "\n".join([
        "Two blocks share one query m = [1,1]; only their first rows differ.", "",
        "```",
        "BLOCK A:  q = [1,1]",
        "  scores:  [1,1]·[1,0] = 1 ;  [1,1]·[1,1] = 2",
        "  scaled:  0.707, 1.414",
        "  softmax: [0.330, 0.670]",
        "  out_A = 0.330·[1,0] + 0.670·[1,1] = [1.000, 0.670]", "",
        "BLOCK B:  q = [1,1]",
        f"  scores:  [1,1]·[0,1] = {first} ;  [1,1]·[1,1] = 2      (same scores)",
        f"  softmax: {weights}                         (same weights)",
        "  values:  [0,1] , [1,1]                           (other values)",
        "  out_B = 0.330·[0,1] + 0.670·[1,1] = [0.670, 1.000]",
        "```", ""])


def test_products_over_a_row_are_read_as_products():
    report = check_document(_page(), fmt="md")
    assert [f for f in report.findings if f.severity == "error"] == []


def test_a_slip_in_a_written_product_is_found():
    page = _page(first="2")
    assert (line_of(page, "[1,1]·[0,1] = 2"), "2") in error_places(page, fmt="md")
