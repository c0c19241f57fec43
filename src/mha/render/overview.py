"""The overview as text and Markdown: per layer, a compact table with one row per head.

Each row: the head (and the key/value head it reads, under GQA), its mean
entropy, the pattern it mostly follows with its share, and the most-attended
key of every query row, by position (the token list at the top names them).
Numbers are rounded here, at the last step, by `explanation.numbers`.
"""

from __future__ import annotations

import io
import json

from ..explanation.catalog import catalog, fill
from ..explanation.numbers import format_number
from ..explanation.overview import HeadView, Overview


def _t(lang: str, key: str, **params: object) -> str:
    return fill(catalog(lang)[key], params)


def plain_number(x: float, precision: int) -> str:
    p = format_number(x, precision)
    return p.sign + p.digits


def pattern_text(cell: HeadView, lang: str) -> str:
    """ "previous-token 88%", or a dash when the head follows no pattern mostly."""
    named = cell.summary.named
    if named is None:
        return _t(lang, "overview.pattern.none")
    return f"{_t(lang, 'overview.pattern.' + named[0])} {round(100 * named[1])}%"


def _rows(ov: Overview, layer: int, lang: str) -> tuple[list[str], list[list[str]]]:
    gqa = ov.n_kv_heads < ov.n_heads
    header = [_t(lang, "overview.col.head")] + ([_t(lang, "overview.col.kv")] if gqa else []) + [
        _t(lang, "overview.col.entropy"), _t(lang, "overview.col.pattern"), _t(lang, "overview.col.top", T=ov.T)]
    rows = []
    for c in ov.layer_cells(layer):
        rows.append([str(c.head + 1)] + ([str(c.kv_head + 1)] if gqa else []) + [
            plain_number(c.summary.entropy, 2), pattern_text(c, lang),
            " ".join(str(j + 1) for j in c.summary.top)])
    return header, rows


def _intro(ov: Overview, lang: str) -> list[str]:
    lines = [_t(lang, "overview.subtitle", model=ov.model or ov.family, family=ov.family, T=ov.T,
                layers=len(ov.layers), heads=len(ov.heads))]
    if ov.n_kv_heads < ov.n_heads:
        lines.append(_t(lang, "overview.kv_note", H=ov.n_heads, G=ov.n_kv_heads))
    lines.append(_t(lang, "overview.legend"))
    return lines


def token_list(ov: Overview) -> str:
    """ "1 the · 2 ␣cat · 3 ␣sat": the tokens numbered as the tables name them."""
    return " · ".join(f"{i + 1} {tok}" for i, tok in enumerate(ov.tokens))


def render_overview_markdown(ov: Overview, lang: str = "en") -> str:
    def cell(s: str) -> str:
        return s.replace("|", "\\|")

    out = [f"# {_t(lang, 'overview.title')}", "", *(line + "\n" for line in _intro(ov, lang)),
           f"**{_t(lang, 'overview.tokens')}:** {cell(token_list(ov))}", ""]
    for layer in ov.layers:
        header, rows = _rows(ov, layer, lang)
        out += [f"## {_t(lang, 'overview.layer', layer=layer)}", "",
                "| " + " | ".join(header) + " |", "|" + "---|" * len(header)]
        out += ["| " + " | ".join(cell(x) for x in row) + " |" for row in rows]
        out.append("")
    return "\n".join(out)


def render_overview_text(ov: Overview, lang: str = "en", *, width: int = 120) -> str:
    """Plain text (rich tables measure CJK widths), for a file or a pipe."""
    from rich import box
    from rich.console import Console
    from rich.table import Table

    buf = io.StringIO()
    console = Console(file=buf, width=width, color_system=None, force_terminal=False, legacy_windows=False)
    console.print(_t(lang, "overview.title"), style="bold")
    for line in _intro(ov, lang):
        console.print(line, highlight=False)
    console.print(f"{_t(lang, 'overview.tokens')}: {token_list(ov)}", highlight=False, markup=False)
    for layer in ov.layers:
        header, rows = _rows(ov, layer, lang)
        table = Table(title=_t(lang, "overview.layer", layer=layer), box=box.SIMPLE, title_justify="left",
                      highlight=False)
        for i, h in enumerate(header):
            table.add_column(h, justify="right" if i < len(header) - 2 else "left",
                             overflow="fold", no_wrap=i < len(header) - 1)
        for row in rows:
            table.add_row(*row)
        console.print(table)
    return "\n".join(line.rstrip() for line in buf.getvalue().splitlines()) + "\n"   # rich pads to the width


def render_overview_json(ov: Overview) -> str:
    return json.dumps(ov.to_dict(), ensure_ascii=False)
