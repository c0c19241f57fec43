"""`mha.attention` and the layer without a trace (`forward`): which path computes them.

By default both run on the fast path (`mha.fast`) at every size, in float32
and float64, every variant included (masks, causal, GQA, sliding windows,
ALiBi, RoPE, the KV cache).  impl="reference" runs the float64-exact core
(`mha.core`), which keeps every intermediate: the oracle the fast path is
tested against, and what `mha.trace` explains.

This module sits above both (inputs -> core -> fast -> attend), so neither
imports the other.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from . import core, fast
from .attention_args import finite_inputs
from .inputs import AttentionArgs, Config, MHAInputError, parse_attention_args, parse_config

IMPLS = ("auto", "reference", "tiled")


def resolve_impl(impl: str, dtype: Any = np.float64, *, trace: bool = False) -> str:
    """"auto" becomes the fast path ("tiled") for float32 and float64, or the reference when every
    intermediate is wanted (a trace); the other names pass through after a check.

    >>> resolve_impl("auto", np.float32), resolve_impl("auto", trace=True)
    ('tiled', 'reference')
    """
    if impl not in IMPLS:
        raise MHAInputError(f"impl: expected \"auto\", \"reference\" or \"tiled\", got {impl!r}")
    if impl == "auto":
        return "reference" if trace or np.dtype(dtype) not in (np.float32, np.float64) else "tiled"
    return impl


def check_block(block_size: Any) -> int | tuple[int, int] | None:
    """None, a key block size >= 1, or a (query block, key block) pair of them."""
    if block_size is None:
        return None
    if isinstance(block_size, (tuple, list)) and len(block_size) == 2:
        return (fast.check_block_size(block_size[0]), fast.check_block_size(block_size[1]))
    return fast.check_block_size(block_size)


def check_workers(workers: Any) -> int | None:
    if workers is None:
        return None
    if isinstance(workers, bool) or not isinstance(workers, (int, np.integer)) or workers < 1:
        raise MHAInputError(f"workers: expected a whole number >= 1, got {workers!r}")
    return int(workers)


def attention(q: Any, k: Any, v: Any, *, mask: Any = None, causal: Any = False, scale: Any = None,
              key_lengths: Any = None, bias: Any = None, window: Any = None, alibi: Any = None,
              enable_gqa: bool = False, impl: str = "auto", block_size: int | tuple[int, int] | None = None,
              workers: int | None = None, return_lse: bool = False) -> Any:
    """Scaled dot-product attention on per-head arrays: q [..., T, d_k], k [..., S, d_k], v [..., S, d_v].

    mask is boolean, True = may attend, broadcastable to [..., T, S].  causal is
    False, True / "top_left" or "bottom_right".  key_lengths has the shape of a
    prefix of the leading axes.  bias is added to the scaled scores.  scale is a
    number, None (1/sqrt(d_k)), "none" or "1/d_k".  window is a sliding window;
    alibi is True or per-head slopes (q is then [..., H, T, d_k]); enable_gqa lets
    k and v have fewer heads than q (axis -3), as torch's SDPA.  impl is "auto"
    (the fast path), "tiled" (the same) or "reference" (mha.core, every
    intermediate kept).  block_size (keys, or (queries, keys)) and workers
    override the fast path's measured choices.  return_lse=True returns
    (out, lse): lse [..., T] (out's shape without d_v) is the natural log of
    each row's sum of e^score over its scaled, biased, visible scores, -inf
    for a row that sees no key (what a backward pass or a merge of partial
    results needs).

    >>> x = np.array([[1., 0.], [0., 1.], [1., 1.]])   # head 1 of the worked example
    >>> attention(x, x, x).round(4)
    array([[0.8022, 0.5989],
           [0.5989, 0.8022],
           [0.7517, 0.7517]])
    """
    args = parse_attention_args(q, k, v, mask=mask, causal=causal, scale=scale, key_lengths=key_lengths, bias=bias,
                                window=window, alibi=alibi, enable_gqa=enable_gqa, defer_finite=impl != "reference")
    impl = resolve_impl(impl, args.q.dtype)
    block_size, workers = check_block(block_size), check_workers(workers)
    if impl == "reference":
        if not return_lse:
            return core.attention(args)
        steps = core.attention_steps(args)
        with np.errstate(divide="ignore"):
            lse = np.where(steps.fully_masked, -np.inf, steps.row_max + np.log(steps.row_sum))
        return steps.O, lse.astype(steps.O.dtype)
    return tiled(args, block_size=block_size, workers=workers, return_lse=return_lse)


def tiled(args: AttentionArgs, *, block_size: int | tuple[int, int] | None = None, workers: int | None = None,
          return_lse: bool = False) -> Any:
    """`attention` on the fast path for parsed arguments (the backward pass's forward calls it too)."""
    def run(args: AttentionArgs, force_shift: bool = False) -> Any:
        return fast.tiled_attention(args.q, args.k, args.v, scale=args.scale, mask=args.mask, causal=args.causal,
                                    key_lengths=args.key_lengths, bias=args.bias, window=args.window,
                                    alibi=_slopes(args.alibi, args.q.shape[-3] if args.q.ndim > 2 else 1),
                                    groups=args.groups, block_size=block_size, workers=workers,
                                    force_shift=force_shift, return_lse=return_lse, check_inputs=not args.finite)
    try:
        return run(args)            # finite: attention_heads checked it, or proved it from its scan
    except fast.NonFinite:          # NaN or infinity in q, k, v (named here), or finite values too large to square
        args = finite_inputs(args)
        result = run(args, force_shift=True)
    if not np.isfinite(result[0] if return_lse else result).all():
        return _overflow(args)
    return result


def _slopes(alibi: np.ndarray | str | None, n_heads: int) -> np.ndarray | None:
    return core.alibi_slopes(n_heads) if isinstance(alibi, str) else alibi


def _overflow(args: AttentionArgs) -> np.ndarray:
    big = max(float(np.abs(x).max()) for x in (args.q, args.k))
    raise MHAInputError(f"q, k: values up to {big:.3g} make the scores q.k * scale overflow {args.q.dtype}; "
                        f"scale the inputs down")


def forward(data: Any, *, impl: str = "auto", dtype: Any = np.float64,
            block_size: int | tuple[int, int] | None = None, workers: int | None = None) -> np.ndarray:
    """The full layer Y = MHA(X) without a trace, on the fast path by default, every input key included.

    data is an input mapping (the JSON input format) or a validated Config.
    Returns Y with the batch axis exactly when the input had one.

    >>> import mha
    >>> forward(mha.DOCUMENT_EXAMPLE)[2].round(4)
    array([0.7517, 0.7517, 0.3333, 0.3333])
    """
    cfg = data if isinstance(data, Config) else parse_config(data, dtype=dtype)
    impl = resolve_impl(impl, cfg.dtype)
    block_size, workers = check_block(block_size), check_workers(workers)
    Y = None
    if impl == "tiled":
        try:
            Y = fast_layer(cfg, block=block_size, workers=workers)
        except fast.NonFinite:
            Y = None
        if Y is not None and not np.isfinite(Y).all():
            Y = None
    if Y is None:                   # the reference; it also names an input whose values overflow
        Y = core.layer(cfg).Y
    return Y if cfg.batched else Y[0]


def fast_layer(cfg: Config, *, block: int | tuple[int, int] | None = None,
               workers: int | None = None) -> np.ndarray:
    """Y [B, T, d_out] for a validated Config on the fast path, in the core's order of steps.

    The projections and the attention share one team of threads; RoPE turns
    Q^(h) and K^(g) once, before any tile; the cache is joined to the new keys by
    concatenation; query heads read their K/V head inside the tiles (no
    repeat_kv copy); each head writes its output straight into its columns of
    the concat.  Raises fast.NonFinite if a value overflowed.
    """
    H, G = cfg.n_heads, cfg.G
    width = cfg.d_model or H * cfg.d_k
    work = fast.layer_flops(cfg.B, cfg.T, cfg.S, width, H) // 2
    crew = fast.team(workers or (1 if work < fast.ONE_THREAD_WORK else fast.cores()))
    # project
    if cfg.given_qkv:
        Q, K, V = cfg.Q_in, cfg.K_in, cfg.V_in                          # [B, T, H*d_k], [B, S_new, G*d_*]
    else:
        X_k = cfg.X if cfg.key is None else cfg.key
        X_v = cfg.X if cfg.value is None else cfg.value
        Q = crew.matmul(cfg.X, cfg.W_Q, cfg.b_Q)                         # [B, T, H*d_k]
        K = crew.matmul(X_k, cfg.W_K, cfg.b_K)                           # [B, S_new, G*d_k]
        V = crew.matmul(X_v, cfg.W_V, cfg.b_V)                           # [B, S_new, G*d_v]
    # split heads (views)
    Qh, Kh, Vh = core.split_heads(Q, H), core.split_heads(K, G), core.split_heads(V, G)
    # rotary position embedding, once per head
    if cfg.rope is not None:
        r = cfg.rope
        Qh = core.apply_rope(Qh, core.rope_angles(r.positions, r.inv_freq), style=r.style, dims=r.dims,
                             factor=r.attention_factor)
        Kh = core.apply_rope(Kh, core.rope_angles(r.key_positions, r.inv_freq), style=r.style, dims=r.dims,
                             factor=r.attention_factor)
    # the keys and values attended over: cached rows first
    if cfg.cache_K is not None:
        Kh = np.concatenate([cfg.cache_K, Kh], axis=2)                   # [B, G, S, d_k]
        Vh = np.concatenate([cfg.cache_V, Vh], axis=2)                   # [B, G, S, d_v]
    slopes = None
    if cfg.alibi_rule is not None:
        slopes = core.alibi_slopes(H) if cfg.alibi_rule == "press" else cfg.alibi
    # scores, scale, masks, softmax, weighted sum, written into the concat [B, T, H*d_v]
    O_concat = np.empty((cfg.B, cfg.T, H * Vh.shape[3]), dtype=np.result_type(Qh, Kh, Vh))
    fast.attention_heads(Qh, Kh, Vh, scale=cfg.effective_scale, causal=cfg.causal != "none", offset=cfg.offset,
                         window=cfg.window, alibi=slopes, mask=cfg.mask, bias=cfg.bias,
                         key_lengths=cfg.key_lengths, block=block, out=core.split_heads(O_concat, H), pool=crew)
    # output projection
    if cfg.W_O is None:
        return O_concat if cfg.b_O is None else O_concat + cfg.b_O
    return crew.matmul(O_concat, cfg.W_O, cfg.b_O)                       # [B, T, d_out]
