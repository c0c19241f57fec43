"""The trace: every intermediate of one multi-head attention call, as plain data.

`mha.trace(...)` validates the input once (`mha.inputs`), computes the layer
with the reference core (`mha.core.layer`) and returns a `Trace`: the core's
intermediates plus their dimension table and their JSON / .npz forms.  A
Trace never formats numbers for people and never recomputes attention.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass, fields, replace
from typing import Any, Mapping

import numpy as np

from .backward import LayerGrads, layer_backward
from .core import LayerSteps, layer
from .inputs import Config, parse_config

# Per-query-head arrays as written in the JSON "heads" list: JSON key -> Trace field.  The K and V of a
# query head are those it attends over (its key/value head's, cache rows included, rotated under RoPE).
HEAD_KEYS = {"Q": "Qh", "QKt": "QKt", "S": "S", "row_max": "row_max", "exp": "E", "row_sum": "row_sum",
             "A": "A", "O": "O"}
# Per-key/value-head arrays, in the JSON "kv_heads" list.
KV_KEYS = {"K": "Kh", "V": "Vh"}
_INNER_LIST = re.compile(r"\[([^\[\]{}]*)\]")


@dataclass(frozen=True)
class Trace(LayerSteps):
    """Intermediates of one layer call; names follow the worked example (see `mha.core.LayerSteps`).

    grads holds the backward pass (`mha.backward.LayerGrads`) when the input asked for it ("backward").
    """

    grads: LayerGrads | None = None

    @property
    def X(self) -> np.ndarray | None:
        return self.config.X

    @property
    def visible(self) -> np.ndarray:
        """[B, H, T, S] bool: the query-key pairs that were not masked."""
        return self.S > -np.inf

    def group(self, h: int) -> int:
        """The key/value head (0-based) that query head h reads."""
        return self.config.group(h)

    # ------------------------------------------------------------ per-head view

    def head(self, h: int, b: int = 0) -> dict[str, np.ndarray]:
        """The arrays query head h (0-based) actually uses for sequence b.

        Q is the query after RoPE when there is one; K and V are its key/value
        head's, cache rows included; then QKt, S, row_max, exp, row_sum, A, O.
        """
        g = self.group(h)
        Q = self.Qh if self.Qh_rope is None else self.Qh_rope
        out = {"Q": Q[b, h], "K": self.K_all[b, g], "V": self.V_all[b, g]}
        out.update({key: getattr(self, name)[b, h] for key, name in HEAD_KEYS.items() if key != "Q"})
        return out

    # ------------------------------------------------------------ shapes

    def _dims(self, *dims: int) -> list[int]:
        return ([self.config.B] if self.config.batched else []) + list(dims)

    def shape_table(self) -> list[dict[str, Any]]:
        """The dimension table: one row per step with its symbol and shape (B first when batched)."""
        c = self.config
        T, S, S_new, dk, dv = c.T, c.S, c.S_new, c.d_k, c.d_v
        H, G = c.n_heads, c.G
        kv = "(g)" if G < H else "(h)"
        rows: list[tuple[str, str, list[int]]] = []
        if c.given_qkv:
            rows += [("input", "Q", self._dims(T, H * dk)), ("input", "K", self._dims(S_new, G * dk)),
                     ("input", "V", self._dims(S_new, G * dv))]
        else:
            rows.append(("input", "X", self._dims(T, c.d_model)))
            if c.key is not None:
                rows += [("input", "X_k", self._dims(S_new, c.key.shape[2])),
                         ("input", "X_v", self._dims(S_new, c.value.shape[2]))]
            rows += [("weights", "W_Q", list(c.W_Q.shape)), ("weights", "W_K", list(c.W_K.shape)),
                     ("weights", "W_V", list(c.W_V.shape)),
                     ("projection", "Q", self._dims(T, H * dk))]
            if G * dk == G * dv:
                rows.append(("projection", "K, V", self._dims(S_new, G * dk)))
            else:
                rows += [("projection", "K", self._dims(S_new, G * dk)), ("projection", "V", self._dims(S_new, G * dv))]
        rows.append(("split", "Q^(h)", self._dims(T, dk)))
        if dk == dv:
            rows.append(("split", f"K^{kv}, V^{kv}", self._dims(S_new, dk)))
        else:
            rows += [("split", f"K^{kv}", self._dims(S_new, dk)), ("split", f"V^{kv}", self._dims(S_new, dv))]
        if c.rope is not None:
            rows += [("rope", "RoPE(Q^(h))", self._dims(T, dk)), ("rope", f"RoPE(K^{kv})", self._dims(S_new, dk))]
        if c.cache_K is not None:
            rows += [("cache", f"K_cache^{kv}", self._dims(c.S_past, dk)),
                     ("cache", f"K^{kv} with cache", self._dims(S, dk)), ("cache", f"V^{kv} with cache", self._dims(S, dv))]
        rows += [
            ("scores", f"Q^(h) K^{kv}T", self._dims(T, S)),
            ("scale", "S^(h)", self._dims(T, S)),
            ("softmax", "A^(h)", self._dims(T, S)),
            ("weighted_sum", f"O^(h) = A^(h) V^{kv}", self._dims(T, dv)),
            ("concat", "O_concat", self._dims(T, H * dv)),
        ]
        if c.W_O is not None:
            rows.append(("weights", "W_O", list(c.W_O.shape)))
        rows.append(("output", "Y", self._dims(T, c.d_out)))
        return [{"step": step, "symbol": sym, "shape": shape} for step, sym, shape in rows]

    def shape_of(self, symbol: str) -> list[int]:
        """Shape of a named array as the user sees it (no B axis unless the input had one)."""
        arr = getattr(self, symbol) if symbol != "X" else self.X
        if not self.config.batched and arr.ndim >= 3 and symbol in ("X", "Q", "K", "V", "O_concat", "Y"):
            return list(arr.shape[1:])
        return list(arr.shape)

    # ------------------------------------------------------------ JSON

    def _user(self, arr: np.ndarray) -> Any:
        """Drop the batch axis again when the user's input had none, then make it JSON-ready."""
        return to_json_value(arr if self.config.batched else arr[0])

    def to_dict(self) -> dict[str, Any]:
        c = self.config
        out: dict[str, Any] = {
            "config": {"B": c.B, "T": c.T, "S": c.S, "d_model": c.d_model, "n_heads": c.n_heads,
                       "d_head": c.d_k, "scale": c.effective_scale, "causal": c.causal,
                       "self_attention": c.self_attention, "batched": c.batched, "dtype": str(c.dtype),
                       "identity_weights": list(c.weights_identity),
                       "n_kv_heads": c.G, "d_k": c.d_k, "d_v": c.d_v, "d_out": c.d_out, "S_past": c.S_past,
                       "scale_rule": c.scale_rule, "given_qkv": c.given_qkv,
                       "per_head_weights": list(c.weights_per_head), "output_projection": c.W_O is not None},
        }
        # the inputs, echoed: weights as the matrices used (2-D, identity written out), arrays as the user gave them
        inp = c.to_input()
        for name in ("n_heads", "n_kv_heads", "causal"):
            inp.pop(name, None)
        for name in ("W_Q", "W_K", "W_V", "W_O"):
            W = getattr(c, name)
            if W is None:
                inp.pop(name, None)
            else:
                inp[name] = W
        if c.given_qkv:
            for name in ("Q", "K", "V"):
                inp.pop(name)
        out.update(to_json_value(inp))
        out.update(Q=self._user(self.Q), K=self._user(self.K), V=self._user(self.V))
        heads = []
        for h in range(c.n_heads):
            g = c.group(h)
            entry: dict[str, Any] = {"h": h + 1, "kv_head": g + 1}
            entry["Q"] = self._user(self.Qh[:, h])
            if self.Qh_rope is not None:
                entry["Q_rope"] = self._user(self.Qh_rope[:, h])
            entry["K"] = self._user(self.K_all[:, g])
            entry["V"] = self._user(self.V_all[:, g])
            for key, name in HEAD_KEYS.items():
                if key != "Q":
                    entry[key] = self._user(getattr(self, name)[:, h])
            entry["fully_masked"] = self._user(self.fully_masked[:, h])
            heads.append(entry)
        out["heads"] = heads
        kv_heads = []
        for g in range(c.G):
            entry = {"g": g + 1, "K": self._user(self.Kh[:, g]), "V": self._user(self.Vh[:, g])}
            if self.Kh_rope is not None:
                entry["K_rope"] = self._user(self.Kh_rope[:, g])
            kv_heads.append(entry)
        out["kv_heads"] = kv_heads
        if self.position_bias is not None:
            out["position_bias"] = to_json_value(self.position_bias)
        out["O_concat"] = self._user(self.O_concat)
        out["Y"] = self._user(self.Y)
        out["shapes"] = self.shape_table()
        if self.grads is not None:
            out["grads"] = grads_to_dict(self)
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
        """Read back what `to_dict` wrote: the echoed inputs rebuild the configuration, the arrays are read."""
        from .inputs import INPUT_KEYS
        c = d["config"]
        data: dict[str, Any] = {k: d[k] for k in INPUT_KEYS if k in d and k not in ("Q", "K", "V")}
        if c.get("given_qkv"):
            data.update(Q=d["Q"], K=d["K"], V=d["V"])
        data.update(n_heads=c["n_heads"], causal=c["causal"])
        if c.get("n_kv_heads", c["n_heads"]) != c["n_heads"]:
            data["n_kv_heads"] = c["n_kv_heads"]
        if not c.get("output_projection", True):
            data["W_O"] = "none"
        for name in c.get("per_head_weights", []):
            W = np.array(data[name], dtype=float)
            heads = c["n_heads"] if name == "W_Q" else c.get("n_kv_heads", c["n_heads"])
            data[name] = W.reshape(W.shape[0], heads, -1).transpose(1, 0, 2)
        data.update({w: "identity" for w in c.get("identity_weights", [])})
        cfg = parse_config(data, dtype=c["dtype"])
        dtype = cfg.dtype

        def arr(value: Any, dt: Any = dtype) -> np.ndarray:
            a = np.array(value, dtype=float if dt != bool else bool)
            a = np.where(np.isnan(a), -np.inf, a).astype(dt) if dt != bool else a    # null = -inf
            return a if c["batched"] else a[None]

        def stack(entries: list[dict[str, Any]], key: str, dt: Any = dtype) -> np.ndarray | None:
            if key not in entries[0]:
                return None
            return np.stack([arr(e[key], dt) for e in entries], axis=1)

        heads, kvs = d["heads"], d["kv_heads"]
        K_all = np.stack([arr(heads[next(h for h in range(cfg.n_heads) if cfg.group(h) == g)]["K"])
                          for g in range(cfg.G)], axis=1)
        V_all = np.stack([arr(heads[next(h for h in range(cfg.n_heads) if cfg.group(h) == g)]["V"])
                          for g in range(cfg.G)], axis=1)
        per_head = {name: stack(heads, key) for key, name in HEAD_KEYS.items()}
        pb = d.get("position_bias")
        grads = grads_from_dict(d["grads"], cfg, arr) if "grads" in d else None
        return cls(config=cfg, Q=arr(d["Q"]), K=arr(d["K"]), V=arr(d["V"]), Kh=stack(kvs, "K"), Vh=stack(kvs, "V"),
                   Qh_rope=stack(heads, "Q_rope"), Kh_rope=stack(kvs, "K_rope"), K_all=K_all, V_all=V_all,
                   position_bias=None if pb is None else np.array(pb, dtype=dtype),
                   fully_masked=stack(heads, "fully_masked", bool), O_concat=arr(d["O_concat"]), Y=arr(d["Y"]),
                   grads=grads, **per_head)

    @classmethod
    def from_json(cls, text: str) -> "Trace":
        """The inverse of `to_json`: every array comes back exactly (JSON numbers keep all digits)."""
        return cls.from_dict(json.loads(text))

    # ------------------------------------------------------------ npz

    def save_npz(self, path: str) -> None:
        """Write every array (inputs and intermediates) to one .npz file, losslessly."""
        arrays = {f.name: getattr(self, f.name) for f in fields(self)
                  if f.name not in ("config", "grads") and getattr(self, f.name) is not None}
        meta = {"dtype": str(self.config.dtype), "input": to_json_value(self.config.to_input())}
        if self.grads is not None:
            arrays.update({f"grads.{f.name}": getattr(self.grads, f.name) for f in fields(LayerGrads)
                           if isinstance(getattr(self.grads, f.name), np.ndarray)})
            meta["grads"] = {"loss": self.grads.loss, "L": self.grads.L}
        arrays["config.meta"] = np.array(json.dumps(meta))
        np.savez_compressed(path, **arrays)

    @classmethod
    def load_npz(cls, path: str) -> "Trace":
        with np.load(path, allow_pickle=False) as data:
            meta = json.loads(str(data["config.meta"]))
            config = parse_config(meta["input"], dtype=meta["dtype"])
            rest = {f.name: (data[f.name] if f.name in data else None) for f in fields(cls)
                    if f.name not in ("config", "grads")}
            if "grads" in meta:
                rest["grads"] = LayerGrads(**meta["grads"], **{f.name: data.get(f"grads.{f.name}") for f in
                                                               fields(LayerGrads) if f.name not in ("loss", "L")})
        return cls(config=config, **rest)


