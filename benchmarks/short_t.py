"""Issue 19: mha.attention against torch SDPA at short T, paired and interleaved in one process.

    python benchmarks/short_t.py [--T 128 256 512 1024] [--pairs 200] [--min-pairs 20] [--mode wall cpu] [--save LABEL]

Each pair runs torch's scaled_dot_product_attention and each mha variant once, in alternating order, and
keeps t_torch / t_variant for that pair; the table gives the median of those ratios (> 1: mha is faster)
and the median times.  Pairs are close in time, so a load that comes and goes moves both sides of a pair
alike; the median drops the pairs a burst hit.  Two modes:

* wall: both libraries with their defaults (torch's threads, mha's team), wall-clock time;
* cpu: one core each (torch.set_num_threads(1), mha workers=1 with BLAS on one thread), timed by the
  thread's CPU time (time.thread_time), so waiting for a core another process holds is not counted:
  the comparison that holds on a shared machine.

Variants: "mha" is the default path; "mha online" turns fast.ONE_PASS off (the online-softmax items that
were the default before it), so the table shows the change in the same run.  fp32, B = 1, H = 12,
d_head = 64, standard-normal q, k, v; no mask and causal.  The load (uptime) is printed before and after.
"""

from __future__ import annotations

import argparse
import os
import statistics
import time

import numpy as np

import mha
from mha import fast
from mha.team import one_blas_thread
from timing import Report


def _variants(q, k, v, causal, workers):
    def default():
        return mha.attention(q, k, v, causal=causal, workers=workers)

    def online():
        fast.ONE_PASS = False
        try:
            return mha.attention(q, k, v, causal=causal, workers=workers)
        finally:
            fast.ONE_PASS = True
    return {"mha": default, "mha online": online}


def paired(torch_fn, variants: dict, pairs: int, clock) -> tuple[float, dict]:
    """Median torch time and, per variant, (median time, median of the per-pair ratios t_torch / t)."""
    names = list(variants)
    for f in [torch_fn, *variants.values()]:
        f(), f()
    t_torch, times, ratios = [], {n: [] for n in names}, {n: [] for n in names}
    for p in range(pairs):
        order = ["torch", *names] if p % 2 == 0 else [*names[::-1], "torch"]
        got = {}
        for n in order:
            f = torch_fn if n == "torch" else variants[n]
            t0 = clock()
            f()
            got[n] = clock() - t0
        t_torch.append(got["torch"])
        for n in names:
            times[n].append(got[n])
            ratios[n].append(got["torch"] / got[n])
    return statistics.median(t_torch), {n: (statistics.median(times[n]), statistics.median(ratios[n]))
                                        for n in names}


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--T", type=int, nargs="+", default=[128, 256, 512, 1024])
    ap.add_argument("--pairs", type=int, default=200, help="pairs at T = 128; fewer at longer T (pairs 128 / T)")
    ap.add_argument("--min-pairs", type=int, default=20, help="the fewest pairs at any T")
    ap.add_argument("--mode", nargs="+", default=["wall", "cpu"], choices=["wall", "cpu"])
    ap.add_argument("--save", metavar="LABEL", help="write benchmarks/results/short-t-LABEL.txt")
    args = ap.parse_args(argv)
    import torch
    out = Report(f"short-t-{args.save or 'interim'}")
    out(f"load before: {os.popen('uptime').read().strip()}")
    out(f"compiled pass: {'yes' if fast.compiled() is not None else 'no: ' + fast.compiled_missing()}; "
        f"torch {torch.__version__}, {torch.get_num_threads()} threads by default; pairs per row {args.pairs}")
    g = np.random.default_rng(0)
    H, d = 12, 64
    default_threads = torch.get_num_threads()
    for mode in args.mode:
        cpu = mode == "cpu"
        torch.set_num_threads(1 if cpu else default_threads)
        clock = time.thread_time if cpu else time.perf_counter
        out(f"\nmode {mode}: " + ("one core each, thread CPU time" if cpu else "defaults, wall clock"))
        out(f"{'case':<8} {'T':>5} {'torch ms':>9} {'mha ms':>8} {'torch/mha':>9} {'online ms':>9} "
            f"{'torch/online':>12}")
        for causal in (False, True):
            for T in args.T:
                q, k, v = (g.standard_normal((1, H, T, d)).astype(np.float32) for _ in range(3))
                tq, tk, tv = (torch.from_numpy(a) for a in (q, k, v))

                def theirs():
                    return torch.nn.functional.scaled_dot_product_attention(tq, tk, tv, is_causal=causal)
                variants = _variants(q, k, v, causal, 1 if cpu else None)
                pairs = max(args.min_pairs, args.pairs * 128 // T) if T > 128 else args.pairs
                if cpu:
                    with one_blas_thread():
                        t, res = paired(theirs, variants, pairs, clock)
                else:
                    t, res = paired(theirs, variants, pairs, clock)
                (a, ra), (b, rb) = res["mha"], res["mha online"]
                out(f"{'causal' if causal else 'no mask':<8} {T:>5} {t * 1e3:>9.3f} {a * 1e3:>8.3f} {ra:>8.2f}x "
                    f"{b * 1e3:>9.3f} {rb:>11.2f}x")
    torch.set_num_threads(default_threads)
    out(f"\nload after: {os.popen('uptime').read().strip()}")
    out("command: python benchmarks/short_t.py " + " ".join(argv if argv is not None else os.sys.argv[1:]))
    if args.save:
        out.save()
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
