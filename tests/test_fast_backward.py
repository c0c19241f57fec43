"""The tiled backward (mha.fast_backward through mha.attention_backward and mha.forward_backward) against the
float64 reference (mha.backward), the reference against torch's SDPA autograd, float32 against float64, and
the memory bound (no T x S matrix)."""

import tracemalloc

import numpy as np
import pytest
from hypothesis import given, settings, strategies as st

import mha
from mha.backward import layer_backward
from mha.core import layer
from mha.grad import LEAVES, attention_backward, forward_backward
from mha.inputs import MHAInputError, parse_config
from test_backward import random_case


@st.composite
def problems(draw):
    """Per-head arrays with every variant: GQA, masks, causal alignments, padding, bias with -inf, windows,
    ALiBi, broadcast leading axes, and tiles that do not divide T or S."""
    B, G, rep = draw(st.integers(1, 2)), draw(st.integers(1, 3)), draw(st.integers(1, 3))
    H = G * rep
    T, S, d, dv = draw(st.integers(1, 30)), draw(st.integers(1, 30)), draw(st.integers(1, 6)), draw(st.integers(1, 6))
    g = np.random.default_rng(draw(st.integers(0, 2 ** 31)))
    gqa = rep > 1 or draw(st.booleans())
    q = g.standard_normal((B, H, T, d))
    k, v = g.standard_normal((B, G if gqa else H, S, d)), g.standard_normal((B, G if gqa else H, S, dv))
    if not gqa and draw(st.booleans()):
        k, v = k[:, :1], v[:, :1]                       # one key/value head broadcast to every query head
    kw = {"enable_gqa": gqa}
    kind = draw(st.sampled_from(["none", "causal", "bottom_right", "mask", "lengths", "bias"]))
    if kind == "causal":
        kw["causal"] = True
    elif kind == "bottom_right":
        kw["causal"] = "bottom_right"
    elif kind == "mask":
        kw["mask"] = g.random((B, 1, T, S)) < 0.7
    elif kind == "lengths":
        kw["key_lengths"] = g.integers(0, S + 1, size=B)
    elif kind == "bias":
        bias = g.standard_normal((T, S))
        bias[g.random((T, S)) < 0.2] = -np.inf
        kw["bias"] = bias
    if draw(st.booleans()):
        kw["window"] = draw(st.integers(1, 8))
    if draw(st.booleans()):
        kw["alibi"] = True
    if draw(st.booleans()):
        kw["scale"] = draw(st.sampled_from(["none", "1/d_k", 0.3]))
    block = (draw(st.integers(1, 9)), draw(st.integers(1, 9)))
    dO = g.standard_normal((B, H, T, dv))
    return q, k, v, dO, kw, block


@settings(max_examples=300, deadline=None)
@given(problems())
def test_tiled_backward_equals_the_reference(p):
    q, k, v, dO, kw, block = p
    want = attention_backward(q, k, v, dO, impl="reference", **kw)
    got = attention_backward(q, k, v, dO, block_size=block, **kw)
    for name, a, b, x in zip(("dq", "dk", "dv"), got, want, (q, k, v)):
        assert a.shape == b.shape == x.shape and a.dtype == np.float64, name
        np.testing.assert_allclose(a, b, rtol=0, atol=1e-12 * max(1.0, float(np.abs(b).max())), err_msg=name)


@settings(max_examples=150, deadline=None)
@given(problems())
def test_float32_backward_against_float64_reference(p):
    """float32 on float32-representable inputs against the float64 reference: within 2e-6 of each gradient's
    own scale, the forward's float32 bound (2e-6 of max |v|).  The scale is the gradient's largest entry, or
    the size of the factors that make it when the exact gradient cancels to 0 (one visible key, say).  The
    worst seen in runs of 150 and 300 cases was 2.8e-7 and 3.6e-7 (dv); the run prints it."""
    q, k, v, dO, kw, block = p
    if kw.get("scale") == "none":
        kw["scale"] = 0.3                               # unscaled scores of d = 6 normals stretch float32's exp
    q32, k32, v32, dO32 = (a.astype(np.float32) for a in (q, k, v, dO))
    kw32 = {n: (a.astype(np.float32) if n == "bias" else a) for n, a in kw.items()}
    want = attention_backward(*(a.astype(np.float64) for a in (q32, k32, v32, dO32)), impl="reference",
                              **{n: (a.astype(np.float64) if n == "bias" else a) for n, a in kw32.items()})
    got = attention_backward(q32, k32, v32, dO32, block_size=block, **kw32)
    scale = {"1/d_k": 1 / q.shape[-1], None: q.shape[-1] ** -0.5}.get(kw.get("scale"), kw.get("scale"))
    factors = float(np.abs(dO32).max() * np.abs(v32).max())
    sizes = {"dq": factors * float(np.abs(k32).max()) * scale, "dk": factors * float(np.abs(q32).max()) * scale,
             "dv": float(np.abs(dO32).max())}
    from test_backward import record
    for name, a, b in zip(("dq", "dk", "dv"), got, want):
        assert a.dtype == np.float32, name
        relative = float(np.abs(a - b).max()) / max(float(np.abs(b).max()), sizes[name], 1e-30)
        record(f"attention_backward float32 vs float64, relative to the gradient's scale: {name}", relative)
        assert relative <= 2e-6, name