# ------------------------------------------------------------------ the gradients in JSON

# Per-query-head gradients in the JSON "grads.heads" list: JSON key -> LayerGrads field.  dK and dV of a query
# head are its share of its key/value head's gradient, over the keys it attends to (cache rows first).
GRAD_HEAD_KEYS = {"dO": "dO", "dA": "dA", "D": "D", "dS": "dS", "dQKt": "dQKt", "dQ_rope": "dQh_rope",
                  "dQ": "dQh", "dK": "dK_share", "dV": "dV_share"}
# Per-key/value-head gradients in "grads.kv_heads": over all keys attended (dK_all, dV_all), the cache's rows,
# and this call's new keys and values (dK after rotating back under RoPE, as kv_heads[g].K is before it).
GRAD_KV_KEYS = {"dK_all": "dK_all", "dV_all": "dV_all", "dK_cache": "dcache_K", "dV_cache": "dcache_V",
                "dK_rope": "dKh_rope", "dK": "dKh", "dV": "dVh"}
GRAD_TOKENS = ("dY", "dO_concat", "dQ", "dK", "dV", "dX_Q", "dX_K", "dX_V", "dX")     # batch axis first
GRAD_PARAMS = ("dW_O", "db_O", "dW_Q", "dW_K", "dW_V", "db_Q", "db_K", "db_V")      # no batch axis
GRAD_ORDER = ("dY", "dW_O", "db_O", "dO_concat", "heads", "kv_heads", "dQ", "dK", "dV", "dW_Q", "dW_K", "dW_V",
              "db_Q", "db_K", "db_V", "dX_Q", "dX_K", "dX_V", "dX")


