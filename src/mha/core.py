"""Multi-head attention in NumPy, float64 by default, in the order of the worked example.

    project      Q = X W_Q + b_Q,  K = X_k W_K + b_K,  V = X_v W_V + b_V   (or Q, K, V given directly)
    split heads  Q^(h) = columns h*d_k .. (h+1)*d_k of Q;  K^(g), V^(g) for the G key/value heads
    rope         rotate each pair of features of Q^(h) and K^(g) by position * theta_i      (optional)
    cache        K^(g) = [cached keys; new keys], and likewise V^(g)                      (optional)
    scores       QKt^(h) = Q^(h) K^(g)^T, where g is the key/value head of h (g = h without GQA)
    scale, mask  S^(h) = QKt^(h) * scale + bias + ALiBi, and -inf where a key may not be seen
    softmax      A^(h) = softmax(S^(h)) row by row (max, shift, exp, sum, divide)
    weighted sum O^(h) = A^(h) V^(g)
    concat       O_concat = [O^(1) ... O^(H)]
    output       Y = O_concat W_O + b_O   (Y = O_concat when there is no W_O)

Row vectors throughout, as in the document: a token is a row, weights are
[d_in, d_out].  Dimension legend: B batch, T query tokens, S key tokens,
H query heads, G key/value heads, d_k query/key width and d_v value width per
head.  This module imports NumPy only and never formats anything.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np

from .inputs import AttentionArgs, Config, MHAInputError


# ------------------------------------------------------------------ heads

def project(X: np.ndarray, W: np.ndarray | None, b: np.ndarray | None) -> np.ndarray:
    """X W + b with row vectors: [B, T, d_in] x [d_in, d_out] -> [B, T, d_out]; no W means no projection."""
    out = X if W is None else X @ W                            # matmul: BLAS at real sizes
    return out if b is None else out + b


def split_heads(M: np.ndarray, n_heads: int) -> np.ndarray:
    """[B, T, n*d] -> [B, n, T, d]; head h takes columns h*d:(h+1)*d.

    >>> split_heads(np.arange(8.).reshape(1, 2, 4), 2)[0, 1]
    array([[2., 3.],
           [6., 7.]])
    """
    B, T, width = M.shape
    return M.reshape(B, T, n_heads, width // n_heads).transpose(0, 2, 1, 3)


def merge_heads(Mh: np.ndarray) -> np.ndarray:
    """[B, n, T, d] -> [B, T, n*d]; the inverse of `split_heads` (the concat)."""
    B, n, T, d = Mh.shape
    return Mh.transpose(0, 2, 1, 3).reshape(B, T, n * d)


def repeat_kv(M: np.ndarray, n_rep: int) -> np.ndarray:
    """[B, G, S, d] -> [B, G*n_rep, S, d]: query head h reads key/value head h // n_rep (as LLaMA's repeat_kv)."""
    return M if n_rep == 1 else np.repeat(M, n_rep, axis=1)


# ------------------------------------------------------------------ rotary position embedding

def rope_angles(positions: np.ndarray, inv_freq: np.ndarray) -> np.ndarray:
    """[B, n] positions x [dims/2] frequencies -> [B, n, dims/2] angles p * theta_i."""
    return positions[..., None].astype(np.float64) * inv_freq


def apply_rope(x: np.ndarray, angles: np.ndarray, *, style: str, dims: int, factor: float = 1.0) -> np.ndarray:
    """Rotate pairs of features of x [B, n, T, d] by angles [B, T, dims/2]; features past `dims` pass unchanged.

    "half" pairs feature i with i + dims/2 (rotate-half: LLaMA, GPT-NeoX); "interleaved"
    pairs 2i with 2i+1 (RoFormer, GPT-J).  Each pair (a, b) becomes
    (a cos - b sin, b cos + a sin), times factor.

    >>> x = np.array([1.0, 0.0]).reshape(1, 1, 1, 2)
    >>> apply_rope(x, np.full((1, 1, 1), np.pi / 2), style="half", dims=2).round(12)[0, 0, 0]
    array([0., 1.])
    """
    cos = (np.cos(angles) * factor)[:, None].astype(x.dtype)  # [B, 1, T, dims/2]
    sin = (np.sin(angles) * factor)[:, None].astype(x.dtype)
    out = x.copy()
    half = dims // 2
    if style == "half":
        a, b = x[..., :half], x[..., half:dims]
        out[..., :half] = a * cos - b * sin
        out[..., half:dims] = b * cos + a * sin
    else:
        a, b = x[..., 0:dims:2], x[..., 1:dims:2]
        out[..., 0:dims:2] = a * cos - b * sin
        out[..., 1:dims:2] = b * cos + a * sin
    return out


