"""Reading and validating one attention configuration into a typed `Config`.

Everything a user hands us (JSON, nested lists, NumPy arrays) passes through
here once.  Bad input raises `MHAInputError` naming the field and the shapes
involved; nothing is ever evaluated as code.  The work is split by what it
reads: numbers and arrays (`mha.arrays`), the variant keys (`mha.variants`:
causal, scale, RoPE, ALiBi, the KV cache, the backward pass's upstream), the
per-head arguments of `mha.attention` (`mha.attention_args`), and here the
configuration itself and its checks.  Every public name of those modules is
importable from here.

Dimension legend (used in every shape message):
    B  batch size              T  query tokens      S = S_past + S_new  key/value tokens
    H  query heads             G  key/value heads (n_kv_heads, G divides H)
    d_model  width of X        d_k  query/key width per head      d_v  value width per head
    d_out    width of Y        S_past  cached tokens (KV cache)    S_new  keys computed now
"""

from __future__ import annotations

import functools
import math
from dataclasses import dataclass
from typing import Any, Mapping

import numpy as np

from .arrays import (MAX_NESTING, MHAInputError, UsageError, _batched, _count, _is_word, as_array,  # noqa: F401
                     read_json_file)
from .attention_args import AttentionArgs, parse_attention_args  # noqa: F401
from .variants import (CAUSAL_MODES, LOSSES, ROPE_KEYS, ROPE_STYLES, SCALE_RULES, Rope, Upstream,  # noqa: F401
                       _alibi, parse_cache, parse_causal, parse_rope, parse_scale, parse_upstream)

INPUT_KEYS = (
    "X", "n_heads", "n_kv_heads", "W_Q", "W_K", "W_V", "W_O", "b_Q", "b_K", "b_V", "b_O",
    "Q", "K", "V", "key", "value", "causal", "key_lengths", "mask", "bias", "scale",
    "rope", "alibi", "window", "cache", "tokens", "key_tokens", "backward",
)



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


# ------------------------------------------------------------------- the config

@functools.lru_cache(maxsize=8)
def _identity(d: int, dtype: np.dtype) -> np.ndarray:
    """I of size d, shared and read-only: `mha check` parses thousands of candidate configurations of one
    document, and a fresh I of a wide X for each cost most of its time."""
    eye = np.eye(d, dtype=dtype)
    eye.flags.writeable = False
    return eye


def _weight(value: Any, field: str, d_in: int, heads: int, dtype, identity: list[str], per_head: list[str],
            *, source: str) -> np.ndarray:
    """A projection as one 2-D matrix [d_in, heads * d]: given 2-D, per head [heads, d_in, d], or "identity"."""
    if value is None or _is_word(value, "identity"):
        identity.append(field)
        return _identity(d_in, np.dtype(dtype))
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
    dtype, given = _check_keys(data, dtype)
    H, G = _heads(data)
    n_kv = H if G is None else G
    identity: list[str] = []
    per_head: list[str] = []
    # ---- the tokens: Q, K and V given directly, or X (and key / value) with the projections
    p = _given_qkv(data, H, n_kv, dtype) if given else _projected(data, H, n_kv, dtype, identity, per_head)
    batched, B, T, S_new, d_k, d_v = p.pop("batched"), p.pop("B"), p.pop("T"), p.pop("S_new"), p.pop("d_k"), \
        p.pop("d_v")
    # ---- output projection: "none" is the default when Q, K and V are given directly
    W_O, b_O, d_out = _output_projection(data, given, H, d_v, dtype, identity)
    # ---- KV cache
    cache_K, cache_V = parse_cache(data.get("cache"), cross=p.get("key") is not None, batched=batched, B=B, G=n_kv,
                                   d_k=d_k, d_v=d_v, dtype=dtype)
    S_past = 0 if cache_K is None else cache_K.shape[2]
    S = S_past + S_new
    # ---- masks and the variants
    raw_causal = data.get("causal", False)
    causal = parse_causal(raw_causal)
    if cache_K is not None and causal != "none":
        if raw_causal == "top_left":
            raise MHAInputError("causal: \"top_left\" would hide the cached tokens from the new ones; with a "
                                "cache use true (the new tokens follow the cached ones)")
        causal = "bottom_right"
    key_lengths, mask, bias = _masks(data, B, H, T, S, dtype)
    window = None
    if data.get("window") is not None:
        window = _count(data["window"], "window")
    alibi, alibi_rule = _alibi(data.get("alibi"), H)
    rope = parse_rope(data.get("rope"), d_k=d_k, B=B, T=T, S_past=S_past, S_new=S_new, S=S, batched=batched)
    upstream = parse_upstream(data.get("backward"), B=B, T=T, d_out=d_out, batched=batched, dtype=dtype)
    tokens = _labels(data.get("tokens"), "tokens", B, T, batched)
    key_tokens = _labels(data.get("key_tokens"), "key_tokens", B, S, batched)
    if key_tokens is None and tokens is not None and T == S and p.get("key") is None and not given:
        key_tokens = tokens                                   # self-attention: the keys are the same tokens

    return Config(n_heads=H, n_kv_heads=G, **p, W_O=W_O, b_O=b_O, causal=causal,
                  key_lengths=key_lengths, mask=mask, bias=bias, scale=parse_scale(data.get("scale")), rope=rope,
                  alibi=alibi, alibi_rule=alibi_rule, window=window, cache_K=cache_K, cache_V=cache_V,
                  tokens=tokens, key_tokens=key_tokens, batched=batched, weights_identity=tuple(identity),
                  weights_per_head=tuple(per_head), backward=upstream)