def grads_to_dict(t: Trace) -> dict[str, Any]:
    """The backward pass as JSON values, in the order of the backward steps, with a table of shapes."""
    g, c = t.grads, t.config
    out: dict[str, Any] = {"loss": g.loss, "L": g.L}
    heads = [{"h": h + 1, "kv_head": c.group(h) + 1, **{key: t._user(getattr(g, name)[:, h])
                                                         for key, name in GRAD_HEAD_KEYS.items()
                                                         if getattr(g, name) is not None}} for h in range(c.n_heads)]
    kv_heads = [{"g": k + 1, **{key: t._user(getattr(g, name)[:, k]) for key, name in GRAD_KV_KEYS.items()
                                if getattr(g, name) is not None}} for k in range(c.G)]
    for key in GRAD_ORDER:
        if key == "heads":
            out["heads"] = heads
        elif key == "kv_heads":
            out["kv_heads"] = kv_heads
        elif getattr(g, key) is not None:
            value = getattr(g, key)
            out[key] = t._user(value) if key in GRAD_TOKENS else to_json_value(value)
    out["shapes"] = grad_shape_table(t)
    return out


def grad_shape_table(t: Trace) -> list[dict[str, Any]]:
    """[{"symbol", "shape"}] of every gradient of a trace, in the order of the backward steps, as the JSON
    holds them: B first when batched, per-head ones once, marked (h) or (g)."""
    g, lead = t.grads, [t.config.B] if t.config.batched else []
    rows = []
    for key in GRAD_ORDER:
        table = GRAD_HEAD_KEYS if key == "heads" else GRAD_KV_KEYS if key == "kv_heads" else None
        if table is not None:
            mark = "(h)" if key == "heads" else "(g)"
            rows += [{"symbol": f"{k}^{mark}", "shape": lead + list(getattr(g, name).shape[2:])}
                     for k, name in table.items() if getattr(g, name) is not None]
        elif getattr(g, key) is not None:
            shape = list(getattr(g, key).shape)
            rows.append({"symbol": key, "shape": lead + shape[1:] if key in GRAD_TOKENS else shape})
    return rows


