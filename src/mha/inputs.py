"""Reading and validating one attention configuration into a typed `Config`.

Everything a user hands us (JSON, nested lists, NumPy arrays) passes through
here once.  Bad input raises `MHAInputError` naming the field and the shapes
involved; nothing is ever evaluated as code.

Dimension legend (used in every shape message):
    B  batch size              T  query tokens      S = S_past + S_new  key/value tokens
    H  query heads             G  key/value heads (n_kv_heads, G divides H)
    d_model  width of X        d_k  query/key width per head      d_v  value width per head
    d_out    width of Y        S_past  cached tokens (KV cache)    S_new  keys computed now
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any, Mapping

import numpy as np

CAUSAL_MODES = ("none", "top_left", "bottom_right")
SCALE_RULES = ("1/sqrt(d_k)", "none", "1/d_k")
ROPE_STYLES = ("half", "interleaved")
INPUT_KEYS = (
    "X", "n_heads", "n_kv_heads", "W_Q", "W_K", "W_V", "W_O", "b_Q", "b_K", "b_V", "b_O",
    "Q", "K", "V", "key", "value", "causal", "key_lengths", "mask", "bias", "scale",
    "rope", "alibi", "window", "cache", "tokens", "key_tokens", "backward",
)
ROPE_KEYS = ("base", "dims", "style", "positions", "key_positions", "inv_freq", "attention_factor")
LOSSES = ("dY", "sum", "target")       # how the upstream gradient of the backward pass is given
MAX_NESTING = 8          # deeper nested lists cannot be an attention input (the deepest is [B, H, T, S])


class MHAInputError(ValueError):
    """A user's input that cannot describe an attention layer; the message names the field."""


class UsageError(Exception):
    """A bad command line or an unreadable file: the CLI exits 2 with one line."""


def read_json_file(path: str, parse_float: Any = None) -> Any:
    """Read a JSON file ('-' for stdin); every failure is one UsageError naming the file.
    parse_float as for json.loads (decimal.Decimal keeps each number's text, for mha.exact)."""
    import json
    import sys
    try:
        text = sys.stdin.read() if path == "-" else open(path, encoding="utf-8").read()
    except FileNotFoundError:
        raise UsageError(f"input: no such file: {path}") from None
    except (OSError, UnicodeDecodeError) as e:
        raise UsageError(f"input: cannot read {path}: {e.__class__.__name__}: {e}") from None
    try:
        return json.loads(text, parse_float=parse_float)
    except json.JSONDecodeError as e:
        raise UsageError(f"input: {path} is not valid JSON: {e.msg} at line {e.lineno} column {e.colno}") from None
    except RecursionError:
        raise UsageError(f"input: {path} nests too deeply to be an attention configuration") from None


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


