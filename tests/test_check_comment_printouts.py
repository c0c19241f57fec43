"""A script whose printed results are quoted in comments inside brackets after each print call:
`print(attn_scores_2)   #返回注意力分数（tensor([0.9544, 1.4950, 1.4754])）`.  The brackets around the quoted printout
are no part of it; the script was refused ("the numbers found are the inputs only")."""

import numpy as np

from mha.check import check_document

X = np.array([[0.43, 0.15, 0.89], [0.55, 0.87, 0.66], [0.57, 0.85, 0.64]])


def _script(slip: float = 0.0) -> str:
    s = X @ X[1]
    w = np.exp(s) / np.exp(s).sum()
    c = w @ X
    c[1] += slip
    t = lambda v: ", ".join(f"{x:.4f}" for x in v)  # noqa: E731
    return (f"import torch\ninputs = torch.tensor({X.tolist()})\nquery = inputs[1]\n"
            "attn_scores_2 = inputs @ query\n"
            f"print(attn_scores_2)                      #返回各位置的注意力分数（tensor([{t(s)}])）\n"
            "attn_weights_2 = torch.softmax(attn_scores_2, dim=0)\n"
            f"print(\"Attention weights:\", attn_weights_2)  #（Attention weights: tensor([{t(w)}])）\n"
            "context_vec_2 = attn_weights_2 @ inputs\n"
            f"print(context_vec_2)                      #（tensor([{t(c)}])）\n")


def test_printouts_quoted_in_brackets_are_read():
    r = check_document(_script(), fmt="py")
    assert not r.findings and r.n_numbers >= 6, [f.describe() for f in r.findings]


def test_a_slip_in_a_quoted_printout_is_found():
    r = check_document(_script(slip=0.0003), fmt="py")
    assert [f.line for f in r.findings if f.severity == "error"] == [9], [f.describe() for f in r.findings]
