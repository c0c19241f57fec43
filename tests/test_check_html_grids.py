"""An HTML lesson that draws its weight matrices as CSS grids (a <div> laid out `grid-template-columns: repeat(2,
...)`, one child <div> per number, the title in a <div> above), and a table of embeddings whose highlighted row
ends with an arrow remark (`[1, 0, 1] ← our word`).

Both were unread on a public page written this way: the grids' numbers fell into the prose as a run of single
numbers, and the remark made its row's cell no vector, so the example had neither X nor weights and the wrong
entries of its Q and K tables (made up past the second column) went unreported."""

import pytest

from mha.check import check_document
from mha.check.readers.htmlgrid import find_grids, grid_columns

PAGE = """<!DOCTYPE html>
<html><head><style>
  .weights { display: flex; gap: 20px; }
  .grid2 { display: grid; grid-template-columns: repeat(2, 56px); gap: 4px; }
  .cell { padding: 4px; text-align: center; }
  .panels { display: grid; grid-template-columns: 1fr 1fr; }
</style></head>
<body>
<h1>Three words, one head</h1>
<p>The words and their embeddings:</p>
<table>
  <tr><th>#</th><th>Word</th><th>Embedding</th></tr>
  <tr><td>1</td><td>sun</td><td><b>[1, 0, 1] ← our word</b></td></tr>
  <tr><td>2</td><td>sets</td><td>[0, 2, 1]</td></tr>
  <tr><td>3</td><td>late</td><td>[1, 1, 0]</td></tr>
</table>
<h2>The weights (3×2 each)</h2>
<div class="weights">
  <div>
    <div class="title">W<sub>Q</sub> (query weights)</div>
    <div class="grid2">
      <div class="cell">1</div><div class="cell">0</div>
      <div class="cell">0</div><div class="cell">1</div>
      <div class="cell">1</div><div class="cell">1</div>
    </div>
  </div>
  <div>
    <div class="title">W<sub>K</sub> (key weights)</div>
    <div class="grid2">
      <div class="cell">0</div><div class="cell">1</div>
      <div class="cell">1</div><div class="cell">0</div>
      <div class="cell">1</div><div class="cell">1</div>
    </div>
  </div>
  <div>
    <div class="title">W<sub>V</sub> (value weights)</div>
    <div style="display:grid; grid-template-columns: 1fr 1fr">
      <span>1</span><span>1</span>
      <span>0</span><span>1</span>
      <span>1</span><span>0</span>
    </div>
  </div>
</div>
<div class="panels">
  <div><h3>Queries</h3>
    <table>
      <tr><th>Word</th><th>Q</th></tr>
      <tr><td>sun</td><td>[2, 1]</td></tr>
      <tr><td>sets</td><td>[1, 3]</td></tr>
      <tr><td>late</td><td>[1, 1]</td></tr>
    </table>
  </div>
  <div><h3>Keys</h3>
    <table>
      <tr><th>Word</th><th>K</th></tr>
      <tr><td>sun</td><td>[1, 2]</td></tr>
      <tr><td>sets</td><td>[3, 1]</td></tr>
      <tr><td>late</td><td>[1, 1]</td></tr>
    </table>
  </div>
</div>
<h2>Scaled scores, weights and output</h2>
<p>With d<sub>k</sub> = 2, the scaled scores of sun are [2.8284, 4.9497, 2.1213].</p>
<p>Their softmax: [0.1017, 0.8482, 0.0501].</p>
<p>The output for sun: [1.1017, 1.8983].</p>
</body></html>
"""


def test_the_style_sheet_says_how_many_columns():
    assert grid_columns(PAGE) == {"grid2": 2, "panels": 2}
    grids = find_grids(PAGE)
    # the two class grids and the inline one; the panels hold tables, not one number per child
    assert sorted(g.line for g in grids.values()) == [21, 29, 37]
    assert [[t for _, t in cells] for _, cells in grids[min(grids)].rows()] == [["1", "0"], ["0", "1"], ["1", "1"]]


def test_the_grids_are_the_weights_and_the_page_checks_clean():
    r = check_document(PAGE, fmt="html")
    assert not r.errors, [f.describe() for f in r.errors]
    assert r.configuration["mode"] == "X and weights", r.configuration
    for name, line in (("W_Q", 22), ("W_K", 30), ("W_V", 38)):
        assert f"{name} printed at line {line}" in r.configuration[name], r.configuration
    assert r.n_numbers >= 20, r.n_numbers


def test_the_tables_inside_a_layout_grid_are_still_read():
    """A grid whose children are panels (a heading and a table each) is no matrix: its tables read as before."""
    r = check_document(PAGE.replace("<td>[1, 3]</td>", "<td>[1, 4]</td>"), fmt="html")
    assert [(f.line, f.printed) for f in r.errors] == [(49, "4")], [f.describe() for f in r.findings]


@pytest.mark.parametrize("old, new, line", [
    ("<td>[3, 1]</td>", "<td>[3, 2]</td>", 57),                 # a key made up past its first entry
    ("[0.1017, 0.8482, 0.0501]", "[0.1017, 0.8428, 0.0501]", 64),
    ("[1.1017, 1.8983]", "[1.1017, 1.8938]", 65),
])
def test_a_slip_is_found_on_its_line(old, new, line):
    assert old in PAGE
    r = check_document(PAGE.replace(old, new), fmt="html")
    assert line in [f.line for f in r.errors], [f.describe() for f in r.findings]


def test_a_grid_that_does_not_fill_its_rows_is_no_matrix():
    """Seven numbers laid out two to a row fill no matrix: the grid is not taken for W_Q, and the example is not
    judged against a weight read from it."""
    page = PAGE.replace('<div class="cell">1</div><div class="cell">1</div>\n    </div>\n  </div>\n  <div>\n'
                        '    <div class="title">W<sub>K</sub>',
                        '<div class="cell">1</div><div class="cell">1</div><div class="cell">1</div>\n    </div>\n'
                        '  </div>\n  <div>\n    <div class="title">W<sub>K</sub>', 1)
    assert page != PAGE
    assert sorted(g.line for g in find_grids(page).values()) == [29, 37]
    r = check_document(page, fmt="html")
    assert not r.errors, [f.describe() for f in r.errors]
    assert "W_Q printed" not in r.configuration.get("W_Q", ""), r.configuration
