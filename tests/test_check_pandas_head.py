"""Q and K printed as pandas tables through `.head()` (t153c, a notebook: `print(query_df.head())`).  The call's name
read as "head", so both were taken for a head's output and the chain started at the printed scores: a slip in the
raw scores was then blamed on the right scaled score after them (a false finding in a planted-slip run).  A table
shown by `.head()` or `.tail()` is the table it names (labels.parse_label).
"""

import nbformat

from mha.check import check_document
from mha.check.labels import parse_label

Q_TABLE = """Query matrix:
             Dim 1     Dim 2     Dim 3
red     0.200000  0.700000  0.100000
fox     0.900000  0.300000  0.500000
ran     0.400000  0.400000  0.800000
"""
K_TABLE = """Key matrix:
             Dim 1     Dim 2     Dim 3
red     0.600000  0.100000  0.300000
fox     0.200000  0.800000  0.400000
ran     0.500000  0.500000  0.900000
"""
SCORES = """               red       fox       ran
red     0.220000  0.640000  0.540000
fox     0.720000  {s}  1.050000
ran     0.520000  0.720000  1.120000
"""
SCALED = """               red       fox       ran
red     0.127017  0.369504  0.311769
fox     0.415692  0.357957  0.606218
ran     0.300222  0.415692  0.646632
"""


def _cell(code: str, out: str):
    c = nbformat.v4.new_code_cell(code)
    c.outputs = [nbformat.v4.new_output("stream", name="stdout", text=out)]
    return c


def _notebook(s: str) -> str:
    nb = nbformat.v4.new_notebook()
    nb.cells = [nbformat.v4.new_markdown_cell("# Scores of three words"),
                _cell('print("Query matrix:")\nprint(query_df.head())', Q_TABLE),
                _cell('print("Key matrix:")\nprint(key_df.head())', K_TABLE),
                _cell("scores = query_df.values @ key_df.values.T\nprint(pd.DataFrame(scores, index=words, "
                      "columns=words))", SCORES.format(s=s)),
                _cell("scaled = scores / np.sqrt(3)\nprint(pd.DataFrame(scaled, index=words, columns=words))", SCALED)]
    return nbformat.writes(nb)


def test_head_of_a_table_names_the_table():
    assert parse_label("query_df.head()").nodes == ("Q",)
    assert parse_label("key_df.head(4)").nodes == ("K",)


def test_a_slip_in_the_raw_scores_is_found_on_their_line():
    assert not check_document(_notebook("0.620000"), fmt="ipynb").findings
    r = check_document(_notebook("0.630000"), fmt="ipynb")
    assert [(f.cell, f.printed) for f in r.errors] == [(4, "0.630000")], [f.describe() for f in r.findings]
