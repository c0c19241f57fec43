"""`mha.ring`: attention with the sequence split over P processes, the K/V blocks passed round a ring.

Each rank holds its rows of Q, K and V (`mha.shards.Layout`: contiguous, the
first T mod P ranks one row more, or zigzag for causal attention).  At each of
P steps it starts sending the K/V block it holds to rank + 1 and receiving the
next one from rank - 1 (`isend`/`irecv`, so the transfer runs while it
computes), merges the tile against the block it holds into its running
(m, l, acc) with the fast path's `merge_tile` (`shards.merge_block`), then waits
for both transfers.  Each tile is the fast path, `mha.attention(...,
return_lse=True)`, on the host, in the inputs' precision (float32 or float64).

torch.distributed carries the blocks: gloo on CPUs; nccl when every rank has a
GPU (the blocks then travel between GPUs and are copied to the host for the
tile).  torch is imported inside the functions that need it.

Start-up: under torchrun (torch.distributed.run) or any launcher that sets
RANK, WORLD_SIZE, MASTER_ADDR and MASTER_PORT, `join` meets the other ranks;
`mha ring --nproc P` (`mha.ring_command`) starts torchrun for you.  Failure: a
rank that dies, does not answer within `timeout` seconds, or never joins ends
every other rank with a `RingError` whose one line names it; nothing waits
longer than the timeout.

Dimension legend: B batch, H query heads, G key/value heads, R this rank's rows,
n the rows of a travelling K/V block, d_k, d_v.
"""

from __future__ import annotations

import json
import os
import time
from dataclasses import dataclass, field
from datetime import timedelta
from typing import Any

import numpy as np

from .inputs import MHAInputError
from .shards import Layout, State, check_key_lengths, check_qkv, merge_block

DEFAULT_TIMEOUT = 120.0      # seconds a rank waits for a peer: a transfer, a step's handshake, the rendezvous
_ENV = ("RANK", "WORLD_SIZE", "MASTER_ADDR", "MASTER_PORT")
GRACE = 2.0                  # seconds a rank that lost a peer waits for the peer's note saying whom *it* lost


class RingError(RuntimeError):
    """A rank failed or never came: raised on every other rank with one line naming it (failed: its rank)."""

    def __init__(self, message: str, failed: int | None = None):
        super().__init__(message)
        self.failed = failed


def _torch():
    # a lost peer makes the store's C++ client log warnings with stack frames; the RingError says it in one line
    os.environ.setdefault("TORCH_CPP_LOG_LEVEL", "FATAL")
    try:
        import torch
        import torch.distributed as dist
    except ImportError:
        raise MHAInputError("ring: needs PyTorch: pip install 'mha[torch]'") from None
    return torch, dist


# ------------------------------------------------------------------ meeting the other ranks

@dataclass
class Session:
    """This process's place in the ring: its rank, the world, the shared key-value store and the device."""

    rank: int
    world: int
    timeout: float
    store: Any = None              # torch.distributed.Store for the handshakes and the failure notes
    device: Any = None             # torch.device the blocks travel on
    calls: dict = field(default_factory=dict)


_SESSION: Session | None = None


def launched() -> bool:
    """Did a launcher (torchrun or another env:// one) start this process?"""
    return all(k in os.environ for k in _ENV)


