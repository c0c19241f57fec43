"""The tiled online-softmax path against the float64 reference (agreement, not speed)."""

import json

import numpy as np
import pytest
from hypothesis import given, settings, strategies as st

import mha
from mha.fast import forward, online_softmax_steps, tiled_attention


@st.composite
def problems(draw):
    nb = draw(st.integers(0, 2))
    batch = tuple(draw(st.integers(1, 3)) for _ in range(nb))
    T, S, d, dv = (draw(st.integers(1, n)) for n in (40, 40, 9, 9))
    seed = draw(st.integers(0, 2 ** 31))
    g = np.random.default_rng(seed)
    q, k, v = g.standard_normal(batch + (T, d)), g.standard_normal(batch + (S, d)), g.standard_normal(batch + (S, dv))
    kw = {}
    kind = draw(st.sampled_from(["none", "mask", "causal", "bottom_right", "lengths", "bias", "all", "big",
                                 "big_all"]))
    if kind in ("mask", "all", "big_all"):
        kw["mask"] = g.random(batch[:1] + (1,) * (nb - 1 if nb else 0) + (T, S)) < 0.7 if nb else g.random((T, S)) < 0.7
    if kind in ("causal", "all", "big_all"):
        kw["causal"] = True
    if kind == "bottom_right":
        kw["causal"] = "bottom_right"
    if kind in ("lengths", "all") and nb:
        kw["key_lengths"] = g.integers(0, S + 1, size=batch[:1])
    if kind in ("bias", "all", "big_all"):
        kw["bias"] = g.standard_normal((T, S)) * 3
        kw["bias"][g.random((T, S)) < 0.1] = -np.inf          # -inf in a bias masks, as False does
    if kind in ("big", "big_all"):  # scores too large for the no-shift shortcut: the online max is used
        q = q * 40
    bq = draw(st.integers(1, 17))
    bk = draw(st.integers(1, 17))
    return q, k, v, kw, (bq, bk)


@settings(max_examples=250, deadline=None)
@given(problems())
def test_float64_tiled_equals_reference(p):
    q, k, v, kw, blocks = p
    ref = mha.attention(q, k, v, impl="reference", **kw)
    out = mha.attention(q, k, v, impl="tiled", block_size=blocks, **kw)
    assert out.dtype == np.float64 and out.shape == ref.shape
    np.testing.assert_allclose(out, ref, rtol=0, atol=1e-12 * max(1.0, np.abs(ref).max()))


@settings(max_examples=400, deadline=None)
@given(problems())
def test_float32_tiled_against_float64_reference(p):
    """float32 tiled vs the float64 reference on the same (float32-representable) inputs: <= 2e-6 relative.

    "Relative" is to the scale of the values: every output is a convex combination of the rows of v, so
    rounding errors scale with max |v|, not with the output, which can be near 0 by cancellation.
    """
    q, k, v, kw, blocks = p
    q32, k32, v32 = (a.astype(np.float32) for a in (q, k, v))
    kw32 = {n: (a.astype(np.float32) if n == "bias" else a) for n, a in kw.items()}
    ref = mha.attention(*(a.astype(np.float64) for a in (q32, k32, v32)), impl="reference",
                        **{n: (a.astype(np.float64) if n == "bias" else a) for n, a in kw32.items()})
    out = mha.attention(q32, k32, v32, impl="tiled", block_size=blocks, **kw32)
    assert out.dtype == np.float32
    scores = np.abs(q).max() * np.abs(k).max() * q.shape[-1] ** 0.5 + (np.abs(kw["bias"][np.isfinite(kw["bias"])]).max(initial=0) if "bias" in kw else 0)
    # only the "big" case (logits in the hundreds, to force the running max) gets more room: each score's
    # own float32 rounding is then amplified by the exponential, e^(s(1 + eps)) = e^s e^(s eps)
    big = np.abs(q).max() > 20
    tol = 2e-6 * (scores / 8 if big else 1.0)
    assert np.abs(out - ref).max() <= tol * max(np.abs(v32).max(), 1e-30)


def test_fully_masked_rows_are_zero_in_both_paths():
    g = np.random.default_rng(1)
    q, k, v = (g.standard_normal((2, 5, 4)) for _ in range(3))
    mask = np.ones((2, 5, 5), bool)
    mask[1, 3] = False
    for impl in ("reference", "tiled"):
        out = mha.attention(q, k, v, mask=mask, key_lengths=np.array([0, 5]), impl=impl, block_size=2)
        np.testing.assert_array_equal(out[0], 0.0)          # length 0: every row of sequence 0
        np.testing.assert_array_equal(out[1, 3], 0.0)


