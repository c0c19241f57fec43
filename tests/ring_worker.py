"""One rank of the ring tests, started by tests/test_ring.py with RANK, WORLD_SIZE, MASTER_ADDR and MASTER_PORT set.

    python ring_worker.py exact OUT_DIR     every case for P = 1 .. WORLD_SIZE, one process group, a subgroup per P;
                                           writes OUT_DIR/rank<r>.npz (each case's rows of O and lse) and .json
                                           (the errors the mismatch cases raised)
    python ring_worker.py die VICTIM ARGS   `mha ring ARGS` as the command runs it, except that rank VICTIM kills
                                           itself (SIGKILL) when it starts its first tile
"""

from __future__ import annotations

import json
import os
import signal
import sys
from pathlib import Path

import numpy as np

# name -> the case; T is never divisible by P = 2..5 except where noted, d_v differs from d_k in some
CASES = {
    "plain": dict(T=7, B=1, H=2, G=2, d_k=3, d_v=3, causal=False, zigzag=False),
    "causal": dict(T=11, B=2, H=2, G=2, d_k=3, d_v=2, causal=True, zigzag=False),
    "causal_zigzag": dict(T=11, B=2, H=2, G=2, d_k=3, d_v=2, causal=True, zigzag=True),
    "zigzag": dict(T=9, B=1, H=1, G=1, d_k=4, d_v=3, causal=False, zigzag=True),
    "gqa_padding": dict(T=13, B=2, H=4, G=2, d_k=3, d_v=3, causal=True, zigzag=True, key_lengths=[13, 4]),
    "mqa_padding_row": dict(T=7, B=2, H=3, G=1, d_k=2, d_v=2, causal=False, zigzag=False, key_lengths=[0, 5]),
    "sub_tiles": dict(T=29, B=1, H=2, G=1, d_k=3, d_v=2, causal=True, zigzag=True, key_lengths=[23], block=(3, 2)),
    "float32": dict(T=11, B=1, H=4, G=2, d_k=8, d_v=8, causal=True, zigzag=True, dtype="float32"),
}


def inputs(name: str) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """The whole-sequence q, k, v of a case (the same numbers in every process)."""
    c = CASES[name]
    rng = np.random.default_rng(sorted(CASES).index(name))
    q = rng.standard_normal((c["B"], c["H"], c["T"], c["d_k"]))
    k = rng.standard_normal((c["B"], c["G"], c["T"], c["d_k"]))
    v = rng.standard_normal((c["B"], c["G"], c["T"], c["d_v"]))
    dtype = c.get("dtype", "float64")
    return q.astype(dtype), k.astype(dtype), v.astype(dtype)


def exact(out: Path) -> None:
    import torch.distributed as dist
    from mha import ring
    from mha.inputs import MHAInputError
    from mha.shards import Layout
    session = ring.join(timeout=60)
    me, world = session.rank, session.world
    results, errors = {}, {}
    for P in range(1, world + 1):
        group = dist.new_group(list(range(P)))             # every rank creates every subgroup, in the same order
        if me >= P:
            continue
        for name, c in CASES.items():
            q, k, v = inputs(name)
            lay = Layout(c["T"], P, c["zigzag"])
            O, lse = ring.ring_attention(lay.take(q, me), lay.take(k, me), lay.take(v, me), causal=c["causal"],
                                         zigzag=c["zigzag"], key_lengths=c.get("key_lengths"), block=c.get("block"),
                                         group=group, return_lse=True)
            results[f"{name}/{P}/O"], results[f"{name}/{P}/lse"] = O, lse
        if P == 3:                 # a rank with one row too many, then a rank with a wrong width: every rank refuses
            q, k, v = inputs("plain")
            lay = Layout(7, 3)
            for case, (qi, ki) in {"rows": (np.concatenate([lay.take(q, me)] * (2 if me == 1 else 1), axis=-2),
                                            np.concatenate([lay.take(k, me)] * (2 if me == 1 else 1), axis=-2)),
                                   "width": (lay.take(q, me), lay.take(k, me)[..., :2] if me == 2 else
                                             lay.take(k, me))}.items():
                vi = np.concatenate([lay.take(v, me)] * (2 if me == 1 and case == "rows" else 1), axis=-2)
                try:
                    ring.ring_attention(qi, ki, vi, group=group)
                    errors[case] = None
                except MHAInputError as e:
                    errors[case] = str(e)
    dist.barrier()
    np.savez(out / f"rank{me}.npz", **results)
    (out / f"rank{me}.json").write_text(json.dumps(errors))
    ring.leave()


def die(victim: int, argv: list[str]) -> int:
    import mha.ring as ring
    from mha.cli import main
    if int(os.environ["RANK"]) == victim:
        real, calls = ring.merge_block, [0]

        def dying(*args, **kwargs):
            if calls[0] == 0:
                os.kill(os.getpid(), signal.SIGKILL)
            calls[0] += 1
            return real(*args, **kwargs)
        ring.merge_block = dying
    return main(["ring", *argv])


if __name__ == "__main__":
    if sys.argv[1] == "exact":
        exact(Path(sys.argv[2]))
    else:
        sys.exit(die(int(sys.argv[2]), sys.argv[3:]))
