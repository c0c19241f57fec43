"""Exact values for the attention chapter of "Build a Large Language Model (From Scratch)" as its Chinese
translations and study notebooks print them (fieldB-01/02/03/04/05/06/08/09/10).

The documents' givens are the six 3-d input embeddings, written below as numbers, and the seeded random weights
their code draws (torch.manual_seed(123) / (789) before torch.rand or nn.Linear, in the documents' order).  torch is
used only to draw those weights (and dropout masks) exactly as the documents' code draws them; every attention
number is then recomputed here in NumPy float64 from them.
"""

from __future__ import annotations

import numpy as np

# the document's input embeddings ("Your journey starts with one step"), 6 tokens x 3
X = np.array([[0.43, 0.15, 0.89],
              [0.55, 0.87, 0.66],
              [0.57, 0.85, 0.64],
              [0.22, 0.58, 0.33],
              [0.77, 0.25, 0.10],
              [0.05, 0.80, 0.55]])


def softmax(z, axis=-1):
    z = np.asarray(z, dtype=np.float64)
    e = np.exp(z - np.max(z, axis=axis, keepdims=True))
    return e / e.sum(axis=axis, keepdims=True)


def attend(q, k, v, causal=False, scale=True):
    s = q @ k.T
    if causal:
        s = np.where(np.triu(np.ones(s.shape, bool), 1), -np.inf, s)
    w = softmax(s / np.sqrt(k.shape[-1]) if scale else s)
    return s, w, w @ v


# ---- the seeded weights, drawn as the documents' code draws them (torch only for the draw)
def _rand_weights(seed, d_in=3, d_out=2):
    import torch
    torch.manual_seed(seed)
    return [torch.rand(d_in, d_out).double().numpy() for _ in range(3)]          # W_query, W_key, W_value


def _linear_weights(seed, n_layers, d_in=3, d_out=2, bias=False, extra_out_proj=None):
    """nn.Linear layers created in order after torch.manual_seed(seed): weights as used in x @ W.T."""
    import torch
    torch.manual_seed(seed)
    ws = [torch.nn.Linear(d_in, d_out, bias=bias).weight.detach().double().numpy().T for _ in range(n_layers)]
    extra = None
    if extra_out_proj:
        lin = torch.nn.Linear(extra_out_proj, extra_out_proj)
        extra = (lin.weight.detach().double().numpy().T, lin.bias.detach().double().numpy())
    return ws, extra


def _dropout_mask(seed, shape=(6, 6), p=0.5):
    import torch
    torch.manual_seed(seed)
    m = torch.nn.Dropout(p)(torch.ones(*shape))
    return m.double().numpy()          # 0 or 1/(1-p)


def catalog() -> dict[str, np.ndarray]:
    """name -> exact value (float64) of every quantity the chapter prints."""
    c: dict[str, np.ndarray] = {}
    # 3.3 no trainable weights: the second token's query against every input
    S = X @ X.T
    c["3.3 attn_scores (X X^T)"] = S
    c["3.3 attn_weights_2_tmp (scores / sum)"] = S[1] / S[1].sum()
    A = softmax(S, axis=1)
    c["3.3 attn_weights (softmax rows)"] = A
    c["3.3 all_context_vecs (A X)"] = A @ X
    c["3.3 row sums"] = A.sum(axis=1)
    # 3.4 trainable weights, torch.rand after manual_seed(123)
    Wq, Wk, Wv = _rand_weights(123)
    x2 = X[1]
    q2, K, V = x2 @ Wq, X @ Wk, X @ Wv
    c["3.4 W_query"], c["3.4 W_key"], c["3.4 W_value"] = Wq, Wk, Wv
    c["3.4 query_2"], c["3.4 key_2"], c["3.4 value_2"] = q2, x2 @ Wk, x2 @ Wv
    c["3.4 keys"], c["3.4 values"], c["3.4 queries"] = K, V, X @ Wq
    c["3.4 attn_scores_2 (q2 K^T)"] = q2 @ K.T
    w2 = softmax(q2 @ K.T / np.sqrt(2))
    c["3.4 attn_weights_2"] = w2
    c["3.4 context_vec_2"] = w2 @ V
    s, w, o = attend(X @ Wq, K, V)
    c["3.4 sa_v1 scores"], c["3.4 sa_v1 weights"], c["3.4 sa_v1(inputs)"] = s, w, o
    # SelfAttention_v2: three nn.Linear(3, 2, bias=False) after manual_seed(789)
    (Lq, Lk, Lv), _ = _linear_weights(789, 3)
    s, w, o = attend(X @ Lq, X @ Lk, X @ Lv)
    c["3.4 sa_v2 W_query"], c["3.4 sa_v2 W_key"], c["3.4 sa_v2 W_value"] = Lq, Lk, Lv
    c["3.4 sa_v2 queries"], c["3.4 sa_v2 keys"], c["3.4 sa_v2 values"] = X @ Lq, X @ Lk, X @ Lv
    c["3.4 sa_v2 scores"], c["3.4 sa_v2 weights"], c["3.4 sa_v2(inputs)"] = s, w, o
    # sa_v1 given sa_v2's weights (exercise 3.1): same output as sa_v2
    # 3.5 causal: from sa_v2's weights
    tri = np.tril(np.ones((6, 6)))
    c["3.5 masked_simple (weights * tril)"] = w * tri
    ms = w * tri
    c["3.5 masked_simple_norm"] = ms / ms.sum(axis=1, keepdims=True)
    c["3.5 row_sums of masked_simple"] = ms.sum(axis=1)
    s_c, w_c, o_c = attend(X @ Lq, X @ Lk, X @ Lv, causal=True)
    c["3.5 causal attn_weights"] = w_c
    c["3.5 causal context"] = o_c
    drop = _dropout_mask(123)
    c["3.5 dropout(ones)"] = drop
    c["3.5 dropout(causal attn_weights)"] = drop * w_c
    # CausalAttention / wrapper / MultiHeadAttention on batch = stack(inputs, inputs)
    (Cq, Ck, Cv), _ = _linear_weights(123, 3)
    c["3.5 CausalAttention(seed 123) context"] = attend(X @ Cq, X @ Ck, X @ Cv, causal=True)[2]
    c["3.5 CausalAttention(seed 123) weights"] = attend(X @ Cq, X @ Ck, X @ Cv, causal=True)[1]
    for d_out in (1, 2):
        ws, _ = _linear_weights(123, 6, d_out=d_out)
        heads = [attend(X @ ws[3 * h], X @ ws[3 * h + 1], X @ ws[3 * h + 2], causal=True)[2] for h in range(2)]
        c[f"3.6 wrapper d_out={d_out} (seed 123)"] = np.concatenate(heads, axis=1)
    # MultiHeadAttention(d_in=3, d_out=2, heads=2): one Linear(3,2) per projection, then out_proj Linear(2,2)
    (Mq, Mk, Mv), (Wo, bo) = _linear_weights(123, 3, extra_out_proj=2)
    Q, Kk, Vv = X @ Mq, X @ Mk, X @ Mv
    heads = [attend(Q[:, h:h + 1], Kk[:, h:h + 1], Vv[:, h:h + 1], causal=True)[2] for h in range(2)]
    cat = np.concatenate(heads, axis=1)
    c["3.6 MultiHeadAttention concat (before out_proj)"] = cat
    c["3.6 MultiHeadAttention(seed 123)"] = cat @ Wo + bo
    return c


