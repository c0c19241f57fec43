"""The command line sets every key of issue 10/12's layers: matrices, widths, scale, Q/K/V, GQA, RoPE, ALiBi, window."""

import json

import numpy as np
import pytest

import mha

SEED_X = "[[1,0,1,0],[0,1,0,1],[1,1,0,0]]"


def trace_of(run_cli, *argv):
    code, out, err = run_cli("explain", *argv, "--format", "json")
    assert code == 0, err
    return mha.Trace.from_json(out)


def test_inline_matrices_give_the_named_example(run_cli):
    e = mha.EXAMPLES["single-head"].data
    t = trace_of(run_cli, "--x", SEED_X, "--n-heads", "1", "--wq", json.dumps(e["W_Q"]), "--wk", json.dumps(e["W_K"]),
                 "--wv", json.dumps(e["W_V"]), "--wo", "none", "--scale", "none")
    np.testing.assert_array_equal(t.Y, mha.trace(e).Y)
    assert t.config.W_O is None and t.config.scale_rule == "none"


def test_q_k_v_given_on_the_command_line(run_cli):
    e = mha.EXAMPLES["qkv"].data
    t = trace_of(run_cli, "--q", json.dumps(e["Q"]), "--k", json.dumps(e["K"]), "--v", json.dumps(e["V"]),
                 "--n-heads", "1")
    assert t.config.given_qkv and t.config.X is None
    np.testing.assert_array_equal(t.Y, mha.trace(e).Y)
    t = trace_of(run_cli, "--q", json.dumps(e["Q"]), "--k", json.dumps(e["K"]), "--v", json.dumps(e["V"]),
                 "--n-heads", "1", "--scale", "1/d_k")
    assert t.config.effective_scale == pytest.approx(1 / 3)


def test_random_weights_take_the_widths(run_cli):
    t = trace_of(run_cli, "--x", SEED_X, "--n-heads", "2", "--weights", "random", "--seed", "4", "--d-k", "3",
                 "--d-v", "1", "--d-out", "5")
    c = t.config
    assert (c.W_Q.shape, c.W_K.shape, c.W_V.shape, c.W_O.shape) == ((4, 6), (4, 6), (4, 2), (2, 5))
    assert t.Y.shape == (1, 3, 5)
    t = trace_of(run_cli, "--x", SEED_X, "--n-heads", "2", "--weights", "random", "--wo", "none")
    assert t.config.W_O is None


def test_modern_variants_from_flags(run_cli):
    t = trace_of(run_cli, "--n-kv-heads", "1", "--weights", "random", "--rope", "interleaved", "--alibi",
                 "--window", "2", "--causal")
    c = t.config
    assert (c.G, c.rope.style, c.alibi_rule, c.window, c.causal) == (1, "interleaved", "press", 2, "top_left")
    ref = mha.trace(dict(mha.DOCUMENT_EXAMPLE, n_kv_heads=1, rope={"style": "interleaved"}, alibi=True, window=2,
                         causal=True, **mha.inputs.random_weights(4, n_heads=2, n_kv_heads=1)))
    np.testing.assert_array_equal(t.Y, ref.Y)


@pytest.mark.parametrize("argv,needle", [
    (["--d-k", "3"], "--d-k: only used with --weights random"),
    (["--weights", "random", "--wq", "[[1]]"], "--wq: give the matrix or --weights random"),
    (["--scale", "big"], "--scale: expected none, 1/d_k"),
    (["--q", "[[1]]", "--k", "[[1]]", "--v", "[[1]]"], "--n-heads: needed with --q"),
    (["--wo", "[[1, 2]"], "--wo: not valid JSON"),
    (["--weights", "random", "--d-k", "0"], "d_k: expected"),
    (["--n-kv-heads", "3"], "n_kv_heads: 3 key/value heads do not divide n_heads = 2"),
    (["--window", "0"], "window: expected a positive integer"),
    (["--x", SEED_X, "--q", "[[1, 0]]", "--k", "[[1, 0]]", "--v", "[[1]]", "--n-heads", "1"], "X and Q"),
])
def test_bad_flags_are_one_line(run_cli, argv, needle):
    code, out, err = run_cli("explain", *argv)
    assert code == 2 and out == "" and err.count("\n") == 1 and needle in err, err
