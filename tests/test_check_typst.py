"""A worked example written in Typst (t2xx, a Typst lesson among the trials' misses): `= Heading`, math between `$`s,
`mat(a, b; c, d)` over several lines, `frac(.., ..)`, `sqrt(2)`, `"softmax"`, `approx`, comments, `#set` lines and a
`#table(columns: 3, [..], ..)`.  The page was read as plain text and nothing was checked; readers/typst.py now
writes it over into Markdown and LaTeX line for line, so each slip is found on the line it is on."""

import re

import pytest

from check_helpers import error_places, line_of
from mha.check import check_document
from mha.check.readers import sniff
from mha.check.readers.typst import math_to_tex, typst_to_markdown

PAGE = """#set page(width: 16cm)
#set text(lang: "en")

= Self-attention on three tokens

// identity projections, so Q = K = V = X
We take $W^Q = W^K = W^V = I$ and the input
$ X = mat(1, 0; 0, 2; 1, 1) $

== Scores

$ Q K^T = mat(
  1, 0, 1;
  0, 4, 2;
  1, 2, 2
) $

Each score is divided by $sqrt(d_k) = sqrt(2) approx 1.4142$:
$ frac(Q K^T, sqrt(2)) = mat(0.7071, 0, 0.7071; 0, 2.8284, 1.4142; 0.7071, 1.4142, 1.4142) $

== Weights

$ A = "softmax"(frac(Q K^T, sqrt(d_k))) = mat(
  0.4011, 0.1978, 0.4011;
  0.0454, 0.7679, 0.1867;
  0.1978, 0.4011, 0.4011
) $

== Output

$ O = A V = mat(0.8022, 0.7967; 0.2321, 1.7225; 0.5989, 1.2033) $
"""


def test_a_typst_file_is_read_as_typst():
    assert sniff(PAGE, "lesson.typ") == "typ"


def test_the_page_is_written_over_line_for_line():
    md = typst_to_markdown(PAGE)
    assert md.count("\n") == PAGE.count("\n")
    lines = md.split("\n")
    assert lines[3] == "# Self-attention on three tokens" and lines[9] == "## Scores"
    assert lines[0].strip() == "" and lines[5].strip() == ""         # #set and the comment blanked
    for k, line in enumerate(PAGE.split("\n")):                      # every number stays on its line
        assert re.findall(r"\d+\.\d+", line) == re.findall(r"\d+\.\d+", lines[k])


def test_math_becomes_latex():
    assert math_to_tex("mat(1, 2; 3, 4)") == r"\begin{pmatrix} 1 &  2 \\  3 &  4 \end{pmatrix}"
    assert math_to_tex('mat(delim: "[", 1, 2)') == r"\begin{bmatrix} 1 &  2 \end{bmatrix}"
    assert math_to_tex("vec(1, 2)") == r"\begin{pmatrix} 1 \\  2 \end{pmatrix}"
    assert math_to_tex("frac(Q K^T, sqrt(d_k))") == r"\frac{Q K^T}{ \sqrt{d_k}}"
    assert math_to_tex("e^(0.5) approx 1.65") == r"e^{0.5} \approx  1.65"
    assert math_to_tex('"softmax"(x)') == r"\text{softmax}(x)"
    assert math_to_tex("(0.40, thin 0.20)").split() == ["(0.40,", "0.20)"]      # spacing words (t213a)


def test_a_right_typst_page_is_clean_and_checked():
    report = check_document(PAGE, fmt="typ")
    assert [f for f in report.findings if f.severity == "error"] == []
    assert report.n_numbers >= 40


@pytest.mark.parametrize("right,slipped", [("2.8284", "2.8248"), ("0.7679", "0.7697"), ("1.7225", "1.7252")])
def test_each_slip_is_found_on_its_line(right, slipped):
    text = PAGE.replace(right, slipped, 1)
    assert error_places(text, fmt="typ") == [(line_of(text, slipped), slipped)]


TABLE = """= Weights as a table

$ X = mat(1, 0; 0, 2; 1, 1) $, $W^Q = W^K = W^V = I$ and $d_k = 2$.

The weights $A = "softmax"(frac(Q K^T, sqrt(2)))$, a row per query:

#table(
  columns: 4,
  [query], [key 1], [key 2], [key 3],
  [1], [0.4011], [0.1978], [0.4011],
  [2], [0.0454], [{a22}], [0.1867],
  [3], [0.1978], [0.4011], [0.4011],
)
"""


def test_a_table_is_read_as_a_table():
    md = typst_to_markdown(TABLE.format(a22="0.7679"))
    assert md.count("\n") == TABLE.count("\n")
    assert md.split("\n")[10] == "| 2 | 0.0454 | 0.7679 | 0.1867 |"
    assert error_places(TABLE.format(a22="0.7679"), fmt="typ") == []
    text = TABLE.format(a22="0.7697")
    assert error_places(text, fmt="typ") == [(line_of(text, "0.7697"), "0.7697")]
