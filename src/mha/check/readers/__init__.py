"""One reader per format, each on a maintained parser, all feeding one `Builder` (builder.py).

    markdown.py   markdown-it-py (+ mdit-py-plugins: $ and $$ math, tables)
    latex.py      pylatexenc's node tree (math, sections, tabular, verbatim)
    notebook.py   nbformat: markdown cells, code cells, text outputs
    html.py       html.parser: text, tables, <pre>, MathJax / KaTeX TeX source, MathML
    text.py       TeX delimiters, tables, prose, headings; notebooks pasted as text
    python.py     Python source (ast, never run) and its printouts

Shared by them: tokens.py (text and LaTeX as tokens), statements.py (tokens -> arrays, arithmetic, shapes,
labels), expr.py and arrays.py (the arithmetic and the bracketed arrays inside a statement), drawn.py (matrices
drawn in plain text), softmaxdrawn.py (a softmax drawn as an arrow between two rows), tables.py,
prose.py (numbers stated in words), common.py.
"""

from __future__ import annotations

import re

from ..objects import Document
from .builder import Builder
from .calls import name_call_arguments
from .namedterms import name_vectors_in_terms
from .closed import read_closed
from .dropvalues import mark_dropped_copies
from .entries import index_brackets
from .html import read_html
from .latex import read_latex
from .markdown import read_markdown
from .notebook import read_notebook
from .repl import label_echoes
from .script import looks_like_script, read_script
from .scalarrows import scalar_rows
from .checkmarks import drop_ticked_references
from .headings import label_from_headings
from .softmaxbullets import tie_bullet_softmax
from .softmaxcolumns import tie_column_softmax
from .softmaxdrawn import tie_drawn_softmax, tie_open_softmax, tie_softmax_example
from .softmaxsaid import (sigma_as_softmax, tie_arrow_softmax, tie_io_softmax, tie_said_softmax,
                          tie_step_rows, tie_table_softmax)
from .text import _unnumber, read_text
from .listtotal import close_list_totals
from .stringlines import string_lines
from .typst import typst_to_markdown

FORMATS = ("md", "tex", "ipynb", "html", "txt", "typ")


_SCRIPT_PAGES = (".js", ".mjs", ".jsx", ".ts", ".tsx", ".vue", ".svelte")
_HTML_TAGS = re.compile(r"<(?:td|th|tr|p|div|span|li|h[1-6]|table|br)\b", re.I)


def sniff(text: str, name: str = "") -> str:
    """The format from the file name, else from the content."""
    low = name.lower()
    head = text.lstrip()[:2000]
    if low.endswith((".txt", ".json")) and head.startswith("{") and '"cells"' in text[:200000] and \
            '"nbformat"' in text:
        return "ipynb"          # a notebook kept under another name (Sphinx's `_sources/…/x.ipynb.txt`, a .json)
    for ext, fmt in ((".ipynb", "ipynb"), (".tex", "tex"), (".html", "html"), (".htm", "html"),
                     (".md", "md"), (".markdown", "md"), (".typ", "typ"), (".txt", "txt"), (".text", "txt"),
                     (".py", "py")):
        if low.endswith(ext):
            return fmt
    if head.startswith("{") and '"cells"' in text[:200000] and '"nbformat"' in text:
        return "ipynb"
    if low.endswith(_SCRIPT_PAGES) and len(_HTML_TAGS.findall(text[:200000])) >= 8:
        return "html"           # a lesson kept as HTML in a script's template strings (`export default \`<p>…\``)
    if re.search(r"<!DOCTYPE html|<html[\s>]|<body[\s>]", head, re.I):
        return "html"
    if re.search(r"\\documentclass|\\begin\{document\}", head):
        return "tex"
    if re.search(r"^#{1,6} |^```|^\|.*\|\s*$", text[:20000], re.M):
        return "md"
    return "txt"


# a date or a clock time (a log line's 2023-10-11 20:00:58.223337, "Time: 10:30:05"): no number of the example
_WHEN = re.compile(r"\b(?:19|20)\d\d-[01]\d-[0-3]\d(?:[ T][0-2]\d:[0-5]\d(?::[0-5]\d(?:[.,]\d+)?)?)?\b|"
                   r"(?<![\d:.])[0-2]?\d:[0-5]\d:[0-5]\d(?:\.\d+)?(?![\d:])")