def grads_from_dict(d: Mapping[str, Any], cfg: Config, arr: Any) -> LayerGrads:
    """The inverse of `grads_to_dict`; arr reads a batched array as `Trace.from_dict` does."""
    def stack(entries: list, key: str) -> np.ndarray | None:
        return np.stack([arr(e[key]) for e in entries], axis=1) if key in entries[0] else None

    values: dict[str, Any] = {"loss": d["loss"], "L": d["L"]}
    values.update({name: stack(d["heads"], key) for key, name in GRAD_HEAD_KEYS.items()})
    values.update({name: stack(d["kv_heads"], key) for key, name in GRAD_KV_KEYS.items()})
    values.update({key: arr(d[key]) if key in d else None for key in GRAD_TOKENS})
    values.update({key: np.array(d[key], dtype=cfg.dtype) if key in d else None for key in GRAD_PARAMS})
    return LayerGrads(**values)


def to_json_value(value: Any) -> Any:
    """Nested lists of Python numbers (dicts and lists walked); non-finite entries become None (JSON null)."""
    if isinstance(value, Mapping):
        return {k: to_json_value(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [to_json_value(v) for v in value]
    if not isinstance(value, np.ndarray):
        return value.item() if isinstance(value, np.generic) else value
    arr = value
    if arr.dtype == np.bool_ or np.issubdtype(arr.dtype, np.integer):
        return arr.tolist()
    finite = np.isfinite(arr)
    if finite.all():
        return arr.astype(np.float64).tolist()
    obj = arr.astype(np.float64).astype(object)
    obj[~finite] = None
    return obj.tolist()


def trace(X: Any = None, n_heads: int | None = None, *, dtype: Any = np.float64, **params: Any) -> Trace:
    """Compute multi-head attention and keep every intermediate under the document's names.

    X is a [T, d_model] or [B, T, d_model] array, or a whole input mapping (the
    JSON input format).  Other parameters are the input keys: W_Q, W_K, W_V,
    W_O, b_Q..b_O, Q, K, V, key, value, n_kv_heads, causal, key_lengths, mask,
    bias, scale, rope, alibi, window, cache.

    >>> t = trace([[1, 0, 1, 0], [0, 1, 0, 1], [1, 1, 0, 0]], n_heads=2)
    >>> t.A[0, 0].round(4)          # A^(1), batch 0
    array([[0.4011, 0.1978, 0.4011],
           [0.1978, 0.4011, 0.4011],
           [0.2483, 0.2483, 0.5035]])
    >>> t.Y.shape, t.shape_of("Y")
    ((1, 3, 4), [3, 4])
    """
    if isinstance(X, Mapping):
        extra = dict(params, **({} if n_heads is None else {"n_heads": n_heads}))
        data = dict(X, **extra) if extra else X
    else:
        data = dict(params, **({} if X is None else {"X": X}), **({} if n_heads is None else {"n_heads": n_heads}))
    return run(parse_config(data, dtype=dtype))


def run(cfg: Config) -> Trace:
    """The trace of an already validated `Config`; with its backward pass when the input has "backward"."""
    t = layer(cfg, cls=Trace)
    return t if cfg.backward is None else replace(t, grads=layer_backward(t))