@dataclass(frozen=True)
class Config:
    """One validated configuration; arrays always carry the batch axis B.

    Either X (with W_Q, W_K, W_V) or Q, K, V given directly is set.  Weight
    matrices are stored 2-D with the heads' columns side by side, also when
    they were given per head (3-D), which is the same thing.
    """

    n_heads: int
    X: np.ndarray | None = None       # [B, T, d_model]
    W_Q: np.ndarray | None = None     # [d_model, H*d_k]
    W_K: np.ndarray | None = None     # [d_k_in, G*d_k]
    W_V: np.ndarray | None = None     # [d_v_in, G*d_v]
    W_O: np.ndarray | None = None     # [H*d_v, d_out]; None when there is no output projection
    b_Q: np.ndarray | None = None     # [H*d_k]
    b_K: np.ndarray | None = None     # [G*d_k]
    b_V: np.ndarray | None = None     # [G*d_v]
    b_O: np.ndarray | None = None     # [d_out]
    key: np.ndarray | None = None     # [B, S_new, d_k_in]; None means keys come from X
    value: np.ndarray | None = None   # [B, S_new, d_v_in]
    Q_in: np.ndarray | None = None    # [B, T, H*d_k]  Q given directly
    K_in: np.ndarray | None = None    # [B, S_new, G*d_k]
    V_in: np.ndarray | None = None    # [B, S_new, G*d_v]
    n_kv_heads: int | None = None     # G; None means G = H
    causal: str = "none"              # one of CAUSAL_MODES
    key_lengths: np.ndarray | None = None  # [B] ints: key j is visible iff j < key_lengths[b]
    mask: np.ndarray | None = None    # bool [B|1, H|1, T, S]; True = may attend
    bias: np.ndarray | None = None    # float [B|1, H|1, T, S]; added to the scaled scores
    scale: float | str | None = None  # None = 1/sqrt(d_k); "none" = 1; "1/d_k"; or a number
    rope: Rope | None = None
    alibi: np.ndarray | None = None   # [H] slopes
    alibi_rule: str | None = None     # "press" (Press et al.'s slopes) or "custom"
    window: int | None = None         # sliding window W
    cache_K: np.ndarray | None = None  # [B, G, S_past, d_k], already rotated when RoPE is used
    cache_V: np.ndarray | None = None  # [B, G, S_past, d_v]
    tokens: tuple[tuple[str, ...], ...] | None = None      # [B][T] labels of the query tokens
    key_tokens: tuple[tuple[str, ...], ...] | None = None  # [B][S] labels of the keys (cache rows first)
    batched: bool = False             # did the user's input carry a batch axis?
    weights_identity: tuple[str, ...] = ()  # which of W_Q..W_O were given as "identity"
    weights_per_head: tuple[str, ...] = ()  # which of W_Q, W_K, W_V were given as one matrix per head
    backward: Upstream | None = None  # the upstream gradient when the backward pass is asked for

    # ------------------------------------------------------------ sizes

    @property
    def given_qkv(self) -> bool:
        """Q, K and V were given directly (no X, no projections)."""
        return self.Q_in is not None

    @property
    def B(self) -> int:
        return (self.Q_in if self.given_qkv else self.X).shape[0]

    @property
    def T(self) -> int:
        return (self.Q_in if self.given_qkv else self.X).shape[1]

    @property
    def S_new(self) -> int:
        """Keys computed in this call (all of them without a cache)."""
        src = self.K_in if self.given_qkv else (self.key if self.key is not None else self.X)
        return src.shape[1]

    @property
    def S_past(self) -> int:
        return 0 if self.cache_K is None else self.cache_K.shape[2]

    @property
    def S(self) -> int:
        return self.S_past + self.S_new

    @property
    def d_model(self) -> int | None:
        return None if self.X is None else self.X.shape[2]

    @property
    def G(self) -> int:
        return self.n_heads if self.n_kv_heads is None else self.n_kv_heads

    @property
    def d_k(self) -> int:
        width = self.Q_in.shape[2] if self.given_qkv else self.W_Q.shape[1]
        return width // self.n_heads

    @property
    def d_v(self) -> int:
        width = self.V_in.shape[2] if self.given_qkv else self.W_V.shape[1]
        return width // self.G

    @property
    def d_head(self) -> int:
        """The per-head width of queries and keys (d_k), as the worked example calls it d_h."""
        return self.d_k

    @property
    def d_out(self) -> int:
        return self.n_heads * self.d_v if self.W_O is None else self.W_O.shape[1]

    @property
    def self_attention(self) -> bool:
        return self.key is None and not self.given_qkv

    @property
    def dtype(self) -> np.dtype:
        return (self.Q_in if self.given_qkv else self.X).dtype

    @property
    def scale_rule(self) -> str:
        """"1/sqrt(d_k)", "none", "1/d_k" or "number"."""
        if self.scale is None:
            return "1/sqrt(d_k)"
        return self.scale if isinstance(self.scale, str) else "number"

    @property
    def effective_scale(self) -> float:
        rule = self.scale_rule
        if rule == "1/sqrt(d_k)":
            return 1.0 / math.sqrt(self.d_k)
        if rule == "none":
            return 1.0
        if rule == "1/d_k":
            return 1.0 / self.d_k
        return float(self.scale)

    @property
    def offset(self) -> int:
        """delta: query i sits at position i + delta among the keys (causal, window and ALiBi use it).

        0 when the causal mask is aligned top left; S - T otherwise (bottom right, as flash-attn; with a
        cache that is S_past, so the new tokens follow the cached ones).
        """
        return 0 if self.causal == "top_left" else self.S - self.T

    def group(self, h: int) -> int:
        """The key/value head used by query head h (0-based), as torch's enable_gqa and LLaMA's repeat_kv."""
        return h // (self.n_heads // self.G)

    # ------------------------------------------------------------ back to an input mapping

    def to_input(self) -> dict[str, Any]:
        """An input mapping (arrays, without the batch axis unless batched) that parses back to this Config."""
        def user(a: np.ndarray | None) -> np.ndarray | None:
            return a if a is None or self.batched else a[0]

        out: dict[str, Any] = {"n_heads": self.n_heads}
        if self.n_kv_heads is not None:
            out["n_kv_heads"] = self.n_kv_heads
        if self.given_qkv:
            out.update(Q=user(self.Q_in), K=user(self.K_in), V=user(self.V_in))
        else:
            out["X"] = user(self.X)
            if self.key is not None:
                out.update(key=user(self.key), value=user(self.value))
            for name, heads in (("W_Q", self.n_heads), ("W_K", self.G), ("W_V", self.G)):
                W = getattr(self, name)
                if name in self.weights_identity:
                    out[name] = "identity"
                elif name in self.weights_per_head:
                    out[name] = W.reshape(W.shape[0], heads, -1).transpose(1, 0, 2)
                else:
                    out[name] = W
        out["W_O"] = "none" if self.W_O is None else ("identity" if "W_O" in self.weights_identity else self.W_O)
        for name in ("b_Q", "b_K", "b_V", "b_O", "key_lengths", "mask", "bias", "window"):
            if getattr(self, name) is not None:
                out[name] = getattr(self, name)
        if self.causal != "none":
            out["causal"] = self.causal
        if self.scale is not None:
            out["scale"] = self.scale
        if self.alibi_rule is not None:
            out["alibi"] = True if self.alibi_rule == "press" else self.alibi
        if self.cache_K is not None:
            out["cache"] = {"K": user(self.cache_K), "V": user(self.cache_V)}
        if self.tokens is not None:
            out["tokens"] = [list(row) for row in self.tokens] if self.batched else list(self.tokens[0])
        if self.key_tokens is not None and self.key_tokens != self.tokens:
            out["key_tokens"] = [list(row) for row in self.key_tokens] if self.batched else list(self.key_tokens[0])
        if self.rope is not None:
            r = self.rope
            rope: dict[str, Any] = {"dims": r.dims, "style": r.style, "positions": user(r.positions),
                                    "key_positions": user(r.key_positions)}
            if r.base is None:
                rope["inv_freq"] = r.inv_freq
            else:
                rope["base"] = r.base
            if r.attention_factor != 1.0:
                rope["attention_factor"] = r.attention_factor
            out["rope"] = rope
        if self.backward is not None:
            u = self.backward
            out["backward"] = {"loss": "sum"} if u.array is None else {u.loss: user(u.array)}
        return out