# a heading's or a list item's ordinal ("### Step 3:", "2.", "第3步") is no number of the computation
_ORDINAL = re.compile(r"^\s*(?:#+\s*)?(?:(?:step|stage|part|schritt|paso|étape|etapa|bước|ステップ)\s*\d+|第\s*\d+\s*步|"
                      r"\d+\s*[.)、])\s*[:：.]?", re.I)
_SOFTMAX_WORD = re.compile(r"softmax|ソフトマックス|소프트맥스|归一化", re.I)
# a line that ends by naming the softmax of what it holds ("\\(S=[0, 0, 5]\\), Softmax:", "scores [..] → softmax:")
_ENDS_IN_SOFTMAX = re.compile(r"[\d\]]\W{0,6}(?:,|→|->|then)?\s*(?:apply(?:ing)?\s+)?(?:the\s+)?softmax\s*[:：]\s*$",
                              re.I)
# "(scores -> weights that sum to 1)": the softmax's property, said in words, is no number of the example
_TO_ONE = re.compile(r"(?i)\b(?:sums?|add(?:s|ing)?(?:\s+up)?|totals?)\s+to\s+[`$*]{0,2}1(?:\.0+)?[`$*]{0,2}(?![\d.])|"
                     r"和为\s*1(?:\.0+)?|总和为\s*1(?:\.0+)?")     # ("sum to 1.0", "sums to `1.0`": no number of it)
_SCALE_WORDS = re.compile(r"√|\bsqrt|square[ -]root|平方根|\bdivided\s+by|除以", re.I)
_OTHER_FACTOR = re.compile(r"temperature|\bT\s*=|温度|dropout|mask|掩码|bias", re.I)


# zero-width characters an editor leaves at line starts (Typora's U+200B before a tab): invisible, and no text
_INVISIBLE = re.compile("[\u200b\u200c\u200d\u2060\ufeff]")
# a line of a box frame around a named bracket list (not the side of a matrix drawn with box characters, which
# holds no brackets): its two rules
_FRAMED = re.compile(r"(?m)^([ \t]*)│(\s[^│\n]*\[[^│\n]*\][^│\n]*?)│(?=[ \t]|$)")
# ... or around a line of arithmetic (`│  W_query: 768 × 768 + 768 = 590,592      │`): the frame again, no matrix side
_FRAMED_SUM = re.compile(r"(?m)^([ \t]*)│(\s[^│\n]*\d[^│\n]*=[^│\n]*\d[^│\n]*?)│[ \t]*$")


# a figure, table, equation or section named with its number: the number says where, not how much
_REFERENCE = re.compile(r"(?<![A-Za-z\u00c0-\u024f\u1e00-\u1eff])((?:图|(?<![列代发外])表|図|그림|"
                        r"(?i:figures?|figs?\.|tables?|eqs?\.|equations?|listings?|sections?|sec\.|chapters?|"
                        r"abbildung|abb\.|tabelle|figura|tabla|tabela|tableau|hình|bảng|şekil|tablo|gambar|tabel|"
                        r"рис\.|рисунок|таблица))\s*)\(?[1-9]\d*(?:[.\-]\d+)*\)?(?![\d.,]*\d)")


# TensorFlow's printout of a tensor: `tf.Tensor(` then the values (on the next line, or after it), closed by its shape
# and dtype; read as `= [[..]]`, so the caption before it names the values as `Scores = [[..]]` does
_TF_OPEN = re.compile(r"\btf\.Tensor\(")
_TF_CLOSE = re.compile(r"(?<=[\]\d.])\s*,\s*shape=\([\d,\s]*\),\s*dtype=[\w.]+\)")


# coloured circles and squares, a pointing hand: markers an author puts before a value (`= 🔴 **0.466**`), no words
_MARKERS = re.compile("[\U0001F534\U0001F535\U0001F7E0-\U0001F7EB\u26AA\u26AB\u2B1B\u2B1C\U0001F449]\uFE0F?")


