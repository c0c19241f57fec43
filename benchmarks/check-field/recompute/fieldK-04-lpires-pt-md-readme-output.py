"""fieldK-04: LPiresG/Faculdade, README.md (Portuguese Markdown, the same author's notes to fieldK-03).
The README restates the example: Q = K = I (2x2), V = [[1, 2], [3, 4]], d_k = 2 ("dimensao das chaves"), and the
expected output and softmax matrix as plain text, 8 significant digits.  A number counts as right when it lies
within 1e-7 of the exact value.  No own errors."""
import numpy as np
from _truth import Truth

V = np.array([[1.0, 2.0], [3.0, 4.0]])
s = np.eye(2) / np.sqrt(2)
w = np.exp(s) / np.exp(s).sum(axis=1, keepdims=True)
o = w @ V

T = Truth("fieldK-04-lpires-pt-md-readme-output")
T.row([1, 0, 0, 1], "Q", T.find("Q = np.array([[1, 0], [0, 1]])"), role="input")
T.row([1, 0, 0, 1], "K", T.find("K = np.array([[1, 0], [0, 1]])"), role="input")
T.row([1, 2, 3, 4], "V", T.find("V = np.array([[1, 2], [3, 4]])"), role="input")


def near(printed, exact, what, at):
    for k, (p, x) in enumerate(zip(printed, exact)):
        T.num(p, x, f"{what}[{k + 1}]", at, correct=abs(float(p) - x) <= 1e-7)


near(["1.6604769", "2.6604769"], o[0], "output row 1", T.find("[[1.6604769  2.6604769 ]"))
near(["2.3395231", "3.3395231"], o[1], "output row 2", T.find(" [2.3395231  3.3395231 ]]"))
near(["0.66976155", "0.33023845"], w[0], "softmax row 1", T.find("[[0.66976155 0.33023845]"))
near(["0.33023845", "0.66976155"], w[1], "softmax row 2", T.find(" [0.33023845 0.66976155]]"))
T.mark_own_errors()
T.slip("[[0.66976155 0.33023845]", "[[0.66976155 0.30023845]", "a wrong digit in a weight")
T.slip(" [2.3395231  3.3395231 ]]", " [2.3395231  3.3935231 ]]", "swapped digits in an output")
T.write()