def test_auto_picks_tiled_for_large_and_reference_for_small(monkeypatch):
    calls = []
    import mha.fast as fast
    real = fast.tiled_attention
    monkeypatch.setattr(fast, "tiled_attention", lambda *a, **k: calls.append(1) or real(*a, **k))
    small = np.ones((3, 2))
    mha.attention(small, small, small)
    assert calls == []
    big = np.random.default_rng(0).standard_normal((4, 1100, 8))
    mha.attention(big, big, big)
    assert calls == [1]


def test_tiled_memory_does_not_grow_with_T_times_S():
    import tracemalloc
    g = np.random.default_rng(0)
    q, k, v = (g.standard_normal((1, 2048, 16)).astype(np.float32) for _ in range(3))
    tracemalloc.start()
    tiled_attention(q, k, v, scale=0.25, workers=1)
    _, peak = tracemalloc.get_traced_memory()
    tracemalloc.stop()
    t_by_s = 2048 * 2048 * 4
    assert peak < t_by_s / 4, (peak, t_by_s)       # a T x S score matrix would be 16 MiB


def test_full_layer_fast_path_equals_the_trace():
    data = dict(mha.random_example(T=30, d_model=12, n_heads=3, B=2, seed=2), causal=True, key_lengths=[20, 30],
                b_O=np.arange(12.0) / 10)
    Y = forward(data, impl="tiled", block_size=7)
    np.testing.assert_allclose(Y, mha.trace(data).Y, rtol=0, atol=1e-12)
    Y32 = forward(data, impl="tiled", dtype=np.float32)
    assert Y32.dtype == np.float32
    np.testing.assert_allclose(Y32, mha.trace(data).Y, rtol=1e-5, atol=1e-5)
    assert forward(mha.DOCUMENT_EXAMPLE).shape == (3, 4)


@pytest.mark.parametrize("workers", [1, 2, 3])
def test_full_layer_fast_path_with_mask_bias_and_cross_attention(workers):
    """The layer's tiled path hands the validated mask and bias straight to the tiles, and writes each head
    into its columns of the concat; every worker count gives the trace's Y."""
    g = np.random.default_rng(5)
    B, T, S, d_model = 2, 23, 17, 12
    data = dict(mha.random_example(T=T, d_model=d_model, n_heads=4, B=B, seed=3),
                key=g.standard_normal((B, S, d_model)), value=g.standard_normal((B, S, d_model)),
                mask=(g.random((B, T, S)) < 0.8).tolist(), bias=(g.standard_normal((T, S)) * 2).tolist(),
                b_Q=g.standard_normal(d_model), b_V=g.standard_normal(d_model))
    data["mask"][1][4] = [False] * S                                    # one row sees no key: its O is 0
    want = mha.trace(data).Y
    for bq, bk in ((5, 3), (1024, 256)):
        got = forward(data, impl="tiled", block_size=(bq, bk), workers=workers)
        np.testing.assert_allclose(got, want, rtol=0, atol=1e-12)


def test_online_softmax_reproduces_the_document_heads_exactly():
    t = mha.trace(mha.DOCUMENT_EXAMPLE)
    for h in range(2):
        for block in (1, 2, 3):
            steps = online_softmax_steps(t.S[0, h], t.Vh[0, h], block)
            np.testing.assert_allclose(steps[-1]["out"], t.O[0, h], rtol=0, atol=1e-15)
            np.testing.assert_allclose(steps[-1]["l"] * np.exp(steps[-1]["m"] - t.row_max[0, h]), t.row_sum[0, h],
                                       rtol=1e-15)
    assert np.round(online_softmax_steps(t.S[0, 0], t.Vh[0, 0], 2)[-1]["out"][2], 4).tolist() == [0.7517, 0.7517]


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


def test_bench_quick_runs_and_reports_every_column(tmp_path, run_cli):
    """The benchmark's plumbing only; its numbers are reported, never asserted."""
    from mha import bench
    result = bench.run(quick=True, progress=lambda s: None)
    text = bench.table(result)
    for col in ("GFLOP/s", "vs torch", "%SGEMM", "peak MiB", "SGEMM measured in this run", "BLAS"):
        assert col in text
    impls = {r["impl"] for r in result["rows"]}
    assert {"mha tiled", "torch sdpa", "mha forward", "torch nn.MultiheadAttention"} <= impls
    json.dumps(result)


def test_bench_runs_without_torch(monkeypatch):
    """torch is optional: the ratio column says so, the torch rows are gone, everything else is measured."""
    from mha import bench
    monkeypatch.setattr(bench, "_torch", lambda: None)
    result = bench.run(quick=True, progress=lambda s: None)
    assert result["machine"]["torch"] is None
    assert {r["impl"] for r in result["rows"]} == {"mha tiled", "mha forward"}
    assert all(r["vs_torch"] is None and r["gflops"] > 0 and r["peak_mib"] is not None for r in result["rows"])
    text = bench.table(result)
    assert text.count("no torch") == len(result["rows"]) and "ceiling" in text and "at best" not in text

