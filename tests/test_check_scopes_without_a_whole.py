"""A page whose sections reuse the names with other widths, so that no configuration explains the page as a whole
(field document G-06: a first code block binds q, k, v three wide and prints nothing; the next section binds q and
k two wide and prints their weights).  The page was reported as "configuration not inferred" with every object
unchecked, because the sections were read on their own only under a configuration of the whole page.  Now each
section is read on its own when the whole has none (command._scopes_alone), with the same rules: a section's
verdicts count only where its own configuration decides something and explains its objects.  My own page; the
numbers are from plain NumPy."""

import numpy as np

from mha.check import check_document
from mha.inputs import MHAInputError

PAGE = """# Two small runs

## A first sketch

```python
q = torch.tensor([[1.0, 2.0, 0.0], [0.0, 1.0, 1.0]])
k = torch.tensor([[2.0, 0.0, 1.0], [1.0, 1.0, 0.0]])
v = torch.tensor([[1.0, 0.0], [0.0, 3.0]])
```

## The run we print

```python
q = torch.tensor([[0.5, 1.0], [1.0, -1.0], [0.0, 2.0]])
k = torch.tensor([[1.0, 0.0], [2.0, 1.0], [0.0, 1.0]])
v = torch.tensor([[1.0, 2.0], [0.0, 1.0], [3.0, 0.0]])
weights = torch.softmax(q @ k.T / math.sqrt(2), dim=-1)
print(weights)
print(weights @ v)
```

```
tensor([[0.1882, 0.5437, 0.2681],
        [0.4458, 0.4458, 0.1084],
        [0.1084, 0.4458, 0.4458]])
tensor([[0.9925, 0.9202],
        [0.7710, 1.3374],
        [1.4458, 0.6626]])
```
"""


def _truth():
    q = np.array([[0.5, 1.0], [1.0, -1.0], [0.0, 2.0]])
    k = np.array([[1.0, 0.0], [2.0, 1.0], [0.0, 1.0]])
    v = np.array([[1.0, 2.0], [0.0, 1.0], [3.0, 0.0]])
    s = q @ k.T / np.sqrt(2)
    a = np.exp(s - s.max(1, keepdims=True))
    a /= a.sum(1, keepdims=True)
    return a, a @ v


def test_the_printed_numbers_are_numpy_s():
    a, o = _truth()
    assert np.round(a, 4).tolist()[0] == [0.1882, 0.5437, 0.2681]
    assert np.round(o, 4).tolist()[1] == [0.771, 1.3374]


def test_the_section_is_judged_on_its_own_and_holds():
    r = check_document(PAGE, fmt="md")
    assert not r.errors and r.n_numbers >= 15, [f.describe() for f in r.findings]
    assert any("judged on its own" in e for e in r.evidence), r.evidence
    assert "not inferred for the whole document" in r.configuration["configuration"]


def test_a_slipped_output_in_the_section_is_found_on_its_line():
    r = check_document(PAGE.replace("1.3374", "1.3734"), fmt="md")
    assert [(f.line, f.printed) for f in r.errors] == [(27, "1.3734")], [f.describe() for f in r.findings]


def test_a_page_whose_sections_explain_nothing_is_still_refused():
    page = PAGE.split("```\ntensor")[0]          # no printout: nothing in any section to check
    try:
        r = check_document(page, fmt="md")
    except MHAInputError:
        return
    assert not r.errors, [f.describe() for f in r.findings]
