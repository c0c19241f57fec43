"""fieldA-07: one decoder hidden state scored against four encoder annotations (dot product, no scale), softmax
(computed in float128 by the notebook), weights applied column by column, summed into a context vector."""
import mpmath as mp
import numpy as np
from _truth import Truth

mp.mp.dps = 40
h = [5, 1, 20]
ann = [[3, 12, 45], [59, 2, 5], [1, 43, 5], [4, 3, 45.3]]        # the four annotations (columns of the matrix)
s = [mp.mpf(sum(a * b for a, b in zip(h, col))) for col in ann]
w = [mp.e ** (x - max(s)) for x in s]; tot = sum(w); w = [x / tot for x in w]
applied = [[w[j] * ann[j][i] for j in range(4)] for i in range(3)]
ctx = [sum(r) for r in applied]
print("scores", s, "\nweights", [mp.nstr(x, 10) for x in w], "\ncontext", [mp.nstr(x, 10) for x in ctx])

T = Truth("fieldA-07-udacity-attention-basics")
T.num("927", s[0], "score of annotation 1", T.find("927", cell=9, output=True))
T.row([float(x) for x in s], "scores", T.find("array([ 927.", cell=15, output=True))
at = T.find("array([", cell=17, output=True)
for p, x, j in (("0.11920292", w[0], 1), ("7.9471515e-232", w[1], 2), ("5.7661442e-340", w[2], 3), ("0.88079708", w[3], 4)):
    T.num(p, mp.nstr(x, 20), f"a_{j}", at)
at = T.find("scores of 927 and 929", cell=18)
T.num("927", s[0], "score 1 (prose)", at); T.num("929", s[3], "score 4 (prose)", at)
T.num("0.119", mp.nstr(w[0], 20), "a_1 (prose)", at)
T.num("0.880", mp.nstr(w[3], 20), "a_4 (prose)", at)
printed = [["0.35760877", "4.6888194e-230", "5.7661442e-340", "3.5231883"],
           ["1.4304351", "1.5894303e-231", "2.479442e-338", "2.6423912"],
           ["5.3641315", "3.9735758e-231", "2.8830721e-339", "39.900108"]]
for i in range(3):
    at = T.find(printed[i][0], cell=19, output=True)
    for j in range(4):
        T.num(printed[i][j], mp.nstr(applied[i][j], 20), f"a_{j + 1} * h^enc_{j + 1}[{i + 1}]", at)
at = T.find("array([", cell=23, output=True)
for i, p in enumerate(["3.8807971", "4.0728263", "45.264239"]):
    T.num(p, mp.nstr(ctx[i], 20), f"c[{i + 1}]", at)
T.mark_own_errors({18: "a_4 = 0.8808 is given to three places as 0.880 (truncated; rounds to 0.881)"})

T.slip('"array([ 927.,  397.,  148.,  929.])"', '"array([ 927.,  379.,  148.,  929.])"', "swapped digits in a score")
T.slip("0.11920292,  7.9471515e-232", "0.11902292,  7.9471515e-232", "swapped digits in a_1")
T.slip("5.3641315,  3.9735758e-231", "5.3641315,  3.9735758e-213", "swapped exponent digits in a weighted annotation")
T.slip("4.0728263,  45.264239", "4.0728263,  45.246239", "swapped digits in the context vector")
T.write()