def _check_keys(data: Any, dtype: Any) -> tuple[np.dtype, list[str]]:
    """The input is a mapping of known keys with X or all of Q, K, V (not both); the dtype and which of Q, K, V."""
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
    return dtype, given


def _heads(data: Mapping[str, Any]) -> tuple[int, int | None]:
    """H (n_heads, or the count of a per-head W_Q) and G (n_kv_heads, None when not given)."""
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
    return H, G


def _given_qkv(data: Mapping[str, Any], H: int, n_kv: int, dtype: np.dtype) -> dict[str, Any]:
    """Q, K and V given directly: Q_in, K_in, V_in with the batch axis, and the sizes."""
    Q_in = as_array(data["Q"], "Q", ndims=(2, 3), dtype=dtype)
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
    return dict(Q_in=Q_in, K_in=K_in, V_in=V_in, batched=batched, B=B, T=Q_in.shape[1], S_new=K_in.shape[1],
                d_k=d_k, d_v=d_v)


def _projected(data: Mapping[str, Any], H: int, n_kv: int, dtype: np.dtype, identity: list[str],
               per_head: list[str]) -> dict[str, Any]:
    """X (and key / value for cross-attention) with W_Q, W_K, W_V and their biases, and the sizes."""
    X = as_array(data["X"], "X", ndims=(2, 3), dtype=dtype)
    batched = X.ndim == 3
    X = X if batched else X[None]
    B, T, d_model = X.shape
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
    d_k_in = d_model if key is None else key.shape[2]
    d_v_in = d_model if value is None else value.shape[2]
    src_k, src_v = ("X", "X") if key is None else ("key", "value")

    W_Q_raw = data.get("W_Q")
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
    return dict(X=X, key=key, value=value, W_Q=W_Q, W_K=W_K, W_V=W_V,
                b_Q=_vector(data.get("b_Q"), "b_Q", H * d_k, "H·d_k", dtype),
                b_K=_vector(data.get("b_K"), "b_K", n_kv * d_k, "G·d_k", dtype),
                b_V=_vector(data.get("b_V"), "b_V", n_kv * d_v, "G·d_v", dtype),
                batched=batched, B=B, T=T, S_new=T if key is None else key.shape[1], d_k=d_k, d_v=d_v)


def _output_projection(data: Mapping[str, Any], given: list[str], H: int, d_v: int, dtype: np.dtype,
                       identity: list[str]) -> tuple[np.ndarray | None, np.ndarray | None, int]:
    """W_O (None for "none"), b_O and d_out."""
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
    return W_O, _vector(data.get("b_O"), "b_O", d_out, "d_out", dtype), d_out


def _masks(data: Mapping[str, Any], B: int, H: int, T: int, S: int,
           dtype: np.dtype) -> tuple[np.ndarray | None, np.ndarray | None, np.ndarray | None]:
    """key_lengths [B], mask (bool) and bias [B|1, H|1, T, S], each None when not given."""
    key_lengths = mask = bias = None
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
    if data.get("mask") is not None:
        mask = _attn_shaped(as_array(data["mask"], "mask", kind="bool", ndims=(2, 3, 4)), "mask", B, H, T, S)
    if data.get("bias") is not None:
        bias = _attn_shaped(as_array(data["bias"], "bias", ndims=(2, 3, 4), dtype=dtype, allow_neg_inf=True),
                            "bias", B, H, T, S)
    return key_lengths, mask, bias


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
