"""`mha bench` (also `python -m mha.bench`): the fast path against torch, measured in one run.

Every ratio compares two timings from the same run, taken alternately, as the
median of the paired ratios, because shared machines are noisy.  FLOPs: 4*B*H*T*S*d_head for the attention core (two matmuls), half
that with a causal mask, plus 8*B*T*d_model^2 for the projections of a full layer.  Peak memory is
what NumPy allocated during the call (tracemalloc), beyond the inputs; torch's
allocations are not traced, so its column says "-".
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import statistics
import sys
import time
import tracemalloc
from dataclasses import asdict, dataclass, field
from typing import Any, Callable

import numpy as np


@dataclass
class Row:
    case: str
    impl: str
    shape: str
    dtype: str
    median_s: float
    gflops: float
    vs_torch: float | None = None        # > 1: faster than the torch peer of this case
    pct_sgemm: float | None = None
    peak_mib: float | None = None
    runs: int = 0
    extra: dict[str, Any] = field(default_factory=dict)


def _time(fn: Callable[[], Any], repeats: int) -> tuple[float, int]:
    fn()                                          # warm-up: page faults, thread pools, caches
    times = []
    for _ in range(repeats):
        t0 = time.perf_counter()
        fn()
        times.append(time.perf_counter() - t0)
    return statistics.median(times), repeats


def _paired(fa: Callable[[], Any], fb: Callable[[], Any] | None, repeats: int) -> tuple[float, float | None,
                                                                                    float | None]:
    """Time a and b alternately (a b, b a, a b, ...), so that a noisy neighbour slows both alike.

    Returns the median time of each and the median of the paired ratios t_b / t_a.
    """
    if fb is None:
        t, _ = _time(fa, repeats)
        return t, None, None
    fa(), fb()                                    # warm-up
    ta, tb = [], []
    for i in range(repeats):
        for fn, out in ((fa, ta), (fb, tb)) if i % 2 == 0 else ((fb, tb), (fa, ta)):
            t0 = time.perf_counter()
            fn()
            out.append(time.perf_counter() - t0)
    return statistics.median(ta), statistics.median(tb), statistics.median(b / a for a, b in zip(ta, tb))


def _peak_mib(fn: Callable[[], Any]) -> float:
    tracemalloc.start()
    try:
        tracemalloc.reset_peak()
        fn()
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    return peak / 2 ** 20


def machine() -> dict[str, Any]:
    info: dict[str, Any] = {"python": platform.python_version(), "numpy": np.__version__,
                            "cpu": _cpu_name(), "cores": os.cpu_count(), "platform": platform.platform(),
                            "env": {k: os.environ.get(k) for k in ("OPENBLAS_CORETYPE", "OPENBLAS_L2_SIZE",
                                                                   "OMP_NUM_THREADS", "OPENBLAS_NUM_THREADS")}}
    try:
        from threadpoolctl import threadpool_info
        info["blas"] = [{k: p.get(k) for k in ("internal_api", "version", "architecture", "num_threads",
                                               "threading_layer", "filepath")}
                        for p in threadpool_info() if p.get("user_api") == "blas"]
    except ImportError:
        info["blas"] = "threadpoolctl not installed"
    torch = _torch()
    info["torch"] = None if torch is None else torch.__version__
    if torch is not None:
        info["torch_threads"] = torch.get_num_threads()
    return info


def _cpu_name() -> str:
    try:
        with open("/proc/cpuinfo") as f:
            for line in f:
                if line.startswith("model name"):
                    return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return platform.processor() or "unknown"


def sgemm_gflops(n: int = 2048, repeats: int = 7) -> float:
    """The machine's float32 matrix-product rate: the best of several runs, as a peak should be."""
    a = np.random.default_rng(0).standard_normal((n, n)).astype(np.float32)
    a @ a
    best = float("inf")
    for _ in range(repeats):
        t0 = time.perf_counter()
        a @ a
        best = min(best, time.perf_counter() - t0)
    return 2 * n ** 3 / best / 1e9


def exp2_ns_per_score(n_rows: int = 1024, n_cols: int = 256, repeats: int = 200) -> float:
    """One core's cost of the softmax's exponentials: np.exp2 in place over one float32 tile, ns per score."""
    s0 = np.random.default_rng(1).uniform(-20, 0, (n_rows, n_cols)).astype(np.float32)
    s = np.empty_like(s0)
    best = float("inf")
    for _ in range(repeats):
        np.copyto(s, s0)
        t0 = time.perf_counter()
        np.exp2(s, out=s)
        best = min(best, time.perf_counter() - t0)
    return best / s.size * 1e9


