"""`mha bench` (also `python -m mha.bench`): the default path, impl="auto", against torch, measured in one run.

What is measured (float32, B = 1, d_head = 64, standard-normal inputs):

* the attention core, mha.attention vs torch's scaled_dot_product_attention,
  H = 12, T = S over the sweep, without and with a causal mask;
* a full layer, mha.forward vs torch.nn.MultiheadAttention, d_model 256
  (H = 4) and 768 (H = 12), over the same sweep and mask kinds;
* the attention core in float64 (reported, no goal).

Timing: mha and torch run in alternating blocks of a few calls; the first call
of a block is not counted when a block has several (it pays for the other
library's threads, which spin for a while after each call, and for its caches),
and "vs torch" is the median over block pairs of t_torch / t_mha, so that a noisy
neighbour slows both alike.  FLOPs: 4 B H T S d_head for the core (half with a
causal mask, the FlashAttention convention), plus 8 B T d_model^2 for a layer's
projections.  The ceiling of a row is the time if every FLOP ran at the SGEMM
rate measured in the same run and the only other work were the compiled pass
(`mha.kernel.softmax_tile`, its cost per score measured in the same run on one
core; NumPy's exponential where numba is missing), spread over the cores.  Peak
memory is what NumPy allocated during one more call (tracemalloc).  The float32
error of mha and of SDPA against the float64 reference (`mha.core`) is measured
on the core rows up to T = 1024.  The compiled pass's first-call compile time is
measured in a fresh process with an empty numba cache, and its load time with a
warm one.
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

SWEEP = (128, 256, 512, 1024, 2048, 4096, 8192, 16384)
ERROR_T = 1024                                 # the float32 errors are measured up to this T (the reference's memory)
QUICK_SWEEP = (128, 256, 512, 1024)
QUICK_LAYER_SWEEP = (128, 512)
GQA_SWEEP, QUICK_GQA_SWEEP = (4096, 16384), (1024,)
WINDOW_SWEEP, QUICK_WINDOW_SWEEP = ((4096, 1024), (8192, 1024), (16384, 1024)), ((2048, 256),)
FLOAT64_T, QUICK_FLOAT64_T = 4096, 512
LAYER_WIDTHS = ((256, 4), (768, 12))          # (d_model, H): d_head 64
CORE_HEADS = 12
D_HEAD = 64


@dataclass
class Row:
    case: str                # "core", "core causal", "layer d=768", "layer d=768 causal", "core float64", ...
    impl: str                # "mha", "torch sdpa", "mha forward", "torch nn.MultiheadAttention"
    shape: str
    dtype: str
    T: int
    median_s: float
    gflops: float
    vs_torch: float | None = None        # > 1: faster than the torch peer of this case
    pct_sgemm: float | None = None
    peak_mib: float | None = None
    runs: int = 0
    extra: dict[str, Any] = field(default_factory=dict)


# ------------------------------------------------------------------ timing

def _blocks(T: int) -> tuple[int, int]:
    """(block pairs, calls per block): more and longer blocks where one call is short."""
    if T <= 512:
        return 9, 4
    if T <= 2048:
        return 7, 2
    if T <= 4096:
        return 5, 1
    return 3, 1


def paired(fa: Callable[[], Any], fb: Callable[[], Any] | None, pairs: int, per_block: int = 1,
           ) -> tuple[float, float | None, float | None]:
    """Time a and b in alternating blocks (a b, b a, a b, ...).

    Returns the median time of each and the median over block pairs of t_b / t_a.  With per_block > 1
    the first call of each block is left out of its block's median.
    """
    def block(fn: Callable[[], Any]) -> float:
        times = []
        for _ in range(per_block):
            t0 = time.perf_counter()
            fn()
            times.append(time.perf_counter() - t0)
        return statistics.median(times[1:] if per_block > 1 else times)

    fa()
    if fb is None:
        ta = [block(fa) for _ in range(pairs)]
        return statistics.median(ta), None, None
    fb()
    ta, tb = [], []
    for i in range(pairs):
        if i % 2 == 0:
            ta.append(block(fa))
            tb.append(block(fb))
        else:
            tb.append(block(fb))
            ta.append(block(fa))
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


# ------------------------------------------------------------------ the machine and its rates

def machine() -> dict[str, Any]:
    from .fast import exponential
    info: dict[str, Any] = {"python": platform.python_version(), "numpy": np.__version__,
                            "cpu": _cpu_name(), "cores": os.cpu_count(), "platform": platform.platform(),
                            "exponential": exponential(np.dtype(np.float32))[0].__name__, "avx512": _avx512(),
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


def _avx512() -> bool:
    """Whether NumPy found AVX-512 (Skylake-X level) on this CPU."""
    try:
        from numpy._core._multiarray_umath import __cpu_features__ as features
    except ImportError:  # pragma: no cover - NumPy 1.x
        from numpy.core._multiarray_umath import __cpu_features__ as features
    return bool(features.get("AVX512_SKX") or features.get("AVX512F"))


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


def exp_ns_per_score(n_rows: int = 512, n_cols: int = 512, repeats: int = 100) -> float:
    """One core's cost of the kernel's exponential (np.exp or np.exp2, whichever mha.fast uses on this
    CPU) in place over one float32 tile of scores, ns per score."""
    from .fast import exponential
    f = exponential(np.dtype(np.float32))[0]
    s0 = np.random.default_rng(1).uniform(-20, 0, (n_rows, n_cols)).astype(np.float32)
    s = np.empty_like(s0)
    best = float("inf")
    for _ in range(repeats):
        np.copyto(s, s0)
        t0 = time.perf_counter()
        f(s, out=s)
        best = min(best, time.perf_counter() - t0)
    return best / s.size * 1e9


def pass_ns_per_score(n_rows: int = 512, n_cols: int = 512, repeats: int = 100) -> dict[str, float] | None:
    """One core's cost of the compiled pass (`mha.kernel.softmax_tile`) over one float32 tile of scores, ns
    per score: with the running max ("shift") and without it (scores proven bounded, as at long T with
    standard-normal inputs).  None where numba is missing."""
    from .fast import compiled
    kern = compiled()
    if kern is None:
        return None
    g = np.random.default_rng(1)
    s0 = (g.standard_normal((1, n_rows, n_cols)) * 3).astype(np.float32)
    s = np.empty_like(s0)
    m, l = np.zeros((1, n_rows), np.float32), np.zeros((1, n_rows), np.float32)
    acc = np.zeros((1, n_rows, 64), np.float32)
    stops = np.array([n_cols])
    out = {}
    for mode, shift in (("shift", True), ("no shift", False)):
        best = float("inf")
        for _ in range(repeats):
            np.copyto(s, s0)
            m.fill(-np.inf if shift else 0)
            t0 = time.perf_counter()
            kern.softmax_tile(s, m, l, acc, acc, True, 0, 0, 0, False, 0, stops, None, None, None,
                              shift)
            best = min(best, time.perf_counter() - t0)
        out[mode] = best / s.size * 1e9
    return out


def compile_seconds() -> dict[str, float] | None:
    """The compiled pass's one-off costs, each in a fresh process: importing numba, the first call with an
    empty cache (compiling the float32 pass), and the first call with the cache that call left (loading it).
    None where numba is missing."""
    import subprocess
    import tempfile
    from .fast import compiled
    if compiled() is None:
        return None
    code = ("import time, numpy as np\nt0 = time.perf_counter()\nimport numba\nt1 = time.perf_counter()\n"
            "import mha\nfrom mha import fast\nfast.COMPILED_WORK = 0\n"
            "x = np.ones((1, 4, 64, 64), np.float32)\nt2 = time.perf_counter()\nmha.attention(x, x, x)\n"
            "t3 = time.perf_counter()\nmha.attention(x, x, x)\nt4 = time.perf_counter()\n"
            "print(t1 - t0, (t3 - t2) - (t4 - t3))")
    with tempfile.TemporaryDirectory() as cache:
        env = dict(os.environ, NUMBA_CACHE_DIR=cache)
        runs = [subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=env, timeout=900)
                for _ in range(2)]
    if any(r.returncode for r in runs):
        return None
    (imp, cold), (_, warm) = (map(float, r.stdout.split()) for r in runs)
    return {"import_numba_s": imp, "first_call_cold_s": cold, "first_call_cached_s": warm}


def ceiling(flops: float, scores: float, sgemm: float, softmax_ns: float, cores: int) -> float:
    """A lower bound on the time of this design (BLAS products and one softmax pass per score): every FLOP
    at the SGEMM rate measured in the run, plus the pass's measured cost per score, spread over the cores.
    Overheads and the running max's rescaling are left out, so the real floor is higher."""
    return flops / (sgemm * 1e9) + scores * softmax_ns * 1e-9 / cores


