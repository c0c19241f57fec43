"""The backward pass (mha.backward): every named gradient against torch.autograd in float64, central finite
differences, and the seed's gradients derived by hand; the "backward" input key and the trace's JSON / npz."""

import json
import math

import numpy as np
import pytest

import mha
from mha.backward import layer_backward, nudge, softmax_backward
from mha.core import layer
from mha.inputs import parse_config
from oracles import press_slopes

N = 320                    # random configurations against torch
TOL = 1e-12                # relative to the largest entry of the gradient compared (and at least absolute)


def torch_or_skip():
    return pytest.importorskip("torch", reason="torch is a test dependency: pip install -e '.[test]'")


def record(kind, diff):
    from test_torch_parity import record as rec
    rec(kind, diff)


# ------------------------------------------------------------------ random configurations

def random_case(seed):
    """An input mapping drawn over shapes, masks, batch, GQA, RoPE, ALiBi, windows, biases, caches, Q/K/V given
    directly, per-head weights, cross-attention, scale rules and the three upstream rules."""
    g = np.random.default_rng(seed)
    G = int(g.integers(1, 3))
    H = G * int(g.integers(1, 4))
    d_k, d_v = 2 * int(g.integers(1, 3)), int(g.integers(1, 4))
    B, T = int(g.integers(1, 3)), int(g.integers(1, 6))
    batched = B > 1 or g.random() < 0.3
    lead = (B,) if batched else ()
    kind = g.choice(["self", "self", "self", "cross", "qkv", "cache"])
    data = {"n_heads": H}
    if G < H or g.random() < 0.2:
        data["n_kv_heads"] = G
    S_new = T if kind in ("self", "cache") else int(g.integers(1, 6))
    if kind == "qkv":
        data.update(Q=g.normal(size=lead + (T, H * d_k)), K=g.normal(size=lead + (S_new, G * d_k)),
                    V=g.normal(size=lead + (S_new, G * d_v)))
        if g.random() < 0.5:
            data["W_O"] = g.normal(size=(H * d_v, int(g.integers(1, 5))))
    else:
        d_model = int(g.integers(1, 6))
        data["X"] = g.normal(size=lead + (T, d_model))
        d_in_k = d_in_v = d_model
        if kind == "cross":
            d_in_k, d_in_v = int(g.integers(1, 5)), int(g.integers(1, 5))
            data["key"] = g.normal(size=lead + (S_new, d_in_k))
            data["value"] = g.normal(size=lead + (S_new, d_in_v))
        if g.random() < 0.25:           # one matrix per head
            data.update(W_Q=g.normal(size=(H, d_model, d_k)), W_K=g.normal(size=(G, d_in_k, d_k)),
                        W_V=g.normal(size=(G, d_in_v, d_v)))
        else:
            data.update(W_Q=g.normal(size=(d_model, H * d_k)), W_K=g.normal(size=(d_in_k, G * d_k)),
                        W_V=g.normal(size=(d_in_v, G * d_v)))
        data["W_O"] = "none" if g.random() < 0.2 else g.normal(size=(H * d_v, int(g.integers(1, 5))))
        for name, width in (("b_Q", H * d_k), ("b_K", G * d_k), ("b_V", G * d_v)):
            if g.random() < 0.3:
                data[name] = g.normal(size=width)
    if kind == "cache":
        S_past = int(g.integers(1, 4))
        data["cache"] = {"K": g.normal(size=lead + (G, S_past, d_k)), "V": g.normal(size=lead + (G, S_past, d_v))}
    S = S_new + (data["cache"]["K"].shape[-2] if kind == "cache" else 0)
    if isinstance(data.get("W_O"), np.ndarray) and g.random() < 0.3:
        data["b_O"] = g.normal(size=data["W_O"].shape[1])
    # masks and positions
    r = g.random()
    if r < 0.25:
        data["causal"] = True if kind == "cache" else str(g.choice(["top_left", "bottom_right"]))
    elif r < 0.4:
        data["mask"] = g.random(lead + (T, S)) < 0.7
    elif r < 0.5:
        data["key_lengths"] = [int(x) for x in g.integers(0, S + 1, size=B)]
    if g.random() < 0.2:
        data["window"] = int(g.integers(1, 4))
    if g.random() < 0.25:
        data["alibi"] = True if g.random() < 0.6 else list(g.random(H))
    if g.random() < 0.2:
        bias = g.normal(size=lead + (T, S))
        bias[g.random(bias.shape) < 0.15] = -np.inf
        data["bias"] = [[[None if x == -np.inf else x for x in row] for row in m] for m in
                        (bias if batched else bias[None])]
        data["bias"] = data["bias"] if batched else data["bias"][0]
    if g.random() < 0.3:
        data["rope"] = {"style": str(g.choice(["half", "interleaved"])), "dims": int(g.choice([2, d_k]))}
    if g.random() < 0.2:
        data["scale"] = str(g.choice(["none", "1/d_k"])) if g.random() < 0.5 else float(g.normal())
    # the upstream gradient
    cfg = parse_config(data)
    shape = lead + (T, cfg.d_out)
    data["backward"] = [{"loss": "sum"}, {"target": g.normal(size=shape)}, {"dY": g.normal(size=shape)}][seed % 3]
    return data