def ceiling(flops: float, scores: float, sgemm: float, exp_ns: float, cores: int) -> float:
    """A lower bound on the time of any exact float32 attention built from BLAS products and NumPy's exp2:
    every FLOP at the SGEMM rate measured in the run, plus one exp2 per score spread over the cores.
    The softmax's other passes and all overheads are left out, so the real floor is higher."""
    return flops / (sgemm * 1e9) + scores * exp_ns * 1e-9 / cores


def _torch():
    try:
        import torch
    except ImportError:
        return None
    return torch


def core_cases(quick: bool) -> list[dict[str, Any]]:
    if quick:
        return [dict(case="core", B=1, H=8, T=2048, d=64, dtype="float32", causal=False),
                dict(case="core causal", B=1, H=8, T=2048, d=64, dtype="float32", causal=True),
                dict(case="core float64", B=1, H=8, T=2048, d=64, dtype="float64", causal=False)]
    return [dict(case="core", B=1, H=12, T=4096, d=64, dtype="float32", causal=False),
            dict(case="core causal", B=1, H=12, T=4096, d=64, dtype="float32", causal=True),
            dict(case="core float64", B=1, H=12, T=4096, d=64, dtype="float64", causal=False)]


def run(quick: bool = False, progress: Callable[[str], None] = print, big: bool = True) -> dict[str, Any]:
    """Measure every case; returns the results as a JSON-ready dict."""
    from .attend import attention
    from .fast import forward, layer_flops
    torch = _torch()
    if torch is not None:
        torch.set_num_threads(os.cpu_count() or 1)
    repeats = 7 if quick else 5
    result: dict[str, Any] = {"machine": machine(), "quick": quick}
    progress("measuring exp2 and SGEMM ...")
    # exp2 first: right after a multi-threaded SGEMM, OpenBLAS's idle threads still spin and can take its core
    exp_ns = exp2_ns_per_score()
    result["exp2_ns_per_score"] = exp_ns
    peak = sgemm_gflops(1024 if quick else 2048)
    result["sgemm_gflops"] = peak
    cores = os.cpu_count() or 1

    def bound(row: Row, flops: float, scores: float, peer_s: float | None) -> None:
        """Record the ceiling for a float32 row: the least time, and the best ratio to torch it allows."""
        floor = ceiling(flops, scores, peak, exp_ns, cores)
        row.extra["ceiling_ms"] = floor * 1e3
        if peer_s is not None:
            row.extra["ceiling_vs_torch"] = peer_s / floor
    rows: list[Row] = []
    rng = np.random.default_rng(0)
    cases = core_cases(quick)
    sweep = [256, 512, 1024] if quick else [512, 1024, 2048, 4096]
    total = len(cases) + 1 + len(sweep) + (0 if quick or not big else 1)
    step = 0

    def note(msg: str) -> None:
        nonlocal step
        step += 1
        progress(f"[{step}/{total}] {msg}")

    core_inputs = None
    for c in cases:
        note(f"{c['case']}: T = S = {c['T']}, H = {c['H']}, d_head = {c['d']}, {c['dtype']}")
        dt = np.dtype(c["dtype"])
        q, k, v = (rng.standard_normal((c["B"], c["H"], c["T"], c["d"])).astype(dt) for _ in range(3))
        if c["case"] == "core":
            core_inputs = (q, k, v)
        # causal: count the work that is needed, half the scores (FlashAttention's convention)
        flops = 4 * c["B"] * c["H"] * c["T"] * c["T"] * c["d"] // (2 if c["causal"] else 1)
        shape = f"B={c['B']} H={c['H']} T=S={c['T']} d={c['d']}"
        ours = (lambda q=q, k=k, v=v, causal=c["causal"]: attention(q, k, v, causal=causal, impl="tiled"))
        peer = None
        if torch is not None:
            tq, tk, tv = (torch.from_numpy(a) for a in (q, k, v))

            def peer(tq=tq, tk=tk, tv=tv, causal=c["causal"]):
                with torch.no_grad():
                    return torch.nn.functional.scaled_dot_product_attention(tq, tk, tv, is_causal=causal)
        t, tt, ratio = _paired(ours, peer, repeats)
        mem = _peak_mib(ours)
        rows.append(Row(c["case"], "mha tiled", shape, c["dtype"], t, flops / t / 1e9, ratio,
                        100 * flops / t / 1e9 / peak, mem, repeats))
        if dt == np.float32:
            bound(rows[-1], flops, c["B"] * c["H"] * c["T"] * c["T"] / (2 if c["causal"] else 1), tt)
        if tt is not None:
            rows.append(Row(c["case"], "torch sdpa", shape, c["dtype"], tt, flops / tt / 1e9, 1.0,
                            100 * flops / tt / 1e9 / peak, None, repeats))
        if c["causal"] and core_inputs is not None:
            q0, k0, v0 = core_inputs
            _, _, speedup = _paired(lambda: attention(q0, k0, v0, causal=True, impl="tiled"),
                                    lambda: attention(q0, k0, v0, impl="tiled"), repeats)
            result["causal_speedup"] = speedup

    # the full layer against nn.MultiheadAttention
    B, T, D, H = (1, 512, 256, 4) if quick else (1, 2048, 1024, 16)
    note(f"layer: B = {B}, T = {T}, d_model = {D}, H = {H}, float32")
    Xn = rng.standard_normal((B, T, D)).astype(np.float32)
    W = {n_: (rng.standard_normal((D, D)) / np.sqrt(D)).astype(np.float32) for n_ in ("W_Q", "W_K", "W_V", "W_O")}
    from .inputs import parse_config
    cfg = parse_config({"X": Xn, "n_heads": H, **W}, dtype=np.float32)
    flops = layer_flops(B, T, T, D, H)
    peer = None
    if torch is not None:
        m = torch.nn.MultiheadAttention(D, H, batch_first=True, bias=False).eval()
        x = torch.from_numpy(Xn)

        def peer():
            with torch.no_grad():
                return m(x, x, x, need_weights=False)
    t, tt, ratio = _paired(lambda: forward(cfg, impl="tiled"), peer, repeats)
    mem = _peak_mib(lambda: forward(cfg, impl="tiled"))
    shape = f"B={B} T={T} d_model={D} H={H}"
    rows.append(Row("layer", "mha forward", shape, "float32", t, flops / t / 1e9, ratio,
                    100 * flops / t / 1e9 / peak, mem, repeats))
    bound(rows[-1], flops, B * H * T * T, tt)
    if tt is not None:
        rows.append(Row("layer", "torch nn.MultiheadAttention", shape, "float32", tt, flops / tt / 1e9, 1.0,
                        100 * flops / tt / 1e9 / peak, None, repeats))

    # GFLOP/s against T, for the plot
    curve = []
    for T_ in sweep:
        note(f"sweep: T = S = {T_}")
        q, k, v = (rng.standard_normal((1, 12 if not quick else 4, T_, 64)).astype(np.float32) for _ in range(3))
        flops = 4 * q.shape[1] * T_ * T_ * 64
        t, _ = _time(lambda: attention(q, k, v, impl="tiled"), repeats)
        point = {"T": T_, "mha_gflops": flops / t / 1e9}
        if torch is not None:
            tq, tk, tv = (torch.from_numpy(a) for a in (q, k, v))
            with torch.no_grad():
                tt, _ = _time(lambda: torch.nn.functional.scaled_dot_product_attention(tq, tk, tv), repeats)
            point["torch_gflops"] = flops / tt / 1e9
        curve.append(point)
    result["sweep"] = curve

    if big and not quick:
        T_, H_ = 65536, 12
        note(f"long context: T = S = {T_}, H = {H_}, d_head = 64, float32 (one run, several minutes)")
        q, k, v = (rng.standard_normal((1, H_, T_, 64)).astype(np.float32) for _ in range(3))
        io_mib = 4 * q.nbytes / 2 ** 20                            # q, k, v and the output
        box: dict[str, float] = {}

        def once() -> None:
            t0 = time.perf_counter()
            attention(q, k, v, impl="tiled")
            box["t"] = time.perf_counter() - t0

        mem = _peak_mib(once)                                      # the output is counted in the peak
        flops = 4 * H_ * T_ * T_ * 64
        rows.append(Row("long context", "mha tiled", f"B=1 H={H_} T=S={T_} d=64", "float32", box["t"],
                        flops / box["t"] / 1e9, None, 100 * flops / box["t"] / 1e9 / peak, mem, 1,
                        extra={"inputs_outputs_mib": io_mib,
                               "extra_mib": mem - q.nbytes / 2 ** 20,
                               "t_by_s_matrix_would_need_gib": H_ * T_ * T_ * 4 / 2 ** 30}))
    result["rows"] = [asdict(r) for r in rows]
    return result