# ---------------------------------------------------------------- nested lists

def _shape_of(value: Any, field: str, path: tuple[int, ...] = ()) -> tuple[int, ...]:
    """Shape of a rectangular nested list, or a clear error for a ragged or empty one."""
    if isinstance(value, (list, tuple)):
        where = f"{field}{''.join(f'[{i}]' for i in path)}"
        if len(path) >= MAX_NESTING:
            raise MHAInputError(f"{field}: nested more than {MAX_NESTING} levels deep; no attention input is")
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


def _plain_numbers(value: Any, kind: str) -> np.ndarray | None:
    """A nested list as NumPy converts it in C, when that conversion is exactly what the checks below
    would give: rectangular, non-empty, only numbers (or only booleans for a mask).  None otherwise."""
    try:
        arr = np.array(value)
    except (ValueError, TypeError, RecursionError, OverflowError):
        return None
    if arr.size == 0 or arr.ndim > MAX_NESTING:
        return None
    if kind == "bool":
        return arr if arr.dtype == np.bool_ else None
    if arr.dtype.kind not in ("i" if kind == "int" else "if"):
        return None                     # strings, None, ragged rows, huge integers: the checks below decide
    # NumPy turns true and false among numbers into 1 and 0 silently: look at the leaves that are 0 or 1
    suspects = np.flatnonzero((arr == 0) | (arr == 1))
    if suspects.size > 4096:
        return None
    for where in zip(*np.unravel_index(suspects, arr.shape)):
        leaf = value
        for i in where:
            leaf = leaf[i]
        if isinstance(leaf, bool):
            return None
    return arr


