r"""A display whose backslashes were lost when it was pasted from a chat answer: `\[` and `\]` on lines of their own
show as `[` and `]` (t214c, a Bengali walkthrough of softmax and its gradient).  The page was refused as holding
only inputs; a `[` ... `]` pair on lines of their own around TeX is now read as the display it was.  A bracket list
written down the page (numbers only, no TeX) stays a list."""

from check_helpers import error_places, line_of

PAGE = r"""# Softmax, then its gradient

Exponentials:

[
S = 7.389 + 2.718 + 1 = 11.107
]

Probabilities:

[
p_1 = \frac{7.389}{11.107} = P1
]
[
p_2 = \frac{2.718}{11.107} = 0.245
]

Gradient for the true class 1:

[
\frac{\partial L}{\partial z_1} = 0.665 - 1 = -0.335
]
"""


def test_a_bare_display_is_read_and_holds():
    assert error_places(PAGE.replace("P1", "0.665")) == []


def test_a_slip_in_a_bare_display_is_found():
    text = PAGE.replace("P1", "0.656")
    assert error_places(text) == [(line_of(text, "= 0.656"), "0.656")]


def test_a_list_written_down_the_page_is_no_display():
    from mha.check.readers.markdown import _bare_displays
    listed = "Weights:\n\n[\n0.2,\n0.8\n]\n"
    assert _bare_displays(listed) == listed