def read_document(text: str, fmt: str) -> Document:
    text = _INVISIBLE.sub("", text)
    if fmt == "typ":                  # Typst: written over into Markdown and LaTeX, line for line (typst.py)
        text, fmt = typst_to_markdown(text), "md"
    if fmt in ("py", "txt") and (spelled := string_lines(text)) is not None:
        text, fmt = spelled, "txt"    # a script that builds a page from one-line string literals (stringlines.py)
    if "tf.Tensor(" in text:          # `Scores tf.Tensor(` over `[[..]], shape=(5, 5), dtype=float32)`: TF prints
        text = _TF_CLOSE.sub("", _TF_OPEN.sub("= ", text))
    if _MARKERS.search(text):
        text = _MARKERS.sub(" ", text)
    if "{.}" in text or "{,}" in text:  # `1{.}135`: TeX's spacing-free decimal point, a plain one to the reader
        text = re.sub(r"(?<=\d)\{([.,])\}(?=\d)", r"\1", text)
    if "[[" in text:
        text = _row_labels(text)      # "q1 [[1.4, 1.25], / q2  [1.8, 1.88]]" under "k1  k2": the names blanked
    if "│" in text:                   # "│ K₁: [0.2, 0.7, 0.1, 0.4]      │ ← remark": a drawn frame, blanked in place
        text = _FRAMED.sub(lambda m: m.group(1) + " " + m.group(2) + " ", text)
        text = _FRAMED_SUM.sub(lambda m: m.group(1) + " " + m.group(2) + " ", text)
    if "]  " in text or "] [" in text:
        text = _bracket_cells(text)   # `study  →  [  2  ]  [  4  ]  [  5  ]`: a table row, each cell boxed
    if _WHEN.search(text):
        text = _WHEN.sub(lambda m: " " * len(m.group(0)), text)     # blanked, every place kept
    text = sigma_as_softmax(text)     # "softmax(v) = σ(v)", then σ([1.0, 1.1]) = [...] (softmaxsaid.py)
    if _REFERENCE.search(text):       # "与图 3.10 中显示的数值一致", "see Table 2.1": numbers of figures, no values
        text = _REFERENCE.sub(lambda m: m.group(1) + " " * (len(m.group(0)) - len(m.group(1))), text)
    if _QUOTED_LIST.search(text):     # ['0.6590', '0.2424', '0.0986']: numbers formatted as strings, printed
        text = _QUOTED_LIST.sub(lambda m: m.group(0).replace("'", " "), text)
    if fmt in ("md", "txt", "html"):
        text = name_call_arguments(text)     # `attention([[1,0]], [[1,0],[0,1]], [[2,1],[0,3]])`: Q, K and V given
        text = name_vectors_in_terms(text)   # `0.6652 × V[1] + ...` after `V[1] = [1, 0]`: the vector itself
    b = Builder(fmt)
    b.source = text.split("\n") if fmt != "ipynb" else []
    match fmt:
        case "md":
            read_markdown(text, b)
        case "tex":
            read_latex(text, b)
        case "ipynb":
            read_notebook(text, b)
        case "html":
            read_html(text, b)
        case _ if fmt == "py" or looks_like_script(text):
            read_script(text, b, markdown=read_markdown)     # printouts in comments (.py, or saved as text)
        case _:
            read_text(_unnumber(text), b)
    doc = b.finish()
    close_list_totals(doc)            # `a -> 3, b -> 9, c -> 3 = 15`: the total of the list, not "3 = 15"
    if "✓" in text or "✔" in text:    # `= 17.44 ≈ 16.33 ✓`: a reference given before, ticked (checkmarks.py)
        drop_ticked_references(doc, text.split("\n"))
    scalar_rows(doc, text if fmt != "ipynb" else None)   # q1 · k1 = 112, q1 · k2 = 96: one query's scores
    doc.n_lines = text.count("\n") + 1
    doc.lines = text.split("\n") if fmt != "ipynb" else []
    if fmt != "ipynb":          # "# 经过 Softmax 变成：" between raw scores and their weights (claims/softmax.py)
        for k, line in enumerate(text.split("\n")):
            if not line.strip() or line.strip().startswith(("```", "~~~")) or line.strip() in ("$$", "\\[", "\\]"):
                doc.softmax_said[k + 1] = "blank"       # a blank line or a code fence separates nothing
            elif _ENDS_IN_SOFTMAX.search(line):
                doc.softmax_said[k + 1] = "softmax_after"     # "S = [0, 0, 5], Softmax:": the weights come next
            elif re.search(r"\d", _ORDINAL.sub("", _TO_ONE.sub("", line))):
                # "divided by the square root of 64, which is 8": a number that is the scale, said as such
                doc.softmax_said[k + 1] = "scale" if _SCALE_WORDS.search(line) and not _OTHER_FACTOR.search(line) \
                    else "number"
            elif _SOFTMAX_WORD.search(line):
                doc.softmax_said[k + 1] = "softmax"
    index_brackets(doc)
    read_closed(doc, text)
    label_echoes(doc, text)
    label_from_headings(doc, text)
    tie_drawn_softmax(doc, text)
    tie_softmax_example(doc, text)        # "输入：[..]" over "输出：[..]" under the softmax's formula
    tie_open_softmax(doc, text)
    tie_said_softmax(doc, text)
    tie_arrow_softmax(doc, text)
    tie_bullet_softmax(doc, text)     # scores in a list item, `softmax → [...]` nested under it (softmaxbullets.py)
    tie_table_softmax(doc, text)
    tie_column_softmax(doc, text)     # `| score | softmax weight |` columns, one row per key (softmaxcolumns.py)
    tie_io_softmax(doc, text)
    tie_step_rows(doc, text)          # `raw: [...]` over `softmax: [...]` (softmaxsaid.py)
    _drop_what_ifs(doc)
    mark_dropped_copies(doc)
    return doc


