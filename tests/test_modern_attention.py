"""The attention of today's language models: GQA/MQA, RoPE, ALiBi, sliding windows and the KV-cache step,
each against an outside oracle (torch SDPA, Hugging Face's rotary functions, BLOOM's and flash-attn's ALiBi)."""

import math

import numpy as np
import pytest

import mha
from mha.attend import forward
from oracles import naive_layer, press_slopes

TOL = 1e-10
N = 120                      # randomized configurations per variant


def torch_or_skip():
    return pytest.importorskip("torch", reason="torch is a test dependency: pip install -e '.[test]'")


def rng_case(seed, *, gqa=True):
    g = np.random.default_rng(seed)
    G = int(g.integers(1, 4))
    H = G * int(g.integers(1, 4)) if gqa else G
    d_k, d_v, d_model = int(g.integers(1, 5)) * 2, int(g.integers(1, 5)), int(g.integers(1, 7))
    B, T = int(g.integers(1, 3)), int(g.integers(1, 7))
    data = {"X": g.normal(size=(B, T, d_model)), "n_heads": H, "n_kv_heads": G,
            "W_Q": g.normal(size=(d_model, H * d_k)), "W_K": g.normal(size=(d_model, G * d_k)),
            "W_V": g.normal(size=(d_model, G * d_v)), "W_O": g.normal(size=(H * d_v, int(g.integers(1, 6))))}
    return g, data


def record(kind, diff):
    from test_torch_parity import record as rec
    rec(kind, diff)


# ------------------------------------------------------------------ GQA / MQA

