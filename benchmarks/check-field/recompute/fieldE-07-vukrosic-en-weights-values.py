"""fieldE-07: vukrosic/blueberry-llm-kimi-deepseek, _course/07_attention_mechanism/04_applying_attention_weights.md
(English Markdown).  Starts from weights with values: the weights 0.39, 0.39, 0.22 (carried over from the previous
lesson, given here) and v1, v2, v3; each value scaled by its weight, the three summed term by term, then the weights
read back as percentages.  All right."""
import numpy as np
from _truth import Truth

w = np.array([0.39, 0.39, 0.22])
V = np.array([[0.0, 1, 1], [1, 0, 1], [1, 1, 0]])
z = w @ V

T = Truth("fieldE-07-vukrosic-en-weights-values")
for k, line in enumerate(('Weight for `v1` ("The"): `0.39`', 'Weight for `v2` ("cat"): `0.39`',
                          'Weight for `v3` ("sat"): `0.22`')):
    T.num(line.split("`")[-2], w[k], f"a[{k + 1}]", T.find(line), role="input")
for k, lead in enumerate(("`0.39 * v1 =", "`0.39 * v2 =", "`0.22 * v3 =")):
    at = T.find(lead)
    T.row(w[k] * V[k], f"a[{k + 1}] v{k + 1}", at)
at = T.find("`z1 = [0, 0.39, 0.39] +")
T.row((w[:, None] * V).ravel(), "a_j v_j (summed)", at)
at = T.find("`z1 = [0 + 0.39")
T.row((w[:, None] * V).T.ravel(), "a_j v_j by component", at)
T.row(z, "z1", T.find("`z1 = [0.61, 0.61, 0.78]`"))
for k, line in enumerate(('`39%` of the information from "The"', '`39%` of the information from "cat"',
                          '`22%` of the information from "sat"')):
    T.num(line[1:3], 100 * w[k], f"a[{k + 1}] in percent", T.find(line))
T.mark_own_errors()
T.slip("`z1 = [0.61, 0.61, 0.78]`", "`z1 = [0.61, 0.61, 0.87]`", "swapped digits in the output")
T.slip("= [0.22, 0.22, 0]`", "= [0.22, 0.02, 0]`", "a dropped digit in a scaled value")
T.slip('`22%` of the information', '`23%` of the information', "one digit off in a percentage")
T.write()
