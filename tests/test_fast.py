"""The fast path (mha.fast, reached through mha.attend) against the float64 reference: agreement, not speed."""

import json
import threading
from contextlib import contextmanager

import numpy as np
import pytest
from hypothesis import given, settings, strategies as st

import mha
from mha import fast
from mha.attend import attention, forward, resolve_impl
from mha.fast import online_softmax_steps


PATHS = ["numpy", "compiled"]


@contextmanager
def on_path(name):
    """Run the fast path on NumPy's tiles or on the compiled pass (mha.kernel), whatever the size."""
    if name == "compiled" and fast.compiled() is None:
        pytest.skip(f"the compiled pass is not available: {fast.compiled_missing()}")
    with pytest.MonkeyPatch.context() as mp:
        mp.setattr(fast, "COMPILED_WORK", 0 if name == "compiled" else 1 << 62)
        yield


@pytest.fixture(params=PATHS)
def each_path(request):
    """The test runs on NumPy's tiles and on the compiled pass."""
    with on_path(request.param):
        yield request.param


@st.composite
def problems(draw):
    nb = draw(st.integers(0, 3))
    batch = tuple(draw(st.integers(1, 3)) for _ in range(nb))
    T, S, d, dv = (draw(st.integers(1, n)) for n in (40, 40, 9, 9))
    seed = draw(st.integers(0, 2 ** 31))
    g = np.random.default_rng(seed)
    q, k, v = g.standard_normal(batch + (T, d)), g.standard_normal(batch + (S, d)), g.standard_normal(batch + (S, dv))
    if nb and draw(st.booleans()):                   # keys and values shared by every head: broadcast, not copied
        k, v = k[..., :1, :, :], v[..., :1, :, :]
    kw = {}
    kind = draw(st.sampled_from(["none", "mask", "causal", "bottom_right", "lengths", "bias", "all", "big",
                                 "big_all"]))
    if kind in ("mask", "all", "big_all"):
        kw["mask"] = g.random(batch[:1] + (1,) * max(nb - 1, 0) + (T, S)) < 0.7
    if kind in ("causal", "all", "big_all"):
        kw["causal"] = True
    if kind == "bottom_right":
        kw["causal"] = "bottom_right"
    if kind in ("lengths", "all") and nb:
        kw["key_lengths"] = g.integers(0, S + 1, size=batch[:draw(st.integers(1, nb))])
    if kind in ("bias", "all", "big_all"):
        kw["bias"] = g.standard_normal((T, S)) * 3
        kw["bias"][g.random((T, S)) < 0.1] = -np.inf          # -inf in a bias masks, as False does
    if kind in ("big", "big_all"):  # scores too large for the no-shift shortcut: the online max is used
        q = q * 40
    block = draw(st.sampled_from([None, "keys", "pair"]))
    if block == "keys":
        kw["block_size"] = draw(st.integers(1, 17))
    elif block == "pair":
        kw["block_size"] = (draw(st.integers(1, 17)), draw(st.integers(1, 17)))
    kw["workers"] = draw(st.sampled_from([None, 1, 2, 3]))
    return q, k, v, kw


def _reference(q, k, v, kw):
    return attention(q, k, v, impl="reference", **{n: a for n, a in kw.items() if n not in ("block_size", "workers")})


@pytest.mark.parametrize("path", PATHS)
@settings(max_examples=300, deadline=None)
@given(p=problems())
def test_float64_fast_path_equals_reference(path, p):
    """Every mask kind, leading axes that broadcast, block sizes that do not divide T, 1-3 threads: 1e-13,
    and the log-sum-exp of every row."""
    q, k, v, kw = p
    ref, ref_lse = _reference(q, k, v, dict(kw, return_lse=True))
    with on_path(path):
        out, lse = attention(q, k, v, impl="tiled", return_lse=True, **kw)
    assert out.dtype == np.float64 and out.shape == ref.shape and lse.shape == ref_lse.shape == ref.shape[:-1]
    np.testing.assert_allclose(out, ref, rtol=0, atol=1e-13 * max(1.0, np.abs(ref).max()))
    _same_lse(lse, ref_lse, 1e-13)


def _same_lse(lse, ref, tol):
    """The same rows see no key (-inf), and the others agree to tol relative to the size of the scores."""
    np.testing.assert_array_equal(np.isneginf(lse), np.isneginf(ref))
    seen = np.isfinite(ref)
    np.testing.assert_allclose(lse[seen], ref[seen], rtol=0, atol=tol * max(1.0, np.abs(ref[seen]).max(initial=0)))


