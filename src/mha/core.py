"""Multi-head attention in NumPy, float64 by default, in the order of the worked example.

    project      Q = X W_Q + b_Q,  K = X_k W_K + b_K,  V = X_v W_V + b_V
    split heads  Q^(h) = columns h*d_head .. (h+1)*d_head of Q
    scores       QKt^(h) = Q^(h) K^(h)^T
    scale, mask  S^(h) = QKt^(h) * scale + bias, and -inf where a key may not be seen
    softmax      A^(h) = softmax(S^(h)) row by row (max, shift, exp, sum, divide)
    weighted sum O^(h) = A^(h) V^(h)
    concat       O_concat = [O^(1) ... O^(H)]
    output       Y = O_concat W_O + b_O

Row vectors throughout, as in the document: a token is a row, weights are
[d_in, d_out].  Dimension legend: B batch, T query tokens, S key tokens,
d_model = H * d_head, H heads.  This module imports NumPy only.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any, Mapping

import numpy as np

from .inputs import Config, MHAInputError, as_array, parse_causal, parse_config
from .trace import Trace


@dataclass(frozen=True)
class HeadSteps:
    """Every intermediate of scaled dot-product attention for all heads at once."""

    QKt: np.ndarray           # [..., T, S] raw scores Q^(h) K^(h)^T
    S: np.ndarray             # [..., T, S] scaled and masked scores; -inf where masked
    row_max: np.ndarray       # [..., T]    max of each row over visible keys (-inf if none)
    E: np.ndarray             # [..., T, S] exp(S - row_max); 0 where masked
    row_sum: np.ndarray       # [..., T]    sum of E over the row
    A: np.ndarray             # [..., T, S] attention weights E / row_sum
    O: np.ndarray             # [..., T, d_head] A V
    fully_masked: np.ndarray  # [..., T]    bool: the row could see no key; its A and O are 0


# ------------------------------------------------------------------ heads

def split_heads(M: np.ndarray, n_heads: int) -> np.ndarray:
    """[B, T, d_model] -> [B, H, T, d_head]; head h takes columns h*d_head:(h+1)*d_head.

    >>> split_heads(np.arange(8.).reshape(1, 2, 4), 2)[0, 1]
    array([[2., 3.],
           [6., 7.]])
    """
    B, T, d_model = M.shape
    return M.reshape(B, T, n_heads, d_model // n_heads).transpose(0, 2, 1, 3)


def merge_heads(Mh: np.ndarray) -> np.ndarray:
    """[B, H, T, d_head] -> [B, T, H * d_head]; the inverse of `split_heads` (the concat)."""
    B, H, T, d_head = Mh.shape
    return Mh.transpose(0, 2, 1, 3).reshape(B, T, H * d_head)


# ------------------------------------------------------------------ masks

def causal_mask(T: int, S: int, align: str = "top_left") -> np.ndarray:
    """[T, S] bool, True = may attend.

    top_left (as torch's scaled_dot_product_attention): query i sees keys j <= i.
    bottom_right (as flash-attn): the last query sees the last key, j <= i + S - T.

    >>> causal_mask(2, 3).astype(int)
    array([[1, 0, 0],
           [1, 1, 0]])
    >>> causal_mask(2, 3, "bottom_right").astype(int)
    array([[1, 1, 0],
           [1, 1, 1]])
    """
    offset = {"top_left": 0, "bottom_right": S - T}[align]
    return np.arange(S)[None, :] <= np.arange(T)[:, None] + offset


def visible_keys(T: int, S: int, *, mask: np.ndarray | None = None, causal: str = "none",
                 key_lengths: np.ndarray | None = None, batch_shape: tuple[int, ...] = ()) -> np.ndarray | None:
    """Combine the boolean conventions into one [..., T, S] mask (True = may attend), or None.

    key_lengths has a shape that is a prefix of batch_shape; key j of sequence b
    is visible iff j < key_lengths[b].
    """
    allowed = None
    if mask is not None:
        allowed = mask
    if causal != "none":
        c = causal_mask(T, S, causal)
        allowed = c if allowed is None else allowed & c
    if key_lengths is not None:
        kl = np.asarray(key_lengths)
        kl = kl.reshape(kl.shape + (1,) * (len(batch_shape) - kl.ndim))
        pad = np.arange(S) < kl[..., None, None]             # [..., 1, S]
        allowed = pad if allowed is None else allowed & pad
    return allowed


# ------------------------------------------------------------------ softmax & the per-head core

def head_attention(Qh: np.ndarray, Kh: np.ndarray, Vh: np.ndarray, *, scale: float,
                   allowed: np.ndarray | None = None, bias: np.ndarray | None = None) -> HeadSteps:
    """softmax(Q K^T * scale + bias) V with every sub-step kept; arrays are [..., T|S, d]."""
    # scores
    QKt = Qh @ Kh.swapaxes(-1, -2)                               # [..., T, S]: Q K^T, BLAS per head
    # scale, then the additive bias (a -inf in the bias masks like False does)
    S = QKt * Qh.dtype.type(scale)
    if bias is not None:
        S = S + bias
    visible = S > -np.inf if allowed is None else (allowed & (S > -np.inf))
    S = np.where(visible, S, -np.inf)
    # numerically stable softmax: shift each row by its max over visible keys
    fully_masked = ~visible.any(axis=-1)                         # [..., T]
    row_max = S.max(axis=-1)                                     # -inf on fully masked rows
    shift = np.where(fully_masked, 0.0, row_max)[..., None]
    E = np.where(visible, np.exp(S - shift), 0.0).astype(S.dtype)
    row_sum = E.sum(axis=-1)                                     # >= 1 on every visible row
    # a row that sees no key gets weights 0 and output 0 (as SDPA and flash-attn), not NaN
    A = E / np.where(fully_masked, 1.0, row_sum)[..., None]
    # weighted sum of the values
    O = A @ Vh                                                   # [..., T, d_head]
    return HeadSteps(QKt=QKt, S=S, row_max=row_max, E=E, row_sum=row_sum, A=A, O=O,
                     fully_masked=fully_masked)


def attention(q: Any, k: Any, v: Any, *, mask: Any = None, causal: Any = False,
              scale: float | None = None, key_lengths: Any = None, bias: Any = None,
              impl: str = "auto", block_size: int | None = None) -> np.ndarray:
    """Scaled dot-product attention on per-head arrays: q [..., T, d_head], k [..., S, d_head], v [..., S, d_v].

    mask is boolean, True = may attend, broadcastable to [..., T, S].  causal is
    False, True / "top_left" or "bottom_right".  key_lengths has the shape of a
    prefix of the leading axes.  bias is added to the scaled scores.  impl is
    "reference" (this module), "tiled" (mha.fast, bounded memory) or "auto".

    >>> x = np.array([[1., 0.], [0., 1.], [1., 1.]])   # head 1 of the worked example
    >>> attention(x, x, x, impl="reference").round(4)
    array([[0.8022, 0.5989],
           [0.5989, 0.8022],
           [0.7517, 0.7517]])
    """
    q, k, v = (_as_float(a, name) for a, name in ((q, "q"), (k, "k"), (v, "v")))
    dtype = np.result_type(q, k, v)
    q, k, v = q.astype(dtype, copy=False), k.astype(dtype, copy=False), v.astype(dtype, copy=False)
    if q.shape[-1] != k.shape[-1]:
        raise MHAInputError(f"k: last axis {k.shape[-1]} must equal q's d_head {q.shape[-1]} "
                            f"(q {list(q.shape)}, k {list(k.shape)})")
    if k.shape[-2] != v.shape[-2]:
        raise MHAInputError(f"v: has {v.shape[-2]} tokens but k has {k.shape[-2]} "
                            f"(k {list(k.shape)}, v {list(v.shape)})")
    try:
        batch_shape = np.broadcast_shapes(q.shape[:-2], k.shape[:-2], v.shape[:-2])
    except ValueError:
        raise MHAInputError(f"q, k, v: leading axes do not broadcast "
                            f"(q {list(q.shape)}, k {list(k.shape)}, v {list(v.shape)})") from None
    T, S = q.shape[-2], k.shape[-2]
    causal = parse_causal(causal)
    scale = 1.0 / math.sqrt(q.shape[-1]) if scale is None else float(scale)
    if mask is not None:
        mask = as_array(mask, "mask", kind="bool", ndims=tuple(range(2, len(batch_shape) + 3)))
        _check_broadcast(mask, "mask", batch_shape + (T, S))
    if bias is not None:
        bias = as_array(bias, "bias", ndims=tuple(range(2, len(batch_shape) + 3)), dtype=dtype,
                        allow_neg_inf=True)
        _check_broadcast(bias, "bias", batch_shape + (T, S))
    if key_lengths is not None:
        key_lengths = np.asarray(key_lengths)
        if (not np.issubdtype(key_lengths.dtype, np.integer)
                or key_lengths.shape != batch_shape[:key_lengths.ndim]):
            raise MHAInputError(f"key_lengths: expected integers of shape a prefix of the leading axes "
                                f"{list(batch_shape)}, got {list(key_lengths.shape)} {key_lengths.dtype}")
    impl = resolve_impl(impl, T * S * max(1, math.prod(batch_shape)))
    if impl == "tiled":
        from .fast import tiled_attention
        return tiled_attention(q, k, v, scale=scale, mask=mask, causal=causal,
                               key_lengths=key_lengths, bias=bias, block_size=block_size)
    if impl != "reference":
        raise MHAInputError(f"impl: expected \"auto\", \"reference\" or \"tiled\", got {impl!r}")
    allowed = visible_keys(T, S, mask=mask, causal=causal, key_lengths=key_lengths,
                           batch_shape=batch_shape)
    return head_attention(q, k, v, scale=scale, allowed=allowed, bias=bias).O


# impl="auto" takes the tiled path once the T x S matrices of all heads would hold more scores than this
AUTO_TILED_SCORES = 1 << 22


def resolve_impl(impl: str, n_scores: int) -> str:
    """"auto" becomes "tiled" or "reference" by the number of scores; the other names pass through."""
    if impl == "auto":
        return "tiled" if n_scores > AUTO_TILED_SCORES else "reference"
    return impl


def _as_float(a: Any, name: str) -> np.ndarray:
    arr = as_array(a, name, ndims=tuple(range(2, 9)),
                   dtype=a.dtype if isinstance(a, np.ndarray) and a.dtype in (np.float32, np.float64)
                   else np.float64)
    return arr


def _check_broadcast(arr: np.ndarray, field: str, shape: tuple[int, ...]) -> None:
    try:
        if np.broadcast_shapes(arr.shape, shape) == shape:
            return
    except ValueError:
        pass
    raise MHAInputError(f"{field}: shape {list(arr.shape)} does not broadcast to [..., T, S] = {list(shape)}")


# ------------------------------------------------------------------ the full layer

def project(X: np.ndarray, W: np.ndarray, b: np.ndarray | None) -> np.ndarray:
    """X W + b with row vectors: [B, T, d_in] x [d_in, d_out] -> [B, T, d_out]."""
    out = X @ W                                                  # matmul: BLAS at real sizes
    return out if b is None else out + b


def run(cfg: Config) -> Trace:
    """Compute the layer for a validated `Config`, keeping every intermediate."""
    H = cfg.n_heads
    X_k = cfg.X if cfg.key is None else cfg.key
    X_v = cfg.X if cfg.value is None else cfg.value
    # project
    Q = project(cfg.X, cfg.W_Q, cfg.b_Q)                         # [B, T, d_model]
    K = project(X_k, cfg.W_K, cfg.b_K)                           # [B, S, d_model]
    V = project(X_v, cfg.W_V, cfg.b_V)                           # [B, S, d_model]
    # split heads
    Qh, Kh, Vh = split_heads(Q, H), split_heads(K, H), split_heads(V, H)   # [B, H, T|S, d_head]
    # scores, scale, mask, softmax, weighted sum
    allowed = visible_keys(cfg.T, cfg.S, mask=cfg.mask, causal=cfg.causal,
                           key_lengths=cfg.key_lengths, batch_shape=(cfg.B, H))
    if allowed is not None:
        allowed = np.broadcast_to(allowed, (cfg.B, H, cfg.T, cfg.S))
    heads = head_attention(Qh, Kh, Vh, scale=cfg.effective_scale, allowed=allowed, bias=cfg.bias)
    # concat and output projection
    O_concat = merge_heads(heads.O)                              # [B, T, d_model]
    Y = project(O_concat, cfg.W_O, cfg.b_O)                      # [B, T, d_model]
    return Trace(config=cfg, Q=Q, K=K, V=V, Qh=Qh, Kh=Kh, Vh=Vh, QKt=heads.QKt, S=heads.S,
                 row_max=heads.row_max, E=heads.E, row_sum=heads.row_sum, A=heads.A, O=heads.O,
                 fully_masked=heads.fully_masked, O_concat=O_concat, Y=Y)


def trace(X: Any = None, n_heads: int | None = None, *, dtype: Any = np.float64, **params: Any) -> Trace:
    """Compute multi-head attention and keep every intermediate under the document's names.

    X is a [T, d_model] or [B, T, d_model] array, or a whole input mapping (the
    JSON input format).  Other parameters: W_Q, W_K, W_V, W_O (arrays or
    "identity"), b_Q..b_O, key, value, causal, key_lengths, mask, bias, scale.

    >>> t = trace([[1, 0, 1, 0], [0, 1, 0, 1], [1, 1, 0, 0]], n_heads=2)
    >>> t.A[0, 0].round(4)          # A^(1), batch 0
    array([[0.4011, 0.1978, 0.4011],
           [0.1978, 0.4011, 0.4011],
           [0.2483, 0.2483, 0.5035]])
    >>> t.Y.shape, t.shape_of("Y")
    ((1, 3, 4), [3, 4])
    """
    if isinstance(X, Mapping):
        if n_heads is not None or params:
            data = dict(X, **params, **({} if n_heads is None else {"n_heads": n_heads}))
        else:
            data = X
    else:
        data = dict(params, X=X, n_heads=n_heads)
    return run(parse_config(data, dtype=dtype))
