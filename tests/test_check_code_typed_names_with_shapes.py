"""A programming challenge's example block (outside trial t264d, three HTML pages of one repository): each matrix
sits under its name set in code type with its shape, `<code>Q</code> (2×3):` (or `` `Q` (2×3): `` in Markdown),
then a display `\\begin{bmatrix}`.  The names were not read (only a bare `Q:` was), so Q, K and V were matched by
value, the output was "unlabelled", and a slip in it turned the configuration into a guessed X that judged nothing.
A name in code type or math with the block's shape after it names the block, a word (`output`) too.  My own
numbers: Q, K, V below, scale 1/√3, no mask."""

import pytest

from check_helpers import error_findings

_MD = """## Example

Input:

`Q` (2×3):
\\[
\\begin{bmatrix}
1.0 & 0.0 & 1.0 \\\\
0.0 & 2.0 & 0.0
\\end{bmatrix}
\\]
`K` (3×3):
\\[
\\begin{bmatrix}
1.0 & 1.0 & 0.0 \\\\
0.0 & 1.0 & 1.0 \\\\
1.0 & 0.0 & 0.0
\\end{bmatrix}
\\]
`V` (3×3):
\\[
\\begin{bmatrix}
2.0 & 0.0 & 1.0 \\\\
0.0 & 4.0 & 2.0 \\\\
1.0 & 1.0 & 0.0
\\end{bmatrix}
\\]

Output:

`output` (2×3):
\\[
\\begin{bmatrix}
1.00 & 1.67 & 1.00 \\\\
1.00 & {y} & 1.30
\\end{bmatrix}
\\]
"""


def _html(md: str) -> str:
    out = []
    for line in md.split("\n"):
        if line.startswith("`") and line.endswith(":"):
            name, rest = line[1:].split("`", 1)
            line = f"<code>{name}</code>{rest}"
        elif line.endswith(":"):
            line = f"<p><strong>{line}</strong><br>"
        elif line.startswith("## "):
            line = f"<h2>{line[3:]}</h2>"
        out.append(line)
    return "\n".join(out)


@pytest.mark.parametrize("fmt", ["md", "html"])
def test_the_example_holds(fmt):
    page = _MD.replace("{y}", "1.86")
    assert error_findings(page if fmt == "md" else _html(page), fmt) == []


@pytest.mark.parametrize("fmt", ["md", "html"])
def test_a_slip_in_the_output_is_found(fmt):
    page = _MD.replace("{y}", "1.36")
    found = error_findings(page if fmt == "md" else _html(page), fmt)
    assert [(f.line, f.printed) for f in found] == [(35, "1.36")]