# ------------------------------------------------------------------ the torch side, written from the definitions

def torch_layer(cfg, X_paths):
    """Y of the layer in torch float64, every intermediate returned with retain_grad() (autograd fills .grad).
    The masks come from the trace (`visible`); RoPE and ALiBi are written here from their definitions."""
    import torch
    tt = lambda a: None if a is None else torch.tensor(a)           # noqa: E731
    H, G, B, T, S = cfg.n_heads, cfg.G, cfg.B, cfg.T, cfg.S
    leaves = {}

    def leaf(name, a):
        if a is None:
            return None
        leaves[name] = torch.tensor(np.array(a), requires_grad=True)
        return leaves[name]

    if cfg.given_qkv:
        Q, K, V = leaf("Q", cfg.Q_in), leaf("K", cfg.K_in), leaf("V", cfg.V_in)
    else:
        Xq, Xk, Xv = X_paths
        W_Q, W_K, W_V = leaf("W_Q", cfg.W_Q), leaf("W_K", cfg.W_K), leaf("W_V", cfg.W_V)
        b = {n: leaf(n, getattr(cfg, n)) for n in ("b_Q", "b_K", "b_V")}
        Q, K, V = Xq @ W_Q, Xk @ W_K, Xv @ W_V
        Q, K, V = [M if b[n] is None else M + b[n] for M, n in ((Q, "b_Q"), (K, "b_K"), (V, "b_V"))]

    def split(M, n):
        return M.reshape(M.shape[0], M.shape[1], n, -1).transpose(1, 2)

    inter = {"Q": Q, "K": K, "V": V}
    Qh, Kh, Vh = split(Q, H), split(K, G), split(V, G)
    inter.update(Qh=Qh, Kh=Kh, Vh=Vh)
    if cfg.rope is not None:
        Qh, Kh = rope(cfg, Qh, cfg.rope.positions), rope(cfg, Kh, cfg.rope.key_positions)
    inter.update(Qh_used=Qh, Kh_new=Kh)
    if cfg.cache_K is not None:
        Kh = torch.cat([leaf("cache_K", cfg.cache_K), Kh], dim=2)
        Vh = torch.cat([leaf("cache_V", cfg.cache_V), Vh], dim=2)
    inter.update(K_all=Kh, V_all=Vh)
    rep = H // G
    Kr, Vr = Kh.repeat_interleave(rep, dim=1), Vh.repeat_interleave(rep, dim=1)
    QKt = Qh @ Kr.transpose(-1, -2)
    S_ = QKt * cfg.effective_scale
    if cfg.bias is not None:
        S_ = S_ + torch.tensor(np.where(np.isfinite(cfg.bias), cfg.bias, 0.0))
    if cfg.alibi_rule is not None:
        slopes = press_slopes(H) if cfg.alibi_rule == "press" else cfg.alibi
        pos = np.arange(T)[:, None] + cfg.offset
        S_ = S_ - torch.tensor(slopes[:, None, None] * np.abs(pos - np.arange(S)[None, :]))
    visible = torch.tensor(cfg.visible)
    # a masked entry is a very negative finite number, and a row that sees nothing is zeroed after the softmax:
    # torch's softmax of an all -inf row is NaN, whose gradient would be NaN too
    A = torch.softmax(S_.masked_fill(~visible, -1e300), dim=-1) * visible.any(-1, keepdim=True)
    O = A @ Vr
    O_concat = O.transpose(1, 2).reshape(B, T, -1)
    Y = O_concat if cfg.W_O is None else O_concat @ leaf("W_O", cfg.W_O)
    if cfg.b_O is not None:
        Y = Y + leaf("b_O", cfg.b_O)
    inter.update(QKt=QKt, S=S_, A=A, O=O, O_concat=O_concat, Y=Y)
    for v in inter.values():
        if not v.is_leaf:
            v.retain_grad()
    return Y, leaves, inter