def _torch():
    try:
        import torch
    except ImportError:
        return None
    return torch


# ------------------------------------------------------------------ the cases

def _steps(quick: bool, long: bool, torch: Any) -> list[dict[str, Any]]:
    """Every (case, shape) the table will hold, in the order they are measured."""
    sweep = QUICK_SWEEP if quick else SWEEP
    steps = []
    for causal in (False, True):
        for T in sweep:
            steps.append(dict(kind="core", T=T, H=CORE_HEADS, causal=causal, dtype="float32"))
    layer_sweep = QUICK_LAYER_SWEEP if quick else sweep
    for d_model, H in (LAYER_WIDTHS[:1] if quick else LAYER_WIDTHS):
        for causal in (False, True):
            for T in layer_sweep:
                steps.append(dict(kind="layer", T=T, H=H, d_model=d_model, causal=causal, dtype="float32"))
    steps.append(dict(kind="core", T=QUICK_FLOAT64_T if quick else FLOAT64_T, H=CORE_HEADS, causal=False,
                      dtype="float64"))
    # today's variants at length, each against SDPA in the same run: GQA (12 query heads on 4 key/value heads)
    # against enable_gqa=True, the sliding window against an explicit boolean mask
    for T in (QUICK_GQA_SWEEP if quick else GQA_SWEEP):
        steps.append(dict(kind="core", T=T, H=CORE_HEADS, G=4, causal=True, dtype="float32"))
    for T, W in (QUICK_WINDOW_SWEEP if quick else WINDOW_SWEEP):
        steps.append(dict(kind="core", T=T, H=CORE_HEADS, causal=True, window=W, dtype="float32"))
    if long and not quick:
        # causal: the memory is the question, and the causal call takes half the time (a minute or two)
        steps.append(dict(kind="long", T=65536, H=CORE_HEADS, causal=True, dtype="float32"))
    return steps


