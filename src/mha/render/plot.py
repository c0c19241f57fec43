"""Per-head heatmap grid as a PNG, SVG or PDF image (matplotlib, an optional extra, imported only here)."""

from __future__ import annotations

import math
import os
from typing import TYPE_CHECKING

import numpy as np

from ..explanation.numbers import format_number
from ..explanation.tokens import token_labels
from ..inputs import MHAInputError
from ..trace import Trace

if TYPE_CHECKING:
    from matplotlib.axes import Axes
    from matplotlib.figure import Figure

SUFFIXES = (".png", ".svg", ".pdf")


def plot_path_problem(path: str) -> str | None:
    """Why an image cannot be written to path (its suffix, a missing folder), or None when it can be tried."""
    if not str(path).lower().endswith(SUFFIXES):
        return f"expected a .png, .svg or .pdf file name, got {path!r}"
    folder = os.path.dirname(os.path.abspath(path))
    if not os.path.isdir(folder):
        return f"no such folder: {folder}"
    return None


def save_heatmaps(trace: Trace, path: str, *, precision: int = 2, batch: int = 0, max_cells: int = 24) -> None:
    """Write A^(h) of every head side by side, values printed in cells when the grid is small."""
    problem = plot_path_problem(path)
    if problem:
        raise MHAInputError(f"path: {problem}")
    fig = heatmap_figure(trace, precision=precision, batch=batch, max_cells=max_cells)
    import matplotlib.pyplot as plt
    try:
        fig.savefig(path)
    except OSError as e:
        raise MHAInputError(f"path: cannot write {path}: {e.strerror or e}") from None
    finally:
        plt.close(fig)


def heatmap_figure(trace: Trace, *, precision: int = 2, batch: int = 0, max_cells: int = 24) -> Figure:
    """The grid of A^(h), four heads to a row, masked cells hatched; tokens labelled as the explanation numbers them."""
    try:
        import matplotlib
        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        raise MHAInputError("path: writing a heatmap needs matplotlib; pip install 'mha[plot]'") from None
    A = trace.A[batch]                                     # [H, T, S]
    masked = trace.S[batch] == -np.inf
    H, T, S = A.shape
    cols = min(H, 4)
    rows = math.ceil(H / cols)
    size = max(0.45 * max(T, S) if max(T, S) <= max_cells else 4.0, 2.5)
    # constrained layout keeps each panel's axis labels clear of its neighbour
    fig, axes = plt.subplots(rows, cols, figsize=(cols * size + 1.5, rows * size + 0.8), squeeze=False,
                             layout="constrained")
    for h in range(rows * cols):
        ax = axes[h // cols][h % cols]
        if h >= H:
            ax.axis("off")
            continue
        im = ax.imshow(np.ma.masked_where(masked[h], A[h]), cmap="Blues", vmin=0, vmax=1)
        ax.set_facecolor("#f6f8fa")                         # masked cells show the background, hatched
        _hatch(ax, masked[h])
        ax.set_title(f"head {h + 1}: A^({h + 1})")
        ax.set_xlabel("key token j")
        ax.set_ylabel("query token i")
        if max(T, S) <= max_cells:
            cfg = trace.config
            _annotate(ax, A[h], masked[h], precision, token_labels(cfg, "queries", batch),
                      token_labels(cfg, "keys", batch))
    fig.colorbar(im, ax=axes.ravel().tolist(), shrink=0.8)
    if masked.any():
        fig.supxlabel("hatched cells are masked (weight 0)", fontsize=9, color="#59636e")
    return fig


def _hatch(ax: Axes, masked: np.ndarray) -> None:
    """Diagonal lines over every masked cell, as the HTML heatmaps stripe them (a window shows as a band)."""
    from matplotlib.patches import Rectangle
    for i, j in np.argwhere(masked):
        ax.add_patch(Rectangle((j - 0.5, i - 0.5), 1, 1, fill=False, hatch="///", edgecolor="#8c959f",
                               linewidth=0))


def _annotate(ax: Axes, A: np.ndarray, masked: np.ndarray, precision: int, rows: list[str], cols: list[str]) -> None:
    """Token labels on both axes and each weight in its cell."""
    T, S = A.shape
    ax.set_xticks(range(S), cols)
    ax.set_yticks(range(T), rows)
    for i in range(T):
        for j in range(S):
            if masked[i, j]:
                continue                                    # hatched: the weight is 0 because of a mask
            p = format_number(A[i, j], precision)
            ax.text(j, i, p.sign + p.digits, ha="center", va="center", fontsize=8,
                    color="white" if A[i, j] > 0.55 else "black")