def _rectangular_leaves(value: Any) -> tuple[tuple[int, ...], list] | None:
    """(shape, flat leaves) of a rectangular, non-empty nested list, found by NumPy in C, or None for one
    that is not (the Python walk then names the first ragged or empty entry).  The leaves are the list's
    own objects (an object array keeps them), so their types are checked as the walk would check them."""
    try:
        grid = np.array(value, dtype=object)
    except (ValueError, TypeError, RecursionError):
        return None
    if grid.size == 0 or grid.ndim > MAX_NESTING:
        return None
    leaves = grid.ravel().tolist()
    if any(issubclass(t, (list, tuple)) for t in set(map(type, leaves))):
        return None                     # a ragged list: NumPy kept some rows as list objects
    return grid.shape, leaves


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
        fast = _plain_numbers(value, kind)
        if fast is not None and len(fast.shape) in ndims:
            if kind == "float":
                return _checked(_cast(fast, field, dtype), field, allow_neg_inf)
            return fast.astype(np.int64) if kind == "int" else fast
        found = _rectangular_leaves(value)
        if found is None:           # ragged, empty or too deep: the walk below says where
            shape = _shape_of(value, field)
            leaves = list(_leaves(value))
        else:
            shape, leaves = found
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
        out = _cast(arr, field, dtype)
    else:
        # the leaves' types, each checked once (a 512 x 768 X has 3 of them, not 393 216 leaves)
        types = set(map(type, leaves))
        if kind == "bool":
            if types - {bool}:
                bad = next(x for x in leaves if not isinstance(x, bool))
                raise MHAInputError(f"{field}: expected true/false (true = may attend), found {bad!r}")
            return np.array(leaves, dtype=bool).reshape(shape)
        if kind == "int":
            if any(issubclass(t, bool) or not issubclass(t, int) for t in types):
                bad = next(x for x in leaves if isinstance(x, bool) or not isinstance(x, int))
                raise MHAInputError(f"{field}: expected integers, found {bad!r}")
            return np.array(leaves, dtype=np.int64).reshape(shape)
        masked = allow_neg_inf and type(None) in types
        if any(issubclass(t, bool) or not issubclass(t, (int, float)) for t in types - {type(None)}) or \
                (type(None) in types and not allow_neg_inf):
            bad = next(x for x in leaves if not (x is None and allow_neg_inf) and
                       (isinstance(x, bool) or not isinstance(x, (int, float))))
            raise MHAInputError(f"{field}: expected numbers, found {bad!r}")
        if masked:                        # a JSON null in a bias is a masked entry: -inf
            leaves = [-math.inf if x is None else x for x in leaves]
        try:
            nums = np.array(leaves, dtype=np.float64)
        except OverflowError:             # an int beyond float64: name it as the walk did
            bad = next(x for x in leaves if isinstance(x, int) and abs(x) > 1.7e308)
            raise MHAInputError(f"{field}: {bad:.3g} is beyond the range of float64") from None
        out = _cast(nums, field, dtype).reshape(shape)

    return _checked(out, field, allow_neg_inf)


def _checked(out: np.ndarray, field: str, allow_neg_inf: bool) -> np.ndarray:
    """out, if every value is finite (or -inf where allowed); else an error naming the first one."""
    if out.dtype.kind != "f":
        return out
    # min and max see every NaN and infinity without allocating a mask the size of the input
    lo, hi = out.min(), out.max()
    if np.isfinite(hi) and (np.isfinite(lo) or (allow_neg_inf and lo == -np.inf)):
        return out
    bad = np.isnan(out) | (np.isposinf(out) if allow_neg_inf else ~np.isfinite(out))
    if bad.any():
        idx = tuple(int(i) for i in np.argwhere(bad)[0])
        raise MHAInputError(f"{field}: non-finite value {out[idx]} at index {list(idx)}")
    return out


def _cast(arr: np.ndarray, field: str, dtype: Any) -> np.ndarray:
    """arr as dtype (no copy when it already has it).  A finite value beyond the dtype's range is an
    error naming it, not an overflow warning followed by inf."""
    dtype = np.dtype(dtype)
    if arr.dtype == dtype:
        return arr
    with np.errstate(over="ignore", invalid="ignore"):
        out = arr.astype(dtype)
    if out.size and dtype.kind == "f" and (np.isinf(out.min()) or np.isinf(out.max())):
        overflowed = np.isinf(out) & np.isfinite(arr)
        if overflowed.any():
            idx = tuple(int(i) for i in np.argwhere(overflowed)[0])
            raise MHAInputError(f"{field}: {float(arr[idx]):.3g} at index {list(idx)} is beyond the range of "
                                f"{dtype} (largest {float(np.finfo(dtype).max):.3g})")
    return out


def _is_tensor(value: Any) -> bool:
    # Recognise a torch tensor without importing torch.
    return type(value).__module__.startswith("torch") and hasattr(value, "detach")


# ------------------------------------------------------------------- the config

def _count(value: Any, field: str, *, minimum: int = 1) -> int:
    if isinstance(value, bool) or not isinstance(value, (int, np.integer)) or value < minimum:
        want = "a positive integer" if minimum == 1 else f"an integer >= {minimum}"
        raise MHAInputError(f"{field}: expected {want}, got {value!r}")
    return int(value)


def _is_word(value: Any, word: str) -> bool:
    return isinstance(value, str) and value == word


