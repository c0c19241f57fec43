"""Per-head heatmap grid as a PNG or SVG image (matplotlib, an optional extra, imported only here)."""

from __future__ import annotations

import math
from typing import Any

import numpy as np


def save_heatmaps(trace: Any, path: str, *, precision: int = 2, batch: int = 0, max_cells: int = 24) -> None:
    """Write A^(h) of every head side by side, values printed in cells when the grid is small."""
    try:
        import matplotlib
        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        from ..inputs import MHAInputError
        raise MHAInputError("--plot: matplotlib is not installed; pip install 'mha[plot]'") from None
    if not str(path).lower().endswith((".png", ".svg", ".pdf")):
        from ..inputs import MHAInputError
        raise MHAInputError(f"--plot: expected a .png, .svg or .pdf file name, got {path!r}")
    A = trace.A[batch]                                     # [H, T, S]
    masked = trace.S[batch] == -np.inf
    H, T, S = A.shape
    cols = min(H, 4)
    rows = math.ceil(H / cols)
    size = 0.45 * max(T, S) if max(T, S) <= max_cells else 4.0
    fig, axes = plt.subplots(rows, cols, figsize=(cols * max(size, 2.5) + 1, rows * max(size, 2.5) + 0.6),
                             squeeze=False)
    for h in range(rows * cols):
        ax = axes[h // cols][h % cols]
        if h >= H:
            ax.axis("off")
            continue
        shown = np.ma.masked_where(masked[h], A[h])
        im = ax.imshow(shown, cmap="Blues", vmin=0, vmax=1)
        ax.set_facecolor("#d0d7de")                         # masked cells show the background
        ax.set_title(f"head {h + 1}: A^({h + 1})")
        ax.set_xlabel("key token j")
        ax.set_ylabel("query token i")
        if max(T, S) <= max_cells:
            ax.set_xticks(range(S), [str(j + 1) for j in range(S)])
            ax.set_yticks(range(T), [str(i + 1) for i in range(T)])
            for i in range(T):
                for j in range(S):
                    text = "masked" if masked[h, i, j] else f"{A[h, i, j]:.{precision}f}"
                    ax.text(j, i, text, ha="center", va="center", fontsize=8,
                            color="white" if A[h, i, j] > 0.55 else "black")
    fig.colorbar(im, ax=axes.ravel().tolist(), shrink=0.8)
    fig.savefig(path)
    plt.close(fig)
