"""Reading and validating one attention configuration into a typed `Config`.

Everything a user hands us (JSON, nested lists, NumPy arrays) passes through
here once.  Bad input raises `MHAInputError` naming the field and the shapes
involved; nothing is ever evaluated as code.

Dimension legend (used in every shape message):
    B  batch size          T  query tokens        S  key/value tokens
    d_model = H * d_head   H  number of heads     d_head  size of one head
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any, Mapping

import numpy as np

CAUSAL_MODES = ("none", "top_left", "bottom_right")
INPUT_KEYS = (
    "X", "n_heads", "W_Q", "W_K", "W_V", "W_O", "b_Q", "b_K", "b_V", "b_O",
    "key", "value", "causal", "key_lengths", "mask", "bias", "scale",
)


class MHAInputError(ValueError):
    """A user's input that cannot describe an attention layer; the message names the field."""


class UsageError(Exception):
    """A bad command line or an unreadable file: the CLI exits 2 with one line."""


def read_json_file(path: str) -> Any:
    """Read a JSON file ('-' for stdin); every failure is one UsageError naming the file."""
    import json
    import sys
    try:
        text = sys.stdin.read() if path == "-" else open(path, encoding="utf-8").read()
    except FileNotFoundError:
        raise UsageError(f"input: no such file: {path}") from None
    except (OSError, UnicodeDecodeError) as e:
        raise UsageError(f"input: cannot read {path}: {e.__class__.__name__}: {e}") from None
    try:
        return json.loads(text)
    except json.JSONDecodeError as e:
        raise UsageError(f"input: {path} is not valid JSON: {e.msg} at line {e.lineno} column {e.colno}") from None
    except RecursionError:
        raise UsageError(f"input: {path} nests too deeply to be an attention configuration") from None


@dataclass(frozen=True)
class Config:
    """One validated configuration; arrays always carry the batch axis B."""

    X: np.ndarray                 # [B, T, d_model]
    n_heads: int
    W_Q: np.ndarray               # [d_model, d_model]
    W_K: np.ndarray               # [d_k_in, d_model]
    W_V: np.ndarray               # [d_v_in, d_model]
    W_O: np.ndarray               # [d_model, d_model]
    b_Q: np.ndarray | None = None  # [d_model]
    b_K: np.ndarray | None = None
    b_V: np.ndarray | None = None
    b_O: np.ndarray | None = None
    key: np.ndarray | None = None    # [B, S, d_k_in]; None means keys come from X
    value: np.ndarray | None = None  # [B, S, d_v_in]; None means values come from X
    causal: str = "none"             # one of CAUSAL_MODES
    key_lengths: np.ndarray | None = None  # [B] ints: key j is visible iff j < key_lengths[b]
    mask: np.ndarray | None = None   # bool [B|1, H|1, T, S]; True = may attend
    bias: np.ndarray | None = None   # float [B|1, H|1, T, S]; added to the scaled scores
    scale: float | None = None       # None = 1 / sqrt(d_head)
    batched: bool = False            # did the user's X carry a batch axis?
    weights_identity: tuple[str, ...] = ()  # which of W_Q..W_O were given as "identity"

    @property
    def B(self) -> int:
        return self.X.shape[0]

    @property
    def T(self) -> int:
        return self.X.shape[1]

    @property
    def S(self) -> int:
        return (self.key if self.key is not None else self.X).shape[1]

    @property
    def d_model(self) -> int:
        return self.X.shape[2]

    @property
    def d_head(self) -> int:
        return self.d_model // self.n_heads

    @property
    def dtype(self) -> np.dtype:
        return self.X.dtype

    @property
    def effective_scale(self) -> float:
        return 1.0 / math.sqrt(self.d_head) if self.scale is None else self.scale


# ---------------------------------------------------------------- nested lists

def _shape_of(value: Any, field: str, path: tuple[int, ...] = ()) -> tuple[int, ...]:
    """Shape of a rectangular nested list, or a clear error for a ragged or empty one."""
    if isinstance(value, (list, tuple)):
        where = f"{field}{''.join(f'[{i}]' for i in path)}"
        if len(value) == 0:
            raise MHAInputError(f"{where}: empty list; matrices need at least one row and one column")
        shapes = [_shape_of(item, field, path + (i,)) for i, item in enumerate(value)]
        first = shapes[0]
        for i, s in enumerate(shapes[1:], start=1):
            if s != first:
                raise MHAInputError(
                    f"{where}: ragged rows: entry 0 has shape {list(first)} "
                    f"but entry {i} has shape {list(s)}")
        return (len(value),) + first
    return ()


