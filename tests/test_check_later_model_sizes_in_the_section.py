"""A section that works a two-head example ("take T = 2, d = 4, H = 2, d_h = 2") and then, further down, sizes a
real model's KV cache ("Llama-2-7B: N = 32, H = 32, d_h = 128").  The later head count made the whole section
"another example", and the trace's findings in it were set aside: a slip in the example's head output, printed
before the other model is named, was missed (an outside trial's page, t237d).  A section that states the
configuration's H before another count works the example up to that other count (`claims/shape.py`).  My own
matrices and recomputation."""

import numpy as np

from check_helpers import error_findings, line_of

Q = np.array([[1.0, 0.0, 0.5, 1.0], [0.0, 1.0, 1.0, 0.0]])
K = np.array([[1.0, 1.0, 0.0, 1.0], [0.5, 0.0, 1.0, 0.0]])
V = np.array([[1.0, 2.0, 0.0, 1.0], [3.0, 0.0, 2.0, 1.0]])


def _outputs():
    out = []
    for h in range(2):
        c = slice(2 * h, 2 * h + 2)
        s = Q[:, c] @ K[:, c].T / np.sqrt(2)
        A = np.exp(s) / np.exp(s).sum(axis=1, keepdims=True)
        out.append(A @ V[:, c])
    return out


def _tex(M):
    return "\\begin{bmatrix}" + "\\\\".join("&".join(f"{x:g}" for x in r) for r in M) + "\\end{bmatrix}"


def _page(o1=None):
    O1, O2 = _outputs()
    o1 = O1 if o1 is None else o1
    fmt = lambda M: "\\begin{bmatrix}" + "\\\\".join("&".join(f"{x:.3f}" for x in r) for r in M) + \
        "\\end{bmatrix}"        # noqa: E731
    return "\n".join([
        "**A two-head example by hand**", "",
        "Take $T=2$, $d=4$, $H=2$, $d_h=2$, scaled by $\\sqrt{d_h}$.  Each head takes two columns of Q, K and V.", "",
        f"$$Q={_tex(Q)},\\quad K={_tex(K)},\\quad V={_tex(V)}$$", "",
        f"$$O^{{(1)}}={fmt(o1)},\\qquad O^{{(2)}}={fmt(O2)}$$", "",
        "The cache keeps K and V for every layer.  For Llama-2-7B, $N=32$, $H=32$, $d_h=128$ and FP16, one token "
        "takes $2\\times 32\\times 32\\times 128\\times 2 = 524{,}288$ bytes.", ""])


def test_the_clean_example_holds():
    assert error_findings(_page()) == []


def test_a_slip_in_a_head_output_before_the_other_model_is_found():
    O1, _ = _outputs()
    wrong = O1.copy()
    wrong[1, 0] += 0.05
    page = _page(wrong)
    errs = error_findings(page)
    assert [(f.line, f.printed) for f in errs] == [(line_of(page, "O^{(1)}"), f"{wrong[1, 0]:.3f}")], \
        [f.message for f in errs]