# ------------------------------------------------------------------ masks and position biases

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
    offset = 0 if align == "top_left" else S - T
    return np.arange(S)[None, :] <= np.arange(T)[:, None] + offset


def window_mask(T: int, S: int, window: int, *, causal: bool, offset: int) -> np.ndarray:
    """[T, S] bool: the keys within `window` of query i, which sits at position p_i = i + offset.

    Causal (Mistral's sliding window): p_i - window < j <= p_i.  Otherwise |p_i - j| < window.

    >>> window_mask(4, 4, 2, causal=True, offset=0).astype(int)
    array([[1, 0, 0, 0],
           [1, 1, 0, 0],
           [0, 1, 1, 0],
           [0, 0, 1, 1]])
    """
    d = (np.arange(T)[:, None] + offset) - np.arange(S)[None, :]     # p_i - j
    return (d >= 0) & (d < window) if causal else np.abs(d) < window


def visible_keys(T: int, S: int, *, mask: np.ndarray | None = None, causal: str = "none",
                 key_lengths: np.ndarray | None = None, window: int | None = None, offset: int = 0,
                 batch_shape: tuple[int, ...] = ()) -> np.ndarray | None:
    """Combine the boolean conventions into one [..., T, S] mask (True = may attend), or None.

    key_lengths has a shape that is a prefix of batch_shape; key j of sequence b
    is visible iff j < key_lengths[b].  offset places query i at position i + offset
    (see `Config.offset`).
    """
    allowed = mask
    rules = []
    if causal != "none":
        rules.append(np.arange(S)[None, :] <= np.arange(T)[:, None] + offset)
    if window is not None:
        rules.append(window_mask(T, S, window, causal=causal != "none", offset=offset))
    if key_lengths is not None:
        kl = np.asarray(key_lengths)
        kl = kl.reshape(kl.shape + (1,) * (len(batch_shape) - kl.ndim))
        rules.append(np.arange(S) < kl[..., None, None])            # [..., 1, S]
    for rule in rules:
        allowed = rule if allowed is None else allowed & rule
    return allowed


def alibi_slopes(n_heads: int) -> np.ndarray:
    """The slopes of Press et al. (2022), "Train short, test long", for n_heads heads.

    For a power of two n the slopes are 2^(-8/n), 2^(-16/n), ...; otherwise the
    n' = 2^floor(log2 n) slopes, then every other slope of 2n' (as BLOOM and flash-attn do).

    >>> (alibi_slopes(4) * 256).tolist()
    [64.0, 16.0, 4.0, 1.0]
    >>> (alibi_slopes(6) * 64).tolist()          # the 4 slopes of n' = 4, then 2 of the 8-head ones
    [16.0, 4.0, 1.0, 0.25, 32.0, 8.0]
    """
    def powers(n: int) -> np.ndarray:
        return 2.0 ** (-8.0 * np.arange(1, n + 1) / n)

    n = 1 << (n_heads.bit_length() - 1)
    if n == n_heads:
        return powers(n)
    return np.concatenate([powers(n), powers(2 * n)[0::2][:n_heads - n]])


def alibi_bias(slopes: np.ndarray, T: int, S: int, offset: int) -> np.ndarray:
    """[H, T, S]: -slope_h * |p_i - j|, with query i at position p_i = i + offset."""
    distance = np.abs(np.arange(T)[:, None] + offset - np.arange(S)[None, :])
    return -slopes[:, None, None] * distance


