"""fieldF-06: nursnaaz/nursnaaz.github.io, SelfAttention.html (English HTML page, an interactive step-by-step lesson;
the file was removed from the site later, so the cited commit is the last one that has it).  Starts from X with
weights: five 4-wide word embeddings ("I bought apple to eat") and 4x4 W_Q, W_K, W_V are given; the page prints the
Q, K, V tables, the 5x5 raw scores, the scores over sqrt(4) = 2, the row softmax with row sums, the softmax of the
"apple" row step by step (exponentials, sum, weights, twice), its weighted values and output, prose percentages, and
quiz answers inside onclick attributes.

The author's Q, K and V tables are right for "apple" only: in the other rows the 3rd and 4th entries (some of them)
do not follow from X and the weights (e.g. Q for "I" is printed [1.010, 0.690, 1.120, 0.890], exact [1.01, 0.69, 0.54,
0.61]).  Everything downstream is computed consistently from the printed tables, so the page is internally coherent,
but against the givens nearly every score, weight and output is off: each such line is an own error (the score of
apple with itself, 3.571, happens to be right).  Exact values here are from the givens; the why of each own error says
when a line follows the wrong tables."""
import re
import numpy as np
from _truth import Truth

X = np.array([[1.0, 0.2, 0.5, 0.3], [0.8, 1.0, 0.3, 0.6], [0.6, 0.4, 1.0, 0.2], [0.3, 0.7, 0.2, 0.8],
              [0.9, 0.6, 0.4, 1.0]])
WQ = np.array([[0.5, 0.3, 0.1, 0.2], [0.2, 0.8, 0.4, 0.1], [0.7, 0.1, 0.6, 0.3], [0.4, 0.6, 0.2, 0.8]])
WK = np.array([[0.6, 0.4, 0.2, 0.3], [0.3, 0.9, 0.1, 0.5], [0.8, 0.2, 0.7, 0.4], [0.1, 0.7, 0.3, 0.9]])
WV = np.array([[0.9, 0.1, 0.3, 0.4], [0.4, 0.6, 0.2, 0.7], [0.2, 0.8, 0.5, 0.1], [0.7, 0.3, 0.6, 0.8]])
Q, K, V = X @ WQ, X @ WK, X @ WV
S = Q @ K.T
Ssc = S / 2
E = np.exp(Ssc)
A = E / E.sum(1, keepdims=True)
O = A @ V
words = ["I", "bought", "apple", "to", "eat"]
AP = 2                                   # the row of "apple"
print(Q, K, V, S, Ssc, A, O, sep="\n")

T = Truth("fieldF-06-nursnaaz-en-html-apple")
NUM = re.compile(r"-?\d+\.\d+|-?\d+")


def line_at(ln):
    return (None, ln, False)


def numbers_on(ln):
    return [m.group() for m in NUM.finditer(re.sub(r"<[^>]*>", " ", T.lines[(None, ln)]))]


def lines_between(a, b):
    """Table cells between two needles' lines: each line whose text (tags stripped) is a single number."""
    lo, hi = T.find(a)[1], T.find(b)[1]
    out = []
    for ln in range(lo, hi + 1):
        txt = re.sub(r"<[^>]*>", " ", T.lines[(None, ln)]).replace("⭐", "").strip()
        if re.fullmatch(r"-?\d+\.\d+", txt):
            out.append((ln, txt))
    return out


# ---- givens
for r in range(5):
    vec = "[" + ", ".join(f"{x:.1f}" for x in X[r]) + "]"
    T.row(X[r], f"x_{words[r]}", T.find(vec), role="input")
