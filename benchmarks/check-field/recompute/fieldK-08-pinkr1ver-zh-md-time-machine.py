"""fieldK-08: PinkR1ver/my-digital-garden, content/computer_sci/llm/architecture/self_attention_example.md
(Chinese Markdown with LaTeX; a note in a digital garden).
"Time Machine": two 4-wide embeddings, a 4x3 W^Q and the query of "Time" worked by hand; then Q, K, V are given as
assumed results (the text says it states them directly), the four dot products, d_k = 3, sqrt(3) ~ 1.73 rounded to
1.7 "for convenience", the scaled scores, the softmax of each row (e^1.76 ~ 5.8, sum 6.8), and both outputs as
weighted sums of V.  Numbers after the rounding to 1.7 are judged against the rounded divisor the text uses; numbers
computed from printed rounded weights against those weights (carried).
Own error: 2/1.7 = 1.176 is printed 1.17 (twice, on the scaled-score line); the later quote of [1.17, 1.17] repeats
it as the input of the second softmax (recorded as a quoted input)."""
import numpy as np
from _truth import Truth

X = np.array([[1, 0, 1, 0], [0, 2, 0, 1]], float)
WQ = np.array([[1, 0, 0], [0, 1, 0], [1, 0, 1], [0, 0, 1]], float)
Q = np.array([[2, 0, 1], [1, 2, 1]], float)
K = np.array([[1, 0, 1], [0, 1, 0]], float)
V = np.array([[10, 2, 0], [2, 5, 8]], float)
S = Q @ K.T
sc = S / 1.7
w = np.exp(sc) / np.exp(sc).sum(axis=1, keepdims=True)
wp = np.array([[0.85, 0.15], [0.5, 0.5]])
O = wp @ V
print(X[0] @ WQ, S, sc, w, O)

T = Truth("fieldK-08-pinkr1ver-zh-md-time-machine")
T.nums(["1", "0", "1", "0"], X[0], "x_Time", T.find('- **"Time" ($x_1$):** `[1, 0, 1, 0]`'), role="input")
T.nums(["0", "2", "0", "1"], X[1], "x_Machine", T.find('- **"Machine" ($x_2$):** `[0, 2, 0, 1]`'), role="input")
at = T.find("q_{\\text{Time}} &= [1, 0, 1, 0]")
T.nums(["2", "0", "1"], X[0] @ WQ, "q_Time = x_Time W^Q", at)
T.nums(["3", "0"], S[0], "scores of Time (Time, Machine)", T.find("$$\\text{Scores} = \\begin{bmatrix} 3 & 0"))
T.nums(["2", "2"], S[1], "scores of Machine (Time, Machine)", T.find("$$\\text{Scores} = \\begin{bmatrix} 3 & 0"))
T.num("3", S[0, 0], "Time vs Time", T.find("- **Time vs Time:**"))
T.num("0", S[0, 1], "Time vs Machine", T.find("- Time vs Machine:"))
T.num("2", S[1, 0], "Machine vs Time", T.find("- **Machine vs Time:**"))
T.num("2", S[1, 1], "Machine vs Machine", T.find("- **Machine vs Machine:**"))
T.num("1.73", np.sqrt(3), "sqrt(d_k = 3)", T.find("\\sqrt{d_k} \\approx 1.73"))
at = T.find("$$\\text{Scaled} = \\begin{bmatrix} 3/1.7")
T.nums(["1.76", "0", "1.17", "1.17"], sc.ravel(), "scaled scores (divided by 1.7)", at)
T.nums(["1.76", "0"], [1.76, 0], "scores of Time into the softmax (quoted)", T.find("输入 $[1.76, 0]$"), role="input")
at = T.find("$e^{1.76} \\approx 5.8$")
T.num("5.8", np.exp(1.76), "e^1.76", at)
T.num("6.8", np.exp(1.76) + 1, "sum of exponentials", at, carried=5.8 + 1)
T.nums(["0.85", "0.15"], w[0], "weights of Time", T.find("权重 $\\approx [\\mathbf{0.85}"), carried=[5.8 / 6.8, 1 / 6.8])
T.nums(["1.17", "1.17"], [1.17, 1.17], "scores of Machine into the softmax (quoted)", T.find("输入 $[1.17, 1.17]$"), role="input")
T.nums(["0.5", "0.5"], [0.5, 0.5], "weights of Machine", T.find("权重 $= [\\mathbf{0.5}"))
T.nums(["0.85", "0.15", "0.50", "0.50"], w.ravel(), "weights matrix", T.find("$$\\text{Weights} = \\begin{bmatrix} 0.85"))
for d, (a, b, c) in enumerate((("8.5", "0.3", "8.8"), ("1.7", "0.75", "2.45"), ("0", "1.2", "1.2"))):
    at = T.find(["- 第一维:", "- 第二维:", "- 第三维:"][d])
    T.num(a, 0.85 * V[0, d], f"0.85 x V_Time[{d + 1}]", at)
    T.num(b, 0.15 * V[1, d], f"0.15 x V_Machine[{d + 1}]", at)
    T.num(c, O[0, d], f"output of Time[{d + 1}]", at)
T.nums(["8.8", "2.45", "1.2"], O[0], "output of Time", T.find('"Time" 的新向量 = $[8.8, 2.45, 1.2]$'))
T.nums(["6", "3.5", "4"], O[1], "output of Machine (average)", T.find("- 直接取平均:"))
T.nums(["6", "3.5", "4"], O[1], "output of Machine", T.find('**"Machine" 的新向量 = $[6, 3.5, 4]$**'))
T.mark_own_errors()
T.slip("1.7 + 0.75 = 2.45$", "1.7 + 0.75 = 2.54$", "swapped digits in an output")
T.slip("权重 $\\approx [\\mathbf{0.85}", "权重 $\\approx [\\mathbf{0.58}", "swapped digits in a weight")
T.slip("1\\times1 + 2\\times0 + 1\\times1 = \\mathbf{2}$", "1\\times1 + 2\\times0 + 1\\times1 = \\mathbf{3}$", "a wrong dot product")
T.write()
