"""A size worked in a notebook's Markdown cell with its unit after the formula (an outside trial's notebook on
attention variants, t260b): `$2 \\times 32 \\times 4096 \\times 128 = 32$ MiB per layer`.  The unit after a result
was looked for only in a file's own lines, never in a notebook cell's, so 32 was judged as a count of 33,554,432
and called a slip, where a Markdown page with the same line holds.  A cell's lines are read for the unit as a
file's are.  My own numbers: K and V, 32 heads of 128, 4096 tokens."""

import json

from check_helpers import error_findings


def notebook(size: str) -> str:
    md = {"cell_type": "markdown", "metadata": {},
          "source": "## KV cache per layer\n\n"
                    f"- One layer keeps $2 \\times 32 \\times 4096 \\times 128 = {size}$ MiB of values.\n"}
    code = {"cell_type": "code", "execution_count": 1, "metadata": {}, "source": "cache = 2 * 32 * 4096 * 128",
            "outputs": []}
    return json.dumps({"cells": [md, code], "metadata": {}, "nbformat": 4, "nbformat_minor": 5})


def test_a_size_in_a_unit_in_a_notebook_cell_holds():
    assert error_findings(notebook("32"), "ipynb") == []


def test_a_wrong_size_in_a_notebook_cell_is_found():
    found = error_findings(notebook("48"), "ipynb")
    assert [(f.cell, f.line, f.printed) for f in found] == [(1, 3, "48")]
