"""Exact attention at real sizes: tiled, with an online softmax and bounded memory.

The reference core (`mha.core`) keeps every T x S matrix so that it can be
explained.  This path computes the same numbers block by block and never
holds more than one [block_q, block_k] tile per worker:

* queries are cut into blocks processed in parallel, one worker per core,
  with BLAS held to one thread inside each worker so the two do not fight;
* for each query block the keys are visited block by block with an online
  softmax (running max m, running sum l, rescaled partial output), as in
  Milakov & Gimelshein (2018), "Online normalizer calculation for softmax",
  and FlashAttention (Dao et al., 2022);
* exponentials are taken in base 2, with log2(e) folded into the query
  scaling (as FlashAttention-2 does): e^s = 2^(s log2 e), and NumPy's float32
  exp2 is twice as fast as its exp and no less accurate (<= 1 ulp measured);
* when the scores provably cannot overflow (|q_i| |k_j| scale + |bias| below
  a bound, by Cauchy-Schwarz) the max-shift is skipped: exp(s) then has no
  overflow, so the result is the same softmax with two passes fewer;
* causal masking skips key blocks above the diagonal; boolean masks, key
  lengths and additive bias are applied per tile (without the shift, masked
  terms are zeroed after the exponential rather than set to -inf before it);
  a row that sees no key gives 0, as the reference does;
* problems under SMALL_WORK FLOPs run on one thread, BLAS threading each
  product, which measured faster than the workers there.

Dimension legend: N = product of the leading axes, T queries, S keys, d = d_head.
"""

from __future__ import annotations

import math
import os
import threading
from concurrent.futures import ThreadPoolExecutor
from contextlib import nullcontext
from functools import lru_cache
from typing import Any

import numpy as np

# Largest score for which exp() cannot overflow and the row's largest term cannot underflow.
_NO_SHIFT_BOUND = {np.dtype(np.float32): 80.0, np.dtype(np.float64): 700.0}
_LOG2_E = 1.4426950408889634             # log2(e): e^s = 2^(s log2 e)
DEFAULT_BLOCK_Q = 1024
DEFAULT_BLOCK_K = 256
CAUSAL_BLOCK_Q = 1024
DIAGONAL_ROWS = 256        # causal: row slices for the triangle along the diagonal
# Below this many FLOPs one thread runs the tiles and BLAS threads each product itself: measured on 2
# cores, T = 512 with H = 8 (0.5 GFLOP) took 4.7 ms that way and 5.5-6 ms on two workers; from about
# 1 GFLOP (T = 1024, H = 4) the two are even and beyond it the workers win.
SMALL_WORK = 1 << 30


@lru_cache(maxsize=1)
def _blas_controller():
    """The BLAS libraries loaded with NumPy, inspected once: threadpoolctl's per-call scan of every
    loaded library costs milliseconds once torch is imported."""
    try:
        from threadpoolctl import ThreadpoolController
    except ImportError:  # pragma: no cover - threadpoolctl is a dependency; stay correct without it
        return None
    return ThreadpoolController().select(user_api="blas")


def _blas_single_thread():
    """Hold BLAS to one thread while our own workers run."""
    controller = _blas_controller()
    return nullcontext() if controller is None else controller.limit(limits=1)


@lru_cache(maxsize=1)
def _cores() -> int:
    return os.cpu_count() or 1          # cached: it reads /sys, 40 us a call here


_EXECUTORS: dict[int, ThreadPoolExecutor] = {}
_EXECUTORS_LOCK = threading.Lock()


def _executor(n: int) -> ThreadPoolExecutor:
    """The process's pool of n worker threads, started on first use and idle (blocked, not spinning) between calls."""
    with _EXECUTORS_LOCK:
        pool = _EXECUTORS.get(n)
        if pool is None:
            pool = _EXECUTORS[n] = ThreadPoolExecutor(n, thread_name_prefix="mha-worker")
        return pool


def _forget_executors() -> None:
    """A forked child inherits the pools' objects but not their threads: start afresh."""
    global _EXECUTORS_LOCK
    _EXECUTORS.clear()
    _EXECUTORS_LOCK = threading.Lock()


