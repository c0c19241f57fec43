"""Gradients without a trace: `attention_backward` (per-head attention) and `forward_backward` (a whole layer).

Both run the FlashAttention-2 backward of `mha.fast_backward` by default, and
impl="reference" runs `mha.backward`, which keeps every T × S intermediate (the
oracle they are tested against).  This module sits at the attend layer, above
both paths.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from . import fast, fast_backward
from .attend import check_workers, resolve_impl
from .backward import (attention_backward_reference, check_upstream, layer_backward, projection_grads, rotate_back,
                       unbroadcast, upstream)
from .core import alibi_slopes, apply_rope, layer, merge_heads, rope_angles, split_heads
from .inputs import Config, MHAInputError, Upstream, parse_attention_args, parse_config


def attention_backward(q: Any, k: Any, v: Any, dO: Any, *, out: Any = None, lse: Any = None, mask: Any = None,
                       causal: Any = False, scale: Any = None, key_lengths: Any = None, bias: Any = None,
                       window: Any = None, alibi: Any = None, enable_gqa: bool = False, impl: str = "auto",
                       block_size: int | tuple[int, int] | None = None, workers: int | None = None,
                       ) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """dq, dk, dv of `mha.attention(q, k, v, ...)` for the upstream gradient dO (the output's shape).

    The arguments are `mha.attention`'s.  out and lse (the output and each row's
    log-sum-exp of the scaled scores, natural log, [..., T]) come from the forward;
    without them the forward is run once more, keeping lse.  Each gradient has
    its input's shape.  The tiled path keeps no T × S matrix.

    >>> x = np.array([[1., 0.], [0., 1.], [1., 1.]])
    >>> dq, dk, dv = attention_backward(x, x, x, np.ones((3, 2)))
    >>> dv.round(4)                     # dO = 1: value row j gets the total weight its key received
    array([[0.8471, 0.8471],
           [0.8471, 0.8471],
           [1.3057, 1.3057]])
    """
    args = parse_attention_args(q, k, v, mask=mask, causal=causal, scale=scale, key_lengths=key_lengths, bias=bias,
                                window=window, alibi=alibi, enable_gqa=enable_gqa)
    want = args.batch_shape + (args.T, args.v.shape[-1])
    d_out = np.asarray(dO, dtype=args.q.dtype)
    if d_out.shape != want:
        raise MHAInputError(f"dO: shape {list(d_out.shape)} does not fit the output of attention, {list(want)} "
                            f"(q {list(args.q.shape)}, v {list(args.v.shape)})")
    if not np.isfinite(d_out).all():
        raise MHAInputError("dO: holds NaN or infinity")
    if (out is None) != (lse is None):
        raise MHAInputError("out, lse: give both (the forward's output and log-sum-exp) or neither")
    impl = resolve_impl(impl, args.q.dtype)
    workers = check_workers(workers)
    if impl == "reference":
        return attention_backward_reference(args, d_out)
    a, L = fast_backward.prepare(args.q, args.k, args.v, scale=args.scale, causal=args.causal, mask=args.mask,
                                 bias=args.bias, key_lengths=args.key_lengths, window=args.window, alibi=args.alibi,
                                 groups=args.groups, block=block_size)
    if out is None:
        o, row_lse = fast_backward.flash_forward(a, workers)
    else:
        o = fast_backward.as_heads(out, a, L, a.d_v, "out")
        row_lse = fast_backward.as_heads(np.asarray(lse)[..., None], a, L, 1, "lse")[..., 0]
    g = fast_backward.flash_backward(a, o, fast_backward.as_heads(d_out, a, L, a.d_v, "dO"), row_lse, workers)
    kv = (L[:-1] + (a.H // a.rep,)) if L else ()
    return (unbroadcast(g.dq.reshape(L + g.dq.shape[2:]), args.q.shape),
            unbroadcast(g.dk.reshape(kv + g.dk.shape[2:]), args.k.shape),
            unbroadcast(g.dv.reshape(kv + g.dv.shape[2:]), args.v.shape))


def forward_backward(data: Any, dY: Any = None, *, impl: str = "auto", dtype: Any = np.float64,
                     block_size: int | tuple[int, int] | None = None, workers: int | None = None) -> dict[str, Any]:
    """Y, the loss and the gradient of every input of one layer, without a trace.

    data is an input mapping (or a Config); the upstream gradient is dY if given,
    else the input's "backward" key, else L = sum of Y.  Returns {"Y", "L", "dY",
    "dW_O", "db_O", "dQ", "dK", "dV", "dcache_K", "dcache_V", "dW_Q", "dW_K",
    "dW_V", "db_Q", "db_K", "db_V", "dX_Q", "dX_K", "dX_V", "dX"} (None where the
    layer has no such input), with the batch axis exactly when the input had one.

    >>> import mha
    >>> g = forward_backward(mha.DOCUMENT_EXAMPLE)
    >>> round(float(g["L"]), 4), g["dW_Q"].shape
    (6.4759, (4, 4))
    """
    cfg = data if isinstance(data, Config) else parse_config(data, dtype=dtype)
    up = Upstream("dY", check_upstream(cfg, dY)) if dY is not None else cfg.backward or Upstream("sum")
    impl = resolve_impl(impl, cfg.dtype)
    workers = check_workers(workers)
    if impl == "reference":
        steps = layer(cfg)
        g = layer_backward(steps, up)
        out = {name: getattr(g, name) for name in LEAVES}
        out.update(Y=steps.Y, L=g.L)
    else:
        out = _tiled_layer(cfg, up, block_size, workers)
    return {name: _user(value, cfg, name) for name, value in out.items()}


LEAVES = ("dY", "dW_O", "db_O", "dQ", "dK", "dV", "dcache_K", "dcache_V", "dW_Q", "dW_K", "dW_V", "db_Q", "db_K",
          "db_V", "dX_Q", "dX_K", "dX_V", "dX")
_PARAMS = ("dW_O", "db_O", "dW_Q", "dW_K", "dW_V", "db_Q", "db_K", "db_V", "L")


def _user(value: Any, cfg: Config, name: str) -> Any:
    if value is None or name in _PARAMS or cfg.batched:
        return value
    return value[0]


def _tiled_layer(cfg: Config, up: Upstream, block: Any, workers: int | None) -> dict[str, Any]:
    """The layer forward (O and lse kept) and backward on the tiles, in the order of mha.backward."""
    H, G, B, T = cfg.n_heads, cfg.G, cfg.B, cfg.T
    crew = fast.team(workers or fast.cores())
    # forward: project, split, rotate, join the cache
    if cfg.given_qkv:
        Q, K, V = cfg.Q_in, cfg.K_in, cfg.V_in
    else:
        Q = crew.matmul(cfg.X, cfg.W_Q, cfg.b_Q)
        K = crew.matmul(cfg.X if cfg.key is None else cfg.key, cfg.W_K, cfg.b_K)
        V = crew.matmul(cfg.X if cfg.value is None else cfg.value, cfg.W_V, cfg.b_V)
    Qh, Kh, Vh = (np.ascontiguousarray(split_heads(M, n)) for M, n in ((Q, H), (K, G), (V, G)))
    if cfg.rope is not None:
        r = cfg.rope
        Qh = apply_rope(Qh, rope_angles(r.positions, r.inv_freq), style=r.style, dims=r.dims, factor=r.attention_factor)
        Kh = apply_rope(Kh, rope_angles(r.key_positions, r.inv_freq), style=r.style, dims=r.dims,
                        factor=r.attention_factor)
    K_all = Kh if cfg.cache_K is None else np.concatenate([cfg.cache_K, Kh], axis=2)
    V_all = Vh if cfg.cache_V is None else np.concatenate([cfg.cache_V, Vh], axis=2)
    slopes = None
    if cfg.alibi_rule is not None:
        slopes = alibi_slopes(H) if cfg.alibi_rule == "press" else cfg.alibi
    rows, keys = fast_backward.check_tile(block, banded=cfg.causal != "none" or cfg.window is not None)
    a = fast_backward.TiledAttention(
        Qh, K_all, V_all, scale=cfg.effective_scale, causal=cfg.causal != "none", offset=cfg.offset,
        window=cfg.window, slopes=slopes, mask=cfg.mask, bias=cfg.bias,
        lengths=None if cfg.key_lengths is None else cfg.key_lengths[:, None], rows=rows, keys=keys)
    o, lse = fast_backward.flash_forward(a, workers)
    O_concat = merge_heads(o)
    Y = O_concat if cfg.W_O is None else crew.matmul(O_concat, cfg.W_O)
    if cfg.b_O is not None:
        Y = Y + cfg.b_O
    if not np.isfinite(Y).all():
        layer(cfg)                                  # the reference names the input whose values overflow
    # backward: output projection, split, the attention tiles, cache, RoPE, concat, projections
    dY, L = upstream(up, Y)
    dO_concat = dY if cfg.W_O is None else crew.matmul(dY, np.ascontiguousarray(cfg.W_O.T))
    dW_O = None if cfg.W_O is None else np.einsum("btc,bto->co", O_concat, dY)
    db_O = None if cfg.b_O is None else dY.sum(axis=(0, 1))
    g = fast_backward.flash_backward(a, o, np.ascontiguousarray(split_heads(dO_concat, H)), lse, workers)
    P = cfg.S_past
    dcache_K, dcache_V = (None, None) if cfg.cache_K is None else (g.dk[:, :, :P], g.dv[:, :, :P])
    dKh, dVh, dQh = g.dk[:, :, P:], g.dv[:, :, P:], g.dq
    if cfg.rope is not None:
        dQh = rotate_back(dQh, cfg.rope.positions, cfg)
        dKh = rotate_back(dKh, cfg.rope.key_positions, cfg)
    dQ, dK, dV = merge_heads(dQh), merge_heads(dKh), merge_heads(dVh)
    out = dict(Y=Y, L=L, dY=dY, dW_O=dW_O, db_O=db_O, dQ=dQ, dK=dK, dV=dV, dcache_K=dcache_K, dcache_V=dcache_V)
    out.update(projection_grads(cfg, dQ, dK, dV))
    return out