cells = lines_between("(Query Matrix)<", "(Value Matrix)<")
cells += lines_between("(Value Matrix)<", "STEP 2: Matrix Multiplication Rules")
assert len(cells) == 48, len(cells)
for k, (ln, p) in enumerate(cells):
    W = (WQ, WK, WV)[k // 16]
    T.num(p, W.ravel()[k % 16], f"{'QKV'[k // 16]} weights [{k % 16 // 4 + 1},{k % 4 + 1}]", line_at(ln), role="input")
for nth in range(3):
    at = T.find("Apple embedding", nth=nth)
    T.row(X[AP], "x_apple (repeated)", at, role="input")

# ---- Q of apple, by hand
x = X[AP]


def proj_line(at, W, j, stub=False):
    """ 'Q[j] = 0.6×0.5 + ... = 0.3 + ... = 1.160': x and W entries (given), the four products, the result."""
    prods = x * W[:, j]
    vals = numbers_on(at[1])[1:]              # the first number is the index j
    for i in range(4):
        T.num(vals[2 * i], x[i], f"x_apple[{i + 1}] (repeated)", at, role="input")
        T.num(vals[2 * i + 1], W[i, j], f"W[{i + 1},{j + 1}] (repeated)", at, role="input")
    if stub:
        return
    for i in range(4):
        T.num(vals[8 + i], prods[i], f"x_apple[{i + 1}] W[{i + 1},{j + 1}]", at)
    T.num(vals[12], prods.sum(), f"(x_apple W)[{j + 1}]", at)


proj_line(T.find("Q[0] = 0.6×0.5 + 0.4×0.2 + 1.0×0.7 + 0.2×0.4 = ?"), WQ, 0, stub=True)
T.num("1.160", Q[AP, 0], "Q_apple[1] (quiz answer)", T.find("checkCalculation('q0-calc', 1.160"))
at = T.find("Hint:</strong> 0.6×0.5 = 0.3")
T.nums(["0.3", "0.08", "0.7", "0.08"], x * WQ[:, 0], "x_apple[i] W_Q[i,1] (hint)", at)
at = T.find("Sum: 0.3 + 0.08 + 0.7 + 0.08 = 1.160")
T.nums(["0.3", "0.08", "0.7", "0.08", "1.160"], list(x * WQ[:, 0]) + [Q[AP, 0]], "hint sum", at)
for j in range(4):
    proj_line(T.find(f"Q[{j}] = 0.6×", nth=1 if j == 0 else 0), WQ, j)
T.row(Q[AP], "Q_apple", T.find("Apple's Query:"))
proj_line(T.find("K[0] = 0.6×0.6 + 0.4×0.3"), WK, 0, stub=True)
T.num("1.300", K[AP, 0], "K_apple[1] (quiz answer)", T.find("checkCalculation('k0-calc', 1.300"))

# ---- the Q, K, V tables and the repeated lists
table_lines = {}
for name, M, tail in (("Q", Q, ('"Who am I', '"What was', '"What context', '"What\'s my', '"What am I')),
                      ("K", K, ('"I provide agent', '"I provide action', '"I provide object', '"I provide purpose',
                                '"I provide FOOD')),
                      ("V", V, ("Agent information", "Purchase information", "Object information",
                                "Purpose information", "CONSUMPTION information"))):
    for r in range(5):
        at = T.find(">" + tail[r])
        T.row(M[r], f"{name}_{words[r]} (table)", at, last=False)
        table_lines[(name, r)] = at
for k in range(10):
    name, M = ("Q", Q) if k < 5 else ("K", K)
    r = k % 5
    at = T.find(f"• {words[r]}: [", nth=k // 5)
    T.row(M[r], f"{name}_{words[r]} (list)", at)

# ---- the score, scaled-score and weight tables
cells = lines_between("Complete 5×5 Raw Attention Scores Matrix", "Verify a Calculation")
assert len(cells) == 25, len(cells)
for k, (ln, p) in enumerate(cells):
    T.num(p, S[k // 5, k % 5], f"S[{k // 5 + 1},{k % 5 + 1}]", line_at(ln))
cells = lines_between("Complete 5×5 Scaled Scores Matrix", "Practice Scaling")
assert len(cells) == 25, len(cells)
for k, (ln, p) in enumerate(cells):
    T.num(p, Ssc[k // 5, k % 5], f"S/2[{k // 5 + 1},{k % 5 + 1}]", line_at(ln))
cells = lines_between("Complete 5×5 Softmax Attention Weights Matrix", "Practice Softmax")
assert len(cells) == 30, len(cells)
for k, (ln, p) in enumerate(cells):
    r, c = k // 6, k % 6
    if c < 5:
        T.num(p, A[r, c], f"A[{r + 1},{c + 1}]", line_at(ln))
    else:
        T.num(p, A[r].sum(), f"sum of A[{r + 1},:]", line_at(ln))

# ---- the hand dot products
at = T.find("I_query · bought_key = [1.010")
T.nums(["1.010", "0.690", "1.120", "0.890", "1.080", "1.700", "0.650", "1.420"], list(Q[0]) + list(K[1]),
       "Q_I, K_bought (repeated)", at)
at = T.find("= 1.010×1.080 + 0.690×1.700")
T.nums(["1.010", "1.080", "0.690", "1.700", "1.120", "0.650", "0.890", "1.420"],
       [Q[0, 0], K[1, 0], Q[0, 1], K[1, 1], Q[0, 2], K[1, 2], Q[0, 3], K[1, 3]], "Q_I, K_bought terms (repeated)", at)
T.num("4.324", S[0, 1], "S[I,bought] (quiz answer)", T.find("checkCalculation('verify-calc', 4.324"))
at = T.find("1.091 + 1.173 + 0.728 + 1.267 = 4.324")
T.nums(["1.091", "1.173", "0.728", "1.267", "4.324"], list(Q[0] * K[1]) + [S[0, 1]], "Q_I[i] K_bought[i], S[I,bought]", at)
T.row(Q[AP], "Q_apple (repeated)", T.find("Apple Query:"))
T.nums(["1.160", "0.720", "0.860", "0.620", "1.140", "1.680", "0.890", "1.380"], list(Q[AP]) + list(K[4]),
       "Q_apple, K_eat (repeated)", T.find("[1.160, 0.720, 0.860, 0.620] · [1.140"))
for key, (a, b) in ((4, ("1.160×1.140", "1.322 + 1.210")), (1, ("1.160×1.080", "1.253 + 1.224")),
                    (2, ("1.160×1.300", "1.508 + 0.677")), (0, ("1.160×1.090", "1.264 + 0.641")),
                    (3, ("1.160×0.630", "0.731 + 0.972"))):
    at = T.find("= " + a)
    vals = numbers_on(at[1])
    exact = []
    for i in range(4):
        exact += [Q[AP, i], K[key, i]]
    T.nums(vals, exact, f"Q_apple, K_{words[key]} terms (repeated)", at)
    at = T.find("= " + b)
    vals = numbers_on(at[1])
    T.nums(vals, list(Q[AP] * K[key]) + [S[AP, key]], f"Q_apple[i] K_{words[key]}[i], S[apple,{words[key]}]", at)
T.num("5.679", S[4, 4], "S[eat,eat] (prose)", T.find("highest self-attention (5.679)"))
T.num("3.916", S[AP, 1], "S[apple,bought] (prose)", T.find('"bought" (3.916)'))
T.num("4.153", S[AP, 4], "S[apple,eat] (prose)", T.find('with "eat" (4.153)'))

# ---- scaling
T.num("4", 4, "d_k", T.find("by √4 = 2 to prevent"), role="input")
T.num("2", 2.0, "sqrt(d_k)", T.find("by √4 = 2 to prevent"))
at = T.find("Scale Factor = √d_k = √4 = 2")
T.num("4", 4, "d_k (repeated)", at, role="input")
T.num("2", 2.0, "sqrt(d_k) (repeated)", at)
T.num("2", 2.0, "sqrt(d_k) (repeated)", T.find("Scaled Score = Raw Score ÷ 2"))
at = T.find("All raw attention scores divided by √4 = 2")
T.num("2", 2.0, "sqrt(d_k) (repeated)", at)
at = T.find("5.012 ÷ 2 = ?")
T.num("5.012", S[1, 1], "S[bought,bought] (repeated)", at)
T.num("2.506", Ssc[1, 1], "S/2[bought,bought] (quiz answer)", T.find("checkCalculation('scale-calc', 2.506"))
for key, w in ((0, "I"), (1, "bought"), (2, "apple"), (3, "to"), (4, "eat")):
    at = T.find(f"Apple → {w}: {'' if True else ''}", nth=0) if False else None
for key, lead in ((0, "Apple → I: 3.088"), (1, "Apple → bought: 3.916"), (2, "Apple → apple: 3.571"),
                  (3, "Apple → to: 2.952"), (4, "Apple → eat: 4.153")):
    at = T.find(lead)
    vals = numbers_on(at[1])
    T.nums(vals[:3], [S[AP, key], 2.0, Ssc[AP, key]], f"S[apple,{words[key]}] / 2", at)
at = T.find("Scores ranged from 2.654 to 5.679")
T.nums(["2.654", "5.679"], [S.min(), S.max()], "min, max of S", at)
at = T.find("Scores range from 1.327 to 2.840")
T.nums(["1.327", "2.840"], [Ssc.min(), Ssc.max()], "min, max of S/2", at)

# ---- softmax
at = T.find('Scaled scores for "I": [1.438')
T.row(Ssc[0], "S/2[I,:] (repeated)", at)
at = T.find("Exponentials: [4.21")
T.row(E[0], "exp(S/2[I,:])", at)
at = T.find("Sum = 31.51.")
T.num("31.51", E[0].sum(), "sum exp(S/2[I,:])", at)
at = T.find("8.69 ÷ 31.51 = ?")
T.nums(["8.69", "31.51"], [E[0, 1], E[0].sum()], "exp(S/2[I,bought]), sum (repeated)", at)
T.num("0.276", A[0, 1], "A[I,bought] (quiz answer)", T.find("checkCalculation('softmax-calc', 0.276"))
for nth in range(2):
    at = T.find("Apple's scaled scores: [1.544", nth=nth) if nth == 0 else None
    if at:
        T.row(Ssc[AP], "S/2[apple,:] (repeated)", at)
    for key, lead in ((0, "e^1.544 = 4.68"), (1, "e^1.958 = 7.08"), (2, "e^1.786 = 5.97"), (3, "e^1.476 = 4.38"),
                      (4, "e^2.077 = 7.98")):
        at = T.find(lead, nth=nth)
        T.nums(numbers_on(at[1])[1:], [Ssc[AP, key], E[AP, key]], f"exp(S/2[apple,{words[key]}])", at)
    at = T.find("Sum = 4.68 + 7.08 + 5.97 + 4.38 + 7.98 = 30.09", nth=nth)
    T.nums(["4.68", "7.08", "5.97", "4.38", "7.98", "30.09"], list(E[AP]) + [E[AP].sum()],
           "exp(S/2[apple,:]) and their sum", at)
    for key, lead in ((0, "Apple → I: 4.68"), (1, "Apple → bought: 7.08"), (2, "Apple → apple: 5.97"),
                      (3, "Apple → to: 4.38"), (4, "Apple → eat: 7.98")):
        at = T.find(lead, nth=nth)
        vals = numbers_on(at[1])
        T.nums(vals[:4], [E[AP, key], E[AP].sum(), A[AP, key], 100 * A[AP, key]], f"A[apple,{words[key]}] step", at)
    at = T.find("0.156 + 0.235 + 0.198 + 0.146 + 0.265 = ", nth=nth)
    vals = numbers_on(at[1])
    if nth == 0:
        T.nums(vals, list(A[AP]) + [A[AP].sum()], "A[apple,:] and its sum", at)
    else:
        T.nums(vals, list(A[AP]), "A[apple,:] (verify, repeated)", at)
for r, lead in ((0, '"I" pays most attention to "eat" (26.1%)'), (1, '"bought" pays most attention to "eat" (30.4%)'),
                (2, '"apple" pays most attention to "eat" (26.5%)'), (3, '"to" pays most attention to "eat" (30.8%)'),
                (4, '"eat" pays most attention to itself (28.2%)')):
    at = T.find(lead)
    T.num(lead.split("(")[1].split("%")[0], 100 * A[r, 4], f"A[{words[r]},eat] in percent", at)
at = T.find("0.125 + 0.286 + 0.167 + 0.118 + 0.304 = ?")
T.nums(["0.125", "0.286", "0.167", "0.118", "0.304"], A[1], "A[bought,:] (repeated)", at)
for nth in range(2):
    T.num("1.000", A[AP].sum() if nth else A[1].sum(), "row sum (quiz answer)",
          T.find("checkCalculation('sum-calc', 1.000", nth=nth))

# ---- the output of apple
for key, lead in ((0, "0.156 × [1.290"), (1, "0.235 × [1.600"), (2, "0.198 × [1.040"), (3, "0.146 × [1.150"),
                  (4, "0.265 × [1.830")):
    at = T.find(lead)
    T.nums(numbers_on(at[1]), [A[AP, key]] + list(V[key]) + list(A[AP, key] * V[key]),
           f"A[apple,{words[key]}] v_{words[key]}", at)
for c in range(4):
    at = T.find(f"Component {c + 1}: ")
    vals = numbers_on(at[1])[1:]
    T.nums(vals, list(A[AP] * V[:, c]) + [O[AP, c]], f"O[apple,{c + 1}] terms and sum", at)
T.row(O[AP], "O[apple,:]", T.find("Apple's New 4D Meaning:"))
for key, lead in ((4, '"eat" got 26.5%'), (1, '"bought" got 23.5%'), (2, "Self-attention got 19.8%"),
                  (0, '"I" got 15.6%'), (3, '"to" got 14.6%')):
    at = T.find(lead)
    T.num(lead.split("got ")[1].rstrip("%"), 100 * A[AP, key], f"A[apple,{words[key]}] in percent (summary)", at)

first_table = T.find(">" + '"Who am I')[1]
score_table = T.find("Complete 5×5 Raw Attention Scores Matrix")[1]
why = {}
for n in T.numbers:
    if not n["correct"] and n["role"] == "derived":
        ln = n["line"]
        why[ln] = ("Q/K/V table entries that do not follow from the given x and W (3rd/4th entries of the rows other "
                   "than apple)" if first_table <= ln < score_table else
                   "follows the page's own Q/K/V tables, which are wrong outside the apple rows, so the value is off "
                   "against the givens")
T.mark_own_errors(why)
T.slip("Q[1] = 0.6×0.3 + 0.4×0.8 + 1.0×0.1 + 0.2×0.6 = 0.18 + 0.32 + 0.1 + 0.12 = <strong>0.720",
       "Q[1] = 0.6×0.3 + 0.4×0.8 + 1.0×0.1 + 0.2×0.6 = 0.18 + 0.32 + 0.1 + 0.12 = <strong>0.702",
       "swapped digits in a projection")
T.slip("1.508 + 0.677 + 0.791 + 0.595 = <strong>3.571", "1.508 + 0.677 + 0.791 + 0.595 = <strong>3.517",
       "swapped digits in a score")
T.slip("Apple's Query: [1.160, 0.720, 0.860, 0.620]", "Apple's Query: [1.160, 0.720, 0.680, 0.620]",
       "swapped digits in the query")
T.write()