def _case_name(st: dict[str, Any]) -> str:
    name = {"core": "core", "layer": f"layer d={st.get('d_model')}", "long": "long context"}[st["kind"]]
    if st.get("G"):
        name += f" GQA {st['H']}/{st['G']}"
    if st.get("window"):
        name += f" W={st['window']}"
    if st["causal"]:
        name += " causal"
    if st["dtype"] != "float32":
        name += " " + st["dtype"]
    return name


def run(quick: bool = False, progress: Callable[[str], None] = print, long: bool = False) -> dict[str, Any]:
    """Measure every case; returns the results as a JSON-ready dict."""
    from .attend import attention
    torch = _torch()
    if torch is not None:
        torch.set_num_threads(os.cpu_count() or 1)
    result: dict[str, Any] = {"machine": machine(), "quick": quick}
    progress("measuring the exponential and SGEMM ...")
    # the exponential first: right after a multi-threaded SGEMM, OpenBLAS's idle threads still spin
    exp_ns = exp_ns_per_score()
    result["exp_ns_per_score"] = exp_ns
    from .fast import compiled_missing
    result["numba_missing"] = compiled_missing()
    progress("measuring the compiled pass and its compile time ...")
    result["pass_ns_per_score"] = pass_ns_per_score()
    result["compile"] = compile_seconds()
    from .fast import numba_cache_dir
    result["numba_cache"] = numba_cache_dir()
    softmax_ns = exp_ns if result["pass_ns_per_score"] is None else result["pass_ns_per_score"]["no shift"]
    peak = sgemm_gflops(1024 if quick else 2048)
    result["sgemm_gflops"] = peak
    cores = os.cpu_count() or 1
    rng = np.random.default_rng(0)
    rows: list[Row] = []
    steps = _steps(quick, long, torch)

    for i, st in enumerate(steps, 1):
        T, H, causal, dt = st["T"], st["H"], st["causal"], np.dtype(st["dtype"])
        case = _case_name(st)
        pairs, per_block = (2, 1) if quick and T > 512 else _blocks(T)
        shape, flops, scores, ours, peer, (impl, peer_impl), (q, k, v, opts) = _setup(st, rng, torch)
        progress(f"[{i}/{len(steps)}] {case}: {shape}, {dt.name}")
        if st["kind"] == "long":                   # one call, its memory traced: minutes, no torch peer
            t0 = time.perf_counter()
            mem = _peak_mib(ours)
            t, tt, ratio, pairs, per_block = time.perf_counter() - t0, None, None, 1, 1
        else:
            t, tt, ratio = paired(ours, peer, pairs, per_block)
            mem = _peak_mib(ours) if T <= 16384 else None
        errors = None
        if st["kind"] == "core" and dt == np.float32 and T <= (512 if quick else ERROR_T):
            errors = _errors(q, k, v, opts, peer)
        row = Row(case, impl, shape, dt.name, T, t, flops / t / 1e9, ratio, 100 * flops / t / 1e9 / peak, mem,
                  pairs * per_block)
        if errors is not None:
            row.extra.update(errors)
        if dt == np.float32:
            floor = ceiling(flops, scores, peak, softmax_ns, cores)
            row.extra["ceiling_ms"] = floor * 1e3
            row.extra["pct_of_ceiling"] = 100 * floor / t
            if tt is not None:
                row.extra["ceiling_vs_torch"] = tt / floor
        if st["kind"] == "long":
            row.extra.update(inputs_outputs_mib=4 * q.nbytes / 2 ** 20, extra_mib=(mem or 0) - q.nbytes / 2 ** 20,
                             t_by_s_matrix_would_need_gib=H * T * T * dt.itemsize / 2 ** 30)
        rows.append(row)
        if st.get("window") == 1024 and T == 8192:
            # the same call with the window given as a boolean mask: every key block is walked and masked
            band = _window_mask(T, st["window"])
            _, _, skip = paired(lambda o=opts: attention(q, k, v, **o),
                                lambda: attention(q, k, v, causal=causal, mask=band), pairs, per_block)
            result["window_skip"] = {"T": T, "W": st["window"], "speedup": skip}
        if tt is not None:
            rows.append(Row(case, peer_impl, shape, dt.name, T, tt, flops / tt / 1e9, 1.0,
                            100 * flops / tt / 1e9 / peak, None, pairs * per_block))
    result["rows"] = [asdict(r) for r in rows]
    return result


