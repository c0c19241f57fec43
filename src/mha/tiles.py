"""NumPy's tiles: the fast path's softmax as NumPy passes, where the compiled pass (mha.kernel) is not used.

Below `fast.COMPILED_WORK` multiply-adds, and wherever numba cannot be
imported, a tile's softmax is NumPy passes: the scores' bias and ALiBi added,
masked terms set to -inf or zeroed, the row max, the shift, NumPy's fastest
exponential (`fast.exponential`), and the row sums from one product
P [V | 1], the values carrying an extra column of ones (cheaper than a
separate sum).  `fast._Problem` mixes this in; its items choose the path.

Dimension legend as in mha.fast: a tile is [heads, rows, keys].
"""

from __future__ import annotations

import math
import threading
from functools import lru_cache
from typing import Any

import numpy as np

_SCRATCH = threading.local()


def _scratch(slot: str, size: int, dtype: np.dtype) -> np.ndarray:
    """A flat buffer of at least size elements, kept per thread and reused by every item and call: a
    fresh half-megabyte array is mapped and page-faulted anew each time, which cost ~1 ns per score."""
    bufs = getattr(_SCRATCH, "bufs", None)
    if bufs is None:
        bufs = _SCRATCH.bufs = {}
    arr = bufs.get((slot, dtype))
    if arr is None or arr.size < size:
        arr = bufs[(slot, dtype)] = np.empty(size, dtype=dtype)
    return arr[:size]


