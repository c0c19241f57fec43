"""The short-T fast path's cheaper checks (issue 19): the same errors and the same numbers as the full ones."""

import numpy as np
import pytest

import mha
from mha import fast
from mha.attend import attention


@pytest.mark.parametrize("dtype", [np.float32, np.float64])
@pytest.mark.parametrize("layout", ["C", "F", "strided"])
@pytest.mark.parametrize("bad", [np.nan, np.inf, -np.inf])
def test_a_non_finite_input_is_named_by_index_in_every_layout(dtype, layout, bad):
    g = np.random.default_rng(1)
    for name in ("q", "k", "v"):
        arrs = {n: g.standard_normal((2, 3, 5, 4)).astype(dtype) for n in ("q", "k", "v")}
        if layout == "F":
            arrs = {n: np.asfortranarray(a) for n, a in arrs.items()}
        elif layout == "strided":
            arrs = {n: np.repeat(a, 2, axis=-1)[..., ::2] for n, a in arrs.items()}
        arrs[name][1, 2, 3, 0] = bad
        with pytest.raises(mha.MHAInputError, match=rf"^{name}: non-finite value {bad} at index \[1, 2, 3, 0\]$"):
            attention(arrs["q"], arrs["k"], arrs["v"])


@pytest.mark.parametrize("dtype, big", [(np.float32, 1e25), (np.float64, 1e200)])
def test_large_finite_inputs_whose_sum_of_squares_overflows_are_accepted(dtype, big):
    # the one-pass finiteness check (a sum of squares) overflows here; the value-by-value check then passes
    g = np.random.default_rng(2)
    q, k = (g.standard_normal((1, 2, 6, 4)).astype(dtype) for _ in range(2))
    v = (g.standard_normal((1, 2, 6, 4)) * big).astype(dtype)
    with np.errstate(over="ignore"):
        assert not np.isfinite(np.dot(v.ravel(), v.ravel()))
    want = attention(q.astype(np.float64), k.astype(np.float64), v.astype(np.float64), impl="reference")
    got = attention(q, k, v)
    # errors relative to the values' size (outputs are weighted means of values of both signs)
    np.testing.assert_allclose(got / big, want / big, rtol=0, atol=1e-5 if dtype == np.float32 else 1e-13)


@pytest.mark.parametrize("compiled", [False, True])
def test_a_scanned_call_whose_scores_overflow_raises_rather_than_returning_nan(monkeypatch, compiled):
    # |q|^2 and |k|^2 fit float32 (the scan passes), but q.k * 2 does not: the scan cannot prove the output
    # finite, so the kernel checks it and raises NonFinite (it used to return NaN and leave the check to
    # mha.attention); mha.attention names the overflow either way
    if compiled and fast.compiled() is None:
        pytest.skip(f"the compiled pass is not available: {fast.compiled_missing()}")
    monkeypatch.setattr(fast, "COMPILED_WORK", 0 if compiled else 1 << 62)
    x = np.full((1, 1, 128, 64), 2.2e18, np.float32)
    assert np.isfinite(np.einsum("d,d->", x[0, 0, 0], x[0, 0, 0]))
    with pytest.raises(fast.NonFinite):
        fast.attention_heads(x, x, x * 0 + 1, scale=2.0, block=64)
    with pytest.raises(mha.MHAInputError, match="overflow float32"):
        attention(x, x, x * 0 + 1, scale=2.0, block_size=64)


@pytest.mark.parametrize("compiled", [False, True])
@pytest.mark.parametrize("workers", [1, 2])
def test_one_items_overflow_among_many_is_caught_by_its_worker(monkeypatch, compiled, workers):
    # each worker checks the outputs of its own items: one head of four overflowing (its scores are inf) makes
    # the call raise NonFinite whichever thread computed it, and mha.attention then names the overflow
    if compiled and fast.compiled() is None:
        pytest.skip(f"the compiled pass is not available: {fast.compiled_missing()}")
    monkeypatch.setattr(fast, "COMPILED_WORK", 0 if compiled else 1 << 62)
    monkeypatch.setattr(fast, "ONE_THREAD_WORK", 0)
    g = np.random.default_rng(4)
    q, k, v = (g.standard_normal((1, 4, 128, 64)).astype(np.float32) for _ in range(3))
    for h in range(4):
        qq, kk = q.copy(), k.copy()
        qq[0, h], kk[0, h] = 2.2e18, 2.2e18
        assert fast.plan(1, 4, 4, 128, 128, 64, 64, causal=False, workers=workers, compiled=compiled).scan is False
        with pytest.raises(fast.NonFinite):
            fast.attention_heads(qq, kk, v, scale=2.0, workers=workers)
        with pytest.raises(mha.MHAInputError, match="overflow float32"):
            attention(qq, kk, v, scale=2.0, workers=workers)
    # and the same call on ordinary inputs returns the reference's numbers
    want = attention(q.astype(np.float64), k.astype(np.float64), v.astype(np.float64), impl="reference")
    np.testing.assert_allclose(fast.attention_heads(q, k, v, scale=0.125, workers=workers), want, atol=2e-6)