@pytest.mark.parametrize("seed", range(60))
def test_reference_backward_matches_sdpa_autograd(seed):
    torch = pytest.importorskip("torch", reason="torch is a test dependency: pip install -e '.[test]'")
    g = np.random.default_rng(seed)
    B, G, rep, T, S, d, dv = 2, int(g.integers(1, 3)), int(g.integers(1, 3)), *g.integers(1, 9, size=4)
    H = G * rep
    q, k, v = g.standard_normal((B, H, T, d)), g.standard_normal((B, G, S, d)), g.standard_normal((B, G, S, dv))
    dO = g.standard_normal((B, H, T, dv))
    causal = bool(seed % 2 and T <= S)          # top-left causal with T <= S: no row sees nothing
    tq, tk, tv = (torch.tensor(a, requires_grad=True) for a in (q, k, v))
    out = torch.nn.functional.scaled_dot_product_attention(tq, tk, tv, is_causal=causal, enable_gqa=True)
    out.backward(torch.tensor(dO))
    for impl in ("reference", "tiled"):
        ours = attention_backward(q, k, v, dO, causal=causal, enable_gqa=True, impl=impl)
        for name, a, t in zip(("dq", "dk", "dv"), ours, (tq, tk, tv)):
            diff = float(np.abs(a - t.grad.numpy()).max())
            from test_backward import record
            record(f"attention_backward ({impl}) vs SDPA autograd: {name}", diff)
            assert diff <= 1e-12 * max(1.0, float(np.abs(t.grad.numpy()).max())), (impl, name, diff)


@pytest.mark.parametrize("seed", range(0, 320, 5))
def test_forward_backward_tiled_equals_the_trace(seed):
    """Every leaf gradient of a whole layer on the tiles against mha.backward on the same configuration."""
    data = random_case(seed)
    cfg = parse_config(data)
    ref = layer_backward(layer(cfg))
    got = forward_backward(data, block_size=(3, 2))
    assert got["L"] == pytest.approx(ref.L, rel=1e-12, abs=1e-12)
    for name in LEAVES:
        want = getattr(ref, name)
        if want is None:
            assert got[name] is None, name
            continue
        want = want if cfg.batched or name.startswith(("dW", "db")) else want[0]
        np.testing.assert_allclose(got[name], want, rtol=0, atol=1e-12 * max(1.0, float(np.abs(want).max())),
                                   err_msg=name)


def test_forward_backward_upstream_rules():
    data = dict(mha.DOCUMENT_EXAMPLE)
    by_sum = forward_backward(data)
    assert by_sum["L"] == pytest.approx(6.4758705390, abs=1e-9)
    dY = np.arange(12.0).reshape(3, 4)
    given_dY = forward_backward(data, dY)
    np.testing.assert_array_equal(given_dY["dY"], dY)
    with_key = forward_backward(dict(data, backward={"dY": dY.tolist()}), impl="reference")
    np.testing.assert_allclose(given_dY["dX"], with_key["dX"], rtol=0, atol=1e-12)
    with pytest.raises(MHAInputError, match=r"dY: shape \[2, 4\] does not fit Y, which is \[3, 4\]"):
        forward_backward(data, np.ones((2, 4)))


def test_given_out_and_lse_are_used_and_checked():
    g = np.random.default_rng(0)
    q, k, v, dO = (g.standard_normal((2, 5, 3)) for _ in range(4))
    from mha.fast_backward import flash_forward, prepare
    a, _ = prepare(q, k, v, scale=3 ** -0.5, causal="none", mask=None, bias=None, key_lengths=None, window=None,
                   alibi=None, groups=1)
    o, lse = flash_forward(a)
    np.testing.assert_allclose(o.reshape(2, 5, 3), mha.attention(q, k, v, impl="reference"), rtol=0, atol=1e-14)
    S = q @ k.swapaxes(-1, -2) / 3 ** 0.5
    np.testing.assert_allclose(lse.reshape(2, 5), np.log(np.exp(S).sum(-1)), rtol=0, atol=1e-14)
    given_ = attention_backward(q, k, v, dO, out=o.reshape(2, 5, 3), lse=lse.reshape(2, 5))
    for a_, b_ in zip(given_, attention_backward(q, k, v, dO)):
        np.testing.assert_allclose(a_, b_, rtol=0, atol=1e-14)
    with pytest.raises(MHAInputError, match="out, lse: give both"):
        attention_backward(q, k, v, dO, out=o)
    with pytest.raises(MHAInputError, match=r"dO: shape \[2, 4, 3\] does not fit the output of attention, \[2, 5, 3\]"):
        attention_backward(q, k, v, dO[:, :4])


def test_no_t_by_s_matrix_is_kept():
    """One head, T = S = 2048 in float64: a T x S matrix would be 32 MiB; the whole call allocates under 8."""
    g = np.random.default_rng(1)
    q, k, v, dO = (g.standard_normal((1, 2048, 32)) for _ in range(4))
    from mha.fast_backward import flash_forward, prepare
    a, _ = prepare(q, k, v, scale=32 ** -0.5, causal="none", mask=None, bias=None, key_lengths=None, window=None,
                   alibi=None, groups=1)
    o, lse = flash_forward(a)
    tracemalloc.start()
    try:
        attention_backward(q, k, v, dO, out=o.reshape(q.shape), lse=lse.reshape(1, 2048), workers=1)
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    assert peak < 8 * 2 ** 20, peak / 2 ** 20
