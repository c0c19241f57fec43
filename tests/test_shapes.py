"""Attention as people write it (issue "any projection widths"): rectangular and per-head projections, Q/K/V
given directly, every scale rule, no W_O, batches; against torch, an independent oracle and the fast path."""


import numpy as np
import pytest

import mha
from mha.attend import forward
from oracles import naive_layer

TOL = 1e-10
N_CONFIGS = 240


def random_case(seed):
    """A random layer in the contract's input format, and the same layer for the oracles (one matrix per role)."""
    g = np.random.default_rng(seed)
    B, T = int(g.integers(1, 4)), int(g.integers(1, 6))
    H, d_k, d_v, d_model = (int(g.integers(1, n)) for n in (4, 5, 5, 6))
    batched = B > 1 or bool(g.integers(2))
    kind = ["X", "per_head", "qkv"][seed % 3]
    data: dict = {"n_heads": H}
    if kind == "qkv":
        S = int(g.integers(1, 6))
        Q, K, V = g.normal(size=(B, T, H * d_k)), g.normal(size=(B, S, H * d_k)), g.normal(size=(B, S, H * d_v))
        data.update(Q=Q, K=K, V=V)
        plain = dict(Q=Q, K=K, V=V)
    else:
        S = T
        X = g.normal(size=(B, T, d_model))
        W = {"W_Q": g.normal(size=(H, d_model, d_k)), "W_K": g.normal(size=(H, d_model, d_k)),
             "W_V": g.normal(size=(H, d_model, d_v))}
        flat = {k: w.transpose(1, 0, 2).reshape(d_model, -1) for k, w in W.items()}   # heads side by side
        data.update(X=X, **(W if kind == "per_head" else flat))
        plain = dict(X=X, **flat)
        if g.integers(2):
            for b, width in (("b_Q", H * d_k), ("b_K", H * d_k), ("b_V", H * d_v)):
                data[b] = plain[b] = g.normal(size=width)
    wo = ["none", "matrix", "identity"][int(g.integers(3))] if kind != "qkv" else ["none", "matrix"][int(g.integers(2))]
    if wo == "matrix":
        data["W_O"] = plain["W_O"] = g.normal(size=(H * d_v, int(g.integers(1, 6))))
    elif wo == "identity":
        data["W_O"], plain["W_O"] = "identity", np.eye(H * d_v)
    else:
        data["W_O"], plain["W_O"] = "none", None
    rule = [None, "none", "1/d_k", float(g.uniform(0.1, 2))][int(g.integers(4))]
    if rule is not None:
        data["scale"] = rule
    masks = ["none", "causal", "bool", "lengths"][int(g.integers(4))]
    mask = None
    if masks == "causal":
        data["causal"] = ["top_left", "bottom_right"][int(g.integers(2))]
    elif masks == "bool":
        mask = g.random((B, T, S)) < 0.7
        data["mask"] = mask
    elif masks == "lengths":
        lengths = g.integers(0, S + 1, size=B)
        data["key_lengths"] = lengths.tolist()
        mask = np.broadcast_to(np.arange(S)[None, None, :] < lengths[:, None, None], (B, T, S))
    if not batched:
        data = {k: (v[0] if isinstance(v, np.ndarray) and k in ("X", "Q", "K", "V", "mask") else v)
                for k, v in data.items()}
    return data, plain, rule, mask, B, H


def torch_layer(torch, plain, rule, mask, causal, H, b):
    """The same layer in torch float64: projections, heads, scaled_dot_product_attention, concat, W_O."""
    F = torch.nn.functional
    T_ = lambda a: torch.as_tensor(np.asarray(a, dtype=np.float64))   # noqa: E731
    if "Q" in plain:
        Q, K, V = T_(plain["Q"][b]), T_(plain["K"][b]), T_(plain["V"][b])
    else:
        X = T_(plain["X"][b])
        Q, K, V = (X @ T_(plain[w]) + (T_(plain[bb]) if bb in plain else 0)
                   for w, bb in (("W_Q", "b_Q"), ("W_K", "b_K"), ("W_V", "b_V")))
    d_k = Q.shape[1] // H
    heads = lambda M: M.reshape(M.shape[0], H, -1).transpose(0, 1)     # noqa: E731  [H, n, d]
    scale = {None: d_k ** -0.5, "none": 1.0, "1/d_k": 1.0 / d_k}.get(rule, rule) if not isinstance(rule, float) \
        else rule
    kw = {}
    T, S = Q.shape[0], K.shape[0]
    if causal:
        offset = 0 if causal == "top_left" else S - T
        kw["attn_mask"] = torch.as_tensor(np.arange(S)[None, :] <= np.arange(T)[:, None] + offset)
    elif mask is not None:
        kw["attn_mask"] = torch.as_tensor(np.array(mask[b]))
    O = F.scaled_dot_product_attention(heads(Q), heads(K), heads(V), scale=scale, **kw)   # [H, T, d_v]
    if "attn_mask" in kw:   # SDPA gives NaN for a row that sees nothing; the convention is 0 (as flash-attn)
        O = torch.nan_to_num(O, nan=0.0)
    concat = O.transpose(0, 1).reshape(T, -1)
    return (concat if plain["W_O"] is None else concat @ T_(plain["W_O"])).numpy()