def join(timeout: float = DEFAULT_TIMEOUT, backend: str = "auto") -> Session:
    """Meet the other ranks named by the env:// variables and start the process group.

    Every rank announces itself in a store (held by rank 0, or by torchrun's
    agent); a rank missing after `timeout` seconds is named in a RingError on
    every rank that came.  backend "auto" is nccl when this rank has a GPU, else gloo.
    """
    global _SESSION
    torch, dist = _torch()
    missing = [k for k in _ENV if k not in os.environ]
    if missing:
        raise MHAInputError(f"ring: {', '.join(missing)} not set; start under torchrun (or mha ring --nproc P)")
    rank, world = int(os.environ["RANK"]), int(os.environ["WORLD_SIZE"])
    addr, port = os.environ["MASTER_ADDR"], int(os.environ["MASTER_PORT"])
    agent = os.environ.get("TORCHELASTIC_USE_AGENT_STORE") == "True"      # torchrun's agent holds the store
    host = rank == 0 and not agent
    # the host waits a little longer than the others, so that they can still read who is missing from its store
    wait = timeout + (2.0 if host else 0.0)
    try:
        tcp = dist.TCPStore(addr, port, world, is_master=host, timeout=timedelta(seconds=wait),
                            wait_for_workers=False)
    except Exception:
        holder = "torchrun's agent" if agent else "rank 0"
        raise RingError(f"rank {rank}: no rendezvous at {addr}:{port} within {timeout:g} s ({holder} holds it)",
                        None if agent else 0) from None
    store = dist.PrefixStore(f"mha-ring/{os.environ.get('TORCHELASTIC_RESTART_COUNT', '0')}", tcp)
    store.set(f"joined/{rank}", "1")
    try:
        store.wait([f"joined/{r}" for r in range(world)], timedelta(seconds=wait))
    except Exception:
        absent = _absent(store, [f"joined/{r}" for r in range(world)])
        raise RingError(f"rank {rank}: the rendezvous did not complete within {timeout:g} s: "
                        f"{_ranks(absent)} of {world} never joined", absent[0] if absent else None) from None
    if backend == "auto":
        backend = "nccl" if torch.cuda.is_available() and dist.is_nccl_available() else "gloo"
    device = torch.device("cpu")
    if backend == "nccl":
        local = int(os.environ.get("LOCAL_RANK", rank % max(1, torch.cuda.device_count())))
        device = torch.device("cuda", local)
        torch.cuda.set_device(device)
    dist.init_process_group(backend, store=dist.PrefixStore("pg", store), rank=rank, world_size=world,
                            timeout=timedelta(seconds=timeout))
    _SESSION = Session(rank, world, timeout, store, device)
    return _SESSION


def linger(timeout: float) -> None:
    """After a RingError on the rank that holds the store (rank 0 without torchrun): keep the store up until every
    other rank has written why it ended (or a few seconds), so that they can name the rank the failure began at."""
    s = _SESSION
    if s is None or s.rank != 0 or os.environ.get("TORCHELASTIC_USE_AGENT_STORE") == "True":
        return
    try:
        s.store.wait([f"quit/{r}" for r in range(1, s.world)], timedelta(seconds=min(timeout, 5.0)))
    except Exception:
        pass


def leave() -> None:
    """End the process group after a successful run (after a RingError, end the process instead)."""
    global _SESSION
    _, dist = _torch()
    if dist.is_initialized():
        dist.destroy_process_group()
    _SESSION = None


def _absent(store: Any, keys: list[str]) -> list[int]:
    """The ranks whose key is not in the store; every rank if the store cannot be read."""
    try:
        return [int(k.rsplit("/", 1)[1]) for k in keys if not store.check([k])]
    except Exception:
        return [int(k.rsplit("/", 1)[1]) for k in keys]


def _ranks(ranks: list[int]) -> str:
    return ("rank " if len(ranks) == 1 else "ranks ") + ", ".join(map(str, ranks))


# ------------------------------------------------------------------ naming a failed rank

