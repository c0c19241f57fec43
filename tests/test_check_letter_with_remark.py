"""An input named by its letter and a remark in parentheses, over rows named by their tokens (t151c, a tutorial's
docs page): `Q (simplified, d_k=3):`, then `K (same as Q for self-attention):`.  The remark made the first caption no
name at all and the second a name of the weights ("attention"), so the page's Q and K were never taken and its
scores were never checked.  An input's letter followed by words in parentheses is that input (labels.parse_label).
"""

from mha.check import check_document
from mha.check.labels import parse_label

DOC = """# Three tokens

```
Q (simplified, d_k=3):
  The: [1.0, 0.2, 0.1]
  cat: [0.3, 1.5, 0.4]
  sat: [0.2, 0.5, 1.8]

K (same as Q for self-attention):
  The: [1.0, 0.2, 0.1]
  cat: [0.3, 1.5, 0.4]
  sat: [0.2, 0.5, 1.8]

Compute Q·K^T:
           The   cat   sat
  The:   [1.05  0.64  0.48]
  cat:   [0.64  2.50  1.53]
  sat:   [0.48  1.53  3.53]
```
"""


def test_the_letter_before_a_remark_names_the_input():
    assert parse_label("K (same as Q for self-attention)").nodes == ("K",)
    assert parse_label("Q (simplified, d_k=3)").nodes == ("Q",)
    assert parse_label("Q (3x2)") is None               # a shape in parentheses is not a remark


def test_the_scores_of_the_captioned_inputs_hold_and_a_slip_is_found():
    r = check_document(DOC, fmt="md")
    assert not r.findings and r.n_numbers >= 9, [f.describe() for f in r.findings]
    r = check_document(DOC.replace("[0.64  2.50", "[0.64  2.60"), fmt="md")
    assert [(f.line, f.printed) for f in r.errors] == [(17, "2.60")], [f.describe() for f in r.findings]
