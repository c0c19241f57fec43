"""A notation matrix for `mha check`: one small attention computation written in many notations and formats.

Each variant is a worked example that starts from per-token vectors, from one query against 2-4 keys, from raw
scores or from weights with values, written in one format (Markdown with $$ LaTeX, a Markdown table, plain
text, a notebook with printouts, an HTML table, a beamer frame), one language (English, Chinese) and one
presentation (2, 3 or 4 decimals, percentages, exponentials, sums written out term by term).  The truth is
computed here with plain NumPy (never with mha); a slip changes one printed derived number; the variant's slip
is found when check reports an error on that number's line (and cell).

    python tests/notation_measure.py [N] [SEED]      # recall per axis over N variants, and the clean findings

Standard library, NumPy and (for measuring) mha.check only.  The variants are seeded: the same N and SEED
give the same documents.
"""
from __future__ import annotations

import json
import random
from dataclasses import dataclass, field

import numpy as np

STARTS = ("tokens", "one_query", "scores", "weights")
FORMATS = ("md_latex", "md_table", "text", "notebook", "html", "beamer")
LANGS = ("en", "zh")
PRESENT = ("p2", "p3", "p4", "percent", "exps", "terms")
SCALES = ("sqrt", "div", "divsym", "mul", "none")
SPELL = ("q1", "q_1", "q₁", "mathbf", "query_1", "Query 1:", "zh_vec", "zh_ord", "table")
ENVS = ("bmatrix", "pmatrix", "array")


def softmax(s: np.ndarray) -> np.ndarray:
    e = np.exp(s - s.max(axis=-1, keepdims=True))
    return e / e.sum(axis=-1, keepdims=True)


@dataclass
class Item:
    """One printed quantity: its name as written, its values, its step; `derived` items may carry a slip."""
    kind: str                       # vec (a named vector), pair (q·k written out), exp, word (prose)
    name: str
    values: list
    step: str = "input"
    derived: bool = False
    prec: int = 4
    pct: bool = False
    terms: str = ""                 # an arithmetic written before the result (1×0 + 2×1, 0.58·v1 + ...)
    token: int = 0                  # which token a per-token input belongs to (tables)


@dataclass
class Variant:
    start: str
    fmt: str
    lang: str
    present: str
    scale: str
    spell: str
    env: str
    items: list = field(default_factory=list)

    @property
    def name(self) -> str:
        ext = {"md_latex": "md", "md_table": "md", "text": "txt", "notebook": "ipynb", "html": "html",
               "beamer": "tex"}[self.fmt]
        return f"{self.start}-{self.fmt}-{self.lang}-{self.present}-{self.scale}.{ext}"

    def axes(self) -> dict:
        return {"start": self.start, "format": self.fmt, "lang": self.lang, "present": self.present,
                "scale": self.scale, "spell": self.spell}


# ---------------------------------------------------------------- names as authors spell them

_SUB = str.maketrans("0123456789", "₀₁₂₃₄₅₆₇₈₉")
_ZH_VEC = {"q": "查询向量", "k": "键向量", "v": "值向量"}
_ZH_ORD = {"q": "查询", "k": "键", "v": "值"}
_WORD = {"q": "query", "k": "key", "v": "value"}


def vec_name(spell: str, kind: str, i: int, latex: bool, code: bool) -> str:
    """The name of the i-th (1-based) query, key or value vector in the spelling `spell`."""
    if code:
        return {"q_1": f"{kind}_{i}", "query_1": f"{_WORD[kind]}_{i}"}.get(spell, f"{kind}{i}")
    if spell == "q1":
        return f"{kind}{i}"
    if spell == "q₁":
        return f"{kind}_{i}" if latex else f"{kind}{str(i).translate(_SUB)}"
    if spell == "mathbf":
        return f"\\mathbf{{{kind}}}_{i}" if latex else f"{kind}_{i}"
    if spell == "query_1":
        return f"\\text{{{_WORD[kind]}}}_{i}" if latex else f"{_WORD[kind]}_{i}"
    if spell == "Query 1:":
        return f"{_WORD[kind].capitalize()} {i}"
    if spell == "zh_vec":
        return f"{_ZH_VEC[kind]} {kind}{i}"
    if spell == "zh_ord":
        return f"第{i}个词的{_ZH_ORD[kind]}"
    return f"{kind}_{i}"