class _Guard:
    """Turns a failed transfer or handshake into one RingError naming the rank where the failure began.

    A rank that ends because it lost a peer first writes whom it lost in the
    store (quit/<rank>); a rank that then loses *it* follows those notes back, so
    the rank that died or hung is named, not the neighbour that quit after it.
    """

    def __init__(self, me: int, ranks: list[int], timeout: float, store: Any):
        self.me, self.ranks, self.timeout, self.store = me, ranks, timeout, store

    def origin(self, peer: int, via: int | None = None) -> tuple[int, int | None]:
        """(the failed rank, the neighbour that reported it or None), following the quit notes from peer.

        A peer that quit may close its connections a moment before its note is
        readable, so notes are awaited for up to GRACE seconds in all; a rank that
        died or hangs never writes one."""
        seen, until = {peer}, time.monotonic() + min(GRACE, self.timeout)
        while self.store is not None:
            try:
                self.store.wait([f"quit/{peer}"], timedelta(seconds=max(0.01, until - time.monotonic())))
                lost = int(self.store.get(f"quit/{peer}").decode())
            except Exception:
                break
            if lost in seen:
                break
            via, peer = peer if via is None else via, lost
            seen.add(peer)
        return peer, via

    def note(self, lost: int) -> None:
        """Write quit/<me> = the rank this one lost (the origin, once followed, overwrites it)."""
        if self.store is not None:
            try:
                self.store.set(f"quit/{self.me}", str(lost))
            except Exception:
                pass

    def noted(self) -> tuple[int, int] | None:
        """After a failed collective, (the rank another rank lost, that rank), awaited up to GRACE seconds."""
        until = time.monotonic() + min(GRACE, self.timeout)
        while self.store is not None:
            try:
                for r in self.ranks:
                    if r != self.me and self.store.check([f"quit/{r}"]):
                        return int(self.store.get(f"quit/{r}").decode()), r
            except Exception:
                return None
            if time.monotonic() > until:
                return None
            time.sleep(0.05)
        return None

    def collective(self, tag: str, where: str, collective: Any, *args: Any) -> Any:
        """collective(*args), with this rank's arrival noted in the store (reached/<tag>/<rank>), so that if it
        fails, a rank that never arrived can be named."""
        if self.store is not None:
            try:
                self.store.set(f"reached/{tag}/{self.me}", "1")
            except Exception:
                pass
        try:
            return collective(*args)
        except Exception as e:
            raise self.fail(None, where, e, reached=tag) from None

    def fail(self, peer: int | None, where: str, err: BaseException, timed_out: bool | None = None,
             reached: str | None = None) -> RingError:
        """The RingError for a failure with peer (None: in a collective, where the peer is not known: a rank
        another rank has noted as lost, else one that never reached the collective `reached`)."""
        via = None
        if peer is None:
            note = self.noted()
            absent = [] if note is not None or reached is None or self.store is None else \
                _absent(self.store, [f"reached/{reached}/{r}" for r in self.ranks if r != self.me])
            if note is None and not absent:
                return RingError(f"rank {self.me} ends {where}: another rank failed ({_first_line(err)})")
            peer, via = note if note is not None else (absent[0], None)
        self.note(peer)          # at once: a rank that loses this one next must read whom it lost, not wait GRACE
        failed, via = self.origin(peer, via)
        self.note(failed)
        if timed_out is None:
            timed_out = "timed out" in str(err).lower() or "timeout" in type(err).__name__.lower()
        if failed == self.me:              # this rank was stalled and the others gave up on it
            return RingError(f"rank {self.me} ends {where}: the other ranks stopped waiting for it", failed)
        why = (f"failed (rank {via} stopped after losing it)" if via is not None else
               f"did not answer within {self.timeout:g} s" if timed_out else "is gone (its connection closed)")
        return RingError(f"rank {self.me} ends {where}: rank {failed} {why}", failed)


def _first_line(err: BaseException) -> str:
    text = str(err).strip().splitlines()
    return text[0][:200] if text else type(err).__name__


# ------------------------------------------------------------------ the ring

