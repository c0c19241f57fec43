"""The backward pass of one layer in NumPy, float64 by default: the forward's steps (mha.core) in reverse.

For a scalar loss L of the output Y, with dM written for ∂L/∂M (a matrix of M's shape):

    upstream     dY = 1 (L = sum of Y), Y − target (L = ½‖Y − target‖²), or given
    output       dO_concat = dY W_Oᵀ,  dW_O = O_concatᵀ dY,  db_O = Σ_rows dY   (dO_concat = dY without W_O)
    split heads  dO^(h) = columns h*d_v .. (h+1)*d_v of dO_concat
    weighted sum dA^(h) = dO^(h) V^(g)ᵀ,  dV^(g) += A^(h)ᵀ dO^(h)
    softmax      D_i = Σ_j dA_ij A_ij  (= dO_i · O_i),  dS^(h) = A ⊙ (dA − D); exactly 0 where masked
    scale        dQKt^(h) = scale · dS^(h)   (a bias and ALiBi are constants: nothing flows into them)
    scores       dQ^(h) = dQKt K^(g),  dK^(g) += dQKtᵀ Q^(h)   (GQA: a key/value head sums its query heads)
    cache        the cache's rows of dK^(g), dV^(g) are its own gradient; the new rows flow on
    rope         rotate back: R(pθ)ᵀ = R(−pθ), so d(before) = R(−pθ) d(after)
    concat       dQ = [dQ^(1) … dQ^(H)], likewise dK, dV over the key/value heads
    projections  dW_Q = Σ_b Xᵀ dQ,  db_Q = Σ dQ,  dX = dQ W_Qᵀ + dK W_Kᵀ + dV W_Vᵀ (self-attention)

Every gradient is kept under its name in a frozen `LayerGrads`, batch axis first
as in `mha.core.LayerSteps`.  Dimension legend: B batch, T queries, S keys
(S_past cached + S_new new), H query heads, G key/value heads, d_k, d_v the
per-head widths.  NumPy only; nothing here formats a number.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from .core import (LayerSteps, apply_rope, head_attention, head_inputs, layer, merge_heads, repeat_kv,
                   rope_angles)
from .inputs import AttentionArgs, Config, MHAInputError, Upstream


@dataclass(frozen=True)
class LayerGrads:
    """Every gradient of one layer call for one loss; names are the forward's with a d in front."""

    loss: str                         # "dY" (given), "sum" or "target"
    L: float                          # the loss: sum of Y, ½‖Y − target‖², or Σ dY ⊙ Y when dY is given
    dY: np.ndarray                    # [B, T, d_out]
    dW_O: np.ndarray | None           # [H*d_v, d_out]; None without an output projection
    db_O: np.ndarray | None           # [d_out]; None without b_O
    dO_concat: np.ndarray             # [B, T, H*d_v]
    dO: np.ndarray                    # [B, H, T, d_v]     dO^(h)
    dA: np.ndarray                    # [B, H, T, S]       dO^(h) V^(g)ᵀ
    D: np.ndarray                     # [B, H, T]          rowsum(dA ⊙ A) = rowsum(dO ⊙ O)
    dS: np.ndarray                    # [B, H, T, S]       A ⊙ (dA − D); 0 where masked
    dQKt: np.ndarray                  # [B, H, T, S]       scale · dS
    dK_share: np.ndarray              # [B, H, S, d_k]     query head h's part of dK^(g): dQKtᵀ Q^(h)
    dV_share: np.ndarray              # [B, H, S, d_v]     query head h's part of dV^(g): A^(h)ᵀ dO^(h)
    dQh_rope: np.ndarray | None       # [B, H, T, d_k]     d of the rotated Q^(h), before rotating back
    dQh: np.ndarray                   # [B, H, T, d_k]     dQ^(h), the split heads (before RoPE)
    dK_all: np.ndarray                # [B, G, S, d_k]     d of what the heads attend over (cache rows first)
    dV_all: np.ndarray                # [B, G, S, d_v]
    dcache_K: np.ndarray | None       # [B, G, S_past, d_k] the cache's own gradient (not passed further)
    dcache_V: np.ndarray | None       # [B, G, S_past, d_v]
    dKh_rope: np.ndarray | None       # [B, G, S_new, d_k] d of the rotated new keys
    dKh: np.ndarray                   # [B, G, S_new, d_k] dK^(g) of this call's keys (before RoPE)
    dVh: np.ndarray                   # [B, G, S_new, d_v]
    dQ: np.ndarray                    # [B, T, H*d_k]
    dK: np.ndarray                    # [B, S_new, G*d_k]
    dV: np.ndarray                    # [B, S_new, G*d_v]
    dW_Q: np.ndarray | None           # [d_model, H*d_k]; None when Q, K, V were given directly
    dW_K: np.ndarray | None           # [d_k_in, G*d_k]
    dW_V: np.ndarray | None           # [d_v_in, G*d_v]
    db_Q: np.ndarray | None           # [H*d_k]; None without b_Q
    db_K: np.ndarray | None
    db_V: np.ndarray | None
    dX_Q: np.ndarray | None           # [B, T, d_model]    the path through the queries: dQ W_Qᵀ
    dX_K: np.ndarray | None           # [B, S_new, d_k_in] through the keys: dK W_Kᵀ (d of key in cross-attention)
    dX_V: np.ndarray | None           # [B, S_new, d_v_in] through the values: dV W_Vᵀ (d of value)
    dX: np.ndarray | None             # [B, T, d_model]    dX_Q + dX_K + dX_V (self-attention), else dX_Q


