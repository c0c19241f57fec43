"""Where the tiled path's time goes: one worker's tile, step by step, against the whole kernel.

    python benchmarks/profile_tile.py

Times one [512, 512] tile's operations with BLAS on one thread (as inside a
worker) and converts each to ns per score; the sum bounds what NumPy building
blocks can reach, whatever the tiling.  The exponential is the one mha.fast uses
on this CPU (np.exp2 with log2 e folded into the query scale where NumPy has
AVX-512, np.exp elsewhere); the other one is timed too, for comparison.
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
    V1 = np.ones((BK, D + 1), np.float32)
    s = np.empty((BQ, BK), np.float32)
    s0 = Q @ K.T                                   # the scores, kept to feed each step afresh
    pv = np.empty((BQ, D + 1), np.float32)
    acc = np.zeros_like(pv)
    from mha.fast import exponential
    used = exponential(np.dtype(np.float32))[0]
    other = np.exp if used is np.exp2 else np.exp2
    with threadpool_limits(1, user_api="blas"):
        steps = {
            "scores  s = Q K^T (GEMM)": lambda: np.matmul(Q, K.T, out=s),
            f"{used.__name__}(s) into the tile": lambda: used(s0, out=s),
            f"({other.__name__}(s), not used)": lambda: other(s0, out=s),
            "row max (shifted mode only)": lambda: s0.max(axis=1),
            "P [V | 1] (GEMM, also gives l)": lambda: np.matmul(s, V1, out=pv),
            "acc += P V": lambda: np.add(acc, pv, out=acc),
        }
        total = 0.0
        print(f"one worker, tile [{BQ}, {BK}], d_head {D}, float32; ns per score:")
        for name, fn in steps.items():
            ns = per_score(fn)
            if "shifted" not in name and "not used" not in name:
                total += ns
            print(f"  {name:<32} {ns:6.3f}")
        flops = 4 * D
        gemm = 2 * flops / 2
        print(f"  {'sum (no-shift mode)':<32} {total:6.3f}  -> {flops / total:.1f} GFLOP/s per core at best")
        print(f"  the two GEMMs alone: {gemm / (per_score(steps['scores  s = Q K^T (GEMM)']) + per_score(steps['P [V | 1] (GEMM, also gives l)'])):.1f} GFLOP/s per core")
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