def rope(cfg, x, positions):
    """Each pair of the first `dims` features turned by position * theta_i (rotate-half or interleaved)."""
    import torch
    r = cfg.rope
    angles = torch.tensor(positions[..., None] * r.inv_freq)[:, None]           # [B, 1, n, dims/2]
    cos, sin = angles.cos() * r.attention_factor, angles.sin() * r.attention_factor
    half = r.dims // 2
    idx_a = list(range(half)) if r.style == "half" else list(range(0, r.dims, 2))
    idx_b = list(range(half, r.dims)) if r.style == "half" else list(range(1, r.dims, 2))
    a, b = x[..., idx_a], x[..., idx_b]
    out = x.clone()
    out[..., idx_a] = a * cos - b * sin
    out[..., idx_b] = b * cos + a * sin
    return out


def torch_loss(cfg, Y):
    import torch
    up = cfg.backward
    if up.loss == "sum":
        return Y.sum()
    if up.loss == "target":
        return 0.5 * ((Y - torch.tensor(up.array)) ** 2).sum()
    return (Y * torch.tensor(up.array)).sum()


def torch_grads(cfg):
    """Every gradient the backward pass names, by autograd: {LayerGrads field: array}."""
    import torch
    paths = None
    if not cfg.given_qkv:
        X_k = cfg.X if cfg.key is None else cfg.key
        X_v = cfg.X if cfg.value is None else cfg.value
        paths = tuple(torch.tensor(a, requires_grad=True) for a in (cfg.X, X_k, X_v))   # one copy per path
    Y, leaves, inter = torch_layer(cfg, paths)
    L = torch_loss(cfg, Y)
    L.backward()
    g = lambda t: t.grad.numpy()                                     # noqa: E731
    B, H, G = cfg.B, cfg.n_heads, cfg.G
    out = {"L": L.item(), "dY": g(inter["Y"]), "dO_concat": g(inter["O_concat"]), "dO": g(inter["O"]),
           "dA": g(inter["A"]), "dS": g(inter["S"]), "dQKt": g(inter["QKt"]), "dK_all": g(inter["K_all"]),
           "dV_all": g(inter["V_all"])}
    out.update(dQ=g(inter["Q"]), dK=g(inter["K"]), dV=g(inter["V"]), dQh=g(inter["Qh"]), dKh=g(inter["Kh"]),
               dVh=g(inter["Vh"]))
    if cfg.rope is not None:
        out.update(dQh_rope=g(inter["Qh_used"]), dKh_rope=g(inter["Kh_new"]))
    for name in ("W_O", "b_O", "W_Q", "W_K", "W_V", "b_Q", "b_K", "b_V"):
        if name in leaves:
            out["d" + name] = g(leaves[name])
    if not cfg.given_qkv:
        out.update(dX_Q=g(paths[0]), dX_K=g(paths[1]), dX_V=g(paths[2]))
        out["dX"] = out["dX_Q"] if cfg.key is not None else out["dX_Q"] + out["dX_K"] + out["dX_V"]
    if cfg.cache_K is not None:
        out.update(dcache_K=g(leaves["cache_K"]), dcache_V=g(leaves["cache_V"]))
    # per query head, the shares of dK^(g) and dV^(g): autograd sums them, so take them from the definitions
    # dQKtᵀ Q and Aᵀ dO on torch's own gradients, and check that they sum to torch's dK^(g) and dV^(g)
    A, Q_used = inter["A"].detach().numpy(), inter["Qh_used"].detach().numpy()
    out["dV_share"] = A.swapaxes(-1, -2) @ out["dO"]
    out["dK_share"] = out["dQKt"].swapaxes(-1, -2) @ Q_used
    rep = H // G
    np.testing.assert_allclose(out["dK_share"].reshape(B, G, rep, *out["dK_share"].shape[2:]).sum(2),
                               out["dK_all"], rtol=0, atol=1e-10 * max(1.0, np.abs(out["dK_all"]).max()))
    return out