def _leaves(value: Any):
    if isinstance(value, (list, tuple)):
        for item in value:
            yield from _leaves(item)
    else:
        yield value


def as_array(value: Any, field: str, *, kind: str = "float", ndims: tuple[int, ...] = (2,),
             dtype: Any = np.float64, allow_neg_inf: bool = False) -> np.ndarray:
    """Turn nested lists or an array into a checked ndarray.

    kind is "float", "bool" or "int".  For "float" with allow_neg_inf, a JSON
    null stands for -inf (a masked entry), mirroring how traces are written.

    >>> as_array([[1, 2], [3, 4]], "X").shape
    (2, 2)
    >>> as_array([[1, 2], [3]], "X")
    Traceback (most recent call last):
    ...
    mha.inputs.MHAInputError: X: ragged rows: entry 0 has shape [2] but entry 1 has shape [1]
    """
    if isinstance(value, np.ndarray) or _is_tensor(value):
        arr = np.asarray(value.detach().cpu().numpy() if _is_tensor(value) else value)
        if arr.size == 0:
            raise MHAInputError(f"{field}: empty array of shape {list(arr.shape)}")
        shape = arr.shape
        leaves = None
    else:
        if isinstance(value, (str, bytes, dict)) or value is None:
            raise MHAInputError(f"{field}: expected a nested list of numbers, got {type(value).__name__}")
        shape = _shape_of(value, field)
        leaves = list(_leaves(value))
    if len(shape) not in ndims:
        want = " or ".join(f"{n}-D" for n in ndims)
        raise MHAInputError(f"{field}: expected {want}, got shape {list(shape)}")

    if leaves is None:  # already an array
        if kind == "bool":
            if arr.dtype != np.bool_:
                raise MHAInputError(f"{field}: expected booleans (True = may attend), got dtype {arr.dtype}")
            return arr.astype(bool)
        if kind == "int":
            if not np.issubdtype(arr.dtype, np.integer):
                raise MHAInputError(f"{field}: expected integers, got dtype {arr.dtype}")
            return arr.astype(np.int64)
        if not (np.issubdtype(arr.dtype, np.floating) or np.issubdtype(arr.dtype, np.integer)):
            raise MHAInputError(f"{field}: expected numbers, got dtype {arr.dtype}")
        out = arr.astype(dtype, copy=False)      # no copy of a large array that already fits
    else:
        if kind == "bool":
            bad = [x for x in leaves if not isinstance(x, bool)]
            if bad:
                raise MHAInputError(f"{field}: expected true/false (true = may attend), found {bad[0]!r}")
            return np.array(leaves, dtype=bool).reshape(shape)
        if kind == "int":
            bad = [x for x in leaves if isinstance(x, bool) or not isinstance(x, int)]
            if bad:
                raise MHAInputError(f"{field}: expected integers, found {bad[0]!r}")
            return np.array(leaves, dtype=np.int64).reshape(shape)
        nums = []
        for x in leaves:
            if x is None and allow_neg_inf:
                nums.append(-math.inf)
            elif isinstance(x, bool) or not isinstance(x, (int, float)):
                raise MHAInputError(f"{field}: expected numbers, found {x!r}")
            else:
                nums.append(x)
        out = np.array(nums, dtype=dtype).reshape(shape)

    # min and max see every NaN and infinity without allocating a mask the size of the input
    lo, hi = out.min(), out.max()
    if np.isfinite(hi) and (np.isfinite(lo) or (allow_neg_inf and lo == -np.inf)):
        return out
    bad = np.isnan(out) | (np.isposinf(out) if allow_neg_inf else ~np.isfinite(out))
    if bad.any():
        idx = tuple(int(i) for i in np.argwhere(bad)[0])
        raise MHAInputError(f"{field}: non-finite value {out[idx]} at index {list(idx)}")
    return out


def _is_tensor(value: Any) -> bool:
    # Recognise a torch tensor without importing torch.
    return type(value).__module__.startswith("torch") and hasattr(value, "detach")


# ------------------------------------------------------------------- the config

