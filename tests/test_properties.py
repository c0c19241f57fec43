"""Properties of the core that hold for every configuration (hypothesis)."""

import numpy as np
import pytest
from hypothesis import given, settings, strategies as st
from hypothesis.extra.numpy import arrays

import mha

finite = st.floats(-5, 5, allow_nan=False, allow_infinity=False)


@st.composite
def configs(draw, mask=True):
    B, T, H, d_head = (draw(st.integers(1, n)) for n in (3, 7, 4, 4))
    d = H * d_head
    X = draw(arrays(np.float64, (B, T, d), elements=finite))
    data = {"X": X, "n_heads": H}
    if draw(st.booleans()):
        data.update(mha.inputs.random_weights(d, seed=draw(st.integers(0, 100))))
    if mask and draw(st.booleans()):
        data["mask"] = draw(arrays(np.bool_, (B, 1, T, T)))
    if mask and draw(st.booleans()):
        data["causal"] = draw(st.sampled_from(["top_left", "bottom_right"]))
    return data


@settings(max_examples=150, deadline=None)
@given(configs())
def test_unmasked_rows_of_A_sum_to_one_and_masked_rows_are_zero(data):
    t = mha.trace(data)
    sums = t.A.sum(axis=-1)
    np.testing.assert_allclose(sums[~t.fully_masked], 1.0, rtol=0, atol=1e-12)
    assert (sums[t.fully_masked] == 0).all() and (t.O[t.fully_masked] == 0).all()
    assert np.isfinite(t.Y).all()
    assert (t.A >= 0).all()


@settings(max_examples=100, deadline=None)
@given(st.integers(1, 3), st.integers(1, 6), st.integers(1, 5), st.integers(1, 5), st.data())
def test_split_and_merge_heads_are_inverses(B, T, H, d_head, data):
    M = data.draw(arrays(np.float64, (B, T, H * d_head), elements=finite))
    Mh = mha.split_heads(M, H)
    assert Mh.shape == (B, H, T, d_head)
    np.testing.assert_array_equal(mha.merge_heads(Mh), M)
    np.testing.assert_array_equal(Mh[:, 1 % H], M[:, :, (1 % H) * d_head:(1 % H + 1) * d_head])


@settings(max_examples=100, deadline=None)
@given(configs(mask=False))
def test_one_head_equals_single_head_attention(data):
    data = dict(data, n_heads=1)
    t = mha.trace(data)
    X = np.asarray(data["X"])
    W = {k: np.asarray(data.get(k, np.eye(X.shape[-1]))) for k in ("W_Q", "W_K", "W_V", "W_O")}
    Q, K, V = X @ W["W_Q"], X @ W["W_K"], X @ W["W_V"]
    S = Q @ K.transpose(0, 2, 1) / np.sqrt(X.shape[-1])
    A = np.exp(S - S.max(-1, keepdims=True))
    A /= A.sum(-1, keepdims=True)
    np.testing.assert_allclose(t.Y, A @ V @ W["W_O"], rtol=1e-12, atol=1e-12)


@settings(max_examples=100, deadline=None)
@given(configs(mask=False), st.randoms(use_true_random=False))
def test_permuting_tokens_permutes_the_output(data, rnd):
    X = np.asarray(data["X"])
    perm = list(range(X.shape[1]))
    rnd.shuffle(perm)
    t = mha.trace(data)
    tp = mha.trace(dict(data, X=X[:, perm]))
    np.testing.assert_allclose(tp.Y, t.Y[:, perm], rtol=1e-12, atol=1e-12)
    np.testing.assert_allclose(tp.A, t.A[:, :, perm][:, :, :, perm], rtol=1e-12, atol=1e-12)


@settings(max_examples=100, deadline=None)
@given(arrays(np.float64, (2, 3, 5), elements=st.sampled_from([-1e4, -1.0, 0.0, 1.0, 1e4])),
       st.sampled_from([np.float64, np.float32]), st.sampled_from(["reference", "tiled"]))
def test_extreme_logits_stay_finite(logits, dtype, impl):
    # Feed logits directly: q = logits, k = identity columns, scale 1 -> S == logits.
    q = logits.astype(dtype)
    k = np.eye(5, dtype=dtype)[None].repeat(2, 0)
    v = np.arange(10, dtype=dtype).reshape(1, 5, 2).repeat(2, 0)
    out = mha.attention(q, k, v, scale=1.0, impl=impl)
    assert np.isfinite(out).all()
    # Exact answer: softmax of each row, computed in float64 the long way.
    row = logits - logits.max(-1, keepdims=True)
    A = np.exp(row) / np.exp(row).sum(-1, keepdims=True)
    np.testing.assert_allclose(out, A @ v.astype(np.float64), rtol=1e-5 if dtype == np.float32 else 1e-12,
                               atol=1e-4 if dtype == np.float32 else 1e-9)


@pytest.mark.parametrize("impl", ["reference", "tiled"])
def test_bias_with_large_negative_values_and_minus_inf(impl):
    q = np.zeros((1, 2, 2))
    bias = np.array([[0.0, -1e4], [-np.inf, -np.inf]])
    out = mha.attention(q, q, np.array([[[1.0, 2.0], [3.0, 4.0]]]), bias=bias, impl=impl)
    np.testing.assert_array_equal(out[0], [[1.0, 2.0], [0.0, 0.0]])