@pytest.mark.parametrize("seed", range(N))
def test_every_gradient_matches_torch_autograd(seed):
    torch_or_skip()
    data = random_case(seed)
    t = mha.trace(data)
    theirs = torch_grads(_with_visible(t.config, t.visible))
    ours = t.grads
    assert abs(ours.L - theirs.pop("L")) <= TOL * max(1.0, abs(ours.L))
    compared = 0
    for name, want in theirs.items():
        got = getattr(ours, name)
        assert got is not None and got.shape == want.shape, (name, None if got is None else got.shape, want.shape)
        diff = float(np.abs(got - want).max())
        record(f"backward vs torch.autograd: {name}", diff)
        assert diff <= TOL * max(1.0, float(np.abs(want).max())), (name, diff)
        compared += 1
    # the masked entries of dS are exactly 0, not merely small
    assert np.all(ours.dS[~t.visible] == 0) and np.all(ours.dQKt[~t.visible] == 0)
    assert compared >= 16


def _with_visible(cfg, visible):
    """The parsed configuration with the trace's visibility attached (torch_layer reads the mask from it)."""
    class WithVisible:
        def __getattr__(self, name):
            return visible if name == "visible" else getattr(cfg, name)
    return WithVisible()


# ------------------------------------------------------------------ central finite differences

def _loss_at(data, name, index, delta):
    """L after adding delta to one entry of an input (a weight, X, a bias, the cache), recomputed from scratch."""
    moved = json.loads(json.dumps(mha.trace(data).config.to_input(), default=lambda a: a.tolist()))
    target = moved["cache"] if name.startswith("cache.") else moved
    key = name.split(".")[-1]
    arr = np.array(target[key], dtype=float)
    arr[index] += delta
    target[key] = arr.tolist()
    return mha.trace(moved).grads.L


FD_INPUTS = {"W_Q": "dW_Q", "W_K": "dW_K", "W_V": "dW_V", "W_O": "dW_O", "b_Q": "db_Q", "b_O": "db_O",
             "X": "dX", "key": "dX_K", "value": "dX_V", "Q": "dQ", "K": "dK", "V": "dV",
             "cache.K": "dcache_K", "cache.V": "dcache_V"}


@pytest.mark.parametrize("seed", range(0, N, 8))
def test_gradients_match_central_finite_differences(seed):
    """Three entries of every input that has a gradient: (L(x + eps) - L(x - eps)) / 2 eps against the backward
    pass, with eps = 1e-5 (truncation ~eps^2, rounding ~1e-16 / eps)."""
    data = random_case(seed)
    t = mha.trace(data)
    c, gr = t.config, t.grads
    user = c.to_input()
    g = np.random.default_rng(seed + 1)
    checked = 0
    for name, field in FD_INPUTS.items():
        value = user["cache"][name[6:]] if name.startswith("cache.") and "cache" in user else user.get(name)
        if not isinstance(value, np.ndarray) or getattr(gr, field) is None:
            continue
        grad = getattr(gr, field)
        if name in ("X", "key", "value", "Q", "K", "V", "cache.K", "cache.V") and not c.batched:
            grad = grad[0]
        if name == "W_Q" and "W_Q" in c.weights_per_head:
            continue                      # echoed per head [H, d_in, d_k]; the 2-D matrix is checked elsewhere
        if name in ("W_K", "W_V") and name in c.weights_per_head:
            continue
        for _ in range(3):
            index = tuple(int(g.integers(0, n)) for n in value.shape)
            eps = 1e-5
            slope = (_loss_at(data, name, index, eps) - _loss_at(data, name, index, -eps)) / (2 * eps)
            scale = max(1.0, abs(slope), float(np.abs(grad).max()))
            assert abs(slope - grad[index]) <= 1e-6 * scale, (name, index, slope, grad[index])
            checked += 1
    assert checked >= 3


