"""The backward pass at real sizes: FlashAttention-2's recomputation over tiles, in NumPy, no T × S matrix kept.

From the forward only O and the log-sum-exp of each score row, lse_i = log Σ_j e^(s_ij),
are kept.  The backward then recomputes the weights tile by tile, P = e^(S − lse), and
with D_i = Σ_d dO_id O_id (one number per query row, Dao 2023, "FlashAttention-2", Alg. 2):

    dV_j += P_ijᵀ dO_i     dP_ij = dO_i V_jᵀ     dS_ij = P_ij ⊙ (dP_ij − D_i)
    dQ_i += dS_ij K_j      dK_j += dS_ijᵀ Q_i    (both times the scale at the end)

Two extra columns fold the row constants into the products: [Q·scale | −lse] [K | 1]ᵀ is S − lse,
and [dO | −D] [V | 1]ᵀ is dP − D, so each tile costs five products, one exponential and one
multiplication (`tile_grads`, the one place a compiled pass would replace).  An item is one
sequence and one query head: it owns its rows of dQ and its head's share of dK and dV (summed
over a group of query heads under GQA), so the items run on the forward's team of threads
without locks.  Every variant of the forward is here: masks, padding, causal alignments,
windows (key blocks outside the band are skipped), bias, ALiBi, GQA.

Dimension legend: B batch, H query heads, G key/value heads, T queries, S keys, d and d_v the widths.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from functools import lru_cache
from typing import Any

import numpy as np

from . import fast
from .inputs import MHAInputError

ROWS = 256          # queries per tile
KEYS = 512          # keys per tile: a [256, 512] float32 tile is 512 KiB, in the range the forward measured flat


@dataclass(frozen=True)
class Grads:
    """dq [B, H, T, d], dk [B, G, S, d], dv [B, G, S, d_v] of attention for one upstream dO."""

    dq: np.ndarray
    dk: np.ndarray
    dv: np.ndarray


def tile_grads(s: np.ndarray, dp: np.ndarray, hidden: np.ndarray | None, exp: Any) -> tuple[np.ndarray, np.ndarray]:
    """The per-tile step, in place: s = S − lse (in the exponential's units) becomes P = e^(S − lse), and
    dp = dP − D becomes dS = P ⊙ (dP − D).  Masked entries (hidden) are set to −inf first, so they give
    P = 0 and dS = 0 exactly, even where their raw score is far above the row's lse."""
    if hidden is not None:
        np.copyto(s, -np.inf, where=hidden)
    exp(s, out=s)
    np.multiply(dp, s, out=dp)
    return s, dp


class TiledAttention:
    """One call's arrays and mask settings, shared by the forward (O, lse) and the backward items."""

    def __init__(self, q, k, v, *, scale, causal, offset, window, slopes, mask, bias, lengths, rows, keys):
        self.q, self.k, self.v = q, k, v
        B, H, T, d = q.shape
        self.B, self.H, self.T, self.S, self.d, self.d_v = B, H, T, k.shape[2], d, v.shape[3]
        self.rep = H // k.shape[1]
        self.dtype = np.result_type(q, k, v)
        self.exp, factor = fast.exponential(self.dtype)
        self.factor = float(factor)
        self.scale = float(scale)
        self.causal, self.offset, self.window = causal, offset, window
        self.slopes = None if slopes is None else np.asarray(slopes, dtype=np.float64) * self.factor
        self.mask = None if mask is None else np.broadcast_to(mask, (B, H, T, self.S))
        self.bias = None if bias is None else np.broadcast_to(bias, (B, H, T, self.S))
        self.lengths = None if lengths is None else np.minimum(np.broadcast_to(lengths, (B, H)), self.S)
        self.rows, self.keys = rows, keys

    # the band of keys that query i (at position i + offset) may see: [lo(i), hi(i)]
    def lo(self, i: int) -> int:
        return 0 if self.window is None else max(0, i + self.offset - self.window + 1)

    def hi(self, i: int) -> int:
        if self.causal:
            return min(self.S - 1, i + self.offset)
        return self.S - 1 if self.window is None else min(self.S - 1, i + self.offset + self.window - 1)

    def key_range(self, b: int, h: int, i0: int, i1: int) -> tuple[int, int]:
        end = self.hi(i1 - 1) + 1
        if self.lengths is not None:
            end = min(end, int(self.lengths[b, h]))
        return self.lo(i0), end

    def hidden(self, b: int, h: int, i0: int, i1: int, k0: int, k1: int) -> np.ndarray | None:
        """[r, n] bool, True where query i0.. may not see key k0.., or None when the whole tile is visible."""
        out = None if self.mask is None else ~self.mask[b, h, i0:i1, k0:k1]
        if k0 < self.lo(i1 - 1) or k1 - 1 > self.hi(i0):                      # the tile crosses the band's edge
            band = _outside_band(i1 - i0, k1 - k0, i0 + self.offset - k0, self.window, self.causal)
            out = band if out is None else out | band
        if self.lengths is not None and self.lengths[b, h] < k1:
            pad = np.arange(k0, k1)[None, :] >= self.lengths[b, h]
            out = pad if out is None else out | pad
        return out

    def add_bias(self, s: np.ndarray, b: int, h: int, i0: int, i1: int, k0: int, k1: int) -> None:
        """Add the bias and ALiBi's −slope·|p_i − j| to a tile of scores, in the exponential's units."""
        if self.bias is not None:
            with np.errstate(invalid="ignore"):
                s += self.bias[b, h, i0:i1, k0:k1] * self.factor
        if self.slopes is not None:
            dist = np.abs(np.arange(i0, i1)[:, None] + self.offset - np.arange(k0, k1)[None, :])
            s -= (self.slopes[h] * dist).astype(s.dtype)

    def blocks(self, b: int, h: int):
        """(i0, i1, k0, k1) of every tile of one head that holds a visible key, query blocks outermost."""
        for i0 in range(0, self.T, self.rows):
            i1 = min(i0 + self.rows, self.T)
            start, end = self.key_range(b, h, i0, i1)
            for k0 in range(start, end, self.keys):
                yield i0, i1, k0, min(k0 + self.keys, end)


@lru_cache(maxsize=64)
def _outside_band(rows: int, cols: int, delta: int, window: int | None, causal: bool) -> np.ndarray:
    """[rows, cols] bool, True outside the band, for a tile whose first query sits delta positions after its
    first key (p_i - j = i - j + delta).  Shared, read-only, by every head and thread: aligned tiles along
    the causal diagonal all have the same delta."""
    before = np.arange(rows)[:, None] - np.arange(cols)[None, :] + delta          # p_i - j
    inside = np.ones((rows, cols), dtype=bool)
    if causal:
        inside &= before >= 0
    if window is not None:
        inside &= (before < window) if causal else (np.abs(before) < window)
    out = ~inside
    out.setflags(write=False)
    return out


# ------------------------------------------------------------------ the forward, keeping lse

def _forward_item(a: TiledAttention, o: np.ndarray, lse: np.ndarray, b: int, h: int) -> None:
    """O and lse of one head by an online softmax over key blocks (in the exponential's units, then natural)."""
    g, dt = h // a.rep, a.dtype
    qs = (a.q[b, h] * dt.type(a.scale * a.factor)).astype(dt, copy=False)
    K, V = a.k[b, g], a.v[b, g]
    for i0 in range(0, a.T, a.rows):
        i1 = min(i0 + a.rows, a.T)
        start, end = a.key_range(b, h, i0, i1)
        m = np.full((i1 - i0, 1), -np.inf, dtype=dt)
        l = np.zeros((i1 - i0, 1), dtype=dt)
        acc = np.zeros((i1 - i0, a.d_v), dtype=dt)
        for k0 in range(start, end, a.keys):
            k1 = min(k0 + a.keys, end)
            s = qs[i0:i1] @ K[k0:k1].T
            a.add_bias(s, b, h, i0, i1, k0, k1)
            hid = a.hidden(b, h, i0, i1, k0, k1)
            if hid is not None:
                np.copyto(s, -np.inf, where=hid)
            m_new = np.maximum(m, s.max(axis=1, keepdims=True))
            m_safe = np.where(m_new == -np.inf, 0, m_new).astype(dt)
            alpha = a.exp(m - m_safe)
            a.exp(s - m_safe, out=s)
            l = l * alpha + s.sum(axis=1, keepdims=True)
            acc = acc * alpha + s @ V[k0:k1]
            m = m_new
        seen = l > 0
        o[b, h, i0:i1] = np.where(seen, acc / np.where(seen, l, 1), 0)
        with np.errstate(divide="ignore"):
            lse[b, h, i0:i1] = np.where(seen, m / a.factor + np.log(np.where(seen, l, 1)), -np.inf)[:, 0]


# ------------------------------------------------------------------ the backward

def _backward_item(a: TiledAttention, o, dO, lse, dq, dk_h, dv_h, b: int, h: int) -> None:
    """dq[b, h] and head h's share of dK, dV (into dk_h[b, h], dv_h[b, h]) by tiles, P recomputed from lse."""
    g, dt, d, dv = h // a.rep, a.dtype, a.d, a.d_v
    D = np.einsum("td,td->t", dO[b, h], o[b, h]).astype(dt)                 # [T] rowsum(dO ⊙ O)
    safe = np.where(np.isfinite(lse[b, h]), lse[b, h], np.inf)             # a row that saw no key: P = 0
    qa = np.empty((a.T, d + 1), dtype=dt)                                   # [Q·scale | −lse], exp units
    np.multiply(a.q[b, h], dt.type(a.scale * a.factor), out=qa[:, :d])
    qa[:, d] = -safe * a.factor
    doa = np.empty((a.T, dv + 1), dtype=dt)                                 # [dO | −D]
    doa[:, :dv], doa[:, dv] = dO[b, h], -D
    ka = np.empty((a.S, d + 1), dtype=dt)                                   # [K | 1]
    ka[:, :d], ka[:, d] = a.k[b, g], 1
    va = np.empty((a.S, dv + 1), dtype=dt)                                  # [V | 1]
    va[:, :dv], va[:, dv] = a.v[b, g], 1
    Q, K = a.q[b, h], a.k[b, g]
    dQ, dK, dV = dq[b, h], dk_h[b, h], dv_h[b, h]
    dQ[...] = 0
    dK[...] = 0
    dV[...] = 0
    n = a.rows * a.keys
    s_buf, p_buf = np.empty(n, dtype=dt), np.empty(n, dtype=dt)
    t_q, t_k, t_v = np.empty((a.rows, d), dt), np.empty((a.keys, d), dt), np.empty((a.keys, dv), dt)
    for i0, i1, k0, k1 in a.blocks(b, h):
        r, c = i1 - i0, k1 - k0
        s = np.matmul(qa[i0:i1], ka[k0:k1].T, out=s_buf[:r * c].reshape(r, c))          # S − lse
        if a.bias is not None or a.slopes is not None:
            a.add_bias(s, b, h, i0, i1, k0, k1)
        dp = np.matmul(doa[i0:i1], va[k0:k1].T, out=p_buf[:r * c].reshape(r, c))        # dP − D
        P, dS = tile_grads(s, dp, a.hidden(b, h, i0, i1, k0, k1), a.exp)
        dV[k0:k1] += np.matmul(P.T, dO[b, h, i0:i1], out=t_v[:c])
        dQ[i0:i1] += np.matmul(dS, K[k0:k1], out=t_q[:r])
        dK[k0:k1] += np.matmul(dS.T, Q[i0:i1], out=t_k[:c])
    dQ *= dt.type(a.scale)
    dK *= dt.type(a.scale)


def flash_forward(a: TiledAttention, workers: int | None = None) -> tuple[np.ndarray, np.ndarray]:
    """O [B, H, T, d_v] and lse [B, H, T] (natural log; −inf for a row that sees no key)."""
    o = np.empty((a.B, a.H, a.T, a.d_v), dtype=a.dtype)
    lse = np.empty((a.B, a.H, a.T), dtype=a.dtype)
    items = [(b, h) for b in range(a.B) for h in range(a.H)]
    with np.errstate(over="ignore", invalid="ignore"):
        fast.team(workers or _workers(a)).run(lambda it: _forward_item(a, o, lse, *it), items)
    return o, lse


def flash_backward(a: TiledAttention, o: np.ndarray, dO: np.ndarray, lse: np.ndarray,
                   workers: int | None = None) -> Grads:
    """dq, dk, dv from the forward's O and lse: P recomputed tile by tile, no T × S matrix."""
    B, H, G = a.B, a.H, a.H // a.rep
    dq = np.empty((B, H, a.T, a.d), dtype=a.dtype)
    if a.rep == 1:
        dk, dv = np.empty((B, G, a.S, a.d), a.dtype), np.empty((B, G, a.S, a.d_v), a.dtype)
        dk_h, dv_h = dk, dv
    else:       # each query head's share, summed over its group after (GQA)
        dk_h, dv_h = np.empty((B, H, a.S, a.d), a.dtype), np.empty((B, H, a.S, a.d_v), a.dtype)
    items = [(b, h) for b in range(B) for h in range(H)]
    with np.errstate(over="ignore", invalid="ignore"):
        fast.team(workers or _workers(a)).run(lambda it: _backward_item(a, o, dO, lse, dq, dk_h, dv_h, *it), items)
    if a.rep > 1:
        dk = dk_h.reshape(B, G, a.rep, a.S, a.d).sum(axis=2)
        dv = dv_h.reshape(B, G, a.rep, a.S, a.d_v).sum(axis=2)
    return Grads(dq, dk, dv)


def _workers(a: TiledAttention) -> int:
    work = a.B * a.H * a.T * a.S * (a.d + a.d_v)
    return 1 if work < fast.ONE_THREAD_WORK else fast.cores()


def check_tile(block: Any, banded: bool = False) -> tuple[int, int]:
    """(queries, keys) per tile from None, one size for both, or a pair; each a whole number >= 1.  By default
    a causal mask or a window (banded) gets square tiles, so that one tile per query block crosses its edge."""
    if block is None:
        return (ROWS, ROWS) if banded else (ROWS, KEYS)
    if isinstance(block, (tuple, list)) and len(block) == 2:
        return fast.check_block_size(block[0]), fast.check_block_size(block[1])
    size = fast.check_block_size(block)
    return size, size


def prepare(q, k, v, *, scale: float, causal: str, mask, bias, key_lengths, window, alibi, groups: int,
            block: Any = None) -> tuple[TiledAttention, tuple[int, ...]]:
    """The kernel's view [B, H, T, d] of validated per-head arrays with broadcasting leading axes (as
    `mha.attention` takes them), and those leading axes to restore the caller's shape."""
    T, S = q.shape[-2], k.shape[-2]
    kv_lead = k.shape[:-3] + (k.shape[-3] * groups,) if groups > 1 else k.shape[:-2]
    v_lead = v.shape[:-3] + (v.shape[-3] * groups,) if groups > 1 else v.shape[:-2]
    L = np.broadcast_shapes(q.shape[:-2], kv_lead, v_lead)
    B, H = (math.prod(L[:-1]), L[-1]) if L else (1, 1)
    G = H // groups

    def heads(x, lead, n, tail):
        if x is None or x.shape == (B, n) + tail:
            return x
        return np.ascontiguousarray(np.broadcast_to(x, lead + tail).reshape((B, n) + tail))

    kv_lead = (L[:-1] + (G,)) if L else ()
    lengths = None
    if key_lengths is not None:
        kl = np.asarray(key_lengths)
        lengths = np.broadcast_to(kl.reshape(kl.shape + (1,) * (len(L) - kl.ndim)), L).reshape(B, H)
    rows, keys = check_tile(block, banded=causal != "none" or window is not None)
    slopes = None
    if alibi is not None:
        from .core import alibi_slopes
        slopes = alibi_slopes(H) if isinstance(alibi, str) else alibi
    def scores_shaped(x):
        """A mask or bias as [B, H, T, S]: a broadcast view unless more than two leading axes must merge."""
        if x is None:
            return None
        return np.broadcast_to(x, (B, H, T, S)) if len(L) <= 2 else np.broadcast_to(x, L + (T, S)).reshape(B, H, T, S)

    a = TiledAttention(heads(q, L, H, q.shape[-2:]), heads(k, kv_lead, G, k.shape[-2:]),
                       heads(v, kv_lead, G, v.shape[-2:]), scale=scale, causal=causal != "none",
                       offset=0 if causal == "top_left" else S - T, window=window, slopes=slopes,
                       mask=scores_shaped(mask), bias=scores_shaped(bias), lengths=lengths, rows=rows, keys=keys)
    return a, L


def as_heads(x: np.ndarray, a: TiledAttention, L: tuple[int, ...], width: int, name: str) -> np.ndarray:
    """An array the caller gave in q's shape ([..., T, width]) as the kernel's [B, H, T, width]."""
    want = L + (a.T, width)
    try:
        return np.ascontiguousarray(np.broadcast_to(np.asarray(x, dtype=a.dtype), want).reshape(a.B, a.H, a.T, width))
    except ValueError:
        raise MHAInputError(f"{name}: shape {list(np.shape(x))} does not fit the output of attention, "
                            f"{list(want)}") from None


# ------------------------------------------------------------------ the recomputation, step by step

def flash_backward_steps(s: np.ndarray, q: np.ndarray, k: np.ndarray, v: np.ndarray, o: np.ndarray,
                         dO: np.ndarray, lse: np.ndarray, scale: float, block: int) -> tuple[np.ndarray, list[dict]]:
    """FlashAttention-2's backward of one head, key block by key block, with every tile kept.

    s [T, S] are the scaled scores (−inf where masked), q [T, d] the queries as used, k [S, d], v [S, d_v],
    o and dO [T, d_v], lse [T] each row's log-sum-exp (−inf for a row that sees no key).  Returns D and one
    record per key block: keys, P = e^(S − lse), dP, dS, the block's rows of dV and dK, and dQ so far.
    This is the explainable twin of `_backward_item` (one head, one query block, float64).

    >>> s = np.log(np.array([[1.0, 3.0]]))          # weights 1/4, 3/4; lse = log 4
    >>> D, steps = flash_backward_steps(s, np.zeros((1, 1)), np.zeros((2, 1)), np.array([[1.0], [0.0]]),
    ...                                 np.array([[0.25]]), np.array([[1.0]]), np.log([4.0]), 1.0, 1)
    >>> [round(float(st["P"][0, 0]), 12) for st in steps], float(D[0])
    ([0.25, 0.75], 0.25)
    """
    block = fast.check_block_size(block)
    T, S = s.shape
    D = np.einsum("td,td->t", dO, o)                                        # rowsum(dO ⊙ O)
    safe = np.where(np.isfinite(lse), lse, np.inf)[:, None]                 # a row that sees no key: P = 0
    dQ = np.zeros_like(q)
    steps = []
    with np.errstate(invalid="ignore", over="ignore"):
        for k0 in range(0, S, block):
            k1 = min(k0 + block, S)
            P = np.exp(s[:, k0:k1] - safe)                                  # [T, n] recomputed, never stored
            dP = dO @ v[k0:k1].T
            dS = P * (dP - D[:, None])
            dQ = dQ + scale * (dS @ k[k0:k1])
            steps.append({"keys": (k0, k1), "P": P, "dP": dP, "dS": dS, "dV": P.T @ dO,
                          "dK": scale * (dS.T @ q), "dQ": dQ})
    return D, steps
