"""1-D printouts one per line (`tensor([...])` under three print calls) are three printouts, not the rows of one
matrix; `print(w, "sum=", w.sum())` prints w first, so w names it (the words after it name what follows)."""

from mha.check.readers import read_document
from mha.check.readers.python import read_python

DOC = """# Scores, then two normalisations

```python
print(scores)
print(weights_by_sum)
print(weights)
```

```
tensor([0.9544, 1.4950, 1.4754, 0.8434])
tensor([0.2005, 0.3140, 0.3099, 0.1772])
tensor([0.1845, 0.3171, 0.3109, 0.1654])
```
"""


def test_three_one_dimensional_printouts_stay_three():
    arrays = [a for a in read_document(DOC, "md").arrays if a.place.line >= 10]
    assert [a.label for a in arrays] == ["scores", "weights_by_sum", "weights"]
    assert all(len(a.rows) == 1 for a in arrays)


def test_the_first_value_printed_names_the_printout():
    assert read_python('print(w, "sum=", w.sum())\nprint("Q:", q)\n').prints == ["w", "Q"]
