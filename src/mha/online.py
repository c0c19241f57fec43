"""The online softmax, step by step: the explainable twin of `mha.fast`'s tile loop, and the merge of two
running states that `mha.shards` and `mha.ring` use (Milakov & Gimelshein 2018; FlashAttention, Dao et al.
2022).  Moved out of mha.fast, which re-exports every name; plain NumPy, no numba.
"""

from __future__ import annotations

from typing import Any, NamedTuple

import numpy as np

from .inputs import MHAInputError


def online_softmax_steps(s: np.ndarray, v: np.ndarray, block: int) -> list[dict[str, np.ndarray]]:
    """The online softmax of one head, key block by key block, with every running quantity.

    s is [T, S] (scaled, -inf where masked), v is [S, d].  Returns one record per
    key block: m (running max), alpha (e^(m_old - m_new)), l (running sum) and
    acc (unnormalised output), then the final output acc / l in the last record.
    This is the explainable twin of the kernel's tile loop (always with the max-shift).

    >>> s = np.log(np.array([[1.0, 3.0]]))
    >>> online_softmax_steps(s, np.array([[1.0], [0.0]]), 1)[-1]["out"]
    array([[0.25]])
    """
    block = check_block_size(block)
    T, S = s.shape
    m = np.full(T, -np.inf)
    l = np.zeros(T)
    acc = np.zeros((T, v.shape[1]))
    steps = []
    for k0 in range(0, S, block):
        k1 = min(k0 + block, S)
        blk = s[:, k0:k1]
        m_new = np.maximum(m, blk.max(axis=1))
        # the block's exponentials are taken against the new running max: the block's state (m_new, sum, p v)
        # then needs no rescaling in the merge (beta = e^0 = 1), so only the old state is multiplied by alpha
        p = np.exp(blk - np.where(m_new == -np.inf, 0.0, m_new)[:, None])
        merged = merge_tile(m, l, acc, m_new, p.sum(axis=1), p @ v[k0:k1])
        steps.append({"keys": (k0, k1), "m_old": m, "m": merged.m, "alpha": merged.alpha, "p": p, "l": merged.l,
                      "acc": merged.acc})
        m, l, acc = merged.m, merged.l, merged.acc
    out = acc / np.where(l > 0, l, 1.0)[:, None]
    if steps:
        steps[-1]["out"] = out
    return steps


class Merged(NamedTuple):
    """A running state after a merge, and the factors that rescaled its two parts."""

    m: np.ndarray        # [..., R]       running max
    l: np.ndarray        # [..., R]       running sum of e^(s - m)
    acc: np.ndarray      # [..., R, d_v]  unnormalised output, sum of e^(s - m) v
    alpha: np.ndarray    # [..., R]       e^(m_old - m): the factor on the old state
    beta: np.ndarray     # [..., R]       e^(m_t - m): the factor on the tile


def merge_tile(m: np.ndarray, l: np.ndarray, acc: np.ndarray,
               m_t: np.ndarray, l_t: np.ndarray, acc_t: np.ndarray) -> Merged:
    """Merge a tile's softmax state (m_t, l_t, acc_t) into the running one (m, l, acc), row by row.

    A state stands for its rows' exponentials against its own max: l = sum_j e^(s_j - m),
    acc = sum_j e^(s_j - m) v_j.  Both parts are brought to the larger max,
    m' = max(m, m_t), and added: l' = alpha l + beta l_t, acc' = alpha acc + beta acc_t
    with alpha = e^(m - m'), beta = e^(m_t - m').  A part that has seen no key
    (m = -inf) gets a factor of 0, so a row that sees no key at all stays (-inf, 0, 0);
    the output is acc / l.  Shapes: m, l [..., R]; acc [..., R, d_v].

    >>> a = merge_tile(np.array([0.0]), np.array([1.0]), np.array([[2.0]]),       # e^0 v with v = 2
    ...                np.array([np.log(3.0)]), np.array([1.0]), np.array([[0.0]]))   # 3 e^0 v with v = 0
    >>> a.m.round(4), a.alpha.round(4), a.l.round(4), (a.acc / a.l[:, None]).round(4)
    (array([1.0986]), array([0.3333]), array([1.3333]), array([[0.5]]))
    """
    m_new = np.maximum(m, m_t)
    m_safe = np.where(m_new == -np.inf, 0.0, m_new)                   # a row with no key yet: factors e^-inf = 0
    alpha = np.exp(np.where(m == -np.inf, -np.inf, m - m_safe))
    beta = np.exp(np.where(m_t == -np.inf, -np.inf, m_t - m_safe))
    return Merged(m_new, l * alpha + l_t * beta, acc * alpha[..., None] + acc_t * beta[..., None], alpha, beta)


def check_block_size(block: Any, name: str = "block_size") -> int:
    """A key block size is a whole number >= 1; anything else is an MHAInputError naming it."""
    if isinstance(block, bool) or not isinstance(block, (int, np.integer)) or block < 1:
        raise MHAInputError(f"{name}: expected a whole number >= 1, got {block!r}")
    return int(block)
