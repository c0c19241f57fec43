"""The compiled pass (mha.kernel): its exponential's error over the whole range, its tile softmax against
NumPy, the vector code LLVM made of it, where its cache lives, and the NumPy path where numba is missing."""

import os
import platform
import re
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

from mha import fast

numba = pytest.importorskip("numba", reason="the compiled pass needs numba")
from mha import kernel  # noqa: E402

SRC = str(Path(__file__).resolve().parents[1] / "src")


def ulps(got: np.ndarray, want: np.ndarray, dtype) -> np.ndarray:
    """|got - want| in units of the last place of want rounded to dtype (denormal spacing below normal)."""
    with np.errstate(over="ignore"):
        spacing = np.spacing(np.abs(want.astype(dtype))).astype(np.float64)
    return np.abs(got.astype(np.float64) - want.astype(np.float64)) / spacing


def exp2_of(x: np.ndarray) -> np.ndarray:
    out = np.empty_like(x)
    kernel.exp2_array(x, out)
    return out


def test_float32_exp2_is_within_one_ulp_over_the_whole_range():
    """Every finite result, normal and denormal: 4 million random points of [-151, 128), every float32 in
    [-2^-10, 2^-10] and around the edges (denormals, the smallest normal, overflow), against float64's
    exp2 (its own error, 2^-53, is 2^-29 of a float32 ulp)."""
    g = np.random.default_rng(0)
    edges = [np.arange(a, b, step) for a, b, step in ((-151, -148, 1 / 64), (-127, -125, 1 / 256), (127, 128, 1 / 1024),
                                                      (-1, 1, 1 / 4096))]
    tiny = np.arange(-(1 << 16), 1 << 16, dtype=np.int64)
    x = np.concatenate([g.uniform(-151, 128, 1 << 22), *edges]).astype(np.float32)
    x = np.concatenate([x, tiny.astype(np.float32) * np.float32(2 ** -26)])
    want = np.exp2(x.astype(np.float64))
    finite = want < float(np.finfo(np.float32).max)
    assert ulps(exp2_of(x)[finite], want[finite], np.float32).max() <= 1.0
    assert np.isinf(exp2_of(x[~finite])).all()


def test_float64_exp2_is_within_one_ulp_over_the_whole_range():
    """One million points of [-1076, 1024) against long double (64-bit mantissa), and 3000 against mpmath
    at 40 digits (which also checks the long double reference)."""
    mpmath = pytest.importorskip("mpmath")
    g = np.random.default_rng(1)
    x = np.concatenate([g.uniform(-1076, 1024, 1 << 20), np.arange(-1076, -1020, 1 / 16), np.arange(1023, 1024, 1 / 64),
                        g.uniform(-1, 1, 1 << 16)])
    got = exp2_of(x)
    want = np.exp2(x.astype(np.longdouble))
    finite = want < np.longdouble(np.finfo(np.float64).max)
    assert ulps(got[finite], want[finite], np.float64).max() <= 1.0
    assert np.isinf(got[~finite]).all()
    mpmath.mp.dps = 40
    pick = g.choice(np.flatnonzero(finite), 3000, replace=False)
    exact = np.array([float(mpmath.power(2, mpmath.mpf(float(v)))) for v in x[pick]])   # rounded once
    assert ulps(got[pick], exact, np.float64).max() <= 1.0


@pytest.mark.parametrize("dtype", [np.float32, np.float64])
def test_exp2_edges_nan_and_infinities(dtype):
    x = np.array([np.nan, -np.inf, np.inf, 0.0, -1.0, 1.0, 10.0, -2000.0, 2000.0], dtype=dtype)
    got = exp2_of(x)
    assert np.isinf(got[0])                 # a NaN score becomes inf, which reaches the output, where it is caught
    np.testing.assert_array_equal(got[1:], [0.0, np.inf, 1.0, 0.5, 2.0, 1024.0, 0.0, np.inf])


