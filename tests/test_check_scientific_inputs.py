"""Inputs printed in scientific notation, and scores printed once before their mask and once after it.

A torch printout switches to scientific notation when its entries span orders of magnitude: `1.6206e+00` beside
`2.8611e-05`.  Every entry then shows the same significant digits, so each one's rounding follows its own exponent;
the first is good to 5e-5, not to the 5e-10 of the second.  A product of such inputs carries the coarser rounding.

A notebook may print its scores, mask them with -inf and print them again: when the chain starts from the masked
copy (nothing before it explains the scale), the unmasked copy's hidden entries are numbers the start does not give,
and nothing can be said of them.  Both documents are this project's own."""

import json
import math

import numpy as np

from check_helpers import error_lines


def _sci(M: np.ndarray) -> str:
    rows = [", ".join(f"{v: .4e}" for v in r) for r in np.atleast_2d(M)]
    return "tensor([[" + "],\n        [".join(rows) + "]])"


def _fixed(M: np.ndarray) -> str:
    rows = [", ".join(f"{v: .4f}" for v in r) for r in np.atleast_2d(M)]
    return "tensor([[" + "],\n        [".join(rows) + "]])"


def _cell(src: str, out: str) -> dict:
    return {"cell_type": "code", "execution_count": 1, "metadata": {}, "source": src,
            "outputs": [{"output_type": "stream", "name": "stdout", "text": out + "\n"}]}


def _nb(cells: list) -> str:
    return json.dumps({"cells": cells, "metadata": {}, "nbformat": 4, "nbformat_minor": 5})


def scientific_notebook(slip: bool = False) -> str:
    rng = np.random.default_rng(11)
    x = rng.standard_normal((5, 6)) * np.array([1.0, 0.08, 1.4, 0.0004, 1.0, 0.5])
    s = x @ x.T
    e = np.exp(s / math.sqrt(6) - (s / math.sqrt(6)).max(axis=1, keepdims=True))
    a = e / e.sum(axis=1, keepdims=True)
    if slip:
        s[1, 2] += 0.01
    return _nb([_cell("x = torch.randn(5, 6) * spread\nprint(x)", _sci(x)),
                _cell("scores = x @ x.T\nprint(scores)", _fixed(s)),
                _cell("weights = torch.softmax(scores / math.sqrt(6), dim=-1)\nprint(weights)", _fixed(a)),
                _cell("context = weights @ x\nprint(context)", _fixed(a @ x))])


def test_inputs_in_scientific_notation_carry_each_entrys_own_rounding():
    assert error_lines(scientific_notebook(), "ipynb") == {}


def test_a_slipped_score_under_scientific_inputs_is_still_found():
    found = error_lines(scientific_notebook(slip=True), "ipynb")
    assert [f.claim for fs in found.values() for f in fs] in (["Q Kᵀ[2,3]"], ["Q Kᵀ[2,3]", "Q Kᵀ[2,3]"])


def masked_twice_notebook(slip: float = 0.0) -> str:
    """Two tokens' scores printed whole, then with the upper triangle set to -inf, then their softmax and the output; the
    scale (1/√2 for a head width of 2, while q is not split) is one the printed q and k do not show."""
    x, w = _x_w()
    q, k = x @ w.T, x @ w
    v = q
    s = q @ k.T / math.sqrt(2)
    shown = s.copy()
    shown[1, 0] += slip
    m = np.where(np.tril(np.ones((2, 2))) > 0, s, -np.inf)
    e = np.exp(m - m.max(axis=1, keepdims=True))
    a = e / e.sum(axis=1, keepdims=True)
    masked = "tensor([[[[" + "],\n          [".join(", ".join("    -inf" if math.isinf(t) else f"{t: .4f}" for t in r)
                                                   for r in m) + "]]]])"
    return _nb([_cell("print('Tokens:')\nprint(x)", "Tokens:\n" + _fixed(x)),
                _cell("q, k, v = (x @ proj.T).chunk(3, dim=1)\nprint('q:')\nprint(q)\nprint('k:')\nprint(k)\n"
                      "print('v:')\nprint(v)", f"q:\n{_fixed(q)}\nk:\n{_fixed(k)}\nv:\n{_fixed(v)}"),
                _cell("att = (q @ k.transpose(-2, -1)) / math.sqrt(head_dim)", ""),
                _cell("print(att)", _fixed(shown)),
                _cell("mask = torch.tril(torch.ones(2, 2)).view(1, 1, 2, 2)\nprint(mask)\n"
                      "att = att.masked_fill(mask == 0, float('-inf'))\nprint('Scores after the mask:')\n"
                      "print(att)", "tensor([[[[1., 0.],\n          [1., 1.]]]])\n"
                      "Scores after the mask:\n" + masked),
                _cell("att = torch.softmax(att, dim=-1)\nprint('Weights:')\nprint(att)", "Weights:\n" + _fixed(a)),
                _cell("y = att @ v\nprint('Head output:')\nprint(y)", "Head output:\n" + _fixed(a @ v))])


def test_scores_printed_before_their_mask_are_not_judged_where_the_mask_hides_them():
    assert error_lines(masked_twice_notebook(), "ipynb") == {}


def test_a_slip_in_a_seen_entry_of_the_unmasked_scores_is_still_found():
    """The hidden entries say nothing; the seen ones are the masked copy's own values, and a slip there shows."""
    found = error_lines(masked_twice_notebook(slip=0.01), "ipynb")
    assert [(f.cell, f.claim) for fs in found.values() for f in fs] == [(4, "Q Kᵀ^(1)[2,1]")]


def _x_w() -> tuple[np.ndarray, np.ndarray]:
    x = np.array([[2.0, 1.0, 0.0, 3.0], [1.0, 4.0, 2.0, 0.0]])
    w = np.array([[0.5, 0.1, 0.0, 0.2], [0.0, 0.3, 0.1, 0.0], [0.2, 0.0, 0.4, 0.1], [0.1, 0.2, 0.0, 0.3]])
    return x, w

