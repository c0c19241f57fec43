"""Hugging Face transformers interop: one attention layer of a real model, on real text, as a `Trace`.

The layer's input X is captured with a forward hook during a real forward pass
of the model (the hidden states after the LayerNorm / RMSNorm, exactly as the
model hands them to its attention), and the output of the layer's own output
projection is captured the same way, as the number the trace's Y must match.
Weights, biases, heads, K/V groups, scale, RoPE, sliding window and padding are
read from the module and its config; nothing is re-implemented from a paper.

Families and what each reads:

    gpt2     h[L].ln_1 -> h[L].attn: fused c_attn (Conv1D, stored [in, out]), c_proj; causal
    bert     encoder.layer[L].attention.self: query/key/value; attention.output.dense; padding
    llama    layers[L].self_attn: q/k/v/o_proj (biases if attention_bias), GQA, RoPE; causal
    qwen2    as llama, with q/k/v biases and a sliding window on "sliding_attention" layers
    mistral  as llama, with config.sliding_window
    gemma    as llama, with the config's own head_dim (H * head_dim may differ from d_model)

torch stores a Linear weight as [out, in] and computes x W^T; this project uses
row vectors and [in, out] weights, so W = weight.T (GPT-2's Conv1D is already
[in, out]).  transformers and torch are imported only inside the functions.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import partial
from typing import Any, Iterator, Sequence

import numpy as np

from .hub import SUPPORTED, load
from .inputs import INPUT_KEYS, MHAInputError
_CONTEXT_KEYS = ("n_positions", "max_position_embeddings")


@dataclass(frozen=True)
class LayerCapture:
    """What one forward pass of the model gave for one attention layer."""

    family: str                  # config.model_type, one of SUPPORTED
    layer: int                   # 0-based, as the model's code counts
    mapping: dict[str, Any]      # the input mapping of the contract; mha.trace(mapping) -> Trace
    tokens: list[list[str]] | None  # readable token labels per sequence [B][T], None without a tokenizer
    Y_model: np.ndarray          # [B, T, d_out] the output projection's own output, float64 copy
    valid: np.ndarray            # [B, T] bool: real tokens (False = padding)
    model_visible: np.ndarray | None  # [B, T, S] bool: the model's own mask, where it built one
    dtype: str                   # the model's dtype ("float32", "float64", ...)


@dataclass(frozen=True)
class _Layer:
    """The modules and parameters of one attention layer of a supported family."""

    attn: Any                    # its forward's first input is X
    out: Any                     # the output projection; its output is Y
    weights: dict[str, np.ndarray]
    n_heads: int
    n_kv_heads: int
    head_dim: int
    scale: float
    causal: bool
    window: int | None
    rotary: Any                  # the model's rotary-embedding module, or None


class _Captured(Exception):
    """Raised inside the output hook: the layer is captured, the rest of the forward pass is skipped."""


# ---------------------------------------------------------------- reading the model

def _np(t: Any) -> np.ndarray:
    return t.detach().cpu().to(dtype=_torch().float64).numpy()


def _torch() -> Any:
    import torch
    return torch


def _linear(mod: Any, w: str, b: str | None, weights: dict[str, np.ndarray]) -> None:
    weights[w] = _np(mod.weight).T                               # [out, in] -> [in, out]
    if b is not None and getattr(mod, "bias", None) is not None:
        weights[b] = _np(mod.bias)


def _layers_of(base: Any, family: str) -> Any:
    return {"gpt2": lambda: base.h, "bert": lambda: base.encoder.layer}.get(family, lambda: base.layers)()


def _family(model: Any) -> tuple[str, Any]:
    config = getattr(model, "config", None)
    family = getattr(config, "model_type", None)
    if family not in SUPPORTED:
        raise MHAInputError(f"model: family {family!r} ({type(model).__name__}) is not supported; "
                            f"supported families: {', '.join(SUPPORTED)}")
    return family, getattr(model, "base_model", model)


def _read_layer(base: Any, family: str, layer: int) -> _Layer:
    c = base.config
    layers = _layers_of(base, family)
    n = len(layers)
    if isinstance(layer, bool) or not isinstance(layer, (int, np.integer)) or not 0 <= layer < n:
        raise MHAInputError(f"layer: {layer!r} is out of range; the model has {n} layers, 0..{n - 1}")
    block = layers[int(layer)]
    w: dict[str, np.ndarray] = {}
    if family == "gpt2":
        attn = block.attn
        if attn.is_cross_attention:
            raise MHAInputError("layer: GPT-2 cross-attention is not supported")
        d = attn.embed_dim
        qkv, qkv_b = _np(attn.c_attn.weight), _np(attn.c_attn.bias)     # Conv1D: [d, 3d] already [in, out]
        w["W_Q"], w["W_K"], w["W_V"] = qkv[:, :d], qkv[:, d:2 * d], qkv[:, 2 * d:]
        w["b_Q"], w["b_K"], w["b_V"] = qkv_b[:d], qkv_b[d:2 * d], qkv_b[2 * d:]
        w["W_O"], w["b_O"] = _np(attn.c_proj.weight), _np(attn.c_proj.bias)
        return _Layer(attn, attn.c_proj, w, attn.num_heads, attn.num_heads, attn.head_dim,
                      float(attn.scaling), True, None, None)
    if family == "bert":
        if getattr(c, "position_embedding_type", "absolute") not in (None, "absolute"):
            raise MHAInputError(f"model: BERT with position_embedding_type={c.position_embedding_type!r} "
                                "is not supported (only absolute position embeddings)")
        sa = block.attention.self
        for mod, name in ((sa.query, "Q"), (sa.key, "K"), (sa.value, "V"), (block.attention.output.dense, "O")):
            _linear(mod, f"W_{name}", f"b_{name}", w)
        H = sa.num_attention_heads
        return _Layer(sa, block.attention.output.dense, w, H, H, sa.attention_head_size,
                      float(sa.scaling), bool(c.is_decoder), None, None)
    # llama, qwen2, mistral, gemma
    attn = block.self_attn
    if family == "gemma" and getattr(c, "use_bidirectional_attention", False):
        raise MHAInputError("model: Gemma with use_bidirectional_attention is not supported")
    for mod, name in ((attn.q_proj, "Q"), (attn.k_proj, "K"), (attn.v_proj, "V"), (attn.o_proj, "O")):
        _linear(mod, f"W_{name}", f"b_{name}", w)
    window = None
    if family == "mistral":
        window = getattr(c, "sliding_window", None)
    elif family == "qwen2":
        window = getattr(attn, "sliding_window", None)          # set only on "sliding_attention" layers
    H, G = c.num_attention_heads, c.num_key_value_heads
    return _Layer(attn, attn.o_proj, w, H, G, attn.head_dim, float(attn.scaling), True,
                  int(window) if window else None, base.rotary_emb)


# ---------------------------------------------------------------- tokens

def _byte_level_alphabet() -> dict[str, int]:
    """The byte-level BPE alphabet (GPT-2's): printable bytes stand for themselves, the rest for chr(256 + n)."""
    keep = [*range(ord("!"), ord("~") + 1), *range(0xA1, 0xAC + 1), *range(0xAE, 0xFF + 1)]
    chars = {b: chr(b) for b in keep}
    rest = [b for b in range(256) if b not in chars]
    chars.update({b: chr(256 + n) for n, b in enumerate(rest)})
    return {ch: b for b, ch in chars.items()}


_VISIBLE = {" ": "␣", "\n": "↵", "\t": "⇥", "\r": "␍"}


def readable_token(token: str, style: str = "auto") -> str:
    """A tokenizer's token as a short readable label: spaces as ␣, a WordPiece continuation "##at" as ·at.

    style is "byte_level" (GPT-2's Ġ for a space), "metaspace" (SentencePiece's ▁),
    "wordpiece" (BERT's ##), or "auto" (guessed from the token).

    >>> readable_token("Ġcat", "byte_level"), readable_token("##at", "wordpiece"), readable_token("▁the")
    ('␣cat', '·at', '␣the')
    >>> readable_token("ĊĠ", "byte_level")
    '↵␣'
    """
    if style == "auto":
        style = "metaspace" if "▁" in token else "wordpiece" if token.startswith("##") else "plain"
    text = token
    if style == "byte_level":
        alphabet = _BYTES
        if all(ch in alphabet for ch in token):
            text = bytes(alphabet[ch] for ch in token).decode("utf-8", errors="backslashreplace")
    elif style == "metaspace":
        text = token.replace("▁", " ")
    elif style == "wordpiece" and token.startswith("##") and len(token) > 2:
        return "·" + token[2:]
    return "".join(_VISIBLE.get(ch, ch if ch.isprintable() else f"\\x{ord(ch):02x}") for ch in text) or "∅"


_BYTES = _byte_level_alphabet()


def _token_style(tokenizer: Any) -> str:
    """The tokenizer's space convention, read from its backend decoder (a `tokenizers` object)."""
    backend = getattr(tokenizer, "backend_tokenizer", None)
    decoder = getattr(backend, "decoder", None)
    names = " ".join(type(d).__name__ for d in _flatten_decoder(decoder))
    for key, style in (("ByteLevel", "byte_level"), ("Metaspace", "metaspace"), ("WordPiece", "wordpiece")):
        if key in names:
            return style
    return "auto"


def _flatten_decoder(decoder: Any) -> list[Any]:
    if decoder is None:
        return []
    subs = getattr(decoder, "decoders", None)        # a decoders.Sequence keeps its parts here
    return [decoder] + ([d for s in subs for d in _flatten_decoder(s)] if isinstance(subs, list) else [])


def token_labels(tokenizer: Any, ids: Sequence[int]) -> list[str]:
    """Readable labels for token ids, from the tokenizer's own tokens (Ġ, ▁ and ## shown readably)."""
    style = _token_style(tokenizer)
    return [readable_token(tok, style) for tok in tokenizer.convert_ids_to_tokens([int(i) for i in ids])]


# ---------------------------------------------------------------- inputs

def _encode(tokenizer: Any, text: Any, input_ids: Any, attention_mask: Any) -> tuple[np.ndarray, np.ndarray]:
    """Token ids [B, T] and the padding mask [B, T] (1 = real token); several texts are right-padded."""
    if (text is None) == (input_ids is None):
        raise MHAInputError("text, input_ids: give exactly one of them")
    if text is not None:
        if tokenizer is None:
            raise MHAInputError("tokenizer: needed to turn text into tokens; pass tokenizer= or input_ids=")
        texts = [text] if isinstance(text, str) else list(text)
        if not texts or not all(isinstance(t, str) for t in texts):
            raise MHAInputError("text: expected a string or a list of strings")
        seqs = [list(tokenizer(t)["input_ids"]) for t in texts]
        for t, s in zip(texts, seqs):
            if not s:
                raise MHAInputError(f"text: {t!r} gives no tokens")
        pad = tokenizer.pad_token_id if tokenizer.pad_token_id is not None else 0
        T = max(map(len, seqs))
        ids = np.array([s + [pad] * (T - len(s)) for s in seqs], dtype=np.int64)
        am = np.array([[1] * len(s) + [0] * (T - len(s)) for s in seqs], dtype=np.int64)
        return ids, am
    ids = np.asarray(input_ids.detach().cpu().numpy() if hasattr(input_ids, "detach") else input_ids)
    if ids.ndim == 1:
        ids = ids[None]
    if ids.ndim != 2 or ids.size == 0 or not np.issubdtype(ids.dtype, np.integer):
        raise MHAInputError(f"input_ids: expected integers of shape [T] or [B, T], got shape {list(ids.shape)} "
                            f"of {ids.dtype}")
    if attention_mask is None:
        am = np.ones_like(ids)
    else:
        am = np.asarray(attention_mask.detach().cpu().numpy() if hasattr(attention_mask, "detach")
                        else attention_mask)
        am = am[None] if am.ndim == 1 else am
        if am.shape != ids.shape or not np.isin(am, (0, 1)).all():
            raise MHAInputError(f"attention_mask: expected 0/1 of shape {list(ids.shape)} (as input_ids), "
                                f"got shape {list(am.shape)}")
    return ids.astype(np.int64), am.astype(np.int64)


def _check_ids(ids: np.ndarray, config: Any) -> None:
    vocab = getattr(config, "vocab_size", None)
    if vocab is not None and (ids.min() < 0 or ids.max() >= vocab):
        bad = int(ids.max() if ids.max() >= vocab else ids.min())
        raise MHAInputError(f"input_ids: token id {bad} is outside the vocabulary 0..{vocab - 1}")
    for key in _CONTEXT_KEYS:
        context = getattr(config, key, None)
        if isinstance(context, int) and context > 0:
            if ids.shape[1] > context:
                raise MHAInputError(f"text: {ids.shape[1]} tokens do not fit the model's context of {context} "
                                    f"tokens ({key})")
            return


# ---------------------------------------------------------------- capture

def capture(model: Any, layer: int, *, text: Any = None, input_ids: Any = None, attention_mask: Any = None,
            position_ids: Any = None, tokenizer: Any = None) -> LayerCapture:
    """Run the model once on the text and capture layer `layer`'s attention: its input mapping and its output.

    text is a string or a list of strings (right-padded into a batch); or give
    input_ids [T] or [B, T] (and, for a padded batch, attention_mask, 1 = token).
    position_ids [T] or [B, T], when given, are handed to the model (RoPE families
    read them; GPT-2 and BERT add their position embeddings before X anyway).
    """
    return next(captures(model, [layer], text=text, input_ids=input_ids, attention_mask=attention_mask,
                         position_ids=position_ids, tokenizer=tokenizer))


def captures(model: Any, layers: Sequence[int], *, text: Any = None, input_ids: Any = None,
             attention_mask: Any = None, position_ids: Any = None, tokenizer: Any = None) -> Iterator[LayerCapture]:
    """Run the model once and capture several layers' attention, yielded in the order given (see `capture`).

    The forward pass stops after the deepest layer asked for.  A layer's weights
    are copied (to float64) only when its capture is yielded, so a caller that
    drops each capture holds one layer's copy at a time.
    """
    torch = _torch()
    family, base = _family(model)
    if not len(layers):
        raise MHAInputError("layers: none chosen")
    points = [_hook_points(base, family, layer) for layer in layers]
    ids, am = _encode(tokenizer, text, input_ids, attention_mask)
    _check_ids(ids, base.config)
    param = next(base.parameters())
    got: list[dict[str, Any]] = [{} for _ in layers]
    deepest = max(range(len(layers)), key=lambda k: int(layers[k]))
    hooks = []
    for k, (attn, out) in enumerate(points):
        hooks.append(attn.register_forward_pre_hook(partial(_on_input, got[k]), with_kwargs=True))
        hooks.append(out.register_forward_hook(partial(_on_output, got[k], k == deepest)))
    rotary = None if family in ("gpt2", "bert") else base.rotary_emb
    if rotary is not None and param.dtype == torch.float64:
        hooks.append(rotary.register_forward_hook(_rotary_in_float64, with_kwargs=True))
    was_training = base.training
    base.eval()
    try:
        with torch.no_grad():
            extra = {} if position_ids is None else {"position_ids": _positions_tensor(position_ids, ids, param)}
            base(input_ids=torch.as_tensor(ids, device=param.device),
                 attention_mask=torch.as_tensor(am, device=param.device), use_cache=False, **extra)
    except _Captured:
        pass
    finally:
        for h in hooks:
            h.remove()
        base.train(was_training)
    for layer, g in zip(layers, got):
        if "Y" not in g:
            raise MHAInputError(f"layer: the forward pass never reached layer {layer}'s attention")
        yield _captured(_read_layer(base, family, layer), g, family, int(layer), ids, am, tokenizer,
                        str(param.dtype).split(".")[-1])


def _hook_points(base: Any, family: str, layer: int) -> tuple[Any, Any]:
    """The modules whose input is X and whose output is Y (the same as `_read_layer` reads), range-checked."""
    layers = _layers_of(base, family)
    n = len(layers)
    if isinstance(layer, bool) or not isinstance(layer, (int, np.integer)) or not 0 <= layer < n:
        raise MHAInputError(f"layer: {layer!r} is out of range; the model has {n} layers, 0..{n - 1}")
    block = layers[int(layer)]
    if family == "gpt2":
        return block.attn, block.attn.c_proj
    if family == "bert":
        return block.attention.self, block.attention.output.dense
    return block.self_attn, block.self_attn.o_proj


def _on_input(got: dict[str, Any], mod: Any, args: tuple, kwargs: dict) -> None:
    got["X"] = args[0] if args else kwargs["hidden_states"]
    got["mask"] = kwargs.get("attention_mask")
    got["positions"] = kwargs.get("position_ids")


def _on_output(got: dict[str, Any], stop: bool, mod: Any, args: tuple, out: Any) -> None:
    got["Y"] = out
    if stop:                                      # the deepest layer asked for: skip the rest of the model
        raise _Captured


def _captured(L: _Layer, got: dict[str, Any], family: str, layer: int, ids: np.ndarray, am: np.ndarray,
              tokenizer: Any, dtype: str) -> LayerCapture:
    """One layer's capture: the input mapping of the contract, built from what the hooks saw and the module."""
    X = _np(got["X"])                                            # [B, T, d_model]
    B, T, _ = X.shape
    bad = ~np.isfinite(X).all(axis=-1)                           # [B, T]
    if (bad & (am == 1)).any():
        b, i = (int(x) for x in np.argwhere(bad & (am == 1))[0])
        raise MHAInputError(f"model: the input of layer {layer} is not finite at sequence {b}, token {i + 1}")
    # transformers' eager attention can leave NaN in padding rows that see no key (float64, sliding window);
    # those rows are masked for every real token, so zeros there change no real token's output
    X[bad] = 0.0
    mapping: dict[str, Any] = {"X": X if B > 1 else X[0], "n_heads": L.n_heads, **L.weights}
    if L.n_kv_heads != L.n_heads:
        mapping["n_kv_heads"] = L.n_kv_heads
    if L.scale != L.head_dim ** -0.5:
        mapping["scale"] = L.scale
    if L.causal:
        mapping["causal"] = True
    if L.window is not None:
        mapping["window"] = L.window
    if L.rotary is not None:
        mapping["rope"] = _rope(L, got.get("positions"), B, T)
    if not am.all():
        lengths = am.sum(axis=1)
        if (am == (np.arange(T) < lengths[:, None])).all():     # right padding: a length per sequence
            mapping["key_lengths"] = lengths
        else:
            mapping["mask"] = np.broadcast_to(am[:, None, :].astype(bool), (B, T, T)).copy()
    tokens = None if tokenizer is None else [token_labels(tokenizer, row) for row in ids]
    if tokens is not None and "tokens" in INPUT_KEYS:           # row and column labels, where the core takes them
        mapping["tokens"] = tokens if B > 1 else tokens[0]
    return LayerCapture(family=family, layer=layer, mapping=mapping, tokens=tokens,
                        Y_model=_np(got["Y"]), valid=am.astype(bool),
                        model_visible=_visible(got.get("mask"), B, T), dtype=dtype)


def _positions_tensor(position_ids: Any, ids: np.ndarray, param: Any) -> Any:
    pos = np.asarray(position_ids.detach().cpu().numpy() if hasattr(position_ids, "detach") else position_ids)
    pos = pos[None] if pos.ndim == 1 else pos
    if (pos.ndim != 2 or pos.shape[1] != ids.shape[1] or pos.shape[0] not in (1, ids.shape[0])
            or not np.issubdtype(pos.dtype, np.integer)):
        raise MHAInputError(f"position_ids: expected integers of shape {list(ids.shape)}, got {list(pos.shape)}")
    return _torch().as_tensor(pos.astype(np.int64), device=param.device)


def _rope(L: _Layer, positions: Any, B: int, T: int) -> dict[str, Any]:
    """RoPE as the model applies it: its own inv_freq (after any dynamic update) and attention scaling."""
    inv_freq = _np(L.rotary.inv_freq)
    if 2 * inv_freq.size != L.head_dim:
        raise MHAInputError(f"model: RoPE rotates {2 * inv_freq.size} of {L.head_dim} features per head; "
                            "partial rotary is not supported for this family")
    rope: dict[str, Any] = {"style": "half", "dims": L.head_dim, "inv_freq": inv_freq,
                            "attention_factor": float(L.rotary.attention_scaling)}
    if positions is not None:
        pos = positions.detach().cpu().numpy().astype(np.int64)
        pos = np.broadcast_to(pos, (B, T))
        if (pos == pos[:1]).all():
            pos = pos[0]
        if not (pos.ndim == 1 and (pos == np.arange(T)).all()):
            rope["positions"] = rope["key_positions"] = pos     # self-attention: keys sit where queries do
    return rope


def _rotary_in_float64(mod: Any, args: tuple, kwargs: dict, out: Any) -> tuple[Any, Any]:
    """Recompute the rotary table in float64 for a float64 model.

    transformers computes the angles and their cos/sin in float32 whatever the
    model's dtype (for bf16 training); a float64 run would then carry float32
    rounding (~1e-7) in every rotated query and key.  With this hook the model
    and mha compute cos(pos * inv_freq) the same way, and can agree to ~1e-15.
    """
    torch = _torch()
    x = args[0] if args else kwargs["x"]
    positions = args[1] if len(args) > 1 else kwargs.get("position_ids")
    if positions is None:
        return out
    angles = positions[..., None].to(torch.float64) * mod.inv_freq.to(torch.float64)   # [B, T, d/2]
    emb = torch.cat((angles, angles), dim=-1)
    return ((emb.cos() * mod.attention_scaling).to(x.dtype), (emb.sin() * mod.attention_scaling).to(x.dtype))


def _visible(mask: Any, B: int, T: int) -> np.ndarray | None:
    """The model's own 4-D mask as bool [B, T, S] (True = may attend), or None when it built none."""
    if mask is None or not hasattr(mask, "dtype") or mask.ndim != 4:
        return None
    m = mask.detach().cpu()
    vis = m.numpy() if m.dtype == _torch().bool else (m == 0).numpy()   # additive: 0 or the dtype's minimum
    return np.broadcast_to(vis[:, 0], (B, T, vis.shape[-1])).copy()


# ---------------------------------------------------------------- public entry points

def from_hf(model: Any, layer: int, *, text: Any = None, input_ids: Any = None, attention_mask: Any = None,
            position_ids: Any = None, tokenizer: Any = None) -> Any:
    """The `Trace` of attention layer `layer` (0-based) of a Hugging Face model on a text.

    The layer's input is captured during a real forward pass; the trace's Y is
    the output of the layer's own output projection (≤ 1e-5 in float32, ≤ 1e-10
    in float64).  See `capture` for the arguments and `SUPPORTED` for families.
    """
    from .trace import trace
    cap = capture(model, layer, text=text, input_ids=input_ids, attention_mask=attention_mask,
                  position_ids=position_ids, tokenizer=tokenizer)
    t = trace(cap.mapping)
    _check_mask(t, cap)
    return t


def from_hf_layers(model: Any, layers: Sequence[int], *, text: Any = None, input_ids: Any = None,
                   tokenizer: Any = None) -> Iterator[Any]:
    """`from_hf` for several layers from one forward pass: each layer's Trace, in the order given."""
    from .trace import trace
    for cap in captures(model, layers, text=text, input_ids=input_ids, tokenizer=tokenizer):
        t = trace(cap.mapping)
        _check_mask(t, cap)
        del cap                      # while the caller holds this layer, the generator holds nothing more
        yield t
        del t


def _check_mask(t: Any, cap: LayerCapture) -> None:
    """The mask built from the config must be the model's own, on every row that sees at least one key."""
    vis = getattr(t, "visible", None)
    if vis is None or cap.model_visible is None:
        return
    ours = np.asarray(vis)[:, 0]
    theirs = cap.model_visible
    rows = theirs.any(axis=-1)
    if ours.shape == theirs.shape and not (ours[rows] == theirs[rows]).all():
        b, i = (int(x) for x in np.argwhere(rows & (ours != theirs).any(axis=-1))[0])
        raise MHAInputError(f"model: layer {cap.layer}'s mask differs from the one mha built from the config "
                            f"(sequence {b}, query token {i + 1}); this configuration is not supported")


def model_input(name_or_path: str, layer: int, *, head: int | None = None, text: str | None = None,
                input_ids: Sequence[int] | None = None, dtype: str = "float32", revision: str | None = None,
                offline: bool = False) -> dict[str, Any]:
    """What `mha explain --model` needs: load, run, check the head (1-based) and return the input mapping.

    The mapping carries the token labels; every problem is one MHAInputError line.
    """
    from .trace import trace
    model, tokenizer = load(name_or_path, dtype=dtype, revision=revision, offline=offline)
    if text is not None and tokenizer is None:
        raise MHAInputError(f"--text: {name_or_path} has no tokenizer saved with it; give --input-ids")
    cap = capture(model, layer, text=text, input_ids=input_ids, tokenizer=tokenizer)
    H = cap.mapping["n_heads"]
    if head is not None and not 1 <= head <= H:
        raise MHAInputError(f"--head: {head} is out of range; layer {layer} has {H} heads, 1..{H}")
    _check_mask(trace(cap.mapping), cap)
    return cap.mapping
