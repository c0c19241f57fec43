"""The explanation model: a trace turned into the worked example's ordered steps.

>>> ex = explain(lang="en")
>>> [s.key for s in ex.sections][:3]
['setup', 'projections', 'split']
>>> "0.7517" in ex.to_markdown() and "0.7518" not in ex.to_markdown().split("rounded terms")[0]
True
"""

from __future__ import annotations

import os
from dataclasses import dataclass
from typing import Any, Mapping

from ..trace import Trace
from .blocks import Display, Items, Matrix, Note, Para, Section, Table
from .model import LANGS, Builder, Options, catalog

__all__ = ["explain", "Explanation", "default_lang", "Section", "Para", "Note", "Items", "Display",
           "Matrix", "Table"]


def default_lang(env: Mapping[str, str] | None = None) -> str:
    """zh when LC_ALL, LC_MESSAGES or LANG (first one set) starts with zh, else en."""
    env = os.environ if env is None else env
    for var in ("LC_ALL", "LC_MESSAGES", "LANG"):
        value = env.get(var)
        if value:
            return "zh" if value.lower().startswith("zh") else "en"
    return "en"


@dataclass(frozen=True)
class Explanation:
    """The steps of one configuration; renders itself to text, Markdown, LaTeX and HTML."""

    title: str
    subtitle: str
    sections: tuple[Section, ...]
    lang: str
    trace: Trace
    options: Options
    heatmaps: tuple[Matrix, ...] = ()      # A^(h) for every head: the HTML grid

    def to_text(self, *, color: bool = False, width: int = 100) -> str:
        from ..render.text import render_text
        return render_text(self, color=color, width=width)

    def print(self, file: Any = None) -> None:
        """Print to a terminal with colour (plain when piped or NO_COLOR is set)."""
        from ..render.text import print_text
        print_text(self, file=file)

    def to_markdown(self) -> str:
        from ..render.markdown import render_markdown
        return render_markdown(self)

    def to_latex(self) -> str:
        from ..render.latex import render_latex
        return render_latex(self)

    def to_html(self, *, standalone: bool = True) -> str:
        from ..render.html import render_html
        return render_html(self, standalone=standalone)

    # Jupyter picks the richest of these; no JavaScript is involved.
    def _repr_html_(self) -> str:
        return self.to_html(standalone=False)

    def _repr_markdown_(self) -> str:
        return self.to_markdown()

    def __str__(self) -> str:
        return self.to_text()

    def __repr__(self) -> str:
        c = self.trace.config
        return (f"<Explanation lang={self.lang} T={c.T} S={c.S} d_model={c.d_model} "
                f"H={c.n_heads} sections={len(self.sections)}>")


def explain(source: Any = None, query: Any = None, key: Any = None, value: Any = None, *,
            lang: str | None = None, precision: int = 4, heads: Any = None, tokens: slice | None = None,
            full: bool = False, batch: int = 0, tiled_block: int | None = None,
            key_padding_mask: Any = None, attn_mask: Any = None, is_causal: bool = False,
            **params: Any) -> Explanation:
    """Explain one configuration step by step.

    source is a `Trace`, an input mapping, an X array (with n_heads=... and other
    parameters as keywords), a ``torch.nn.MultiheadAttention`` (then query, key,
    value and torch's masks follow), or None for the worked example.
    """
    from ..trace import trace as compute
    from ..examples import DOCUMENT_EXAMPLE
    from ..inputs import MHAInputError

    if isinstance(source, Trace):
        t = source
    elif type(source).__name__ == "MultiheadAttention":
        from ..interop import from_torch
        if query is None:
            raise MHAInputError("query: explaining a torch module needs an input tensor")
        t = compute(from_torch(source, query, key, value, key_padding_mask=key_padding_mask,
                               attn_mask=attn_mask, is_causal=is_causal), **params)
    elif source is None:
        t = compute(DOCUMENT_EXAMPLE, **params)
    elif isinstance(source, Mapping):
        t = compute(source, **params)
    else:
        t = compute(source, **params)
    lang = lang or default_lang()
    if lang not in LANGS:
        raise MHAInputError(f"lang: expected one of {', '.join(LANGS)}, got {lang!r}")
    if not isinstance(precision, int) or not 0 <= precision <= 12:
        raise MHAInputError(f"precision: expected an integer from 0 to 12, got {precision!r}")
    if heads is not None:
        heads = tuple(int(h) for h in heads)
    opts = Options(lang=lang, precision=precision, heads=heads, tokens=tokens, full=full, batch=batch,
                   tiled_block=tiled_block)
    try:
        builder = Builder(t, opts)
        sections = builder.build()
        heatmaps = builder.heatmaps()
    except ValueError as e:
        if isinstance(e, MHAInputError):
            raise
        raise MHAInputError(str(e)) from None
    cat = catalog(lang)
    return Explanation(title=cat["title"], subtitle=cat["subtitle"].replace("<precision>", str(precision)),
                       sections=tuple(sections), lang=lang, trace=t, options=opts, heatmaps=heatmaps)
