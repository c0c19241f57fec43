"""`mha.attention` and the fast full layer: the choice between the reference core and the tiled path.

This module sits above both `mha.core` (the reference, which keeps every
intermediate) and `mha.fast` (tiled, bounded memory), so neither imports the other.
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np

from . import core, fast
from .inputs import Config, MHAInputError, parse_attention_args, parse_config

# impl="auto" takes the tiled path once the T x S matrices of all heads would hold more scores than this
AUTO_TILED_SCORES = 1 << 22


def resolve_impl(impl: str, n_scores: int) -> str:
    """"auto" becomes "tiled" or "reference" by the number of scores; the other names pass through."""
    if impl == "auto":
        return "tiled" if n_scores > AUTO_TILED_SCORES else "reference"
    if impl not in ("reference", "tiled"):
        raise MHAInputError(f"impl: expected \"auto\", \"reference\" or \"tiled\", got {impl!r}")
    return impl


def attention(q: Any, k: Any, v: Any, *, mask: Any = None, causal: Any = False, scale: Any = None,
              key_lengths: Any = None, bias: Any = None, window: Any = None, alibi: Any = None,
              enable_gqa: bool = False, impl: str = "auto", block_size: int | None = None) -> np.ndarray:
    """Scaled dot-product attention on per-head arrays: q [..., T, d_k], k [..., S, d_k], v [..., S, d_v].

    mask is boolean, True = may attend, broadcastable to [..., T, S].  causal is
    False, True / "top_left" or "bottom_right".  key_lengths has the shape of a
    prefix of the leading axes.  bias is added to the scaled scores.  scale is a
    number, None (1/sqrt(d_k)), "none" or "1/d_k".  window is a sliding window;
    alibi is True or per-head slopes (q is then [..., H, T, d_k]); enable_gqa lets
    k and v have fewer heads than q (axis -3), as torch's SDPA.  impl is
    "reference" (mha.core), "tiled" (mha.fast, bounded memory) or "auto".

    >>> x = np.array([[1., 0.], [0., 1.], [1., 1.]])   # head 1 of the worked example
    >>> attention(x, x, x, impl="reference").round(4)
    array([[0.8022, 0.5989],
           [0.5989, 0.8022],
           [0.7517, 0.7517]])
    """
    args = parse_attention_args(q, k, v, mask=mask, causal=causal, scale=scale, key_lengths=key_lengths, bias=bias,
                                window=window, alibi=alibi, enable_gqa=enable_gqa)
    impl = resolve_impl(impl, args.T * args.S * max(1, math.prod(args.batch_shape)))
    if impl == "tiled" and args.window is None and args.alibi is None and args.groups == 1:
        return fast.tiled_attention(args.q, args.k, args.v, scale=args.scale, mask=args.mask, causal=args.causal,
                                    key_lengths=args.key_lengths, bias=args.bias, block_size=block_size)
    return core.attention(args)


def forward(data: Any, *, impl: str = "auto", dtype: Any = np.float64,
            block_size: int | tuple[int, int] | None = None, workers: int | None = None) -> np.ndarray:
    """The full layer Y = MHA(X) without building a trace: the fast path for every size.

    data is an input mapping (or a validated Config).  Returns Y with the batch
    axis exactly when the input had one.
    """
    cfg = data if isinstance(data, Config) else parse_config(data, dtype=dtype)
    impl = resolve_impl(impl, cfg.B * cfg.n_heads * cfg.T * cfg.S)
    plain = (cfg.rope is None and cfg.cache_K is None and cfg.alibi_rule is None and cfg.window is None
             and cfg.G == cfg.n_heads and not cfg.given_qkv)
    if impl != "tiled" or not plain:
        Y = core.layer(cfg).Y
    else:
        Y = fast.forward_config(cfg, block_size=block_size, workers=workers)
    return Y if cfg.batched else Y[0]
