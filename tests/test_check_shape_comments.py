"""Comments in code that state tensor sizes (`# [2, 8, 10, 64] -> [2, 10, 512]`, `print(x.shape)  # [2, 10, 64]`,
`# W_O: [2, 10, 512] -> [2, 10, 512]`) are shapes, not values: read as values they became a W_O of the worked
example and the query and keys of a second one, with claims that "held" on nothing.  A comment holding values
(`# [1, 0, 1] -> [0.422, 0.155, 0.422]`) is still read."""

import nbformat

from mha.check import check_document

WORKED = """# 手算注意力

给定 Q 和 K（d_k = 2）：

$$Q = \\begin{bmatrix} 1 & 0 \\\\ 0 & 1 \\\\ 1 & 1 \\end{bmatrix}, \\quad
K = \\begin{bmatrix} 1 & 1 \\\\ 0 & 1 \\\\ 1 & 0 \\end{bmatrix}$$

$$QK^T = \\begin{bmatrix} 1 & 0 & 1 \\\\ 1 & 1 & 0 \\\\ 2 & 1 & 1 \\end{bmatrix}$$

$$\\frac{QK^T}{\\sqrt{2}} = \\begin{bmatrix} 0.7071 & 0 & 0.7071 \\\\ 0.7071 & 0.7071 & 0 \\\\
1.4142 & 0.7071 & 0.7071 \\end{bmatrix}$$
"""

CODE = """
## 代码

```python
class MultiHead(nn.Module):
    def forward(self, x):
        # 拆成多头：[2, 10, 512] -> [2, 8, 10, 64]
        q = self.w_q(x).view(b, t, 8, 64).transpose(1, 2)
        out = attn(q, k, v)
        # [2, 8, 10, 64] -> [2, 10, 8, 64] -> [2, 10, 512]
        out = out.transpose(1, 2).reshape(b, t, 512)
        # W_O 融合：[2, 10, 512] -> [2, 10, 512]
        return self.w_o(out)

x = torch.randn(2, 16, 512)
print(x.shape)        # [2, 16, 512]
pe = encode(x[..., :64])
print(f"编码后: {pe.shape}")  # [2, 10, 64]
```
"""


def test_shape_comments_are_not_values():
    r = check_document(WORKED + CODE, fmt="md")
    assert not r.findings, [f.describe() for f in r.findings]
    assert "printed" not in r.configuration.get("W_O", ""), r.configuration
    assert not any("another example" in e for e in r.evidence), r.evidence


def test_a_slip_in_the_worked_example_is_still_found():
    r = check_document((WORKED + CODE).replace("1.4142 & 0.7071", "1.4124 & 0.7071"), fmt="md")
    assert [(f.line, f.printed) for f in r.findings if f.severity == "error"] == [(11, "1.4124")], \
        [f.describe() for f in r.findings]


def test_a_comment_with_values_is_still_read():
    doc = WORKED + """
```python
w = softmax(s[0])   # [0.7071, 0, 0.7071] -> [0.4011, 0.1978, 0.4011]
```
"""
    ok = check_document(doc, fmt="md")
    bad = check_document(doc.replace("0.1978, 0.4011]", "0.1987, 0.4011]"), fmt="md")
    assert not ok.findings, [f.describe() for f in ok.findings]
    assert [f.printed for f in bad.findings if f.severity == "error"] == ["0.1987"], \
        [f.describe() for f in bad.findings]


def test_shape_of_a_scratch_tensor_printed_just_before():
    """`a = torch.tensor([[1, 2, 3], [4, 5, 6]]); print(a); print(a.shape)` in a scratch cell after the example: the
    shape is that printout's, not the attention weights' (the name `a` reads as A; it was a false "wrong shape")."""
    import json
    import numpy as np
    S = np.array([[1.0, 0.0, 1.0], [0.0, 2.0, 1.0], [1.0, 1.0, 0.0]])
    e = np.exp(S - S.max(1, keepdims=True))
    W = e / e.sum(1, keepdims=True)

    def grid(M, d):
        return "tensor([" + ",\n        ".join("[" + ", ".join(f"{x:.{d}f}" for x in r) + "]" for r in M) + "])"

    def cell(n, src, out):
        return {"cell_type": "code", "execution_count": n, "id": f"c{n}", "metadata": {}, "source": src,
                "outputs": [{"output_type": "stream", "name": "stdout", "text": out}]}
    cells = [cell(1, "print(scores)", grid(S, 4) + "\n"),
             cell(2, "weights = torch.softmax(scores, dim=-1)\nprint(weights)", grid(W, 4) + "\n"),
             cell(3, "a = torch.tensor([[1, 2, 3], [4, 5, 6]])\nprint(a)\nprint(a.shape)",
                  "tensor([[1, 2, 3],\n        [4, 5, 6]])\ntorch.Size([2, 3])\n"),
             cell(4, "print(weights.sum(dim=-1))\nprint(weights)", "tensor([1., 1., 1.])\n" + grid(W, 4) + "\n")]
    r = check_document(json.dumps({"cells": cells, "metadata": {}, "nbformat": 4, "nbformat_minor": 5}), fmt="ipynb")
    assert not r.findings and r.n_claims >= 1, [f.describe() for f in r.findings]


