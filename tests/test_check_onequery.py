"""`mha check` on documents that start from one query or from printed scores, in the notations people use for
them (tests/check_corpus has the longer documents: md_seq2seq_one_query.md, nb_numpy_scaled_softmax_call.ipynb).

Every expected value here was computed with plain NumPy (see each test), not with mha."""

import json

import numpy as np
from mha.check import check_document


def _errors(text: str, name: str) -> list:
    return [f for f in check_document(text, name=name).findings if f.severity == "error"]


def _softmax(s: np.ndarray) -> np.ndarray:
    e = np.exp(s - s.max(axis=-1, keepdims=True))
    return e / e.sum(axis=-1, keepdims=True)


# ---------------------------------------------------------------- one decoder state against encoder states

_H = np.array([[0.8, 0.1, 0.3], [0.2, 0.7, 0.4], [0.5, 0.5, 0.9]])
_S = np.array([0.6, 0.2, 0.7])
_W = _softmax(_H @ _S)                    # [0.3099..., 0.2622..., 0.4278...]: unscaled dot attention


def _luong(weights: str) -> str:
    return f"""# Luong attention, one step

```python
def dot_attention(decoder_state, encoder_states):
    scores = encoder_states @ decoder_state
    weights = softmax(scores)
    return weights @ encoder_states, weights

H = np.array([
    [0.8, 0.1, 0.3],
    [0.2, 0.7, 0.4],
    [0.5, 0.5, 0.9],
])
s_now = np.array([0.6, 0.2, 0.7])
ctx, w = dot_attention(s_now, H)
print("weights:", w.round(3))
```

```
weights: {weights}
```
"""


def test_one_query_found_by_value_and_a_slip_in_three_weights():
    printed = " ".join(f"{x:.3f}" for x in _W)
    assert printed == "0.310 0.262 0.428"
    clean = _luong(f"[{printed}]")
    r = check_document(clean, name="luong.md")
    assert not r.errors
    assert "one query" in r.configuration.get("mode", "") + " ".join(r.configuration.values())
    assert r.n_numbers >= 3
    line = clean.split("\n").index(f"weights: [{printed}]") + 1
    slipped = _errors(_luong("[0.310 0.226 0.428]"), "luong.md")
    assert [(f.line, f.printed, f.step) for f in slipped] == [(line, "0.226", "softmax")]
    assert abs(slipped[0].exact - _W[1]) < 1e-9


def test_a_lone_vector_with_a_matrix_and_nothing_computed_is_no_start():
    # the same inputs with no printout after them: nothing is explained, so no one-query reading is claimed
    text = _luong("[0.310 0.262 0.428]").split("```\nweights:")[0]
    try:
        r = check_document(text, name="luong.md")
    except Exception as e:                     # nothing to check: exit 2 with a message, also fine
        assert "nothing" in str(e) or "could not" in str(e)
        return
    assert not r.errors


# ---------------------------------------------------------------- softmax(scores / keys.shape[-1]**0.5)

_SC = np.array([[1.000117, 0.708983, 0.459266, 1.005272], [0.757042, 1.182468, 1.450526, 1.352652],
                [1.481535, 1.151431, 0.853116, 1.581868], [0.406866, 0.709074, 0.905208, 0.794376]])


def _nb(weights: np.ndarray) -> str:
    def cell(src, out=None):
        c = {"cell_type": "code", "execution_count": None, "metadata": {}, "source": src, "outputs": []}
        if out is not None:
            c["outputs"] = [{"output_type": "execute_result", "execution_count": None, "metadata": {},
                             "data": {"text/plain": out}}]
        return c
    with np.printoptions(precision=8, suppress=True):
        cells = [cell("attn_scores = queries @ keys.T\nattn_scores", repr(_SC)),
                 cell("attn_weights = softmax(attn_scores / keys.shape[-1]**0.5)"),
                 cell("attn_weights", repr(weights))]
    return json.dumps({"cells": cells, "metadata": {}, "nbformat": 4, "nbformat_minor": 4})


def test_scaled_softmax_call_finds_the_scale_the_code_does_not_state():
    w = _softmax(_SC / np.sqrt(2.0))
    assert not _errors(_nb(w), "nb.ipynb")
    slipped = w.copy()
    slipped[1, 2] = float("0.29684345")            # 0.29648345 with two digits swapped
    assert f"{w[1, 2]:.8f}" == "0.29648345"
    errs = _errors(_nb(slipped), "nb.ipynb")
    assert [(f.cell, f.line, f.printed, f.step) for f in errs] == [(3, 2, "0.29684345", "softmax")]
    assert abs(errs[0].exact - w[1, 2]) < 1e-9


