"""Independent float64 oracles for the tests: written from the papers' definitions, sharing no code with mha.

`naive_layer` computes a whole layer token by token and head by head with
Python loops over explicit formulas: the rotation of RoPE as complex
multiplication, ALiBi as flash-attn defines it, the sliding window and the
causal mask from positions, GQA by index arithmetic.  It is slow and plain on
purpose: it is the second opinion the core is checked against.
"""

from __future__ import annotations

import math

import numpy as np


def press_slopes(n):
    """ALiBi slopes as BLOOM's build_alibi_tensor computes them (closest power of two, then odd powers)."""
    closest = 2 ** math.floor(math.log2(n))
    base = 2 ** (-(2 ** -(math.log2(closest) - 3)))
    slopes = [base ** p for p in range(1, closest + 1)]
    if closest != n:
        extra = 2 ** (-(2 ** -(math.log2(2 * closest) - 3)))
        slopes += [extra ** p for p in range(1, 1 + 2 * min(closest, n - closest), 2)]
    return np.array(slopes)


def rotate(vec, pos, inv_freq, style, dims, factor=1.0):
    """RoPE on one vector: each pair (a, b) is the complex number a + ib, turned by e^(i pos theta)."""
    out = np.array(vec, dtype=np.float64)
    half = dims // 2
    for i, theta in enumerate(inv_freq):
        a_idx, b_idx = (i, i + half) if style == "half" else (2 * i, 2 * i + 1)
        z = complex(vec[a_idx], vec[b_idx]) * complex(math.cos(pos * theta), math.sin(pos * theta)) * factor
        out[a_idx], out[b_idx] = z.real, z.imag
    return out


def naive_layer(X=None, *, n_heads, n_kv_heads=None, W_Q=None, W_K=None, W_V=None, W_O=None, b_Q=None, b_K=None,
                b_V=None, b_O=None, Q=None, K=None, V=None, scale=None, causal=False, mask=None, window=None,
                alibi=None, rope=None, cache=None):
    """Y [T, d_out] for ONE sequence (2-D inputs).  W_* are 2-D [d_in, heads*d] matrices; W_O None = no W_O.

    scale: None (1/sqrt(d_k)), "none", "1/d_k" or a number.  causal: False / "top_left" / "bottom_right" / True.
    rope: dict(inv_freq=..., style=..., dims=..., positions=..., key_positions=..., factor=...).
    cache: dict(K=[G, S_past, d_k], V=[G, S_past, d_v]).  mask: bool [T, S], True = may attend.
    """
    H = n_heads
    G = n_kv_heads or H
    if Q is None:
        X = np.asarray(X, float)
        Q = X @ np.asarray(W_Q, float) + (0 if b_Q is None else np.asarray(b_Q, float))
        K = X @ np.asarray(W_K, float) + (0 if b_K is None else np.asarray(b_K, float))
        V = X @ np.asarray(W_V, float) + (0 if b_V is None else np.asarray(b_V, float))
    Q, K, V = np.asarray(Q, float), np.asarray(K, float), np.asarray(V, float)
    T, S_new = Q.shape[0], K.shape[0]
    d_k, d_v = Q.shape[1] // H, V.shape[1] // G
    S_past = 0 if cache is None else np.asarray(cache["K"]).shape[1]
    S = S_past + S_new
    if scale is None:
        s = 1 / math.sqrt(d_k)
    else:
        s = {"none": 1.0, "1/d_k": 1.0 / d_k}.get(scale, scale) if isinstance(scale, str) else float(scale)
    if causal is True:
        causal = "top_left" if cache is None else "bottom_right"
    delta = 0 if causal == "top_left" else S - T
    slopes = None
    if alibi is not None:
        slopes = press_slopes(H) if alibi is True else np.asarray(alibi, float)
    heads_out = []
    for h in range(H):
        g = h * G // H                                              # floor(h G / H)
        q_rows = [Q[i, h * d_k:(h + 1) * d_k] for i in range(T)]
        k_rows = [K[j, g * d_k:(g + 1) * d_k] for j in range(S_new)]
        v_rows = [V[j, g * d_v:(g + 1) * d_v] for j in range(S_new)]
        if rope is not None:
            q_rows = [rotate(q, rope["positions"][i], rope["inv_freq"], rope["style"], rope["dims"],
                             rope.get("factor", 1.0)) for i, q in enumerate(q_rows)]
            k_rows = [rotate(k, rope["key_positions"][j], rope["inv_freq"], rope["style"], rope["dims"],
                             rope.get("factor", 1.0)) for j, k in enumerate(k_rows)]
        if cache is not None:
            k_rows = list(np.asarray(cache["K"], float)[g]) + k_rows
            v_rows = list(np.asarray(cache["V"], float)[g]) + v_rows
        out = np.zeros((T, d_v))
        for i in range(T):
            p = i + delta
            logits = []
            for j in range(S):
                ok = True
                if causal and j > p:
                    ok = False
                if window is not None and (not (0 <= p - j < window) if causal else abs(p - j) >= window):
                    ok = False
                if mask is not None and not mask[i][j]:
                    ok = False
                if ok:
                    value = s * float(np.dot(q_rows[i], k_rows[j]))
                    if slopes is not None:
                        value -= slopes[h] * abs(p - j)
                    logits.append((j, value))
            if not logits:
                continue                                            # a row that sees nothing gives 0
            m = max(v for _, v in logits)
            weights = [(j, math.exp(v - m)) for j, v in logits]
            total = sum(w for _, w in weights)
            for j, w in weights:
                out[i] += (w / total) * v_rows[j]
        heads_out.append(out)
    concat = np.concatenate(heads_out, axis=1)
    Y = concat if W_O is None else concat @ np.asarray(W_O, float)
    return Y + (0 if b_O is None else np.asarray(b_O, float))
