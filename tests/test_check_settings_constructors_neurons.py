"""Three more things the trials t175a and t175d read as slips of the attention example (pages of my own here):

- outputs printed under the switches that made them (`divide = False   hide the future = True   -> output`): the
  unscaled block is the setting shown, not a "missing scale" slip, while the scaled one is judged;
- `scores = torch.ones(3, 3)` in a separate block that fails on purpose: a value the code sets with a constructor is
  not the example's Q Kᵀ;
- `w1=0.4`, `w2=-0.2` in a single-neuron exercise of the same page: a neuron's weights, not attention weights."""

import numpy as np

from mha.check import check_document

Q = np.array([[1.0, 0.0], [0.0, 1.0], [1.0, 1.0]])
V = np.array([[0.0, 1.0], [1.0, 0.0], [1.0, 1.0]])


def _causal(scale):
    s = Q @ Q.T * scale
    s[np.triu_indices(3, 1)] = -np.inf
    e = np.exp(s - s.max(1, keepdims=True))
    return e / e.sum(1, keepdims=True)


def _rows(m, d=4):
    return "\n".join("[" + ", ".join(f"{x:.{d}f}" for x in r) + "]" for r in m)


GIVEN = "```python\nQ = [[1, 0], [0, 1], [1, 1]]\nK = [[1, 0], [0, 1], [1, 1]]\nV = [[0, 1], [1, 0], [1, 1]]\n```\n"


def _switches_page(slip=None):
    a1, a0 = _causal(1 / np.sqrt(2)), _causal(1.0)
    text = "\n".join(["# Two switches", "", GIVEN, "Outputs:", "", "```text",
                      "divide = False   hide the future = True   -> output", _rows(a0 @ V), "",
                      "divide = True   hide the future = True   -> output", _rows(a1 @ V), "```", "",
                      "Scaled, causal weights:", "", "```text", _rows(a1), "```", ""])
    return text.replace(*slip) if slip else text, a1 @ V


def test_an_output_under_its_switch_is_no_slip():
    text, _ = _switches_page()
    r = check_document(text, fmt="md")
    assert not r.errors, [f.describe() for f in r.findings]


def test_a_slip_in_the_scaled_output_is_still_found():
    text, o = _switches_page()
    right = f"{o[2, 0]:.4f}"
    wrong = f"{o[2, 0] + 0.01:.4f}"
    r = check_document(text.replace(f"[{right},", f"[{wrong},"), fmt="md")
    assert wrong in [f.printed for f in r.errors], [f.describe() for f in r.findings]


def test_a_constructed_matrix_in_another_block_is_not_the_scores():
    a = _causal(1 / np.sqrt(2))
    text = "\n".join(["# Causal weights", "", GIVEN, "Scaled, causal weights:", "", "```text", _rows(a), "```", "",
                      "A separate snippet that fails on purpose:", "", "```python", "import torch",
                      "scores = torch.ones(3, 3)", "mask = torch.tril(torch.ones(3, 3))",
                      "print(scores.masked_fill(mask, float('-inf')))", "```", ""])
    r = check_document(text, fmt="md")
    assert not r.errors, [f.describe() for f in r.findings]


def test_a_neurons_weights_are_not_attention_weights():
    s = Q[:1] @ np.array([[1.0, 0.0], [0.0, 1.0], [1.0, 1.0]]).T / np.sqrt(2)
    w = np.exp(s - s.max())
    w = (w / w.sum())[0]
    text = "\n".join(["# Practice", "", "## N-1. Single neuron", "",
                      "Question: `x1=2`, `x2=1`, `w1=0.4`, `w2=-0.2`, `b=0.1`. Find the output with a sigmoid.", "",
                      "```text", "z = 0.4(2) + (-0.2)(1) + 0.1 = 0.7", "```", "", "## A-1. Three keys", "",
                      "Question: `Q=[1,0]`, `K1=[1,0]`, `K2=[0,1]`, `K3=[1,1]`, `V1=[0,1]`, `V2=[1,0]`, `V3=[1,1]`.",
                      "", "```text", f"softmax weights = [{', '.join(f'{x:.3f}' for x in w)}]", "```", ""])
    r = check_document(text, fmt="md")
    assert not r.errors, [f.describe() for f in r.findings]
