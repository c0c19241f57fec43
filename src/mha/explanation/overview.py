"""Every layer and head of a model at a glance: each head's A and what it mostly does, as plain data.

A head is summarised by three things read from its A (T query rows over S keys):

    entropy       -sum_j A_ij log2 A_ij, averaged over the query rows (bits; 0 = one key takes everything)
    most attended argmax_j A_ij for every query row i (the first such key on a tie)
    patterns      the share of query rows 2..T whose most-attended key is the previous token (j = i - 1),
                  the first token (j = 1) or the row's own token (j = i); a pattern is named when it holds
                  for more than half of those rows (row 1 is left out: causally it can only see itself;
                  a row whose largest weight is shared by two keys counts for no pattern)

The views (`mha.render.overview`) draw this; `mha.overview` builds it from a model.
Layers count from 0 as the model's code does, heads from 0 here and from 1 where shown.

>>> A = np.array([[1.0, 0, 0], [0.9, 0.1, 0], [0.2, 0.7, 0.1]])
>>> s = summarize(A)
>>> s.top, s.patterns["previous"], s.named
((0, 0, 1), 1.0, ('previous', 1.0))
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np

PATTERNS = ("previous", "first", "self")      # the order a tie between shares is broken in
NAMED_ABOVE = 0.5                              # "mostly": more than half of the rows
DOWNSAMPLE_FROM = 128                          # a drawn heatmap has at most this many rows and columns


@dataclass(frozen=True)
class Summary:
    """What one head's A shows at a glance."""

    entropy: float                       # bits, mean over query rows
    row_entropy: tuple[float, ...]       # bits, per query row
    top: tuple[int, ...]                 # 0-based most-attended key per query row
    patterns: dict[str, float | None]    # share of rows 2..T per pattern; None when T = 1
    named: tuple[str, float] | None      # the pattern the head mostly follows, with its share


@dataclass(frozen=True)
class HeadView:
    """One cell of the overview: a head of a layer, its weights and their summary."""

    layer: int                           # 0-based, as the model's code counts
    head: int                            # 0-based query head
    kv_head: int                         # 0-based key/value head it reads (GQA shares one among several)
    A: np.ndarray                        # [T, S] the attention weights, float64
    summary: Summary


@dataclass(frozen=True)
class Overview:
    """The chosen layers and heads of a model on one token sequence."""

    model: str                           # the name or path it was loaded from
    family: str                          # config.model_type
    tokens: tuple[str, ...]              # readable labels of the T tokens
    n_layers: int                        # in the model
    n_heads: int                         # per layer
    n_kv_heads: int
    layers: tuple[int, ...]              # chosen, 0-based
    heads: tuple[int, ...]               # chosen, 0-based
    cells: tuple[HeadView, ...]          # layer by layer, heads in order
    masked: dict[int, np.ndarray]        # layer -> [T, S] bool, True where no query may see the key

    @property
    def T(self) -> int:
        return len(self.tokens)

    def layer_cells(self, layer: int) -> list[HeadView]:
        return [c for c in self.cells if c.layer == layer]

    def to_dict(self, precision: int | None = None) -> dict[str, Any]:
        """JSON-ready: layers from 0, heads and positions from 1 as shown; A rounded when precision is given."""
        def weights(A: np.ndarray) -> list[list[float]]:
            return (A if precision is None else np.round(A, precision)).tolist()

        layers = []
        for layer in self.layers:
            heads = []
            for c in self.layer_cells(layer):
                s = c.summary
                heads.append({"head": c.head + 1, "kv_head": c.kv_head + 1, "entropy_bits": s.entropy,
                              "most_attended": [j + 1 for j in s.top], "patterns": s.patterns,
                              "named": None if s.named is None else {"pattern": s.named[0], "share": s.named[1]},
                              "A": weights(c.A)})
            layers.append({"layer": layer, "heads": heads})
        return {"model": self.model, "family": self.family, "tokens": list(self.tokens),
                "n_layers": self.n_layers, "n_heads": self.n_heads, "n_kv_heads": self.n_kv_heads,
                "layers": layers}


def summarize(A: np.ndarray) -> Summary:
    """Entropy, most-attended keys and named patterns of one head's A [T, S] (rows sum to 1)."""
    T, S = A.shape
    with np.errstate(divide="ignore", invalid="ignore"):
        terms = np.where(A > 0, A * np.log2(np.where(A > 0, A, 1.0)), 0.0)
    rows = -terms.sum(axis=1) + 0.0                               # + 0.0: no -0.0 for a one-key row
    top = A.argmax(axis=1)                                        # [T]
    # a row's most-attended key is evidence only if it is the only key with the largest weight
    second = np.partition(A, -2, axis=1)[:, -2] if S > 1 else np.full(T, -np.inf)
    clear = A.max(axis=1) > second
    i = np.arange(1, T)
    target = {"previous": i - 1, "first": np.zeros_like(i), "self": i}
    patterns: dict[str, float | None] = {
        name: (float(np.mean((top[1:] == j) & clear[1:])) if T > 1 else None) for name, j in target.items()}
    shares = [(name, patterns[name]) for name in PATTERNS if patterns[name] is not None]
    best = max(shares, key=lambda p: p[1], default=None)     # max keeps the first of equal shares
    named = best if best is not None and best[1] > NAMED_ABOVE else None
    return Summary(entropy=float(rows.mean()), row_entropy=tuple(float(r) for r in rows),
                   top=tuple(int(j) for j in top), patterns=patterns, named=named)


def downsample(A: np.ndarray, most: int) -> tuple[np.ndarray, int]:
    """A [T, S] averaged over b x b blocks so that neither side exceeds `most`; returns (blocks, b).

    The last block of a side may be shorter; it is the mean of what it covers.

    >>> downsample(np.arange(16.).reshape(4, 4), 2)
    (array([[ 2.5,  4.5],
           [10.5, 12.5]]), 2)
    """
    T, S = A.shape
    b = max(1, -(-max(T, S) // most))                             # ceil
    if b == 1:
        return A, 1
    r, c = np.arange(0, T, b), np.arange(0, S, b)
    sums = np.add.reduceat(np.add.reduceat(A, r, axis=0), c, axis=1)
    counts = np.outer(np.diff(np.append(r, T)), np.diff(np.append(c, S)))
    return sums / counts, b
