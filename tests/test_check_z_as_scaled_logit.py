"""`z` names the output in one notation (Alammar's z_1 = Σ softmax · v) and the scaled logit in another: a worked
page writes, under "Scale by √d_k", `z_{1,2} = \\frac{3.0000}{1.414214} ≈ 2.121320`.  The label was taken for the
output's entry [1, 2], so a right scaled score was a finding "O row 1[2]: printed 2.121320; exact 0.66" (a
decision-transformer walk-through in t229d).  Where a single letter that names outputs is given a worked value that
is no output entry but lands on a scaled score, the line is judged as that score (claims/target.py).  A slip in it
is still found, and a real output line named z is still judged as the output.  My own vectors."""

import math

q1 = [1.0, 2.0]
ks = [[2.0, 1.0], [1.0, 1.0]]
vs = [[0.5, 1.5], [2.0, -1.0]]
dots = [sum(a * b for a, b in zip(q1, k)) for k in ks]
z = [d / math.sqrt(2) for d in dots]
e = [math.exp(x - max(z)) for x in z]
w = [x / sum(e) for x in e]
y = [w[0] * vs[0][j] + w[1] * vs[1][j] for j in range(2)]


def _vec(v):
    return r"\begin{bmatrix} " + " & ".join(f"{x:.1f}" for x in v) + r" \end{bmatrix}"


def _page(z2=f"{z[1]:.6f}", y1=f"{y[0]:.6f}"):
    lines = ["# One query, two keys", "",
             f"- Query: $q_1 = {_vec(q1)}$",
             f"- Key 1: $k_1 = {_vec(ks[0])}$", f"- Key 2: $k_2 = {_vec(ks[1])}$",
             f"- Value 1: $v_1 = {_vec(vs[0])}$", f"- Value 2: $v_2 = {_vec(vs[1])}$", "",
             "## Dot products", "",
             f"$$q_1 \\cdot k_1 = (1.0 \\times 2.0) + (2.0 \\times 1.0) = \\mathbf{{{dots[0]:.4f}}}$$",
             f"$$q_1 \\cdot k_2 = (1.0 \\times 1.0) + (2.0 \\times 1.0) = \\mathbf{{{dots[1]:.4f}}}$$", "",
             "Scale by $\\sqrt{d_k} = \\sqrt{2} \\approx 1.414214$:",
             f"$$z_{{1, 1}} = \\frac{{{dots[0]:.4f}}}{{1.414214}} \\approx \\mathbf{{{z[0]:.6f}}}$$",
             f"$$z_{{1, 2}} = \\frac{{{dots[1]:.4f}}}{{1.414214}} \\approx \\mathbf{{{z2}}}$$", "",
             "## Weights", "",
             f"$$w_{{1, 1}} \\approx \\mathbf{{{w[0]:.6f}}}, \\quad w_{{1, 2}} \\approx \\mathbf{{{w[1]:.6f}}}$$", "",
             "## Output", "",
             f"$$y_1 = {w[0]:.6f} \\, {_vec(vs[0])} + {w[1]:.6f} \\, {_vec(vs[1])} = "
             f"\\begin{{bmatrix}} \\mathbf{{{y1}}} & \\mathbf{{{y[1]:.6f}}} \\end{{bmatrix}}$$", ""]
    return "\n".join(lines)


def _errors(text):
    from mha.check import check_document
    return check_document(text, fmt="md").errors


def test_a_scaled_logit_named_z_checks_clean():
    errs = _errors(_page())
    assert errs == [], [f.describe() for f in errs]


def test_a_slip_in_the_scaled_logit_is_found_as_a_score():
    slipped = f"{z[1] + 0.0004:.6f}"
    errs = _errors(_page(z2=slipped))
    assert [(f.printed, f.step) for f in errs] == [(slipped, "scale")], [f.describe() for f in errs]


def test_a_slip_in_the_output_is_still_found():
    slipped = f"{y[0] + 0.002:.6f}"
    errs = _errors(_page(y1=slipped))
    assert [f.printed for f in errs] == [slipped], [f.describe() for f in errs]
