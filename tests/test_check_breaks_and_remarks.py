"""Layouts met in outside trials t166b and t166c that hid numbers:

* an HTML timeline puts a score vector and its weights on one source line, split by `<br>`, with a remark after an
  em dash (`S¹ = [...]<br>A¹ = [...] <span>— 99.3% on the first</span>`): the two were joined into one statement and
  the em dash read as a minus, so the weights were never read.  A `<br>` now ends the text before it
  (readers/html.py), and a spaced em dash ends a statement (readers/tokens.lex_chars);
* a Markdown code block with `print(Z)`, a blank line, then what it printed as comment lines (`#tensor([`,
  `# [0.79, 0.42, 0.79],`): the comments were read as a comment, unnamed.  They are Z's printout now
  (readers/script.has_commented_printout).

My own pages; the numbers are from plain NumPy."""

import numpy as np

from mha.check import check_document

TIMELINE = """<html><body>
<h2>One head, one query</h2>
<div class="step">S = [4.2, 1.0, 2.5]<br>A = [0.817, 0.033, 0.149] <span>— 82% on the first word</span></div>
</body></html>
"""

SCRIPT = """# Attention without weights

```python
X = torch.tensor([[1.0, 0.0, 1.0], [0.0, 1.0, 1.0], [1.0, 1.0, 0.0]])
weights = torch.softmax(X @ X.T, dim=-1)
Z = weights @ X
print(Z)

#tensor([
# [0.7881, 0.4239, 0.7881],
# [0.4239, 0.7881, 0.7881],
# [0.7881, 0.7881, 0.4239]
#])
```
"""


def test_the_numbers_are_numpy_s():
    e = np.exp(np.array([4.2, 1.0, 2.5]) - 4.2)
    assert np.round(e / e.sum(), 3).tolist() == [0.817, 0.033, 0.149]
    X = np.array([[1., 0, 1], [0, 1, 1], [1, 1, 0]])
    A = np.exp(X @ X.T - (X @ X.T).max(1, keepdims=True))
    A /= A.sum(1, keepdims=True)
    assert np.round(A @ X, 4)[0].tolist() == [0.7881, 0.4239, 0.7881]


def test_the_timeline_holds_and_a_slipped_weight_is_found():
    r = check_document(TIMELINE, fmt="html")
    assert not r.errors and r.n_numbers >= 3, [f.describe() for f in r.findings]
    r = check_document(TIMELINE.replace("0.817, 0.033", "0.817, 0.043"), fmt="html")
    assert [f.line for f in r.errors] == [3], [f.describe() for f in r.findings]


def test_an_em_dash_is_no_minus():
    from mha.check.readers import read_document
    doc = read_document("A = [0.817, 0.033, 0.149] — 82% on the first word\n", "text")
    assert [[n.text for n in a.rows[0]] for a in doc.arrays if a.label == "A"] == [["0.817", "0.033", "0.149"]]
    assert not any("—" in c.text for c in doc.chains), [c.text for c in doc.chains]


def test_a_commented_printout_under_a_print_is_named_and_judged():
    r = check_document(SCRIPT, fmt="md")
    assert not r.errors and r.n_numbers >= 9, [f.describe() for f in r.findings]
    r = check_document(SCRIPT.replace("# [0.4239, 0.7881, 0.7881]", "# [0.4239, 0.7981, 0.7881]"), fmt="md")
    assert [f.line for f in r.errors] == [11], [f.describe() for f in r.findings]