def _setup(st: dict[str, Any], rng: np.random.Generator, torch: Any) -> tuple:
    """One case's inputs: (shape, flops, scores, ours, peer, (impl, peer_impl), (q, k, v, opts)); q, k, v and
    opts are None for a layer case (mha.forward against nn.MultiheadAttention)."""
    from .attend import attention, forward
    from .fast import layer_flops
    from .inputs import parse_config
    T, H, causal, dt = st["T"], st["H"], st["causal"], np.dtype(st["dtype"])
    peer = None
    if st["kind"] in ("core", "long"):
        G, W = st.get("G", H), st.get("window")
        shape = f"B=1 H={H} T=S={T} d={D_HEAD}" + (f" G={G}" if G != H else "")
        q = rng.standard_normal((1, H, T, D_HEAD)).astype(dt)
        k, v = (rng.standard_normal((1, G, T, D_HEAD)).astype(dt) for _ in range(2))
        scores = H * T * T / (2 if causal else 1) if W is None else H * _band(T, W)
        flops = int(4 * scores * D_HEAD)
        opts: dict[str, Any] = {"causal": causal, "enable_gqa": G != H, "window": W}
        ours: Callable[[], Any] = (lambda q=q, k=k, v=v, o=opts: attention(q, k, v, **o))
        if torch is not None and st["kind"] == "core":
            peer = _torch_sdpa(torch, q, k, v, causal, G != H, W)
        return shape, flops, scores, ours, peer, ("mha", "torch sdpa"), (q, k, v, opts)
    d_model = st["d_model"]
    shape = f"B=1 T={T} d_model={d_model} H={H}"
    X = rng.standard_normal((1, T, d_model)).astype(dt)
    Ws = {n: (rng.standard_normal((d_model, d_model)) / np.sqrt(d_model)).astype(dt)
          for n in ("W_Q", "W_K", "W_V", "W_O")}
    cfg = parse_config({"X": X, "n_heads": H, **Ws, "causal": causal}, dtype=dt)
    flops = layer_flops(1, T, T, d_model, H) - (2 * H * T * T * D_HEAD if causal else 0)
    scores = H * T * T / (2 if causal else 1)
    if torch is not None:
        peer = _torch_layer(torch, X, Ws, H, causal)
    return (shape, flops, scores, (lambda cfg=cfg: forward(cfg)), peer,
            ("mha forward", "torch nn.MultiheadAttention"), (None, None, None, None))