@pytest.mark.parametrize("block", [None, 64])
def test_scores_whose_base_two_multiple_overflows_are_an_error_not_a_silent_zero(monkeypatch, block):
    # q.k = 3.1e38 fits float32, but the compiled pass works in base 2 (x log2 e = 4.5e38 does not): its row
    # shift used to become inf and every row 0, a finite, wrong output; now the row is NaN and the call an error
    if fast.compiled() is None:
        pytest.skip(f"the compiled pass is not available: {fast.compiled_missing()}")
    monkeypatch.setattr(fast, "COMPILED_WORK", 0)
    x = np.full((1, 1, 128, 64), 2.2e18, np.float32)
    v = np.ones_like(x)
    with pytest.raises(fast.NonFinite):
        fast.attention_heads(x, x, v, scale=1.0, block=block)
    with pytest.raises(mha.MHAInputError, match="overflow float32"):
        attention(x, x, v, scale="none", block_size=block)


@pytest.mark.parametrize("compiled", [False, True])
@pytest.mark.parametrize("workers", [1, 2])
@pytest.mark.parametrize("where", ["padded key", "masked value", "query row", "gqa value", "causal block"])
def test_inputs_left_unread_by_parsing_are_checked_by_the_kernel_every_one(monkeypatch, compiled, workers, where):
    # mha.attention leaves the NaN/inf check of float arrays q, k, v to the kernel's items (no pass over the
    # inputs before the work): a bad value is still named, even where no output depends on it (a key past
    # its sequence's length, a value at a masked key), and a clean call reads no input twice for it
    if compiled and fast.compiled() is None:
        pytest.skip(f"the compiled pass is not available: {fast.compiled_missing()}")
    monkeypatch.setattr(fast, "COMPILED_WORK", 0 if compiled else 1 << 62)
    monkeypatch.setattr(fast, "ONE_THREAD_WORK", 0)
    g = np.random.default_rng(6)
    G = 2 if where == "gqa value" else 4
    q = g.standard_normal((2, 4, 96, 16)).astype(np.float32)
    k, v = (g.standard_normal((2, G, 96, 16)).astype(np.float32) for _ in range(2))
    kw = {"padded key": {"key_lengths": np.array([96, 40])},
          "masked value": {"mask": np.broadcast_to(np.arange(96) != 7, (96, 96))},
          "query row": {}, "gqa value": {"enable_gqa": True}, "causal block": {"causal": True}}[where]
    from mha import attention_args
    reads = []
    monkeypatch.setattr(attention_args, "surely_finite", lambda a: reads.append(a.shape) or True)
    attention(q, k, v, workers=workers, **kw)
    assert reads == []                                   # parsing no longer reads q, k, v for NaN
    monkeypatch.undo()
    monkeypatch.setattr(fast, "COMPILED_WORK", 0 if compiled else 1 << 62)
    name, arr, index = {"padded key": ("k", k, (1, 2, 77, 3)), "masked value": ("v", v, (0, 1, 7, 0)),
                        "query row": ("q", q, (1, 3, 95, 15)), "gqa value": ("v", v, (1, 1, 50, 2)),
                        "causal block": ("k", k, (0, 3, 90, 1))}[where]
    arr[index] = np.nan
    at = ", ".join(map(str, index))
    with pytest.raises(mha.MHAInputError, match=rf"^{name}: non-finite value nan at index \[{at}\]$"):
        attention(q, k, v, workers=workers, **kw)
