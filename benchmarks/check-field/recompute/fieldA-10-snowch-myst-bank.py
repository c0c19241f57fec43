"""fieldA-10: a long MyST (jupytext) lesson; its worked example is one query q("it") = [3, 1] against three keys
(animal [3, 1], street [1, 4], because [1.5, 0.5]) with d_k = 2, and their values.  The rest of the numbers are
plotting coordinates, illustrative weights with no inputs behind them ("bank" / "river" 0.50, 0.30, 0.15), or code
whose output is not stored: none of them is derived, so none is in the truth."""
import numpy as np
from _truth import Truth

q = np.array([3, 1.]); Kx = np.array([[3, 1], [1, 4], [1.5, 0.5]]); Vx = np.array([[2.0, 1.5], [0.5, 0.3], [-0.5, 1.2]])
s = Kx @ q; z = s / np.sqrt(2); e = np.exp(z); a = e / e.sum(); c = a @ Vx
print("s", s, "z", z, "exp", e, "a", a, "context", c)
# what the text carries: 1.41 for sqrt(2), its 7.09 / 4.96 / 3.54, its 0.87 / 0.10 / 0.03
z_c = s / 1.41; e_c = np.exp(np.round(z_c, 2)); a_p = np.array([0.87, 0.10, 0.03])

T = Truth("fieldA-10-snowch-myst-bank")
for j, name in enumerate(["animal", "street", "because"]):
    T.row([s[j]], f"s({name})", T.find(f"* Score ({name}):"))
T.num("1.41", np.sqrt(2), "sqrt(d_k)", T.find("÷√2 ≈ ÷1.41"))
T.num("1.41", np.sqrt(2), "sqrt(d_k)", T.find(r"We divide by $\sqrt{2} \approx 1.41$"))
for j, name in enumerate(["animal", "street", "because"]):
    at = T.find(f"* Scaled Score ({name}):")
    T.num("1.41", np.sqrt(2), "sqrt(d_k) (repeated)", at)
    T.row([z[j]], f"s({name})/sqrt(d_k)", at, carried=[z_c[j]])
for j, (needle, nth) in enumerate((("P_1 &=", 0), ("P_2 &=", 0), ("P_3 &=", 0))):
    at = T.find(needle)
    T.row(z if j == 0 else np.r_[z[j], z], f"exponents in P_{j + 1}", at, carried=np.round(z_c, 2) if j == 0 else np.r_[z_c[j], z_c])
# the exponentials, truncated to integers under a declared ≈ (1199.9 -> 1199, 142.6 -> 142, 34.8 -> 34)
at = T.find(r"&\approx \frac{1199}{1199 + 142 + 34}")
for p, x, xc, w in (("1199", e[0], e_c[0], "exp(z_1)"), ("1199", e[0], e_c[0], "exp(z_1)"), ("142", e[1], e_c[1], "exp(z_2)"), ("34", e[2], e_c[2], "exp(z_3)")):
    T.num(p, x, w + " (truncated under ≈)", at, correct=True)
at = T.find(r"&\approx \frac{1199}{1375}")
T.num("1199", e[0], "exp(z_1) (truncated under ≈)", at, correct=True)
T.num("1375", e.sum(), "sum of exponentials", at, carried=1199 + 142 + 34)
at = T.find(r"&\approx \frac{142}{1375}"); T.num("142", e[1], "exp(z_2) (truncated under ≈)", at, correct=True); T.num("1375", e.sum(), "sum", at, carried=1375)
at = T.find(r"&\approx \frac{34}{1375}"); T.num("34", e[2], "exp(z_3) (truncated under ≈)", at, correct=True); T.num("1375", e.sum(), "sum", at, carried=1375)
for p, j, needle in (("87", 0, r"\mathbf{87\%}"), ("10", 1, r"\mathbf{10\%}"), ("3", 2, r"\mathbf{3\%}")):
    T.num(p, 100 * a[j], f"a_{j + 1} in percent", T.find(needle))
at = T.find(r"\text{Context} &= 0.87 \times")
T.nums(["0.87", "0.10", "0.03"], a, "a", at)
at = T.find(r"&= 0.87 \times [2.0, 1.5]")
T.nums(["0.87", "0.10", "0.03"], a, "a (repeated)", at)
at = T.find(r"&= [1.74, 1.31] + [0.05, 0.03] + [-0.01, 0.04]")
T.nums(["1.74", "1.31", "0.05", "0.03", "-0.01", "0.04"], (a[:, None] * Vx).ravel(), "a_j v_j", at,
       carried=(a_p[:, None] * Vx).ravel())
T.nums(["1.78", "1.37"], c, "context", T.find(r"&\approx [1.78, 1.37]"))
at = T.find("giving it 87% of the **attention weights**")
T.num("87", 100 * a[0], "a_1 in percent", at)
T.nums(["7.09", "4.96", "3.54"], z, "scaled scores", at, carried=z_c)
at = T.find("(our 7.09, 4.96, 3.54)")
T.nums(["7.09", "4.96", "3.54"], z, "scaled scores", at, carried=z_c)
T.nums(["87", "10", "3"], 100 * a, "a in percent", at)
T.nums(["87", "10", "3"], 100 * a, "a in percent (code comment)", T.find("# Matching our worked example"))
for j, needle in enumerate(["data[it_idx, animal_idx] = 0.87", "data[it_idx, street_idx] = 0.10", "data[it_idx, because_idx] = 0.03"]):
    T.num(needle.split("= ")[1], a[j], f"a_{j + 1} (code)", T.find(needle))
T.num("87", 100 * a[0], "a_1 in percent (plot title)", T.find("Row 'it' shows 87% attention"))
T.nums(["87", "10", "3"], 100 * a, "a in percent (code comment)", T.find("# Annotate weights from our worked example"))
T.num("0.87", a[0], "a_1 (code)", T.find("if abs(weight - 0.87)"))
T.num("1.41", np.sqrt(2), "sqrt(d_k) (plot text)", T.find("√2≈1.41)\\nweights"))
at = T.find('**What this shows:** We divide each score by √d_k=√2≈1.41')
T.num("1.41", np.sqrt(2), "sqrt(d_k)", at)
for p, x, w in (("87", 100 * a[0], "a_1 %"), ("10", s[0], "s_1"), ("10", 100 * a[1], "a_2 %"), ("7", s[1], "s_2"), ("3", 100 * a[2], "a_3 %"), ("5", s[2], "s_3")):
    T.num(p, x, w, at)
at = T.find("yields attention weights of 87%, 10%, and 3%")
T.nums(["87", "10", "3"], 100 * a, "a in percent", at)
at = T.find("context = 0.87×V_animal")
T.nums(["0.87", "0.10", "0.03"], a, "a", at); T.nums(["1.78", "1.37"], c, "context", at)
T.mark_own_errors()

T.slip(r"* Scaled Score (street): $7 / 1.41 \approx 4.96$", r"* Scaled Score (street): $7 / 1.41 \approx 4.69$", "swapped digits in a scaled score")
T.slip(r"&\approx \frac{1199}{1199 + 142 + 34} \\", r"&\approx \frac{1199}{1199 + 124 + 34} \\", "swapped digits in an exponential")
T.slip(r"&= [1.74, 1.31] + [0.05, 0.03] + [-0.01, 0.04] \\", r"&= [1.74, 1.31] + [0.05, 0.03] + [0.01, 0.04] \\", "a dropped sign in a weighted value")
T.slip(r"&\approx [1.78, 1.37]", r"&\approx [1.78, 1.73]", "swapped digits in the context vector")
T.write()