def stale_dim1(ws):
    """A CausalAttention output computed with the softmax over the query axis (dim=1 of a batch), as early
    printings of the chapter show under code that says dim=-1."""
    Wq, Wk, Wv = ws
    s = (X @ Wq) @ (X @ Wk).T
    s = np.where(np.triu(np.ones((6, 6), bool), 1), -np.inf, s) / np.sqrt(Wk.shape[1])
    return softmax(s, axis=0) @ (X @ Wv)


def variants() -> tuple[dict, dict]:
    """(wrong printouts seen in the documents, the right value for each): name -> array."""
    bad, right = {}, {}
    ws, _ = _linear_weights(123, 3)
    bad["stale CausalAttention (softmax over queries)"] = stale_dim1(ws)
    right["stale CausalAttention (softmax over queries)"] = attend(X @ ws[0], X @ ws[1], X @ ws[2], causal=True)[2]
    for d_out in (1, 2):
        w6, _ = _linear_weights(123, 6, d_out=d_out)
        name = f"stale wrapper d_out={d_out} (softmax over queries)"
        bad[name] = np.concatenate([stale_dim1(w6[:3]), stale_dim1(w6[3:])], axis=1)
        right[name] = np.concatenate([attend(X @ w6[0], X @ w6[1], X @ w6[2], causal=True)[2],
                                      attend(X @ w6[3], X @ w6[4], X @ w6[5], causal=True)[2]], axis=1)
    return bad, right


def dropout_from_mask(mask_printed, weights):
    """dropout(weights) for the 0/2 mask a document printed for dropout(torch.ones(6, 6)) under the same seed."""
    return np.asarray(mask_printed, dtype=float) * weights


# the 4-d tensor of section 3.6.2 (batch 1, 2 heads, 3 tokens, 4 dims), printed in the documents' code
A4 = np.array([[[0.2745, 0.6584, 0.2775, 0.8573],
                [0.8993, 0.0390, 0.9268, 0.7388],
                [0.7179, 0.7058, 0.9156, 0.4340]],
               [[0.0772, 0.3565, 0.1479, 0.5331],
                [0.4066, 0.2318, 0.4545, 0.9737],
                [0.4606, 0.5159, 0.4220, 0.5786]]])


def a4_products() -> dict:
    return {"3.6.2 a (given)": A4, "3.6.2 a @ a^T (per head)": np.stack([h @ h.T for h in A4])}


def extra_seed123() -> dict:
    """SelfAttention_v2 / CausalAttention built right after torch.manual_seed(123): the weights (as the notebooks'
    state_dict prints them, W of shape d_out x d_in), the non-causal output, and a second causal layer built next
    without re-seeding (its weights are the 4th-6th Linear draws)."""
    ws, _ = _linear_weights(123, 6)
    c = {}
    for i, n in enumerate(("W_query", "W_key", "W_value")):
        c[f"seed 123 {n}.weight"] = ws[i].T
        c[f"seed 123 second layer {n}.weight"] = ws[3 + i].T
    c["seed 123 SelfAttention_v2(inputs)"] = attend(X @ ws[0], X @ ws[1], X @ ws[2])[2]
    c["seed 123 second CausalAttention(inputs)"] = attend(X @ ws[3], X @ ws[4], X @ ws[5], causal=True)[2]
    return c
