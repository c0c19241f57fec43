"""HTML view: one self-contained page (or a notebook fragment) with MathML and heatmaps.

Nothing is loaded from the network: the style sheet is inline, math is
MathML Core (rendered natively by the browser), heatmaps are table cells.
"""

from __future__ import annotations

import html

from ..explanation import Cell, Display, Explanation, Items, Matrix, Note, Para, Section, Table
from ..explanation.catalog import catalog
from ..explanation.numbers import format_number
from .common import grid, numbered, relation_latex, shape_latex
from .mathml import prose_html, to_mathml

CSS = """
.mha-explanation{font-family:system-ui,-apple-system,"Segoe UI","Noto Sans","Noto Sans CJK SC","PingFang SC",
 "Microsoft YaHei",sans-serif;line-height:1.55;color:#1f2328;max-width:60rem;margin:0 auto;padding:1rem}
.mha-explanation h1{font-size:1.6rem;margin:.2rem 0}
.mha-explanation h2{font-size:1.25rem;border-bottom:1px solid #d0d7de;padding-bottom:.2rem;margin-top:1.8rem}
.mha-explanation h3{font-size:1.05rem;margin-top:1.2rem}
.mha-explanation .sub{color:#59636e}
.mha-explanation .note{background:#fff8c5;border-left:4px solid #d4a72c;padding:.4rem .7rem;margin:.6rem 0}
.mha-explanation .display{overflow-x:auto;overflow-y:hidden;margin:.5rem 0 .5rem 1rem}
.mha-explanation math[display=block]{text-align:left}
.mha-explanation .mx{display:flex;align-items:center;gap:.5rem;margin:.5rem 0 .5rem 1rem;overflow-x:auto}
.mha-explanation table.m{border-collapse:separate;border-spacing:0;font-variant-numeric:tabular-nums;
 font-family:ui-monospace,SFMono-Regular,Menlo,Consolas,monospace;font-size:.9rem}
.mha-explanation table.m td{padding:.12rem .45rem;text-align:right}
.mha-explanation table.m td.l{border-left:2px solid #1f2328;padding:0 .2rem}
.mha-explanation table.m td.r{border-right:2px solid #1f2328;padding:0 .2rem}
.mha-explanation table.m tr.first td.l,.mha-explanation table.m tr.first td.r{border-top:2px solid #1f2328}
.mha-explanation table.m tr.last td.l,.mha-explanation table.m tr.last td.r{border-bottom:2px solid #1f2328}
.mha-explanation table.m th{font-weight:normal;color:#8c959f;font-size:.75rem;padding:0 .3rem}
.mha-explanation table.m td.masked{color:#8c959f;background:repeating-linear-gradient(45deg,#f6f8fa,#f6f8fa 4px,#d0d7de 4px,#d0d7de 5px)}
.mha-explanation table.m.heat td.v{min-width:3.2rem}
.mha-explanation .grid{display:flex;flex-wrap:wrap;gap:1.2rem}
.mha-explanation .grid figure{margin:0}
.mha-explanation .grid figcaption{text-align:center;font-size:.9rem}
.mha-explanation table.dims{border-collapse:collapse}
.mha-explanation table.dims td,.mha-explanation table.dims th{border:1px solid #d0d7de;padding:.2rem .6rem}
.mha-explanation nav ul{columns:2;font-size:.9rem;list-style:none;padding-left:1rem}
"""


def html_number(x: float, precision: int) -> str:
    """A number in HTML: digits, −∞, or a power of ten as a superscript."""
    p = format_number(x, precision)
    if p.digits == "inf":
        return ("−" if p.sign else "") + "∞"
    if p.exponent is not None:
        return f"{p.sign}{p.digits}×10<sup>{p.exponent}</sup>"
    return p.sign + p.digits


def _cell_style(v: float) -> str:
    """A blue shade for a weight in [0, 1]; white text on the darkest cells."""
    a = 0.06 + 0.84 * max(0.0, min(1.0, float(v)))
    color = "#fff" if a > 0.55 else "#1f2328"
    return f' style="background:rgba(9,105,218,{a:.2f});color:{color}"'


