"""LaTeX documents, by walking pylatexenc's node tree: math, sections, tabular, verbatim and prose."""

from __future__ import annotations

import re

from ..objects import Place
from .common import Segment
from .prose import prose_numbers
from .statements import read_tokens
from .tables import read_table
from .text import read_text
from .tokens import latex_context, nodes_to_toks


def read_latex(text: str, b: "Builder") -> None:
    """A LaTeX document: math nodes, sections, tabular, verbatim and prose, by walking pylatexenc's tree."""
    from pylatexenc import latexwalker as lw
    w = lw.LatexWalker(text, latex_context=latex_context(), tolerant_parsing=True)
    try:
        nodes, _, _ = w.get_latex_nodes()
    except Exception:
        read_text(text, b)
        return
    starts = [0] + [k + 1 for k, ch in enumerate(text) if ch == "\n"]
    whole = Segment(text, 1, "prose")
    whole._starts = starts
    prose: list = []
    src_lines = text.split("\n")
    scanned: set[int] = set()

    def flush():
        if not prose:
            return
        a, z = prose[0].pos, prose[-1].pos + prose[-1].len
        chunk = text[a:z]
        seg = Segment(chunk, whole.line_of(a), "prose", None, None)
        lines = chunk.split("\n")
        for k, line in enumerate(lines):
            if line.strip():
                b.line(_detex(line), Place(seg.line + k, None, "prose"))
                ln = seg.line + k
                if ln not in scanned and ln <= len(src_lines):
                    scanned.add(ln)
                    raw = src_lines[ln - 1]
                    if "&" not in raw:
                        prose_numbers(b, _detex(raw), Place(ln, None, "prose"))
        prose.clear()

    def math(node):
        seg = Segment(text, 1, "math")
        seg._starts = starts
        toks = lw_tokens(node)
        read_tokens(toks, seg, b.doc, b.ctx, text_mode=False)

    def walk(ns):
        for n in ns or []:
            if n is None:
                continue
            if isinstance(n, lw.LatexMathNode):
                flush()
                math(n)
            elif isinstance(n, lw.LatexEnvironmentNode):
                name = n.environmentname
                if name in ("equation", "equation*", "align", "align*", "gather", "gather*", "displaymath",
                            "multline", "multline*", "eqnarray", "eqnarray*", "math", "flalign", "flalign*") or \
                        name in ("bmatrix", "pmatrix", "matrix", "vmatrix"):
                    flush()
                    math(n)
                elif name in ("verbatim", "lstlisting", "minted", "Verbatim", "python", "pycode"):
                    flush()
                    body = text[n.pos:n.pos + n.len]
                    inner = re.sub(r"^\\begin\{[^}]*\}(\{[^}]*\}|\[[^\]]*\])*\n?|\\end\{[^}]*\}$", "", body)
                    off = body.find(inner[:20]) if inner else 0
                    ln = whole.line_of(n.pos + max(0, off))
                    b.segment(Segment(inner, ln, "code" if name != "verbatim" else "output"))
                elif name in ("tabular", "tabular*", "tabularx", "longtable", "table"):
                    flush()
                    if name.startswith("tab") or name == "longtable":
                        _tabular(n, text, whole, b)
                    else:
                        walk(n.nodelist)
                else:
                    walk(n.nodelist)
            elif isinstance(n, lw.LatexMacroNode) and n.macroname in ("section", "subsection", "subsubsection",
                                                                     "paragraph", "chapter", "section*",
                                                                     "subsection*", "title"):
                flush()
                args = n.nodeargd.argnlist if n.nodeargd else []
                title = text[args[-1].pos + 1:args[-1].pos + args[-1].len - 1] if args and args[-1] is not None else ""
                level = {"chapter": 1, "section": 1, "subsection": 2, "subsubsection": 3, "paragraph": 4,
                         "title": 1}.get(n.macroname.rstrip("*"), 2)
                b.heading(_detex(title), level, Place(whole.line_of(n.pos), None, "heading"))
            elif isinstance(n, lw.LatexCharsNode):
                prose.append(n)
            elif isinstance(n, lw.LatexGroupNode):
                walk(n.nodelist)
            elif isinstance(n, lw.LatexMacroNode):
                if n.macroname in ("item",):
                    flush()
                elif n.macroname in ("textbf", "emph", "textit", "text"):
                    prose.append(n)
                elif n.nodeargd is not None and n.nodeargd.argnlist:
                    # \fitwidth{$...$}, \resizebox{..}{..}{$...$}, \fbox{...}: the math inside an argument
                    for arg in n.nodeargd.argnlist:
                        if arg is not None and (isinstance(arg, lw.LatexGroupNode) or
                                                isinstance(arg, lw.LatexMathNode)):
                            walk([arg] if isinstance(arg, lw.LatexMathNode) else arg.nodelist)
            elif isinstance(n, lw.LatexCommentNode):
                continue
        flush()

    def lw_tokens(node):
        if isinstance(node, lw.LatexMathNode):
            return nodes_to_toks(node.nodelist, 0)
        return nodes_to_toks([node], 0)

    walk(nodes)


def _tabular(n, text: str, whole: Segment, b: "Builder") -> None:
    from pylatexenc import latexwalker as lw
    rows: list[tuple[int, list[str]]] = []
    body_nodes = n.nodelist or []
    pieces: list[list] = [[]]
    row_lines: list[int] = []
    for c in body_nodes:
        if isinstance(c, lw.LatexSpecialsNode) and c.specials_chars == "&":
            pieces.append([])
        elif isinstance(c, lw.LatexMacroNode) and c.macroname == "\\":
            rows.append((row_lines[0] if row_lines else whole.line_of(c.pos),
                         ["".join(text[x.pos:x.pos + x.len] for x in p).strip() for p in pieces]))
            pieces, row_lines = [[]], []
        elif isinstance(c, lw.LatexMacroNode) and c.macroname in ("hline", "toprule", "midrule", "bottomrule",
                                                                  "cline"):
            continue
        else:
            if (not isinstance(c, lw.LatexCharsNode) or c.chars.strip()) and not row_lines:
                lead = len(c.chars) - len(c.chars.lstrip()) if isinstance(c, lw.LatexCharsNode) else 0
                row_lines.append(whole.line_of(c.pos + lead))
            pieces[-1].append(c)
    if any(p for p in pieces if any(getattr(x, "chars", "x").strip() for x in p)):
        rows.append((row_lines[0] if row_lines else whole.line_of(n.pos),
                     ["".join(text[x.pos:x.pos + x.len] for x in p).strip() for p in pieces]))
    rows = [(ln, [re.sub(r"^\{.*?\}$", "", c) if False else c for c in cells]) for ln, cells in rows]
    read_table(b, rows, None)


def _detex(s: str) -> str:
    s = re.sub(r"\\(textbf|emph|textit|text|mathrm)\{([^{}]*)\}", r"\2", s)
    return s