@pytest.mark.parametrize("path", PATHS)
@settings(max_examples=300, deadline=None)
@given(p=problems())
def test_float32_fast_path_against_float64_reference(path, p):
    """float32 against the float64 reference on the same (float32-representable) inputs: <= 2e-6 relative.

    "Relative" is to the scale of the values: every output is a convex combination of the rows of v, so
    rounding errors scale with max |v|, not with the output, which can be near 0 by cancellation.
    """
    q, k, v, kw = p
    q32, k32, v32 = (a.astype(np.float32) for a in (q, k, v))
    kw32 = {n: (a.astype(np.float32) if n == "bias" else a) for n, a in kw.items()}
    ref = _reference(*(a.astype(np.float64) for a in (q32, k32, v32)),
                     {n: (a.astype(np.float64) if n == "bias" else a) for n, a in kw32.items()})
    with on_path(path):
        out = attention(q32, k32, v32, **kw32)
    assert out.dtype == np.float32
    scores = np.abs(q).max() * np.abs(k).max() * q.shape[-1] ** 0.5 + (
        np.abs(kw["bias"][np.isfinite(kw["bias"])]).max(initial=0) if "bias" in kw else 0)
    # only the "big" case (logits in the hundreds, to force the running max) gets more room: each score's
    # own float32 rounding is then amplified by the exponential, e^(s(1 + eps)) = e^s e^(s eps)
    big = np.abs(q).max() > 20
    tol = 2e-6 * (max(1.0, scores / 8) if big else 1.0)      # never below the 2e-6 of the docstring
    assert np.abs(out - ref).max() <= tol * max(np.abs(v32).max(), 1e-30)


@st.composite
def modern_problems(draw):
    """Per-head arrays with a head axis and today's variants: GQA, a sliding window, ALiBi, on top of the
    masks, causal alignments, padding and bias, with block sizes that do not divide T."""
    B, G, rep = draw(st.integers(1, 2)), draw(st.integers(1, 3)), draw(st.integers(1, 3))
    H = G * rep
    T, S, d, dv = draw(st.integers(1, 40)), draw(st.integers(1, 40)), draw(st.integers(1, 8)), draw(st.integers(1, 8))
    g = np.random.default_rng(draw(st.integers(0, 2 ** 31)))
    gqa = rep > 1 or draw(st.booleans())
    q = g.standard_normal((B, H, T, d))
    k, v = g.standard_normal((B, G if gqa else H, S, d)), g.standard_normal((B, G if gqa else H, S, dv))
    kw = {"enable_gqa": gqa} if gqa else {}
    kw["causal"] = draw(st.sampled_from([False, True, "bottom_right"]))
    if draw(st.booleans()):
        kw["window"] = draw(st.integers(1, 12))
    alibi = draw(st.sampled_from([None, "press", "custom"]))
    if alibi == "press":
        kw["alibi"] = True
    elif alibi == "custom":
        kw["alibi"] = g.uniform(0, 1.5, H)
    extra = draw(st.sampled_from(["none", "mask", "lengths", "bias"]))
    if extra == "mask":
        kw["mask"] = g.random((B, 1, T, S)) < 0.8
    elif extra == "lengths":
        kw["key_lengths"] = g.integers(0, S + 1, size=B)
    elif extra == "bias":
        kw["bias"] = g.standard_normal((H, T, S))
    if draw(st.booleans()):
        q = q * 30                                        # logits beyond the no-shift bound
    block = draw(st.sampled_from([None, "keys", "pair"]))
    if block == "keys":
        kw["block_size"] = draw(st.integers(1, 17))
    elif block == "pair":
        kw["block_size"] = (draw(st.integers(1, 17)), draw(st.integers(1, 17)))
    kw["workers"] = draw(st.sampled_from([None, 1, 2]))
    return q, k, v, kw


@pytest.mark.parametrize("path", PATHS)
@settings(max_examples=300, deadline=None)
@given(p=modern_problems())
def test_float64_fast_path_equals_reference_with_gqa_window_and_alibi(path, p):
    q, k, v, kw = p
    ref, ref_lse = _reference(q, k, v, dict(kw, return_lse=True))
    with on_path(path):
        out, lse = attention(q, k, v, return_lse=True, **kw)
    np.testing.assert_allclose(out, ref, rtol=0, atol=1e-13 * max(1.0, np.abs(ref).max()))
    _same_lse(lse, ref_lse, 1e-13)


