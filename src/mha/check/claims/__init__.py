"""Claims: one module per kind of thing a document states, each a dataclass with its own judging (a mixin of
`mha.check.judge.Judge`, which dispatches with `match`).

    array.py      ArrayClaim        a printed matrix or vector (and an elided one)
    arith.py      ArithClaim        an equation chain or a scalar: its own arithmetic, then the trace
    vector.py     VectorArithClaim  a vector of sums; a weighted sum of value vectors
    shape.py      ShapeClaim, ProductShapeClaim, SizeClaim
    reading.py    ReadingClaim      one entry read out in words
    softmax.py    SoftmaxPairClaim  scores and their softmax side by side (a table row, the next line)
    closed.py     ClosedClaim       a closed form or a long decimal, judged exactly (exact_values.py: sympy)
    gathered.py   GatheredClaim     worked lines listed again as one vector; exponentials, then their shares
    rowproduct.py RowProductClaim   a token's row times a named matrix, `[0, 1] × W_V = [1, 2]`
    cellwise.py   CellwiseClaim     a matrix of written arithmetic, then the matrix of its values
    (and more: products, sums, restated values, print chains...; judge.py lists them all)

What they share: attribute.py (which intermediate an array stands for), target.py (which entry an arithmetic
line computes), rounding.py (values that follow from rounded printed values: notes), causes.py (the likely cause
of a wrong value), common.py.
"""

from __future__ import annotations

from .arith import ArithClaim
from .array import ArrayClaim
from .closed import ClosedClaim
from .reading import ReadingClaim
from .shape import ProductShapeClaim, ShapeClaim, SizeClaim
from .vector import VectorArithClaim

Claim = (ArrayClaim | ArithClaim | ShapeClaim | ProductShapeClaim | SizeClaim | ReadingClaim | VectorArithClaim
         | ClosedClaim)

__all__ = ["Claim", "ArrayClaim", "ArithClaim", "ShapeClaim", "ProductShapeClaim", "SizeClaim", "ReadingClaim",
           "VectorArithClaim", "ClosedClaim"]