def table(result: dict[str, Any]) -> str:
    head = f"{'case':<13} {'impl':<28} {'shape':<26} {'dtype':<8} {'median':>9} {'GFLOP/s':>8} " \
           f"{'vs torch':>9} {'%SGEMM':>7} {'peak MiB':>9}"
    lines = [head, "-" * len(head)]
    for r in result["rows"]:
        vs = "-" if r["vs_torch"] is None else f"{r['vs_torch']:.2f}x"
        if r["vs_torch"] is None and result["machine"].get("torch") is None:
            vs = "no torch"
        mem = "-" if r["peak_mib"] is None else f"{r['peak_mib']:.0f}"
        lines.append(f"{r['case']:<13} {r['impl']:<28} {r['shape']:<26} {r['dtype']:<8} "
                     f"{r['median_s'] * 1e3:>7.1f}ms {r['gflops']:>8.1f} {vs:>9} {r['pct_sgemm']:>6.0f}% {mem:>9}")
    m = result["machine"]
    lines.append("")
    lines.append("vs torch: the median of paired ratios t_torch / t_mha, runs taken alternately (> 1: mha is faster)")
    lines.append(f"SGEMM measured in this run: {result['sgemm_gflops']:.1f} GFLOP/s float32; "
                 f"cpu: {m['cpu']}, {m['cores']} cores; numpy {m['numpy']}; torch {m.get('torch')}")
    blas = m.get("blas")
    if isinstance(blas, list) and blas:
        b = blas[0]
        lines.append(f"BLAS: {b.get('internal_api')} {b.get('version')}, kernel {b.get('architecture')}, "
                     f"{b.get('num_threads')} threads; OPENBLAS_CORETYPE={m['env'].get('OPENBLAS_CORETYPE')} "
                     f"OPENBLAS_L2_SIZE={m['env'].get('OPENBLAS_L2_SIZE')}")
    if "causal_speedup" in result:
        lines.append(f"causal vs non-causal (mha tiled): {result['causal_speedup']:.2f}x faster")
    if "exp2_ns_per_score" in result:
        lines.append(f"ceiling: every FLOP at this run's SGEMM rate plus one exp2 per score "
                     f"({result['exp2_ns_per_score']:.3f} ns per score and core, measured); no exact kernel "
                     f"made of these parts is faster")
    for r in result["rows"]:
        e = r["extra"]
        if "ceiling_ms" in e:
            vs = f", at best {e['ceiling_vs_torch']:.2f}x torch" if "ceiling_vs_torch" in e else ""
            lines.append(f"  {r['case']:<12} ceiling {e['ceiling_ms']:.1f} ms{vs}; mha reaches "
                         f"{100 * e['ceiling_ms'] / (r['median_s'] * 1e3):.0f}% of it")
    for r in result["rows"]:
        if r["extra"].get("inputs_outputs_mib"):
            e = r["extra"]
            lines.append(f"long context: inputs + output {e['inputs_outputs_mib']:.0f} MiB, extra beyond them "
                         f"{e['extra_mib']:.0f} MiB; a T x S matrix would need {e['t_by_s_matrix_would_need_gib']:.0f} GiB")
    return "\n".join(lines) + "\n"