def _weight(value: Any, field: str, d_in: int, heads: int, dtype, identity: list[str], per_head: list[str],
            *, source: str) -> np.ndarray:
    """A projection as one 2-D matrix [d_in, heads * d]: given 2-D, per head [heads, d_in, d], or "identity"."""
    if value is None or _is_word(value, "identity"):
        identity.append(field)
        return np.eye(d_in, dtype=dtype)
    if isinstance(value, str):
        raise MHAInputError(f"{field}: the only string accepted is \"identity\", got {value!r}")
    W = as_array(value, field, ndims=(2, 3), dtype=dtype)
    if W.ndim == 3:
        if W.shape[0] != heads:
            what = "n_heads" if field == "W_Q" else "n_kv_heads"
            raise MHAInputError(f"{field}: the per-head array holds {W.shape[0]} matrices but {what} = {heads} "
                                f"({field} shape {list(W.shape)})")
        if W.shape[1] != d_in:
            raise MHAInputError(f"{field}: each head's matrix has {W.shape[1]} rows but {source} has {d_in} "
                                f"features ({field} shape {list(W.shape)})")
        per_head.append(field)
        return np.ascontiguousarray(W.transpose(1, 0, 2).reshape(d_in, -1))   # heads' columns side by side
    if W.shape[0] != d_in:
        raise MHAInputError(f"{field}: expected {d_in} rows ({source} has {d_in} features), got shape "
                            f"{list(W.shape)}" + (f"; e.g. [{d_in}, {d_in}]" if d_in else ""))
    return W


def _split_width(width: int, heads: int, field: str, shape: tuple[int, ...], what: str) -> int:
    if width % heads:
        raise MHAInputError(f"{field}: {width} columns do not split into {heads} {what} "
                            f"({field} shape {list(shape)})")
    return width // heads


def _vector(value: Any, field: str, width: int, meaning: str, dtype) -> np.ndarray | None:
    if value is None:
        return None
    b = as_array(value, field, ndims=(1, 2), dtype=dtype)          # [heads, d] per head is the same vector
    if b.size != width:
        raise MHAInputError(f"{field}: expected shape [{width}] ({meaning}), got {list(b.shape)}")
    return b.reshape(-1)


def _batched(value: Any, field: str, batched: bool, B: int | None, dtype, *, extra: int = 0) -> np.ndarray:
    """An array with the batch axis first (added when the input had none); extra = axes before [S, d]."""
    ndim = 2 + extra
    arr = as_array(value, field, ndims=(ndim + 1,) if batched else (ndim,), dtype=dtype)
    if not batched:
        arr = arr[None]
    if B is not None and arr.shape[0] != B:
        raise MHAInputError(f"{field}: batch size {arr.shape[0]} does not match the input's batch size {B}")
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


def _labels(value: Any, field: str, B: int, n: int, batched: bool) -> tuple[tuple[str, ...], ...] | None:
    """Token labels: [n] strings, or [B][n] when the input is batched (the same labels for every sequence
    when one list is given)."""
    if value is None:
        return None
    rows = value if batched and isinstance(value, (list, tuple)) and value and isinstance(value[0], (list, tuple)) \
        else [value] * B
    if not isinstance(rows, (list, tuple)) or len(rows) != B or any(
            not isinstance(r, (list, tuple)) or len(r) != n or not all(isinstance(x, str) for x in r) for r in rows):
        raise MHAInputError(f"{field}: expected {n} strings{f' (or {B} lists of {n})' if batched else ''}, "
                            f"one label per token")
    return tuple(tuple(r) for r in rows)


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


