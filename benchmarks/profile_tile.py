"""Where the tiled path's time goes: one worker's tile, step by step, against the whole kernel.

    python benchmarks/profile_tile.py

Times one [512, 512] tile's operations with BLAS on one thread (as inside a
worker) and converts each to ns per score: the two products, the compiled pass
(mha.kernel.softmax_tile, with and without the running max) and, for
comparison, NumPy's passes (the exponential NumPy's tiles use on this CPU,
np.exp2 with log2 e folded into the query scale where NumPy has AVX-512, np.exp
elsewhere, and the other one).  The sum is what the design can reach per core,
whatever the tiling.
"""

import time

import numpy as np
from threadpoolctl import threadpool_limits

BQ, BK, D, REPEATS = 512, 512, 64, 200


def per_score(fn) -> float:
    fn()
    t0 = time.perf_counter()
    for _ in range(REPEATS):
        fn()
    return (time.perf_counter() - t0) / REPEATS / (BQ * BK) * 1e9


def main() -> None:
    g = np.random.default_rng(0)
    Q = g.standard_normal((BQ, D)).astype(np.float32) * 0.125
    K = g.standard_normal((BK, D)).astype(np.float32)
    V = g.standard_normal((BK, D)).astype(np.float32)
    s = np.empty((BQ, BK), np.float32)
    s0 = Q @ K.T                                   # the scores, kept to feed each step afresh
    pv = np.empty((BQ, D), np.float32)
    acc = np.zeros_like(pv)
    from mha.fast import compiled, compiled_missing, exponential
    used = exponential(np.dtype(np.float32))[0]
    other = np.exp if used is np.exp2 else np.exp2
    kern = compiled()
    m, l, stops = np.zeros((1, BQ), np.float32), np.zeros((1, BQ), np.float32), np.array([BK])

    def compiled_pass(shift):
        np.copyto(s, s0)
        m.fill(-np.inf if shift else 0)
        kern.softmax_tile(s[None], m, l, acc[None], pv[None], True, 0, 0, 0, False, 0, stops, None, None, None, shift)

    with threadpool_limits(1, user_api="blas"):
        steps = {
            "scores  s = Q K^T (GEMM)": lambda: np.matmul(Q, K.T, out=s),
            "P V (GEMM)": lambda: np.matmul(s, V, out=pv),
        }
        copy = per_score(lambda: np.copyto(s, s0))
        extra = {}
        if kern is not None:
            extra["compiled pass, no running max"] = per_score(lambda: compiled_pass(False)) - copy
            extra["compiled pass, running max"] = per_score(lambda: compiled_pass(True)) - copy
        extra[f"(NumPy: {used.__name__}(s) into the tile)"] = per_score(lambda: used(s0, out=s))
        extra[f"(NumPy: {other.__name__}(s))"] = per_score(lambda: other(s0, out=s))
        extra["(NumPy: row max)"] = per_score(lambda: s0.max(axis=1))
        print(f"one worker, tile [{BQ}, {BK}], d_head {D}, float32; ns per score:")
        gemms = 0.0
        for name, fn in steps.items():
            ns = per_score(fn)
            gemms += ns
            print(f"  {name:<36} {ns:6.3f}")
        for name, ns in extra.items():
            print(f"  {name:<36} {ns:6.3f}")
        flops = 4 * D
        if kern is not None:
            total = gemms + extra["compiled pass, no running max"]
            print(f"  {'sum: GEMMs + pass (no running max)':<36} {total:6.3f}  -> {flops / total:.1f} GFLOP/s "
                  f"per core at best")
        else:
            print(f"  compiled pass not available: {compiled_missing()}")
        print(f"  the two GEMMs alone: {flops / gemms:.1f} GFLOP/s per core")
        A = g.standard_normal((1024, 1024)).astype(np.float32)
        C = np.empty_like(A)
        best = min(_timed(lambda: np.matmul(A, A, out=C)) for _ in range(10))
        print(f"  SGEMM 1024^3 on one thread: {2 * 1024 ** 3 / best / 1e9:.1f} GFLOP/s per core (the roof)")


def _timed(fn) -> float:
    t0 = time.perf_counter()
    fn()
    return time.perf_counter() - t0


if __name__ == "__main__":
    main()