def _cell(m: Matrix, i: int, j: int, cell: Cell) -> str:
    text = html_number(cell.value, m.precision)
    if cell.masked:
        return f'<td class="v masked" data-i="{i}" data-j="{j}" title="masked">{text}</td>'
    style = _cell_style(cell.value) if m.heat else ""
    return f'<td class="v" data-i="{i}" data-j="{j}"{style}>{text}</td>'


def matrix_html(m: Matrix) -> str:
    dots = grid(m, lambda c: "", row_dots="⋮", col_dots="⋯", diag_dots="⋱")
    sym = html.escape(m.symbol, quote=True)
    out = [f'<div class="mx"><div class="lhs">{to_mathml(m.symbol + " " + relation_latex(m))}</div>',
           f'<table class="m{" heat" if m.heat else ""}" data-symbol="{sym}">']
    if m.col_labels:
        out.append("<tr>" + ("<th></th>" if m.row_labels else "") + "<td></td>"
                   + "".join(f"<th>{html.escape(lab)}</th>" for lab in m.col_labels) + "<td></td></tr>")
    for r, (i, row) in enumerate(zip(m.rows, m.cells)):
        edge = " ".join(name for name, on in (("first", r == 0), ("last", r == len(m.cells) - 1)) if on)
        tr = [f'<tr class="{edge}">' if edge else "<tr>"]
        if m.row_labels:
            tr.append(f"<th>{html.escape(m.row_labels[r])}</th>")
        tr.append('<td class="l"></td>')
        for c, cell in enumerate(row):
            tr.append(f"<td>{dots[r][c]}</td>" if cell is None else _cell(m, i, m.cols[c], cell))
        tr.append('<td class="r"></td></tr>')
        out.append("".join(tr))
    out.append("</table>")
    if m.show_shape:
        out.append(f'<div class="suffix">{to_mathml(shape_latex(m))}</div>')
    out.append("</div>")
    return "".join(out)


def _block(b: Display | Items | Matrix | Note | Para | Table) -> str:
    match b:
        case Note():
            return f'<p class="note">{prose_html(b.text)}</p>'
        case Para():
            return f"<p>{prose_html(b.text)}</p>"
        case Items():
            return "<ul>" + "".join(f"<li>{prose_html(i)}</li>" for i in b.items) + "</ul>"
        case Display():
            return f'<div class="display">{to_mathml(b.latex, display=True)}</div>'
        case Matrix():
            return matrix_html(b)
        case Table():
            head = "".join(f"<th>{prose_html(h)}</th>" for h in b.header)
            rows = "".join("<tr>" + "".join(f"<td>{prose_html(c)}</td>" for c in row) + "</tr>" for row in b.rows)
            return f'<table class="dims"><tr>{head}</tr>{rows}</table>'


def body_html(ex: Explanation, id_prefix: str = "") -> str:
    """The explanation's headings, contents and sections; ids start with id_prefix (one per language on a page)."""
    cat = catalog(ex.lang)
    parts = [f"<h1>{html.escape(ex.title)}</h1>", f'<p class="sub">{html.escape(ex.subtitle)}</p>']
    toc = []
    body = []
    if ex.heatmaps:
        body.append(f'<section id="{id_prefix}heatmaps"><h2>{prose_html(cat["heatmaps.title"])}</h2>'
                    f'<p>{prose_html(cat["heatmaps.intro"])}</p><div class="grid">')
        for m in ex.heatmaps:
            body.append(f"<figure>{matrix_html(m)}</figure>")
        body.append("</div></section>")
        toc.append(f'<li><a href="#{id_prefix}heatmaps">{html.escape(cat["heatmaps.title"])}</a></li>')
    for number, sec in numbered(ex.sections):
        if sec.level <= 2:
            toc.append(f'<li><a href="#{id_prefix}s-{sec.key.replace(".", "-")}">{number}. '
                       f'{prose_html(sec.title)}</a></li>')
        body.append(section_html(number, sec, id_prefix))
    parts.append(f'<nav><strong>{html.escape(cat["html.contents"])}</strong><ul>{"".join(toc)}</ul></nav>')
    return "\n".join(parts + body)       # a line per block: readable source and golden diffs