@pytest.mark.parametrize("seed", range(N_CONFIGS))
def test_layer_matches_the_independent_oracle(seed):
    data, plain, rule, mask, B, H = random_case(seed)
    t = mha.trace(data)
    causal = data.get("causal", False)
    for b in range(B):
        sub = {k: (v[b] if isinstance(v, np.ndarray) and k in ("X", "Q", "K", "V") else v) for k, v in plain.items()}
        ours = naive_layer(**sub, n_heads=H, scale=rule, causal=causal,
                           mask=None if mask is None else mask[b])
        assert np.abs(t.Y[b] - ours).max() <= TOL, seed
    # the shapes the trace reports are the true ones
    c = t.config
    assert t.Qh.shape[-1] == c.d_k and t.O.shape[-1] == c.d_v and t.O_concat.shape[-1] == H * c.d_v
    assert t.Y.shape[-1] == c.d_out


@pytest.mark.parametrize("seed", range(N_CONFIGS))
def test_layer_matches_torch(seed):
    torch = pytest.importorskip("torch", reason="torch is a test dependency: pip install -e '.[test]'")
    from test_torch_parity import record
    data, plain, rule, mask, B, H = random_case(seed)
    t = mha.trace(data)
    for b in range(B):
        ref = torch_layer(torch, plain, rule, mask, data.get("causal", False), H, b)
        diff = float(np.abs(t.Y[b] - ref).max())
        record("layer (any widths) vs torch SDPA", diff)
        assert diff <= TOL, (seed, diff)


@pytest.mark.parametrize("seed", range(0, N_CONFIGS, 4))
def test_fast_paths_agree_with_the_reference(seed):
    data, *_ = random_case(seed)
    t = mha.trace(data)
    y = t.Y if t.config.batched else t.Y[0]
    for impl in ("tiled", "reference", "auto"):
        np.testing.assert_allclose(forward(data, impl=impl), y, rtol=0, atol=1e-12)
    # and mha.attention on the trace's own heads, tiled
    O = mha.attention(t.Qh, t.K_all, t.V_all, scale=t.config.effective_scale, mask=t.visible, impl="tiled")
    np.testing.assert_allclose(O, t.O, rtol=0, atol=1e-12)


def test_per_head_weights_are_the_heads_columns_side_by_side():
    g = np.random.default_rng(5)
    X = g.normal(size=(4, 3))
    per_head = {w: g.normal(size=(2, 3, 2)) for w in ("W_Q", "W_K", "W_V")}
    flat = {w: np.concatenate(list(m), axis=1) for w, m in per_head.items()}       # [3, 4]: head 1 | head 2
    a = mha.trace(X, n_heads=2, **per_head, W_O=np.ones((4, 5)))
    b = mha.trace(X, n_heads=2, **flat, W_O=np.ones((4, 5)))
    for f in ("Q", "K", "V", "Qh", "A", "O", "Y"):
        np.testing.assert_array_equal(getattr(a, f), getattr(b, f))
    assert a.config.weights_per_head == ("W_Q", "W_K", "W_V") and b.config.weights_per_head == ()
    np.testing.assert_array_equal(a.Qh[0, 1], X @ per_head["W_Q"][1])               # head 2 = X W_2^Q


# ------------------------------------------------------------------ the named examples

def _oracle_input(e):
    """The example in the oracle's terms: 2-D matrices (identity written out), the scale rule, the cache."""
    c = mha.trace(e.data).config
    kw = dict(n_heads=c.n_heads, n_kv_heads=c.G, scale=c.scale, W_O=c.W_O, causal=c.causal != "none" and c.causal,
              window=c.window, alibi=(True if c.alibi_rule == "press" else c.alibi) if c.alibi_rule else None)
    if c.given_qkv:
        kw.update(Q=c.Q_in[0], K=c.K_in[0], V=c.V_in[0])
    else:
        kw.update(X=c.X[0], W_Q=c.W_Q, W_K=c.W_K, W_V=c.W_V)
    if c.rope is not None:
        kw["rope"] = dict(inv_freq=c.rope.inv_freq, style=c.rope.style, dims=c.rope.dims,
                          positions=c.rope.positions[0], key_positions=c.rope.key_positions[0])
    if c.cache_K is not None:
        kw["cache"] = dict(K=c.cache_K[0], V=c.cache_V[0])
    return c, kw


