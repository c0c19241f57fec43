"""The arguments of attention on per-head arrays (`mha.attention`, `mha.attention_backward`), checked.

q [..., T, d_k], k [..., S, d_k], v [..., S, d_v] with broadcasting leading axes,
as torch's scaled_dot_product_attention takes them, and the options; every bad
argument is named in one `MHAInputError`.
"""

from __future__ import annotations

import dataclasses
import math
from dataclasses import dataclass
from typing import Any

import numpy as np

from .arrays import MHAInputError, _count, as_array
from .variants import _alibi, parse_causal, parse_scale


@dataclass(frozen=True)
class AttentionArgs:
    """Validated arguments of scaled dot-product attention on per-head arrays (`mha.attention`)."""

    q: np.ndarray                    # [..., H, T, d_k] (any leading axes; H only matters with GQA or ALiBi)
    k: np.ndarray                    # [..., G, S, d_k]
    v: np.ndarray                    # [..., G, S, d_v]
    scale: float
    causal: str = "none"
    mask: np.ndarray | None = None   # bool, broadcastable to [..., H, T, S]; True = may attend
    bias: np.ndarray | None = None   # broadcastable to [..., H, T, S]; -inf masks
    key_lengths: np.ndarray | None = None   # ints, shape a prefix of the leading axes
    window: int | None = None
    alibi: np.ndarray | str | None = None   # [H] slopes, or "press"
    groups: int = 1                  # query heads per key/value head (GQA); 1 otherwise
    batch_shape: tuple[int, ...] = ()  # the broadcast leading axes of the output, heads included
    finite: bool = True              # q, k, v checked for NaN and infinity (False: left to the fast path)

    @property
    def T(self) -> int:
        return self.q.shape[-2]

    @property
    def S(self) -> int:
        return self.k.shape[-2]

    @property
    def n_heads(self) -> int:
        return self.q.shape[-3]

    @property
    def offset(self) -> int:
        return 0 if self.causal == "top_left" else self.S - self.T


def _float_array(a: Any, name: str, defer_finite: bool = False) -> np.ndarray:
    """a as a float array of 2 to 8 axes, every value checked finite (an MHAInputError names the first that
    is not), unless defer_finite and a is already such an array: its values are then left to the caller."""
    if type(a) is np.ndarray and a.dtype in _FLOATS and 2 <= a.ndim <= 8 and a.size and \
            (defer_finite or surely_finite(a)):
        return a                # what as_array returns for it, without its two passes (min and max)
    dtype = a.dtype if isinstance(a, np.ndarray) and a.dtype in _FLOATS else np.float64
    return as_array(a, name, ndims=tuple(range(2, 9)), dtype=dtype)


_FLOATS = (np.float32, np.float64)


def surely_finite(a: np.ndarray) -> bool:
    """True only if every value of a (contiguous) is finite: the sum of squares, one BLAS pass at half the
    cost of min and max, is NaN or inf when any value is.  False says nothing (it also overflows for large
    finite values): as_array then checks value by value and names the first bad one."""
    if not (a.flags.c_contiguous or a.flags.f_contiguous):
        return False
    flat = a.reshape(-1, order="A")         # a view: no copy for either layout
    with np.errstate(over="ignore", invalid="ignore"):
        return bool(np.isfinite(np.dot(flat, flat)))


def _check_broadcast(arr: np.ndarray, field: str, shape: tuple[int, ...]) -> None:
    try:
        if np.broadcast_shapes(arr.shape, shape) == shape:
            return
    except ValueError:
        pass
    raise MHAInputError(f"{field}: shape {list(arr.shape)} does not broadcast to [..., T, S] = {list(shape)}")