@st.composite
def layer_configs(draw):
    """Input mappings with every key of the contract the fast layer must honour."""
    g = np.random.default_rng(draw(st.integers(0, 2 ** 31)))
    B, G, rep = draw(st.integers(1, 2)), draw(st.integers(1, 3)), draw(st.integers(1, 3))
    H, d_k, d_v = G * rep, 2 * draw(st.integers(1, 3)), draw(st.integers(1, 5))
    T, d_model = draw(st.integers(1, 24)), draw(st.integers(1, 8))
    data = {"X": g.standard_normal((B, T, d_model)), "n_heads": H, "n_kv_heads": G,
            "W_Q": g.standard_normal((d_model, H * d_k)), "W_K": g.standard_normal((d_model, G * d_k)),
            "W_V": g.standard_normal((d_model, G * d_v)), "W_O": g.standard_normal((H * d_v, 5))}
    if draw(st.booleans()):
        data["causal"] = True
    if draw(st.booleans()):
        data["window"] = draw(st.integers(1, 10))
    rope = draw(st.sampled_from([None, "half", "interleaved", "partial"]))
    if rope:
        data["rope"] = {"style": "half" if rope == "partial" else rope, "dims": 2 if rope == "partial" else d_k}
    if draw(st.booleans()):
        data["alibi"] = True
    if draw(st.booleans()):
        past = draw(st.integers(1, 20))
        data["cache"] = {"K": g.standard_normal((B, G, past, d_k)), "V": g.standard_normal((B, G, past, d_v))}
    elif draw(st.booleans()):
        data["key_lengths"] = g.integers(0, T + 1, size=B).tolist()
    data["scale"] = draw(st.sampled_from([None, "none", "1/d_k", 0.3]))
    if data["scale"] is None:
        del data["scale"]
    form = draw(st.sampled_from(["X", "QKV given", "no W_O"]))
    if form == "QKV given":                # Q, K, V directly: no projections, Y = O_concat
        for name, W in (("Q", data.pop("W_Q")), ("K", data.pop("W_K")), ("V", data.pop("W_V"))):
            data[name] = data["X"] @ W
        del data["X"], data["W_O"]
    elif form == "no W_O":
        data["W_O"], data["b_O"] = "none", g.standard_normal(H * d_v)
    return data, draw(st.sampled_from([None, 3, (5, 4)])), draw(st.sampled_from([None, 1, 2]))


@pytest.mark.parametrize("path", PATHS)
@settings(max_examples=200, deadline=None)
@given(p=layer_configs())
def test_float64_fast_layer_equals_reference_for_every_contract_key(path, p):
    """GQA, RoPE (both layouts, partial), ALiBi, windows and the KV cache, alone and combined: forward() on
    the fast path against the core's layer, 1e-12."""
    data, block, workers = p
    cfg = mha.parse_config(data)
    want = mha.core.layer(cfg).Y
    with on_path(path), pytest.MonkeyPatch.context() as mp:   # the fast layer must not fall back to the reference
        mp.setattr(mha.core, "layer", lambda *a, **k: pytest.fail("forward fell back to the reference"))
        got = forward(data, block_size=block, workers=workers)
    np.testing.assert_allclose(got, want, rtol=0, atol=1e-12 * max(1.0, np.abs(want).max()))


@pytest.mark.parametrize("path", PATHS)
def test_window_skips_the_key_blocks_outside_the_band(monkeypatch, path):
    """T = 4096, W = 256: the tiles the kernel computes cover about the band, not T x S."""
    seen = []
    if path == "numpy":
        real = fast._Problem._scores
        monkeypatch.setattr(fast._Problem, "_scores", lambda self, s, *a: seen.append(s.size) or real(self, s, *a))
    elif fast.compiled() is not None:
        for name in ("softmax_tile", "softmax_rows"):        # the online pass and the one-tile pass
            monkeypatch.setattr(fast.compiled(), name, lambda s, *a, f=getattr(fast.compiled(), name):
                                seen.append(s.size) or f(s, *a))
    g = np.random.default_rng(0)
    q, k, v = (g.standard_normal((1, 1, 4096, 8)).astype(np.float32) for _ in range(3))
    with on_path(path):
        attention(q, k, v, causal=True, window=256, workers=1)
    band = 4096 * 256
    assert band <= sum(seen) <= 3 * band < 4096 * 4096 / 4