def test_the_polynomials_are_the_chebyshev_interpolants_of_2_to_the_f():
    """Recompute the coefficients: the interpolant of 2^f at the Chebyshev nodes of [-1/2, 1/2]."""
    mpmath = pytest.importorskip("mpmath")
    mpmath.mp.dps = 50
    for coefficients, dtype in ((kernel.EXP2_F32, np.float32), (kernel.EXP2_F64, np.float64)):
        N = len(coefficients) - 1
        nodes = [mpmath.cos(mpmath.pi * (2 * k + 1) / (2 * (N + 1))) / 2 for k in range(N + 1)]
        A = mpmath.matrix([[x ** j for j in range(N + 1)] for x in nodes])
        c = mpmath.lu_solve(A, mpmath.matrix([mpmath.power(2, x) for x in nodes]))
        assert [dtype(float(c[j])) for j in range(N + 1)] == [dtype(v) for v in coefficients]


def _numpy_tile(s, mask, bias, slopes, delta, causal, window, stop):
    """The same tile's softmax step by step in float64 NumPy: masked scores out, row max, e^(s - m), sums."""
    hg, r, n = s.shape
    i, j = np.arange(r)[:, None], np.arange(n)[None, :]
    before = i - j - delta                                           # query position minus key position
    visible = np.ones((r, n), bool) & (j < stop)
    if causal:
        visible &= before >= 0
    if window:
        visible &= (before < window) if causal else (np.abs(before) < window)
    x = s.astype(np.float64)
    if bias is not None:
        x = x + bias
    if slopes is not None:
        x = x - slopes[:, None, None] * np.abs(before)
    vis = visible & (True if mask is None else mask)
    m = np.where(vis, x, -np.inf).max(axis=-1)
    m = np.where(m == -np.inf, 0, m)
    P = np.where(vis, np.exp(x - m[..., None]), 0.0)
    return P, m, P.sum(axis=-1)


@pytest.mark.parametrize("dtype", [np.float32, np.float64])
@pytest.mark.parametrize("kind", ["plain", "causal", "window", "mask", "bias+alibi", "padding"])
def test_softmax_tile_against_numpy(dtype, kind):
    g = np.random.default_rng(2)
    hg, r, n, d_v = 2, 13, 29, 5
    s = (g.standard_normal((hg, r, n)) * 4).astype(dtype)
    mask = (g.random((hg, r, n)) < 0.6) if kind == "mask" else None
    if mask is not None:
        mask[1, 3] = False                                          # a row that sees no key
    bias = (g.standard_normal((hg, r, n))).astype(dtype) if kind == "bias+alibi" else None
    slopes = np.array([0.5, 0.25], dtype) if kind == "bias+alibi" else None
    causal, window, delta = kind == "causal", 4 if kind == "window" else 0, -3 if kind == "causal" else 2
    stop = 11 if kind == "padding" else n
    m = np.full((hg, r), -np.inf, dtype)
    l, acc, pv = np.zeros((hg, r), dtype), np.zeros((hg, r, d_v), dtype), np.zeros((hg, r, d_v), dtype)
    P = s.copy()
    kernel.softmax_tile(P, m, l, acc, pv, False, 0, 0, delta, causal, window, np.full(hg, stop, np.int64), mask, bias,
                        slopes, True)
    want_P, want_m, want_l = _numpy_tile(s, mask, bias, slopes, delta, causal, window, stop)
    # float32: each sum or difference of scores rounds to 2^-24 |s| (|s| < 30 here), and e^x turns an error
    # of e in x into e relative: 30 * 6e-8 * 1.5 = 2.7e-6
    tol = 3e-6 if dtype == np.float32 else 1e-14
    np.testing.assert_allclose(P, want_P, rtol=tol, atol=0)
    np.testing.assert_allclose(l, want_l, rtol=tol, atol=0)
    seen = want_l > 0
    np.testing.assert_allclose(m[seen], want_m[seen], rtol=tol)
    if kind == "mask":
        assert l[1, 3] == 0 and m[1, 3] == -np.inf and not P[1, 3].any()