def parse_config(data: Mapping[str, Any], *, dtype: Any = np.float64) -> Config:
    """Validate an input mapping (the JSON input format) into a `Config`.

    >>> cfg = parse_config({"X": [[1, 0, 1, 0], [0, 1, 0, 1], [1, 1, 0, 0]], "n_heads": 2})
    >>> (cfg.B, cfg.T, cfg.S, cfg.d_model, cfg.n_heads, cfg.d_k, cfg.d_v, cfg.d_out)
    (1, 3, 3, 4, 2, 2, 2, 4)
    >>> parse_config({"X": [[1, 2, 3, 4]], "n_heads": 1, "W_Q": [[1, 0, 0]] * 4})
    Traceback (most recent call last):
    ...
    mha.inputs.MHAInputError: W_K: "identity" is [4, 4] but the keys need G·d_k = 1·3 = 3 columns to match W_Q (W_Q [4, 3]); give W_K as a [4, 3] matrix
    """
    if not isinstance(data, Mapping):
        raise MHAInputError(f"input: expected a JSON object, got {type(data).__name__}")
    unknown = sorted(set(data) - set(INPUT_KEYS))
    if unknown:
        raise MHAInputError(f"input: unknown key(s) {', '.join(map(repr, unknown))}; "
                            f"allowed keys are {', '.join(INPUT_KEYS)}")
    dtype = np.dtype(dtype)
    if dtype not in (np.float32, np.float64):
        raise MHAInputError(f"dtype: expected float32 or float64, got {dtype}")
    given = [k for k in ("Q", "K", "V") if data.get(k) is not None]
    if given and data.get("X") is not None:
        raise MHAInputError(f"X and {given[0]}: give either X (projected by W_Q, W_K, W_V) or Q, K and V "
                            f"directly, not both")
    if given and len(given) < 3:
        missing = [k for k in ("Q", "K", "V") if k not in given]
        raise MHAInputError(f"{', '.join(missing)}: missing; Q, K and V are given together (got only "
                            f"{', '.join(given)})")
    if not given and data.get("X") is None:
        raise MHAInputError("X: missing; give the input tokens as a 2-D [T, d_model] or 3-D [B, T, d_model] list "
                            "(or Q, K and V directly)")
    if given:
        for k in ("W_Q", "W_K", "W_V", "b_Q", "b_K", "b_V", "key", "value"):
            if data.get(k) is not None and not _is_word(data.get(k), "identity"):
                raise MHAInputError(f"Q and {k}: with Q, K and V given directly there is no projection; "
                                    f"leave {k} out")

    # ---- heads
    H = data.get("n_heads")
    W_Q_raw = data.get("W_Q")
    if H is None and isinstance(W_Q_raw, (list, np.ndarray)) and np.ndim(W_Q_raw) == 3:
        H = len(W_Q_raw)
    if H is None:
        raise MHAInputError("n_heads: missing; give the number of heads H")
    H = _count(H, "n_heads")
    G = None
    if data.get("n_kv_heads") is not None:
        G = _count(data["n_kv_heads"], "n_kv_heads")
        if H % G:
            raise MHAInputError(f"n_kv_heads: {G} key/value heads do not divide n_heads = {H}; each group of "
                                f"query heads shares one key/value head")
    n_kv = H if G is None else G

    identity: list[str] = []
    per_head: list[str] = []
    key = value = Q_in = K_in = V_in = W_Q = W_K = W_V = None
    b: dict[str, np.ndarray | None] = {"b_Q": None, "b_K": None, "b_V": None}
    if given:
        lead = data["Q"]
        Q_in = as_array(lead, "Q", ndims=(2, 3), dtype=dtype)
        batched = Q_in.ndim == 3
        Q_in = Q_in if batched else Q_in[None]
        B = Q_in.shape[0]
        K_in = _batched(data["K"], "K", batched, B, dtype)
        V_in = _batched(data["V"], "V", batched, B, dtype)
        d_k = _split_width(Q_in.shape[2], H, "Q", Q_in.shape[1:], "heads")
        if K_in.shape[2] != n_kv * d_k:
            raise MHAInputError(f"K: width {K_in.shape[2]} but Q has width {Q_in.shape[2]}; K needs G·d_k = "
                                f"{n_kv}·{d_k} = {n_kv * d_k} columns (Q {list(Q_in.shape[1:])}, "
                                f"K {list(K_in.shape[1:])})")
        if V_in.shape[1] != K_in.shape[1]:
            raise MHAInputError(f"V: has {V_in.shape[1]} rows but K has {K_in.shape[1]}; every key needs a value "
                                f"(K {list(K_in.shape[1:])}, V {list(V_in.shape[1:])})")
        d_v = _split_width(V_in.shape[2], n_kv, "V", V_in.shape[1:], "key/value heads")
        T, S_new = Q_in.shape[1], K_in.shape[1]
    else:
        X = as_array(data["X"], "X", ndims=(2, 3), dtype=dtype)
        batched = X.ndim == 3
        X = X if batched else X[None]
        B, T, d_model = X.shape
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
        S_new = T if key is None else key.shape[1]
        d_k_in = d_model if key is None else key.shape[2]
        d_v_in = d_model if value is None else value.shape[2]
        src_k, src_v = ("X", "X") if key is None else ("key", "value")

        if (W_Q_raw is None or _is_word(W_Q_raw, "identity")) and d_model % H:
            raise MHAInputError(f"n_heads: {H} heads do not divide d_model = {d_model} "
                                f"(X has shape {list(X.shape if batched else X.shape[1:])})")
        W_Q = _weight(W_Q_raw, "W_Q", d_model, H, dtype, identity, per_head, source="X")
        d_k = _split_width(W_Q.shape[1], H, "W_Q", W_Q.shape, "heads")
        W_K = _weight(data.get("W_K"), "W_K", d_k_in, n_kv, dtype, identity, per_head, source=src_k)
        if W_K.shape[1] != n_kv * d_k:
            shown = f"\"identity\" is {list(W_K.shape)}" if "W_K" in identity else f"has {W_K.shape[1]} columns"
            raise MHAInputError(f"W_K: {shown} but the keys need G·d_k = {n_kv}·{d_k} = {n_kv * d_k} columns to "
                                f"match W_Q (W_Q {list(W_Q.shape)}); give W_K as a [{d_k_in}, {n_kv * d_k}] matrix")
        W_V = _weight(data.get("W_V"), "W_V", d_v_in, n_kv, dtype, identity, per_head, source=src_v)
        d_v = _split_width(W_V.shape[1], n_kv, "W_V", W_V.shape, "key/value heads")
        b["b_Q"] = _vector(data.get("b_Q"), "b_Q", H * d_k, "H·d_k", dtype)
        b["b_K"] = _vector(data.get("b_K"), "b_K", n_kv * d_k, "G·d_k", dtype)
        b["b_V"] = _vector(data.get("b_V"), "b_V", n_kv * d_v, "G·d_v", dtype)

    # ---- output projection: "none" is the default when Q, K and V are given directly
    W_O_raw = data.get("W_O", "none" if given else "identity")
    if _is_word(W_O_raw, "none"):
        W_O = None
    elif W_O_raw is None or _is_word(W_O_raw, "identity"):
        identity.append("W_O")
        W_O = np.eye(H * d_v, dtype=dtype)
    elif isinstance(W_O_raw, str):
        raise MHAInputError(f"W_O: the only strings accepted are \"identity\" and \"none\", got {W_O_raw!r}")
    else:
        W_O = as_array(W_O_raw, "W_O", dtype=dtype)
        if W_O.shape[0] != H * d_v:
            raise MHAInputError(f"W_O: has {W_O.shape[0]} rows but O_concat has H·d_v = {H}·{d_v} = {H * d_v} "
                                f"columns (W_O {list(W_O.shape)})")
    d_out = H * d_v if W_O is None else W_O.shape[1]
    b_O = _vector(data.get("b_O"), "b_O", d_out, "d_out", dtype)

    # ---- KV cache
    cache_K = cache_V = None
    if data.get("cache") is not None:
        cache = data["cache"]
        if not isinstance(cache, Mapping) or set(cache) != {"K", "V"}:
            raise MHAInputError("cache: expected an object {\"K\": [G, S_past, d_k], \"V\": [G, S_past, d_v]}")
        if key is not None:
            raise MHAInputError("cache and key: a KV cache belongs to self-attention; leave out key/value")
        cache_K = _batched(cache["K"], "cache.K", batched, B, dtype, extra=1)
        cache_V = _batched(cache["V"], "cache.V", batched, B, dtype, extra=1)
        for name, arr, width, what in (("cache.K", cache_K, d_k, "d_k"), ("cache.V", cache_V, d_v, "d_v")):
            if arr.shape[1] != n_kv or arr.shape[3] != width:
                raise MHAInputError(f"{name}: shape {list(arr.shape[1:] if not batched else arr.shape)} does not "
                                    f"fit [G, S_past, {what}] = [{n_kv}, S_past, {width}]")
        if cache_K.shape[2] != cache_V.shape[2]:
            raise MHAInputError(f"cache.V: holds {cache_V.shape[2]} tokens but cache.K holds {cache_K.shape[2]}")
    S_past = 0 if cache_K is None else cache_K.shape[2]
    S = S_past + S_new

    raw_causal = data.get("causal", False)
    causal = parse_causal(raw_causal)
    if cache_K is not None and causal != "none":
        if raw_causal == "top_left":
            raise MHAInputError("causal: \"top_left\" would hide the cached tokens from the new ones; with a "
                                "cache use true (the new tokens follow the cached ones)")
        causal = "bottom_right"

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
    mask = bias = None
    if data.get("mask") is not None:
        mask = _attn_shaped(as_array(data["mask"], "mask", kind="bool", ndims=(2, 3, 4)), "mask", B, H, T, S)
    if data.get("bias") is not None:
        bias = _attn_shaped(as_array(data["bias"], "bias", ndims=(2, 3, 4), dtype=dtype, allow_neg_inf=True),
                            "bias", B, H, T, S)
    window = None
    if data.get("window") is not None:
        window = _count(data["window"], "window")
    alibi, alibi_rule = _alibi(data.get("alibi"), H)
    rope = parse_rope(data.get("rope"), d_k=d_k, B=B, T=T, S_past=S_past, S_new=S_new, S=S, batched=batched)
    upstream = parse_upstream(data.get("backward"), B=B, T=T, d_out=d_out, batched=batched, dtype=dtype)
    tokens = _labels(data.get("tokens"), "tokens", B, T, batched)
    key_tokens = _labels(data.get("key_tokens"), "key_tokens", B, S, batched)
    if key_tokens is None and tokens is not None and T == S and key is None and not given:
        key_tokens = tokens                                   # self-attention: the keys are the same tokens

    return Config(n_heads=H, n_kv_heads=G, X=None if given else X, W_Q=W_Q, W_K=W_K, W_V=W_V, W_O=W_O, **b,
                  b_O=b_O, key=key, value=value, Q_in=Q_in, K_in=K_in, V_in=V_in, causal=causal,
                  key_lengths=key_lengths, mask=mask, bias=bias, scale=parse_scale(data.get("scale")), rope=rope,
                  alibi=alibi, alibi_rule=alibi_rule, window=window, cache_K=cache_K, cache_V=cache_V,
                  tokens=tokens, key_tokens=key_tokens, batched=batched, weights_identity=tuple(identity), weights_per_head=tuple(per_head),
                  backward=upstream)