def plot(result: dict[str, Any], path: str) -> None:
    try:
        import matplotlib
        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        from .inputs import MHAInputError
        raise MHAInputError("--plot: matplotlib is not installed (pip install 'mha[plot]')") from None
    xs = [p["T"] for p in result["sweep"]]
    fig, ax = plt.subplots(figsize=(6, 4))
    ax.plot(xs, [p["mha_gflops"] for p in result["sweep"]], "o-", label="mha tiled")
    if all("torch_gflops" in p for p in result["sweep"]):
        ax.plot(xs, [p["torch_gflops"] for p in result["sweep"]], "s--", label="torch SDPA")
    ax.axhline(result["sgemm_gflops"], color="gray", lw=0.8, ls=":", label="SGEMM")
    ax.set_xscale("log", base=2)
    ax.set_xlabel("T = S")
    ax.set_ylabel("GFLOP/s (float32)")
    ax.legend()
    fig.tight_layout()
    fig.savefig(path)
    plt.close(fig)


def main_from_args(args: Any) -> int:
    result = run(quick=args.quick, progress=lambda s: print(s, file=sys.stderr, flush=True))
    sys.stdout.write(table(result))
    if args.json:
        with open(args.json, "w", encoding="utf-8") as f:
            json.dump(result, f, indent=1)
    if args.plot:
        plot(result, args.plot)
    return 0


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(prog="python -m mha.bench", description=__doc__.splitlines()[0])
    p.add_argument("--quick", action="store_true")
    p.add_argument("--json")
    p.add_argument("--plot")
    return main_from_args(p.parse_args(argv))


if __name__ == "__main__":
    raise SystemExit(main())