@pytest.mark.parametrize("name", sorted(mha.EXAMPLES))
def test_named_examples_against_the_independent_oracle(name):
    e = mha.EXAMPLES[name]
    t = mha.trace(e.data)
    c, kw = _oracle_input(e)
    for b in range(c.B):
        if c.B > 1:
            kw["X"] = c.X[b]
        np.testing.assert_allclose(t.Y[b], naive_layer(**kw), rtol=0, atol=1e-12)
    assert set(e.idea) == {"en", "zh"} and all(e.idea.values())


def test_shape_examples_have_the_shapes_they_advertise():
    ex = {n: mha.trace(mha.EXAMPLES[n].data).config for n in ("single-head", "per-head", "qkv", "xxt", "batch")}
    assert (ex["single-head"].d_k, ex["single-head"].scale_rule, ex["single-head"].W_O) == (3, "none", None)
    assert ex["per-head"].weights_per_head == ("W_Q", "W_K", "W_V") and ex["per-head"].W_O.shape == (4, 2)
    assert ex["qkv"].given_qkv and ex["qkv"].d_k == 3 and ex["qkv"].effective_scale == pytest.approx(3 ** -0.5)
    t = mha.trace(mha.EXAMPLES["xxt"].data)
    X = t.X[0]
    A = np.exp(X @ X.T) / np.exp(X @ X.T).sum(axis=1, keepdims=True)
    np.testing.assert_allclose(t.Y[0], A @ X, rtol=0, atol=1e-14)                   # softmax(X X^T) X
    assert ex["batch"].B == 2 and ex["batch"].W_O is None


# ------------------------------------------------------------------ bad input names both fields

BASE = {"X": [[1, 0, 1, 0], [0, 1, 0, 1], [1, 1, 0, 0]], "n_heads": 2}
BAD = [
    ("W_Q and W_K widths", dict(BASE, W_Q=np.ones((4, 6)).tolist(), W_K=np.ones((4, 4)).tolist()),
     ["W_K", "W_Q", "[4, 6]", "6 columns"]),
    ("per-head count", dict(BASE, W_Q=np.ones((3, 4, 2)).tolist()), ["W_Q", "3 matrices", "n_heads = 2", "[3, 4, 2]"]),
    ("W_O rows", dict(BASE, W_O=np.ones((3, 2)).tolist()), ["W_O", "3 rows", "H·d_v = 2·2 = 4", "[3, 2]"]),
    ("Q and K widths", {"Q": [[1, 0]], "K": [[1, 0, 1]], "V": [[1]], "n_heads": 1},
     ["K", "Q", "[1, 2]", "[1, 3]"]),
    ("X with Q", dict(BASE, Q=[[1, 0]]), ["X and Q"]),
    ("V rows", {"Q": [[1, 0]], "K": [[1, 0], [0, 1]], "V": [[1]], "n_heads": 1}, ["V", "K", "[2, 2]", "[1, 1]"]),
    ("scale word", dict(BASE, scale="sqrt"), ["scale", "'sqrt'", "1/d_k"]),
    ("W_O word", dict(BASE, W_O="nothing"), ["W_O", "none", "'nothing'"]),
    ("projection with Q", {"Q": [[1, 0]], "K": [[1, 0]], "V": [[1]], "n_heads": 1, "W_Q": [[1]]}, ["Q and W_Q"]),
    ("missing V", {"Q": [[1, 0]], "K": [[1, 0]], "n_heads": 1}, ["V", "missing"]),
]


@pytest.mark.parametrize("name,data,needles", BAD, ids=[b[0] for b in BAD])
def test_wrong_shapes_name_both_fields(refused_input, name, data, needles):
    refused_input(data, needles)


def test_trace_json_round_trip_of_every_named_example():
    for name, e in mha.EXAMPLES.items():
        t = mha.trace(e.data)
        u = mha.Trace.from_json(t.to_json())
        for f in ("Q", "K", "V", "Qh", "Kh", "Vh", "K_all", "V_all", "QKt", "S", "A", "O", "O_concat", "Y"):
            np.testing.assert_array_equal(getattr(u, f), getattr(t, f), err_msg=f"{name}: {f}")
        assert u.to_json() == t.to_json(), name
        # the echoed input alone recomputes the same layer (nothing of the configuration is lost)
        np.testing.assert_array_equal(mha.trace(u.config.to_input()).Y, t.Y, err_msg=name)
