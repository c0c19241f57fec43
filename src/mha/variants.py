"""The variant keys of an input: causal, scale, RoPE, ALiBi, the KV cache and the backward pass's upstream.

Each variant is a key of the input mapping with its own small parser here;
`mha.inputs.parse_config` calls them once it knows the sizes they are checked
against.  Bad input raises `MHAInputError` naming the key and the shapes.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any, Mapping

import numpy as np

from .arrays import MHAInputError, _batched, _count, _is_word, as_array

CAUSAL_MODES = ("none", "top_left", "bottom_right")
SCALE_RULES = ("1/sqrt(d_k)", "none", "1/d_k")
ROPE_STYLES = ("half", "interleaved")
ROPE_KEYS = ("base", "dims", "style", "positions", "key_positions", "inv_freq", "attention_factor")
LOSSES = ("dY", "sum", "target")       # how the upstream gradient of the backward pass is given


@dataclass(frozen=True)
class Rope:
    """Rotary position embedding (Su et al., 2021) as applied to Q^(h) and K^(h)."""

    inv_freq: np.ndarray            # [dims / 2] angular frequency of each rotated pair
    dims: int                       # features rotated per head (the first `dims`; d_k unless partial)
    style: str                      # "half": pairs (i, i + dims/2), LLaMA / GPT-NeoX; "interleaved": (2i, 2i+1)
    positions: np.ndarray           # [B, T] int positions of the queries
    key_positions: np.ndarray       # [B, S_new] int positions of the new keys
    attention_factor: float = 1.0   # multiplies cos and sin (scaled RoPE variants)
    base: float | None = 10000.0    # None when inv_freq was given directly


@dataclass(frozen=True)
class Upstream:
    """The gradient flowing into Y for the backward pass (the "backward" input key).

    loss "dY": the gradient is given; "sum": L = sum of Y, so dY = 1; "target":
    L = ½‖Y − target‖², so dY = Y − target.
    """

    loss: str                          # one of LOSSES
    array: np.ndarray | None = None    # [B, T, d_out]: dY or the target; None for "sum"


def parse_causal(value: Any) -> str:
    if value is False or value is None or value == "none":
        return "none"
    if value is True:
        return "top_left"
    if isinstance(value, str) and value in CAUSAL_MODES:
        return value
    raise MHAInputError(f"causal: expected false, true, \"top_left\" or \"bottom_right\", got {value!r}")


def parse_scale(value: Any) -> float | str | None:
    """None (the default 1/sqrt(d_k)), "none", "1/d_k", or a finite number."""
    if value is None or _is_word(value, "1/sqrt(d_k)"):
        return None
    if isinstance(value, str) and value in SCALE_RULES:
        return value
    if isinstance(value, bool) or not isinstance(value, (int, float, np.floating, np.integer)) \
            or not math.isfinite(value):
        raise MHAInputError(f"scale: expected a finite number, \"none\", \"1/d_k\" or \"1/sqrt(d_k)\", got {value!r}")
    return float(value)


def _positions(value: Any, field: str, B: int, n: int, default: np.ndarray, batched: bool) -> np.ndarray:
    if value is None:
        return np.broadcast_to(default, (B, n)).copy()
    p = as_array(value, field, kind="int", ndims=(1, 2) if batched else (1,))
    p = p if p.ndim == 2 else np.broadcast_to(p, (B, p.shape[0]))
    if p.shape != (B, n):
        raise MHAInputError(f"{field}: expected {n} positions{' per sequence' if batched else ''}, "
                            f"got shape {list(p.shape if batched else p.shape[1:])}")
    return np.ascontiguousarray(p)


def parse_rope(value: Any, *, d_k: int, B: int, T: int, S_past: int, S_new: int, S: int,
               batched: bool) -> Rope | None:
    """The "rope" key: true for the defaults, or a mapping (see ROPE_KEYS)."""
    if value is None or value is False:
        return None
    spec: Mapping[str, Any] = {} if value is True else value
    if not isinstance(spec, Mapping):
        raise MHAInputError(f"rope: expected true or an object with keys {', '.join(ROPE_KEYS)}, got {value!r}")
    unknown = sorted(set(spec) - set(ROPE_KEYS))
    if unknown:
        raise MHAInputError(f"rope: unknown key(s) {', '.join(map(repr, unknown))}; allowed: {', '.join(ROPE_KEYS)}")
    dims = _count(spec.get("dims", d_k), "rope.dims")
    if dims % 2 or dims > d_k:
        raise MHAInputError(f"rope.dims: {dims} must be even (RoPE rotates pairs of features) and at most "
                            f"d_k = {d_k}")
    style = spec.get("style", "half")
    if style not in ROPE_STYLES:
        raise MHAInputError(f"rope.style: expected \"half\" (LLaMA, GPT-NeoX) or \"interleaved\" (RoFormer, "
                            f"GPT-J), got {style!r}")
    base: float | None = None
    if spec.get("inv_freq") is not None:
        inv_freq = as_array(spec["inv_freq"], "rope.inv_freq", ndims=(1,))
        if inv_freq.shape != (dims // 2,):
            raise MHAInputError(f"rope.inv_freq: expected {dims // 2} frequencies (dims / 2), got "
                                f"{inv_freq.shape[0]}")
    else:
        base = spec.get("base", 10000.0)
        if isinstance(base, bool) or not isinstance(base, (int, float)) or not math.isfinite(base) or base <= 1:
            raise MHAInputError(f"rope.base: expected a number > 1, got {base!r}")
        base = float(base)
        inv_freq = base ** (-np.arange(0, dims, 2, dtype=np.float64) / dims)    # theta_i = base^(-2i/dims)
    factor = spec.get("attention_factor", 1.0)
    if isinstance(factor, bool) or not isinstance(factor, (int, float)) or not math.isfinite(factor):
        raise MHAInputError(f"rope.attention_factor: expected a finite number, got {factor!r}")
    positions = _positions(spec.get("positions"), "rope.positions", B, T, (S - T) + np.arange(T), batched)
    key_positions = _positions(spec.get("key_positions"), "rope.key_positions", B, S_new,
                               S_past + np.arange(S_new), batched)
    return Rope(inv_freq=inv_freq, dims=dims, style=style, positions=positions, key_positions=key_positions,
                attention_factor=float(factor), base=base)


def _alibi(value: Any, H: int) -> tuple[np.ndarray | None, str | None]:
    if value is None or value is False:
        return None, None
    if value is True:
        return None, "press"
    slopes = as_array(value, "alibi", ndims=(1,))
    if slopes.shape != (H,):
        raise MHAInputError(f"alibi: expected true or one slope per head, shape [{H}], got {list(slopes.shape)}")
    return slopes, "custom"


def parse_cache(value: Any, *, cross: bool, batched: bool, B: int, G: int, d_k: int, d_v: int,
                dtype: Any) -> tuple[np.ndarray | None, np.ndarray | None]:
    """The "cache" key: {"K": [G, S_past, d_k], "V": [G, S_past, d_v]} (B first if batched) as (cache_K,
    cache_V) with the batch axis, or (None, None).  cross: the input has its own key/value (no cache then)."""
    if value is None:
        return None, None
    if not isinstance(value, Mapping) or set(value) != {"K", "V"}:
        raise MHAInputError("cache: expected an object {\"K\": [G, S_past, d_k], \"V\": [G, S_past, d_v]}")
    if cross:
        raise MHAInputError("cache and key: a KV cache belongs to self-attention; leave out key/value")
    cache_K = _batched(value["K"], "cache.K", batched, B, dtype, extra=1)
    cache_V = _batched(value["V"], "cache.V", batched, B, dtype, extra=1)
    for name, arr, width, what in (("cache.K", cache_K, d_k, "d_k"), ("cache.V", cache_V, d_v, "d_v")):
        if arr.shape[1] != G or arr.shape[3] != width:
            raise MHAInputError(f"{name}: shape {list(arr.shape[1:] if not batched else arr.shape)} does not "
                                f"fit [G, S_past, {what}] = [{G}, S_past, {width}]")
    if cache_K.shape[2] != cache_V.shape[2]:
        raise MHAInputError(f"cache.V: holds {cache_V.shape[2]} tokens but cache.K holds {cache_K.shape[2]}")
    return cache_K, cache_V


def parse_upstream(value: Any, *, B: int, T: int, d_out: int, batched: bool, dtype: Any) -> Upstream | None:
    """The "backward" key: {"dY": [T, d_out]}, {"loss": "sum"} or {"target": [T, d_out]} (B first if batched)."""
    if value is None:
        return None
    want = "{\"dY\": [[...]]}, {\"loss\": \"sum\"} or {\"target\": [[...]]}"
    if not isinstance(value, Mapping) or len(value) != 1 or not set(value) <= {"dY", "loss", "target"}:
        got = sorted(value) if isinstance(value, Mapping) else type(value).__name__
        raise MHAInputError(f"backward: expected exactly one of {want}, got {got}")
    (kind, spec), = value.items()
    if kind == "loss":
        if not _is_word(spec, "sum"):
            raise MHAInputError(f"backward.loss: the only loss by name is \"sum\" (L = sum of Y), got {spec!r}; "
                                f"give {{\"target\": ...}} or {{\"dY\": ...}} for others")
        return Upstream("sum")
    arr = _batched(spec, f"backward.{kind}", batched, B, dtype)
    if arr.shape[1:] != (T, d_out):
        shape = list(arr.shape if batched else arr.shape[1:])
        raise MHAInputError(f"backward.{kind}: shape {shape} does not fit Y, which is [T, d_out] = [{T}, {d_out}]"
                            + (" per sequence" if batched else ""))
    return Upstream(kind, arr)