@pytest.mark.parametrize("dtype", [np.float32, np.float64])
@pytest.mark.parametrize("kind", ["plain", "causal", "window", "mask", "bias+alibi", "padding", "negative scale"])
def test_softmax_rows_against_numpy(dtype, kind):
    """The one-tile pass: P = e^(score - row max), 0 where hidden, each row's max and sum (all 0 and -inf
    for a row that sees no key), for raw products s that the pass scales itself; then `finish` on P V
    (`divide_rows`) gives the normalised output and each row's natural log-sum-exp, and says it is finite."""
    g = np.random.default_rng(3)
    hg, r, n = 2, 13, 29
    scale = -0.7 if kind == "negative scale" else 0.3
    s = (g.standard_normal((hg, r, n)) * 12).astype(dtype)
    mask = (g.random((hg, r, n)) < 0.6) if kind == "mask" else None
    if mask is not None:
        mask[1, 3] = False                                          # a row that sees no key
    bias = (g.standard_normal((hg, r, n))).astype(dtype) if kind == "bias+alibi" else None
    slopes = np.array([0.5, 0.25], dtype) if kind == "bias+alibi" else None
    causal, window, delta = kind == "causal", 4 if kind == "window" else 0, -3 if kind == "causal" else 2
    stop = 11 if kind == "padding" else n
    P, m, l = s.copy(), np.empty((hg, r), dtype), np.empty((hg, r), dtype)
    kernel.softmax_rows(P, scale, delta, causal, window, np.full(hg, stop, np.int64), mask, bias, slopes, m, l)
    scaled = s.astype(np.float64) * np.float64(dtype(scale))
    want_P, want_m, want_l = _numpy_tile(scaled, mask, None if bias is None else bias.astype(np.float64),
                                         None if slopes is None else slopes.astype(np.float64), delta, causal,
                                         window, stop)
    seen = want_l > 0
    tol = 3e-6 if dtype == np.float32 else 1e-14
    np.testing.assert_allclose(P, want_P, rtol=tol, atol=tol * 1e-3)
    np.testing.assert_allclose(l, want_l, rtol=tol)
    np.testing.assert_allclose(m[seen], want_m[seen], rtol=tol, atol=tol)
    np.testing.assert_array_equal(np.isneginf(m), ~seen)
    v = g.standard_normal((hg, n, 3)).astype(dtype)
    out, lse = P @ v, np.empty((hg, r), dtype)
    assert kernel.divide_rows(out, 0, 0, l, m, lse)                                # in place, finite
    want_out = (want_P / np.where(seen, want_l, 1)[..., None]) @ v.astype(np.float64)
    np.testing.assert_allclose(out, want_out, rtol=tol * 10, atol=tol * 10)
    with np.errstate(divide="ignore"):
        want_lse = np.where(seen, want_m + np.log(want_l), -np.inf)
    np.testing.assert_array_equal(np.isneginf(lse), ~seen)
    np.testing.assert_allclose(lse[seen], want_lse[seen], rtol=tol, atol=tol)
    if kind == "mask":
        assert not P[1, 3].any() and lse[1, 3] == -np.inf and not out[1, 3].any()


def test_softmax_rows_turns_a_nan_or_infinite_score_into_a_nan_row():
    """An input that overflowed must reach the output, where `divide_rows` reports it: its rows are NaN, the
    others untouched, and it returns False."""
    s = np.zeros((1, 3, 4), np.float32)
    s[0, 0, 1], s[0, 1, 2] = np.nan, np.inf
    m, l = np.empty((1, 3), np.float32), np.empty((1, 3), np.float32)
    kernel.softmax_rows(s, 0.5, 0, False, 0, np.full(1, 4, np.int64), None, None, None, m, l)
    assert np.allclose(s[0, 2], 1) and l[0, 2] == 4
    with np.errstate(invalid="ignore"):          # (the NaN rows are the point: no warning for them)
        out = s @ np.ones((1, 4, 2), np.float32)
    assert not kernel.divide_rows(out, 0, 0, l, m, None)
    assert np.isnan(out[0, 0]).all() and np.isnan(out[0, 1]).all() and np.allclose(out[0, 2], 1)


