"""PyTorch interop: turn a `torch.nn.MultiheadAttention` and its call arguments into this project's input.

torch stores a linear layer's weight as [out, in] and computes x W^T; this
project uses row vectors and [in, out] weights (x W), so every weight is
transposed here.  torch's masks also use other conventions, converted here:

* nn.MultiheadAttention: a bool ``key_padding_mask`` / ``attn_mask`` True means
  *ignore*; a float one is added to the scores.
* this project: ``mask`` True means *may attend*; ``bias`` is added.

torch is imported only by the caller; this module never imports it.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from .inputs import MHAInputError


def _np(t: Any) -> np.ndarray:
    return t.detach().cpu().numpy().astype(np.float64) if t.is_floating_point() else t.detach().cpu().numpy()


def from_torch(module: Any, query: Any = None, key: Any = None, value: Any = None, *,
               key_padding_mask: Any = None, attn_mask: Any = None, is_causal: bool = False) -> dict[str, Any]:
    """Parameters (and, if given, inputs) of a ``torch.nn.MultiheadAttention`` as an input mapping.

    Feed the result to `mha.trace`.  Inputs follow the module's ``batch_first``
    setting; arrays come back as float64 [B, T, d] with the batch axis first.
    Masks follow nn.MultiheadAttention's conventions and are converted.

    >>> import torch
    >>> m = torch.nn.MultiheadAttention(4, 2, batch_first=True).double().eval()
    >>> params = from_torch(m)
    >>> params["n_heads"], params["W_Q"].shape, params["b_O"].shape
    (2, (4, 4), (4,))
    """
    if type(module).__name__ != "MultiheadAttention" or not hasattr(module, "out_proj"):
        raise MHAInputError(f"module: expected torch.nn.MultiheadAttention, got {type(module).__name__}")
    if module.bias_k is not None or module.add_zero_attn:
        raise MHAInputError("module: add_bias_kv and add_zero_attn are not supported")
    E, H = module.embed_dim, module.num_heads
    if module._qkv_same_embed_dim:
        W_q, W_k, W_v = (_np(w) for w in module.in_proj_weight.chunk(3, dim=0))  # each [out, in]
    else:
        W_q, W_k, W_v = _np(module.q_proj_weight), _np(module.k_proj_weight), _np(module.v_proj_weight)
    out: dict[str, Any] = {"n_heads": H, "W_Q": W_q.T, "W_K": W_k.T, "W_V": W_v.T,
                           "W_O": _np(module.out_proj.weight).T}
    if module.in_proj_bias is not None:
        out["b_Q"], out["b_K"], out["b_V"] = (b[:E] for b in np.split(_np(module.in_proj_bias), 3))
    if module.out_proj.bias is not None:
        out["b_O"] = _np(module.out_proj.bias)
    if query is None:
        return out

    def batch_first(t: Any, name: str) -> np.ndarray:
        a = _np(t)
        if a.ndim == 3 and not module.batch_first:
            a = a.transpose(1, 0, 2)                                     # [T, B, E] -> [B, T, E]
        if a.ndim not in (2, 3):
            raise MHAInputError(f"{name}: expected a 2-D or 3-D tensor, got shape {list(a.shape)}")
        return a

    X = batch_first(query, "query")
    out["X"] = X
    key = query if key is None else key
    value = key if value is None else value
    if key is not query or value is not query:
        out["key"], out["value"] = batch_first(key, "key"), batch_first(value, "value")
    B = X.shape[0] if X.ndim == 3 else 1
    T = X.shape[-2]
    S = (out.get("key", X)).shape[-2]

    bias = np.zeros((B, 1, T, S))
    allowed = np.ones((B, 1, T, S), dtype=bool)
    if key_padding_mask is not None:
        kpm = _np(key_padding_mask).reshape(B, 1, 1, S)
        if kpm.dtype == np.bool_:
            allowed = allowed & ~kpm                                     # True = ignore -> False
        else:
            bias = bias + kpm
    if attn_mask is not None:
        am = _np(attn_mask)
        am = am.reshape(1, 1, T, S) if am.ndim == 2 else am.reshape(B, H, T, S)   # [B*H, T, S]
        if am.dtype == np.bool_:
            allowed = allowed & ~am
        else:
            bias = bias + am
    # [B, H|1, T, S] is accepted for unbatched X too (with B = 1)
    if not allowed.all():
        out["mask"] = allowed
    if bias.any():
        out["bias"] = bias
    if is_causal:
        out["causal"] = "top_left"
    return out
