"""The float64 core against PyTorch: nn.MultiheadAttention (through from_torch) and SDPA."""

import numpy as np
import pytest

import mha

torch = pytest.importorskip("torch", reason="torch is a test dependency: pip install -e '.[test]'")
F = torch.nn.functional

TOL = 1e-10
N_CONFIGS = 240
PARITY_ERRORS: dict = {}      # name -> largest |difference| seen; printed by conftest


def record(kind, diff):
    PARITY_ERRORS.setdefault(kind, []).append(float(diff))


def random_module_case(seed):
    """A random nn.MultiheadAttention, inputs and masks, in torch's own conventions."""
    g = np.random.default_rng(seed)
    B, T, S = int(g.integers(1, 4)), int(g.integers(1, 10)), int(g.integers(1, 10))
    H, d_head = int(g.integers(1, 5)), int(g.integers(1, 9))
    E = H * d_head
    cross = bool(g.integers(2))
    if not cross:
        S = T
    kdim = int(g.integers(1, 10)) if cross and g.integers(2) else E
    vdim = int(g.integers(1, 10)) if cross and g.integers(2) else E
    bias = bool(g.integers(2))
    batch_first = bool(g.integers(2))
    torch.manual_seed(seed)
    m = torch.nn.MultiheadAttention(E, H, bias=bias, kdim=kdim, vdim=vdim,
                                    batch_first=batch_first, dtype=torch.float64).eval()
    with torch.no_grad():
        for p in m.parameters():          # torch initialises biases to 0: make them count
            p.normal_(0, 0.5)
    q = torch.randn(B, T, E, dtype=torch.float64)
    k = torch.randn(B, S, kdim, dtype=torch.float64) if cross else q
    v = torch.randn(B, S, vdim, dtype=torch.float64) if cross else q
    kinds = ["none", "kpm_bool", "kpm_float", "attn_bool_2d", "attn_bool_3d", "attn_float", "causal",
             "causal+kpm"]
    kind = kinds[seed % len(kinds)]
    kw, ours = {}, {}
    lengths = torch.as_tensor(g.integers(1, S + 1, size=B))           # >= 1: no fully masked row
    pad = torch.arange(S)[None, :] >= lengths[:, None]                 # True = ignore (torch)
    if kind in ("kpm_bool", "causal+kpm"):
        kw["key_padding_mask"] = pad
    elif kind == "kpm_float":
        kw["key_padding_mask"] = torch.as_tensor(g.normal(size=(B, S)))
    elif kind in ("attn_bool_2d", "attn_bool_3d"):
        shape = (T, S) if kind.endswith("2d") else (B * H, T, S)
        ignore = torch.as_tensor(g.random(shape) < 0.4)
        ignore[..., 0] = False                                         # keep every row alive
        kw["attn_mask"] = ignore
    elif kind == "attn_float":
        kw["attn_mask"] = torch.as_tensor(g.normal(size=(T, S)))
    if kind.startswith("causal"):
        # nn.MultiheadAttention needs the mask itself; ours gets the flag and builds it.
        kw["attn_mask"] = torch.ones(T, S, dtype=torch.bool).triu(1)
        ours["is_causal"] = True
    return m, q, k, v, kw, ours, kind


def as_torch_layout(m, t):
    return t if m.batch_first else t.transpose(0, 1)


@pytest.mark.parametrize("seed", range(N_CONFIGS))
def test_multihead_attention_module(seed):
    m, q, k, v, kw, ours, kind = random_module_case(seed)
    qt, kt, vt = (as_torch_layout(m, t) for t in (q, k, v))
    with torch.no_grad():
        y, w = m(qt, kt, vt, need_weights=True, average_attn_weights=False, **kw)
    y = as_torch_layout(m, y).numpy()
    params = mha.from_torch(m, qt, kt, vt, key_padding_mask=kw.get("key_padding_mask"),
                            attn_mask=None if ours else kw.get("attn_mask"), **ours)
    if kind == "causal+kpm":
        params["causal"] = "top_left"
    t = mha.trace(params)
    dy = np.abs(t.Y - y).max()
    dw = np.abs(t.A - w.numpy()).max()
    record("nn.MultiheadAttention output", dy)
    record("nn.MultiheadAttention weights", dw)
    assert dy <= TOL and dw <= TOL, (kind, dy, dw)


