"""A notebook prints `wei[0]` (or `display(W[0])`) a cell after `wei = F.softmax(wei, dim=-1)` (outside trial
t265d, two course notebooks): the printout's own name says nothing of weights, so its rows were not held to sum to 1,
and a row off by 0.05 went unfound while the configuration matched nothing.  The code that last gave the printed
name its value says it: a softmax over the last axis, so each row of the printout sums to 1.  My own numbers."""

from check_helpers import code_notebook, error_findings

_SETUP = ("tril = torch.tril(torch.ones(4, 4))\n"
          "wei = torch.randn(1, 4, 4)\n"
          "wei = wei.masked_fill(tril == 0, float('-inf'))\n"
          "wei = F.softmax(wei, dim=-1)")

_PRINTED = ("tensor([[1.0000, 0.0000, 0.0000, 0.0000],\n"
            "        [0.3000, 0.7000, 0.0000, 0.0000],\n"
            "        [0.2000, {x}, 0.3000, 0.0000],\n"
            "        [0.1000, 0.2000, 0.3000, 0.4000]])")


def _notebook(x: str, name: str = "wei") -> str:
    setup = _SETUP.replace("wei", name)
    return code_notebook([(setup, None), (f"{name}[0]", _PRINTED.format(x=x))])


def test_rows_that_sum_to_one_hold():
    assert error_findings(_notebook("0.5000"), "ipynb") == []


def test_a_row_that_does_not_sum_to_one_is_found():
    found = error_findings(_notebook("0.5500"), "ipynb")
    assert [(f.cell, f.line) for f in found] == [(2, 3)]
    assert found[0].printed.endswith("= 1.05")


def test_a_name_that_was_last_given_something_else_is_not_held_to_it():
    nb = code_notebook([(_SETUP + "\nwei = wei * 2", None), ("wei[0]", _PRINTED.format(x="0.5500"))])
    assert error_findings(nb, "ipynb") == []