if hasattr(os, "register_at_fork"):
    os.register_at_fork(after_in_child=_forget_executors)


def tiled_attention(q: np.ndarray, k: np.ndarray, v: np.ndarray, *, scale: float, mask: np.ndarray | None = None,
                    causal: str = "none", key_lengths: np.ndarray | None = None, bias: np.ndarray | None = None,
                    block_size: int | tuple[int, int] | None = None, workers: int | None = None,
                    out: np.ndarray | None = None, pool: Workers | None = None) -> np.ndarray:
    """softmax(q k^T * scale + bias, masked) v for q [..., T, d], k [..., S, d], v [..., S, d_v].

    Inputs are validated by `mha.attention`; call that.  block_size is the key
    block (or a (query, key) pair).  out, if given, is written in place (any
    strides: `forward` passes a view that is already the heads' concat); pool
    reuses the caller's workers.
    """
    dtype = q.dtype
    batch = np.broadcast_shapes(q.shape[:-2], k.shape[:-2], v.shape[:-2])
    T, S, d_v = q.shape[-2], k.shape[-2], v.shape[-1]
    N = math.prod(batch)
    if isinstance(block_size, tuple):
        bq, bk = block_size
    else:
        # causal: smaller query blocks let more key blocks be skipped above the diagonal
        bq, bk = (DEFAULT_BLOCK_Q if causal == "none" else CAUSAL_BLOCK_Q), (block_size or DEFAULT_BLOCK_K)
    bq, bk = max(1, int(bq)), max(1, int(bk))
    qb, kb, vb = (np.broadcast_to(a, batch + a.shape[-2:]) for a in (q, k, v))
    mb = None if mask is None else np.broadcast_to(mask, batch + (T, S))
    biasb = None if bias is None else np.broadcast_to(bias, batch + (T, S))
    lengths = np.full(batch, S, dtype=np.int64)
    if key_lengths is not None:
        kl = np.asarray(key_lengths)
        lengths = np.broadcast_to(kl.reshape(kl.shape + (1,) * (len(batch) - kl.ndim)), batch).astype(np.int64)
    offset = {"none": None, "top_left": 0, "bottom_right": S - T}[causal]

    if out is None:
        out = np.empty(batch + (T, d_v), dtype=dtype)
    if out.shape != batch + (T, d_v):
        raise ValueError(f"out: shape {list(out.shape)}, expected {list(batch + (T, d_v))}")
    # The no-shift bound, per sequence: |s_ij| <= scale |q_i| |k_j| + max |bias|.  Norms are taken in the
    # input dtype (no float64 copy of q and k) and the bound gets a 1% margin for their rounding.
    q_norm = np.sqrt(np.einsum("...td,...td->...t", qb, qb)).max(axis=-1, initial=0.0).astype(np.float64)
    k_norm = np.sqrt(np.einsum("...sd,...sd->...s", kb, kb)).max(axis=-1, initial=0.0).astype(np.float64)
    bound = 1.01 * abs(scale) * np.broadcast_to(q_norm * k_norm, batch)
    if biasb is not None:
        finite = np.where(np.isfinite(bias), np.abs(bias), 0.0)
        bound = bound + np.broadcast_to(finite.max(axis=(-1, -2)), batch)
    no_shift = np.asarray(bound <= _NO_SHIFT_BOUND[dtype]).reshape(N)

    items = []
    for n in range(N):
        for q0 in range(0, T, bq):
            q1 = min(q0 + bq, T)
            kend = int(lengths.reshape(N)[n])
            if offset is not None:
                kend = min(kend, max(0, q1 - 1 + offset + 1))
            items.append((kend * (q1 - q0), n, q0, q1, kend))
    items.sort(reverse=True)                    # largest first: better balance across workers

    def run(item: tuple) -> None:
        _, n, q0, q1, kend = item
        idx = np.unravel_index(n, batch) if batch else ()
        out[idx][q0:q1] = _query_block(
            qb[idx][q0:q1], kb[idx], vb[idx], scale=scale, q0=q0, kend=kend, bk=bk, offset=offset,
            mask=None if mb is None else mb[idx][q0:q1], bias=None if biasb is None else biasb[idx][q0:q1],
            shift=not bool(no_shift[n]))

    if pool is not None:
        pool.map(run, items)
    else:
        work = 4 * d_v * sum(it[0] for it in items)            # FLOPs: the two products of every tile
        with Workers(workers if workers or work >= SMALL_WORK else 1) as own:
            own.map(run, items)
    return out