def _errors(q: np.ndarray, k: np.ndarray, v: np.ndarray, opts: dict[str, Any],
            peer: Callable[[], Any] | None) -> dict[str, float]:
    """The largest |error| of mha's float32 output, and of SDPA's, against the float64 reference (mha.core)
    on the same float32 inputs."""
    from .attend import attention
    ref = attention(*(a.astype(np.float64) for a in (q, k, v)), impl="reference", **opts)
    out = {"err_mha": float(np.abs(attention(q, k, v, **opts) - ref).max())}
    if peer is not None:
        out["err_torch"] = float(np.abs(np.asarray(peer()) - ref).max())
    return out


def _band(T: int, W: int) -> int:
    """Scores inside a causal window of W over T = S tokens."""
    return sum(min(i + 1, W) for i in range(T)) if T < 4 * W else T * W - W * (W - 1) // 2


def _window_mask(T: int, W: int) -> np.ndarray:
    """[T, T] bool, True = may attend: the causal sliding window i - W < j <= i."""
    d = np.arange(T)[:, None] - np.arange(T)[None, :]
    return (d >= 0) & (d < W)


def _torch_sdpa(torch: Any, q: np.ndarray, k: np.ndarray, v: np.ndarray, causal: bool, gqa: bool,
                window: int | None) -> Callable[[], Any]:
    """torch's SDPA on the same arrays: enable_gqa for fewer key/value heads, an explicit boolean mask for
    a window (SDPA has no window argument)."""
    tq, tk, tv = (torch.from_numpy(a) for a in (q, k, v))
    kw: dict[str, Any] = {"enable_gqa": True} if gqa else {}
    if window is not None:
        kw["attn_mask"] = torch.from_numpy(_window_mask(q.shape[-2], window))
    else:
        kw["is_causal"] = causal

    def peer():
        with torch.no_grad():
            return torch.nn.functional.scaled_dot_product_attention(tq, tk, tv, **kw)
    return peer


def _torch_layer(torch: Any, X: np.ndarray, W: dict[str, np.ndarray], H: int, causal: bool) -> Callable[[], Any]:
    """nn.MultiheadAttention holding the same weights (torch's are [d_out, d_in]: ours transposed)."""
    d_model = X.shape[-1]
    m = torch.nn.MultiheadAttention(d_model, H, batch_first=True, bias=False).eval()
    with torch.no_grad():
        m.in_proj_weight.copy_(torch.from_numpy(np.concatenate([W["W_Q"], W["W_K"], W["W_V"]], axis=1).T.copy()))
        m.out_proj.weight.copy_(torch.from_numpy(W["W_O"].T.copy()))
    x = torch.from_numpy(X)
    T = X.shape[1]
    mask = torch.triu(torch.ones(T, T, dtype=torch.bool), diagonal=1) if causal else None   # True = may NOT attend

    def peer():
        with torch.no_grad():
            return m(x, x, x, need_weights=False, attn_mask=mask, is_causal=causal)
    return peer


