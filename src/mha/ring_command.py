"""`mha ring`: the command over `mha.ring`: random rows for each rank, the run timed, figures gathered, a check.

With --nproc P it starts torchrun (torch.distributed.run) for P ranks on this
machine; under a launcher it is one rank: it joins the ring, draws its rows
of Q, K and V (the same numbers on every rank and in one process), runs
`mha.ring.ring_attention`, and rank 0 prints every rank's time and memory,
and with --check the largest differences from the single-process float64
reference.
"""

from __future__ import annotations

import json
import os
import time
from typing import Any

import numpy as np

from .ring import RingError, Session, _Guard, _torch, join, launched, leave, linger, ring_attention
from .shards import Layout

PAGE = 1024                  # random rows are drawn a page at a time, so any rank draws the same numbers for a row
CHECK_ROWS = 256             # --check: query rows per block of the reference


def random_rows(seed: int, which: int, positions: np.ndarray, heads: int, width: int, dtype: Any) -> np.ndarray:
    """[1, heads, len(positions), width] standard normal numbers for these rows of tensor `which` (0 q, 1 k, 2 v),
    the same on every rank and in one process: each page of rows has its own seed."""
    out = np.empty((1, heads, len(positions), width), dtype)
    for page in np.unique(positions // PAGE):
        rows = np.flatnonzero(positions // PAGE == page)
        drawn = np.random.default_rng([seed, which, int(page)]).standard_normal((heads, PAGE, width))
        out[0, :, rows] = drawn[:, positions[rows] % PAGE].transpose(1, 0, 2)
    return out


def _memory() -> tuple[float, float]:
    """(this process's resident memory now, its peak so far), in MiB."""
    import resource
    now = 0.0
    try:
        with open("/proc/self/statm") as f:
            now = int(f.read().split()[1]) * os.sysconf("SC_PAGE_SIZE") / 2**20
    except OSError:
        pass
    return now, resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


def _settings(args: Any) -> dict[str, Any]:
    """The run's settings from the flags, checked the same way on every rank (so all refuse alike)."""
    from .inputs import UsageError
    G = args.n_kv_heads or args.n_heads
    for flag, value, low in (("--seq-len", args.seq_len, 1), ("--n-heads", args.n_heads, 1),
                             ("--n-kv-heads", G, 1), ("--d-k", args.d_k, 1), ("--timeout", args.timeout, 1)):
        if value < low:
            raise UsageError(f"{flag}: expected a number >= {low}, got {value}")
    if args.n_heads % G:
        raise UsageError(f"--n-kv-heads: {G} key/value heads must divide the {args.n_heads} query heads")
    if args.key_length is not None and not 0 <= args.key_length <= args.seq_len:
        raise UsageError(f"--key-length: expected 0 to --seq-len {args.seq_len}, got {args.key_length}")
    return {"T": args.seq_len, "H": args.n_heads, "G": G, "d_k": args.d_k, "d_v": args.d_v or args.d_k,
            "dtype": np.dtype(args.dtype or "float64"), "causal": args.causal, "zigzag": args.zigzag,
            "key_lengths": None if args.key_length is None else [args.key_length], "seed": args.seed}


def main_from_args(args: Any) -> int:
    """`mha ring`: with --nproc, start torchrun; under a launcher, be one rank of the ring."""
    from .inputs import UsageError
    cfg = _settings(args)
    if not launched():
        if args.nproc is None:
            raise UsageError("ring: give --nproc P, or start under torchrun (which sets RANK, WORLD_SIZE, "
                             "MASTER_ADDR and MASTER_PORT)")
        return launch(args)
    import sys
    try:
        session = join(args.timeout, args.backend)
        report = run(cfg, session, check=args.check)
    except RingError as e:
        print(f"mha ring: {e}", file=sys.stderr, flush=True)
        linger(args.timeout)
        os._exit(1)            # the process group cannot be shut down cleanly without the lost rank: leave now
    if session.rank == 0:
        print(describe(report), flush=True)
        if args.json:
            with open(args.json, "w", encoding="utf-8") as f:
                json.dump(report, f, indent=1)
    leave()
    return 0


def run(cfg: dict[str, Any], session: Session, *, check: bool = False) -> dict[str, Any]:
    """One rank's run of the command: draw its rows, time the ring, and gather everyone's figures on rank 0."""
    import tracemalloc
    _, dist = _torch()
    P, me = session.world, session.rank
    lay = Layout(cfg["T"], P, cfg["zigzag"])
    pos = lay.positions(me)
    rss0, _ = _memory()
    tracemalloc.start()
    q = random_rows(cfg["seed"], 0, pos, cfg["H"], cfg["d_k"], cfg["dtype"])
    k = random_rows(cfg["seed"], 1, pos, cfg["G"], cfg["d_k"], cfg["dtype"])
    v = random_rows(cfg["seed"], 2, pos, cfg["G"], cfg["d_v"], cfg["dtype"])
    stats: dict[str, Any] = {}
    guard = _Guard(me, list(range(P)), session.timeout, session.store)
    guard.collective("start", "before the ring", dist.barrier)
    t0, c0 = time.perf_counter(), time.process_time()
    O, lse = ring_attention(q, k, v, causal=cfg["causal"], zigzag=cfg["zigzag"], key_lengths=cfg["key_lengths"],
                            return_lse=True, stats=stats)
    seconds, cpu = time.perf_counter() - t0, time.process_time() - c0
    arrays = tracemalloc.get_traced_memory()[1] / 2**20
    tracemalloc.stop()
    rss, peak = _memory()
    mine = {"rank": me, "rows": int(lay.rows(me)), "seconds": seconds, "cpu_s": cpu, "compute_s": sum(stats["compute_s"]),
            "wait_s": sum(stats["wait_s"]), "step_compute_s": stats["compute_s"], "bytes_sent": stats["bytes_sent"],
            "scores": stats["scores"], "arrays_peak_mib": arrays, "rss_before_mib": rss0, "rss_peak_mib": peak}
    ranks: list[Any] = [None] * P
    guard.collective("figures", "after the ring", dist.all_gather_object, ranks, mine)
    report = {"T": cfg["T"], "P": P, "H": cfg["H"], "G": cfg["G"], "d_k": cfg["d_k"], "d_v": cfg["d_v"],
              "dtype": str(cfg["dtype"]), "causal": cfg["causal"], "zigzag": cfg["zigzag"],
              "key_lengths": cfg["key_lengths"], "backend": dist.get_backend(), "seconds": max(r["seconds"] for r in ranks),
              "ranks": ranks}
    if check:
        parts: list[Any] = [None] * P
        guard.collective("check", "after the ring", dist.all_gather_object, parts, (O, lse))
        if me == 0:
            report["check"] = _check(cfg, lay, parts)
    return report


def _check(cfg: dict[str, Any], lay: Layout, parts: list[Any]) -> dict[str, float]:
    """The largest differences between the ring's rows and the single-process float64 reference (mha.core),
    computed a block of query rows at a time (rows are independent), so it never holds T x T scores."""
    from . import core
    T, every = cfg["T"], np.arange(cfg["T"])
    q = random_rows(cfg["seed"], 0, every, cfg["H"], cfg["d_k"], cfg["dtype"]).astype(np.float64)
    K, V = (core.repeat_kv(random_rows(cfg["seed"], w, every, cfg["G"], d, cfg["dtype"]).astype(np.float64),
                           cfg["H"] // cfg["G"]) for w, d in ((1, cfg["d_k"]), (2, cfg["d_v"])))
    allowed = core.visible_keys(T, T, causal="top_left" if cfg["causal"] else "none",
                                key_lengths=None if cfg["key_lengths"] is None else np.array(cfg["key_lengths"]),
                                batch_shape=(1,))
    O = lay.join([p[0] for p in parts]).astype(np.float64)
    lse = lay.join([p[1][..., None] for p in parts])[..., 0].astype(np.float64)
    worst = {"O": 0.0, "lse": 0.0}
    for r0 in range(0, T, CHECK_ROWS):
        r1 = min(r0 + CHECK_ROWS, T)
        rows = None if allowed is None else np.broadcast_to(allowed, (1, T, T))[:, None, r0:r1]   # [1, 1, r, T]
        ref = core.head_attention(q[:, :, r0:r1], K, V, scale=1 / np.sqrt(cfg["d_k"]), allowed=rows)
        seen = ref.row_sum > 0
        with np.errstate(divide="ignore"):
            lse_ref = np.where(seen, ref.row_max + np.log(np.where(seen, ref.row_sum, 1)), -np.inf)
        worst["O"] = max(worst["O"], float(np.abs(O[:, :, r0:r1] - ref.O).max()))
        mine = lse[:, :, r0:r1]
        worst["lse"] = max(worst["lse"], float(np.abs(mine - lse_ref)[seen].max(initial=0.0))
                           if (np.isinf(mine) == ~seen).all() else np.inf)
    return worst


def describe(report: dict[str, Any]) -> str:
    """The run in a few lines, for the terminal."""
    r = report
    rows = sorted({x["rows"] for x in r["ranks"]})
    extra = [w for w, on in (("causal", r["causal"]), ("zigzag", r["zigzag"])) if on]
    if r["key_lengths"] is not None:
        extra.append(f"keys 1 to {r['key_lengths'][0]} visible")
    lines = [f"ring attention over P = {r['P']} ranks ({r['backend']}): T = {r['T']} "
             f"({' or '.join(map(str, rows))} rows per rank), H = {r['H']}, G = {r['G']}, d_k = {r['d_k']}, "
             f"d_v = {r['d_v']}, {r['dtype']}" + "".join(f", {w}" for w in extra),
             f"time {r['seconds']:.3f} s (the slowest rank); per rank: computing / waiting / sent / peak arrays / "
             f"peak resident memory"]
    lines += [f"  rank {x['rank']}: {x['compute_s']:.3f} s / {x['wait_s']:.3f} s / {x['bytes_sent'] / 2**20:.2f} MiB / "
              f"{x['arrays_peak_mib']:.1f} MiB / {x['rss_peak_mib']:.0f} MiB" for x in r["ranks"]]
    if "check" in r:
        c = r["check"]
        lines.append(f"check against the single-process float64 reference: max |O - O_ref| = {c['O']:.3g}, "
                     f"max |lse - lse_ref| = {c['lse']:.3g}")
    return "\n".join(lines)


def _worker_argv(args: Any) -> list[str]:
    """The flags a rank gets from the launcher: the user's, without --nproc."""
    argv = ["ring", "--seq-len", str(args.seq_len), "--n-heads", str(args.n_heads), "--d-k", str(args.d_k),
            "--seed", str(args.seed), "--timeout", f"{args.timeout:g}", "--backend", args.backend]
    for flag, value in (("--n-kv-heads", args.n_kv_heads), ("--d-v", args.d_v), ("--key-length", args.key_length),
                        ("--dtype", args.dtype), ("--json", args.json)):
        if value is not None:
            argv += [flag, str(value)]
    argv += [flag for flag, on in (("--causal", args.causal), ("--zigzag", args.zigzag), ("--check", args.check)) if on]
    return argv


def launch(args: Any) -> int:
    """torchrun --standalone --nproc-per-node P -m mha ring ...: P ranks on this machine; one line if one fails."""
    import logging
    import sys
    from .inputs import UsageError
    if args.nproc < 1:
        raise UsageError(f"--nproc: expected a number >= 1, got {args.nproc}")
    _torch()
    from torch.distributed.elastic.multiprocessing.errors import ChildFailedError
    from torch.distributed.run import parse_args, run as torchrun
    # each rank's NumPy gets its share of the cores (torchrun would set 1 and say so)
    os.environ.setdefault("OMP_NUM_THREADS", str(max(1, (os.cpu_count() or 1) // args.nproc)))
    logging.getLogger("torch.distributed.elastic").setLevel(logging.ERROR)
    try:
        torchrun(parse_args(["--standalone", "--nproc-per-node", str(args.nproc), "--module", "mha"]
                            + _worker_argv(args)))
    except ChildFailedError as e:
        rank, failure = e.get_first_failure()
        how = failure.signal_name() if failure.exitcode < 0 else f"exit status {failure.exitcode}"
        print(f"mha ring: rank {rank} failed first ({how}); every rank has stopped", file=sys.stderr)
        return 1
    return 0