class NumpyTiles:
    """The NumPy version of an item's tiles, for `fast._Problem` (which holds the arrays and settings)."""

    def _operands(self, b: int, h0: int, h1: int, q0: int, q1: int, keys: int):
        """The item's scaled queries [hg, R, d], its K and V ([S, *] when the heads share one K/V head,
        else [hg, S, *]), and [V | 1] scratch for `keys` keys, ones column set."""
        hg, R, d_v, dt = h1 - h0, q1 - q0, self.d_v, self.dtype
        Qs = np.multiply(self.q[b, h0:h1, q0:q1], self.q_scale,
                         out=_scratch("q", hg * R * self.q.shape[3], dt).reshape(hg, R, -1))
        if self.rep > 1:
            K, V = self.k[b, h0 // self.rep], self.v[b, h0 // self.rep]
        else:
            K, V = self.k[b, h0:h1], self.v[b, h0:h1]
        lead = (hg,) if K.ndim == 3 else ()
        v1 = _scratch("v1", hg * keys * (d_v + 1), dt)[:math.prod(lead) * keys * (d_v + 1)]
        v1 = v1.reshape(lead + (keys, d_v + 1))
        v1[..., d_v] = 1
        return Qs, K, V, v1

    def _scores(self, s: np.ndarray, Qs: np.ndarray, K: np.ndarray, b: int, h0: int, h1: int,
                i0: int, i1: int, k0: int, k1: int) -> None:
        """s [hg, r, n] = the tile's scores in the exponential's units: Q K^T scale + bias + ALiBi."""
        _product(Qs, K[..., k0:k1, :].swapaxes(-1, -2), s)
        if self.bias is not None:
            tile_bias = self.bias[b, h0:h1, i0:i1, k0:k1]
            s += tile_bias if self.factor == 1 else tile_bias * self.factor
        if self.slopes is not None:                  # -slope_h |p_i - j|, with the distances of this tile
            dist = _distance_tile(i1 - i0, k1 - k0, k0 - i0 - self.offset, self.dtype)
            penalty = _scratch("alibi", s.size, self.dtype).reshape(s.shape)
            np.multiply(dist, self.slopes[h0:h1, None, None], out=penalty)
            s -= penalty

    def _one_tile(self, b, h0, h1, q0, q1, start, end, target, lse) -> None:
        """All the item's keys in one [hg, R, n] tile: scores, max-shift, exponentials, one product."""
        hg, R, d_v, n = h1 - h0, q1 - q0, self.d_v, end - start
        Qs, K, V, v1 = self._operands(b, h0, h1, q0, q1, n)
        s = _scratch("s", hg * R * n, self.dtype).reshape(hg, R, n)
        self._scores(s, Qs, K, b, h0, h1, q0, q1, start, end)                  # [hg, R, n]
        visible = self._visible(b, h0, h1, q0, q1, start, end)
        top, bottom = s.max(), s.min()                                          # masked scores included
        m: Any = top
        if top - bottom <= self.spread:
            # one shift for the whole tile: no exponential overflows and none underflows, and two quick
            # reductions replace the rows' maxima (0.25 instead of 0.7 ns per score, measured); masked
            # terms are zeroed after the exponential
            s -= top
            self.exp(s, out=s)
            if visible is not None:
                np.multiply(s, visible, out=s)
        else:                       # NaN, infinity, -inf in the bias, or a wide spread: each row's own max
            if visible is not None:
                np.copyto(s, -np.inf, where=~visible)
            m = s.max(axis=-1, keepdims=True)                                   # [hg, R, 1]
            m[m == -np.inf] = 0                                                 # a row that sees no key
            s -= m
            self.exp(s, out=s)
            m = m[..., 0]
        v1[..., :d_v] = V[..., start:end, :]
        acc = _product(s, v1, _scratch("acc", hg * R * (d_v + 1), self.dtype).reshape(hg, R, d_v + 1))
        l = acc[..., d_v:]                                                      # row sums, 0 if no key
        if lse is not None:                                                     # ln of the sum of e^score
            lse[...] = (m + self.log(l[..., 0])) / self.factor
        if visible is not None or self.bias is not None:
            l = np.where(l > 0, l, np.inf)                                      # a row that sees no key gives 0
        np.divide(acc[..., :d_v], l, out=target)

    def _walk(self, b, h0, h1, q0, q1, start, end, target, lse) -> None:
        """The item's keys block by block with an online softmax, tile by tile as `_tiles` orders them."""
        p, dt, d_v = self.plan, self.dtype, self.d_v
        hg, R = h1 - h0, q1 - q0
        shift = bool(self.shift[b, h0:h1].any())
        bk = min(p.keys, end - start)
        Qs, K, V, v1 = self._operands(b, h0, h1, q0, q1, bk)
        s_flat = _scratch("s", hg * R * bk, dt)
        pv_flat = _scratch("pv", hg * R * (d_v + 1), dt)
        acc = _scratch("acc", hg * R * (d_v + 1), dt).reshape(hg, R, d_v + 1)   # [unnormalised O | row sum l]
        m = np.full((hg, R, 1), -np.inf, dtype=dt) if shift else None   # running row max (shift mode)
        fresh = np.ones(R, dtype=bool)                                  # rows that have not taken a tile yet
        for r0, r1, k0, k1 in self._tiles(q0, q1, start, end, bk):
            n, r = k1 - k0, r1 - r0
            s = s_flat[:hg * r * n].reshape(hg, r, n)
            self._scores(s, Qs[:, r0:r1], K, b, h0, h1, q0 + r0, q0 + r1, k0, k1)   # [hg, r, n]
            visible = self._visible(b, h0, h1, q0 + r0, q0 + r1, k0, k1)
            if shift:
                if visible is not None:
                    np.copyto(s, -np.inf, where=~visible)
                m_new = np.maximum(m[:, r0:r1], s.max(axis=-1, keepdims=True))
                m_safe = np.where(m_new == -np.inf, 0, m_new).astype(dt)
                alpha = self.exp(m[:, r0:r1] - m_safe)              # rescales the earlier output and l
                s -= m_safe
                m[:, r0:r1] = m_new
                self.exp(s, out=s)
            else:
                # every score is bounded, masked ones included: exponentials first, masked terms zeroed
                # after (exp is slower on -inf, and a masked copy costs more than a product)
                self.exp(s, out=s)
                if visible is not None:
                    np.multiply(s, visible, out=s)
            v1[..., :n, :d_v] = V[..., k0:k1, :]
            a = acc[:, r0:r1]
            if fresh[r0]:                                            # a slice's rows start together
                _product(s, v1[..., :n, :], a)
                fresh[r0:r1] = False
            else:
                if shift:
                    a *= alpha
                pv = pv_flat[:hg * r * (d_v + 1)].reshape(hg, r, d_v + 1)
                _product(s, v1[..., :n, :], pv)
                a += pv
        if fresh.any():                                                  # rows that saw no key at all
            acc[:, fresh] = 0
        l = acc[..., d_v:]
        if lse is not None:                                              # ln of the sum of e^score
            lse[...] = ((0 if m is None else m[..., 0]) + self.log(l[..., 0])) / self.factor
        np.divide(acc[..., :d_v], np.where(l > 0, l, np.inf), out=target)   # a row that saw no key gives 0

    def _visible(self, b: int, h0: int, h1: int, i0: int, i1: int, k0: int, k1: int) -> np.ndarray | None:
        """[hg|1, r, n] bool for one tile (queries i0..i1, keys k0..k1), or None if all of it is visible."""
        vis = None
        if self.mask is not None:
            vis = self.mask[b, h0:h1, i0:i1, k0:k1]
        if k0 < self.lo(i1 - 1) or k1 - 1 > self.hi(i0):                  # the tile crosses the band's edge
            band = _band_tile(i1 - i0, k1 - k0, k0 - i0 - self.offset, self.window, self.causal)
            vis = band if vis is None else vis & band
        if self.lengths is not None and int(self.lengths[b, h0:h1].min()) < k1:   # padding inside this tile
            pad = np.arange(k0, k1) < self.lengths[b, h0:h1, None, None]          # [hg, 1, n]
            vis = pad if vis is None else vis & pad
        return vis


def _product(a: np.ndarray, b: np.ndarray, out: np.ndarray) -> np.ndarray:
    """out = a @ b for a [hg, r, m].  When b is one matrix shared by the hg heads (their K/V head under
    GQA), the heads' rows are stacked into one product of hg r rows, where a and out allow it."""
    if b.ndim == 2 and a.flags.c_contiguous and out.flags.c_contiguous:
        np.matmul(a.reshape(-1, a.shape[-1]), b, out=out.reshape(-1, out.shape[-1]))
    else:
        np.matmul(a, b, out=out)
    return out


@lru_cache(maxsize=64)
def _band_tile(rows: int, cols: int, delta: int, window: int | None, causal: bool) -> np.ndarray:
    """[rows, cols] bool for a tile crossing the band's edge (delta = k0 - i0 - offset): key k0 + j is at
    distance i - (j + delta) before query i0 + i.  Shared, read-only, by every head and thread."""
    before = np.arange(rows)[:, None] - (np.arange(cols)[None, :] + delta)       # p_i - j
    out = np.ones((rows, cols), dtype=bool)
    if causal:
        out &= before >= 0
    if window is not None:
        out &= (before < window) if causal else (np.abs(before) < window)
    out.setflags(write=False)
    return out


def _distance_tile(rows: int, cols: int, delta: int, dtype: np.dtype) -> np.ndarray:
    """[rows, cols] |p_i - j| for a tile (delta = k0 - i0 - offset), for ALiBi: a read-only Toeplitz view of
    one row of rows + cols - 1 distances (entry [i, j] is line[i - j + cols - 1]), never a tile-sized array."""
    line = np.abs(np.arange(rows + cols - 1) - (cols - 1) - delta).astype(dtype)
    step = line.strides[0]
    return np.lib.stride_tricks.as_strided(line[cols - 1:], shape=(rows, cols), strides=(step, -step),
                                           writeable=False)
