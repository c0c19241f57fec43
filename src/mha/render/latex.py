"""LaTeX view: a complete document for a handout (xelatex; ctexart for Chinese)."""

from __future__ import annotations

from ..explanation import Display, Explanation, Items, Matrix, Note, Para, Table
from .common import numbered
from .markdown import matrix_latex
from .mathread import spans

_SPECIAL = {"\\": r"\textbackslash{}", "&": r"\&", "%": r"\%", "#": r"\#", "_": r"\_", "{": r"\{",
            "}": r"\}", "~": r"\textasciitilde{}", "^": r"\textasciicircum{}", "$": r"\$"}


def escape(text: str) -> str:
    """Escape prose for LaTeX, leaving its $...$ math as it is."""
    out = []
    for s in spans(text):
        if s.math:
            out.append(f"${s.source}$")
        else:
            out.append("".join(_SPECIAL.get(ch, ch) for ch in s.source).replace("--", "-{}-"))
    return "".join(out)


def render_latex(ex: Explanation) -> str:
    zh = ex.lang == "zh"
    out = [
        r"\documentclass[11pt,a4paper]{" + ("ctexart" if zh else "article") + "}",
        r"\usepackage{amsmath,amssymb}",
        r"\usepackage[margin=2cm]{geometry}",
        r"\usepackage{fontspec}" if not zh else "",
        r"\usepackage{graphicx}",
        r"\setcounter{MaxMatrixCols}{30}",
        # a display wider than the text (--full on a wide layer) is scaled down to fit, never up
        r"\newsavebox{\mhabox}",
        r"\newcommand{\fitwidth}[1]{\sbox{\mhabox}{#1}\ifdim\wd\mhabox>\linewidth"
        r"\resizebox{\linewidth}{!}{\usebox{\mhabox}}\else\usebox{\mhabox}\fi}",
        r"\setcounter{secnumdepth}{0}",
        r"\setlength{\parindent}{0pt}\setlength{\parskip}{0.5em}",
        r"\title{" + escape(ex.title) + "}",
        r"\date{}",
        r"\begin{document}",
        r"\maketitle",
        r"\begin{center}\small " + escape(ex.subtitle) + r"\end{center}",
    ]
    for number, sec in numbered(ex.sections):
        cmd = "section" if sec.level <= 2 else "subsection"
        out.append(f"\\{cmd}{{{number}. {escape(sec.title)}}}")
        for b in sec.blocks:
            match b:
                case Note():
                    out += [r"\begin{quote}\itshape " + escape(b.text) + r"\end{quote}"]
                case Para():
                    out += [escape(b.text), ""]
                case Items():
                    out += [r"\begin{itemize}"] + [r"\item " + escape(i) for i in b.items] + [r"\end{itemize}"]
                case Display() | Matrix():
                    math = b.latex if isinstance(b, Display) else matrix_latex(b)
                    out += [r"\begin{center}\fitwidth{$\displaystyle", math, r"$}\end{center}"]
                case Table():
                    out += [r"\begin{center}", r"\begin{tabular}{" + "l" * len(b.header) + "}", r"\hline",
                            " & ".join(escape(h) for h in b.header) + r" \\ \hline"]
                    out += [" & ".join(escape(c) for c in row) + r" \\" for row in b.rows]
                    out += [r"\hline", r"\end{tabular}", r"\end{center}"]
    out.append(r"\end{document}")
    return "\n".join(out) + "\n"