def _drop_what_ifs(doc: Document) -> None:
    """Arrays on a line that says they are what a slip would give ("if you got [0.73, 0.27] you forgot to divide",
    "without the √2 the weights would be [...]"): not the example's values, so neither claims nor evidence for the
    configuration (the arithmetic written on such a line is still judged as arithmetic)."""
    lines = {(h.place.cell, h.place.line) for h in doc.hints if h.kind == "whatif"}
    if not lines:
        return
    kept = [a for a in doc.arrays if (a.place.cell, a.line) not in lines]
    if len(kept) < len(doc.arrays):
        doc.set_arrays(kept)


_CELL = r"\[\s*(?:-?\d+(?:\.\d+)?|-?∞|-inf)\s*\](?!\()"
_BOXED_ROW = re.compile(r"(?<![\[\w])" + _CELL + r"(?:[ \t]+" + _CELL + r")+(?![\w\[])")


def _bracket_cells(text: str) -> str:
    """A table drawn with each cell in brackets of its own (`please → [ 1 ]  [ 0 ]  [ 1 ]  ← Q·K`, `[0.57] [0.43]
    [0.00]`): the brackets are blanked, so the row reads as a table's row of numbers, not as one-number vectors.
    Three cells or more, or two with decimals (a citation `[1] [2]` is two integers)."""
    def blank(m: re.Match) -> str:
        cells = re.findall(_CELL, m.group(0))
        if len(cells) < 3 and not all("." in c or "∞" in c or "inf" in c for c in cells):
            return m.group(0)
        return m.group(0).replace("[", " ").replace("]", " ")
    return _BOXED_ROW.sub(blank, text)


# ['0.6590', '0.2424', '0.0986']: numbers formatted as strings, then printed as a list
_QUOTED_LIST = re.compile(r"\[\s*'-?\d+(?:\.\d+)?'(?:\s*,\s*'-?\d+(?:\.\d+)?')+\s*\]")
_ROW_NAMED = re.compile(r"^(\s*)([A-Za-z])_?(\d{1,2})(\s+)(\[.*)$")
_HEADER_NAMES = re.compile(r"^\s*(?:([A-Za-z])_?1)(?:\s+\1_?\d{1,2})+\s*$")


def _row_labels(text: str) -> str:
    """A matrix printed with its rows named (`q1 [[1.4, 1.25, 1.22],`, `q2  [1.8, ...]`, ...) and, on the line
    above, its columns (`k1   k2   k3`): the names are blanked in place, so the rows read as one matrix under the
    caption above them.  Only rows named by one letter numbered 1, 2, ... in order, the first opening `[[`."""
    lines = text.split("\n")
    k = 0
    while k < len(lines):
        m = _ROW_NAMED.match(lines[k])
        if not (m and m.group(3) == "1" and m.group(5).startswith("[[")):
            k += 1
            continue
        letter, run = m.group(2), [k]
        while run[-1] + 1 < len(lines):
            n = _ROW_NAMED.match(lines[run[-1] + 1])
            if not (n and n.group(2) == letter and int(n.group(3)) == len(run) + 1):
                break
            run.append(run[-1] + 1)
        if len(run) >= 2 and "]]" in lines[run[-1]]:
            for i in run:
                r = _ROW_NAMED.match(lines[i])
                lines[i] = r.group(1) + " " * (len(lines[i]) - len(r.group(1)) - len(r.group(5))) + r.group(5)
            if k and _HEADER_NAMES.match(lines[k - 1]):
                lines[k - 1] = " " * len(lines[k - 1])
        k = run[-1] + 1
    return "\n".join(lines)
