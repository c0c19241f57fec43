"""Issue 19: mha.attention against torch SDPA at short T, paired and interleaved in one process.

    python benchmarks/short_t.py [--T 128 256 512 1024] [--pairs 200] [--min-pairs 20] [--mode wall cpu]
                                 [--causal both] [--base SRC] [--one-worker] [--no-online] [--gap MS]
                                 [--save LABEL]

Each pair runs torch's scaled_dot_product_attention and each mha variant once, in alternating order, and
keeps t_torch / t_variant for that pair; the table gives the median of those ratios (> 1: mha is faster)
and the median times.  Pairs are close in time, so a load that comes and goes moves both sides of a pair
alike; the median drops the pairs a burst hit.  Two modes:

* wall: both libraries with their defaults (torch's threads, mha's team), wall-clock time;
* cpu: one core each (torch.set_num_threads(1), mha workers=1 with BLAS on one thread), timed by the
  thread's CPU time (time.thread_time), so waiting for a core another process holds is not counted:
  the comparison that holds on a shared machine.

Variants: "mha" is the default path; "mha online" turns fast.ONE_PASS off (the online-softmax items that
were the default before the one-tile pass); with --base SRC, "base" is the `mha` package found in another
checkout's src folder (main, say), loaded under another name into the same process, so a change and what
it changes are timed in the same pairs; with --one-worker (wall mode), "mha 1w" is mha on one worker, for
the team's cut-over.  Wall mode and torch's threads: torch's OpenMP worker keeps spinning after torch
returns (0.7 ms of process CPU during a sleep after an SDPA call, 0.03 ms after mha's team), holding the
second core while the next call runs, so a call that follows torch loses the core its team would use (at
T = 128, mha's team beat one worker by 16% back to back, and lost to it by 10% interleaved with torch, same
host, same hour).  --gap MS sleeps that long before every timed call so that no call follows another's spin;
both libraries then start from parked threads, and on a busy host torch's wake-up cost a few ms at T <= 256:
read wall ratios from a quiet machine only.  fp32, B = 1, H = 12, d_head = 64, standard-normal q, k, v; no mask
and causal.  The load (uptime) is printed before and after.
"""

from __future__ import annotations

import argparse
import importlib.util
import os
import statistics
import sys
import time
from pathlib import Path

import numpy as np

import mha
from mha import fast
from mha.team import one_blas_thread
from timing import Report


def load_base(src: str):
    """The `mha` package under src (a checkout's src folder), imported as `mha_base`: a second, independent
    copy (its modules import each other relatively), with its own team of threads and compiled pass."""
    root = Path(src).resolve() / "mha"
    spec = importlib.util.spec_from_file_location("mha_base", root / "__init__.py",
                                                  submodule_search_locations=[str(root)])
    module = importlib.util.module_from_spec(spec)
    sys.modules["mha_base"] = module
    spec.loader.exec_module(module)
    return module


def _variants(q, k, v, causal, workers, base=None, online=True, one_worker=False):
    def default():
        return mha.attention(q, k, v, causal=causal, workers=workers)

    def one_pass_off():
        fast.ONE_PASS = False
        try:
            return mha.attention(q, k, v, causal=causal, workers=workers)
        finally:
            fast.ONE_PASS = True
    out = {"mha": default}
    if online:
        out["mha online"] = one_pass_off
    if base is not None:
        out["base"] = lambda: base.attention(q, k, v, causal=causal, workers=workers)
    if one_worker and workers is None:          # the team's cut-over (fast.ONE_THREAD_WORK), on the wall clock
        out["mha 1w"] = lambda: mha.attention(q, k, v, causal=causal, workers=1)
    return out


