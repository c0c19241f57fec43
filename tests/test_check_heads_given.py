"""A page that starts from the heads' outputs: `head_1 = [..]`, `head_2 = [..]`, their concatenation, a printed
W_O and `Output = Concat · W_O`.  No X, Q, K or V is printed, so no start was found and the concatenation and the
output were left unchecked (three pages of t230b, one of them with a 6×6 W_O).  The heads' outputs are now a start
of their own (infer/starts.py `_heads_modes`): each head attends to itself alone, so its output is the printed head,
and W_O is searched as after X.  My own matrices."""

import numpy as np

H1 = np.array([[0.62, -0.15], [0.34, 0.48], [-0.20, 0.91]])
H2 = np.array([[0.05, 0.77], [-0.41, 0.12], [0.66, -0.08]])
W_O = np.array([[0.5, -0.2, 0.1, 0.0], [0.3, 0.4, -0.1, 0.2], [0.0, 0.1, 0.6, -0.3], [-0.2, 0.0, 0.2, 0.7]])


def _m(name, m, d=2):
    rows = r" \\ ".join(" & ".join(f"{v:.{d}f}" for v in r) for r in m)
    return f"$$ {name} = \\begin{{bmatrix}} {rows} \\end{{bmatrix}} $$"


def _page(concat=None, out=None):
    C = np.concatenate([H1, H2], axis=1)
    concat = C if concat is None else concat
    out = C @ W_O if out is None else out
    return "\n\n".join(["# Joining two heads", "The two heads have produced:", _m(r"\text{head}_1", H1),
                        _m(r"\text{head}_2", H2), "Side by side:", _m(r"\text{Concat}", concat),
                        "The output projection:", _m("W_O", W_O, 1), "$$ \\text{Output} = \\text{Concat} \\cdot W_O $$",
                        _m(r"\text{Output}", out, 3), ""])


def _report(text):
    from mha.check import check_document
    return check_document(text, fmt="md")


def test_the_concatenation_and_the_output_are_checked_and_hold():
    r = _report(_page())
    assert r.errors == [] and r.n_numbers >= 24, (r.n_numbers, r.configuration)
    assert "heads' outputs given" in " ".join(map(str, r.configuration.values()))


def test_slips_in_the_output_and_the_concatenation_are_found():
    C = np.concatenate([H1, H2], axis=1)
    out = C @ W_O
    out[2, 1] += 0.02
    assert [f.printed for f in _report(_page(out=out)).errors] == [f"{out[2, 1]:.3f}"]
    bad = C.copy()
    bad[1, 3] = 0.21
    errs = _report(_page(concat=bad)).errors
    assert [f.printed for f in errs] == ["0.21"], [f.describe() for f in errs]
