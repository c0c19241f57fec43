"""The overview as one self-contained HTML page: a grid of layers × heads, each cell a heatmap of A.

Nothing is loaded from the network.  The weights travel as 16-bit integers
(the weight × 10⁴, correctly rounded, so the hover shows exactly what
`format_number` prints at 4 decimals; three codes above 10⁴ mark a masked key
and weights of exactly 1 or 0, which it prints as "1" and "0"), and each layer's
explanation travels as the HTML this package's HTML view renders for it, cut
into the part before the heads, one part per head and the part after.  Both
are deflated and base64-encoded; the page's script inflates them with the
browser's own DecompressionStream, draws the cells on canvases, and puts a
head's explanation into the page when its cell is clicked.

    layer_fragments(trace, ...)      one layer's explanation, cut by head (while its trace is alive)
    render_overview_html(ov, ...)    the page
"""

from __future__ import annotations

import base64
import html
import json
import os
import re
import zlib
from typing import Any, Sequence

import numpy as np

from ..explanation import Options
from ..explanation.catalog import catalog, fill
from ..explanation.model import Builder
from ..explanation.overview import DOWNSAMPLE_FROM, Overview, downsample
from .common import numbered
from .html import CSS, section_html
from .overview import plain_number, pattern_text, token_list

DIGITS = 4                  # decimals of a weight on hover
MASKED, ONE, ZERO = 65535, 65534, 65533    # codes: a masked key; a weight of exactly 1 or 0 (printed "1", "0")
_HEAD_KEY = re.compile(r"head(\d+)(?:\.|$)")
_STATIC = os.path.join(os.path.dirname(os.path.dirname(__file__)), "static")


def layer_fragments(trace: Any, heads: Sequence[int], *, lang: str, precision: int, layer: int) -> dict[str, Any]:
    """The explanation of one layer with the chosen heads (0-based), as HTML cut into before / heads / after."""
    # the sections only: the explanation's heatmap grid of every head is what the overview's cells already show
    sections = Builder(trace, Options(lang=lang, precision=precision, heads=tuple(heads))).build()
    before: list[str] = []
    after: list[str] = []
    per_head: dict[str, list[str]] = {str(h + 1): [] for h in heads}
    for number, sec in numbered(sections):
        m = _HEAD_KEY.match(sec.key)                  # a head's own steps: "head3", "head3.scores", ...
        part = section_html(number, sec, id_prefix=f"l{layer}-")
        if m:
            per_head[m.group(1)].append(part)
        else:
            (after if any(per_head.values()) else before).append(part)
    return {"before": "\n".join(before), "after": "\n".join(after),
            "heads": {h: "\n".join(parts) for h, parts in per_head.items()}}


def _pack(obj: Any) -> str:
    return base64.b64encode(zlib.compress(json.dumps(obj, ensure_ascii=False).encode("utf-8"), 6)).decode("ascii")


def fixed_point(A: np.ndarray, digits: int = DIGITS) -> np.ndarray:
    """round(A, digits) × 10^digits as integers, rounded as format_number rounds (correctly, from the binary value);
    exact ones and zeros get their own codes, as format_number prints them without decimals.

    >>> fixed_point(np.array([0.00015, 0.12345, 0.99999, 1.0, 0.0]))     # 0.00015 is stored just below, 0.12345 above
    array([    1,  1235, 10000, 65534, 65533], dtype=uint16)
    """
    scaled = A * 10 ** digits
    n = np.rint(scaled)
    near = np.abs(np.abs(scaled - n) - 0.5) < 1e-6        # a tie in floating point: let Python's formatting decide
    for idx in zip(*np.nonzero(near)):
        n[idx] = int(f"{A[idx]:.{digits}f}".replace(".", ""))
    n[A == 1.0] = ONE
    n[A == 0.0] = ZERO
    return n.astype(np.uint16)


def _weights(ov: Overview) -> tuple[str, int, int]:
    """Every cell's weights (downsampled past the limit) as one packed little-endian uint16 array."""
    parts = []
    b = 1
    for c in ov.cells:
        A, b = downsample(c.A, DOWNSAMPLE_FROM)
        codes = fixed_point(A)
        if b == 1:
            codes[ov.masked[c.layer]] = MASKED
        else:                                              # a block is masked when every key in it is
            blocks, _ = downsample(ov.masked[c.layer].astype(np.float64), DOWNSAMPLE_FROM)
            codes[blocks == 1.0] = MASKED
        parts.append(codes.astype("<u2").tobytes())
    raw = b"".join(parts)
    return base64.b64encode(zlib.compress(raw, 6)).decode("ascii"), b, len(raw)


def _texts(lang: str) -> dict[str, str]:
    cat = catalog(lang)
    keys = ("tooltip", "panel.title", "panel.before", "panel.after", "panel.loading", "panel.unavailable",
            "panel.none", "cell", "cell_kv", "masked")
    return {k: cat["overview." + k] for k in keys}