def test_the_nudge_the_explanation_prints():
    """mha.backward.nudge: W_Q[1,1] moved by ±1e-6, L recomputed by the core, slope against dW_Q[1,1]."""
    t = mha.trace(dict(mha.DOCUMENT_EXAMPLE, backward={"loss": "sum"}))
    n = nudge(t, t.grads)
    assert (n.name, n.index, n.eps) == ("W_Q", (0, 0), 1e-6)
    assert n.L_plus > t.grads.L > n.L_minus
    assert abs(n.slope - n.grad) < 1e-8 and n.grad == t.grads.dW_Q[0, 0]


# ------------------------------------------------------------------ the seed's gradients, by hand

def test_the_seed_gradients_derived_by_hand():
    """The seed's layer with L = sum of Y.  Q = K = V = X, head 1 reads columns 1-2 of X: x_1 = (1, 0),
    x_2 = (0, 1), x_3 = (1, 1), so Q K^T = [[1, 0, 1], [0, 1, 1], [1, 1, 2]] and, with e = exp(1/sqrt 2),
    the rows of A^(1) are [e, 1, e] / (2e + 1), [1, e, e] / (1 + 2e) and [1, 1, e] / (2 + e).  Every
    expected value below is written out from these by hand (1-based indices in the names)."""
    t = mha.trace(dict(mha.DOCUMENT_EXAMPLE, backward={"loss": "sum"}))
    g = t.grads
    e, r2 = math.exp(1 / math.sqrt(2)), math.sqrt(2)
    a, b, c = 2 * e + 1, 1 + 2 * e, 2 + e                 # the three row sums of head 1
    # L = sum of Y = sum of O (W_O = I); head 2 (columns 3-4: (1,0), (0,1), (0,0)) adds (e+1)/(e+2) twice and 2/3
    L = (3 * e + 1) / a + (1 + 3 * e) / b + 2 * (1 + e) / c + 2 * (e + 1) / (e + 2) + 2 / 3
    assert g.L == pytest.approx(L, abs=1e-14)
    # dY = 1 everywhere; dO_concat = dY W_O^T = 1; dO^(1) = its first two columns = 1
    assert g.dY[0, 0, 0] == 1 and g.dO_concat[0, 0, 0] == 1 and g.dO[0, 0, 0, 0] == 1
    # dW_O[1,1] = sum over tokens of O_concat[t,1] = 2e/(2e+1) + (1+e)/(1+2e) + (1+e)/(2+e)
    assert g.dW_O[0, 0] == pytest.approx(2 * e / a + (1 + e) / b + (1 + e) / c, abs=1e-14)
    # dV^(1)[1,1] = sum_i A_i1 = e/(2e+1) + 1/(1+2e) + 1/(2+e)
    dV11 = e / a + 1 / b + 1 / c
    assert g.dV_all[0, 0, 0, 0] == pytest.approx(dV11, abs=1e-14)
    # dA^(1) = dO V^T: every row is the row sums of V^(1): [1, 1, 2]
    assert g.dA[0, 0, 0, 2] == pytest.approx(2, abs=1e-14)
    # D_1 = sum_j dA_1j A_1j = (e + 1 + 2e) / (2e+1)
    D1 = (3 * e + 1) / a
    assert g.D[0, 0, 0] == pytest.approx(D1, abs=1e-14)
    # dS[1,1] = A_11 (dA_11 - D_1) = e/(2e+1) (1 - (3e+1)/(2e+1)) = -e^2/(2e+1)^2
    assert g.dS[0, 0, 0, 0] == pytest.approx(-e * e / a ** 2, abs=1e-14)
    # dQKt = dS / sqrt 2
    assert g.dQKt[0, 0, 0, 0] == pytest.approx(-e * e / a ** 2 / r2, abs=1e-14)
    # dQ^(1)[1,1] = (dS_11 + dS_13) / sqrt 2 with dS_13 = A_13 (2 - D_1) = e(e+1)/(2e+1)^2: e / ((2e+1)^2 sqrt 2)
    dQ11 = e / (a ** 2 * r2)
    assert g.dQh[0, 0, 0, 0] == pytest.approx(dQ11, abs=1e-14) and g.dQ[0, 0, 0] == g.dQh[0, 0, 0, 0]
    # dK^(1)[1,1] = (dS_11 + dS_31) / sqrt 2, dS_31 = A_31 (1 - D_3), D_3 = (2 + 2e)/(2 + e): dS_31 = -e/(2+e)^2
    dK11 = (-e * e / a ** 2 - e / c ** 2) / r2
    assert g.dKh[0, 0, 0, 0] == pytest.approx(dK11, abs=1e-14) and g.dK[0, 0, 0] == pytest.approx(dK11, abs=1e-14)
    # dX = dQ W_Q^T + dK W_K^T + dV W_V^T = dQ + dK + dV with identity weights: three paths into x_1
    assert g.dX_Q[0, 0, 0] == pytest.approx(dQ11, abs=1e-14) and g.dX_V[0, 0, 0] == pytest.approx(dV11, abs=1e-14)
    assert g.dX[0, 0, 0] == pytest.approx(dQ11 + dK11 + dV11, abs=1e-14)
    # dW_Q[1,1] = sum_t X[t,1] dQ[t,1] = dQ[1,1] + dQ[3,1]; dQ[3,1] = (dS_31 + dS_33)/sqrt 2, dS_33 = 2e/(2+e)^2
    assert g.dW_Q[0, 0] == pytest.approx(dQ11 + e / (c ** 2 * r2), abs=1e-14)
    # dW_K[1,1] = dK[1,1] + dK[3,1]; dK[3,1] = (dS_13 + dS_33) / sqrt 2
    assert g.dW_K[0, 0] == pytest.approx(dK11 + (e * (e + 1) / a ** 2 + 2 * e / c ** 2) / r2, abs=1e-14)
    # dW_V[1,1] = dV[1,1] + dV[3,1]; dV[3,1] = sum_i A_i3 = e/(2e+1) + e/(1+2e) + e/(2+e)
    assert g.dW_V[0, 0] == pytest.approx(dV11 + e / a + e / b + e / c, abs=1e-14)
    # a bias on the output: db_O = sum over the 3 tokens of dY = 3
    with_bias = mha.trace(dict(mha.DOCUMENT_EXAMPLE, b_O=[0, 0, 0, 0], backward={"loss": "sum"}))
    assert with_bias.grads.db_O.tolist() == [3, 3, 3, 3]