def fmt_num(x: float, prec: int, pct: bool = False) -> str:
    if pct:
        return f"{100 * x:.{max(prec - 2, 1)}f}%"
    if float(x).is_integer() and prec == 0:
        return str(int(x))
    return f"{x:.{prec}f}"


def _slip(text: str) -> str:
    """A one-number slip: two adjacent last digits swapped, or else the last digit moved by 3."""
    b = max(i for i, c in enumerate(text) if c.isdigit())
    a = b - 1
    if a >= 0 and text[a].isdigit() and text[a] != text[b] and not (text[:a].strip("-") == "" and text[b] == "0"):
        return text[:a] + text[b] + text[a] + text[b + 1:]
    return text[:b] + str((int(text[b]) + 3) % 10) + text[b + 1:]


# ---------------------------------------------------------------- the computation and its items

def _problem(rng: random.Random, start: str):
    n = rng.choice((2, 3, 4))
    d = rng.choice((2, 4))
    if start == "scores":
        d = rng.choice((4, 16, 64))
        s = np.array([[rng.choice(range(-3, 6)) * max(1, int(np.sqrt(d)) // 2) for _ in range(n)]], float)
        return n, d, None, None, None, s
    nq = n if start == "tokens" else 1
    draw = lambda r, c: np.array([[rng.choice((-1, 0, 1, 1, 2)) for _ in range(c)] for _ in range(r)], float)
    q, k, v = draw(nq, d), draw(n, d), draw(n, rng.choice((2, 3)))
    return n, d, q, k, v, q @ k.T


def build(seed: int) -> Variant:
    rng = random.Random(seed)
    var = Variant(rng.choice(STARTS), rng.choice(FORMATS), rng.choice(LANGS), rng.choice(PRESENT),
                  rng.choice(SCALES), rng.choice(SPELL), rng.choice(ENVS))
    if var.spell.startswith("zh"):
        var.lang = "zh"
    if var.spell == "Query 1:":
        var.lang = "en"
    if var.fmt == "notebook" and var.spell not in ("q1", "q_1", "query_1"):
        var.spell = rng.choice(("q1", "q_1", "query_1"))
    if var.start == "weights":
        var.scale = "none"
    n, d, q, k, v, s = _problem(rng, var.start)
    prec = {"p2": 2, "p3": 3}.get(var.present, 4)
    latex = var.fmt in ("md_latex", "beamer")
    code = var.fmt == "notebook"
    nm = lambda kind, i: vec_name(var.spell, kind, i, latex, code)
    items = var.items
    if var.start == "weights":
        w = np.array([rng.choice(range(5, 60)) for _ in range(n)], float)
        w = np.round(w / w.sum(), 2)
        w[-1] = round(1 - w[:-1].sum(), 2)
        dv = rng.choice((2, 3))
        v = np.array([[rng.choice((-1, 0, 1, 2, 3)) for _ in range(dv)] for _ in range(n)], float)
        items.append(Item("vec", "weights", list(w), prec=2))
        for j in range(n):
            items.append(Item("vec", nm("v", j + 1), list(v[j]), prec=0, token=j))
        _output(var, items, w[None], v, prec, nm)
        return var
    if q is not None:
        for kind, m in (("q", q), ("k", k), ("v", v)):
            for i in range(len(m)):
                items.append(Item("vec", nm(kind, i + 1), list(m[i]), prec=0, token=i))
    for i in range(len(s)):
        qi = f"q{i + 1}" if q is not None else "q"
        if var.present == "terms" and q is not None:
            for j in range(n):
                t = " + ".join(f"{_int(a)}×{_paren(b)}" for a, b in zip(q[i], k[j]))
                items.append(Item("pair", f"{nm('q', i + 1)}·{nm('k', j + 1)}", [s[i, j]], "scores", True, 0, terms=t))
        else:
            items.append(Item("vec", f"scores_{i + 1}" if len(s) > 1 else "scores", list(s[i]), "scores",
                              q is not None, 0, token=i))
    scale = {"none": 1.0}.get(var.scale, float(np.sqrt(d)))
    z = s / scale
    if var.scale != "none":
        for i in range(len(z)):
            items.append(Item("vec", _scale_name(var, d, i, len(z)), list(z[i]), "scale", True, prec, token=i))
    w = softmax(z)
    for i in range(len(w)):
        if var.present == "exps" and var.fmt == "notebook":
            items.append(Item("vec", "exps", list(np.exp(z[i])), "softmax", True, prec, token=i))
        elif var.present == "exps":
            for x in z[i]:
                items.append(Item("exp", fmt_num(x, prec if var.scale != "none" else 0), [np.exp(x)], "softmax",
                                  True, 2))
        items.append(Item("vec", f"α_{i + 1}" if len(w) > 1 else "α", list(w[i]), "softmax", True, prec,
                          var.present == "percent", token=i))
    if v is not None:
        _output(var, items, w, v, prec, nm)
    return var


def _int(x: float) -> str:
    return str(int(x))


def _paren(x: float) -> str:
    return f"({int(x)})" if x < 0 else str(int(x))


def _scale_name(var: Variant, d: int, i: int, rows: int) -> str:
    base = f"scores_{i + 1}" if rows > 1 else "scores"
    r = int(round(np.sqrt(d))) if float(np.sqrt(d)).is_integer() else round(float(np.sqrt(d)), 4)
    latex = var.fmt in ("md_latex", "beamer")
    return {"sqrt": f"{base} / \\sqrt{{{d}}}" if latex else f"{base} / √{d}",
            "div": f"{base} / {r}", "divsym": f"{base} ÷ {r}",
            "mul": f"{base} \\times {1 / np.sqrt(d):.4g}" if latex else f"{base} × {1 / np.sqrt(d):.4g}"}[var.scale]


def _output(var: Variant, items: list, w: np.ndarray, v: np.ndarray, prec: int, nm) -> None:
    o = w @ v
    for i in range(len(o)):
        t = ""
        if var.present == "terms":
            t = " + ".join(f"{fmt_num(w[i, j], prec)}·{nm('v', j + 1)}" for j in range(len(v)))
        items.append(Item("vec", f"o_{i + 1}" if len(o) > 1 else "o", list(o[i]), "weighted_sum", True, prec,
                          terms=t, token=i))


# ---------------------------------------------------------------- rendering, with the place of every number

_TITLE = {"en": "Attention worked by hand", "zh": "手算注意力"}
_STEP_WORDS = {
    "en": {"input": "The vectors we start from:", "scores": "Dot products of the query with each key:",
           "scale": "Scaled by the square root of the key width:", "softmax": "Softmax turns them into weights:",
           "weighted_sum": "The output mixes the values with those weights:"},
    "zh": {"input": "已知的向量如下：", "scores": "查询与每个键的点积：", "scale": "除以键维度的平方根（缩放）：",
           "softmax": "经过 softmax 得到注意力权重：", "weighted_sum": "用权重对值向量加权求和，得到输出："},
}


class Writer:
    """Lines (in cells, for a notebook) and where each derived number landed: (item, entry) -> (cell, line)."""

    def __init__(self, over: dict):
        self.over, self.cells, self.places, self.pending = over, [("markdown", [], [])], {}, []

    def num(self, it: int, j: int, text: str) -> str:
        self.pending.append((it, j))
        return self.over.get((it, j), text)

    def line(self, s: str, output: bool = False) -> None:
        kind, src, out = self.cells[-1]
        target = out if output else src
        target.append(s)
        for key in self.pending:
            self.places[key] = (len(self.cells) if kind == "code" or len(self.cells) > 1 else None, len(target))
        self.pending = []

    def cell(self, kind: str) -> None:
        self.cells.append((kind, [], []))


def _vals(w: Writer, it: int, item: Item, sep: str = ", ") -> list[str]:
    return [w.num(it, j, fmt_num(x, item.prec, item.pct)) if item.derived else fmt_num(x, item.prec)
            for j, x in enumerate(item.values)]


def _eq(var: Variant, item: Item) -> str:
    if not item.derived or item.step == "scores":
        return "="
    if var.lang == "zh":
        return "\\approx" if var.fmt in ("md_latex", "beamer") else "约等于" if var.env == "pmatrix" else "≈"
    return "≈" if var.env == "array" else "="


def _latex_vec(var: Variant, vals: list[str]) -> str:
    vals = [v.replace("%", "\\%") for v in vals]
    body = " & ".join(vals)
    if var.env == "array":
        return f"\\left[\\begin{{array}}{{{'c' * len(vals)}}} {body} \\end{{array}}\\right]"
    return f"\\begin{{{var.env}}} {body} \\end{{{var.env}}}"


def _latex_name(name: str) -> str:
    return name.replace("·", " \\cdot ").replace("α", "\\alpha").replace("÷", "\\div").replace("√", "\\sqrt")


def render(var: Variant, over: dict | None = None) -> tuple[str, dict]:
    """The document's text and the place of each derived number."""
    w = Writer(over or {})
    render_fn = {"md_latex": _render_lines, "text": _render_lines, "beamer": _render_lines,
                 "md_table": _render_table, "html": _render_table, "notebook": _render_notebook}[var.fmt]
    render_fn(var, w)
    if var.fmt == "notebook":
        return _notebook_json(w), w.places
    return "\n".join(w.cells[0][1]) + "\n", w.places


def _head(var: Variant, w: Writer) -> None:
    if var.fmt == "beamer":
        for s in ("\\documentclass{beamer}", "\\usepackage{amsmath}", "\\begin{document}",
                  f"\\begin{{frame}}{{{_TITLE[var.lang]}}}"):
            w.line(s)
    elif var.fmt == "html":
        w.line(f"<html><body><h1>{_TITLE[var.lang]}</h1>")
    elif var.fmt == "text":
        w.line(_TITLE[var.lang])
        w.line("=" * 20)
    else:
        w.line(f"# {_TITLE[var.lang]}")
    w.line("")


def _words(var: Variant, w: Writer, step: str) -> None:
    s = _STEP_WORDS[var.lang][step]
    w.line(f"<p>{s}</p>" if var.fmt == "html" else s)
    if var.fmt != "html":
        w.line("")


def _one_line(var: Variant, w: Writer, it: int, item: Item) -> str:
    latex = var.fmt in ("md_latex", "beamer")
    vals = _vals(w, it, item)
    eq = _eq(var, item)
    if item.kind == "exp":
        return f"e^{{{item.name}}} {eq} {vals[0]}" if latex else f"e^{item.name} {eq} {vals[0]}"
    if item.kind == "pair":
        terms = item.terms.replace("×", " \\times ") if latex else item.terms
        return f"{_latex_name(item.name) if latex else item.name} = {terms} = {vals[0]}"
    if latex:
        terms = f"{_latex_name(item.terms)} = " if item.terms else ""
        return f"{_latex_name(item.name)} {eq} {terms}{_latex_vec(var, vals)}"
    sep, (lb, rb) = (("，", ("（", "）")) if var.lang == "zh" and var.env == "bmatrix" else (", ", ("[", "]")))
    terms = f"{item.terms} = " if item.terms else ""
    if item.name.startswith(("Query", "Key", "Value")) or item.name[:1] in "第查键值":
        colon = "：" if var.lang == "zh" else ":"
        return f"{item.name}{colon} {lb}{sep.join(vals)}{rb}"
    return f"{item.name} {eq} {terms}{lb}{sep.join(vals)}{rb}"


def _render_lines(var: Variant, w: Writer) -> None:
    _head(var, w)
    step = None
    for it, item in enumerate(var.items):
        if item.step != step and item.kind != "exp":
            step = item.step
            _words(var, w, step)
        s = _one_line(var, w, it, item)
        if var.fmt == "beamer":
            w.line(f"\\[ {s} \\]")
        elif var.fmt == "md_latex":
            w.line(f"$$ {s} $$")
            w.line("")
        else:
            w.line(s)
    if var.fmt == "beamer":
        w.line("\\end{frame}")
        w.line("\\end{document}")


def _row(var: Variant, w: Writer, cells: list[str], header: bool = False) -> None:
    if var.fmt == "html":
        tag = "th" if header else "td"
        w.line("<tr>" + "".join(f"<{tag}>{c}</{tag}>" for c in cells) + "</tr>")
    else:
        w.line("| " + " | ".join(cells) + " |")
        if header:
            w.line("|" + "---|" * len(cells))


def _render_table(var: Variant, w: Writer) -> None:
    """Inputs as a table with one row per token; each query's scores, scaled scores and weights as a table with one
    row per key; outputs and written-out lines as text."""
    _head(var, w)
    items = var.items
    inputs = [(i, x) for i, x in enumerate(items) if x.step == "input"]
    if inputs:
        _words(var, w, "input")
        if var.start == "one_query":            # the one query on a line of its own, the keys in the table
            lone = [(i, x) for i, x in inputs if _kind_of(x) == "q"]
            for i, x in lone:
                s = _one_line(var, w, i, x)
                w.line(f"<p>{s}</p>" if var.fmt == "html" else s)
            w.line("")
            inputs = [p for p in inputs if p not in lone]
        _token_table(var, w, inputs)
    rows = [(i, x) for i, x in enumerate(items) if x.step in ("scores", "scale", "softmax") and x.kind == "vec"]
    if rows:
        _words(var, w, "softmax")
        _key_table(var, w, rows)
    for it, item in enumerate(items):
        if item.step == "weighted_sum" or item.kind in ("pair", "exp"):
            s = _one_line(var, w, it, item)
            w.line(f"<p>{s}</p>" if var.fmt == "html" else s)
            if var.fmt != "html":
                w.line("")
    if var.fmt == "html":
        w.line("</body></html>")


def _token_table(var: Variant, w: Writer, inputs: list) -> None:
    by_token: dict = {}
    for it, x in inputs:
        by_token.setdefault(x.token, []).append(x)
    kinds = [("w", "weight"), ("q", "query"), ("k", "key"), ("v", "value")]
    present = [k for k, word in kinds if any(_kind_of(x) == k for _, x in inputs)]
    weights = next((x for _, x in inputs if _kind_of(x) == "w"), None)
    if var.fmt == "html":
        w.line("<table>")
    _row(var, w, ["token"] + [dict(kinds)[k] if k == "w" else k for k in present], header=True)
    for t in sorted(by_token):
        got = {_kind_of(x): x for x in by_token[t] if _kind_of(x) != "w"}
        cells = ["[" + ", ".join(fmt_num(v, 0) for v in got[k].values) + "]" if k in got else "" for k in present]
        if weights is not None:
            cells[0] = fmt_num(weights.values[t], weights.prec)
        _row(var, w, [str(t + 1)] + cells)
    if var.fmt == "html":
        w.line("</table>")
    w.line("")


def _kind_of(item: Item) -> str:
    n = item.name.lower()
    for k, words in (("q", ("query", "查询", "\\mathbf{q}")), ("k", ("key", "键", "\\mathbf{k}")),
                     ("v", ("value", "值", "\\mathbf{v}"))):
        if n.startswith(k) or any(x in n for x in words):
            return k
    return "w"


def _key_table(var: Variant, w: Writer, rows: list) -> None:
    """One table per query: a row per key, a column per step."""
    groups: dict = {}
    for it, x in rows:
        q = x.name.split()[0].split("_")[-1] if "_" in x.name.split()[0] else "1"
        groups.setdefault(q, []).append((it, x))
    head = {"scores": lambda x: "score", "softmax": lambda x: "weight",
            "scale": lambda x: "score" + x.name.split(" ", 1)[1].replace("\\sqrt{", "√").replace("}", "")}
    for q, cols in groups.items():
        if var.fmt == "html":
            w.line("<table>")
        _row(var, w, ["key"] + [head[x.step](x) for _, x in cols], header=True)
        n = len(cols[0][1].values)
        for j in range(n):
            cells = []
            for it, x in cols:
                text = fmt_num(x.values[j], x.prec, x.pct)
                cells.append(w.num(it, j, text) if x.derived else text)
            _row(var, w, [f"k{j + 1}"] + cells)
        if var.fmt == "html":
            w.line("</table>")
        w.line("")


def _code_vec(var: Variant, values: list, prec: int = 0) -> str:
    body = ", ".join(f"{v:.1f}" if prec == 0 else f"{v:.{prec}f}" for v in values)
    return f"torch.tensor([{body}])" if var.env == "pmatrix" else f"np.array([{body}])"


def _printout(var: Variant, w: Writer, it: int, item: Item) -> str:
    """The printout of a derived vector as NumPy or torch prints it, one number (the slip) replaced."""
    x = np.asarray(item.values, float) * (100 if item.pct else 1)
    prec = max(item.prec - 2, 1) if item.pct else item.prec
    if var.env == "pmatrix":
        body = ", ".join(f"{v:.{prec}f}" if prec else f"{v:.0f}." for v in x)
        text = f"tensor([{body}])"
    else:
        text = np.array2string(np.round(x, prec), precision=prec, floatmode="maxprec")
    import re
    out, pos = [], 0
    for j, m in enumerate(re.finditer(r"-?\d+\.?\d*(?:e[-+]?\d+)?", text)):
        out.append(text[pos:m.start()] + (w.num(it, j, m.group()) if item.derived else m.group()))
        pos = m.end()
    return "".join(out) + text[pos:]


def _render_notebook(var: Variant, w: Writer) -> None:
    w.line(f"# {_TITLE[var.lang]}")
    w.cell("code")
    w.line("import torch" if var.env == "pmatrix" else "import numpy as np")
    names: dict = {}
    for it, item in enumerate(var.items):
        if item.step == "input":
            w.line(f"{item.name} = {_code_vec(var, item.values, item.prec)}")
    lib = "torch" if var.env == "pmatrix" else "np"
    keys = [x.name for x in var.items if _kind_of(x) == "k" and x.step == "input"]
    vals = [x.name for x in var.items if _kind_of(x) == "v" and x.step == "input"]
    for it, item in enumerate(var.items):
        if item.step == "input":
            continue
        w.cell("code")
        w.line(_code_for(var, item, lib, keys, vals))
        w.line(f"print({_code_for(var, item, lib, keys, vals).split(' =')[0]})")
        w.line(_printout(var, w, it, item), output=True)


def _code_name(item: Item, rows: int = 1) -> str:
    """The variable a notebook keeps the item in: scores_1, scaled_1, exps_1, weights_1, out_1 (no suffix for one
    query)."""
    if item.kind == "pair":
        return "s"
    if item.kind == "vec" and item.name.startswith("exps"):
        base = "exps"
    else:
        base = {"scores": "scores", "scale": "scaled", "softmax": "weights", "weighted_sum": "out"}.get(item.step,
                                                                                                     "x")
    return f"{base}_{item.token + 1}" if rows > 1 else base


def _code_for(var: Variant, item: Item, lib: str, keys: list, vals: list) -> str:
    rows = len([x for x in var.items if x.step == "softmax" and x.kind == "vec" and not x.name.startswith("exps")])
    name = _code_name(item, rows)
    sfx = f"_{item.token + 1}" if rows > 1 else ""
    stack = "torch.stack" if lib == "torch" else "np.array"
    if item.kind == "pair":
        a, b = item.name.split("·")
        return f"s = {a} @ {b}"
    if item.step == "scores" and not item.derived:
        return f"{name} = {_code_vec(var, item.values, 1)}"
    if item.step == "scores":
        q = next(x.name for x in var.items if x.step == "input" and _kind_of(x) == "q" and x.token == item.token)
        return f"{name} = {stack}([{', '.join(f'{q} @ {k}' for k in keys)}])"
    src = ("scaled" if any(x.step == "scale" for x in var.items) else "scores") + sfx
    if item.step == "scale":
        op = item.name.split(" ", 1)[1].replace("√", "").replace("÷", "/").replace("×", "*")
        op = op + " ** 0.5" if "√" in item.name else op
        return f"{name} = scores{sfx} {op}"
    if item.name.startswith("exps"):
        return f"{name} = {lib}.exp({src})"
    if item.step == "softmax":
        call = f"torch.softmax({src}, dim=-1)" if lib == "torch" else f"np.exp({src}) / np.exp({src}).sum()"
        return f"{name} = {call}" + (f"\n{name} = {name} * 100" if item.pct else "")
    if item.step == "weighted_sum":
        return f"{name} = " + " + ".join(f"weights{sfx}[{j}] * {v}" for j, v in enumerate(vals))
    return f"{name} = None"


def _notebook_json(w: Writer) -> str:
    cells = []
    for i, (kind, src, out) in enumerate(w.cells):
        c = {"cell_type": kind, "id": f"c{i}", "metadata": {}, "source": "\n".join(src)}
        if kind == "code":
            c.update(execution_count=None, outputs=[{"output_type": "stream", "name": "stdout",
                                                     "text": "\n".join(out) + "\n"}] if out else [])
        cells.append(c)
    return json.dumps({"cells": cells, "metadata": {}, "nbformat": 4, "nbformat_minor": 5}, ensure_ascii=False,
                      indent=1)


def render_session(var: Variant, over: dict | None = None) -> tuple[str, dict]:
    """A notebook variant pasted as a plain-text Python session: its title, then each cell's statements after
    `>>>` prompts and what they printed under them.  The places are (None, line of the text)."""
    w = Writer(over or {})
    _render_notebook(var, w)
    lines = [w.cells[0][1][0].lstrip("# "), ""]
    where: dict = {}
    for c, (kind, src, out) in enumerate(w.cells[1:], 2):
        lines += [">>> " + s for block in src for s in block.split("\n")]
        for n, s in enumerate(out, 1):
            lines.append(s)
            where[(c, n)] = len(lines)
    places = {key: (None, where[place]) for key, place in w.places.items() if place in where}
    return "\n".join(lines) + "\n", places