def _weight(value: Any, field: str, d_in: int, d_out: int, dtype, identity: list[str]) -> np.ndarray:
    if value is None or (isinstance(value, str) and value == "identity"):
        if d_in != d_out:
            raise MHAInputError(
                f"{field}: \"identity\" needs a square weight but the shape must be "
                f"[{d_in}, {d_out}]; give the matrix explicitly")
        identity.append(field)
        return np.eye(d_in, dtype=dtype)
    if isinstance(value, str):
        raise MHAInputError(f"{field}: the only string accepted is \"identity\", got {value!r}")
    W = as_array(value, field, dtype=dtype)
    if W.shape != (d_in, d_out):
        raise MHAInputError(f"{field}: expected shape [{d_in}, {d_out}] (rows = input features), "
                            f"got {list(W.shape)}")
    return W


def _bias_vector(value: Any, field: str, d_model: int, dtype) -> np.ndarray | None:
    if value is None:
        return None
    b = as_array(value, field, ndims=(1,), dtype=dtype)
    if b.shape != (d_model,):
        raise MHAInputError(f"{field}: expected shape [{d_model}] (d_model), got {list(b.shape)}")
    return b


def _batched(value: Any, field: str, batched: bool, B: int, dtype) -> np.ndarray:
    arr = as_array(value, field, ndims=(3,) if batched else (2,), dtype=dtype)
    if not batched:
        arr = arr[None]
    if arr.shape[0] != B:
        raise MHAInputError(f"{field}: batch size {arr.shape[0]} does not match X's batch size {B}")
    return arr


def _attn_shaped(arr: np.ndarray, field: str, B: int, H: int, T: int, S: int) -> np.ndarray:
    """Bring a [T,S], [B,T,S] or [B,H,T,S] array to 4-D, checking each axis."""
    if arr.ndim == 2:
        arr = arr[None, None]
    elif arr.ndim == 3:
        arr = arr[:, None]
    want = (B, H, T, S)
    for axis, (got, need, name) in enumerate(zip(arr.shape, want, "BHTS")):
        if got != need and not (got == 1 and axis < 2):
            raise MHAInputError(
                f"{field}: shape {list(arr.shape)} does not fit [B, H, T, S] = {list(want)} "
                f"(axis {name} is {got}, expected {need})")
    return arr


def parse_causal(value: Any) -> str:
    if value is False or value is None or value == "none":
        return "none"
    if value is True:
        return "top_left"
    if isinstance(value, str) and value in CAUSAL_MODES:
        return value
    raise MHAInputError(f"causal: expected false, true, \"top_left\" or \"bottom_right\", got {value!r}")


