"""A printout pasted as a blockquote, each row on its own quoted line with an empty quoted line between: `> W_Q:
Parameter containing:`, `>`, `> tensor([[...],`, `>`, `> [...]])`.  With the blank lines between the header and
the tensor, "W_Q: Parameter containing:" no longer named the tensor, so `Q = X @ W_Q` printed below could not be
checked and a slip in Q went unfound (a tutorial on causal attention in t230c).  The name carries over blank lines
(readers/python.py `_NAMED_PARAMETER`).  My own matrices."""

import numpy as np

from check_helpers import error_findings

X = np.array([[0.5, -1.0, 0.25], [1.5, 0.0, -0.5]])
W = np.array([[0.2961, 0.5166, 0.2517], [0.0740, 0.8665, 0.1366], [0.1841, 0.7264, 0.3153]])


def _quoted(name, m, header=""):
    rows = [f"[{', '.join(f'{v:7.4f}' for v in r)}]" for r in m]
    body = "tensor([" + rows[0] + ",\n>\n> " + ",\n>\n> ".join(rows[1:]) + "])"
    return f"> {name}: {header}\n>\n> {body}" if header else f"> {name}: {body}"


def _page(Q=None):
    Q = X @ W if Q is None else Q
    return "\n".join(["# Projections", "", "```", "W_Q = torch.nn.Parameter(torch.rand(3, 3), requires_grad=False)",
                      'print("X:", X)', 'print("W_Q:", W_Q)', "Q = X @ W_Q", 'print("Q:", Q)', "```", "",
                      _quoted("X", X), ">", _quoted("W_Q", W, "Parameter containing:"), ">", _quoted("Q", Q), ""])


def _errors(text):
    return error_findings(text, "md")


def test_the_product_holds_on_the_clean_page():
    assert _errors(_page()) == []


def test_a_slip_in_the_product_is_found():
    Q = X @ W
    Q[1, 1] += 0.003
    assert [f.printed for f in _errors(_page(Q))] == [f"{Q[1, 1]:.4f}"]
