"""The overview grid as an image: one small heatmap of A per layer (row) and head (column), via matplotlib."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import numpy as np

from ..explanation.catalog import catalog, fill
from ..explanation.overview import DOWNSAMPLE_FROM, Overview, downsample
from ..inputs import MHAInputError
from .overview import pattern_text
from .plot import plot_path_problem

if TYPE_CHECKING:
    from matplotlib.figure import Figure

LABELS_UP_TO = 16           # token labels on the outer axes when T is at most this
# Chinese titles need a CJK font; matplotlib falls back along the family list, glyph by glyph
CJK_FONTS = ("Noto Sans CJK SC", "Source Han Sans SC", "WenQuanYi Zen Hei", "Microsoft YaHei", "PingFang SC",
             "SimHei")


def _fonts(lang: str) -> dict[str, list[str]]:
    """rc settings that give Chinese text a font installed here (none needed for English)."""
    if lang != "zh":
        return {}
    from matplotlib import font_manager
    installed = {f.name for f in font_manager.fontManager.ttflist}
    return {"font.family": ["DejaVu Sans", *[f for f in CJK_FONTS if f in installed]]}


def overview_figure(ov: Overview, lang: str = "en") -> Figure:
    """Layers down, heads across; masked keys grey; each panel titled with its head and named pattern."""
    try:
        import matplotlib
        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        raise MHAInputError("--plot: writing an image needs matplotlib; pip install 'mha[plot]'") from None
    with plt.rc_context(_fonts(lang)):
        return _draw(ov, lang, plt, matplotlib)


def _draw(ov: Overview, lang: str, plt: Any, matplotlib: Any) -> Figure:
    cat = catalog(lang)
    rows, cols = len(ov.layers), len(ov.heads)
    size = 1.5 if ov.T <= LABELS_UP_TO else 1.2
    fig, axes = plt.subplots(rows, cols, figsize=(cols * size + 1.2, rows * size + 0.8), squeeze=False,
                             layout="constrained")
    cmap = matplotlib.colormaps["Blues"].with_extremes(bad="#eaeef2")     # masked keys, as on the page
    for c in ov.cells:
        r, k = ov.layers.index(c.layer), ov.heads.index(c.head)
        ax = axes[r][k]
        A, _ = downsample(np.ma.masked_where(ov.masked[c.layer], c.A).filled(np.nan), DOWNSAMPLE_FROM)
        ax.imshow(np.ma.masked_invalid(A), cmap=cmap, vmin=0, vmax=1, interpolation="nearest")
        gqa = ov.n_kv_heads < ov.n_heads
        name = fill(cat["overview.cell_kv" if gqa else "overview.cell"],
                    {"head": c.head + 1, **({"kv": c.kv_head + 1} if gqa else {})})
        pattern = pattern_text(c, lang)
        ax.set_title(name if pattern == cat["overview.pattern.none"] else f"{name}\n{pattern}", fontsize=7)
        ax.set_xticks([])
        ax.set_yticks([])
        if ov.T <= LABELS_UP_TO and k == 0:
            ax.set_yticks(range(ov.T), ov.tokens, fontsize=5)
        if ov.T <= LABELS_UP_TO and r == rows - 1:
            ax.set_xticks(range(ov.T), ov.tokens, fontsize=5, rotation=90)
        if k == 0:
            ax.set_ylabel(fill(cat["overview.layer"], {"layer": c.layer}), fontsize=8)
    fig.suptitle(f"{cat['overview.title']}: {ov.model or ov.family}", fontsize=10)
    return fig


def save_overview(ov: Overview, path: str, lang: str = "en") -> None:
    """Write the grid to a .png, .svg or .pdf file."""
    problem = plot_path_problem(path)
    if problem:
        raise MHAInputError(f"--plot: {problem}")
    fig = overview_figure(ov, lang)
    import matplotlib.pyplot as plt
    try:
        with plt.rc_context(_fonts(lang)):         # the text is laid out again when saved
            fig.savefig(path, dpi=150)
    except OSError as e:
        raise MHAInputError(f"--plot: cannot write {path}: {e.strerror or e}") from None
    finally:
        plt.close(fig)