def paired(torch_fn, variants: dict, pairs: int, clock, gap: float = 0.0) -> tuple[float, dict]:
    """Median torch time and, per variant, (median time, median of the per-pair ratios t_torch / t); gap:
    seconds of sleep before each timed call."""
    names = list(variants)
    for f in [torch_fn, *variants.values()]:
        f(), f()
    t_torch, times, ratios = [], {n: [] for n in names}, {n: [] for n in names}
    everyone = ["torch", *names]
    for p in range(pairs):
        # every order in turn (rotations, forwards and backwards): torch's OpenMP threads spin for a while
        # after it returns, so whichever call follows it loses time; each variant must follow it equally often
        turn = p // 2 % len(everyone)
        order = everyone[turn:] + everyone[:turn]
        order = order if p % 2 == 0 else order[::-1]
        got = {}
        for n in order:
            f = torch_fn if n == "torch" else variants[n]
            if gap:
                time.sleep(gap)
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
    ap.add_argument("--causal", default="both", choices=["both", "no", "yes"], help="which mask kinds")
    ap.add_argument("--base", metavar="SRC", help="also time the mha package in SRC (another checkout's src)")
    ap.add_argument("--no-online", action="store_true", help="leave out the 'mha online' variant")
    ap.add_argument("--one-worker", action="store_true", help="wall mode: also mha on one worker ('mha 1w')")
    ap.add_argument("--gap", type=float, default=0.0, metavar="MS",
                    help="sleep MS milliseconds before every timed call (torch's OpenMP threads spin after it returns)")
    ap.add_argument("--save", metavar="LABEL", help="write benchmarks/results/short-t-LABEL.txt")
    args = ap.parse_args(argv)
    import torch
    base = load_base(args.base) if args.base else None
    out = Report(f"short-t-{args.save or 'interim'}")
    out(f"load before: {os.popen('uptime').read().strip()}")
    out(f"compiled pass: {'yes' if fast.compiled() is not None else 'no: ' + fast.compiled_missing()}; "
        f"torch {torch.__version__}, {torch.get_num_threads()} threads by default; pairs per row {args.pairs}"
        + (f"; base: {args.base}" if base else "") + (f"; gap {args.gap:g} ms before each call" if args.gap else ""))
    g = np.random.default_rng(0)
    H, d = 12, 64
    default_threads = torch.get_num_threads()
    kinds = {"both": (False, True), "no": (False,), "yes": (True,)}[args.causal]
    for mode in args.mode:
        cpu = mode == "cpu"
        torch.set_num_threads(1 if cpu else default_threads)
        clock = time.thread_time if cpu else time.perf_counter
        out(f"\nmode {mode}: " + ("one core each, thread CPU time" if cpu else "defaults, wall clock"))
        names = list(_variants(None, None, None, False, 1 if cpu else None, base, not args.no_online,
                               args.one_worker))
        out(f"{'case':<8} {'T':>5} {'torch ms':>9}" + "".join(f" {n + ' ms':>13} {'torch/' + n:>13}" for n in names))
        for causal in kinds:
            for T in args.T:
                q, k, v = (g.standard_normal((1, H, T, d)).astype(np.float32) for _ in range(3))
                tq, tk, tv = (torch.from_numpy(a) for a in (q, k, v))

                def theirs():
                    return torch.nn.functional.scaled_dot_product_attention(tq, tk, tv, is_causal=causal)
                variants = _variants(q, k, v, causal, 1 if cpu else None, base, not args.no_online,
                                     args.one_worker)
                pairs = max(args.min_pairs, args.pairs * 128 // T) if T > 128 else args.pairs
                if cpu:
                    with one_blas_thread():
                        t, res = paired(theirs, variants, pairs, clock, args.gap / 1e3)
                else:
                    t, res = paired(theirs, variants, pairs, clock, args.gap / 1e3)
                out(f"{'causal' if causal else 'no mask':<8} {T:>5} {t * 1e3:>9.3f}" +
                    "".join(f" {res[n][0] * 1e3:>13.3f} {res[n][1]:>12.2f}x" for n in names))
    torch.set_num_threads(default_threads)
    out(f"\nload after: {os.popen('uptime').read().strip()}")
    out("command: python benchmarks/short_t.py " + " ".join(argv if argv is not None else sys.argv[1:]))
    if args.save:
        out.save()
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
