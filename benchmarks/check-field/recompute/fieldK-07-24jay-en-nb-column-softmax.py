"""fieldK-07: 24Jay/LLM, attention.ipynb (notebook, code and printed tensors, no prose beyond a link).
Two given 2x3 tensors x1 (queries) and x2 (keys and values), their products x1 x2^T printed as "raw_weights", the
softmax taken over dim=0 (down each column, as written in the code), and the weights times x2.  No scale.
torch prints 4 decimals (or 4 significant digits in e-notation): a number counts as right when it rounds to the
exact value at its printed precision.  No own errors."""
import numpy as np
from _truth import Truth

x1 = np.array([[1, 2, 1], [-1, -1, -2.0]])
x2 = np.array([[2, 2, 1], [-1, -2, -1.0]])
r = x1 @ x2.T
w = np.exp(r) / np.exp(r).sum(axis=0, keepdims=True)
o = w @ x2
print(r, w, o)

T = Truth("fieldK-07-24jay-en-nb-column-softmax")
T.nums(["1", "2", "1", "-1", "-1", "-2.0"], x1.ravel(), "x1", T.find("x1 = torch.tensor([[1, 2, 1],[-1, -1,-2.0]])"), role="input")
T.nums(["2", "2", "1", "-1", "-2", "-1.0"], x2.ravel(), "x2", T.find("x2 = torch.tensor([[2, 2, 1],[-1,-2, -1.0]])"), role="input")
T.row(x1[0], "x1 printed row 1", T.find("tensor([[ 1.,  2.,  1.],", output=True), role="input")
T.row(x1[1], "x1 printed row 2", T.find("        [-1., -1., -2.]])", output=True), role="input")
T.row(x2[0], "x2 printed row 1", T.find("tensor([[ 2.,  2.,  1.],", output=True), role="input")
T.row(x2[1], "x2 printed row 2", T.find("        [-1., -2., -1.]])", output=True), role="input")
T.row(r[0], "x1 x2^T row 1", T.find("tensor([[ 7., -6.],", output=True))
T.row(r[1], "x1 x2^T row 2", T.find("        [-6.,  5.]])", output=True))
T.nums(["1.0000e+00", "1.6701e-05"], w[0], "softmax(dim=0) row 1", T.find("tensor([[1.0000e+00, 1.6701e-05],", output=True))
T.nums(["2.2603e-06", "9.9998e-01"], w[1], "softmax(dim=0) row 2", T.find("        [2.2603e-06, 9.9998e-01]])", output=True))
T.row(o[0], "weights x2 row 1", T.find("tensor([[ 2.0000,  2.0000,  1.0000],", output=True))
T.row(o[1], "weights x2 row 2", T.find("        [-1.0000, -2.0000, -1.0000]])", output=True))
T.mark_own_errors()
T.slip("tensor([[ 7., -6.],", "tensor([[ 7., -5.],", "a wrong product")
T.slip("[2.2603e-06, 9.9998e-01]", "[2.2603e-06, 9.9898e-01]", "a wrong digit in a weight")
T.slip("tensor([[1.0000e+00, 1.6701e-05],", "tensor([[1.0000e+00, 1.6701e-04],", "a wrong exponent in a weight")
T.write()
