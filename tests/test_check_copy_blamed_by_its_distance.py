r"""Scores printed twice, raw and after the causal mask, from Q and K printed to four decimals, with a slip in the
first copy (-0.8575 for -0.8557).  The page's own value is a unit off what the rounded Q and K give (-0.85564), so
neither copy held the configuration's value to its digits and the checker blamed the later, right copy as well
("nothing printed after them tells which copy is right"; an outside trial's slipped RoPE notes, t249a).  When
neither copy holds it, the copy a unit from the configuration's value is the page's and the one many units away
holds the slip.  My own numbers (random Q and K, seed 7)."""

from check_helpers import error_places, line_of


def _page(first="-0.8557"):
    return "\n".join([
        "## Masked scores", "",
        "```",
        "q = [[0.0012, 0.2987], [-0.2741, -0.8906], [-0.4547, -0.9916]]",
        "k = [[0.0601, 1.3402], [-0.4922, -0.6205], [0.4898, 0.3569]]",
        "",
        "raw scores (q @ k.T / sqrt(2)):",
        "  [ 0.2832, -0.1315,  0.0758]",
        f"  [{first},  0.4862, -0.3197]",
        "  [-0.9591,  0.5933, -0.4077]",
        "",
        "masked scores:",
        "  [ 0.2832,  -inf,    -inf ]",
        "  [-0.8557,  0.4862,  -inf ]",
        "  [-0.9591,  0.5933, -0.4077]",
        "```", ""])


def test_the_clean_copies_check_clean():
    assert error_places(_page()) == []


def test_the_slipped_copy_alone_is_blamed():
    page = _page(first="-0.8575")
    assert error_places(page) == [(line_of(page, "-0.8575"), "-0.8575")]



def _two_heads(first="0.9000"):
    # two heads' scores, their masked copy and the copy divided by √3, with no Q or K printed: no configuration
    # computes them, and the first rows' weights are 1 whatever their scores; only the scaled copy after both says
    # which of 0.9800 and 0.9000 is the page's
    head1 = [[first, "0.3000", "0.5000"], ["0.2000", "1.1000", "0.7000"], ["0.6000", "0.4000", "1.3000"]]
    head2 = [["0.5000", "0.8000", "0.1000"], ["1.0000", "0.3000", "0.6000"], ["0.7000", "0.9000", "0.2000"]]
    masked1 = [["0.9000", "-inf", "-inf"], ["0.2000", "1.1000", "-inf"], ["0.6000", "0.4000", "1.3000"]]
    masked2 = [["0.5000", "-inf", "-inf"], ["1.0000", "0.3000", "-inf"], ["0.7000", "0.9000", "0.2000"]]
    scaled1 = [["0.5196", "-inf", "-inf"], ["0.1155", "0.6351", "-inf"], ["0.3464", "0.2309", "0.7506"]]
    scaled2 = [["0.2887", "-inf", "-inf"], ["0.5774", "0.1732", "-inf"], ["0.4041", "0.5196", "0.1155"]]

    def tensor(a, b):
        rows = [", ".join(r) for r in a + b]
        return ["tensor([[[[" + rows[0] + "],", "          [" + rows[1] + "],", "          [" + rows[2] + "]],", "",
                "         [[" + rows[3] + "],", "          [" + rows[4] + "],", "          [" + rows[5] + "]]]])"]
    return "\n".join(["## Two heads' scores, three times", "", "```python", *tensor(head1, head2), "```", "",
                      "Masked:", "", "```python", *tensor(masked1, masked2), "```", "",
                      "Divided by `sqrt(head_dim) = sqrt(3)`:", "", "```python", *tensor(scaled1, scaled2), "```",
                      ""])


def test_a_scaled_printout_after_both_copies_tells_which_one_slipped():
    assert error_places(_two_heads()) == []
    page = _two_heads(first="0.9800")
    assert error_places(page) == [(line_of(page, "0.9800"), "0.9800")]