# ------------------------------------------------------------------ the steps and their rules

def test_softmax_backward_is_the_jacobian_product():
    """A ⊙ (dA − D) equals (diag(A) − A Aᵀ) dA row by row, and masked entries get exactly 0."""
    g = np.random.default_rng(3)
    S = g.normal(size=(4, 6))
    visible = g.random((4, 6)) < 0.7
    visible[:, 0] = True
    E = np.where(visible, np.exp(S - S.max(-1, keepdims=True)), 0.0)
    A = E / E.sum(-1, keepdims=True)
    dA = g.normal(size=(4, 6))
    D, dS = softmax_backward(A, dA, visible)
    for i in range(4):
        J = np.diag(A[i]) - np.outer(A[i], A[i])
        np.testing.assert_allclose(dS[i], J @ dA[i], rtol=0, atol=1e-15)
    assert np.all(dS[~visible] == 0)


def test_a_row_that_sees_no_key_gets_no_gradient():
    t = mha.trace(dict(mha.DOCUMENT_EXAMPLE, mask=[[True, False, True], [False, False, False], [True, True, True]],
                       backward={"loss": "sum"}))
    assert t.fully_masked[0, :, 1].all()
    assert np.all(t.grads.dS[0, :, 1] == 0) and np.all(t.grads.dQh[0, :, 1] == 0)


def test_gqa_sums_the_query_heads_and_kv_cache_keeps_its_own_gradient():
    t = mha.trace(dict(mha.EXAMPLES["llama-decode"].data, backward={"loss": "sum"}))
    g, c = t.grads, t.config
    np.testing.assert_allclose(g.dK_all[:, 0], g.dK_share[:, 0] + g.dK_share[:, 1], rtol=0, atol=1e-15)
    assert g.dcache_K.shape == c.cache_K.shape and g.dKh.shape == t.Kh.shape == (1, 1, 1, 2)
    np.testing.assert_array_equal(g.dK_all[:, :, :c.S_past], g.dcache_K)