# ------------------------------------------------------------------ softmax & the per-head core

@dataclass(frozen=True)
class HeadSteps:
    """Every intermediate of scaled dot-product attention for all heads at once."""

    QKt: np.ndarray           # [..., T, S] raw scores Q^(h) K^(h)^T
    S: np.ndarray             # [..., T, S] scaled and masked scores; -inf where masked
    row_max: np.ndarray       # [..., T]    max of each row over visible keys (-inf if none)
    E: np.ndarray             # [..., T, S] exp(S - row_max); 0 where masked
    row_sum: np.ndarray       # [..., T]    sum of E over the row
    A: np.ndarray             # [..., T, S] attention weights E / row_sum
    O: np.ndarray             # [..., T, d_v] A V
    fully_masked: np.ndarray  # [..., T]    bool: the row could see no key; its A and O are 0


def head_attention(Qh: np.ndarray, Kh: np.ndarray, Vh: np.ndarray, *, scale: float,
                   allowed: np.ndarray | None = None, bias: np.ndarray | None = None) -> HeadSteps:
    """softmax(Q K^T * scale + bias) V with every sub-step kept; arrays are [..., T|S, d]."""
    # scores
    QKt = Qh @ Kh.swapaxes(-1, -2)                               # [..., T, S]: Q K^T, BLAS per head
    # scale, then the additive bias (a -inf in the bias masks like False does)
    S = QKt * Qh.dtype.type(scale)
    if bias is not None:
        S = (S + bias).astype(Qh.dtype, copy=False)
    visible = S > -np.inf if allowed is None else (allowed & (S > -np.inf))
    if not visible.all():
        np.copyto(S, -np.inf, where=~visible)                    # S is our own array: mask it in place
    # numerically stable softmax: shift each row by its max over visible keys
    fully_masked = ~visible.any(axis=-1)                         # [..., T]
    row_max = S.max(axis=-1)                                     # -inf on fully masked rows
    shift = np.where(fully_masked, 0.0, row_max)[..., None]
    E = S - shift                                                # exp(-inf) is exactly 0: masked keys need no where
    np.exp(E, out=E)
    row_sum = E.sum(axis=-1)                                     # >= 1 on every visible row
    # a row that sees no key gets weights 0 and output 0 (as SDPA and flash-attn), not NaN
    A = E / np.where(fully_masked, 1.0, row_sum)[..., None]
    # weighted sum of the values
    O = A @ Vh                                                   # [..., T, d_v]
    return HeadSteps(QKt=QKt, S=S, row_max=row_max, E=E, row_sum=row_sum, A=A, O=O,
                     fully_masked=fully_masked)


def attention(args: AttentionArgs) -> np.ndarray:
    """The reference scaled dot-product attention for validated per-head arguments (see `mha.attention`)."""
    return attention_steps(args).O


def head_inputs(args: AttentionArgs) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray, np.ndarray | None]:
    """q, k, v (a GQA key/value head repeated for each of its query heads), the visible keys and the bias
    (ALiBi's distances added to a given bias) of validated per-head arguments, as `head_attention` takes them."""
    q, k, v = args.q, args.k, args.v
    if args.groups > 1:
        k, v = np.repeat(k, args.groups, axis=-3), np.repeat(v, args.groups, axis=-3)
    allowed = visible_keys(args.T, args.S, mask=args.mask, causal=args.causal, key_lengths=args.key_lengths,
                           window=args.window, offset=args.offset, batch_shape=args.batch_shape)
    bias = args.bias
    if args.alibi is not None:
        slopes = alibi_slopes(args.n_heads) if isinstance(args.alibi, str) else args.alibi
        ab = alibi_bias(slopes, args.T, args.S, args.offset).astype(q.dtype)
        bias = ab if bias is None else bias + ab
    return q, k, v, allowed, bias


