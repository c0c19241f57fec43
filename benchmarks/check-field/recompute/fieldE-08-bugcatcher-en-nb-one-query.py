"""fieldE-08: BugCatcherXO/Building-LLama4-from-Scratch, llama_4_Multi-Head-Latent-Attention_explanation.ipynb
(English notebook, a single Markdown cell).  One query: q_quickly and k_dog given; their dot product term by term
(0.889); a softmax over two scores, the second assumed to be 1.2 as the text says; the two values mixed with the
rounded weights (0.42, 0.58).  All right."""
import numpy as np
from _truth import Truth

q = np.array([0.22, 0.64, 0.73])
k_dog = np.array([0.54, 0.36, 0.74])
v_dog = np.array([0.12, 0.84, 0.51])
v_q = np.array([0.62, 0.24, 0.33])
terms = q * k_dog
s = terms.sum()
a = np.exp([s, 1.2]) / np.exp([s, 1.2]).sum()
out = a[0] * v_dog + a[1] * v_q
out_c = 0.42 * v_dog + 0.58 * v_q
print(s, a, out, out_c)

T = Truth("fieldE-08-bugcatcher-en-nb-one-query")
for name, vec in (("Q_{quickly} =", q), ("K_{dog} =", k_dog), ("V_{dog} =", v_dog), ("V_{quickly} =", v_q)):
    T.row(vec, name.split()[0], T.find(name), role="input")
at = T.find("= 0.1188 + 0.2304")
T.nums(["0.1188", "0.2304", "0.5402", "0.889"], list(terms) + [s], "q.k_dog terms and sum", at)
at = T.find("\\alpha_{dog} = \\frac{e^{0.889}}")
T.nums(["0.889", "0.889", "0.42"], [s, s, a[0]], "alpha_dog", at)
at = T.find("\\alpha_{quickly} = \\frac{e^{1.2}}")
T.nums(["0.889", "0.58"], [s, a[1]], "alpha_quickly", at)
at = T.find("= 0.42 \\cdot [0.12")
T.nums(["0.42", "0.58"], a, "alpha (mixing)", at)
T.row(out, "output(quickly)", T.find("= [0.41, 0.49, 0.41]"), carried=out_c)
T.mark_own_errors()
T.slip("= 0.1188 + 0.2304 + 0.5402", "= 0.1188 + 0.2304 + 0.5420", "swapped digits in a product")
T.slip("\\\\approx 0.58", "\\\\approx 0.85", "swapped digits in a weight")
T.slip("= [0.41, 0.49, 0.41]", "= [0.41, 0.94, 0.41]", "swapped digits in the output")
T.write()
