"""fieldH-05: Antonio-Ardigo/Attention-Mechanism, emergence-of-qkv.html (English HTML explainer, static text plus
in-page scripts).  Recomputed: the per-token Q and K vectors of "the cat sat" and two score cells by hand; one word
x = [1, 0] through three 2x2 weight matrices; a gradient-descent step on one weight; the Q/K nudges of a scalar
example; and the worked first step of the positional-encoding exercise (3 tokens with PE_p = [cos p50deg, sin p50deg],
given W_Q, W_K, A = softmax(Q K^T) unscaled, O = A X against the previous token's encoding, squared-error loss, the
gradients), plus its claims after 400 steps of gradient descent with the learning rate the page's script uses (0.8).
Not recomputed: the other interactive widgets, whose numbers are drawn by script, and the "about 2.4" that a
different widget's curve is said to reach (its task and objective are only in the script).
Own errors: the printed attention row entries .159 and .419 are 0.1585 and 0.4185 (.158 and .418 at three
decimals; the printed rows were nudged to sum to 1), dL/dW_Q[2,2] is 0.36546, printed .366, and the starting ||W_Q - W_K|| is 0.0648, printed 0.07."""
import numpy as np
from _truth import Truth

Qv = np.array([[1.0, 0.2], [0.2, 1.0], [0.9, 0.4]])
Kv = np.array([[1.0, 0.1], [0.1, 1.0], [0.8, 0.3]])
x = np.array([1.0, 0.0])
Wq1, Wk1, Wv1 = (np.array(m) for m in ([[0.9, 0.1], [0.2, 0.8]], [[0.3, 0.7], [0.6, 0.4]], [[0.5, 0.5], [0.1, 0.9]]))
th = np.deg2rad(50)
X = np.array([[np.cos(p * th), np.sin(p * th)] for p in range(3)])
Ostar = np.array([X[0], X[0], X[1]])
WQ0 = np.array([[1.02, 0.03], [-0.01, 1.00]])
WK0 = np.array([[0.98, -0.01], [0.02, 1.01]])


def forward(WQ, WK):
    Q, K = X @ WQ, X @ WK
    S = Q @ K.T
    A = np.exp(S - S.max(1, keepdims=True))
    A /= A.sum(1, keepdims=True)
    return Q, K, A, float(((A @ X - Ostar) ** 2).sum())


def grads(WQ, WK):
    Q, K, A, _ = forward(WQ, WK)
    dA = 2 * (A @ X - Ostar) @ X.T
    dS = A * (dA - (dA * A).sum(1, keepdims=True))
    return X.T @ (dS @ K), X.T @ (dS.T @ Q)


Q0, K0, A0, L0 = forward(WQ0, WK0)
gQ, gK = grads(WQ0, WK0)
WQ, WK = WQ0.copy(), WK0.copy()
for _ in range(400):
    dq, dk = grads(WQ, WK)
    WQ, WK = WQ - 0.8 * dq, WK - 0.8 * dk
Q4, K4, A4, L4 = forward(WQ, WK)
cos = lambda a, b: float(a @ b / np.linalg.norm(a) / np.linalg.norm(b))  # noqa: E731
print(A0, L0, gQ, gK, np.linalg.norm(gQ - gK), np.linalg.norm(WQ0 - WK0), L4, np.linalg.norm(WQ - WK),
      cos(Q4[1], K4[0]), cos(Q4[2], K4[1]), sep="\n")

T = Truth("fieldH-05-ardigo-en-html-qk-vectors")
L = lambda n: (None, n, False)  # noqa: E731
T.row(Qv.ravel(), "Q_the, Q_cat, Q_sat", L(231), role="input")
T.row(Kv.ravel(), "K_the, K_cat, K_sat", L(232), role="input")
T.num("1.02", Qv[0] @ Kv[0], "S_the,the = Q_the . K_the", L(235))
T.num("0.30", Qv[1] @ Kv[0], "S_cat,the = Q_cat . K_the", L(237))
for ln, W, name in ((296, Wq1, "Q"), (297, Wk1, "K"), (298, Wv1, "V")):
    T.row(W.ravel(), f"W_{name}", L(ln), role="input", last=False)
    T.row(x @ W, f"{name} = x W_{name}, x = [1, 0]", L(ln))
T.num("0.5", 0.5, "w", L(316), role="input")
T.num("2", 2, "gradient", L(316), role="input")
T.num("0.1", 0.1, "learning rate", L(316), role="input")
T.num("0.3", 0.5 - 0.1 * 2, "w - eta * gradient", L(317))
T.num("0.2", 0.1 * 2, "size of the move", L(318))
T.num("−4", -1 * 4, "Q's nudge dL/ds * K", L(388))
T.num("−3", -1 * 3, "K's nudge dL/ds * Q", L(388))
T.nums(["1.02", "0.03", "−0.01", "1.00", "0.98", "−0.01", "0.02", "1.01"], np.concatenate([WQ0.ravel(), WK0.ravel()]),
       "W_Q, W_K at the start", L(664), role="input")
T.nums([".487", ".354", ".159", ".282", ".419", ".299", ".152", ".346", ".502"], A0.ravel(),
       "A = softmax(X W_Q (X W_K)^T), step 1", L(667))
T.num("1.036", L0, "loss sum((A X - O*)^2), step 1", L(668))
T.nums(["−.442", ".460", "−.450", ".366"], gQ.ravel(), "dL/dW_Q, step 1", L(669))
T.nums(["−.464", "−.480", ".456", ".371"], gK.ravel(), "dL/dW_K, step 1", L(670))
T.num("1.306", np.linalg.norm(gQ - gK), "||dL/dW_Q - dL/dW_K||, step 1", L(671))
T.num("0.001", L4, "loss after 400 steps (lr 0.8)", L(676))
T.num("0.07", np.linalg.norm(WQ0 - WK0), "||W_Q - W_K|| at the start", L(676))
T.num("3.95", np.linalg.norm(WQ - WK), "||W_Q - W_K|| after 400 steps", L(676))
T.num("0.99", cos(Q4[1], K4[0]), "cosine(Q_1, K_0) after 400 steps", L(676))
T.num("1.00", cos(Q4[2], K4[1]), "cosine(Q_2, K_1) after 400 steps", L(676))
T.mark_own_errors({(None, 667): "printed .159 and .419 for 0.1585 and 0.4185 (.158, .418 at three decimals): the "
                                "rows were adjusted to sum to 1",
                   (None, 669): "dL/dW_Q[2,2] is 0.36546 (.365), printed .366",
                   (None, 676): "the starting ||W_Q - W_K|| is 0.0648 (0.06), printed 0.07"})
T.slip("= 1.0×1.0 + 0.2×0.1 = <b>1.02</b>", "= 1.0×1.0 + 0.2×0.1 = <b>1.20</b>", "swapped digits in a score")
T.slip("<td class=\"mono\">1.036</td>", "<td class=\"mono\">1.063</td>", "swapped digits in the loss")
T.slip("<td class=\"mono\">1.306 ", "<td class=\"mono\">1.360 ", "swapped digits in a gradient-difference norm")
T.slip("<span class=\"hl-k\">K</span> = [0.3, 0.7]", "<span class=\"hl-k\">K</span> = [0.3, 0.4]",
       "a neighbour's value in a projected key")
T.write()
