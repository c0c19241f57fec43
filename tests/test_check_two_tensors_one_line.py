"""`print(c, a)` in a notebook: two one-row tensors on one output line, `tensor([...]) tensor([...])` (t150c, a
course's worked solution).  Only the first was read; the weights after it were silently dropped, so a slip in them
went unseen and nothing said they were not checked.  The line is now cut at the second tensor, and each takes its
name from the print (readers/sidebyside.printed_on_one_line).
"""

import nbformat

from mha.check import check_document

CODE = """import torch
h = torch.tensor([[1., 2., 3.], [1., 2., 1.], [0., 1., -1.]])
s = torch.tensor([1., 2., 1.])
a = torch.softmax(h @ s, dim=0)
c = a @ h
print(c, a)"""
OUT = "tensor([0.9992, 1.9992, 2.7586]) tensor([8.8009e-01, {w}, 8.0254e-04])\n"


def _notebook(w: str) -> str:
    nb = nbformat.v4.new_notebook()
    cell = nbformat.v4.new_code_cell(CODE)
    cell.outputs = [nbformat.v4.new_output("stream", name="stdout", text=OUT.format(w=w))]
    nb.cells = [nbformat.v4.new_markdown_cell("# Dot-product attention over three states"), cell]
    return nbformat.writes(nb)


def test_both_tensors_are_read_and_hold():
    r = check_document(_notebook("1.1911e-01"), fmt="ipynb")
    assert not r.findings and r.n_numbers == 6, ([f.describe() for f in r.findings], r.n_numbers)


def test_a_slip_in_the_second_tensor_is_found():
    r = check_document(_notebook("1.2911e-01"), fmt="ipynb")
    assert [f.printed for f in r.errors] == ["1.2911e-01"], [f.describe() for f in r.findings]
