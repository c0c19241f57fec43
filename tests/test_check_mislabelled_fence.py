"""Python under a fence labelled with another language (```c), its printouts in `# tensor(...)` comments.

Outside trial t142b: a blog editor's default fence language hid the whole example ("nothing to check: the numbers
found are the inputs only").  A fence labelled c, cpp, java, js, ... whose text imports torch or numpy and parses
as Python is read as Python (readers/markdown.py).
"""

from mha.check import check_document

PAGE = """# 自注意力的代码

```c
import torch
x = torch.tensor([[1., 0.], [0., 1.], [1., 1.]])
scores = x @ x.T
print(scores)
# tensor([[1., 0., 1.],
#         [0., 1., 1.],
#         [1., 1., 2.]])
weights = torch.softmax(scores, dim=-1)
print(weights)
# tensor([[0.4223, 0.1554, 0.4223],
#         [0.1554, 0.4223, 0.4223],
#         [0.2119, 0.2119, 0.5761]])
```
"""


def test_the_mislabelled_code_is_read_and_holds():
    r = check_document(PAGE, fmt="md")
    assert not r.errors and r.n_numbers >= 18, ([f.describe() for f in r.findings], r.n_numbers)


def test_a_slip_in_its_printout_is_found():
    r = check_document(PAGE.replace("0.2119, 0.2119, 0.5761", "0.2119, 0.2119, 0.5716"), fmt="md")
    assert [(f.line, f.printed) for f in r.errors] == [(15, "0.5716")], [f.describe() for f in r.findings]


def test_real_c_code_is_not_read_as_python():
    page = PAGE.replace("import torch", "#include <stdio.h>")
    from mha.inputs import MHAInputError
    try:
        r = check_document(page, fmt="md")
    except MHAInputError:
        return
    assert not r.errors, [f.describe() for f in r.errors]
