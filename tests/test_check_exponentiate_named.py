"""A softmax worked in one sentence of prose: "take the softmax: subtract the max, `[0, -8, -11]`, exponentiate,
`[1, e^-8, e^-11] = [1, 0.000335, 0.0000167]`, then divide by the sum".  The exponentials were judged as the weights
(the sentence's first name, "softmax", taken over the word right before them), so the exact `1` = e^0 became a
finding "A[1,1]: printed 1; exact 0.9996" (an essay on QK-norm in t229a).  "exponentiate" now names the
exponentials (vocabulary.py), and the name right before an array wins over one further back in its sentence when
every entry bears it out (claims/attribute.py).  A slip in the exponentials is still found.  My own numbers."""

import math

S = [13, 5, 2]
E = [math.exp(s - max(S)) for s in S]
A = [e / sum(E) for e in E]


def _page(e2=f"{E[1]:.6f}"):
    return ("# Why a gap of a few points is enough\n\n"
            f"Suppose one query's scores are `[{S[0]}, {S[1]}, {S[2]}]`. Let me take the softmax: subtract the "
            f"max, `[0, -8, -11]`, exponentiate, `[1, e^-8, e^-11] = [1, {e2}, {E[2]:.7f}]`, then divide by the sum "
            f"`{sum(E):.6f}`, which gives `[{A[0]:.5f}, {A[1]:.5f}, {A[2]:.5f}]`.\n")


def _errors(text):
    from mha.check import check_document
    return check_document(text, fmt="md").errors


def test_the_exponentials_are_read_as_exponentials_and_check_clean():
    assert _errors(_page()) == []


def test_a_slip_in_the_exponentials_is_found():
    errs = _errors(_page(e2="0.000353"))
    assert [f.printed for f in errs] == ["0.000353"]
