"""A printout quoted inline without its closing parenthesis (`w=tensor([0.43, 0.18, ...]`), with prose going on
in the same paragraph: the closing backtick closes the call, so the list is read (it was dropped silently, and a
slip in it went unreported)."""

from mha.check import check_document

DOC = """# Les poids

Les scores bruts des mots `chat` et `dort` contre les quatre mots :
```s=tensor([[1.20,  0.30, -0.50,  0.80], [0.10,  0.90,  0.40, -0.20]])```
On applique la fonction softmax :
```python
w = torch.softmax(s, dim=-1)
print(f"{w=}")
```
On obtient `w=tensor([[0.44, 0.18, 0.08, 0.30], [0.19, 0.42, 0.25, 0.14]]`.
Le premier mot pèse donc le plus, le troisième presque rien.
"""


def test_unclosed_inline_printout_is_read():
    r = check_document(DOC, fmt="md")
    assert not r.findings and r.n_numbers >= 4, [f.describe() for f in r.findings]


def test_slip_in_unclosed_inline_printout_is_found():
    r = check_document(DOC.replace("0.18, 0.08", "0.13, 0.08"), fmt="md")
    assert [(f.line, f.printed) for f in r.findings if f.severity == "error"] == [(10, "0.13")], \
        [f.describe() for f in r.findings]
