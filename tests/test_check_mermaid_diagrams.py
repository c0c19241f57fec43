"""Numbers drawn in a Mermaid diagram (an outside trial's multi-head lesson, t258a): a flow from the scores
`"Scores: [0.8, 0.2]"` through a softmax node to `"Weights: [0.69, 0.31]"` (the softmax gives 0.65 and 0.35), and
a node `"512 ÷ 8 = 64 dimensions per head"`.  The diagram's fence was read as a printout, its syntax and all, so
nothing of it was judged.  The quoted texts of its nodes and edges are what the reader sees; they are read as
lines of their own.  And a result followed by "per head" was taken for an operand ("per" as in "per cent"), so
`768 ÷ 12 = 62 per head` was no equation, in a diagram or out of one.  My own numbers: scores 1.2 and 0.4, a model of 768 split over 12 heads."""

from check_helpers import error_findings

_PAGE = """# One query, two keys

```mermaid
graph LR
    Q[q] --> D[Dot products]
    D --> S["Scores: [1.2, 0.4]"]
    S --> M[Softmax]
    M --> W["Weights: [{w1}, {w2}]"]
```
"""

_SIZES = """# Splitting the model into heads

```mermaid
flowchart TD
    A["d_model = 768"] --> B["12 heads"]
    B --> C["Head size: 768 ÷ 12 = {head} per head"]
```
"""


def test_a_diagram_whose_numbers_hold():
    assert error_findings(_PAGE.format(w1="0.69", w2="0.31")) == []
    assert error_findings(_SIZES.format(head="64")) == []


def test_wrong_numbers_in_a_diagram_are_found():
    found = error_findings(_PAGE.format(w1="0.79", w2="0.21"))
    assert sorted((f.line, f.printed) for f in found) == [(8, "0.21"), (8, "0.79")]
    found = error_findings(_SIZES.format(head="62"))
    assert [(f.line, f.printed) for f in found] == [(6, "62")]


def test_a_result_per_head_in_prose():
    page = "# Heads\n\nHead size: 768 ÷ 12 = {head} per head, and 40 / 50 = {share} per cent of them.\n"
    assert error_findings(page.format(head="64", share="80")) == []
    assert [(f.line, f.printed) for f in error_findings(page.format(head="62", share="80"))] == [(3, "62")]
