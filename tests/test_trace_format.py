"""The trace's JSON and .npz formats (a public interface, documented in the README)."""

import json

import numpy as np
import pytest

import mha


def test_cli_json_default_example(run_cli):
    code, out, err = run_cli("explain", "--format", "json")
    assert code == 0 and err == ""
    d = json.loads(out)
    assert d["config"] == {"B": 1, "T": 3, "S": 3, "d_model": 4, "n_heads": 2, "d_head": 2,
                           "scale": pytest.approx(2 ** -0.5, rel=1e-15), "causal": "none", "self_attention": True,
                           "batched": False, "dtype": "float64",
                           "identity_weights": ["W_Q", "W_K", "W_V", "W_O"], "n_kv_heads": 2, "d_k": 2, "d_v": 2,
                           "d_out": 4, "S_past": 0, "scale_rule": "1/sqrt(d_k)", "given_qkv": False,
                           "per_head_weights": [], "output_projection": True}
    t = mha.trace(mha.DOCUMENT_EXAMPLE)
    for key in ("X", "Q", "K", "V", "O_concat", "Y"):
        np.testing.assert_array_equal(np.array(d[key]), getattr(t, key)[0])
        assert list(np.array(d[key]).shape) == t.shape_of(key)
    assert [h["h"] for h in d["heads"]] == [1, 2]
    for h, head in enumerate(d["heads"]):
        assert set(head) >= {"Q", "K", "V", "QKt", "S", "A", "O"}
        np.testing.assert_array_equal(np.array(head["A"]), t.A[0, h])
        np.testing.assert_array_equal(np.array(head["O"]), t.O[0, h])
    assert {"step": "output", "symbol": "Y", "shape": [3, 4]} in d["shapes"]


def test_batch_axis_kept_exactly_when_input_had_one():
    X = np.arange(24.0).reshape(2, 3, 4) / 10
    d = mha.trace(X, n_heads=2).to_dict()
    assert np.array(d["Y"]).shape == (2, 3, 4)
    assert np.array(d["heads"][0]["A"]).shape == (2, 3, 3)
    assert d["shapes"][0]["shape"] == [2, 3, 4]
    d1 = mha.trace(X[0], n_heads=2).to_dict()
    assert np.array(d1["Y"]).shape == (3, 4) and np.array(d1["heads"][1]["A"]).shape == (3, 3)


def test_masked_scores_are_null_and_weights_zero():
    t = mha.trace(mha.DOCUMENT_EXAMPLE, causal=True)
    d = json.loads(t.to_json())
    S, A = d["heads"][0]["S"], d["heads"][0]["A"]
    assert S[0][1] is None and S[0][2] is None and S[1][2] is None
    assert A[0] == [1.0, 0.0, 0.0] and A[1][2] == 0.0
    assert S[2][0] == pytest.approx(1 / 2 ** 0.5)


def test_fully_masked_rows_are_marked():
    t = mha.trace(mha.DOCUMENT_EXAMPLE, mask=[[True, True, True], [False, False, False], [True, False, True]])
    assert t.fully_masked[0, :, 1].all() and not t.fully_masked[0, :, 0].any()
    np.testing.assert_array_equal(t.A[0, :, 1], 0.0)
    np.testing.assert_array_equal(t.Y[0, 1], 0.0)
    assert mha.trace(mha.DOCUMENT_EXAMPLE).to_dict()["heads"][0]["fully_masked"] == [False] * 3


def test_npz_round_trip(tmp_path):
    data = mha.random_example(T=4, d_model=6, n_heads=3, B=2, seed=3)
    t = mha.trace(data, key_lengths=[2, 4], causal="bottom_right", b_O=np.ones(6))
    t.save_npz(tmp_path / "t.npz")
    u = mha.Trace.load_npz(tmp_path / "t.npz")
    for name in ("Q", "K", "V", "Qh", "S", "A", "O", "O_concat", "Y", "fully_masked"):
        np.testing.assert_array_equal(getattr(u, name), getattr(t, name))
    assert u.config.causal == "bottom_right" and u.config.batched
    np.testing.assert_array_equal(u.config.key_lengths, [2, 4])
    assert u.to_json() == t.to_json()


def test_cross_attention_shapes_and_float32():
    t = mha.trace(np.ones((2, 4)), n_heads=2, key=np.ones((5, 3)), value=np.ones((5, 6)),
                  W_K=np.ones((3, 4)), W_V=np.ones((6, 4)), dtype="float32")
    assert t.A.shape == (1, 2, 2, 5) and t.Y.dtype == np.float32
    d = t.to_dict()
    assert d["config"]["S"] == 5 and not d["config"]["self_attention"]
    assert np.array(d["key"]).shape == (5, 3)


def test_python_m_mha_runs():
    from conftest import run_subprocess
    p = run_subprocess("explain", "--format", "json")
    assert p.returncode == 0 and json.loads(p.stdout)["config"]["n_heads"] == 2


@pytest.mark.parametrize("dtype", ["float64", "float32"])
def test_json_round_trip_is_exact(dtype):
    cases = [
        mha.DOCUMENT_EXAMPLE,
        dict(mha.random_example(T=4, d_model=6, n_heads=3, B=2, seed=3), key_lengths=[2, 4], causal="bottom_right",
             b_O=np.ones(6), scale=0.3),
        dict(mha.DOCUMENT_EXAMPLE, mask=[[True, False, True], [False, False, False], [True, True, True]],
             bias=[[0, None, 1], [0, 0, 0], [2, 0, -1]]),
        dict(mha.random_example(T=2, d_model=4, n_heads=2, seed=1), key=np.ones((3, 5)), W_K=np.ones((5, 4)),
             W_V=np.eye(5, 4)),
    ]
    for data in cases:
        t = mha.trace(data, dtype=dtype)
        u = mha.Trace.from_json(t.to_json())
        for f in ("Q", "K", "V", "Qh", "Kh", "Vh", "QKt", "S", "row_max", "E", "row_sum", "A", "O", "fully_masked",
                  "O_concat", "Y"):
            np.testing.assert_array_equal(getattr(u, f), getattr(t, f), err_msg=f)
            assert getattr(u, f).dtype == getattr(t, f).dtype, f
        assert u.config.weights_identity == t.config.weights_identity and u.config.scale == t.config.scale
        assert u.to_json() == t.to_json()


def test_token_labels_travel_with_the_trace(tmp_path):
    t = mha.trace(dict(mha.DOCUMENT_EXAMPLE, tokens=["the", "cat", "sat"]))
    assert t.config.tokens == (("the", "cat", "sat"),) and t.config.key_tokens == t.config.tokens
    assert json.loads(t.to_json())["tokens"] == ["the", "cat", "sat"]
    assert mha.Trace.from_json(t.to_json()).config.tokens == t.config.tokens
    t.save_npz(tmp_path / "t.npz")
    assert mha.Trace.load_npz(tmp_path / "t.npz").config.key_tokens == t.config.key_tokens
    step = mha.trace(mha.EXAMPLES["kv-cache"].data, tokens=["dog"], key_tokens=["the", "cat", "sat", "dog"])
    assert step.config.key_tokens[0][-1] == "dog"
    with pytest.raises(mha.MHAInputError, match="tokens: expected 3 strings"):
        mha.trace(dict(mha.DOCUMENT_EXAMPLE, tokens=["a", "b"]))
    with pytest.raises(mha.MHAInputError, match="key_tokens: expected 4 strings"):
        mha.trace(mha.EXAMPLES["kv-cache"].data, key_tokens=["a"])