def ring_attention(q: Any, k: Any, v: Any, *, causal: bool = False, scale: float | None = None,
                   key_lengths: Any = None, zigzag: bool = False, group: Any = None, timeout: float | None = None,
                   block: tuple[int, int] | None = None, return_lse: bool = False,
                   stats: dict | None = None) -> Any:
    """This rank's rows of softmax(q k^T scale) v, the K/V blocks passed round the ring of the group's ranks.

    q [B, H, R, d_k], k [B, G, R, d_k], v [B, G, R, d_v] (or 3-D, one sequence)
    are this rank's rows in the layout (`mha.shards.Layout(T, P, zigzag)`:
    `Layout.take` cuts them from a whole sequence, `Layout.join` puts outputs
    back); T is the sum of every rank's R.  causal: the query at position i sees
    keys j <= i; key_lengths [B]: key j of sequence b is seen only if j <
    key_lengths[b]; G dividing H is grouped-query attention (the K/V heads
    travel).  Returns O [B, H, R, d_v] in the inputs' dtype, and with return_lse
    the log-sum-exp of each row [B, H, R] as well (-inf for a row that sees no
    key).  Every rank of the group must call it with the same settings; a rank
    whose inputs are wrong raises MHAInputError and so do the others, naming it.
    stats, if given, is filled with per-step times and the bytes sent.
    """
    torch, dist = _torch()
    if not dist.is_initialized():
        raise MHAInputError("ring: no process group; call mha.ring.join() first (or start under mha ring)")
    ranks = dist.get_process_group_ranks(group) if group is not None else list(range(dist.get_world_size()))
    me, P = ranks.index(dist.get_rank()), len(ranks)
    session = _SESSION
    timeout = timeout or (session.timeout if session else DEFAULT_TIMEOUT)
    guard = _Guard(dist.get_rank(), ranks, timeout, session.store if session else None)
    q, k, v, lay, kl, scale = _settle(q, k, v, causal=causal, scale=scale, key_lengths=key_lengths, zigzag=zigzag,
                                      block=block, ranks=ranks, me=me, group=group, guard=guard, session=session)
    B, H, R, d_k = q.shape
    G, d_v = k.shape[1], v.shape[3]
    width = d_k + d_v
    dev = session.device if session else torch.device("cpu")
    host, bufs = _buffers(torch, k, v, lay, dev)
    state = State.empty(B, H, R, d_v, q.dtype)
    cur, times = 0, {"compute_s": [], "wait_s": [], "bytes_sent": 0, "scores": 0}
    nxt, prv = (me + 1) % P, (me - 1) % P
    for s in range(P):
        o = lay.owner(me, s)
        n = lay.rows(o)
        pending = []
        if s < P - 1:              # pass this block on, take the next one: both run while the tile is computed
            n_in = lay.rows(lay.owner(me, s + 1))
            try:
                if n:
                    pending.append((dist.isend(bufs[cur][:n], group=group, group_dst=nxt), nxt))
                    times["bytes_sent"] += n * B * G * width * q.dtype.itemsize
                if n_in:
                    pending.append((dist.irecv(bufs[1 - cur][:n_in], group=group, group_src=prv), prv))
            except Exception as e:
                raise guard.fail(ranks[nxt], f"at step {s + 1} of {P}", e) from None
        t0 = time.perf_counter()
        if s == 0:
            K, V = k, v
        else:                      # the block's rows [n, B, G, width] as K [B, G, n, d_k] and V for the fast path
            held = (host[cur][:n] if host else bufs[cur][:n].cpu().numpy()).transpose(1, 2, 0, 3)
            K, V = np.ascontiguousarray(held[..., :d_k]), np.ascontiguousarray(held[..., d_k:])
        step = merge_block(state, q, lay.chunks(me), K, V, lay.chunks(o), scale=scale, causal=causal,
                           key_lengths=kl, block=block)
        t1 = time.perf_counter()
        for work, peer in pending:
            try:
                work.wait(timedelta(seconds=timeout))
            except Exception as e:
                raise guard.fail(ranks[peer], f"at step {s + 1} of {P}", e) from None
        times["compute_s"].append(t1 - t0)
        times["wait_s"].append(time.perf_counter() - t1)
        times["scores"] += step.scores
        cur = 1 - cur
    O, lse = state.finish(in_place=True)
    if stats is not None:
        stats.update(times)
    return (O, lse) if return_lse else O


def _settle(q: Any, k: Any, v: Any, *, causal: bool, scale: float | None, key_lengths: Any, zigzag: bool,
            block: Any, ranks: list[int], me: int, group: Any, guard: _Guard, session: Session | None) -> tuple:
    """The checked inputs, the layout, the key lengths and the scale, once every rank has agreed on them.

    Every rank checks its own inputs, then all compare notes, so that a mistake on one rank stops every rank at
    once with the same message (rather than leaving the others waiting for a block that never comes)."""
    try:
        q, k, v = check_qkv(q, k, v, rows="R")
        B, H, R, d_k = q.shape
        note = {"R": R, "B": B, "H": H, "G": k.shape[1], "d_k": d_k, "d_v": v.shape[3], "dtype": str(q.dtype),
                "causal": bool(causal), "zigzag": bool(zigzag), "scale": scale,
                "block": list(block) if block else None,
                "key_lengths": None if key_lengths is None else np.asarray(key_lengths).tolist()}
    except MHAInputError as e:
        note = {"error": str(e)}
    T = _agree(_handshake(note, ranks, me, group, guard, session), ranks)      # raises on every rank alike
    lay = Layout(T, len(ranks), zigzag)
    kl = check_key_lengths(key_lengths, B, T)
    return q, k, v, lay, kl, 1 / np.sqrt(d_k) if scale is None else float(scale)