@pytest.mark.parametrize("seed", range(N_CONFIGS))
def test_scaled_dot_product_attention(seed):
    g = np.random.default_rng(10_000 + seed)
    B, H = int(g.integers(1, 4)), int(g.integers(1, 5))
    T, S, d = int(g.integers(1, 10)), int(g.integers(1, 10)), int(g.integers(1, 9))
    q, k, v = (g.normal(size=(B, H, n, d)) for n in (T, S, S))
    kind = ["none", "bool", "float", "causal", "scale"][seed % 5]
    ours, theirs = {}, {}
    if kind == "bool":      # SDPA's bool mask is True = may attend, as ours; rows may be fully masked
        mask = g.random((B, 1, T, S)) < 0.6
        ours["mask"] = mask
        theirs["attn_mask"] = torch.as_tensor(mask)
    elif kind == "float":
        bias = g.normal(size=(T, S))
        ours["bias"], theirs["attn_mask"] = bias, torch.as_tensor(bias)
    elif kind == "causal":
        ours["causal"], theirs["is_causal"] = True, True
    elif kind == "scale":
        s = float(g.uniform(0.05, 2))
        ours["scale"], theirs["scale"] = s, s
    out = mha.attention(q, k, v, impl="reference", **ours)
    ref = F.scaled_dot_product_attention(*(torch.as_tensor(a) for a in (q, k, v)), **theirs).numpy()
    diff = np.abs(out - ref).max()
    record("scaled_dot_product_attention", diff)
    assert diff <= TOL, (kind, diff)


def test_fully_masked_rows_match_sdpa_zeros():
    g = np.random.default_rng(7)
    q, k, v = (g.normal(size=(2, 3, 4, 5)) for _ in range(3))
    mask = np.ones((2, 3, 4, 4), dtype=bool)
    mask[0, 1, 2] = False                                   # one query row sees nothing
    out = mha.attention(q, k, v, mask=mask, impl="reference")
    ref = F.scaled_dot_product_attention(*(torch.as_tensor(a) for a in (q, k, v)),
                                         attn_mask=torch.as_tensor(mask)).numpy()
    np.testing.assert_array_equal(out[0, 1, 2], 0.0)
    np.testing.assert_allclose(out, ref, rtol=0, atol=TOL)


def test_from_torch_packed_and_separate_weights_transposed():
    m = torch.nn.MultiheadAttention(6, 2, kdim=3, vdim=5, dtype=torch.float64)
    p = mha.from_torch(m)
    assert p["W_Q"].shape == (6, 6) and p["W_K"].shape == (3, 6) and p["W_V"].shape == (5, 6)
    np.testing.assert_array_equal(p["W_K"], m.k_proj_weight.detach().numpy().T)
    packed = torch.nn.MultiheadAttention(4, 2, bias=False, dtype=torch.float64)
    p = mha.from_torch(packed)
    np.testing.assert_array_equal(p["W_V"], packed.in_proj_weight.detach().numpy()[8:].T)
    assert "b_Q" not in p and "b_O" not in p


def test_from_torch_rejects_other_modules():
    with pytest.raises(mha.MHAInputError, match="MultiheadAttention"):
        mha.from_torch(torch.nn.Linear(2, 2))


def test_float32_matches_torch_float32():
    m = torch.nn.MultiheadAttention(8, 2, batch_first=True).eval()
    x = torch.randn(2, 5, 8)
    with torch.no_grad():
        y, _ = m(x, x, x)
    t = mha.trace(mha.from_torch(m, x), dtype="float32")
    assert t.Y.dtype == np.float32
    np.testing.assert_allclose(t.Y, y.numpy(), rtol=1e-5, atol=1e-5)
