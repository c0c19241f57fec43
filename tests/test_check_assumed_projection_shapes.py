"""A notebook that first works attention with the inputs alone (W = I, as the page does) and then sets
`W_key = torch.rand(d_in, d_out)` without printing it (outside trial t269a): the comment `# (6,3) @ (3,2) -> (6,2)`
was judged against the identity the reading assumes (3×3), and a demo tensor `a` printed as
`torch.Size([1, 2, 3, 4])` was taken for the attention weights A (6×6).  A projection the reading assumes has no
width to hold a shape to, and weights have a row per query and a column per key: a shape none of whose last two
sizes is either count is another tensor's.  My own numbers."""

import numpy as np

from check_helpers import code_notebook, error_findings

X = np.array([[0.43, 0.15, 0.89], [0.55, 0.87, 0.66], [0.57, 0.85, 0.64], [0.22, 0.58, 0.33], [0.77, 0.25, 0.10],
              [0.05, 0.80, 0.55]])


def t(M):
    rows = ",\n        ".join("[" + ", ".join(f"{v:.4f}" for v in r) + "]" for r in M)
    return f"tensor([{rows}])"


_INPUTS = ("inputs = torch.tensor([[0.43, 0.15, 0.89], [0.55, 0.87, 0.66], [0.57, 0.85, 0.64], [0.22, 0.58, 0.33], "
           "[0.77, 0.25, 0.10], [0.05, 0.80, 0.55]])\ninputs")
_WEIGHTS = ("d_in, d_out = 3, 2\nW_query = torch.rand(d_in, d_out)\nW_key = torch.rand(d_in, d_out)\n"
            "W_value = torch.rand(d_in, d_out)")
_DEMO = ("a = torch.tensor([[[[0.2, 0.8, 0.1, 0.5], [0.9, 0.3, 0.7, 0.4], [0.6, 0.1, 0.2, 0.3]],\n"
         "                   [[0.5, 0.4, 0.8, 0.9], [0.1, 0.6, 0.3, 0.2], [0.7, 0.2, 0.9, 0.8]]]])\n"
         "print('a shape: ', a.shape)")


def _notebook() -> str:
    S = X @ X.T
    E = np.exp(S - S.max(1, keepdims=True))
    A = E / E.sum(1, keepdims=True)
    return code_notebook([
        (_INPUTS, t(X)),
        ("attn_scores = inputs @ inputs.T\nattn_scores", t(S)),
        ("attn_weights = torch.softmax(attn_scores, dim=-1)\nattn_weights", t(A)),
        ("all_context_vecs = attn_weights @ inputs\nall_context_vecs", t(A @ X)),
        (_WEIGHTS, None),
        ("keys = inputs @ W_key  # (6,3) @ (3,2) -> (6,2)\nvalues = inputs @ W_value", None),
        (_DEMO, "a shape:  torch.Size([1, 2, 3, 4])"),
    ])


def test_shapes_of_an_assumed_projection_and_of_a_demo_tensor_are_not_judged():
    assert error_findings(_notebook(), "ipynb") == []


def test_the_scores_printed_before_them_are_still_checked():
    slipped = _notebook().replace(f"{(X @ X.T)[0, 0]:.4f}", "0.9999", 1)      # X[0]·X[0] = 1.0115
    assert [f.cell for f in error_findings(slipped, "ipynb")] == [2]