def parse_config(data: Mapping[str, Any], *, dtype: Any = np.float64) -> Config:
    """Validate an input mapping (the JSON input format) into a `Config`.

    >>> cfg = parse_config({"X": [[1, 0, 1, 0], [0, 1, 0, 1], [1, 1, 0, 0]], "n_heads": 2})
    >>> (cfg.B, cfg.T, cfg.S, cfg.d_model, cfg.n_heads, cfg.d_head)
    (1, 3, 3, 4, 2, 2)
    """
    if not isinstance(data, Mapping):
        raise MHAInputError(f"input: expected a JSON object, got {type(data).__name__}")
    unknown = sorted(set(data) - set(INPUT_KEYS))
    if unknown:
        raise MHAInputError(f"input: unknown key(s) {', '.join(map(repr, unknown))}; "
                            f"allowed keys are {', '.join(INPUT_KEYS)}")
    if "X" not in data:
        raise MHAInputError("X: missing; give the input tokens as a 2-D [T, d_model] or 3-D [B, T, d_model] list")
    dtype = np.dtype(dtype)
    if dtype not in (np.float32, np.float64):
        raise MHAInputError(f"dtype: expected float32 or float64, got {dtype}")

    X = as_array(data["X"], "X", ndims=(2, 3), dtype=dtype)
    batched = X.ndim == 3
    X = X if batched else X[None]
    B, T, d_model = X.shape

    H = data.get("n_heads", None)
    if H is None:
        raise MHAInputError("n_heads: missing; give the number of heads H (an integer dividing d_model)")
    if isinstance(H, bool) or not isinstance(H, (int, np.integer)) or H < 1:
        raise MHAInputError(f"n_heads: expected a positive integer, got {H!r}")
    H = int(H)
    if d_model % H:
        raise MHAInputError(f"n_heads: {H} heads do not divide d_model = {d_model} "
                            f"(X has shape {list(X.shape if batched else X.shape[1:])})")

    key = value = None
    if data.get("key") is not None:
        key = _batched(data["key"], "key", batched, B, dtype)
    if data.get("value") is not None:
        value = _batched(data["value"], "value", batched, B, dtype)
    if key is None and value is not None:
        raise MHAInputError("value: given without \"key\"; cross-attention needs both (key may equal value)")
    if key is not None and value is None:
        value = key
    if key is not None and key.shape[1] != value.shape[1]:
        raise MHAInputError(f"value: has S = {value.shape[1]} tokens but key has S = {key.shape[1]}")
    S = key.shape[1] if key is not None else T
    d_k_in = key.shape[2] if key is not None else d_model
    d_v_in = value.shape[2] if value is not None else d_model

    identity: list[str] = []
    W_Q = _weight(data.get("W_Q"), "W_Q", d_model, d_model, dtype, identity)
    W_K = _weight(data.get("W_K"), "W_K", d_k_in, d_model, dtype, identity)
    W_V = _weight(data.get("W_V"), "W_V", d_v_in, d_model, dtype, identity)
    W_O = _weight(data.get("W_O"), "W_O", d_model, d_model, dtype, identity)
    b = {k: _bias_vector(data.get(k), k, d_model, dtype) for k in ("b_Q", "b_K", "b_V", "b_O")}

    key_lengths = None
    if data.get("key_lengths") is not None:
        kl = data["key_lengths"]
        kl = [kl] if isinstance(kl, int) and not isinstance(kl, bool) else kl
        key_lengths = as_array(kl, "key_lengths", kind="int", ndims=(1,))
        if key_lengths.shape != (B,):
            raise MHAInputError(f"key_lengths: expected one length per sequence, shape [{B}], "
                                f"got {list(key_lengths.shape)}")
        if (key_lengths < 0).any() or (key_lengths > S).any():
            raise MHAInputError(f"key_lengths: each length must be between 0 and S = {S}, "
                                f"got {key_lengths.tolist()}")

    mask = None
    if data.get("mask") is not None:
        mask = _attn_shaped(as_array(data["mask"], "mask", kind="bool", ndims=(2, 3, 4)),
                            "mask", B, H, T, S)
    bias = None
    if data.get("bias") is not None:
        bias = _attn_shaped(as_array(data["bias"], "bias", ndims=(2, 3, 4), dtype=dtype,
                                     allow_neg_inf=True), "bias", B, H, T, S)

    scale = data.get("scale")
    if scale is not None:
        if isinstance(scale, bool) or not isinstance(scale, (int, float)) or not math.isfinite(scale):
            raise MHAInputError(f"scale: expected a finite number, got {scale!r}")
        scale = float(scale)

    return Config(X=X, n_heads=H, W_Q=W_Q, W_K=W_K, W_V=W_V, W_O=W_O, **b,
                  key=key, value=value, causal=parse_causal(data.get("causal", False)),
                  key_lengths=key_lengths, mask=mask, bias=bias, scale=scale,
                  batched=batched, weights_identity=tuple(identity))


def random_weights(d_model: int, d_k_in: int | None = None, d_v_in: int | None = None,
                   seed: int = 0) -> dict[str, np.ndarray]:
    """Random W_Q, W_K, W_V, W_O scaled by 1/sqrt(fan_in), reproducible from `seed`."""
    rng = np.random.default_rng(seed)
    shapes = {"W_Q": (d_model, d_model), "W_K": (d_k_in or d_model, d_model),
              "W_V": (d_v_in or d_model, d_model), "W_O": (d_model, d_model)}
    return {k: rng.standard_normal(s) / math.sqrt(s[0]) for k, s in shapes.items()}


def with_random_weights(data: Mapping[str, Any], seed: int = 0) -> dict[str, Any]:
    """A copy of an input mapping with random W_Q..W_O shaped for its X (and key / value, if any)."""
    if data.get("X") is None:
        raise MHAInputError("X: missing; random weights are shaped from X")
    d = {name: as_array(data[name], name, ndims=(2, 3)).shape[-1]
         for name in ("X", "key", "value") if data.get(name) is not None}
    d_k = d.get("key")
    return {**data, **random_weights(d["X"], d_k, d.get("value", d_k), seed=seed)}
