"""An output block that names each printout by the call that printed it: "print(masked):" over the masked scores,
"print(attn_weights):" over the weights, both under the code that computes them.  The captions were read as
labels that name nothing, the two printouts were not tied to the code, and the page was refused (notes on a
book's causal-attention chapter, t230c).  `print(name):` now names its printout `name` (readers/markdown.py), so
the weights are judged against the masked scores by the code's own formula.  My own matrices."""

import numpy as np

S = np.array([[0.31, -np.inf, -np.inf], [0.42, 0.18, -np.inf], [0.27, 0.11, 0.35]])


def _weights():
    s = S / np.sqrt(2)
    e = np.exp(s - s.max(axis=1, keepdims=True))
    return e / e.sum(axis=1, keepdims=True)


def _t(m, tail):
    def cell(v):
        return "   -inf" if np.isneginf(v) else f"{v:7.4f}"
    rows = ",\n        ".join("[" + ", ".join(cell(v) for v in r) + "]" for r in m)
    return f"tensor([{rows}],\n       grad_fn=<{tail}>)"


def _page(w=None):
    w = _weights() if w is None else w
    return "\n".join([
        "# Hiding the future", "", "```python", "mask = torch.triu(torch.ones(3, 3), diagonal=1)",
        "masked = attn_scores.masked_fill(mask.bool(), -torch.inf)", "print(masked)",
        "attn_weights = torch.softmax(masked / keys.shape[-1]**0.5, dim=-1)", "print(attn_weights)", "```", "",
        "Which prints:", "", "```", "print(masked):", _t(S, "MaskedFillBackward0"), "",
        "print(attn_weights):", _t(w, "SoftmaxBackward0"), "```", ""])


def _report(text):
    from mha.check import check_document
    return check_document(text, fmt="md")


def test_the_printouts_named_by_their_calls_are_checked_and_hold():
    r = _report(_page())
    assert r.errors == [] and r.n_numbers >= 9, (r.n_numbers, [f.describe() for f in r.errors])


def test_a_slip_in_the_weights_is_found():
    w = _weights()
    w[1, 1] += 0.0030
    errs = _report(_page(w)).errors
    assert [f.printed for f in errs] == [f"{w[1, 1]:.4f}"], [f.describe() for f in errs]