def attention_steps(args: AttentionArgs) -> HeadSteps:
    """`attention` with every sub-step kept (its row_max and row_sum give the log-sum-exp)."""
    q, k, v, allowed, bias = head_inputs(args)
    with np.errstate(over="ignore", invalid="ignore"):
        steps = head_attention(q, k, v, scale=args.scale, allowed=allowed, bias=bias)
        if not (np.isfinite(steps.O).all() and np.isfinite(np.where(steps.S > -np.inf, steps.QKt, 0.0)).all()):
            sizes = {name: float(np.abs(a).max()) for name, a in (("q", args.q), ("k", args.k), ("v", args.v))}
            field = max(sizes, key=sizes.get)
            raise MHAInputError(f"{field}: values up to {sizes[field]:.3g} make the attention overflow {q.dtype} "
                                f"(largest {float(np.finfo(q.dtype).max):.3g}); scale the input down")
    return steps


# ------------------------------------------------------------------ the full layer

@dataclass(frozen=True)
class LayerSteps:
    """Every intermediate of one layer call, batch axis first; names follow the worked example."""

    config: Config
    Q: np.ndarray                    # [B, T, H*d_k]      projected queries (or as given)
    K: np.ndarray                    # [B, S_new, G*d_k]  projected keys of this call
    V: np.ndarray                    # [B, S_new, G*d_v]
    Qh: np.ndarray                   # [B, H, T, d_k]     Q^(h)
    Kh: np.ndarray                   # [B, G, S_new, d_k] K^(g), the key/value heads' split
    Vh: np.ndarray                   # [B, G, S_new, d_v]
    Qh_rope: np.ndarray | None       # [B, H, T, d_k]     Q^(h) after RoPE
    Kh_rope: np.ndarray | None       # [B, G, S_new, d_k]
    K_all: np.ndarray                # [B, G, S, d_k]     what the heads attend over: cache rows, then new rows
    V_all: np.ndarray                # [B, G, S, d_v]
    QKt: np.ndarray                  # [B, H, T, S]       Q^(h) K^(g)^T
    position_bias: np.ndarray | None  # [H, T, S]         the ALiBi bias
    S: np.ndarray                    # [B, H, T, S]       scaled, biased, -inf where masked
    row_max: np.ndarray              # [B, H, T]
    E: np.ndarray                    # [B, H, T, S]       exp(S - row_max)
    row_sum: np.ndarray              # [B, H, T]
    A: np.ndarray                    # [B, H, T, S]       attention weights
    O: np.ndarray                    # [B, H, T, d_v]     O^(h)
    fully_masked: np.ndarray         # [B, H, T] bool
    O_concat: np.ndarray             # [B, T, H*d_v]
    Y: np.ndarray                    # [B, T, d_out]