def _buffers(torch: Any, k: np.ndarray, v: np.ndarray, lay: Layout, dev: Any) -> tuple[list, list]:
    """The two travelling buffers, (host arrays, tensors), the first holding this rank's own K and V.

    A K/V block travels as one array [n, B, G, d_k + d_v]: its first n rows are contiguous, so exactly the
    block's rows are sent; one buffer is sent while the other receives.  On the CPU the tensors share the host
    arrays' memory; on a GPU they live there.  A single rank computes on the caller's k and v: no buffer."""
    if lay.P == 1:
        return [], []
    B, G, R, d_k = k.shape
    host = [np.empty((max(lay.rows()), B, G, d_k + v.shape[3]), k.dtype) for _ in range(2 if dev.type == "cpu" else 1)]
    host[0][:R, ..., :d_k] = k.transpose(2, 0, 1, 3)                                # [R, B, G, d_k]
    host[0][:R, ..., d_k:] = v.transpose(2, 0, 1, 3)
    if dev.type == "cpu":
        return host, [torch.from_numpy(h) for h in host]
    dtype = torch.float64 if k.dtype == np.float64 else torch.float32
    return [], [torch.from_numpy(host[0]).to(dev), torch.empty(host[0].shape, device=dev, dtype=dtype)]


def _handshake(note: dict, ranks: list[int], me: int, group: Any, guard: _Guard,
               session: Session | None) -> list[dict]:
    """Every rank's note, in group order: through the store (a rank that does not come is named), else a gather."""
    _, dist = _torch()
    key = ",".join(map(str, ranks))
    if session is None or session.store is None:
        notes: list[Any] = [None] * len(ranks)
        try:
            dist.all_gather_object(notes, note, group=group)
        except Exception as e:
            raise guard.fail(None, "before the first step", e) from None
        return notes
    n = session.calls[key] = session.calls.get(key, 0) + 1
    keys = [f"call/{key}/{n}/{r}" for r in ranks]
    session.store.set(keys[me], json.dumps(note))
    try:
        session.store.wait(keys, timedelta(seconds=guard.timeout))
    except Exception as e:
        absent = _absent(session.store, keys)
        raise guard.fail(absent[0] if absent else None, "before the first step", e, timed_out=True) from None
    return [json.loads(session.store.get(k_)) for k_ in keys]


def _agree(notes: list[dict], ranks: list[int]) -> int:
    """T, after checking that every rank brought the same settings; the same MHAInputError on every rank if not."""
    for r, n in zip(ranks, notes):
        if "error" in n:
            raise MHAInputError(f"rank {r}: {n['error']}")
    first = notes[0]
    for r, n in zip(ranks, notes):
        diff = [key for key in first if key != "R" and n[key] != first[key]]
        if diff:
            key = diff[0]
            raise MHAInputError(f"{key}: rank {r} has {n[key]!r}, rank {ranks[0]} has {first[key]!r}; every rank "
                                f"must call ring_attention with the same {key}")
    T = sum(n["R"] for n in notes)
    lay = Layout(T, len(ranks), first["zigzag"])
    for r, n, want in zip(ranks, notes, lay.rows()):
        if n["R"] != want:
            raise MHAInputError(f"q: rank {r} holds {n['R']} rows; {_layout_rule(lay)}")
    return T


def _layout_rule(lay: Layout) -> str:
    rule = (f"the first T mod 2P = {lay.T % (2 * lay.P)} of the 2P chunks one row longer, rank p holding chunks p "
            f"and 2P - 1 - p" if lay.zigzag else f"the first T mod P = {lay.T % lay.P} ranks one row more")
    return f"T = {lay.T} rows over P = {lay.P} ranks gives {lay.rows()} ({rule})"
