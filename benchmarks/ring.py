"""Ring attention on this machine: memory per rank and time at P = 1, 2, 4 ranks against one process.

    python benchmarks/ring.py [--seq-len 65536] [--n-heads 1] [--d-k 64] [--label NAME]

Every run draws the same random float32 Q, K, V (mha.ring.random_rows) and
computes causal attention.  The ring runs are `mha ring --nproc P --json ...`
(torchrun, gloo on 127.0.0.1), contiguous and zigzag; each rank gets one BLAS
thread (OMP_NUM_THREADS=1), so P = 4 shares 2 cores between 4 ranks.  The
one-process runs are the fast path (`mha.attention`, its own team of threads)
in a child process without torch, and the ring's own code at P = 1.

Memory: "arrays" is the peak of NumPy allocations during the run, traced by
tracemalloc (inputs, K/V buffers, state, scratch); "resident" is the process's
peak resident memory, which includes torch (~250 MiB) in the ring runs.
Time: wall seconds of the attention call (the slowest rank), and CPU seconds
summed over the ranks (what a shared machine distorts least).
Writes benchmarks/results/ring-<label>.txt and .json.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def one_process(T: int, H: int, d: int) -> dict:
    """The fast path on the whole sequence in this process (run as a child: its memory is its own)."""
    import resource
    import tracemalloc
    import numpy as np
    from mha import attention
    from mha.ring import random_rows
    every = np.arange(T)
    tracemalloc.start()
    q, k, v = (random_rows(0, w, every, H, d, np.float32) for w in range(3))
    t0, c0 = time.perf_counter(), time.process_time()
    attention(q, k, v, causal=True)
    seconds, cpu = time.perf_counter() - t0, time.process_time() - c0
    arrays = tracemalloc.get_traced_memory()[1] / 2**20
    return {"seconds": seconds, "cpu_s": cpu, "arrays_peak_mib": arrays,
            "rss_peak_mib": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024}


def ring(T: int, H: int, d: int, P: int, zigzag: bool) -> dict:
    with tempfile.TemporaryDirectory() as tmp:
        out = Path(tmp) / "ring.json"
        env = dict(os.environ, OMP_NUM_THREADS="1", OPENBLAS_NUM_THREADS="1")
        cmd = [sys.executable, "-m", "mha", "ring", "--nproc", str(P), "--seq-len", str(T), "--n-heads", str(H),
               "--d-k", str(d), "--dtype", "float32", "--causal", "--timeout", "3600", "--json", str(out)]
        subprocess.run(cmd + (["--zigzag"] if zigzag else []), check=True, env=env, stdout=subprocess.DEVNULL)
        return json.loads(out.read_text())


def main(argv=None) -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--seq-len", type=int, default=65536)
    p.add_argument("--n-heads", type=int, default=1)
    p.add_argument("--d-k", type=int, default=64)
    p.add_argument("--label", default="T65536")
    p.add_argument("--one-process", action="store_true", help=argparse.SUPPRESS)
    args = p.parse_args(argv)
    T, H, d = args.seq_len, args.n_heads, args.d_k
    if args.one_process:
        print(json.dumps(one_process(T, H, d)))
        return 0
    load = os.getloadavg()
    runs = {"fast path, one process": json.loads(subprocess.run(
        [sys.executable, __file__, "--one-process", "--seq-len", str(T), "--n-heads", str(H), "--d-k", str(d)],
        check=True, capture_output=True, text=True).stdout)}
    for P, zigzag in ((1, False), (2, False), (2, True), (4, False), (4, True)):
        runs[f"ring P = {P}" + (", zigzag" if zigzag else "")] = ring(T, H, d, P, zigzag)
    lines = [f"ring attention, causal, T = {T}, H = G = {H}, d_k = d_v = {d}, float32; "
             f"{os.cpu_count()} cores, load average before the runs {load[0]:.1f} / {load[1]:.1f} / {load[2]:.1f}",
             f"command: python benchmarks/ring.py --seq-len {T} --n-heads {H} --d-k {d} --label {args.label}", "",
             f"{'run':<24} {'wall s':>8} {'CPU s':>8}  {'arrays MiB per rank':<28} {'resident MiB per rank':<24}"
             f" {'per rank: computing s / waiting s'}"]
    for name, r in runs.items():
        if "ranks" not in r:
            lines.append(f"{name:<24} {r['seconds']:>8.1f} {r['cpu_s']:>8.1f}  {r['arrays_peak_mib']:<28.1f} "
                         f"{r['rss_peak_mib']:<24.0f}")
            continue
        ranks = r["ranks"]
        arrays = " ".join(f"{x['arrays_peak_mib']:.1f}" for x in ranks)
        rss = " ".join(f"{x['rss_peak_mib']:.0f}" for x in ranks)
        work = "  ".join(f"{x['compute_s']:.1f}/{x['wait_s']:.1f}" for x in ranks)
        lines.append(f"{name:<24} {r['seconds']:>8.1f} {sum(x['cpu_s'] for x in ranks):>8.1f}  {arrays:<28} "
                     f"{rss:<24} {work}")
    text = "\n".join(lines) + "\n"
    results = ROOT / "benchmarks" / "results"
    (results / f"ring-{args.label}.txt").write_text(text)
    (results / f"ring-{args.label}.json").write_text(json.dumps({"load": load, "runs": runs}, indent=1))
    print(text, end="")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