HEADS = """# Two heads

Two heads, each of width 2:

$$Q = \\begin{bmatrix} 1 & 0 & 1 & 0 \\\\ 0 & 1 & 0 & 1 \\\\ 1 & 1 & 0 & 0 \\end{bmatrix}, \\quad
K = \\begin{bmatrix} 0 & 1 & 1 & 0 \\\\ 1 & 0 & 0 & 1 \\\\ 1 & 1 & 1 & 1 \\end{bmatrix}$$

Head 1 scores, $Q_1 K_1^T / \\sqrt{2}$:

$$S^{(1)} = \\begin{bmatrix} 0 & 0.7071 & 0.7071 \\\\ 0.7071 & 0 & 0.7071 \\\\ 0.7071 & 0.7071 & 1.4142
\\end{bmatrix}$$

Head 2 scores:

$$S^{(2)} = \\begin{bmatrix} 0.7071 & 0 & 0.7071 \\\\ 0 & 0.7071 & 0.7071 \\\\ 0 & 0 & 0 \\end{bmatrix}$$
"""


def _split_printed(t: int) -> str:
    nb = nbformat.v4.new_notebook()
    code = nbformat.v4.new_code_cell("keys = K.view(1, 3, 2, 2)   # split into heads, before the transpose\n"
                                     "print(keys.shape)")
    code.outputs = [nbformat.v4.new_output("stream", name="stdout", text=f"torch.Size([1, {t}, 2, 2])\n")]
    after = nbformat.v4.new_code_cell("print(scores[0, 1])     # head 2's scores, from the split heads")
    after.outputs = [nbformat.v4.new_output("stream", name="stdout", text="tensor([[0.7071, 0.0000, 0.7071],\n"
                                            "        [0.0000, 0.7071, 0.7071],\n        [0.0000, 0.0000, 0.0000]])\n")]
    nb.cells = [nbformat.v4.new_markdown_cell(HEADS), code, after]
    return nbformat.writes(nb)


def test_heads_split_before_the_transpose_have_their_own_shape():
    """`K.view(b, T, H, d)` printed before `.transpose(1, 2)` is (1, 3, 2, 2): the heads' (1, 2, 3, 2) with the
    token and head axes not yet swapped, no wrong shape (a public notebook drew two false findings); a wrong size
    is still found."""
    r = check_document(_split_printed(3), fmt="ipynb")
    assert not r.errors, [f.describe() for f in r.errors]
    r = check_document(_split_printed(4), fmt="ipynb")
    assert [f.claim for f in r.errors] == ["shape of K"], [f.describe() for f in r.findings]


FFN = """# A decoder block

## Self-attention

With $W_Q = W_K = W_V = I$, the input is

$$X = \\begin{bmatrix} 1 & 0 & 1 \\\\ 0 & 1 & 1 \\end{bmatrix}$$

$$QK^T = \\begin{bmatrix} 2 & 1 \\\\ 1 & 2 \\end{bmatrix}$$

## Feed-Forward Network (FFN)

Step 1, linear (3 → 6): [0.4, 0.3, 0.6] × W₁[3×6] + b₁ = [0.3, -0.5, 0.7, 0.2, -0.1, 0.4]

Step 2, linear (6 → 3): × W₂[6×3] + b₂ = [0.6, -0.2, 0.8]
"""


def test_sizes_under_a_feed_forward_heading_are_not_the_attention_weights():
    """`W₁[3×6]` in the feed-forward section names that layer's weight (read as W_Q, two false wrong shapes on a public
    page whose configuration came from a stray vector with every weight assumed); under a heading about another
    layer a size is no shape claim of attention's."""
    from mha.check.claims.shape import ShapeClaim
    from mha.check.infer import infer, prepare
    from mha.check.judge import Judge
    from mha.check.readers import read_document
    doc = read_document(FFN, "md")
    objs, bases = prepare(doc, None)
    inf = infer(doc, objs, bases)
    judge = Judge(doc, inf, inf.best.cand.mapping(), False)
    assert not [c for c in judge.claims() if isinstance(c, ShapeClaim) and c.place.line >= 11]
    r = check_document(FFN, fmt="md")
    assert not r.errors, [f.describe() for f in r.errors]
    r = check_document(FFN.replace("2 & 1 \\\\ 1 & 2", "2 & 1 \\\\ 1 & 3"), fmt="md")
    assert [f.line for f in r.errors] == [9], [f.describe() for f in r.findings]
