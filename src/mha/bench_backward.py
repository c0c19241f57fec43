"""`mha bench --backward`: mha.attention_backward against the backward of torch's SDPA, and its memory.

What is measured (float32, B = 1, H = 12, d_head = 64, standard-normal q, k, v and dO):

* the backward alone, on both sides: mha.attention_backward given the forward's
  out and lse, against torch.autograd.grad of scaled_dot_product_attention's
  output (its graph kept from one forward), T = S = 1024 and 4096, causal and
  not; "vs torch" is the median over alternating blocks of t_torch / t_mha, as
  in `mha bench`;
* the memory of one backward call at T = S = 32 768 (tracemalloc's peak of
  NumPy's allocations), against its inputs (q, k, v, out, dO) and gradients
  (dq, dk, dv): a T × S float32 matrix per head would need 48 GiB.
"""

from __future__ import annotations

import sys
import time
from typing import Any, Callable

import numpy as np

from .bench import D_HEAD, _blocks, _peak_mib, _torch, machine, paired

SWEEP, QUICK_SWEEP = (1024, 4096), (256, 1024)
HEADS = 12
MEMORY_T, QUICK_MEMORY_T = 32768, 4096


def _arrays(T: int, H: int, seed: int = 0) -> tuple[np.ndarray, ...]:
    g = np.random.default_rng(seed)
    return tuple(g.standard_normal((1, H, T, D_HEAD)).astype(np.float32) for _ in range(4))


def run(quick: bool = False, progress: Callable[[str], None] = print, memory: bool = True) -> dict[str, Any]:
    """Every backward case and the memory measurement, as a JSON-ready dict."""
    from .fast_backward import flash_forward, prepare
    from .grad import attention_backward
    torch = _torch()
    result: dict[str, Any] = {"machine": machine(), "quick": quick, "rows": []}
    for causal in (False, True):
        for T in (QUICK_SWEEP if quick else SWEEP):
            progress(f"backward{' causal' if causal else ''}: B=1 H={HEADS} T=S={T} d={D_HEAD}, float32")
            q, k, v, dO = _arrays(T, HEADS)
            a, _ = prepare(q, k, v, scale=D_HEAD ** -0.5, causal="top_left" if causal else "none", mask=None,
                           bias=None, key_lengths=None, window=None, alibi=None, groups=1)
            o, lse = flash_forward(a)
            ours = (lambda: attention_backward(q, k, v, dO, out=o, lse=lse, causal=causal))
            peer = None if torch is None else _torch_backward(torch, q, k, v, dO, causal)
            pairs, per_block = (2, 1) if quick and T > 512 else _blocks(T)
            t, tt, ratio = paired(ours, peer, pairs, per_block)
            flops = 2 * 5 * HEADS * T * T * D_HEAD / (2 if causal else 1)       # five products per score
            result["rows"].append({"case": "backward causal" if causal else "backward", "T": T, "mha_s": t,
                                   "torch_s": tt, "vs_torch": ratio, "gflops": flops / t / 1e9,
                                   "runs": pairs * per_block})
    if memory:
        result["memory"] = measure_memory(QUICK_MEMORY_T if quick else MEMORY_T, progress)
    return result


def _torch_backward(torch: Any, q, k, v, dO, causal: bool) -> Callable[[], Any]:
    """torch.autograd.grad of SDPA's output for dO, the forward's graph kept: the backward alone."""
    tq, tk, tv = (torch.from_numpy(a).requires_grad_() for a in (q, k, v))
    out = torch.nn.functional.scaled_dot_product_attention(tq, tk, tv, is_causal=causal)
    tdo = torch.from_numpy(dO)
    return lambda: torch.autograd.grad(out, (tq, tk, tv), tdo, retain_graph=True)


def measure_memory(T: int, progress: Callable[[str], None] = print) -> dict[str, Any]:
    """Peak NumPy memory of one causal backward call at T = S, beside what its inputs and gradients hold."""
    from .fast_backward import flash_forward, prepare
    from .grad import attention_backward
    progress(f"backward memory: B=1 H={HEADS} T=S={T} d={D_HEAD}, causal, float32 (one call)")
    q, k, v, dO = _arrays(T, HEADS)
    a, _ = prepare(q, k, v, scale=D_HEAD ** -0.5, causal="top_left", mask=None, bias=None, key_lengths=None,
                   window=None, alibi=None, groups=1)
    o, lse = flash_forward(a)
    t0 = time.perf_counter()
    peak = _peak_mib(lambda: attention_backward(q, k, v, dO, out=o, lse=lse, causal=True))
    seconds = time.perf_counter() - t0
    one = q.nbytes / 2 ** 20
    return {"T": T, "seconds": seconds, "peak_mib": peak, "inputs_mib": 5 * one + lse.nbytes / 2 ** 20,
            "gradients_mib": 3 * one, "beyond_gradients_mib": peak - 3 * one,
            "t_by_s_matrix_gib": HEADS * T * T * 4 / 2 ** 30}


def table(result: dict[str, Any]) -> str:
    head = f"{'case':<16} {'T':>6} {'mha':>10} {'torch':>10} {'vs torch':>9} {'GFLOP/s':>8}"
    lines = [head, "-" * len(head)]
    for r in result["rows"]:
        torch_ms = "-" if r["torch_s"] is None else f"{r['torch_s'] * 1e3:.1f}ms"
        vs = "no torch" if r["vs_torch"] is None else f"{r['vs_torch']:.2f}x"
        lines.append(f"{r['case']:<16} {r['T']:>6} {r['mha_s'] * 1e3:>8.1f}ms {torch_ms:>10} {vs:>9} "
                     f"{r['gflops']:>8.1f}")
    lines.append("")
    lines.append("mha: mha.attention_backward(q, k, v, dO, out=, lse=); torch: autograd.grad of "
                 "scaled_dot_product_attention; vs torch: median over alternating blocks of t_torch / t_mha")
    m = result["machine"]
    lines.append(f"cpu: {m['cpu']}, {m['cores']} cores; numpy {m['numpy']}; torch {m.get('torch')}")
    if "memory" in result:
        mem = result["memory"]
        lines.append(f"memory at T = S = {mem['T']} (causal, {mem['seconds']:.0f} s): peak {mem['peak_mib']:.0f} MiB "
                     f"allocated during the call, of which the gradients dq, dk, dv are {mem['gradients_mib']:.0f} "
                     f"MiB: {mem['beyond_gradients_mib']:.0f} MiB beyond them (inputs q, k, v, out, dO, lse: "
                     f"{mem['inputs_mib']:.0f} MiB, held before the call); a T x S matrix would need "
                     f"{mem['t_by_s_matrix_gib']:.0f} GiB")
    return "\n".join(lines) + "\n"


def main_from_args(args: Any) -> int:
    import json
    result = run(quick=args.quick, progress=lambda s: print(s, file=sys.stderr, flush=True))
    sys.stdout.write(table(result))
    if args.json:
        with open(args.json, "w", encoding="utf-8") as f:
            json.dump(result, f, indent=1)
    return 0