@pytest.mark.parametrize("dtype", [np.float64, np.float32])
@pytest.mark.parametrize("causal", [False, True])
def test_base_two_exponential_gives_the_same_numbers(monkeypatch, dtype, causal):
    """On AVX-512 the kernel takes exp2 with log2(e) folded into the query scale; force that path here."""
    monkeypatch.setattr(fast, "exponential", lambda dt: (np.exp2, fast._LOG2_E))
    g = np.random.default_rng(3)
    q, k, v = (g.standard_normal((2, 3, 300, 16)).astype(dtype) for _ in range(3))
    bias = g.standard_normal((300, 300)).astype(dtype)
    tol = 1e-12 if dtype == np.float64 else 2e-6
    for kw in ({}, {"bias": bias}, {"block_size": 64}, {"mask": g.random((300, 300)) < 0.5}):
        ref = attention(*(a.astype(np.float64) for a in (q, k, v)), causal=causal, impl="reference", **kw)
        out = attention(q, k, v, causal=causal, **kw)
        assert np.abs(out - ref).max() <= tol


@pytest.mark.parametrize("dtype, v_scale", [(np.float32, 1e-30), (np.float32, 1e30), (np.float64, 1e-250),
                                             (np.float64, 1e250)])
@pytest.mark.parametrize("T", [100, 700])
def test_values_far_from_one_keep_their_precision(dtype, v_scale, T, each_path):
    """Without the max-shift the exponentials may be as small as e^-bound; the bound leaves room for the
    values' magnitude, so tiny values do not underflow and huge ones do not overflow."""
    g = np.random.default_rng(4)
    q, k = (g.standard_normal((2, T, 16)) * 2 for _ in range(2))
    q, k, v = (a.astype(dtype) for a in (q, k, g.standard_normal((2, T, 16)) * v_scale))
    ref = attention(*(a.astype(np.float64) for a in (q, k, v)), impl="reference")
    out = attention(q, k, v)
    tol = 2e-6 if dtype == np.float32 else 1e-12
    assert np.abs(out - ref).max() <= tol * np.abs(v).max()


def test_exponential_is_one_of_the_two_exact_ones():
    f, factor = fast.exponential(np.dtype(np.float32))
    assert (f, factor) in ((np.exp, 1.0), (np.exp2, fast._LOG2_E))


def test_fully_masked_rows_are_zero_in_both_paths(each_path):
    g = np.random.default_rng(1)
    q, k, v = (g.standard_normal((2, 5, 4)) for _ in range(3))
    mask = np.ones((2, 5, 5), bool)
    mask[1, 3] = False
    for impl in ("reference", "tiled"):
        for block in (None, 2):
            out = attention(q, k, v, mask=mask, key_lengths=np.array([0, 5]), impl=impl, block_size=block)
            np.testing.assert_array_equal(out[0], 0.0)          # length 0: every row of sequence 0
            np.testing.assert_array_equal(out[1, 3], 0.0)


@pytest.mark.parametrize("shape", [(3, 2), (2, 16, 8), (1, 12, 300, 64)])
def test_auto_takes_the_fast_path_at_every_size(monkeypatch, shape):
    """The default is the fast path, from the worked example's size up; only a trace uses the reference."""
    calls = []
    real = fast.attention_heads
    monkeypatch.setattr(fast, "attention_heads", lambda *a, **k: calls.append(1) or real(*a, **k))
    x = np.random.default_rng(0).standard_normal(shape)
    for dtype in (np.float64, np.float32):
        mha.attention(x.astype(dtype), x.astype(dtype), x.astype(dtype))
    assert calls == [1, 1]
    assert resolve_impl("auto", np.float32) == resolve_impl("auto", np.float64) == "tiled"
    assert resolve_impl("auto", np.float64, trace=True) == "reference"