def test_finish_and_divide_rows_say_whether_their_output_is_finite():
    """NaN and inf in what finish writes are found (the check that spares the fast path a pass over its
    output); a sum of x - x, which the fast-math flags let LLVM cancel, missed them."""
    acc, l, m = np.ones((1, 2, 3)), np.array([[2.0, 0.0]]), np.zeros((1, 2))
    out = np.empty((1, 2, 3))
    assert kernel.finish(acc, acc, False, l, m, out, None) and (out[0, 0] == 0.5).all() and not out[0, 1].any()
    acc[0, 0, 1] = np.inf
    assert not kernel.finish(acc, acc, False, l, m, out, None)
    assert not kernel.finish(acc, np.zeros_like(acc), True, np.array([[np.nan, 1.0]]), m, out, None)
    for bad in (np.inf, np.nan):
        out = np.ones((2, 3, 64), np.float32)
        assert kernel.divide_rows(out, 0, 0, np.full((2, 3), 4, np.float32), m, None) and (out == 0.25).all()
        out[1, 2, 37] = bad
        assert not kernel.divide_rows(out, 0, 0, np.ones((2, 3), np.float32), m, None)
        assert kernel.divide_rows(out, 0, 1, np.ones((2, 1), np.float32), m, None)    # rows 1 of each head only
        assert not kernel.divide_rows(out, 1, 2, np.ones((1, 1), np.float32), m, None)


def test_softmax_tile_rescales_the_running_output_and_adds_the_pending_product():
    """Two key blocks of one row set in turn: the state after both equals one pass over all the keys."""
    g = np.random.default_rng(3)
    s, v = g.standard_normal((1, 4, 20)) * 3, g.standard_normal((20, 6))
    m, l = np.full((1, 4), -np.inf), np.zeros((1, 4))
    acc, pv = np.zeros((1, 4, 6)), np.zeros((1, 4, 6))
    stops = np.array([20])
    for k0, k1, pending in ((0, 8, False), (8, 20, True)):
        P = np.ascontiguousarray(s[..., k0:k1])
        kernel.softmax_tile(P, m, l, acc, pv, pending, 0, k0, 0, False, 0, stops, None, None, None, True)
        pv[0] = P[0] @ v[k0:k1]
    out, lse = np.empty((1, 4, 6)), np.empty((1, 4))
    kernel.finish(acc, pv, True, l, m, out, lse)
    want = np.exp(s - s.max(-1, keepdims=True))
    np.testing.assert_allclose(out[0], (want[0] / want[0].sum(-1, keepdims=True)) @ v, rtol=1e-13)
    np.testing.assert_allclose(lse[0], np.log(np.exp(s[0]).sum(-1)), rtol=1e-14)


