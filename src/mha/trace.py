"""The trace: every intermediate of one multi-head attention call, as plain data.

A `Trace` never formats and never computes attention; it only holds arrays
(always with the batch axis B first) and knows how to describe their shapes
and write them to JSON or .npz.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass, fields
from typing import Any

import numpy as np

from .inputs import Config

# Per-head arrays as written in the JSON "heads" list: JSON key -> Trace field.
HEAD_KEYS = {"Q": "Qh", "K": "Kh", "V": "Vh", "QKt": "QKt", "S": "S", "row_max": "row_max",
             "exp": "E", "row_sum": "row_sum", "A": "A", "O": "O"}
_INNER_LIST = re.compile(r"\[([^\[\]{}]*)\]")
_CONFIG_ARRAYS = ("X", "W_Q", "W_K", "W_V", "W_O", "b_Q", "b_K", "b_V", "b_O",
                  "key", "value", "key_lengths", "mask", "bias")


@dataclass(frozen=True)
class Trace:
    """Intermediates of one layer call; names follow the worked example."""

    config: Config
    Q: np.ndarray             # [B, T, d_model]
    K: np.ndarray             # [B, S, d_model]
    V: np.ndarray             # [B, S, d_model]
    Qh: np.ndarray            # [B, H, T, d_head]  Q^(h)
    Kh: np.ndarray            # [B, H, S, d_head]  K^(h)
    Vh: np.ndarray            # [B, H, S, d_head]  V^(h)
    QKt: np.ndarray           # [B, H, T, S]       Q^(h) K^(h)^T
    S: np.ndarray             # [B, H, T, S]       scaled, biased, -inf where masked
    row_max: np.ndarray       # [B, H, T]
    E: np.ndarray             # [B, H, T, S]       exp(S - row_max)
    row_sum: np.ndarray       # [B, H, T]
    A: np.ndarray             # [B, H, T, S]       attention weights
    O: np.ndarray             # [B, H, T, d_head]  O^(h)
    fully_masked: np.ndarray  # [B, H, T] bool
    O_concat: np.ndarray      # [B, T, d_model]
    Y: np.ndarray             # [B, T, d_model]

    @property
    def X(self) -> np.ndarray:
        return self.config.X

    # ------------------------------------------------------------ shapes

    def _dims(self, *dims: int) -> list[int]:
        return ([self.config.B] if self.config.batched else []) + list(dims)

    def shape_table(self) -> list[dict[str, Any]]:
        """The dimension table: one row per step with its symbol and shape (B first when batched)."""
        c = self.config
        T, S, d, dh = c.T, c.S, c.d_model, c.d_head
        rows = [("input", "X", self._dims(T, d))]
        if c.key is not None:
            rows += [("input", "X_k", self._dims(S, c.key.shape[2])),
                     ("input", "X_v", self._dims(S, c.value.shape[2]))]
        rows += [
            ("weights", "W_Q", list(c.W_Q.shape)),
            ("weights", "W_K", list(c.W_K.shape)),
            ("weights", "W_V", list(c.W_V.shape)),
            ("projection", "Q", self._dims(T, d)),
            ("projection", "K, V", self._dims(S, d)),
            ("split", "Q^(h)", self._dims(T, dh)),
            ("split", "K^(h), V^(h)", self._dims(S, dh)),
            ("scores", "Q^(h) K^(h)T", self._dims(T, S)),
            ("scale", "S^(h)", self._dims(T, S)),
            ("softmax", "A^(h)", self._dims(T, S)),
            ("weighted_sum", "O^(h) = A^(h) V^(h)", self._dims(T, dh)),
            ("concat", "O_concat", self._dims(T, d)),
            ("weights", "W_O", list(c.W_O.shape)),
            ("output", "Y", self._dims(T, d)),
        ]
        return [{"step": step, "symbol": sym, "shape": shape} for step, sym, shape in rows]

    def shape_of(self, symbol: str) -> list[int]:
        """Shape of a named array as the user sees it (no B axis unless X had one)."""
        arr = getattr(self, symbol) if symbol != "X" else self.X
        if not self.config.batched and arr.ndim >= 3 and symbol in ("X", "Q", "K", "V", "O_concat", "Y"):
            return list(arr.shape[1:])
        return list(arr.shape)

    # ------------------------------------------------------------ per-head view

    def head(self, h: int, b: int = 0) -> dict[str, np.ndarray]:
        """The arrays of head h (0-based) for sequence b, keyed as in the JSON "heads" list."""
        return {key: getattr(self, name)[b, h] for key, name in HEAD_KEYS.items()}

    # ------------------------------------------------------------ JSON

    def _user(self, arr: np.ndarray) -> Any:
        """Drop the batch axis again when the user's X had none, then make it JSON-ready."""
        return to_json_value(arr if self.config.batched else arr[0])

    def to_dict(self) -> dict[str, Any]:
        c = self.config
        out: dict[str, Any] = {
            "config": {"B": c.B, "T": c.T, "S": c.S, "d_model": c.d_model, "n_heads": c.n_heads,
                       "d_head": c.d_head, "scale": c.effective_scale, "causal": c.causal,
                       "self_attention": c.key is None, "batched": c.batched, "dtype": str(c.dtype),
                       "identity_weights": list(c.weights_identity)},
            "X": self._user(c.X),
        }
        if c.key is not None:
            out["key"], out["value"] = self._user(c.key), self._user(c.value)
        for name in ("W_Q", "W_K", "W_V", "W_O"):
            out[name] = to_json_value(getattr(c, name))
        for name in ("b_Q", "b_K", "b_V", "b_O"):
            if getattr(c, name) is not None:
                out[name] = to_json_value(getattr(c, name))
        if c.key_lengths is not None:
            out["key_lengths"] = c.key_lengths.tolist()
        if c.mask is not None:
            out["mask"] = to_json_value(c.mask)                  # [B|1, H|1, T, S], true = may attend
        if c.bias is not None:
            out["bias"] = to_json_value(c.bias)                  # [B|1, H|1, T, S], null = -inf
        if c.scale is not None:
            out["scale"] = c.scale
        out.update(Q=self._user(self.Q), K=self._user(self.K), V=self._user(self.V))
        heads = []
        for h in range(c.n_heads):
            entry: dict[str, Any] = {"h": h + 1}
            for key, name in HEAD_KEYS.items():
                entry[key] = self._user(getattr(self, name)[:, h])
            entry["fully_masked"] = self._user(self.fully_masked[:, h])
            heads.append(entry)
        out["heads"] = heads
        out["O_concat"] = self._user(self.O_concat)
        out["Y"] = self._user(self.Y)
        out["shapes"] = self.shape_table()
        return out

    def to_json(self, indent: int | None = 1) -> str:
        """The trace as JSON, one matrix row per line; masked scores (-inf) are written as null."""
        text = json.dumps(self.to_dict(), indent=indent, ensure_ascii=False, allow_nan=False)
        if indent is None:
            return text
        # Put each innermost list (a row of numbers) on one line; our strings hold no brackets.
        return _INNER_LIST.sub(lambda m: "[" + ", ".join(p.strip() for p in m.group(1).split(",")) + "]", text)

    @classmethod
    def from_dict(cls, d: dict[str, Any]) -> "Trace":
        """Read back what `to_dict` wrote (the inputs it echoes rebuild the configuration)."""
        from .inputs import parse_config
        c = d["config"]
        data = {k: d[k] for k in ("X", "W_Q", "W_K", "W_V", "W_O", "b_Q", "b_K", "b_V", "b_O", "key", "value",
                                  "key_lengths", "mask", "bias", "scale") if k in d}
        data.update(n_heads=c["n_heads"], causal=c["causal"])
        data.update({w: "identity" for w in c.get("identity_weights", [])})
        cfg = parse_config(data, dtype=c["dtype"])

        def arr(value: Any, dtype: Any = cfg.dtype) -> np.ndarray:
            a = np.array(value, dtype=float if dtype != bool else bool)
            a = np.where(np.isnan(a), -np.inf, a).astype(dtype) if dtype != bool else a   # null = -inf
            return a if c["batched"] else a[None]

        heads = {name: np.stack([arr(h[key]) for h in d["heads"]], axis=1) for key, name in HEAD_KEYS.items()}
        fully = np.stack([arr(h["fully_masked"], bool) for h in d["heads"]], axis=1)
        return cls(config=cfg, Q=arr(d["Q"]), K=arr(d["K"]), V=arr(d["V"]), fully_masked=fully,
                   O_concat=arr(d["O_concat"]), Y=arr(d["Y"]), **heads)

    @classmethod
    def from_json(cls, text: str) -> "Trace":
        """The inverse of `to_json`: every array comes back exactly (JSON numbers keep all digits)."""
        return cls.from_dict(json.loads(text))

    # ------------------------------------------------------------ npz

    def save_npz(self, path: str) -> None:
        """Write every array (inputs and intermediates) to one .npz file, losslessly."""
        arrays = {f.name: getattr(self, f.name) for f in fields(self) if f.name != "config"}
        c = self.config
        for name in _CONFIG_ARRAYS:
            if getattr(c, name) is not None:
                arrays["config." + name] = getattr(c, name)
        meta = {"n_heads": c.n_heads, "causal": c.causal, "scale": c.scale, "batched": c.batched,
                "weights_identity": list(c.weights_identity)}
        arrays["config.meta"] = np.array(json.dumps(meta))
        np.savez_compressed(path, **arrays)

    @classmethod
    def load_npz(cls, path: str) -> "Trace":
        with np.load(path, allow_pickle=False) as data:
            meta = json.loads(str(data["config.meta"]))
            cfg_arrays = {n: data["config." + n] for n in _CONFIG_ARRAYS if "config." + n in data}
            meta["weights_identity"] = tuple(meta["weights_identity"])
            config = Config(**cfg_arrays, **meta)
            rest = {f.name: data[f.name] for f in fields(cls) if f.name != "config"}
        return cls(config=config, **rest)


def to_json_value(arr: np.ndarray) -> Any:
    """Nested lists of Python numbers; non-finite entries become None (JSON null)."""
    arr = np.asarray(arr)
    if arr.dtype == np.bool_ or np.issubdtype(arr.dtype, np.integer):
        return arr.tolist()
    finite = np.isfinite(arr)
    if finite.all():
        return arr.astype(np.float64).tolist()
    obj = arr.astype(np.float64).astype(object)
    obj[~finite] = None
    return obj.tolist()
