"""The entry points that compute attention without a trace, and the rule that picks the path.

`attention` (per-head arrays) and `forward` (a whole layer from an input
mapping) run on the fast path (`mha.fast`) by default, at every size, in
float32 and float64.  impl="reference" runs the float64-exact core
(`mha.core`), which keeps every intermediate: that is the oracle the fast path
is tested against, and what `mha.trace` uses to explain.

This module sits above both: inputs -> core -> fast -> attend.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any

import numpy as np

from . import core, fast
from .inputs import Config, MHAInputError, as_array, parse_causal, parse_config

IMPLS = ("auto", "reference", "tiled")


def resolve_impl(impl: str, dtype: Any = np.float64, *, trace: bool = False) -> str:
    """"auto" becomes the fast path ("tiled") for float32 and float64, and the reference when a trace
    (every intermediate) is wanted; the other names pass through after a check.

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


@dataclass(frozen=True)
class AttentionArgs:
    """The validated arguments of `attention`, arrays in one dtype."""

    q: np.ndarray                        # [..., T, d]
    k: np.ndarray                        # [..., S, d]
    v: np.ndarray                        # [..., S, d_v]
    batch_shape: tuple[int, ...]         # the leading axes, broadcast
    causal: str
    scale: float
    mask: np.ndarray | None              # bool, broadcasts to batch_shape + (T, S)
    bias: np.ndarray | None
    key_lengths: np.ndarray | None       # ints, shape a prefix of batch_shape

    @property
    def T(self) -> int:
        return self.q.shape[-2]

    @property
    def S(self) -> int:
        return self.k.shape[-2]


def parse_attention_args(q: Any, k: Any, v: Any, *, mask: Any = None, causal: Any = False,
                         scale: float | None = None, key_lengths: Any = None, bias: Any = None,
                         finite: bool = True) -> AttentionArgs:
    """Check `attention`'s arguments; every problem is one MHAInputError naming the argument and shapes.

    finite=False leaves out the scan of float arrays for NaN and infinity: the
    fast path finds them in a pass it makes anyway (see `check_finite`).
    """
    q, k, v = (_as_float(a, name, finite) for a, name in ((q, "q"), (k, "k"), (v, "v")))
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
    if scale is None:
        scale = 1.0 / math.sqrt(q.shape[-1])
    elif isinstance(scale, bool) or not isinstance(scale, (int, float, np.number)) or not math.isfinite(scale):
        raise MHAInputError(f"scale: expected a finite number, got {scale!r}")
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
    return AttentionArgs(q, k, v, tuple(batch_shape), causal, float(scale), mask, bias, key_lengths)


def attention(q: Any, k: Any, v: Any, *, mask: Any = None, causal: Any = False,
              scale: float | None = None, key_lengths: Any = None, bias: Any = None,
              impl: str = "auto", block_size: int | tuple[int, int] | None = None,
              workers: int | None = None) -> np.ndarray:
    """Scaled dot-product attention on per-head arrays: q [..., T, d_head], k [..., S, d_head], v [..., S, d_v].

    mask is boolean, True = may attend, broadcastable to [..., T, S].  causal is
    False, True / "top_left" or "bottom_right".  key_lengths has the shape of a
    prefix of the leading axes.  bias is added to the scaled scores.  impl is
    "auto" (the fast path for float32 and float64), "tiled" (the fast path:
    bounded memory, threads) or "reference" (`mha.core`, every intermediate
    kept).  block_size (keys, or (queries, keys)) and workers override the
    fast path's measured choices.  The result has q's dtype rules: float32
    stays float32, anything else is float64.

    >>> x = np.array([[1., 0.], [0., 1.], [1., 1.]])   # head 1 of the worked example
    >>> attention(x, x, x).round(4)
    array([[0.8022, 0.5989],
           [0.5989, 0.8022],
           [0.7517, 0.7517]])
    """
    a = parse_attention_args(q, k, v, mask=mask, causal=causal, scale=scale, key_lengths=key_lengths, bias=bias,
                             finite=False)
    impl = resolve_impl(impl, a.q.dtype)
    block_size, workers = check_block(block_size), check_workers(workers)
    if impl == "reference":
        check_finite(a)
        allowed = core.visible_keys(a.T, a.S, mask=a.mask, causal=a.causal, key_lengths=a.key_lengths,
                                    batch_shape=a.batch_shape)
        return core.head_attention(a.q, a.k, a.v, scale=a.scale, allowed=allowed, bias=a.bias).O

    def run(force_shift: bool = False) -> np.ndarray:
        return fast.tiled_attention(a.q, a.k, a.v, scale=a.scale, mask=a.mask, causal=a.causal,
                                    key_lengths=a.key_lengths, bias=a.bias, block_size=block_size,
                                    workers=workers, force_shift=force_shift)
    try:
        return run()
    except fast.NonFinite:
        check_finite(a)              # names the input holding NaN or infinity, if one does
    out = run(force_shift=True)      # else the values were only too large to square: take the max-shift
    if not np.isfinite(out).all():
        big = max(float(np.abs(x).max()) for x in (a.q, a.k))
        raise MHAInputError(f"q, k: the scores q.k * scale overflow {a.q.dtype} (largest |q|, |k| entry {big:.3g}); "
                            f"scale the inputs down")
    return out


def check_finite(a: AttentionArgs) -> None:
    """MHAInputError naming the first of q, k, v that holds NaN or infinity."""
    for arr, name in ((a.q, "q"), (a.k, "k"), (a.v, "v")):
        as_array(arr, name, ndims=(arr.ndim,), dtype=arr.dtype)


def forward(data: Any, *, impl: str = "auto", dtype: Any = np.float64,
            block_size: int | tuple[int, int] | None = None, workers: int | None = None) -> np.ndarray:
    """The full layer Y = MHA(X) without a trace, on the fast path by default.

    data is an input mapping (the JSON input format) or a validated Config.
    Returns Y with the batch axis exactly when X had one.

    >>> import mha
    >>> forward(mha.DOCUMENT_EXAMPLE)[2].round(4)
    array([0.7517, 0.7517, 0.3333, 0.3333])
    """
    cfg = data if isinstance(data, Config) else parse_config(data, dtype=dtype)
    impl = resolve_impl(impl, cfg.dtype)
    block_size, workers = check_block(block_size), check_workers(workers)
    if impl == "reference":
        Y = core.run(cfg).Y
    else:
        Y = fast.layer(cfg, block=block_size, workers=workers)
    return Y if cfg.batched else Y[0]


def _as_float(a: Any, name: str, finite: bool = True) -> np.ndarray:
    ndims = tuple(range(2, 9))
    if not finite and isinstance(a, np.ndarray) and a.dtype in (np.float32, np.float64):
        # the structural checks of as_array, without its scan for NaN and infinity
        if a.size == 0:
            raise MHAInputError(f"{name}: empty array of shape {list(a.shape)}")
        if a.ndim not in ndims:
            raise MHAInputError(f"{name}: expected 2-D to 8-D, got shape {list(a.shape)}")
        return a
    return as_array(a, name, ndims=ndims,
                    dtype=a.dtype if isinstance(a, np.ndarray) and a.dtype in (np.float32, np.float64)
                    else np.float64)


def _check_broadcast(arr: np.ndarray, field: str, shape: tuple[int, ...]) -> None:
    try:
        if np.broadcast_shapes(arr.shape, shape) == shape:
            return
    except ValueError:
        pass
    raise MHAInputError(f"{field}: shape {list(arr.shape)} does not broadcast to [..., T, S] = {list(shape)}")