def parse_attention_args(q: Any, k: Any, v: Any, *, mask: Any = None, causal: Any = False, scale: Any = None,
                         key_lengths: Any = None, bias: Any = None, window: Any = None, alibi: Any = None,
                         enable_gqa: bool = False, defer_finite: bool = False) -> AttentionArgs:
    """Check q [..., T, d_k], k [..., S, d_k], v [..., S, d_v] and the options; name every bad argument.

    With enable_gqa (as torch's scaled_dot_product_attention), q is [..., H, T, d_k]
    and k, v are [..., G, S, d] with G dividing H; query head h reads key/value head
    h // (H / G).  alibi is True (Press et al.'s slopes for H = q.shape[-3]) or H slopes.
    defer_finite: float32 and float64 arrays q, k, v are not read for NaN and infinity here (finite=False
    in the result): the fast path checks each item's share while it is in cache (`fast.attention_heads`
    with check_inputs), and `finite_inputs` names a bad value if it finds one.
    """
    q, k, v = (_float_array(a, n, defer_finite) for a, n in ((q, "q"), (k, "k"), (v, "v")))
    dtype = np.result_type(q, k, v)
    q, k, v = q.astype(dtype, copy=False), k.astype(dtype, copy=False), v.astype(dtype, copy=False)
    if q.shape[-1] != k.shape[-1]:
        raise MHAInputError(f"k: last axis {k.shape[-1]} must equal q's d_head {q.shape[-1]} "
                            f"(q {list(q.shape)}, k {list(k.shape)})")
    if k.shape[-2] != v.shape[-2]:
        raise MHAInputError(f"v: has {v.shape[-2]} tokens but k has {k.shape[-2]} "
                            f"(k {list(k.shape)}, v {list(v.shape)})")
    groups = 1
    if enable_gqa:
        if q.ndim < 3 or k.ndim < 3 or v.ndim < 3 or k.shape[-3] != v.shape[-3] or q.shape[-3] % k.shape[-3]:
            raise MHAInputError(f"k: with enable_gqa the head axis (-3) of k and v must divide q's "
                                f"(q {list(q.shape)}, k {list(k.shape)}, v {list(v.shape)})")
        groups = q.shape[-3] // k.shape[-3]
    try:
        kv_lead = k.shape[:-3] + (k.shape[-3] * groups,) if groups > 1 else k.shape[:-2]
        vv_lead = v.shape[:-3] + (v.shape[-3] * groups,) if groups > 1 else v.shape[:-2]
        batch_shape = np.broadcast_shapes(q.shape[:-2], kv_lead, vv_lead)
    except ValueError:
        raise MHAInputError(f"q, k, v: leading axes do not broadcast "
                            f"(q {list(q.shape)}, k {list(k.shape)}, v {list(v.shape)})") from None
    T, S = q.shape[-2], k.shape[-2]
    rule = parse_scale(scale)
    d = q.shape[-1]
    scale_value = rule if isinstance(rule, float) else {None: 1.0 / math.sqrt(d), "none": 1.0, "1/d_k": 1.0 / d}[rule]
    ndims = tuple(range(2, len(batch_shape) + 3))
    if mask is not None:
        mask = as_array(mask, "mask", kind="bool", ndims=ndims)
        _check_broadcast(mask, "mask", batch_shape + (T, S))
    if bias is not None:
        bias = as_array(bias, "bias", ndims=ndims, dtype=dtype, allow_neg_inf=True)
        _check_broadcast(bias, "bias", batch_shape + (T, S))
    if key_lengths is not None:
        key_lengths = np.asarray(key_lengths)
        if (not np.issubdtype(key_lengths.dtype, np.integer)
                or key_lengths.shape != batch_shape[:key_lengths.ndim]):
            raise MHAInputError(f"key_lengths: expected integers of shape a prefix of the leading axes "
                                f"{list(batch_shape)}, got {list(key_lengths.shape)} {key_lengths.dtype}")
    if window is not None:
        window = _count(window, "window")
    slopes: np.ndarray | str | None = None
    if alibi is not None and alibi is not False:
        if q.ndim < 3:
            raise MHAInputError(f"alibi: needs a head axis: q must be [..., H, T, d], got {list(q.shape)}")
        slopes, rule_name = _alibi(alibi, q.shape[-3])
        slopes = "press" if rule_name == "press" else slopes
    return AttentionArgs(q=q, k=k, v=v, scale=float(scale_value), causal=parse_causal(causal), mask=mask, bias=bias,
                         key_lengths=key_lengths, window=window, alibi=slopes, groups=groups,
                         batch_shape=tuple(batch_shape), finite=not defer_finite)


def finite_inputs(args: AttentionArgs) -> AttentionArgs:
    """args with q, k and v checked for NaN and infinity, which raise an MHAInputError naming the value."""
    if args.finite:
        return args
    for a, name in ((args.q, "q"), (args.k, "k"), (args.v, "v")):
        _float_array(a, name)
    return dataclasses.replace(args, finite=True)