@pytest.mark.parametrize("seed", range(N))
def test_gqa_matches_sdpa_enable_gqa(seed):
    torch = torch_or_skip()
    F = torch.nn.functional
    g, data = rng_case(seed)
    if seed % 3 == 0:
        data["causal"] = True
    elif seed % 3 == 1:
        data["mask"] = g.random((data["X"].shape[0], data["X"].shape[1], data["X"].shape[1])) < 0.7
    t = mha.trace(data)
    theirs = {"is_causal": True} if data.get("causal") else (
        {"attn_mask": torch.as_tensor(data["mask"][:, None])} if "mask" in data else {})
    O = F.scaled_dot_product_attention(torch.as_tensor(t.Qh), torch.as_tensor(t.Kh), torch.as_tensor(t.Vh),
                                       enable_gqa=True, **theirs).numpy()
    O = np.nan_to_num(O, nan=0.0)               # a row that sees nothing: SDPA gives NaN, the convention 0
    diff = float(np.abs(t.O - O).max())
    record("GQA vs SDPA(enable_gqa=True)", diff)
    assert diff <= TOL
    # query head h reads key/value head floor(h G / H), like LLaMA's repeat_kv
    H, G = t.config.n_heads, t.config.G
    assert [t.group(h) for h in range(H)] == [h * G // H for h in range(H)]
    assert t.Kh.shape[1] == G and t.QKt.shape[1] == H


def test_mqa_is_one_key_value_head():
    t = mha.trace(mha.EXAMPLES["llama-decode"].data)
    assert t.config.G == 1 and t.config.n_heads == 2
    np.testing.assert_array_equal(t.head(0)["K"], t.head(1)["K"])


# ------------------------------------------------------------------ RoPE

def hf_rotary():
    pytest.importorskip("transformers", reason="the RoPE oracle is Hugging Face transformers: pip install -e '.[test]'")
    from transformers.models.gpt_neox import modeling_gpt_neox as neox
    from transformers.models.gptj import modeling_gptj as gptj
    from transformers.models.llama import modeling_llama as llama
    return llama, neox, gptj


@pytest.mark.parametrize("seed", range(N))
def test_rope_matches_hugging_face_rotary_functions(seed):
    torch = torch_or_skip()
    llama, neox, gptj = hf_rotary()
    g, data = rng_case(seed)
    d_k = data["W_Q"].shape[1] // data["n_heads"]
    family = ["llama", "neox", "gptj"][seed % 3]
    dims = d_k if family == "llama" else 2 * int(g.integers(1, d_k // 2 + 1))       # partial rotary for the others
    base = float(g.choice([10000.0, 500.0, 1e6]))
    B, T = data["X"].shape[:2]
    positions = g.integers(0, 50, size=(B, T))
    data["rope"] = {"base": base, "dims": dims, "style": "interleaved" if family == "gptj" else "half",
                    "positions": positions.tolist(), "key_positions": positions.tolist()}
    data["causal"] = True
    t = mha.trace(data)
    # cos and sin in float64 as the families build them, then the families' own functions rotate q and k
    inv_freq = 1.0 / base ** (np.arange(0, dims, 2) / dims)
    freqs = torch.as_tensor(positions[..., None] * inv_freq)                          # [B, T, dims/2]
    q, k = torch.as_tensor(t.Qh), torch.as_tensor(t.Kh)                               # [B, H|G, T, d_k]
    if family == "llama":
        emb = torch.cat((freqs, freqs), dim=-1)
        q_rot, _ = llama.apply_rotary_pos_emb(q, q, emb.cos(), emb.sin())
        k_rot, _ = llama.apply_rotary_pos_emb(k, k, emb.cos(), emb.sin())
    elif family == "neox":
        emb = torch.cat((freqs, freqs), dim=-1)
        q_rot, k_rot = neox.apply_rotary_pos_emb(q, k, emb.cos(), emb.sin())
    else:   # GPT-J rotates [B, T, heads, d] and only the first rotary_dim features
        rot = lambda x: torch.cat([gptj.apply_rotary_pos_emb(x[..., :dims].transpose(1, 2), freqs.sin(),  # noqa
                                                             freqs.cos()).transpose(1, 2), x[..., dims:]], dim=-1)
        q_rot, k_rot = rot(q), rot(k)
    diff = max(float(np.abs(t.Qh_rope - q_rot.numpy()).max()), float(np.abs(t.Kh_rope - k_rot.numpy()).max()))
    record(f"RoPE vs transformers ({family})", diff)
    assert diff <= TOL, (family, diff)
    # and the scores are computed from the rotated vectors
    np.testing.assert_allclose(t.QKt, t.Qh_rope @ np.repeat(t.Kh_rope, t.config.n_heads // t.config.G, axis=1)
                               .swapaxes(-1, -2), rtol=0, atol=1e-12)


@pytest.mark.parametrize("seed", range(40))
def test_rope_score_depends_only_on_the_distance(seed):
    g = np.random.default_rng(seed)
    q, k = g.normal(size=(1, 4)), g.normal(size=(1, 4))
    scores = []
    for pq, pk in ((2, 5), (7, 10), (40, 43)):
        t = mha.trace({"Q": q, "K": k, "V": [[1.0]], "n_heads": 1, "scale": "none",
                       "rope": {"positions": [pq], "key_positions": [pk], "style": ["half", "interleaved"][seed % 2]}})
        scores.append(float(t.QKt[0, 0, 0, 0]))
    assert max(scores) - min(scores) < 1e-12


# ------------------------------------------------------------------ ALiBi

def bloom_alibi_weights(q, k, slopes, scale):
    """BLOOM's ALiBi (build_alibi_tensor): slope_h * j added to the scores, then a causal mask.  It equals
    -slope_h * (i - j) up to a per-row constant, which the softmax removes."""
    H, T, _ = q.shape
    S = k.shape[1]
    scores = scale * q @ k.transpose(0, 2, 1) + slopes[:, None, None] * np.arange(S)[None, None, :]
    scores = np.where(np.arange(S)[None, :] <= np.arange(T)[:, None] + S - T, scores, -np.inf)
    e = np.exp(scores - scores.max(axis=-1, keepdims=True))
    return e / e.sum(axis=-1, keepdims=True)


@pytest.mark.parametrize("seed", range(N))
def test_alibi_matches_bloom_and_flash_attn_definitions(seed):
    g, data = rng_case(seed, gqa=False)
    H = data["n_heads"] = int(g.integers(1, 13))                     # any H, powers of two or not
    d_k = 2
    for w, width in (("W_Q", H * d_k), ("W_K", H * d_k), ("W_V", H * 2)):
        data[w] = g.normal(size=(data["X"].shape[2], width))
    data["W_O"] = "none"
    data.pop("n_kv_heads")
    causal = seed % 2 == 0
    data.update(alibi=True, causal=causal)
    t = mha.trace(data)
    np.testing.assert_allclose(mha.core.alibi_slopes(H), press_slopes(H), rtol=1e-15)
    for b in range(t.config.B):
        if causal:
            A = bloom_alibi_weights(t.Qh[b], t.Kh[b], press_slopes(H), t.config.effective_scale)
            diff = float(np.abs(t.A[b] - A).max())
            record("ALiBi vs BLOOM (causal)", diff)
            assert diff <= TOL
        ours = naive_layer(X=t.X[b], n_heads=H, W_Q=t.config.W_Q, W_K=t.config.W_K, W_V=t.config.W_V, W_O=None,
                           alibi=True, causal=causal)
        diff = float(np.abs(t.Y[b] - ours).max())
        record("ALiBi vs flash-attn's -slope|i+S-T-j|", diff)
        assert diff <= TOL


def test_alibi_against_transformers_bloom_tensor():
    torch = torch_or_skip()
    pytest.importorskip("transformers", reason="transformers is a test dependency")
    from transformers.models.bloom.modeling_bloom import build_alibi_tensor
    for H in (1, 3, 4, 6, 12):
        alibi = build_alibi_tensor(torch.ones(1, 5), H, torch.float64)                # [H, 1, S] = slope_h * j
        np.testing.assert_allclose(alibi[:, 0, 1].numpy(), mha.core.alibi_slopes(H), rtol=1e-6)


# ------------------------------------------------------------------ sliding window

@pytest.mark.parametrize("seed", range(N))
def test_window_matches_sdpa_with_an_explicit_mask(seed):
    torch = torch_or_skip()
    F = torch.nn.functional
    g, data = rng_case(seed)
    B, T = data["X"].shape[:2]
    W = int(g.integers(1, T + 2))
    causal = seed % 2 == 0
    data.update(window=W, causal=causal)
    t = mha.trace(data)
    i, j = np.arange(T)[:, None], np.arange(T)[None, :]
    allowed = ((j <= i) & (i - j < W)) if causal else (np.abs(i - j) < W)            # Mistral's convention
    O = F.scaled_dot_product_attention(torch.as_tensor(t.Qh), torch.as_tensor(t.Kh), torch.as_tensor(t.Vh),
                                       attn_mask=torch.as_tensor(allowed), enable_gqa=True).numpy()
    diff = float(np.abs(t.O - O).max())
    record("sliding window vs SDPA(explicit mask)", diff)
    assert diff <= TOL
    np.testing.assert_array_equal(t.visible[0, 0], allowed)


# ------------------------------------------------------------------ the KV cache, and everything together

@pytest.mark.parametrize("seed", range(N))
def test_cache_step_equals_the_last_rows_of_the_full_computation(seed):
    g, data = rng_case(seed)
    B, T_all = data["X"].shape[:2]
    if T_all < 2:
        data["X"] = np.concatenate([data["X"], g.normal(size=data["X"].shape)], axis=1)
        T_all = data["X"].shape[1]
    new = int(g.integers(1, T_all))                   # the last `new` tokens are decoded with the cache
    extras = [{}, {"rope": True}, {"rope": {"style": "interleaved", "base": 100}}, {"alibi": True},
              {"window": int(g.integers(1, T_all + 1))}][seed % 5]
    full = mha.trace(dict(data, causal=True, **extras))
    past = T_all - new
    cache = {"K": full.K_all[:, :, :past], "V": full.V_all[:, :, :past]}     # [B, G, S_past, d]
    step = mha.trace(dict(data, X=data["X"][:, past:], causal=True, cache=cache, **extras))
    diff = float(np.abs(step.Y - full.Y[:, past:]).max())
    record("KV-cache step vs full causal", diff)
    assert diff <= 1e-12, (extras, diff)
    assert step.config.S == T_all and step.config.S_past == past
    np.testing.assert_array_equal(step.K_all[:, :, :past], cache["K"])           # the cache is reused as is


def test_llama_decode_combines_gqa_rope_causal_and_cache():
    e = mha.EXAMPLES["llama-decode"].data
    c = mha.trace(e).config
    assert (c.n_heads, c.G, c.rope is not None, c.causal, c.S_past, c.T) == (2, 1, True, "bottom_right", 3, 1)
    assert c.rope.positions.tolist() == [[3]] and c.rope.key_positions.tolist() == [[3]]


@pytest.mark.parametrize("seed", range(40))
def test_the_fast_layer_agrees_on_every_variant(seed):
    g, data = rng_case(seed)
    extras = [{"rope": True, "causal": True}, {"alibi": True}, {"window": 2, "causal": True}, {}][seed % 4]
    data.update(extras)
    t = mha.trace(data)
    for impl in ("tiled", "auto"):
        np.testing.assert_allclose(forward(data, impl=impl), t.Y, rtol=0, atol=1e-12)
    O = mha.attention(t.Qh if t.Qh_rope is None else t.Qh_rope, t.K_all, t.V_all, causal=t.config.causal,
                      window=t.config.window, alibi=True if t.config.alibi_rule else None, enable_gqa=True,
                      impl="tiled")
    np.testing.assert_allclose(O, t.O, rtol=0, atol=1e-12)


# ------------------------------------------------------------------ bad input

BASE = {"X": [[1, 0, 1, 0], [0, 1, 0, 1], [1, 1, 0, 0]], "n_heads": 2}
BAD = [
    ("kv heads do not divide", dict(BASE, n_heads=2, n_kv_heads=3), ["n_kv_heads", "3", "n_heads = 2"]),
    ("odd rope dims", dict(BASE, rope={"dims": 1}), ["rope.dims", "1", "even"]),
    ("rope style", dict(BASE, rope={"style": "spiral"}), ["rope.style", "'spiral'"]),
    ("window zero", dict(BASE, window=0), ["window", "positive", "0"]),
    ("window negative", dict(BASE, window=-2), ["window", "-2"]),
    ("cache width", dict(BASE, cache={"K": np.ones((2, 3, 3)).tolist(), "V": np.ones((2, 3, 2)).tolist()}),
     ["cache.K", "[2, 3, 3]", "d_k"]),
    ("cache heads", dict(BASE, cache={"K": np.ones((1, 3, 2)).tolist(), "V": np.ones((1, 3, 2)).tolist()}),
     ["cache.K", "[1, 3, 2]", "[2, S_past, 2]"]),
    ("cache lengths", dict(BASE, cache={"K": np.ones((2, 3, 2)).tolist(), "V": np.ones((2, 2, 2)).tolist()}),
     ["cache.V", "2 tokens", "cache.K holds 3"]),
    ("cache top-left", dict(BASE, causal="top_left", cache={"K": np.ones((2, 1, 2)).tolist(),
                                                            "V": np.ones((2, 1, 2)).tolist()}), ["causal", "cache"]),
    ("alibi slopes", dict(BASE, alibi=[0.5]), ["alibi", "[2]", "[1]"]),
]


@pytest.mark.parametrize("name,data,needles", BAD, ids=[b[0] for b in BAD])
def test_bad_modern_input_is_one_line(refused_input, name, data, needles):
    refused_input(data, needles)


def test_overflow_is_refused_by_name(run_cli, recwarn):
    code, out, err = run_cli("explain", "--x", "[[1e300, 1], [1, 1]]", "--n-heads", "1", "--format", "json")
    assert code == 2 and "X" in err and "1e+300" in err and "overflow" in err and err.count("\n") == 1
    code, out, err = run_cli("explain", "--x", "[[1e39, 1]]", "--n-heads", "1", "--dtype", "float32")
    assert code == 2 and "float32" in err and "1e+39" in err
    assert not [w for w in recwarn if issubclass(w.category, RuntimeWarning)]
    with pytest.raises(mha.MHAInputError, match="W_Q"):
        mha.trace([[1.0, 2.0]], n_heads=1, W_Q=[[1e200, 0], [0, 1]], W_K=[[1e200, 0], [0, 1]])


def test_rope_default_positions_follow_the_cache():
    t = mha.trace(mha.EXAMPLES["kv-cache"].data, rope=True)
    assert t.config.rope.positions.tolist() == [[3]] and math.isclose(t.config.rope.inv_freq[0], 1.0)


def test_attention_overflow_is_refused_on_both_paths():
    big = np.full((2, 2), 1e200)
    for impl in ("reference", "auto"):
        with pytest.raises(mha.MHAInputError, match="overflow"):
            mha.attention(big, big, np.ones((2, 2)), impl=impl)
