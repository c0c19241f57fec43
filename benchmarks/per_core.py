"""mha's default path against torch's SDPA on one core each: a comparison that holds on a shared machine.

    python benchmarks/per_core.py [--label NAME] [--max-T 4096]

torch runs with torch.set_num_threads(1), mha with workers=1 (BLAS held to one
thread), both in this thread, and each is timed by the thread's CPU time
(time.thread_time): time spent waiting for a core taken by another process is
not counted, so the ratio t_torch / t_mha is close to what two idle cores give
when both libraries spread evenly over them.  The fastest of several
alternating runs of each is kept.  Writes benchmarks/results/per-core-NAME.txt.
"""

from __future__ import annotations

import argparse
import time

import numpy as np

from mha import fast
from mha.attend import attention
from timing import Report, fastest

def main(argv=None) -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--label", default="interim")
    p.add_argument("--max-T", type=int, default=4096)
    args = p.parse_args(argv)
    import torch
    torch.set_num_threads(1)
    F = torch.nn.functional
    g = np.random.default_rng(0)
    out = Report(f"per-core-{args.label}")

    path = "the compiled pass" if fast.compiled() is not None else \
        f"NumPy's tiles with np.{fast.exponential(np.dtype(np.float32))[0].__name__} ({fast.compiled_missing()})"
    out(f"one core each (CPU time, fastest of alternating runs), float32, B = 1, H = 12, d_head = 64; "
        f"mha's softmax: {path}; torch {torch.__version__}")
    out(f"{'case':<22} {'T':>6} {'torch ns/score':>15} {'mha ns/score':>13} {'torch/mha':>10}")
    cases = [(c, T, None, None) for c in (False, True) for T in (128, 256, 512, 1024, 2048, 4096, 16384)
             if T <= args.max_T]
    cases += [(True, T, 4, None) for T in (1024, 4096) if T <= args.max_T]
    cases += [(True, T, None, 1024) for T in (4096, 8192) if T <= args.max_T]
    for causal, T, G, W in cases:
        q = g.standard_normal((1, 12, T, 64)).astype(np.float32)
        k, v = (g.standard_normal((1, G or 12, T, 64)).astype(np.float32) for _ in range(2))
        tq, tk, tv = (torch.from_numpy(a) for a in (q, k, v))
        kw = {"enable_gqa": True} if G else {}
        if W:
            d = np.arange(T)[:, None] - np.arange(T)[None, :]
            kw["attn_mask"] = torch.from_numpy((d >= 0) & (d < W))
        else:
            kw["is_causal"] = causal

        def theirs():
            with torch.no_grad():
                return F.scaled_dot_product_attention(tq, tk, tv, **kw)

        ours = (lambda: attention(q, k, v, causal=causal, enable_gqa=bool(G), window=W, workers=1))
        scores = 12 * (T * W - W * (W - 1) // 2 if W else T * T / (2 if causal else 1))
        reps = max(2, min(20, int(3e8 / scores)))
        a, b = fastest([theirs, ours], reps, clock=time.thread_time)
        name = ("causal" if causal else "no mask") + (f" GQA 12/{G}" if G else "") + (f" W={W}" if W else "")
        out(f"{name:<22} {T:>6} {a / scores * 1e9:>15.3f} {b / scores * 1e9:>13.3f} {a / b:>10.2f}")
    out.save()
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