def test_weights_of_another_scale_are_not_judged_as_a_slip():
    # weights of the scores divided by 3 (a width the code does not give): √d never fits, no finding
    w = _softmax(_SC / 3.0)
    assert not _errors(_nb(w), "nb.ipynb")


# ---------------------------------------------------------------- softmax calls written out, with remarks

def test_softmax_lines_with_arrow_remarks_are_read_one_by_one():
    p1, p2 = _softmax(np.array([2.0, 4.0, 3.0])), _softmax(np.array([15.0, 3.0, 0.0]))
    assert [f"{x:.3f}" for x in p1] == ["0.090", "0.665", "0.245"]
    assert f"{p2[0]:.10f}" == "0.9999935499"      # cut after 8 decimals: 0.99999354 (rounded: ...355)
    block = ("# Sharp and soft\n\n```\n"
             "softmax([2, 4, 3])    = [0.090, 0.665, 0.245]        ← step 2 wins\n"
             "softmax([15, 3, 0])   = [0.99999354, 0.00000614, 0.00000030]   ← almost one-hot\n```\n")
    assert not _errors(block, "s.md")
    errs = _errors(block.replace("0.665", "0.656"), "s.md")
    assert [(f.line, f.printed) for f in errs] == [(4, "0.656")]
    errs = _errors(block.replace("0.99999354", "0.99999534"), "s.md")
    assert [(f.line, f.printed) for f in errs] == [(5, "0.99999534")]


# ---------------------------------------------------------------- masked after the softmax, normalized again

_A = _softmax(_SC / np.sqrt(2.0))


def _renorm_nb(normed: np.ndarray, masked: np.ndarray | None = None) -> str:
    def cell(src, out):
        return {"cell_type": "code", "execution_count": None, "metadata": {}, "source": src,
                "outputs": [{"output_type": "stream", "name": "stdout", "text": out}]}
    masked = np.tril(_A) if masked is None else masked
    with np.printoptions(precision=4, suppress=True, floatmode="fixed"):
        cells = json.loads(_nb(_A))["cells"] + [
                 cell("masked = attn_weights * mask\nprint(masked)", str(masked) + "\n"),
                 cell("row_sums = masked.sum(dim=-1, keepdim=True)\nmasked_norm = masked / row_sums\n"
                      "print(masked_norm)", str(normed) + "\n")]
    return json.dumps({"cells": cells, "metadata": {}, "nbformat": 4, "nbformat_minor": 4})


def test_weights_normalized_again_after_the_mask_are_judged_against_their_row_sums():
    masked = np.round(np.tril(_A), 4)              # as printed
    normed = masked / masked.sum(axis=1, keepdims=True)
    assert not _errors(_renorm_nb(normed), "r.ipynb")
    slipped = np.round(normed, 4)
    assert f"{slipped[3, 1]:.4f}" == "0.2488"
    slipped[3, 1] = 0.2848
    errs = _errors(_renorm_nb(slipped), "r.ipynb")
    assert [(f.cell, f.line, f.printed, f.step) for f in errs] == [(5, 4, "0.2848", "softmax")]
    assert abs(errs[0].exact - normed[3, 1]) < 1e-4


def test_a_slip_in_the_masked_row_is_found_there_not_in_the_normalized_one():
    """t155c: one entry of the masked printout slipped, the normalized row (computed before the slip) printed right:
    every entry of that normalized row disagrees with the printed masked row; the one masked entry that explains
    them is the finding (claims/renorm._slipped_entry), not four entries that are right."""
    masked = np.round(np.tril(_A), 4)
    normed = np.round(masked / masked.sum(axis=1, keepdims=True), 4)
    assert masked[3, 2] > 0.1
    slipped = masked.copy()
    slipped[3, 2] = round(masked[3, 2] + 0.01, 4)
    errs = _errors(_renorm_nb(normed, slipped), "r.ipynb")
    assert [(f.cell, f.line, f.printed) for f in errs] == [(4, 4, f"{slipped[3, 2]:.4f}")], \
        [f.describe() for f in errs]
    assert abs(errs[0].exact - masked[3, 2]) < 2e-4


# ---------------------------------------------------------------- a library demo's shapes

def _demo(sizes: str, batch_first: bool = True, average: str = "", kv: str = "3, 9, 64") -> str:
    return f"""# The same in PyTorch

```python
import torch
import torch.nn as nn

attn = nn.MultiheadAttention(embed_dim=64, num_heads=4, batch_first={batch_first})
q = torch.randn(3, 7, 64)
kv = torch.randn({kv})
out, w = attn(q, kv, kv{average})
print(out.shape, w.shape)
```

```
{sizes}
```
"""