@pytest.mark.parametrize("dtype", [np.float32, np.float64])
@pytest.mark.parametrize("kind", ["plain", "causal", "window", "mask", "bias+alibi", "padding"])
def test_backward_tile_against_numpy(dtype, kind):
    """P = e^(s - lse) and dS = P (dP - D) of one tile, against the same in float64 NumPy; lse from the
    forward's own rule (the tile's keys are all the row's keys), a row that sees no key gets P = dS = 0."""
    g = np.random.default_rng(5)
    r, n = 13, 29
    s = (g.standard_normal((1, r, n)) * 4).astype(dtype)
    dp = g.standard_normal((r, n)).astype(dtype)
    D = g.standard_normal(r).astype(dtype)
    mask = (g.random((1, r, n)) < 0.6) if kind == "mask" else None
    if mask is not None:
        mask[0, 3] = False                                          # a row that sees no key
    bias = g.standard_normal((1, r, n)).astype(dtype) if kind == "bias+alibi" else None
    slope = 0.5 if kind == "bias+alibi" else 0.0
    causal, window, delta = kind == "causal", 4 if kind == "window" else 0, -3 if kind == "causal" else 2
    stop = 11 if kind == "padding" else n
    want_P, m, l = _numpy_tile(s, mask, bias, None if not slope else np.array([slope]), delta, causal, window, stop)
    with np.errstate(divide="ignore"):
        lse = np.where(l > 0, m + np.log(np.where(l > 0, l, 1)), -np.inf)[0]       # [r]
    want_P = want_P[0] * np.where(l > 0, 1 / np.where(l > 0, l, 1), 0)[0][:, None]  # e^(x - lse)
    want_dS = want_P * (dp.astype(np.float64) - D.astype(np.float64)[:, None])
    P, dS = s[0].copy(), dp.copy()
    kernel.backward_tile(P, dS, lse.astype(dtype), D, delta, causal, window, stop,
                         None if mask is None else mask[0], None if bias is None else bias[0], slope)
    # float32: lse rounds to 2^-24 |lse| and the exponent to as much again (|x| < 30): 4e-6 relative
    tol = 4e-6 if dtype == np.float32 else 1e-13
    np.testing.assert_allclose(P, want_P, rtol=tol, atol=0)
    np.testing.assert_allclose(dS, want_dS, rtol=tol, atol=tol * float(np.abs(want_dS).max()))
    assert (P[want_P == 0] == 0).all() and (dS[want_P == 0] == 0).all()
    if kind == "mask":
        assert not P[3].any() and not dS[3].any()


def _x86_avx2() -> bool:
    if platform.machine().lower() not in ("x86_64", "amd64"):
        return False
    from llvmlite import binding
    return bool(binding.get_host_cpu_features().get("avx2"))


@pytest.mark.skipif(not _x86_avx2(), reason="looks for AVX2 code: needs an x86-64 CPU with AVX2")
def test_llvm_vectorises_the_exponential_and_the_row_max():
    """Compile the pass afresh (cached code cannot be inspected) and read its assembly: the exponential's
    polynomial as 8-wide FMAs on ymm registers, its rounding as vroundps, the row max as vmaxps."""
    fresh = numba.njit(nogil=True, fastmath=kernel._FASTMATH)(kernel.softmax_tile.py_func)
    s = np.zeros((1, 4, 64), np.float32)
    state = np.zeros((1, 4), np.float32)
    acc = np.zeros((1, 4, 8), np.float32)
    fresh(s, state, state.copy(), acc, acc.copy(), False, 0, 0, 0, False, 0, np.array([64]), None, None, None, True)
    asm = fresh.inspect_asm(fresh.signatures[0])
    # the degree-6 polynomial, 8 lanes at a time (16 on zmm where LLVM prefers 512-bit vectors, as on znver4)
    assert len(re.findall(r"vfmadd\d+ps\s+[^\n]*%[yz]mm", asm)) >= 6
    assert re.search(r"v(round|rndscale)ps\s+\$\d+, %[yz]mm", asm)   # vrndscaleps where LLVM may use AVX-512VL
    row_max = numba.njit(fastmath=kernel._FASTMATH)(kernel._row_max.py_func)
    row_max(s[0, 0], np.uint64(0), np.uint64(64))
    assert re.search(r"vmaxps\s+%[yz]mm", row_max.inspect_asm(row_max.signatures[0]))


