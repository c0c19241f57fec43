"""Built-in configurations: the worked example of the seed document, and random ones."""

from __future__ import annotations

from typing import Any

import numpy as np

from .inputs import random_weights

# The document's configuration: T = 3 tokens, d_model = 4, H = 2 heads of d_head = 2,
# and every weight the 4x4 identity so that Q = K = V = X.
DOCUMENT_EXAMPLE: dict[str, Any] = {
    "X": [[1, 0, 1, 0],
          [0, 1, 0, 1],
          [1, 1, 0, 0]],
    "n_heads": 2,
    "W_Q": "identity", "W_K": "identity", "W_V": "identity", "W_O": "identity",
}


def random_example(T: int = 4, d_model: int = 8, n_heads: int = 2, *, B: int | None = None,
                   seed: int = 0, weights: str = "random") -> dict[str, Any]:
    """A reproducible random input mapping (X drawn from N(0, 1), rounded to 2 decimals for reading)."""
    rng = np.random.default_rng(seed)
    shape = (T, d_model) if B is None else (B, T, d_model)
    data: dict[str, Any] = {"X": rng.standard_normal(shape).round(2), "n_heads": n_heads}
    if weights == "random":
        data.update(random_weights(d_model, seed=seed + 1))
    return data
