"""How mha.fast chooses its cut-over points: measured per dtype and mask kind.

    python benchmarks/cutover.py [--label NAME] [--quick]

Writes benchmarks/results/cutover-NAME.txt (and prints it).  Three questions,
each answered by timing the candidates alternately and keeping the fastest run
of each (the least disturbed one on a shared machine):

1. one thread or the team?  Wall time of attention(q, k, v) with workers=1 and
   with one worker per core, B = 1, H = 12, d_head = 64, growing T.  The
   cut-over is the first size from which the team wins at every larger size;
   fast.ONE_THREAD_WORK is set near it, in multiply-adds (B H T S (d + d_v)).
2. one tile with the max-shift, or a scan for the no-shift bound?  One thread's
   CPU time per score for both at growing T; fast.SCAN_KEYS is the number of
   keys from which the scan pays for itself.
3. how large a tile?  One thread's CPU time per score at T = 2048 for tiles of
   256 KiB to 4 MiB of scores; fast.TILE_BYTES is taken from the flat bottom.
4. the compiled pass or NumPy's tiles?  One thread's CPU time for both at growing
   sizes; fast.COMPILED_WORK is where the compiled pass starts to win (below it,
   numba is not even imported).

Questions 1 to 3 are answered on the path the defaults take (the compiled pass
when numba is installed, at these sizes).
"""

from __future__ import annotations

import argparse
import os
import time

import numpy as np

from mha import fast
from mha.attend import attention
from timing import Report, fastest

def with_plan(p: fast.Plan, fn):
    """Run fn with fast.plan forced to p."""
    def run():
        real = fast.plan
        fast.plan = lambda *a, **k: p
        try:
            return fn()
        finally:
            fast.plan = real
    return run


def inputs(T: int, dtype, H: int = 12):
    g = np.random.default_rng(0)
    return [g.standard_normal((1, H, T, 64)).astype(dtype) for _ in range(3)]


def threads_table(dtype, causal: bool, sizes, out) -> None:
    out(f"\n1. one thread vs the team ({fast.cores()} threads), {np.dtype(dtype).name}, "
        f"{'causal' if causal else 'no mask'}: wall ms, fastest run")
    out(f"   {'T':>5} {'multiply-adds':>14} {'1 thread':>10} {'team':>10} {'team/1':>7}")
    for T in sizes:
        q, k, v = inputs(T, dtype)
        reps = max(5, min(60, int(4e8 / (12 * T * T * 128))))
        one, many = fastest([lambda: attention(q, k, v, causal=causal, workers=1),
                             lambda: attention(q, k, v, causal=causal, workers=fast.cores())], reps)
        work = 12 * T * T * 128 // (2 if causal else 1)
        out(f"   {T:>5} {work:>14.3g} {one * 1e3:>10.3f} {many * 1e3:>10.3f} {many / one:>7.2f}")
    out(f"   in use: ONE_THREAD_WORK = {fast.ONE_THREAD_WORK:.3g} multiply-adds")


def scan_table(dtype, causal: bool, sizes, out) -> None:
    out(f"\n2. one tile with the max-shift vs the scan for the no-shift bound, {np.dtype(dtype).name}, "
        f"{'causal' if causal else 'no mask'}: one thread, ns per score")
    out(f"   {'T':>5} {'one tile':>9} {'scan':>9}")
    for T in sizes:
        q, k, v = inputs(T, dtype)
        chosen = fast.plan(1, 12, 12, T, T, 64, 64, causal=causal, itemsize=np.dtype(dtype).itemsize, workers=1,
                           compiled=fast.compiled() is not None)
        no_scan = fast.Plan(chosen.heads, min(T, 128) if causal else chosen.rows, T, 1, scan=False)
        scan = fast.Plan(chosen.heads, chosen.rows, chosen.keys, 1, scan=True)
        reps = max(3, min(30, int(2e8 / (12 * T * T * 128))))
        run = lambda: attention(q, k, v, causal=causal)                     # noqa: E731
        a, b = fastest([with_plan(no_scan, run), with_plan(scan, run)], reps, clock=time.thread_time)
        n = 12 * T * T / (2 if causal else 1)
        out(f"   {T:>5} {a / n * 1e9:>9.3f} {b / n * 1e9:>9.3f}")
    out(f"   in use: SCAN_KEYS = {fast.SCAN_KEYS} (NumPy's tiles), SCAN_KEYS_COMPILED = {fast.SCAN_KEYS_COMPILED}")