def random_weights(d_model: int, d_k_in: int | None = None, d_v_in: int | None = None, seed: int = 0, *,
                   n_heads: int = 1, n_kv_heads: int | None = None, d_k: int | None = None,
                   d_v: int | None = None, d_out: int | None = None) -> dict[str, np.ndarray]:
    """Random W_Q, W_K, W_V, W_O scaled by 1/sqrt(fan_in), reproducible from `seed` (any integer >= 0).

    Without d_k, d_v and d_out every projection is d_model wide, as in the worked example.
    """
    if isinstance(seed, bool) or not isinstance(seed, (int, np.integer)) or seed < 0:
        raise MHAInputError(f"seed: expected an integer >= 0, got {seed!r}")
    G = n_kv_heads or n_heads
    dk = d_k or d_model // n_heads
    dv = d_v or d_model // n_heads
    shapes = {"W_Q": (d_model, n_heads * dk), "W_K": (d_k_in or d_model, G * dk),
              "W_V": (d_v_in or d_model, G * dv), "W_O": (n_heads * dv, d_out or d_model)}
    rng = np.random.default_rng(seed)
    return {k: rng.standard_normal(s) / math.sqrt(s[0]) for k, s in shapes.items()}


def with_random_weights(data: Mapping[str, Any], seed: int = 0, **widths: Any) -> dict[str, Any]:
    """A copy of an input mapping with random W_Q..W_O shaped for its X (and key / value, if any).

    widths: d_k, d_v, d_out (default: d_model wide, as in the worked example).  A "W_O": "none" stays.
    """
    if data.get("X") is None:
        raise MHAInputError("X: missing; random weights are shaped from X")
    # the inputs as arrays, so that parse_config does not read the nested lists a second time
    arrays = {name: as_array(data[name], name, ndims=(2, 3))
              for name in ("X", "key", "value") if data.get(name) is not None}
    d = {name: a.shape[-1] for name, a in arrays.items()}
    H = _count(data.get("n_heads", 1), "n_heads")
    G = None if data.get("n_kv_heads") is None else _count(data["n_kv_heads"], "n_kv_heads")
    if widths.get("d_k") is None and d["X"] % H:
        raise MHAInputError(f"n_heads: {H} heads do not divide d_model = {d['X']}; give d_k for random weights")
    d_k = d.get("key")
    W = random_weights(d["X"], d_k, d.get("value", d_k), seed, n_heads=H, n_kv_heads=G,
                       **{k: v for k, v in widths.items() if v is not None})
    if _is_word(data.get("W_O"), "none"):
        del W["W_O"]
    return {**data, **arrays, **W}


