"""A worked example written twice on one page, each copy with a different slip of its own arithmetic: the first
copy gives q_2·k_2 = [0, 1]·[0, 1] = 0 (it is 1), the second gives q_2·k_1 = [0, 1]·[1, 0] = 1 (it is 0).  The
numbers are the first slip's swapped, so the second was taken for a copy holding the value the first should
have, and excused with a note; its own written product says otherwise, and it is an error of its own (t206c)."""

from check_helpers import error_places, line_of

COPY = """
The queries, keys and values are the token vectors themselves:

$$Q = K = V = X = [[1, 0], [0, 1]]$$

The unscaled scores, one product at a time:

$$q_1 \\cdot k_1 = [1, 0] \\cdot [1, 0] = 1$$
$$q_1 \\cdot k_2 = [1, 0] \\cdot [0, 1] = 0$$
$$q_2 \\cdot k_1 = [0, 1] \\cdot [1, 0] = {s21}$$
$$q_2 \\cdot k_2 = [0, 1] \\cdot [0, 1] = {s22}$$
"""


def page(first=(0, 1), second=(0, 1)) -> str:
    return ("# Two tokens, one-hot\n\nA two-word vocabulary, X = [[1, 0], [0, 1]].\n"
            + COPY.format(s21=first[0], s22=first[1])
            + "\n## The same example once more, for the sentence \"you read\"\n"
            + COPY.format(s21=second[0], s22=second[1]))


def test_each_copy_slipped_on_its_own_is_an_error_on_its_own_line():
    text = page(first=(0, 0), second=(1, 1))
    lines = text.splitlines()
    first = line_of(text, "q_2 \\cdot k_2")
    second = next(i for i, ln in enumerate(lines, start=1) if "q_2 \\cdot k_1" in ln and i > first)
    assert error_places(text) == [(first, "0"), (second, "1")]


def test_the_clean_page_has_no_finding():
    assert error_places(page()) == []
