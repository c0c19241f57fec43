"""A slip in the raw scores a page starts from, with the scaled scores and the weights after it right.

Outside trials t184e (a probe) and t185a: the chain starts from the printed raw scores, so one raw score changed by a
digit made the right scaled score beside it "wrong", and the finding named a number the author got right.  The scaled
scores printed after the raw ones are the raw ones times one factor in every entry but one; that entry, divided back,
is tried as the start's value there, and kept only when the whole chain then fits (infer/search.py
`_scaled_copies`): the finding is on the raw score, "every later number follows from" the value the page used.
"""

from check_helpers import error_findings, error_places

PAGE = """# Scores to weights

The raw scores Q Kᵀ for three tokens (d_k = 4):

    raw_scores = [[2.0, 1.0, 0.5],
                  [0.4, 1.6, 1.1],
                  [1.2, 0.3, 2.2]]

Divided by √4 = 2, the scaled scores:

    scaled_scores = [[1.000, 0.500, 0.250],
                     [0.200, 0.800, 0.550],
                     [0.600, 0.150, 1.100]]

The softmax of each row gives the weights:

    weights = [[0.481, 0.292, 0.227],
               [0.236, 0.430, 0.335],
               [0.304, 0.194, 0.502]]

With

    V = [[1, 0], [0, 1], [1, 1]]

the output is

    output = [[0.708, 0.519],
              [0.570, 0.764],
              [0.806, 0.696]]
"""

TABLE = """# Three queries

Scores divided by √2, then the softmax of each row.

| query | raw scores (a, b, c) | scaled (÷√2) | weights |
|---|---|---|---|
| a | 0.500, 1.300, 0.200 | 0.354, 0.919, 0.141 | 0.280, 0.493, 0.227 |
| b | 1.300, 2.900, 0.700 | 0.919, 2.051, 0.495 | 0.210, 0.652, 0.138 |
"""



def test_the_pages_hold():
    assert error_places(PAGE) == [] and error_places(TABLE) == []


def test_a_raw_score_slip_is_found_on_the_raw_score():
    assert error_places(PAGE.replace("[0.4, 1.6, 1.1]", "[0.4, 1.7, 1.1]")) == [(6, "1.7")]


def test_a_raw_score_slip_in_a_table_names_the_raw_score():
    got = error_findings(TABLE.replace("| a | 0.500, 1.300", "| a | 0.500, 1.400"))
    assert [(f.line, f.printed) for f in got] == [(7, "1.400")], [f.describe() for f in got]
    assert "follows from 1.300" in (got[0].cause or ""), got[0].describe()


def test_a_slip_in_the_scaled_scores_is_still_the_scaled_score():
    assert error_places(PAGE.replace("[0.200, 0.800, 0.550]", "[0.200, 0.900, 0.550]")) == [(12, "0.900")]


TORCH = """# Masked scores

```text
masked_scores:
tensor([[1., -inf, -inf],
        [1., 2., -inf],
        [1., 2., 3.]])

weights:
tensor([[1.0000, 0.0000, 0.0000],
        [0.2689, 0.7311, 0.0000],
        [0.0900, 0.2447, 0.6652]])
```
"""


def test_a_whole_score_in_a_torch_printout_is_told_as_a_whole_number():
    # torch prints `3.` for a tensor of whole numbers: the weights give the slipped score back as 3, not 3.0002
    got = error_findings(TORCH.replace("[1., 2., 3.]", "[1., 2., 4.]"))
    assert [(f.line, f.printed, f.rounded) for f in got] == [(7, "4.", "3")], [f.describe() for f in got]