# ------------------------------------------------------------------- per-head attention arguments

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


def _float_array(a: Any, name: str) -> np.ndarray:
    dtype = a.dtype if isinstance(a, np.ndarray) and a.dtype in (np.float32, np.float64) else np.float64
    return as_array(a, name, ndims=tuple(range(2, 9)), dtype=dtype)


def _check_broadcast(arr: np.ndarray, field: str, shape: tuple[int, ...]) -> None:
    try:
        if np.broadcast_shapes(arr.shape, shape) == shape:
            return
    except ValueError:
        pass
    raise MHAInputError(f"{field}: shape {list(arr.shape)} does not broadcast to [..., T, S] = {list(shape)}")


def parse_attention_args(q: Any, k: Any, v: Any, *, mask: Any = None, causal: Any = False, scale: Any = None,
                         key_lengths: Any = None, bias: Any = None, window: Any = None, alibi: Any = None,
                         enable_gqa: bool = False) -> AttentionArgs:
    """Check q [..., T, d_k], k [..., S, d_k], v [..., S, d_v] and the options; name every bad argument.

    With enable_gqa (as torch's scaled_dot_product_attention), q is [..., H, T, d_k]
    and k, v are [..., G, S, d] with G dividing H; query head h reads key/value head
    h // (H / G).  alibi is True (Press et al.'s slopes for H = q.shape[-3]) or H slopes.
    """
    q, k, v = _float_array(q, "q"), _float_array(k, "k"), _float_array(v, "v")
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
                         batch_shape=tuple(batch_shape))