class Workers:
    """One thread per core, with BLAS held to one thread inside them, for as long as the block lasts.

    Everything heavy in this module runs on these workers, matrix products
    included: after a multi-threaded BLAS call, OpenBLAS's own threads keep
    spinning for a while (about 2^28 cycles by default) and steal the cores
    from whatever runs next; measured, that slowed the attention that followed
    the projections by 40%.  With one pool for the whole layer they never wake.
    The threads themselves live as long as the process (starting two threads
    and joining them cost 0.5 ms a call, more than a small problem's work).
    """

    def __init__(self, workers: int | None = None):
        self.n = max(1, workers or _cores())
        self._pool: ThreadPoolExecutor | None = None
        self._blas: Any = None

    def __enter__(self) -> "Workers":
        if self.n > 1:
            self._blas = _blas_single_thread()
            self._blas.__enter__()
            self._pool = _executor(self.n)
        return self

    def __exit__(self, *exc: Any) -> None:
        if self._pool is not None:
            self._blas.__exit__(*exc)
            self._pool = self._blas = None

    def map(self, fn: Any, items: list) -> None:
        """fn(item) for every item, spread over the workers; the first error is raised."""
        if self._pool is None or len(items) < 2:
            for it in items:
                fn(it)
        else:
            for _ in self._pool.map(fn, items):
                pass

    def matmul(self, X: np.ndarray, W: np.ndarray, b: np.ndarray | None = None) -> np.ndarray:
        """X W + b for X [..., T, d_in], rows split across the workers (each product single-threaded)."""
        X2 = X.reshape(-1, X.shape[-1])
        out = np.empty((X2.shape[0], W.shape[1]), dtype=np.result_type(X, W))
        rows = -(-X2.shape[0] // self.n)
        spans = [(r, min(r + rows, X2.shape[0])) for r in range(0, X2.shape[0], rows)]

        def part(span: tuple[int, int]) -> None:
            r0, r1 = span
            np.matmul(X2[r0:r1], W, out=out[r0:r1])
            if b is not None:
                out[r0:r1] += b

        self.map(part, spans)
        return out.reshape(X.shape[:-1] + (W.shape[1],))


def _query_block(Q: np.ndarray, K: np.ndarray, V: np.ndarray, *, scale: float, q0: int, kend: int, bk: int,
                 offset: int | None, mask: np.ndarray | None, bias: np.ndarray | None, shift: bool) -> np.ndarray:
    """One block of queries against keys [0, kend) in key blocks of bk; returns [bq, d_v].

    The values carry an extra column of ones, so the one matrix product
    P [V | 1] yields the weighted sum and the row sum l together.  With a
    causal mask, the keys every row may see are swept with the whole block;
    the triangle along the diagonal is swept in thinner row slices, so that
    little is computed only to be masked.
    """
    dtype = Q.dtype
    bq, d_v = Q.shape[0], V.shape[1]
    # [bq, d]: scale and log2(e) folded into the queries, so every score below is in base-2 units
    Qs = Q * dtype.type(scale * _LOG2_E)
    acc = np.zeros((bq, d_v + 1), dtype=dtype)                  # [unnormalised output | running sum l]
    m = np.full(bq, -np.inf, dtype=dtype)                       # running row max (shifted mode)
    v1 = np.ones((bk, d_v + 1), dtype=dtype)                    # [V | 1] for one key block
    # Flat scratch reused by every tile: fresh half-megabyte arrays per tile would be mapped and
    # page-faulted again and again by the allocator, which tripled the cost of small tiles.
    s_flat = np.empty(bq * bk, dtype=dtype)
    pv_flat = np.empty(bq * (d_v + 1), dtype=dtype)
    b_flat = None if bias is None else np.empty(bq * bk, dtype=dtype)
    hide_flat = None if mask is None or not shift else np.empty(bq * bk, dtype=bool)

    def sweep(r0: int, r1: int, k_from: int, k_to: int) -> None:
        rows = slice(r0, r1)
        for k0 in range(k_from, k_to, bk):
            k1 = min(k0 + bk, k_to)
            n = k1 - k0
            s = s_flat[:(r1 - r0) * n].reshape(r1 - r0, n)
            np.matmul(Qs[rows], K[k0:k1].T, out=s)              # [rows, n] scores
            if bias is not None:                                # bias in base-2 units too
                b = b_flat[:(r1 - r0) * n].reshape(r1 - r0, n)
                np.multiply(bias[rows, k0:k1], dtype.type(_LOG2_E), out=b)
                s += b
            crosses = offset is not None and k1 - 1 > q0 + r0 + offset     # the tile crosses the diagonal
            if shift:
                # the max must see only visible scores, so masked ones become -inf before it (a rare path:
                # only logits too large for the no-shift bound come here)
                if mask is not None:
                    hidden = hide_flat[:(r1 - r0) * n].reshape(r1 - r0, n)
                    np.logical_not(mask[rows, k0:k1], out=hidden)
                    np.copyto(s, -np.inf, where=hidden)
                if crosses:
                    s += _diagonal_tile(r1 - r0, n, k0 - q0 - r0 - offset, dtype, additive=True)
                m_new = np.maximum(m[rows], s.max(axis=1))
                m_safe = np.where(m_new == -np.inf, 0.0, m_new).astype(dtype)
                acc[rows] *= np.exp2(m[rows] - m_safe)[:, None]  # e^(m_old - m_new) rescales output and l
                s -= m_safe[:, None]
                m[rows] = m_new
                np.exp2(s, out=s)
            else:
                # every score is bounded, masked ones included, so exp2 first and zero the masked terms
                # after: NumPy's exp2 is 2-3x slower on -inf, and a masked copy with a random mask costs
                # more than the tile's two matrix products
                np.exp2(s, out=s)
                if mask is not None:
                    np.multiply(s, mask[rows, k0:k1], out=s)
                if crosses:
                    s *= _diagonal_tile(r1 - r0, n, k0 - q0 - r0 - offset, dtype, additive=False)
            v1[:n, :d_v] = V[k0:k1]
            pv = pv_flat[:(r1 - r0) * (d_v + 1)].reshape(r1 - r0, d_v + 1)
            np.matmul(s, v1[:n], out=pv)
            acc[rows] += pv

    if offset is None:
        sweep(0, bq, 0, kend)
    else:
        # keys j < q0 + offset are seen by every row of the block; stopping there (not one key later)
        # keeps the key blocks aligned with the query blocks, so only one block per slice crosses the diagonal
        seen_by_all = min(kend, max(0, q0 + offset))
        sweep(0, bq, 0, seen_by_all)
        for r0 in range(0, bq, DIAGONAL_ROWS):
            r1 = min(r0 + DIAGONAL_ROWS, bq)
            sweep(r0, r1, seen_by_all, min(kend, max(0, q0 + r1 - 1 + offset + 1)))
    # final division; a row that saw no key has l = 0 and gives 0
    l = acc[:, d_v]
    return acc[:, :d_v] / np.where(l > 0, l, 1)[:, None]


@lru_cache(maxsize=512)
def _diagonal_tile(rows: int, cols: int, delta: int, dtype: np.dtype, additive: bool) -> np.ndarray:
    """[rows, cols] for a tile crossing the causal diagonal (delta = k0 - q0 - offset).

    Key k0 + j lies after query q0 + i + offset where j + delta > i.  additive:
    -inf there and 0 elsewhere, to add to scores; else 0 there and 1
    elsewhere, to multiply exponentials by.  The pattern depends only on the
    tile's shape and its distance from the diagonal, so it is built once and
    shared by every head and worker.
    """
    after = np.arange(cols)[None, :] + delta > np.arange(rows)[:, None]
    out = (np.where(after, -np.inf, 0.0) if additive else np.where(after, 0.0, 1.0)).astype(dtype)
    out.setflags(write=False)
    return out


def online_softmax_steps(s: np.ndarray, v: np.ndarray, block: int) -> list[dict[str, np.ndarray]]:
    """The online softmax of one head, key block by key block, with every running quantity.

    s is [T, S] (scaled, -inf where masked), v is [S, d].  Returns one record per
    key block: m (running max), alpha (e^(m_old - m_new)), l (running sum) and
    acc (unnormalised output), then the final output acc / l in the last record.
    This is the explainable twin of `_query_block` (always with the max-shift).
    """
    T, S = s.shape
    m = np.full(T, -np.inf)
    l = np.zeros(T)
    acc = np.zeros((T, v.shape[1]))
    steps = []
    for k0 in range(0, S, block):
        k1 = min(k0 + block, S)
        blk = s[:, k0:k1]
        m_new = np.maximum(m, blk.max(axis=1))
        m_safe = np.where(m_new == -np.inf, 0.0, m_new)
        alpha = np.exp(np.where(m == -np.inf, -np.inf, m - m_safe))
        p = np.exp(blk - m_safe[:, None])
        l = l * alpha + p.sum(axis=1)
        acc = acc * alpha[:, None] + p @ v[k0:k1]
        steps.append({"keys": (k0, k1), "m_old": m, "m": m_new, "alpha": alpha, "p": p, "l": l, "acc": acc})
        m = m_new
    out = acc / np.where(l > 0, l, 1.0)[:, None]
    steps[-1]["out"] = out
    return steps


def forward(data: Any, **kwargs: Any) -> np.ndarray:
    """Kept for callers of the old name; the layer now lives in `mha.attend.forward`."""
    from .attend import forward as layer_forward
    return layer_forward(data, **kwargs)


def forward_config(cfg: Any, *, block_size: int | tuple[int, int] | None = None,
                   workers: int | None = None) -> np.ndarray:
    """A plain layer (X, projections, H heads) on the tiled path, returning Y [B, T, d_out].

    The projections and the attention share one set of workers, and the
    attention writes each head's output straight into its columns of the concat.
    """
    H = cfg.n_heads
    projections = ((cfg.X, cfg.W_Q, cfg.b_Q),                                   # Q, K, V: [B, T|S, H*d]
                   (cfg.X if cfg.key is None else cfg.key, cfg.W_K, cfg.b_K),
                   (cfg.X if cfg.value is None else cfg.value, cfg.W_V, cfg.b_V))
    work = layer_flops(cfg.B, cfg.T, cfg.S, cfg.W_Q.shape[1], H)
    with Workers(workers if workers or work >= SMALL_WORK else 1) as pool:
        # head views of the projections: the tiles' products read them with a row stride of H*d
        Q, K, V = (_split(pool.matmul(*p), H) for p in projections)
        O_concat = np.empty((cfg.B, cfg.T, V.shape[1] * V.shape[3]), dtype=V.dtype)   # [B, T, H * d_v]
        tiled_attention(Q, K, V, scale=cfg.effective_scale, mask=cfg.mask, causal=cfg.causal,
                        key_lengths=cfg.key_lengths, bias=cfg.bias, block_size=block_size,
                        out=_split(O_concat, H), pool=pool)
        Y = O_concat if cfg.W_O is None else pool.matmul(O_concat, cfg.W_O, cfg.b_O)   # [B, T, d_out]
    return Y


def _split(M: np.ndarray, n_heads: int) -> np.ndarray:
    """[B, T, n*d] -> [B, n, T, d] as a view (mha.core.split_heads, without importing the core)."""
    B, T, width = M.shape
    return M.reshape(B, T, n_heads, width // n_heads).transpose(0, 2, 1, 3)


def layer_flops(B: int, T: int, S: int, d_model: int, H: int) -> int:
    """A layer's FLOPs as the benchmark counts them: 4 B H T S d_head for attention, 8 B T d_model^2 for
    the four projections (taken as T rows each)."""
    return 4 * B * H * T * S * (d_model // H) + 8 * B * T * d_model ** 2