def test_dY_given_is_passed_through_and_its_loss_is_the_inner_product():
    dY = [[0.5, -1, 0, 2], [1, 1, 1, 1], [0, 0, -3, 0]]
    t = mha.trace(dict(mha.DOCUMENT_EXAMPLE, backward={"dY": dY}))
    np.testing.assert_array_equal(t.grads.dY[0], dY)
    assert t.grads.L == pytest.approx(float(np.sum(np.array(dY) * t.Y[0])), abs=1e-14)
    assert t.grads.loss == "dY"


def test_layer_backward_defaults_to_the_sum_loss():
    steps = layer(parse_config(mha.DOCUMENT_EXAMPLE))
    g = layer_backward(steps)
    assert g.loss == "sum" and g.L == pytest.approx(steps.Y.sum())


@pytest.mark.parametrize("value, needles", [
    ({"loss": "mean"}, ["backward.loss", "'mean'", "sum"]),
    ({"dY": [[1, 2]]}, ["backward.dY", "[1, 2]", "[T, d_out] = [3, 4]"]),
    ({"target": [[1, 2, 3, 4]] * 2}, ["backward.target", "[2, 4]", "[3, 4]"]),
    ({"dY": [[1, 2, 3, 4]] * 3, "loss": "sum"}, ["backward", "exactly one", "'dY', 'loss'"]),
    ("sum", ["backward", "exactly one", "str"]),
    ({"dY": [[1, None, 3, 4]] * 3}, ["backward.dY", "expected numbers"]),
])
def test_a_bad_upstream_is_refused_with_one_line(value, needles, refused_input):
    refused_input(dict(mha.DOCUMENT_EXAMPLE, backward=value), needles)


def test_batched_upstream_needs_its_batch_axis(refused_input):
    data = mha.EXAMPLES["batch"].data
    refused_input(dict(data, backward={"dY": [[1, 2, 3, 4]] * 3}), ["backward.dY", "expected 3-D"])
    t = mha.trace(dict(data, backward={"target": np.zeros((2, 3, 4))}))
    assert t.grads.dY.shape == (2, 3, 4)


# ------------------------------------------------------------------ the trace carries the gradients

@pytest.mark.parametrize("seed", [0, 1, 5, 7, 11, 19])
def test_json_and_npz_round_trip_every_gradient(seed, tmp_path):
    from dataclasses import fields
    from mha.backward import LayerGrads
    t = mha.trace(random_case(seed))
    back = mha.Trace.from_json(t.to_json())
    path = str(tmp_path / "t.npz")
    t.save_npz(path)
    loaded = mha.Trace.load_npz(path)
    for other in (back, loaded):
        assert other.grads.loss == t.grads.loss and other.grads.L == t.grads.L
        for f in fields(LayerGrads):
            mine, theirs = getattr(t.grads, f.name), getattr(other.grads, f.name)
            if isinstance(mine, np.ndarray):
                np.testing.assert_array_equal(mine, theirs, err_msg=f.name)
                assert mine.dtype == theirs.dtype, f.name
            else:
                assert mine == theirs, f.name


def test_trace_json_lists_each_gradient_with_its_shape(run_cli):
    code, out, err = run_cli("explain", "--example", "backward", "--format", "json")
    assert code == 0, err
    d = json.loads(out)
    grads = d["grads"]
    assert d["backward"] == {"loss": "sum"} and grads["loss"] == "sum"
    shapes = {row["symbol"]: row["shape"] for row in grads["shapes"]}
    assert shapes["dY"] == [3, 4] and shapes["dW_Q"] == [4, 4] and shapes["dS^(h)"] == [3, 3]
    assert shapes["D^(h)"] == [3] and shapes["dX"] == [3, 4]
    assert [h["h"] for h in grads["heads"]] == [1, 2] and set(grads["heads"][0]) >= {"dO", "dA", "D", "dS", "dQ"}
    for row in grads["shapes"]:
        key = row["symbol"].split("^")[0]
        value = grads["heads"][0][key] if "^(h)" in row["symbol"] else grads["kv_heads"][0][key] \
            if "^(g)" in row["symbol"] else grads[key]
        assert list(np.shape(value)) == row["shape"], row
