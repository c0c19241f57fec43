"""An R Markdown page's printouts, each line behind knitr's `#>`: `print(scores)` over a `[,1] [,2]` header names
the matrix, the `[1,]` row names are no numbers, and the weights are checked (here by their row sums: the page
prints no weights of the projection)."""

from mha.check import check_document
from mha.check.readers import read_document

DOC = """# Attention in base R

```r
scores <- matrix(c(2, 0, 1, 0, 2, 1, 1, 1, 2), nrow = 3, byrow = TRUE)
print(scores)
#>      [,1] [,2] [,3]
#> [1,]    2    0    1
#> [2,]    0    2    1
#> [3,]    1    1    2
weights <- t(apply(scores, 1, function(s) exp(s) / sum(exp(s))))
print(round(weights, 4))
#>        [,1]   [,2]   [,3]
#> [1,] 0.6652 0.0900 0.2447
#> [2,] 0.0900 0.6652 0.2447
#> [3,] 0.2119 0.2119 0.5761
```
"""


def test_knitr_printouts_are_named_matrices():
    arrays = {a.label: a for a in read_document(DOC, "md").arrays}
    assert len(arrays["scores"].rows) == 3 and len(arrays["scores"].rows[0]) == 3
    assert [n.text for n in arrays["weights"].rows[2]] == ["0.2119", "0.2119", "0.5761"]


def test_a_slip_in_a_knitr_printout_is_found():
    assert not check_document(DOC, fmt="md").errors
    r = check_document(DOC.replace("0.0900 0.6652 0.2447", "0.0900 0.6625 0.2447"), fmt="md")
    assert [f.line for f in r.errors] == [14], [f.describe() for f in r.errors]