# ------------------------------------------------------------------ reporting

def table(result: dict[str, Any]) -> str:
    """The rows side by side: for each case and T, mha's time, torch's, the paired ratio and the ceiling."""
    m = result["machine"]
    no_torch = m.get("torch") is None
    head = (f"{'case':<20} {'T':>6} {'mha':>10} {'torch':>10} {'vs torch':>9} {'GFLOP/s':>8} {'%SGEMM':>7} "
            f"{'ceiling':>9} {'%ceiling':>9} {'peak MiB':>9} {'err mha':>8} {'err torch':>9}")
    lines = [head, "-" * len(head)]
    by_case: dict[tuple[str, int], dict[str, dict[str, Any]]] = {}
    for r in result["rows"]:
        by_case.setdefault((r["case"], r["T"]), {})["peer" if r["impl"].startswith("torch") else "mha"] = r
    for (case, T), pair in by_case.items():
        r, p = pair["mha"], pair.get("peer")
        vs = "no torch" if no_torch else ("-" if r["vs_torch"] is None else f"{r['vs_torch']:.2f}x")
        e = r["extra"]
        ceil = f"{e['ceiling_ms']:.2f}ms" if "ceiling_ms" in e else "-"
        pct = f"{e['pct_of_ceiling']:.0f}%" if "pct_of_ceiling" in e else "-"
        mem = "-" if r["peak_mib"] is None else f"{r['peak_mib']:.0f}"
        torch_ms = "-" if p is None else f"{p['median_s'] * 1e3:.2f}ms"
        errs = [f"{e[k]:.1e}" if k in e else "-" for k in ("err_mha", "err_torch")]
        lines.append(f"{case:<20} {T:>6} {r['median_s'] * 1e3:>8.2f}ms {torch_ms:>10} {vs:>9} {r['gflops']:>8.1f} "
                     f"{r['pct_sgemm']:>6.0f}% {ceil:>9} {pct:>9} {mem:>9} {errs[0]:>8} {errs[1]:>9}")
    lines.append("")
    lines.append("mha: impl=\"auto\" (the default); vs torch: the median over alternating blocks of t_torch / t_mha "
                 "(> 1: mha is faster)")
    lines.append(f"SGEMM measured in this run: {result['sgemm_gflops']:.1f} GFLOP/s float32; "
                 f"cpu: {m['cpu']}, {m['cores']} cores, AVX-512 {'yes' if m.get('avx512') else 'no'}; "
                 f"numpy {m['numpy']}; torch {m.get('torch')}")
    blas = m.get("blas")
    if isinstance(blas, list) and blas:
        b = blas[0]
        lines.append(f"BLAS: {b.get('internal_api')} {b.get('version')}, kernel {b.get('architecture')}, "
                     f"{b.get('num_threads')} threads; OPENBLAS_CORETYPE={m['env'].get('OPENBLAS_CORETYPE')} "
                     f"OPENBLAS_L2_SIZE={m['env'].get('OPENBLAS_L2_SIZE')}")
    lines.extend(_softmax_lines(result))
    best = [(r["case"], r["T"], r["extra"]["ceiling_vs_torch"], r["extra"]["pct_of_ceiling"]) for r in result["rows"]
            if "ceiling_vs_torch" in r["extra"] and r["T"] >= 4096 and r["case"].startswith("core")]
    for case, T, x, pct in best:
        lines.append(f"  {case} T={T}: mha reaches {pct:.0f}% of the ceiling; the ceiling is {x:.2f}x torch")
    times = {(r["case"], r["T"]): r["median_s"] for r in result["rows"] if r["impl"] == "mha"}
    for T in sorted({T for case, T in times if case == "core causal"}):
        if T >= 4096 and ("core", T) in times:
            lines.append(f"causal at T={T}: {times[('core', T)] / times[('core causal', T)]:.2f}x faster than "
                         f"without a mask")
    lines.append("err mha / err torch: largest |float32 output - float64 reference (mha.core)| on the same inputs")
    if "window_skip" in result:
        w = result["window_skip"]
        lines.append(f"window W={w['W']} at T={w['T']}: skipping the key blocks outside the band is "
                     f"{w['speedup']:.2f}x faster than the same call with the window as a boolean mask")
    for r in result["rows"]:
        e = r["extra"]
        if e.get("inputs_outputs_mib"):
            lines.append(f"long context: inputs + output {e['inputs_outputs_mib']:.0f} MiB, extra beyond them "
                         f"{e['extra_mib']:.0f} MiB; a T x S matrix would need "
                         f"{e['t_by_s_matrix_would_need_gib']:.0f} GiB")
    return "\n".join(lines) + "\n"


