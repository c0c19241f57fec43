"""LaTeX documents, by walking pylatexenc's node tree: math, sections, tabular, verbatim and prose."""

from __future__ import annotations

import re

from ..objects import Place
from .common import Segment, own_words
from .prose import prose_numbers
from .repl import only_printouts
from .statements import read_tokens
from .tables import read_table
from .text import read_text
from .tokens import latex_context, nodes_to_toks, tuple_macros


def read_latex(text: str, b: "Builder") -> None:
    """A LaTeX document: math nodes, sections, tabular, verbatim and prose, by walking pylatexenc's tree."""
    from pylatexenc import latexwalker as lw
    text = tuple_macros(text)           # `\tuple{a, b}` as `(a, b)`, every character in its place
    w = lw.LatexWalker(text, latex_context=latex_context(), tolerant_parsing=True)
    try:
        nodes, _, _ = w.get_latex_nodes()
    except Exception:
        read_text(text, b)
        return
    _LatexReader(text, b, lw).walk(nodes)


_MATH_ENVS = ("equation", "equation*", "align", "align*", "gather", "gather*", "displaymath", "multline", "multline*",
              "eqnarray", "eqnarray*", "math", "flalign", "flalign*", "bmatrix", "pmatrix", "matrix", "vmatrix")
_CODE_ENVS = ("verbatim", "lstlisting", "minted", "Verbatim", "python", "pycode")
_TABLE_ENVS = ("tabular", "tabular*", "tabularx", "longtable", "table")
_SECTIONS = ("section", "subsection", "subsubsection", "paragraph", "chapter", "section*", "subsection*", "title")


