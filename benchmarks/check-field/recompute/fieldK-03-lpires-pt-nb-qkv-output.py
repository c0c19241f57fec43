"""fieldK-03: LPiresG/Faculdade, Scale_Dot_Product_Attention.ipynb (Portuguese notebook).
A NumPy class for scaled dot-product attention run once on given Q = K = I (2x2) and V = [[1, 2], [3, 4]]: the
notebook prints the output ("Saida") and the softmax matrix, 8 significant digits.  d_k = 2 from K's shape.
Printed values from float64 arithmetic: a number counts as right when it lies within 1e-7 of the exact value.
No own errors."""
import numpy as np
from _truth import Truth

Q = np.eye(2)
K = np.eye(2)
V = np.array([[1.0, 2.0], [3.0, 4.0]])
s = Q @ K.T / np.sqrt(2)
w = np.exp(s) / np.exp(s).sum(axis=1, keepdims=True)
o = w @ V
print(w, o)

T = Truth("fieldK-03-lpires-pt-nb-qkv-output")
T.row([1, 0, 0, 1], "Q", T.find("Q = np.array([[1, 0], [0, 1]])"), role="input")
T.row([1, 0, 0, 1], "K", T.find("K = np.array([[1, 0], [0, 1]])"), role="input")
T.row([1, 2, 3, 4], "V", T.find("V = np.array([[1, 2], [3, 4]])"), role="input")


def near(printed, exact, what, at):
    for k, (p, x) in enumerate(zip(printed, exact)):
        T.num(p, x, f"{what}[{k + 1}]", at, correct=abs(float(p) - x) <= 1e-7)


near(["1.6604769", "2.6604769"], o[0], "output row 1", T.find(" [[1.6604769 2.6604769]", output=True))
near(["2.3395231", "3.3395231"], o[1], "output row 2", T.find(" [2.3395231 3.3395231]]", output=True))
near(["0.66976155", "0.33023845"], w[0], "softmax row 1", T.find(" [[0.66976155 0.33023845]", output=True))
near(["0.33023845", "0.66976155"], w[1], "softmax row 2", T.find(" [0.33023845 0.66976155]]", output=True))
T.mark_own_errors()
T.slip(" [[1.6604769 2.6604769]", " [[1.6604769 2.6064769]", "swapped digits in an output")
T.slip(" [0.33023845 0.66976155]]", " [0.33023845 0.69976155]]", "a wrong digit in a weight")
T.slip(" [2.3395231 3.3395231]]", " [2.3395231 3.8395231]]", "a wrong digit in an output")
T.write()