@pytest.mark.skipif(not _x86_avx2(), reason="looks for AVX2 code: needs an x86-64 CPU with AVX2")
def test_llvm_vectorises_the_backward_tile():
    """The backward pass's step, compiled afresh: its exponential and P (dP - D) as 8-wide code on ymm registers, or
    16-wide on zmm where LLVM targets a CPU it prefers 512-bit vectors on (AMD Zen 4: znver4)."""
    fresh = numba.njit(nogil=True, fastmath=kernel._FASTMATH)(kernel.backward_tile.py_func)
    s, row = np.zeros((4, 64), np.float32), np.zeros(4, np.float32)
    fresh(s, s.copy(), row, row.copy(), 0, False, 0, 64, None, None, 0.0)
    asm = fresh.inspect_asm(fresh.signatures[0])
    assert len(re.findall(r"vfmadd\d+ps\s+[^\n]*%[yz]mm", asm)) >= 6
    assert re.search(r"v(round|rndscale)ps\s+\$\d+, %[yz]mm", asm) and re.search(r"vsubps\s+%[yz]mm", asm)


def test_cache_dir_follows_the_environment(monkeypatch):
    monkeypatch.setenv("NUMBA_CACHE_DIR", "/somewhere/else")
    assert fast.numba_cache_dir() == "/somewhere/else"
    monkeypatch.delenv("NUMBA_CACHE_DIR")
    monkeypatch.setattr(sys, "platform", "linux")
    monkeypatch.setenv("XDG_CACHE_HOME", "/xdg")
    assert fast.numba_cache_dir() == os.path.join("/xdg", "mha", "numba")
    monkeypatch.delenv("XDG_CACHE_HOME")
    assert fast.numba_cache_dir() == os.path.join(os.path.expanduser("~"), ".cache", "mha", "numba")


def _run(code: str, **env: str) -> str:
    full = dict(os.environ, PYTHONPATH=SRC + os.pathsep + os.environ.get("PYTHONPATH", ""), **env)
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=full, timeout=600)
    assert done.returncode == 0, done.stderr
    return done.stdout


def test_without_numba_the_numpy_path_runs_and_gives_the_same_numbers(tmp_path):
    """numba made unimportable: the compiled pass is None with its reason, a problem above the size that
    would use it runs on NumPy's tiles and matches the reference."""
    out = _run("import sys; sys.modules['numba'] = None\n"
               "import numpy as np, mha\n"
               "from mha import fast\n"
               "g = np.random.default_rng(0)\n"
               "q, k, v = (g.standard_normal((1, 12, 300, 64)).astype(np.float32) for _ in range(3))\n"
               "assert 12 * 300 * 300 * 128 >= fast.COMPILED_WORK\n"
               "ref = mha.attention(*(a.astype(np.float64) for a in (q, k, v)), causal=True, impl='reference')\n"
               "out = mha.attention(q, k, v, causal=True)\n"
               "print(fast.compiled() is None, float(np.abs(out - ref).max()), fast.compiled_missing(), sep='|')\n",
               NUMBA_CACHE_DIR=str(tmp_path))
    missing, err, why = out.strip().split("|")
    assert missing == "True" and "numba" in why and float(err) < 2e-6


def test_the_compiled_pass_caches_in_the_user_cache_dir(tmp_path):
    """With NUMBA_CACHE_DIR unset, numba's cache goes to $XDG_CACHE_HOME/mha/numba, and a second process
    loads it from there."""
    env = {k: v for k, v in os.environ.items() if k != "NUMBA_CACHE_DIR"}
    env.update(XDG_CACHE_HOME=str(tmp_path), PYTHONPATH=SRC)
    code = ("import numpy as np, os, mha\nfrom mha import fast\nfast.COMPILED_WORK = 0\n"
            "x = np.ones((1, 2, 8, 4), np.float32)\nmha.attention(x, x, x)\n"
            "print(os.environ['NUMBA_CACHE_DIR'])")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=env, timeout=600)
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == str(tmp_path / "mha" / "numba")
    assert any(p.suffix == ".nbi" for p in (tmp_path / "mha" / "numba").rglob("*"))