def tile_table(dtype, out, T: int = 2048) -> None:
    out(f"\n3. tile size, {np.dtype(dtype).name}, T = {T}, no mask: one thread, ns per score")
    q, k, v = inputs(T, dtype, H=2)
    size = np.dtype(dtype).itemsize
    for kib in (256, 512, 1024, 2048, 4096):
        keys = min(T, fast.KEY_BLOCK)
        rows = max(1, kib * 1024 // size // keys)
        p = fast.Plan(1, min(rows, T), keys, 1, scan=True)
        (t,) = fastest([with_plan(p, lambda: attention(q, k, v))], 5, clock=time.thread_time)
        out(f"   {kib:>5} KiB ({min(rows, T)} x {keys}): {t / (2 * T * T) * 1e9:.3f}")
    out(f"   in use: TILE_BYTES = {fast.TILE_BYTES // 1024} KiB, KEY_BLOCK = {fast.KEY_BLOCK}")


def compiled_table(dtype, out) -> None:
    out(f"\n4. the compiled pass vs NumPy's tiles, {np.dtype(dtype).name}, no mask: one thread, us per call")
    if fast.compiled() is None:
        out(f"   numba is not available ({fast.compiled_missing()})")
        return
    out(f"   {'H':>3} {'T':>5} {'d':>3} {'multiply-adds':>14} {'compiled':>9} {'numpy':>9}")
    for H, T, d in ((1, 8, 8), (4, 32, 32), (12, 16, 64), (12, 32, 64), (12, 64, 64), (12, 128, 64)):
        q, k, v = (a[:, :H, :T, :d] for a in inputs(T, dtype))

        def on(work):
            def run():
                saved, fast.COMPILED_WORK = fast.COMPILED_WORK, work
                try:
                    return attention(q, k, v, workers=1)
                finally:
                    fast.COMPILED_WORK = saved
            return run
        a, b = fastest([on(0), on(1 << 62)], 100, clock=time.thread_time)
        out(f"   {H:>3} {T:>5} {d:>3} {H * T * T * 2 * d:>14.3g} {a * 1e6:>9.0f} {b * 1e6:>9.0f}")
    out(f"   in use: COMPILED_WORK = {fast.COMPILED_WORK:.3g} multiply-adds")


def main(argv=None) -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--label", default="interim")
    p.add_argument("--quick", action="store_true")
    args = p.parse_args(argv)
    out = Report(f"cutover-{args.label}")

    out(f"mha.fast cut-over points, label {args.label!r}; cpu {os.cpu_count()} cores; numpy {np.__version__}; "
        f"compiled pass {'in use' if fast.compiled() is not None else 'missing: ' + fast.compiled_missing()}; "
        f"NumPy tiles' exponential np.{fast.exponential(np.dtype(np.float32))[0].__name__}; "
        f"OPENBLAS_CORETYPE={os.environ.get('OPENBLAS_CORETYPE')}")
    small = (16, 32, 48, 64, 96, 128, 192, 256) if not args.quick else (32, 64, 128)
    for dtype in (np.float32, np.float64):
        for causal in (False, True):
            threads_table(dtype, causal, small, out)
    for dtype in (np.float32, np.float64):
        for causal in (False, True):
            scan_table(dtype, causal, (64, 128, 256, 512, 1024) if not args.quick else (128, 256), out)
    for dtype in (np.float32, np.float64):
        tile_table(dtype, out, T=2048 if not args.quick else 1024)
    for dtype in (np.float32, np.float64):
        compiled_table(dtype, out)
    out.save()
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