def _cell_html(ov: Overview, index: int, lang: str) -> str:
    c = ov.cells[index]
    gqa = ov.n_kv_heads < ov.n_heads
    name = fill(catalog(lang)["overview.cell_kv" if gqa else "overview.cell"],
                {"head": c.head + 1, **({"kv": c.kv_head + 1} if gqa else {})})
    s = c.summary
    entropy = fill(catalog(lang)["overview.bits"], {"bits": plain_number(s.entropy, 2)})
    return (f'<figure class="ov-cell" data-cell="{index}" data-layer="{c.layer}" data-head="{c.head + 1}" '
            f'data-kv="{c.kv_head + 1}" tabindex="0"><canvas></canvas>'
            f'<figcaption>{html.escape(name)}<br><span class="ov-stat">{entropy} · '
            f'{html.escape(pattern_text(c, lang))}</span></figcaption></figure>')


def render_overview_html(ov: Overview, fragments: dict[int, dict[str, Any]], *, lang: str = "en",
                         precision: int = 4) -> str:
    """The page: controls, the grid, the query→key lines view, the explanation panel, data and script."""
    cat = catalog(lang)

    def t(key: str, **params: Any) -> str:
        return html.escape(fill(cat["overview." + key], params))

    weights, b, _ = _weights(ov)
    T = ov.T
    notes = [t("subtitle", model=ov.model or ov.family, family=ov.family, T=T, layers=len(ov.layers),
               heads=len(ov.heads))]
    if ov.n_kv_heads < ov.n_heads:
        notes.append(t("kv_note", H=ov.n_heads, G=ov.n_kv_heads))
    if b > 1:
        notes.append(f'<span class="ov-downsampled">{t("downsampled", T=T, most=DOWNSAMPLE_FROM, b=b)}</span>')
    rows = []
    for layer in ov.layers:
        cells = "".join(_cell_html(ov, i, lang) for i, c in enumerate(ov.cells) if c.layer == layer)
        rows.append(f'<div class="ov-row" data-layer="{layer}"><div class="ov-rowhead">'
                    f'{t("layer", layer=layer)}</div>{cells}</div>')
    data = {"tokens": list(ov.tokens), "T": T, "block": b, "layers": list(ov.layers),
            "heads": [h + 1 for h in ov.heads], "gqa": ov.n_kv_heads < ov.n_heads, "digits": DIGITS,
            "masked": MASKED, "one": ONE, "zero": ZERO, "texts": _texts(lang), "weights": weights}
    blobs = "".join(f'<script type="application/octet-stream" class="ov-ex" data-layer="{layer}">'
                    f"{_pack(fragments[layer])}</script>" for layer in ov.layers if layer in fragments)
    body = f"""<div class="ov" lang="{'zh-CN' if lang == 'zh' else 'en'}">
<h1>{t("title")}</h1>
{"".join(f'<p class="sub">{n}</p>' for n in notes)}
<p class="ov-tokens"><strong>{t("tokens")}:</strong> {html.escape(token_list(ov))}</p>
<div class="ov-controls">
<label>{t("filter.layers")} <input id="ov-f-layers" placeholder="{t("filter.hint")}" size="22"></label>
<label>{t("filter.heads")} <input id="ov-f-heads" placeholder="{t("filter.hint")}" size="22"></label>
<span class="ov-views"><label><input type="radio" name="ov-view" value="grid" checked> {t("view.grid")}</label>
<label><input type="radio" name="ov-view" value="lines"> {t("view.lines")}</label></span>
</div>
<p class="ov-hint">{t("hover")}</p>
<div id="ov-grid">{"".join(rows)}</div>
<div id="ov-lines" hidden><label>{t("lines.layer")} <select id="ov-lines-layer">
{"".join(f'<option value="{layer}">{layer}</option>' for layer in ov.layers)}</select></label>
<p class="ov-hint">{t("lines.hint")}</p><svg id="ov-lines-svg" xmlns="http://www.w3.org/2000/svg"></svg></div>
<div id="ov-tip" role="tooltip" hidden></div>
<section id="ov-panel" hidden><div class="ov-panel-head"><h2 id="ov-panel-title"></h2>
<button type="button" id="ov-panel-close">{t("panel.close")}</button></div>
<div id="ov-panel-body" class="mha-explanation"></div></section>
</div>
<script type="application/json" id="ov-data">{_script_json(data)}</script>
{blobs}
<script>{_static("overview.js")}</script>"""
    title = html.escape(fill(cat["overview.page_title"], {"model": ov.model or ov.family}))
    return ("<!DOCTYPE html>\n"
            f'<html lang="{"zh-CN" if lang == "zh" else "en"}"><head><meta charset="utf-8">'
            '<meta name="viewport" content="width=device-width,initial-scale=1">'
            f"<title>{title}</title><style>{CSS}{_static('overview.css')}</style></head>"
            f"<body>{body}</body></html>\n")


def _script_json(data: dict[str, Any]) -> str:
    """JSON safe inside <script>: no "</" can close the element early."""
    return json.dumps(data, ensure_ascii=False).replace("</", "<\\/")


def _static(name: str) -> str:
    with open(os.path.join(_STATIC, name), encoding="utf-8") as f:
        return f.read()