def test_the_shapes_of_a_multihead_attention_demo_follow_from_its_tensors():
    # PyTorch's documented shapes: output (N, L, E) with batch_first; weights (N, L, S), or (N, H, L, S) unaveraged
    ok = "torch.Size([3, 7, 64]) torch.Size([3, 7, 9])"
    assert not _errors(_demo(ok), "demo.md")
    errs = _errors(_demo("torch.Size([3, 7, 64]) torch.Size([3, 9, 7])"), "demo.md")
    assert [(f.line, f.printed, f.rounded) for f in errs] == [(15, "[3, 9, 7]", "[3, 7, 9]")]
    assert not _errors(_demo("torch.Size([3, 7, 64]) torch.Size([3, 4, 7, 9])", average=", average_attn_weights=False"),
                       "demo.md")
    # without batch_first the first size is the sequence: a (L=3, N=7) query against (S=9, N=7) keys
    sizes = "torch.Size([3, 7, 64]) torch.Size([7, 3, 9])"
    assert not _errors(_demo(sizes, batch_first=False, kv="9, 7, 64"), "demo.md")
    errs = _errors(_demo("torch.Size([3, 7, 64]) torch.Size([3, 7, 9])", batch_first=False, kv="9, 7, 64"), "demo.md")
    assert [(f.printed, f.rounded) for f in errs] == [("[3, 7, 9]", "[7, 3, 9]")]


def test_the_demo_shape_rules_agree_with_torch():
    import ast

    import torch
    from mha.check.readers.torchshapes import scan
    cases = [(True, (3, 7, 64), (3, 9, 64), True), (True, (3, 7, 64), (3, 9, 64), False),
             (False, (3, 7, 64), (9, 7, 64), True), (False, (5, 64), (6, 64), True), (False, (5, 64), (6, 64), False)]
    for batch_first, qs, ks, average in cases:
        code = (f"attn = nn.MultiheadAttention(embed_dim=64, num_heads=4, batch_first={batch_first})\n"
                f"q = torch.randn{qs}\nk = torch.randn{ks}\nout, w = attn(q, k, k, average_attn_weights={average})\n")
        shapes: tuple[dict, dict, dict] = ({}, {}, {})
        scan(ast.parse(code), *shapes)
        m = torch.nn.MultiheadAttention(64, 4, batch_first=batch_first)
        k = torch.randn(*ks)
        out, w = m(torch.randn(*qs), k, k, average_attn_weights=average)
        assert shapes[2] == {"out": list(out.shape), "w": list(w.shape)}, (batch_first, qs, ks, average)


def _bmm_nb(size: str) -> str:
    """A notebook that works one weighted average, then shows a batched product of tensors of stated sizes."""
    cells = [
        {"cell_type": "markdown", "id": "m1", "metadata": {},
         "source": "Weights [0.25, 0.75] over the values [2, 6] give 0.25 × 2 + 0.75 × 6 = 5.\n"},
        {"cell_type": "code", "id": "c1", "metadata": {}, "execution_count": 1,
         "source": "A = torch.ones((3, 1, 5))\nB = torch.ones((3, 5, 2))\ntorch.bmm(A, B).shape",
         "outputs": [{"output_type": "execute_result", "execution_count": 1, "metadata": {},
                      "data": {"text/plain": f"torch.Size({size})"}}]},
    ]
    return json.dumps({"cells": cells, "metadata": {}, "nbformat": 4, "nbformat_minor": 5})


def test_the_shape_of_a_batched_product_of_stated_sizes_is_judged():
    assert not _errors(_bmm_nb("[3, 1, 2]"), "bmm.ipynb")
    errs = _errors(_bmm_nb("[3, 1, 5]"), "bmm.ipynb")
    assert [(f.cell, f.line, f.printed, f.rounded) for f in errs] == [(2, 1, "[3, 1, 5]", "[3, 1, 2]")]


def test_the_product_shape_rules_agree_with_torch():
    import ast

    import torch
    from mha.check.readers.torchshapes import product_shape
    cases = [("torch.bmm(a, b)", (4, 2, 3), (4, 3, 5)), ("torch.matmul(a, b)", (2, 3), (3, 4)), ("a @ b", (6, 2, 3), (6, 3, 1)),
             ("torch.mm(a, b)", (5, 2), (2, 7)), ("a @ b", (2, 3), (5, 3, 4))]
    for expr, sa, sb in cases:
        got = product_shape(expr, {"a": list(sa), "b": list(sb)})
        a, b = torch.ones(*sa), torch.ones(*sb)
        want = list(eval(compile(ast.parse(expr, mode="eval"), "e", "eval"), {"torch": torch, "a": a, "b": b}).shape)
        assert got in (want, None) and (got is not None or sa[:-2] != sb[:-2]), (expr, got, want)
    assert product_shape("torch.bmm(a, b)", {"a": [4, 2, 3], "b": [4, 4, 5]}) is None      # the inner sizes differ