def section_html(number: str, sec: Section, id_prefix: str = "") -> str:
    """One numbered section: its heading and its blocks, a line each."""
    tag = "h2" if sec.level <= 2 else "h3"
    return "\n".join([f'<section id="{id_prefix}s-{sec.key.replace(".", "-")}"><{tag}>{number}. '
                       f'{prose_html(sec.title)}</{tag}>', *(_block(b) for b in sec.blocks), "</section>"])


def _html_lang(lang: str) -> str:
    return "zh-CN" if lang == "zh" else "en"


def _page(lang: str, title: str, css: str, body: str) -> str:
    return ("<!DOCTYPE html>\n"
            f'<html lang="{_html_lang(lang)}"><head><meta charset="utf-8">'
            '<meta name="viewport" content="width=device-width,initial-scale=1">'
            f"<title>{html.escape(title)}</title><style>{css}</style></head>"
            f"<body>{body}</body></html>\n")


def render_html(ex: Explanation, *, standalone: bool = True) -> str:
    inner = f'<div class="mha-explanation" lang="{_html_lang(ex.lang)}">{body_html(ex)}</div>'
    if not standalone:
        return f"<style>{CSS}</style>{inner}"
    return _page(ex.lang, ex.title, CSS, inner)


def render_html_languages(explanations: list[Explanation], *, standalone: bool = True) -> str:
    """One page holding the same explanation in several languages, the first shown, with a switch at the top.

    The switch is radio buttons and CSS (the buttons are siblings of the
    bodies, so `:checked ~` shows one body): no script, so it works from a
    file and where JavaScript is blocked.
    """
    langs = [ex.lang for ex in explanations]
    if not explanations or len(set(langs)) != len(langs):
        raise ValueError(f"explanations: expected distinct languages, got {langs}")
    radios, labels, rules = [], [], []
    for i, lang in enumerate(langs):
        rid = f"mha-lang-{lang}"
        radios.append(f'<input type="radio" class="mha-lang-radio" name="mha-lang" id="{rid}"'
                      f'{" checked" if i == 0 else ""}>')
        labels.append(f'<label for="{rid}" lang="{_html_lang(lang)}">{html.escape(catalog(lang)["language.name"])}</label>')
        rules.append(f'#{rid}:not(:checked)~.mha-explanation[data-lang="{lang}"]{{display:none}}'
                     f'#{rid}:checked~.mha-lang-switch label[for="{rid}"]{{background:#0969da;color:#fff}}')
    switch = f'<div class="mha-lang-switch">{"".join(labels)}</div>'
    bodies = "".join(f'<div class="mha-explanation" lang="{_html_lang(ex.lang)}" data-lang="{ex.lang}">'
                     f"{body_html(ex, id_prefix=ex.lang + '-')}</div>" for ex in explanations)
    css = CSS + SWITCH_CSS + "".join(rules)
    if not standalone:
        return f"<style>{css}</style>" + "".join(radios) + switch + bodies
    return _page(langs[0], " / ".join(ex.title for ex in explanations), css, "".join(radios) + switch + bodies)


SWITCH_CSS = """
.mha-lang-radio{position:absolute;opacity:0;pointer-events:none}
.mha-lang-switch{max-width:60rem;margin:0 auto;padding:.6rem 1rem 0;display:flex;gap:.4rem;
 font-family:system-ui,"Noto Sans CJK SC",sans-serif}
.mha-lang-switch label{border:1px solid #0969da;border-radius:1rem;padding:.15rem .8rem;cursor:pointer;color:#0969da;
 line-height:1.5;display:inline-flex;align-items:center}
"""