def layer(cfg: Config, cls: type = LayerSteps) -> Any:
    """Compute the layer for a validated `Config`, keeping every intermediate (an instance of cls)."""
    H, G = cfg.n_heads, cfg.G
    with np.errstate(over="ignore", invalid="ignore"):          # overflow is reported below, by name
        # project
        if cfg.given_qkv:
            Q, K, V = cfg.Q_in, cfg.K_in, cfg.V_in
        else:
            X_k = cfg.X if cfg.key is None else cfg.key
            X_v = cfg.X if cfg.value is None else cfg.value
            Q = project(cfg.X, cfg.W_Q, cfg.b_Q)                 # [B, T, H*d_k]
            K = project(X_k, cfg.W_K, cfg.b_K)                   # [B, S_new, G*d_k]
            V = project(X_v, cfg.W_V, cfg.b_V)                   # [B, S_new, G*d_v]
            _refuse_overflow("the projections Q = X W_Q, K, V", (Q, K, V), cfg)
        # split heads
        Qh, Kh, Vh = split_heads(Q, H), split_heads(K, G), split_heads(V, G)
        # rotary position embedding
        Qh_rope = Kh_rope = None
        if cfg.rope is not None:
            r = cfg.rope
            Qh_rope = apply_rope(Qh, rope_angles(r.positions, r.inv_freq), style=r.style, dims=r.dims,
                                 factor=r.attention_factor)
            Kh_rope = apply_rope(Kh, rope_angles(r.key_positions, r.inv_freq), style=r.style, dims=r.dims,
                                 factor=r.attention_factor)
        # the keys and values attended over: cached rows first
        K_new = Kh if Kh_rope is None else Kh_rope
        K_all = K_new if cfg.cache_K is None else np.concatenate([cfg.cache_K, K_new], axis=2)   # [B, G, S, d_k]
        V_all = Vh if cfg.cache_V is None else np.concatenate([cfg.cache_V, Vh], axis=2)
        # masks and position biases
        allowed = visible_keys(cfg.T, cfg.S, mask=cfg.mask, causal=cfg.causal, key_lengths=cfg.key_lengths,
                               window=cfg.window, offset=cfg.offset, batch_shape=(cfg.B, H))
        if allowed is not None:
            allowed = np.broadcast_to(allowed, (cfg.B, H, cfg.T, cfg.S))
        position_bias = None
        bias = cfg.bias
        if cfg.alibi_rule is not None:
            slopes = alibi_slopes(H) if cfg.alibi_rule == "press" else cfg.alibi
            position_bias = alibi_bias(slopes, cfg.T, cfg.S, cfg.offset).astype(cfg.dtype)
            bias = position_bias if bias is None else bias + position_bias
        # scores, scale, mask, softmax, weighted sum: query head h reads key/value head h // (H / G)
        n_rep = H // G
        heads = head_attention(Qh if Qh_rope is None else Qh_rope, repeat_kv(K_all, n_rep),
                               repeat_kv(V_all, n_rep), scale=cfg.effective_scale, allowed=allowed, bias=bias)
        scores = heads.QKt              # an overflowed score only counts where its key is visible
        if not np.isfinite(scores).all():
            scores = np.where(heads.S > -np.inf, scores, 0.0)
        _refuse_overflow("the scores Q^(h) K^(h)ᵀ", (scores,), cfg)
        # concat and output projection
        O_concat = merge_heads(heads.O)                          # [B, T, H*d_v]
        Y = project(O_concat, cfg.W_O, cfg.b_O)                  # [B, T, d_out]
        _refuse_overflow("the output Y", (heads.O, Y), cfg)
    return cls(config=cfg, Q=Q, K=K, V=V, Qh=Qh, Kh=Kh, Vh=Vh, Qh_rope=Qh_rope, Kh_rope=Kh_rope, K_all=K_all,
               V_all=V_all, QKt=heads.QKt, position_bias=position_bias, S=heads.S, row_max=heads.row_max,
               E=heads.E, row_sum=heads.row_sum, A=heads.A, O=heads.O, fully_masked=heads.fully_masked,
               O_concat=O_concat, Y=Y)


def _refuse_overflow(step: str, arrays: tuple[np.ndarray, ...], cfg: Config) -> None:
    """Overflowed values are refused by name: the input with the largest magnitude is the one to scale down."""
    if all(np.isfinite(a).all() for a in arrays):
        return
    inputs = {"X": cfg.X, "key": cfg.key, "value": cfg.value, "Q": cfg.Q_in, "K": cfg.K_in, "V": cfg.V_in,
              "W_Q": cfg.W_Q, "W_K": cfg.W_K, "W_V": cfg.W_V, "W_O": cfg.W_O, "bias": cfg.bias,
              "cache.K": cfg.cache_K, "cache.V": cfg.cache_V}
    sizes = {name: float(np.abs(np.where(np.isfinite(a), a, 0.0)).max()) for name, a in inputs.items()
             if a is not None and a.size}
    field = max(sizes, key=sizes.get)
    raise MHAInputError(f"{field}: values up to {sizes[field]:.3g} make {step} overflow {cfg.dtype} "
                        f"(largest {float(np.finfo(cfg.dtype).max):.3g}); scale the input down")