def test_plan_cuts_small_problems_into_a_few_batched_tiles():
    """A small problem is one tile per worker holding several heads, not a loop over blocks."""
    p = fast.plan(1, 12, 12, 128, 128, 64, 64, causal=False, workers=2)
    assert p.rows == 128 and p.keys == 128 and not p.scan    # each item: all its queries and keys in one tile
    assert p.heads > 1 and 2 <= -(-12 // p.heads) <= 4      # a few items, each a batch of heads
    big = fast.plan(1, 12, 12, 8192, 8192, 64, 64, causal=True, workers=2)
    assert big.keys < 8192 and big.scan                    # long key walks: blocks, no-shift bound
    assert fast.plan(1, 8, 2, 512, 512, 64, 64, causal=False).heads in (1, 2, 4)   # GQA: within one group


def test_causal_plans_on_the_compiled_pass_take_query_blocks_of_a_quarter_of_T():
    """Each causal item computes its block's triangle in full: blocks of T / 4 rows, within [64, 256],
    waste less at short T and make larger products at long T; a window keeps DIAGONAL_ROWS, NumPy's tiles
    too.  With two workers the head groups are of even sizes (6 + 6 heads, not 11 + 1)."""
    for T, rows in ((128, 64), (256, 64), (512, 128), (1024, 256)):
        p = fast.plan(1, 12, 12, T, T, 64, 64, causal=True, compiled=True, workers=1)
        assert not p.scan and p.rows == rows
    assert fast.plan(1, 12, 12, 256, 256, 64, 64, causal=True, workers=1).rows == fast.DIAGONAL_ROWS
    assert fast.plan(1, 12, 12, 1024, 1024, 64, 64, causal=True, window=100, compiled=True).rows <= fast.DIAGONAL_ROWS
    for T in (64, 128, 256):
        p = fast.plan(1, 12, 12, T, T, 64, 64, causal=True, compiled=True, workers=2)
        assert 12 % p.heads == 0 and p.heads > 1


@pytest.mark.parametrize("variant", ["plain", "causal", "cache", "window", "alibi", "gqa", "mask+bias", "lengths"])
def test_short_problems_take_the_one_tile_pass_with_the_same_numbers(monkeypatch, variant):
    """At short T each item's keys fit one tile: the compiled path runs kernel.softmax_rows (three calls per
    item), never the online tile; float64 within 1e-13 of the reference, and the same numbers as the online
    items (fast.ONE_PASS off), every variant the path accepts, with 1 and 2 workers."""
    kern = fast.compiled()
    if kern is None:
        pytest.skip(f"the compiled pass is not available: {fast.compiled_missing()}")
    g = np.random.default_rng(5)
    H, T, S = 6, 96, 130 if variant == "cache" else 96
    G = 2 if variant == "gqa" else H
    q = g.standard_normal((2, H, T, 16))
    k, v = g.standard_normal((2, G, S, 16)), g.standard_normal((2, G, S, 8))
    kw = {"plain": {}, "causal": {"causal": True}, "cache": {"causal": "bottom_right"}, "window": {"window": 9},
          "alibi": {"alibi": True, "causal": True}, "gqa": {"enable_gqa": True, "causal": True},
          "mask+bias": {"mask": g.random((T, S)) < 0.3, "bias": g.standard_normal((T, S))},
          "lengths": {"key_lengths": np.array([0, 50])}}[variant]
    calls = {"softmax_rows": 0, "softmax_tile": 0}
    for name in calls:
        def spy(*a, f=getattr(kern, name), name=name):
            calls[name] += 1
            return f(*a)
        monkeypatch.setattr(kern, name, spy)
    ref = attention(q, k, v, impl="reference", **kw)
    with on_path("compiled"):
        for workers in (1, 2):
            out = attention(q, k, v, workers=workers, **kw)
            np.testing.assert_allclose(out, ref, rtol=0, atol=1e-13)
        assert calls["softmax_rows"] > 0 and calls["softmax_tile"] == 0
        monkeypatch.setattr(fast, "ONE_PASS", False)
        online = attention(q, k, v, **kw)
    assert calls["softmax_tile"] > 0
    np.testing.assert_allclose(out, online, rtol=0, atol=1e-13)


def test_fast_path_memory_does_not_grow_with_T_times_S():
    import tracemalloc
    g = np.random.default_rng(0)
    q, k, v = (g.standard_normal((1, 2048, 16)).astype(np.float32) for _ in range(3))
    attention(q, k, v, workers=1)                        # per-thread scratch is allocated once, then reused
    tracemalloc.start()
    attention(q, k, v, workers=1)
    _, peak = tracemalloc.get_traced_memory()
    tracemalloc.stop()
    t_by_s = 2048 * 2048 * 4
    assert peak < t_by_s / 4, (peak, t_by_s)       # a T x S score matrix would be 16 MiB


def test_nan_and_infinity_are_refused_by_name_on_both_paths(each_path):
    g = np.random.default_rng(0)
    q, k, v = (g.standard_normal((2, 300, 8)) for _ in range(3))
    for name, arr in (("q", q), ("k", k), ("v", v)):
        for bad in (np.nan, np.inf):
            args = {"q": q.copy(), "k": k.copy(), "v": v.copy()}
            args[name][1, 7, 3] = bad
            for impl in ("tiled", "reference"):
                with pytest.raises(mha.MHAInputError, match=rf"^{name}: non-finite value"):
                    attention(args["q"], args["k"], args["v"], impl=impl)


def test_scores_that_overflow_are_an_error_and_large_finite_ones_are_exact(each_path):
    q = np.ones((2, 4, 3))
    with pytest.raises(mha.MHAInputError, match="overflow float64"):
        attention(q * 1e200, q * 1e200, q)
    # |q|^2 overflows float32 here, but every score is exact: the kernel falls back to the max-shift
    x = np.full((1, 4, 2), 3e19, np.float32)
    out = attention(x, x * 1e-38, np.arange(8, dtype=np.float32).reshape(1, 4, 2))
    np.testing.assert_allclose(out[0, 0], [3.0, 4.0], rtol=1e-6)


@pytest.mark.parametrize("bad", [-3, 0, 1.5, True, "4", (0, 4), (4, -1)])
def test_block_size_below_one_is_refused_naming_it(bad):
    x = np.ones((4, 2))
    with pytest.raises(mha.MHAInputError, match="^block_size: expected a whole number >= 1"):
        attention(x, x, x, block_size=bad)
    if not isinstance(bad, tuple):
        with pytest.raises(mha.MHAInputError, match="^block_size"):
            online_softmax_steps(np.zeros((2, 3)), np.ones((3, 1)), bad)


@pytest.mark.parametrize("bad", [0, -1, 2.0])
def test_workers_below_one_is_refused_naming_it(bad):
    x = np.ones((4, 2))
    with pytest.raises(mha.MHAInputError, match="^workers"):
        attention(x, x, x, workers=bad)
    with pytest.raises(mha.MHAInputError, match="^impl"):
        attention(x, x, x, impl="fastest")


def test_concurrent_callers_each_get_their_own_answer(each_path):
    """Two user threads share the process's team: one runs on it, the other alone; both are right."""
    g = np.random.default_rng(7)
    probs = [tuple(g.standard_normal((1, 4, 600, 32)) for _ in range(3)) for _ in range(4)]
    want = [_reference(*p, {}) for p in probs]
    got = [None] * 4

    def work(i):
        got[i] = attention(*probs[i], causal=False, workers=2)

    threads = [threading.Thread(target=work, args=(i,)) for i in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    for a, b in zip(got, want):
        np.testing.assert_allclose(a, b, rtol=0, atol=1e-12)


def test_an_error_inside_a_worker_reaches_the_caller():
    def boom(item):
        if item == 3:
            raise ZeroDivisionError("item 3")
    with pytest.raises(ZeroDivisionError, match="item 3"):
        fast.team(2).run(boom, list(range(8)))
    fast.team(2).run(lambda item: None, list(range(8)))       # the team still works afterwards


def test_full_layer_fast_path_equals_the_trace(each_path):
    data = dict(mha.random_example(T=30, d_model=12, n_heads=3, B=2, seed=2), causal=True, key_lengths=[20, 30],
                b_O=np.arange(12.0) / 10)
    want = mha.trace(data).Y
    for kw in ({}, {"block_size": 7}, {"block_size": (5, 3), "workers": 2}):
        np.testing.assert_allclose(forward(data, **kw), want, rtol=0, atol=1e-12)
    Y32 = forward(data, dtype=np.float32)
    assert Y32.dtype == np.float32
    np.testing.assert_allclose(Y32, want, rtol=1e-5, atol=1e-5)
    np.testing.assert_array_equal(forward(mha.DOCUMENT_EXAMPLE, impl="reference"), mha.trace(mha.DOCUMENT_EXAMPLE).Y[0])
    assert forward(mha.DOCUMENT_EXAMPLE).shape == (3, 4)


@pytest.mark.parametrize("workers", [1, 2, 3])
def test_full_layer_fast_path_with_mask_bias_and_cross_attention(workers, each_path):
    """The layer hands the validated mask and bias straight to the kernel, and writes each head into its
    columns of the concat; every worker count gives the trace's Y."""
    g = np.random.default_rng(5)
    B, T, S, d_model = 2, 23, 17, 12
    data = dict(mha.random_example(T=T, d_model=d_model, n_heads=4, B=B, seed=3),
                key=g.standard_normal((B, S, d_model)), value=g.standard_normal((B, S, d_model)),
                mask=(g.random((B, T, S)) < 0.8).tolist(), bias=(g.standard_normal((T, S)) * 2).tolist(),
                b_Q=g.standard_normal(d_model), b_V=g.standard_normal(d_model))
    data["mask"][1][4] = [False] * S                                    # one row sees no key: its O is 0
    want = mha.trace(data).Y
    for block in ((5, 3), None, 4):
        got = forward(data, block_size=block, workers=workers)
        np.testing.assert_allclose(got, want, rtol=0, atol=1e-12)


def test_online_softmax_reproduces_the_document_heads_exactly():
    t = mha.trace(mha.DOCUMENT_EXAMPLE)
    for h in range(2):
        for block in (1, 2, 3):
            steps = online_softmax_steps(t.S[0, h], t.Vh[0, h], block)
            np.testing.assert_allclose(steps[-1]["out"], t.O[0, h], rtol=0, atol=1e-15)
            np.testing.assert_allclose(steps[-1]["l"] * np.exp(steps[-1]["m"] - t.row_max[0, h]), t.row_sum[0, h],
                                       rtol=1e-15)
    # the row the document rounds to 0.7518 (it added rounded weights) comes out as the exact 0.75174...
    np.testing.assert_allclose(online_softmax_steps(t.S[0, 0], t.Vh[0, 0], 2)[-1]["out"][2], t.O[0, 0, 2],
                               rtol=0, atol=1e-15)


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_tiled_explanation_renders_everywhere_and_arrives_at_O(lang, run_cli):
    ex = mha.explain(lang=lang, tiled_block=2)
    keys = [s.key for s in ex.sections]
    assert keys.index("tiled") < keys.index("concat") and "tiled.head1" in keys and "tiled.head2" in keys
    md = ex.to_markdown()
    assert "\\alpha = e^{m^{\\text{old}} - m}" in md and "\\tilde{O}" in md
    assert "0.8022 & 0.5989 \\\\\n0.5989 & 0.8022 \\\\\n0.7517 & 0.7517" in md   # the final O^(1)
    assert ex.to_text() and ex.to_latex()
    from mha.check import check_document
    assert check_document(md).ok
    code, out, _ = run_cli("explain", "--tiled", "--block-size", "1", "--lang", lang, "--format", "md")
    assert code == 0 and ("online softmax" in out or "在线 softmax" in out)
    assert "Block 3: keys 3 to 3" in out or "第 3 块：键 3 到 3" in out


def test_tiled_explanation_refuses_a_block_size_below_one(run_cli):
    code, out, err = run_cli("explain", "--tiled", "--block-size", "-3")
    assert code == 2 and "block_size" in err and "Traceback" not in err and len(err.strip().splitlines()) == 1


def test_bench_quick_runs_and_reports_every_column(monkeypatch):
    """The benchmark's plumbing against torch (smallest sizes); its numbers are reported, never asserted."""
    pytest.importorskip("torch", reason="the comparison rows need torch")
    from mha import bench
    for name, value in (("QUICK_SWEEP", (64,)), ("QUICK_LAYER_SWEEP", (64,)), ("QUICK_GQA_SWEEP", (64,)),
                        ("QUICK_WINDOW_SWEEP", ((128, 16),)), ("QUICK_FLOAT64_T", 64)):
        monkeypatch.setattr(bench, name, value)
    result = bench.run(quick=True, progress=lambda s: None)
    text = bench.table(result)
    for col in ("GFLOP/s", "vs torch", "%SGEMM", "peak MiB", "SGEMM measured in this run", "BLAS", "err mha",
                "err torch", "AVX-512"):
        assert col in text
    if fast.compiled() is not None:                 # the pass's own cost and its compile time, measured
        assert "compiled pass, " in text and "with an empty cache" in text
        assert 0 < result["pass_ns_per_score"]["no shift"] < 100 and result["compile"]["first_call_cold_s"] > 0
    errors = [r["extra"] for r in result["rows"] if "err_mha" in r["extra"]]
    assert errors and all(0 < e["err_mha"] < 1e-4 and 0 < e["err_torch"] < 1e-4 for e in errors)
    impls = {r["impl"] for r in result["rows"]}
    assert {"mha", "torch sdpa", "mha forward", "torch nn.MultiheadAttention"} <= impls
    json.dumps(result)


@pytest.fixture(scope="module")
def quick_without_torch():
    """One `mha bench --quick` run as if torch were not installed, with its progress lines."""
    from mha import bench
    lines = []
    with pytest.MonkeyPatch.context() as mp:
        mp.setattr(bench, "_torch", lambda: None)
        mp.setattr(bench, "compile_seconds", lambda: None)      # measured by the test above
        result = bench.run(quick=True, progress=lines.append)
    return result, lines


def test_bench_runs_without_torch(quick_without_torch):
    """torch is optional: the ratio column says so, the torch rows are gone, everything else is measured."""
    from mha import bench
    result, _ = quick_without_torch
    assert result["machine"]["torch"] is None
    assert {r["impl"] for r in result["rows"]} == {"mha", "mha forward"}
    assert all(r["vs_torch"] is None and r["gflops"] > 0 for r in result["rows"])
    text = bench.table(result)
    assert text.count("no torch") == len(result["rows"]) and "ceiling" in text and "at best" not in text


def test_bench_quick_announces_only_the_steps_it_reports(quick_without_torch):
    """--quick prints one progress line per row group of its table, numbered out of the real total."""
    result, lines = quick_without_torch
    steps = [s for s in lines if s.startswith("[")]
    assert {s.split("]")[0].split("/")[1] for s in steps} == {str(len(steps))}
    assert len(steps) == len({(r["case"], r["shape"]) for r in result["rows"]})


@pytest.mark.parametrize("causal", [False, True])
def test_float32_error_is_that_of_torch_sdpa(each_path, causal):
    """float32 against the float64 reference, on the same float32 inputs: the fast path's largest error is
    torch SDPA's own, give or take (both are float32 rounding, 4e-7 to 1e-6 here; over 12 draws at
    T = 256 to 1024 the ratio had median 1.0 and ranged 0.7 to 1.5): at most twice it."""
    torch = pytest.importorskip("torch")
    g = np.random.default_rng(11)
    q, k, v = (g.standard_normal((1, 4, 700, 64)).astype(np.float32) for _ in range(3))
    ref = attention(*(a.astype(np.float64) for a in (q, k, v)), causal=causal, impl="reference")
    ours = np.abs(attention(q, k, v, causal=causal) - ref).max()
    with torch.no_grad():
        theirs = torch.nn.functional.scaled_dot_product_attention(*(torch.from_numpy(a) for a in (q, k, v)),
                                                                  is_causal=causal).numpy()
    assert ours <= 2 * np.abs(theirs - ref).max()


def test_return_lse_is_the_log_of_each_rows_sum_of_exponentials():
    """On the worked example's head: ln sum_j e^(s_ij) from the trace's scaled scores, both paths."""
    t = mha.trace(mha.DOCUMENT_EXAMPLE)
    q, k, v = t.Qh[0, 0], t.Kh[0, 0], t.Vh[0, 0]
    want = np.log(np.exp(t.S[0, 0]).sum(axis=-1))
    for impl in ("reference", "tiled"):
        out, lse = attention(q, k, v, impl=impl, return_lse=True)
        np.testing.assert_allclose(lse, want, rtol=1e-15)
        np.testing.assert_allclose(out, t.O[0, 0], rtol=1e-15)


def test_bench_says_so_in_one_line_when_numba_is_missing(monkeypatch):
    """Without numba, NumPy's tiles run and the table's notes say so, once; the ceiling takes NumPy's exp."""
    from mha import bench
    monkeypatch.setattr(fast, "_KERNEL", {"module": None, "why": "ModuleNotFoundError: No module named 'numba'"})
    for name, value in (("QUICK_SWEEP", (64,)), ("QUICK_LAYER_SWEEP", (64,)), ("QUICK_GQA_SWEEP", (64,)),
                        ("QUICK_WINDOW_SWEEP", ((128, 16),)), ("QUICK_FLOAT64_T", 64)):
        monkeypatch.setattr(bench, name, value)
    monkeypatch.setattr(bench, "_torch", lambda: None)
    result = bench.run(quick=True, progress=lambda s: None)
    lines = [line for line in bench.table(result).splitlines() if "numba is not available" in line]
    assert len(lines) == 1 and "No module named 'numba'" in lines[0]
    assert result["pass_ns_per_score"] is None and result["compile"] is None
