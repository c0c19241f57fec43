"""A slip in a printout that a later printout scales: `sims = torch.matmul(q, k.transpose(..))` printed with 0.4081 where q and k give
0.4078, then `scaled_sims = sims / 2**0.5` printed right (0.2884).  The scaled entry was judged against the slipped
one and blamed, "the scaling of the printout at line 12" (a course notebook's export, in a slipped copy of t232a).
Where the configuration identifies both printouts and the scaled entry is its value while the operand's is not,
the operand carries the finding (claims/formula.py `_operand_slipped`).  My own matrices."""

import numpy as np

from check_helpers import error_findings

X = np.array([[1.16, 0.23], [0.57, 1.36], [4.41, -2.16]])
WQ = np.array([[0.5406, -0.1657], [0.5869, 0.6496]])
WK = np.array([[-0.1549, 0.4275], [-0.3341, 0.1435]])
Q, K = np.round(X @ WQ, 4), np.round(X @ WK, 4)          # printed to four decimals, as torch shows them


def _t(m):
    return "tensor([" + ",\n        ".join("[" + ", ".join(f"{v:7.4f}" for v in r) + "]" for r in m) + "])"


def _l(m):
    return "[" + ", ".join("[" + ", ".join(f"{v:.4f}" for v in r) + "]" for r in m) + "]"


def _page(sims=None):
    S = (X @ WQ) @ (X @ WK).T
    sims = S if sims is None else sims
    return "\n".join(["# Similarities", "", "```python", "x = torch.tensor([[1.16, 0.23], [0.57, 1.36], [4.41, -2.16]])",
                      "W_q = torch.tensor(" + _l(WQ) + ")", "W_k = torch.tensor(" + _l(WK) + ")", "q = x @ W_q",
                      "k = x @ W_k", "print(q)", "print(k)", "```", "```", _t(Q), _t(K), "```", "", "```python",
                      "sims = torch.matmul(q, k.transpose(dim0=0, dim1=1))", "sims",
                      "```", "```", _t(sims), "```", "", "```python", "scaled_sims = sims / (torch.tensor(2)**0.5)",
                      "scaled_sims", "```", "```", _t(S / np.sqrt(2)), "```", ""])


def test_the_page_checks_clean():
    assert error_findings(_page()) == []


def test_the_slip_is_found_on_the_operand_not_on_its_scaled_copy():
    S = (X @ WQ) @ (X @ WK).T
    bad = S.copy()
    bad[1, 1] += 0.0003
    text = _page(bad)
    errs = error_findings(text)
    assert [f.printed for f in errs] == [f"{bad[1, 1]:.4f}"], [f.describe() for f in errs]
    assert "scaled" in errs[0].claim
