"""A lesson kept as HTML inside a script's template string (`export const lesson = \\`<h2>…</h2><table>…\\``), as
some static sites keep their pages in .js files.  Read as plain text, its tags hid the numbers and nothing was
checked (t206e, a Chinese page of a JavaScript site); read as the HTML it holds, its worked scores are."""

from check_helpers import error_places, line_of
from mha.check.readers import sniff

LESSON = """// One query against three keys, worked by hand.
export const lesson = `
<h2>Scores of the first token</h2>
<p>The query of the first token is q = [1.0, 0.5]; the keys are k1 = [1.0, 0.0], k2 = [0.0, 1.0] and
k3 = [1.0, 1.0].</p>
<table>
<tr><th>key</th><th>dot product</th></tr>
<tr><td>k1</td><td>1.0×1.0 + 0.5×0.0 = 1.0</td></tr>
<tr><td>k2</td><td>1.0×0.0 + 0.5×1.0 = {s2}</td></tr>
<tr><td>k3</td><td>1.0×1.0 + 0.5×1.0 = 1.5</td></tr>
</table>
<p>The largest score goes to the third key.</p>
`;
"""


def test_a_script_holding_html_is_read_as_html():
    assert sniff(LESSON, "lesson.js") == "html"
    assert sniff("const A = [[0.5, 0.5], [0.2, 0.8]];\n", "data.js") != "html"


def test_a_slip_in_its_worked_scores_is_found():
    assert error_places(LESSON.format(s2="0.5"), fmt=sniff(LESSON, "lesson.js")) == []
    text = LESSON.format(s2="0.6")
    assert error_places(text, fmt=sniff(text, "lesson.js")) == [(line_of(text, "= 0.6"), "0.6")]