def _softmax_lines(result: dict[str, Any]) -> list[str]:
    """What the softmax costs in this run, and how the ceiling counts it; one line if numba is missing."""
    m = result["machine"]
    lines = []
    cost = result.get("pass_ns_per_score")
    if cost is None:
        lines.append(f"numba is not available ({result.get('numba_missing')}): NumPy's tiles ran, without the "
                     f"compiled pass")
        lines.append(f"ceiling: every FLOP at this run's SGEMM rate plus one np.{m.get('exponential', 'exp')} per "
                     f"score ({result['exp_ns_per_score']:.3f} ns per score and core, measured)")
        return lines
    lines.append(f"ceiling: every FLOP at this run's SGEMM rate plus the compiled pass, {cost['no shift']:.3f} ns "
                 f"per score and core without the running max ({cost['shift']:.3f} with it), measured on one "
                 f"512 x 512 tile; NumPy's np.{m.get('exponential', 'exp')} alone costs "
                 f"{result['exp_ns_per_score']:.3f}")
    c = result.get("compile")
    if c:
        lines.append(f"compiled pass: importing numba {c['import_numba_s']:.2f} s; first call "
                     f"{c['first_call_cold_s']:.2f} s with an empty cache (compiling), "
                     f"{c['first_call_cached_s']:.2f} s with a warm one (cache in {result.get('numba_cache', '?')})")
    return lines


def plot(result: dict[str, Any], path: str) -> None:
    try:
        import matplotlib
        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        from .inputs import MHAInputError
        raise MHAInputError("--plot: matplotlib is not installed (pip install 'mha[plot]')") from None
    fig, ax = plt.subplots(figsize=(6.5, 4))
    for case, style in (("core", "-"), ("core causal", "--")):
        for impl, marker in (("mha", "o"), ("torch sdpa", "s")):
            pts = [(r["T"], r["gflops"]) for r in result["rows"] if r["case"] == case and r["impl"] == impl]
            if pts:
                ax.plot(*zip(*pts), marker + style, label=f"{impl}, {case}")
    ax.axhline(result["sgemm_gflops"], color="gray", lw=0.8, ls=":", label="SGEMM")
    ax.set_xscale("log", base=2)
    ax.set_xlabel("T = S")
    ax.set_ylabel("GFLOP/s (float32, H = 12, d_head = 64)")
    ax.legend(fontsize=8)
    fig.tight_layout()
    fig.savefig(path)
    plt.close(fig)


def main_from_args(args: Any) -> int:
    result = run(quick=args.quick, progress=lambda s: print(s, file=sys.stderr, flush=True),
                 long=getattr(args, "long", False))
    sys.stdout.write(table(result))
    if args.json:
        with open(args.json, "w", encoding="utf-8") as f:
            json.dump(result, f, indent=1)
    if args.plot:
        plot(result, args.plot)
    return 0


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(prog="python -m mha.bench", description=__doc__.splitlines()[0])
    p.add_argument("--quick", action="store_true", help="T up to 1024, one layer width; under a minute")
    p.add_argument("--long", action="store_true", help="also T = S = 65536 (one run, minutes)")
    p.add_argument("--json", help="save the results as JSON")
    p.add_argument("--plot", help="plot GFLOP/s against T (matplotlib)")
    return main_from_args(p.parse_args(argv))


if __name__ == "__main__":
    raise SystemExit(main())
