"""What a print showed, pasted under it in a bare triple-quoted string inside the code block:

    print(weights)
    '''
    tensor([[0.3448, 0.3296, 0.3256], ...])
    '''

Outside trial t144b: the string was blanked as code, so such a block was "nothing to check".  A triple-quoted string
standing alone right under a print is that print's output (readers/script.printed_strings), in a script and in a
Markdown code block alike.
"""

from mha.check import check_document

PAGE = """# 注意力权重

```python
import torch
inputs = torch.tensor([[0.43, 0.15, 0.89], [0.55, 0.87, 0.66], [0.57, 0.85, 0.64]])
scores = inputs @ inputs.T
weights = torch.softmax(scores, dim=-1)
print(weights)
'''
tensor([[0.3448, 0.3296, 0.3256],
        [0.2272, 0.3902, 0.3826],
        [0.2284, 0.3893, 0.3822]])
'''
```
"""


def test_the_pasted_printout_is_read_and_holds():
    r = check_document(PAGE, fmt="md")
    assert not r.errors and r.n_numbers >= 9, ([f.describe() for f in r.findings], r.n_numbers)


def test_a_slip_in_the_pasted_printout_is_found():
    r = check_document(PAGE.replace("0.3893", "0.3993"), fmt="md")
    assert [(f.line, f.printed) for f in r.errors] == [(12, "0.3993")], [f.describe() for f in r.findings]


def test_the_same_as_a_script():
    script = PAGE.split("```python\n")[1].split("```")[0]
    r = check_document(script.replace("0.3893", "0.3993"), fmt="py")
    assert [(f.line, f.printed) for f in r.errors] == [(9, "0.3993")], [f.describe() for f in r.findings]
