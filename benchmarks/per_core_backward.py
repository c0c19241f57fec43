"""mha's backward against torch's SDPA backward on one core each: a comparison that holds on a shared machine.

    python benchmarks/per_core_backward.py [--label NAME] [--T 1024 2048] [--reps 5]

torch runs with torch.set_num_threads(1) (autograd.grad of SDPA's output, the
forward's graph kept), mha with workers=1 (mha.attention_backward given the
forward's out and lse, BLAS held to one thread); both run in this thread and
are timed by the thread's CPU time (time.thread_time), so time spent waiting
for a core taken by another process is not counted.  The fastest of several
alternating runs of each is kept.  Writes benchmarks/results/per-core-backward-NAME.txt.
"""

from __future__ import annotations

import argparse
import time

import numpy as np

import mha
from mha import fast
from mha.grad import attention_backward
from timing import Report, fastest


def main(argv=None) -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--label", default="interim")
    p.add_argument("--T", type=int, nargs="+", default=[1024, 2048, 4096])
    p.add_argument("--reps", type=int, default=5)
    p.add_argument("--save", action="store_true", help="write benchmarks/results/per-core-backward-LABEL.txt")
    args = p.parse_args(argv)
    import torch
    torch.set_num_threads(1)
    g = np.random.default_rng(0)
    out = Report(f"per-core-backward-{args.label}")
    path = "the compiled pass" if fast.compiled() is not None else f"NumPy ({fast.compiled_missing()})"
    out(f"backward, one core each (CPU time, fastest of {args.reps} alternating runs), float32, B = 1, H = 12, "
        f"d_head = 64; mha's tile step: {path}; torch {torch.__version__}")
    out(f"{'case':<10} {'T':>6} {'torch ns/score':>15} {'mha ns/score':>13} {'torch/mha':>10}")
    for causal in (False, True):
        for T in args.T:
            q, k, v, dO = (g.standard_normal((1, 12, T, 64)).astype(np.float32) for _ in range(4))
            o, lse = mha.attention(q, k, v, causal=causal, return_lse=True)
            tq, tk, tv = (torch.from_numpy(a).requires_grad_() for a in (q, k, v))
            t_out = torch.nn.functional.scaled_dot_product_attention(tq, tk, tv, is_causal=causal)
            tdo = torch.from_numpy(dO)

            def theirs():
                return torch.autograd.grad(t_out, (tq, tk, tv), tdo, retain_graph=True)

            def ours():
                return attention_backward(q, k, v, dO, out=o, lse=lse, causal=causal, workers=1)

            scores = 12 * T * T / (2 if causal else 1)
            a, b = fastest([theirs, ours], args.reps, clock=time.thread_time)
            out(f"{'causal' if causal else 'no mask':<10} {T:>6} {a / scores * 1e9:>15.3f} {b / scores * 1e9:>13.3f} "
                f"{a / b:>10.2f}")
    if args.save:
        out.save()
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