class _LatexReader:
    """Walks pylatexenc's nodes in order, gathering runs of prose and handing math, code, tables and headings on."""

    def __init__(self, text: str, b: "Builder", lw):
        self.text, self.b, self.lw = text, b, lw
        self.starts = [0] + [k + 1 for k, ch in enumerate(text) if ch == "\n"]
        self.whole = Segment(text, 1, "prose")
        self.whole._starts = self.starts
        self.prose: list = []
        self.src_lines = text.split("\n")
        self.scanned: set[int] = set()

    def flush(self) -> None:
        """The prose gathered so far: each line as context, and the numbers stated in it."""
        prose, text, b = self.prose, self.text, self.b
        if not prose:
            return
        a, z = prose[0].pos, prose[-1].pos + prose[-1].len
        chunk = text[a:z]
        self.since_math = getattr(self, "since_math", "") + chunk    # (`\texttt{..}` groups flush the prose)
        seg = Segment(chunk, self.whole.line_of(a), "prose", None, None)
        lines = chunk.split("\n")
        for k, line in enumerate(lines):
            if line.strip():
                b.line(_detex(line), Place(seg.line + k, None, "prose"))
                ln = seg.line + k
                if ln not in self.scanned and ln <= len(self.src_lines):
                    self.scanned.add(ln)
                    raw = self.src_lines[ln - 1]
                    item = _ITEM_STATEMENT.match(_detex(raw))
                    if item:            # `\item cat · sat = 0.59`, `\item ``cat'' → [0.7, 0.2]`: a statement a line
                        read_text(re.sub(r"``|''", '"', item.group(1)), b, ln, None)
                    elif _WORDED_ARITH.search(_detex(raw)) and not re.search(r"[$&\\]", _detex(raw)):
                        # `so the sum is 1.00 + 2.72 + 7.39 = 11.11.`: arithmetic written out in the running
                        # text, read as a Markdown page's prose line is (no math or macro on the line)
                        read_text(re.sub(r"``|''", '"', _detex(raw)), b, ln, None)
                    elif "&" not in raw:
                        prose_numbers(b, _detex(raw), Place(ln, None, "prose"))
        prose.clear()

    def math(self, node) -> None:
        seg = Segment(self.text, 1, "math")
        seg._starts = self.starts
        toks = nodes_to_toks(node.nodelist, 0) if isinstance(node, self.lw.LatexMathNode) else nodes_to_toks([node], 0)
        read_tokens(toks, seg, self.b.doc, self.b.ctx, text_mode=False)

    def walk(self, ns) -> None:
        lw = self.lw
        for n in ns or []:
            if n is None:
                continue
            if isinstance(n, lw.LatexMathNode):
                self.worded(n)
                self.flush()
                self.since_math = ""
                self.math(n)
            elif isinstance(n, lw.LatexEnvironmentNode):
                self.environment(n)
            elif isinstance(n, lw.LatexMacroNode) and n.macroname in _SECTIONS:
                self.flush()
                self.heading(n)
            elif isinstance(n, lw.LatexCharsNode):
                self.prose.append(n)
            elif isinstance(n, lw.LatexGroupNode):
                self.walk(n.nodelist)
            elif isinstance(n, lw.LatexMacroNode):
                self.macro(n)
        self.flush()

    def worded(self, n) -> None:
        """An inline formula that starts with a relation after words of its own ("fator de escala $= 0.25$", "se o
        logit fosse $\\sim 0$"): its value is those words', not the end of the formula before (builder.finish)."""
        inner = re.sub(r"^(?:\$+|\\\()", "", self.text[n.pos:n.pos + n.len])
        said = getattr(self, "since_math", "") + "".join(self.text[p.pos:p.pos + p.len] for p in self.prose)
        item, self.item_before = getattr(self, "item_before", False), False
        # a list item of its own (`\item $\approx 0.731$.`, the options of a multiple-choice question) or a value
        # in parentheses after words set in code type (`\texttt{mat} ($=5$)`) is no continuation either
        if re.match(r"\s*(?:\\[,;: !]\s*)*(?:=|≈|~|\\approx|\\sim|\\simeq|\\propto)", inner) and (
                own_words(_detex(said)) or item or said.rstrip().endswith("(")):
            self.b.worded_math.add((self.whole.line_of(n.pos), None))

    def environment(self, n) -> None:
        name = n.environmentname
        if name == "frame":
            # a beamer slide is a section of its own: its title (the first {…} after [options]) is a heading
            self.flush()
            title = ""
            for k in (n.nodelist or [])[:3]:
                if isinstance(k, self.lw.LatexGroupNode):
                    title = self.text[k.pos + 1:k.pos + k.len - 1]
                    break
            self.b.heading(_detex(title) or "frame", 3, Place(self.whole.line_of(n.pos), None, "heading"))
            self.walk(n.nodelist)
        elif name in _MATH_ENVS:
            self.flush()
            self.since_math = ""
            self.math(n)
        elif name in _CODE_ENVS:
            self.flush()
            body = self.text[n.pos:n.pos + n.len]
            inner = re.sub(r"^\\begin\{[^}]*\}(\{[^}]*\}|\[[^\]]*\])*\n?|\\end\{[^}]*\}$", "", body)
            off = body.find(inner[:20]) if inner else 0
            ln = self.whole.line_of(n.pos + max(0, off))
            # a listing that holds a printout alone (`tensor([[0.66, ...]])` under the code that printed it) is output
            printed = name == "verbatim" or only_printouts(inner)
            self.b.segment(Segment(inner, ln, "output" if printed else "code"))
        elif name in _TABLE_ENVS:
            self.flush()
            if name.startswith("tab") or name == "longtable":
                _tabular(n, self.text, self.whole, self.b)
            else:
                self.walk(n.nodelist)
        else:
            self.walk(n.nodelist)

    def heading(self, n) -> None:
        text = self.text
        args = n.nodeargd.argnlist if n.nodeargd else []
        title = text[args[-1].pos + 1:args[-1].pos + args[-1].len - 1] if args and args[-1] is not None else ""
        level = {"chapter": 1, "section": 1, "subsection": 2, "subsubsection": 3, "paragraph": 4,
                 "title": 1}.get(n.macroname.rstrip("*"), 2)
        self.b.heading(_detex(title), level, Place(self.whole.line_of(n.pos), None, "heading"))

    def macro(self, n) -> None:
        lw = self.lw
        if n.macroname in ("item",):
            self.flush()
            self.item_before = True
        elif n.macroname in ("textbf", "emph", "textit", "text"):
            self.prose.append(n)
        elif n.nodeargd is not None and n.nodeargd.argnlist:
            # \fitwidth{$...$}, \resizebox{..}{..}{$...$}, \fbox{...}: the math inside an argument
            for arg in n.nodeargd.argnlist:
                if arg is not None and (isinstance(arg, lw.LatexGroupNode) or isinstance(arg, lw.LatexMathNode)):
                    self.walk([arg] if isinstance(arg, lw.LatexMathNode) else arg.nodelist)


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


# a list item that is one short statement in text mode, a slide's way: a name, = or →, then a number or a vector
# (`\item Sum = 1.15 + 1.49 + 1.36 = 4.00`: the arithmetic written out in the words, before the value)
_ITEM_STATEMENT = re.compile(r"^\s*\\item\s+([^=→$\\]{1,30}?\s*(?:=|→)\s*(?:[-−\d.\s+*/×()]+?=\s*)?"
                             r"(?:\[[-−\d.,\s]+\]|[-−]?\d+(?:\.\d+)?))\s*[.,;]?\s*$")


# numbers with an operator between them, then `=` and a number: arithmetic written out in words
_WORDED_ARITH = re.compile(r"(?<![\w.])-?\d+(?:\.\d+)?\s*[-+*/×]\s*\(?-?\d+(?:\.\d+)?[^=]*=\s*-?\d")


def _detex(s: str) -> str:
    s = re.sub(r"\\(textbf|emph|textit|text|mathrm)\{([^{}]*)\}", r"\2", s)
    return s