# ------------------------------------------------------------------ the loss

def upstream(up: Upstream, Y: np.ndarray) -> tuple[np.ndarray, float]:
    """(dY, L) for the upstream rule and the output Y [B, T, d_out].

    >>> upstream(Upstream("target", np.zeros((1, 1, 2))), np.array([[[3.0, 4.0]]]))
    (array([[[3., 4.]]]), 12.5)
    """
    if up.loss == "sum":
        return np.ones_like(Y), float(Y.sum())
    if up.loss == "target":
        diff = Y - up.array
        return diff, float(0.5 * np.sum(diff * diff))
    return up.array.astype(Y.dtype, copy=False), float(np.sum(up.array * Y))     # L = <dY, Y>: its gradient is dY


def loss_of(up: Upstream, Y: np.ndarray) -> float:
    """L for an output Y (the finite-difference check evaluates it at nudged weights)."""
    return upstream(up, Y)[1]


# ------------------------------------------------------------------ the steps

def softmax_backward(A: np.ndarray, dA: np.ndarray, visible: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """(D, dS) with D_i = Σ_j dA_ij A_ij and dS = A ⊙ (dA − D), exactly 0 where a key was masked.

    Row i of the softmax has the Jacobian ∂A_i/∂S_i = diag(A_i) − A_i A_iᵀ; multiplied by dA_i
    that is A_i ⊙ dA_i − A_i (A_i · dA_i), which is A ⊙ (dA − D) without forming the S × S matrix.

    >>> A = np.array([[0.5, 0.5, 0.0]]); dA = np.array([[1.0, 3.0, 7.0]])
    >>> softmax_backward(A, dA, A > 0)
    (array([2.]), array([[-0.5,  0.5,  0. ]]))
    """
    D = np.einsum("...ij,...ij->...i", dA, A)                          # [..., T]
    dS = np.where(visible, A * (dA - D[..., None]), 0.0).astype(A.dtype, copy=False)
    return D, dS


def rotate_back(d: np.ndarray, positions: np.ndarray, cfg: Config) -> np.ndarray:
    """The gradient before RoPE from the one after: each pair turned by −pθ (R is orthogonal, times its factor)."""
    r = cfg.rope
    return apply_rope(d, -rope_angles(positions, r.inv_freq), style=r.style, dims=r.dims, factor=r.attention_factor)


def layer_backward(steps: LayerSteps, up: Upstream | None = None) -> LayerGrads:
    """Every gradient of the layer whose forward intermediates are `steps`, for the upstream rule up
    (default: the configuration's "backward" key, else L = sum of Y).

    >>> from mha.inputs import parse_config
    >>> g = layer_backward(layer(parse_config({"X": [[1.0, 2.0]], "n_heads": 1})))
    >>> g.dX          # one token attends only to itself: Y = X, so dX = dY = 1
    array([[[1., 1.]]])
    """
    cfg = steps.config
    up = up or cfg.backward or Upstream("sum")
    H, G, B = cfg.n_heads, cfg.G, cfg.B
    n_rep = H // G
    dY, L = upstream(up, steps.Y)
    # output projection
    if cfg.W_O is None:
        dO_concat, dW_O = dY, None
    else:
        dO_concat = dY @ cfg.W_O.T                                      # [B, T, H*d_v]
        dW_O = np.einsum("btc,bto->co", steps.O_concat, dY)            # Σ_b O_concatᵀ dY: [H*d_v, d_out]
    db_O = None if cfg.b_O is None else dY.sum(axis=(0, 1))
    # split heads
    dO = dO_concat.reshape(B, cfg.T, H, cfg.d_v).transpose(0, 2, 1, 3)  # [B, H, T, d_v]
    # weighted sum O = A V: both factors get a gradient
    K_rep, V_rep = repeat_kv(steps.K_all, n_rep), repeat_kv(steps.V_all, n_rep)   # [B, H, S, d]
    dA = dO @ V_rep.swapaxes(-1, -2)                                    # [B, H, T, S]
    dV_share = steps.A.swapaxes(-1, -2) @ dO                            # [B, H, S, d_v]
    # softmax
    D, dS = softmax_backward(steps.A, dA, steps.S > -np.inf)
    # scale (the bias and ALiBi add constants: the gradient passes through them unchanged)
    dQKt = dS * cfg.dtype.type(cfg.effective_scale)
    # scores QKt = Q^(h) K^(g)ᵀ, with the rotated Q and K when there is RoPE
    Q_used = steps.Qh if steps.Qh_rope is None else steps.Qh_rope
    dQ_used = dQKt @ K_rep                                              # [B, H, T, d_k]
    dK_share = dQKt.swapaxes(-1, -2) @ Q_used                           # [B, H, S, d_k]
    # grouped-query attention: a key/value head's gradient is the sum over the query heads that read it
    dK_all = dK_share.reshape(B, G, n_rep, cfg.S, cfg.d_k).sum(axis=2)  # [B, G, S, d_k]
    dV_all = dV_share.reshape(B, G, n_rep, cfg.S, cfg.d_v).sum(axis=2)
    # the cache's rows stop here; the new rows flow back into this call's keys and values
    P = cfg.S_past
    dcache_K, dcache_V = (None, None) if cfg.cache_K is None else (dK_all[:, :, :P], dV_all[:, :, :P])
    dK_new, dVh = dK_all[:, :, P:], dV_all[:, :, P:]
    # rotary position embedding: rotate back
    if cfg.rope is None:
        dQh_rope = dKh_rope = None
        dQh, dKh = dQ_used, dK_new
    else:
        dQh_rope, dKh_rope = dQ_used, dK_new
        dQh = rotate_back(dQ_used, cfg.rope.positions, cfg)
        dKh = rotate_back(dK_new, cfg.rope.key_positions, cfg)
    # concat the heads' columns again
    dQ, dK, dV = merge_heads(dQh), merge_heads(dKh), merge_heads(dVh)
    grads = dict(loss=up.loss, L=L, dY=dY, dW_O=dW_O, db_O=db_O, dO_concat=dO_concat, dO=dO, dA=dA, D=D, dS=dS,
                 dQKt=dQKt, dK_share=dK_share, dV_share=dV_share, dQh_rope=dQh_rope, dQh=dQh, dK_all=dK_all,
                 dV_all=dV_all, dcache_K=dcache_K, dcache_V=dcache_V, dKh_rope=dKh_rope, dKh=dKh, dVh=dVh,
                 dQ=dQ, dK=dK, dV=dV)
    return LayerGrads(**grads, **projection_grads(cfg, dQ, dK, dV))


def projection_grads(cfg: Config, dQ: np.ndarray, dK: np.ndarray, dV: np.ndarray) -> dict:
    """dW_*, db_* and the three paths into the inputs, for Q = X W_Q + b_Q and its two siblings."""
    out = dict.fromkeys(("dW_Q", "dW_K", "dW_V", "db_Q", "db_K", "db_V", "dX_Q", "dX_K", "dX_V", "dX"))
    for name in ("b_Q", "b_K", "b_V"):
        if getattr(cfg, name) is not None:
            out["d" + name] = {"b_Q": dQ, "b_K": dK, "b_V": dV}[name].sum(axis=(0, 1))
    if cfg.given_qkv:
        return out                      # dQ, dK and dV are the gradients of the inputs themselves
    X_k = cfg.X if cfg.key is None else cfg.key
    X_v = cfg.X if cfg.value is None else cfg.value
    for name, src, d, W in (("Q", cfg.X, dQ, cfg.W_Q), ("K", X_k, dK, cfg.W_K), ("V", X_v, dV, cfg.W_V)):
        out["dW_" + name] = np.einsum("bti,bto->io", src, d)           # Σ_b srcᵀ d: [d_in, width]
        out["dX_" + name] = d @ W.T                                     # [B, n, d_in]
    # X feeds the queries, and in self-attention the keys and values too: three paths meet in dX
    out["dX"] = out["dX_Q"] if cfg.key is not None else out["dX_Q"] + out["dX_K"] + out["dX_V"]
    return out


# ------------------------------------------------------------------ a finite-difference check

@dataclass(frozen=True)
class Nudge:
    """A central finite difference of L in one parameter entry, next to the backward pass's value."""

    name: str                 # the input it nudges: "W_Q", "Q", "X", ...
    index: tuple[int, ...]    # 0-based entry of that input (batch axis first for arrays that carry one)
    eps: float
    L_plus: float             # L at value + eps
    L_minus: float            # L at value - eps
    slope: float              # (L_plus - L_minus) / (2 eps)
    grad: float               # what the backward pass says


NUDGED = {"W_Q": "dW_Q", "Q_in": "dQ", "X": "dX"}       # what the check nudges first, and the gradient it reads


def nudge(steps: LayerSteps, grads: LayerGrads, eps: float = 1e-6) -> Nudge:
    """Nudge the first entry of W_Q (or of Q when it was given) by ±eps and recompute L with the core.

    >>> from mha.inputs import parse_config
    >>> s = layer(parse_config({"X": [[1.0, 2.0], [0.0, 1.0]], "n_heads": 1, "backward": {"loss": "sum"}}))
    >>> n = nudge(s, layer_backward(s))
    >>> abs(n.slope - n.grad) < 1e-8
    True
    """
    from dataclasses import replace

    cfg = steps.config
    name = next(n for n in NUDGED if getattr(cfg, n) is not None)
    value = getattr(cfg, name)
    index = (0,) * value.ndim
    up = cfg.backward or Upstream("sum")

    def L_at(delta: float) -> float:
        moved = value.copy()
        moved[index] += delta
        return loss_of(up, layer(replace(cfg, **{name: moved})).Y)

    L_plus, L_minus = L_at(eps), L_at(-eps)
    grad = getattr(grads, NUDGED[name])[index]
    return Nudge(name=name.removesuffix("_in"), index=index, eps=eps, L_plus=L_plus, L_minus=L_minus,
                 slope=(L_plus - L_minus) / (2 * eps), grad=float(grad))


def check_upstream(cfg: Config, dY: np.ndarray) -> np.ndarray:
    """dY as an array [B, T, d_out] of the layer's dtype, or an MHAInputError naming the shapes."""
    arr = np.asarray(dY, dtype=cfg.dtype)
    if arr.ndim == 2 and not cfg.batched:
        arr = arr[None]
    if arr.shape != (cfg.B, cfg.T, cfg.d_out):
        want = [cfg.B, cfg.T, cfg.d_out] if cfg.batched else [cfg.T, cfg.d_out]
        raise MHAInputError(f"dY: shape {list(np.shape(dY))} does not fit Y, which is {want}")
    return arr


# ------------------------------------------------------------------ per-head attention (mha.attention_backward)

def attention_backward_reference(args: AttentionArgs, dO: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """dq, dk, dv of `mha.attention` for validated arguments, every T × S step kept (the oracle of the tiled
    backward); each gradient has its input's shape, summed over the axes the input was broadcast along."""
    q, k, v, allowed, bias = head_inputs(args)
    with np.errstate(over="ignore", invalid="ignore"):
        steps = head_attention(q, k, v, scale=args.scale, allowed=allowed, bias=bias)
        dA = dO @ v.swapaxes(-1, -2)                                    # [..., T, S]
        dv = steps.A.swapaxes(-1, -2) @ dO                              # [..., S, d_v]
        _, dS = softmax_backward(steps.A, dA, steps.S > -np.inf)
        dQKt = dS * q.dtype.type(args.scale)
        dq, dk = dQKt @ k, dQKt.swapaxes(-1, -2) @ q
    if args.groups > 1:                                                 # a key/value head sums its query heads
        dk = dk.reshape(dk.shape[:-3] + (-1, args.groups) + dk.shape[-2:]).sum(axis=-3)
        dv = dv.reshape(dv.shape[:-3] + (-1, args.groups) + dv.shape[-2:]).sum(axis=-3)
    return unbroadcast(dq, args.q.shape), unbroadcast(dk, args.k.shape), unbroadcast(dv, args.v.shape)


def unbroadcast(grad: np.ndarray, shape: tuple[int, ...]) -> np.ndarray:
    """The gradient of an input that was broadcast to grad's shape: summed over the axes it was repeated along."""
    extra = grad.ndim - len(shape)
    if extra:
        grad = grad.sum(axis=tuple(range(extra)))
    axes = tuple(i for i, n in enumerate(shape) if n == 1 and grad.shape[i] != 1)
    return grad.sum(axis=axes, keepdims=True) if axes else grad
