"""Markdown, with markdown-it-py (and mdit-py-plugins for $ and $$ math and tables)."""

from __future__ import annotations

import re

from ..numbers import MAGNITUDE_WORDS
from ..objects import Place
from .builder import _strip_heading
from .clipped import clipped_code
from .katexcopy import rendered_copies
from .common import DATA_URI, Segment, need, own_words
from .drawn import text_tokens
from .html import read_html
from .images import tex_of_image
from .listed import caption_quantity, listed_row, plain_item
from .script import has_commented_printout, has_printed_string, read_script
from .prose import prose_numbers
from .python import read_python
from .refence import blank_around, fence_in_place, is_fence, outside_fences
from .repl import only_printouts
from .statements import read_tokens
from .tables import HeaderCell, read_table
from .text import _IN_PROMPT, _is_table_row, read_text
from .worded import bare_list, named_by_words




# `\[0.28, 0.23, 0.49]`: a bracket escaped by an HTML-to-Markdown converter, closed by a bare `]` (TeX's display
# math `\[ ... \]` closes with `\]`); nested the same way, `\[\[0, 1], \[1, 0]]`
_ESCAPED_LIST = re.compile(r"\\\[((?=[-+−.,\s]*\d)[-+−\d.,\s]+)\\?\](?!\])")
_ESCAPED_NEST = re.compile(r"\\\[\s*(\\?\[[^\[\]]*\](?:\s*,\s*\\?\[[^\[\]]*\])*)\s*\](?!\])")
_NUMBERS_ONLY = re.compile(r"(?=\D*\d)[-+−\d.,\s\\\[\]]+")
# the same converters escape `_` and `*` in prose (`W\_Q2`, `0.73 \* [0, 1]`): outside TeX, plain characters
_ESCAPED_MARK = re.compile(r"(?<=\w)\\_(?=\w)|(?<=[\s\d\]])\\\*(?=\s*[\d\[(])")


def _unescaped(line: str) -> str:
    line = _ESCAPED_NEST.sub(lambda m: "[" + m.group(1).replace("\\[", "[").replace("\\]", "]") + "]"
                             if _NUMBERS_ONLY.fullmatch(m.group(1)) else m.group(0), line)
    line = _ESCAPED_LIST.sub(r"[\1]", line)
    return line if "$" in line else _ESCAPED_MARK.sub(lambda m: m.group(0)[1:], line)


def _escaped_brackets(text: str) -> str:
    r"""Unescape `\[1, 2]`, `\[1, 2\]` and `\[\[1, 2], \[3, 4]]` holding only numbers, outside fenced code, and
    `\_`, `\*` between words and numbers outside TeX."""
    out, fence = [], False
    for line in text.split("\n"):
        if line.lstrip().startswith(("```", "~~~")):
            fence = not fence
        out.append(line if fence or "\\" not in line else _unescaped(line))
    return "\n".join(out)


# a display whose backslashes were lost in a copy (`\[` and `\]` on lines of their own become `[` and `]`), as pages
# pasted from a chat answer show them: TeX inside, so a display, not a list
_BARE_OPEN = re.compile(r"^\s*\[\s*$")
_BARE_CLOSE = re.compile(r"^\s*\]\s*$")
_TEX_INSIDE = re.compile(r"\\[A-Za-z]+|[\^_]\{|=")
_BARE_SPAN = 8           # lines a bare display may hold


def _bare_displays(text: str) -> str:
    """Each `[` ... `]` pair on lines of their own around TeX, outside fenced code, as `$$` ... `$$`."""
    if "\n[" not in text and not text.startswith("["):
        return text
    lines = text.split("\n")
    outside = outside_fences(lines)
    k = 0
    while k < len(lines):
        if outside[k] and _BARE_OPEN.match(lines[k]):
            z = next((j for j in range(k + 1, min(len(lines), k + 2 + _BARE_SPAN)) if _BARE_CLOSE.match(lines[j])),
                     None)
            body = lines[k + 1:z] if z is not None else []
            if z is not None and body and all(x.strip() for x in body) and _TEX_INSIDE.search(" ".join(body)) and \
                    not any(x.lstrip().startswith(("[", "```")) for x in body):
                lines[k] = lines[k].replace("[", "$$")
                lines[z] = lines[z].replace("]", "$$")
                k = z
        k += 1
    return "\n".join(lines)


# "`W_Q`'s rows are `[0.1, 0, 0]`, `[0.5, 0.5, 0]` and `[0, 0, 1]`": a matrix given row by row in prose
_ROWS_ARE = re.compile(r"`?([A-Za-z][\w^]*)`?(?:'s|’s)\s+rows\s+are\s+((?:`\[[^`\[\]]+\]`(?:\s*,\s*|\s+and\s+|,\s+and\s+)?){2,})")


def _rows_in_prose(text: str) -> str:
    """Each matrix given row by row in a sentence becomes one inline literal (`W_Q = [[..], [..]]`) on its line."""
    def one(m: re.Match) -> str:
        rows = re.findall(r"`(\[[^`\[\]]+\])`", m.group(2))
        if len({r.count(",") for r in rows}) != 1:
            return m.group(0)
        return f"`{m.group(1)} = [{', '.join(rows)}]` "
    return _ROWS_ARE.sub(one, text) if "rows are" in text else text


_ROW_NOTE = re.compile(r"(?m)(?<=[\],)])[ \t]*#[^\n]*$")
_QUOTED = re.compile(r"^\s{0,3}>\s?")
_PRINTOUT = re.compile(r"^\s*(?:tensor\(\s*\[|array\(\s*\[|\[\[)")


def _quoted_printouts(text: str) -> str:
    """A printout pasted as a block quote, a row per quoted line and blank quoted lines between (`> tensor([[..],`,
    `>`, `> [..]])`), as a fenced output block: the blank lines around the quote hold the fences, so every line keeps
    its number, and the block pairs with the code block above it as a printout does."""
    if "\n>" not in text and not text.startswith(">"):
        return text
    lines = text.split("\n")
    outside = outside_fences(lines)
    k = 0
    while k < len(lines):
        if outside[k] and _QUOTED.match(lines[k]):
            end = k
            while end + 1 < len(lines) and _QUOTED.match(lines[end + 1]):
                end += 1
            body = [_QUOTED.sub("", x, count=1) for x in lines[k:end + 1]]
            if blank_around(lines, k, end) and any(_PRINTOUT.match(x) for x in body) and \
                    not any(is_fence(x) for x in body):
                lines[k:end + 1] = body
                k = fence_in_place(lines, k, end)
        k += 1
    return "\n".join(lines)


# a static site's KaTeX shortcode (Zola's `{% katex(block=true) %} ... {% end %}`, Hugo's `{{< katex >}} ...
# {{< /katex >}}`): TeX, as between dollars
_KATEX_SHORTCODE = re.compile(r"\{%\s*katex(?:\([^)]*\))?\s*%\}(.*?)\{%\s*end\s*%\}|"
                              r"\{\{<\s*katex[^>]*>\}\}(.*?)\{\{<\s*/katex\s*>\}\}", re.S)


def _katex_math(m: re.Match) -> str:
    body = m.group(1) if m.group(1) is not None else m.group(2)
    return f"$${body}$$" if "\n" in body or "block=true" in m.group(0) else f"${body}$"


# tags that only style the words they wrap (GitBook's `<mark style="...">**...**</mark>`): the words are the line's
_STYLE_TAG = re.compile(r"</?(?:mark|span|font|u|ins|small|big)(?:\s[^<>\n]*)?>", re.I)


def read_markdown(text: str, b: "Builder", line0: int = 1, cell: int | None = None) -> None:
    MarkdownIt = need("markdown_it", "markdown-it-py").MarkdownIt
    dollarmath_plugin = need("mdit_py_plugins.dollarmath", "mdit-py-plugins").dollarmath_plugin
    md = MarkdownIt("commonmark", {"html": True}).enable("table").use(
        dollarmath_plugin, allow_labels=True, allow_space=True, allow_digits=False, double_inline=True)
    text = _blank_front_matter(text) if cell is None and line0 == 1 else text
    text = _continued_items(_admonitions(_escaped_brackets(_rows_in_prose(clipped_code(DATA_URI.sub("data:,", text))))))
    text = _bare_displays(_quoted_printouts(_KATEX_SHORTCODE.sub(_katex_math, text)))
    text = _STYLE_TAG.sub("", _entity_ampersands(text))
    src_lines = text.split("\n")
    toks = md.parse(text)
    i = 0
    table: list[tuple[int, list[str]]] = []
    row: list[str] = []
    row_line = 0
    caption = ""
    while i < len(toks):
        t = toks[i]
        ln = (t.map[0] if t.map else 0) + line0
        if t.type == "heading_open":
            inline = toks[i + 1]
            b.heading(_strip_heading(inline.content), int(t.tag[1]), Place(ln, cell, "heading"))
            for c in inline.children or []:
                if c.type in ("math_inline", "math_inline_double"):
                    b.segment(Segment(c.content, ln, "math", cell))
            prose_numbers(b, inline.content, Place(ln, cell, "heading"))
            i += 3
            continue
        if t.type == "inline" and t.map:
            n0 = len(b.doc.arrays)
            _inline(t, src_lines, b, line0, cell)
            if _math_alone(t.content) and i >= 2 and toks[i - 2].type == "paragraph_close":
                _captioned(b, _last_line(caption), n0)     # "**Step 3 — softmax:**" over `$(0.32, 0.22, 0.46)$.`
            caption = t.content
        elif t.type == "math_block" or t.type == "math_block_label":
            n0 = len(b.doc.arrays)
            group = [t]
            while i + 1 < len(toks) and toks[i + 1].type in ("math_block", "math_block_label") and \
                    _GOES_ON.match(toks[i + 1].content.strip()):
                i += 1                   # `$$ α = softmax([..]) $$` then `$$ ≈ [0.18, ..] $$`: one equation
                group.append(toks[i])
            _math_block(group, src_lines, b, line0, cell)
            if i and toks[i - 1].type == "paragraph_close":
                _captioned(b, _last_line(caption), n0)
        elif t.type in ("fence", "code_block"):
            _fence(t, b, line0, cell, _last_line(caption) if i and toks[i - 1].type == "paragraph_close" else None)
        elif t.type in ("bullet_list_open", "ordered_list_open") and caption and toks[i - 1].type == "paragraph_close":
            listed_row(b, caption, _items(toks, i, line0), cell)     # "Weights:" over "- tea: 0.402" (listed.py)
        elif t.type == "html_block":
            read_html(t.content, b, line0 + t.map[0], cell)
        elif t.type == "tr_open":
            row, row_line = [], ln
        elif t.type in ("th_open", "td_open"):
            inline = toks[i + 1]
            content = _unescape_brackets(inline.content)
            row.append(HeaderCell(content) if t.type == "th_open" else content)
            i += 3
            continue
        elif t.type == "tr_close":
            table.append((row_line, row))
        elif t.type == "table_close":
            read_table(b, table, cell, caption if len(caption) < 200 else "")
            table = []
        i += 1


def _fence(t, b: "Builder", line0: int, cell: int | None, over: str | None) -> None:
    """A fenced or indented code block: a program, its printout, math, or a transcript; `over` is the last line
    of the paragraph right above it (a caption), None when none is."""
    start = t.map[0] + (1 if t.type == "fence" else 0)
    lang = (t.info or "").strip().split(" ")[0].lower()
    n = t.content.count("\n")
    seg_lines = [start + line0 + k for k in range(max(1, n + 1))]
    where, printout = _fence_where(t, lang)
    if where != "math" and any(_IN_PROMPT.match(x) for x in t.content.split("\n")):
        read_text(t.content, b, seg_lines[0], cell, seg_lines)     # a notebook pasted as a transcript
        return
    if where == "output" and over is not None:
        _captioned_items(b, over, t.content, seg_lines, cell)     # "分数是：" over "位置 1：1.2" lines
    if where == "code" and (has_printed_string(t.content) or has_commented_printout(t.content)):
        read_script(t.content, b, seg_lines[0], cell, read_markdown)     # print(w) over its printout
        return
    content = _fenced_bullets(t.content) if where == "output" else t.content
    if lang == "mermaid":
        content = _mermaid_labels(content)
    if where == "output":                  # "print(masked):" over its printout: the name it prints
        content = _PRINT_CAPTION.sub(lambda m: m.group(1) + " " * 6 + m.group(2) + " " + m.group(3), content)
    if printout:                           # `[ 4., 16., 12.], # scores of query 2`: a note on the row
        content = _ROW_NOTE.sub(lambda m: " " * len(m.group(0)), content)
    n0 = len(b.doc.arrays)
    b.segment(Segment(content, seg_lines[0], where, cell, seg_lines))
    new = b.doc.arrays[n0:]
    if where == "output" and over is not None and len(new) == 1 and \
            not new[0].labels and new[0].softmax_of is None and new[0].n_rows == 1:
        _captioned(b, over, n0)     # "Softmax produces:" over a text block of one bare `[..]`


def _fence_where(t, lang: str) -> tuple[str, bool]:
    """What a code block holds ("code", "output" or "math"), and whether it is a program's printout that parses
    as code."""
    where = "code" if lang in ("python", "py", "python3", "ipython", "ipython3", "pycon", "") else "output"
    if lang in ("text", "console", "output", "txt", "plaintext", "bash", "shell", "sh", "log", "out"):
        where = "output"
    if lang in _MISLABELLED and re.search(r"(?m)^\s*(?:import (?:torch|numpy)|from (?:torch|numpy)\b)",
                                        t.content) and read_python(t.content).parsed:
        where = "code"                     # Python under a ```c fence (blog editors pick the language)
    if where == "code" and lang == "":
        # (`t0·e1 = 0.40` parses too: a middle dot may continue a Python name, but no program names so)
        if not read_python(t.content).parsed or not re.search(r"=|print|import", t.content) or \
                _worked_sums(t.content) or re.search(r"(?m)^\s*\w+[·⋅]\w+\s*=", t.content):
            where = "output"
    printout = where == "code" and only_printouts(t.content)
    if printout:
        where = "output"                   # tensor([[...]], dtype=torch.float64) parses, but was printed
    if lang in ("latex", "tex", "math"):
        where = "math"
    return where, printout


# a list written inside a plain fence ("- √64 = 8" under "If head_size = 64:"): the bullet is no minus sign of the
# item's formula (one followed by a digit or a bracket, "- 4", "- [0.1, 0.2]", may be a term going on from the line
# above, and "+ [..]" always is: continued.py joins them)
_FENCED_BULLET = re.compile(r"(?m)^([ \t]*)[-*•](\s+)(?=[^\s\d.\[(])")
_NUMBER_ITEM = re.compile(r"^([ \t]*)[-*•](\s+)(?=\d)")


def _fenced_bullets(content: str) -> str:
    """The bullets of a list written in a plain fence turned into spaces; one before a number too where the line
    above is a caption (`Layer Norms (2):` over `  - 2 × (512 + 512) = 2,048`) or an item of the same list."""
    raw = content.split("\n")
    lines = _FENCED_BULLET.sub(r"\1 \2", content).split("\n")
    for k in range(1, len(lines)):
        m = _NUMBER_ITEM.match(lines[k])
        above = next((x for x in reversed(raw[:k]) if x.strip()), "")
        if m and (above.rstrip().endswith((":", "：")) or re.match(re.escape(m.group(1)) + r"[-*•]\s+\S", above)):
            lines[k] = m.group(1) + " " + m.group(2) + lines[k][m.end():]
    return "\n".join(lines)


# the quoted text of a Mermaid diagram's node (`E["512 ÷ 8 = 64 per head"]`, `(("..."))`, `{"..."}`) or edge
# (`-->|"..."|`): what the reader sees drawn
_MERMAID_TEXT = re.compile(r'[\[({>|]+\s*"([^"]*)"\s*[\])}|]+')


def _mermaid_labels(content: str) -> str:
    """A Mermaid diagram as the texts it draws, each line keeping only its nodes' and edges' quoted labels (one
    statement each; a `<br/>` in a label parts two lines of it): the syntax around them is no arithmetic."""
    out = []
    for line in content.split("\n"):
        texts = [re.sub(r"<br\s*/?>", " ; ", x) for x in _MERMAID_TEXT.findall(line)]
        out.append(" ; ".join(texts))
    return "\n".join(out)


# fences whose language a blog's editor set by default: what they hold is Python when it imports torch or numpy and
# parses as Python (which C, C++ or Java hardly does)
_MISLABELLED = {"c", "cpp", "c++", "java", "javascript", "js", "cs", "csharp", "go", "shell", "bash", "sh", "r"}


def _worked_sums(content: str) -> bool:
    """Lines `Nature: 0.011 + 0.198 + 0.051 = 0.270` only: Python would parse each as an annotated assignment, but
    an annotation that is arithmetic on numbers is a label and a sum written out, not code."""
    import ast
    try:
        body = ast.parse(content).body
    except (SyntaxError, ValueError, RecursionError, MemoryError):
        return False
    numeric = (ast.Constant, ast.BinOp, ast.UnaryOp, ast.operator, ast.unaryop)
    return bool(body) and all(isinstance(n, ast.AnnAssign) and n.value is not None and
                              all(isinstance(x, numeric) for x in ast.walk(n.annotation)) for n in body)


def _last_line(caption: str) -> str:
    """The line of a paragraph right above what follows it (where its colon is)."""
    return caption.strip().split("\n")[-1]


def _captioned_items(b, line: str, content: str, seg_lines: list[int], cell: int | None) -> None:
    """A sentence ending in a colon over a text block of `name: value` lines only, one per token: one row of the
    quantity the sentence names (listed.listed_row), as a list under it would be."""
    rows = content.rstrip("\n").split("\n")
    if len(rows) < 2 or len(rows) > len(seg_lines) or caption_quantity(line) is None:
        return
    items = [(seg_lines[k], m.group("item")) for k, x in enumerate(rows) if (m := plain_item(x)) is not None]
    if len(items) == len(rows):
        listed_row(b, line, items, cell)


def _entity_ampersands(text: str) -> str:
    """`\\begin{bmatrix} 1.25 &amp; 2.4 \\\\ ...`: a page exported with its math escaped as HTML writes every cell
    separator as `&amp;`; inside math it is the `&` it renders as (`&` and four spaces, so that what follows on the
    line keeps its place)."""
    if "&amp;" not in text or "\\begin{" not in text:
        return text
    return re.sub(r"\$[^$]*\$|\\begin\{(\w+\*?)\}.*?\\end\{\1\}",
                  lambda m: m.group(0).replace("&amp;", "&    "), text, flags=re.S)


def _math_alone(content: str) -> bool:
    """A paragraph that is one inline math span and nothing else but its closing stop."""
    return bool(re.fullmatch(r"\s*\$[^$]+\$\s*[.,;]?\s*", content))


_PRINT_CAPTION = re.compile(r"(?m)^([ \t]*)print\(([A-Za-z_][\w.]*)\)([ \t]*:)")


def _captioned(b, line: str, n0: int) -> None:
    """"So the attention weights are approximately:" over a display holding one bare vector or matrix: the
    sentence names it, as a reader takes it (listed.caption_quantity: weights, scores, exponentials only)."""
    new = b.doc.arrays[n0:]
    named = caption_quantity(line) if len(new) == 1 and not new[0].label else None
    if named is not None:
        new[0].label, new[0].labels = named[0], [named[0]]


def _items(toks: list, i: int, line0: int) -> list[tuple[int, str]]:
    """The one-paragraph items of the list that opens at token i, with their lines; none when a list nests."""
    out, depth = [], 0
    for t in toks[i:]:
        if t.type in ("bullet_list_open", "ordered_list_open"):
            depth += 1
            if depth > 1:
                return []
        elif t.type in ("bullet_list_close", "ordered_list_close"):
            break
        elif t.type == "inline" and t.map:
            out.append((t.map[0] + line0, t.content))
    return out


def _begin_outside_math(t) -> bool:
    """Is an environment (\\begin{...}) written outside the $...$ spans the math plugin found?  Inside them (a
    matrix in `$X = \\begin{bmatrix} ... \\end{bmatrix}$` over several lines) the plugin keeps the TeX as written."""
    inside = sum(c.content.count("\\begin{") for c in (t.children or [])
                 if c.type in ("math_inline", "math_inline_double"))
    return t.content.count("\\begin{") > inside


def _inline(t, src_lines: list[str], b: "Builder", line0: int, cell: int | None) -> None:
    first = t.map[0] + line0
    # `Q=[2, 1]Q=[2,\,1]`: math copied from a rendered page, its flattened glyphs dropped, its TeX read as math
    content, copied = rendered_copies(t.content)
    for k, tex in copied:
        b.segment(Segment(tex, first + k, "math", cell))
    if (re.search(r"\\\[|\\\(|\$\$", content) or _begin_outside_math(t)) or \
            any(_is_table_row(x) for x in content.split("\n")):
        # MathJax delimiters that CommonMark would unescape: read the raw lines as text with TeX
        raw = rendered_copies("\n".join(src_lines[t.map[0]:t.map[1]]))[0] if copied else \
            "\n".join(src_lines[t.map[0]:t.map[1]])
        read_text(raw, b, first, cell)
        return
    # prose first: the words of a line set the context of its math ("差别只来自舍入", "Head 2")
    lines = content.split("\n")
    seg = Segment(content, first, "prose", cell, [first + k for k in range(len(lines))])
    for k, text_line in enumerate(lines):
        if text_line.strip():
            b.line(text_line, Place(first + k, cell, "prose"))
            prose_numbers(b, text_line, Place(first + k, cell, "prose"))
    line = first
    kids = list(t.children or [])
    said = ""                                 # the words since the last math span (line breaks included)
    before = ("", "")                         # the words and the math of the span before
    for i, c in enumerate(kids):
        if c.type in ("softbreak", "hardbreak"):
            line += 1
        elif c.type == "text":
            said += c.content
        elif c.type in ("math_inline", "math_inline_double"):
            if re.match(r"\s*(?:\\[,;: !]\s*)*(?:=|≈|~|\\approx|\\sim)", c.content) and own_words(said):
                b.worded_math.add((line, cell))    # "identical shape $= 416{,}256$": the value of those words
                #                                    ("dominate by $\\sim 40\\times$": a fold of those words)
            named = named_by_words(said, c.content, before)      # "the weights are about $(0.42, 0.16, 0.42)$"
            shown = f"[{c.content}]" if named and bare_list(c.content) else c.content    # "Dot products: $1, 0, 0.5$"
            b.segment(Segment((f"{named} = " if named else "") + shown + _unit_after(kids[i + 1:i + 2]), line,
                              "math", cell))
            line += c.content.count("\n")
            before = (said, c.content)
            said = ""
        elif c.type == "code_inline" and (m := _CODED_MATH.fullmatch(c.content)):
            # `$e^{0.58} \approx 1.79$`: inline math a Hugo/blogdown page wraps in a code span to keep it from
            # Markdown; the page renders it as math
            b.segment(Segment(m.group(1), line, "math", cell))
            before = (said, m.group(1))
            said = ""
        elif c.type == "image":
            tex = tex_of_image(str(c.attrs.get("src", "")))      # a formula drawn by a TeX image service
            if tex:
                b.segment(Segment(tex, line, "math", cell))
    # numbers in prose outside math and code spans: "the weights are [0.2, 0.5, 0.3]"
    plain = _blank_spans(content)
    if re.search(r"\d", plain):
        toks = text_tokens(plain)
        read_tokens(toks, Segment(plain, first, "prose", cell, seg.line_map), b.doc, b.ctx, text_mode=True)


# a code span that holds one piece of inline math and nothing else
_CODED_MATH = re.compile(r"\$([^$`]*\d[^$`]*)\$")


# a magnitude written just after the closing $ ("$8192^2 = 67$M 要素", "$= 1.2$ billion"): the math's last number is
# in that unit, so it travels into the math as \text{...}, where it is read as the result's unit
_UNIT_AFTER = re.compile(r"\s?([KMBGT]|[kK]i?B|[MGT]i?B|[万亿千兆]|" + MAGNITUDE_WORDS + r")(?![A-Za-z])")


def _unit_after(nxt: list) -> str:
    if not nxt or nxt[0].type != "text":
        return ""
    m = _UNIT_AFTER.match(nxt[0].content)
    return f" \\text{{{m.group(1)}}}" if m else ""


_FRONT_END = re.compile(r"^(?:---|\.\.\.)\s*$")


def _blank_front_matter(text: str) -> str:
    """A static site's YAML front matter (`---`, `published: 2025-09-03T23:59:36+08:00`, `---`) is metadata, not
    prose: its lines are blanked (the line numbers stay), so that a time zone is no sum and a date no claim."""
    if not text.startswith("---"):
        return text
    lines = text.split("\n")
    if lines[0].strip() != "---":
        return text
    end = next((k for k in range(1, min(len(lines), 200)) if _FRONT_END.match(lines[k])), None)
    if end is None or not all(re.match(r"^(?:[\w\-\"' ]+:|\s+\S|\s*-\s|\s*#|\s*$)", x) for x in lines[1:end]):
        return text               # no closing line, or a line that is no YAML: a rule, then prose
    return "\n" * (end + 1) + "\n".join(lines[end + 1:])


# a list item that is only the next step of the item above: "- = [0.67, 1.34] + [0.99, 1.32]"
_GOES_ON_ITEM = re.compile(r"^([ \t]*)([-*+])([ \t]+)(?=(?:=(?!=)|≈)\s*[\[(\d.−-])")
_ARITHMETIC_ITEM = re.compile(r"^[ \t]*(?:[-*+][ \t]+)?.*?=.*\[.*[\])\d][ \t]*$")


def _continued_items(text: str) -> str:
    """Items that go on with the item above (`- output = 0.67 * [1, 2] + 0.33 * [3, 4]` over `- = [0.67, 1.34] +
    [0.99, 1.32]` over `- = [1.66, 2.66]`) lose their bullet, so that the item's lines are one derivation, as a
    reader takes them: the bullet becomes spaces (the line keeps its length) and the line is a continuation line of
    the item above, which the plain-text reader joins (continued.py)."""
    if "= " not in text and "≈" not in text:
        return text
    lines = text.split("\n")
    for k in range(1, len(lines)):
        m = _GOES_ON_ITEM.match(lines[k])
        if m and "[" in lines[k] and _ARITHMETIC_ITEM.match(lines[k - 1]) and \
                (lines[k - 1].lstrip()[:1] in "-*+" or _GOES_ON_ITEM.match(lines[k - 1]) or
                 lines[k - 1].startswith(m.group(1) + "  ")):
            lines[k] = m.group(1) + " " * (len(m.group(2)) + len(m.group(3))) + lines[k][m.end():]
    return "\n".join(lines)


# an admonition or a tab of MkDocs and Python-Markdown: `!!! note "Title"`, `??? success "Solution"`, `=== "Tab"`
_ADMONITION = re.compile(r"^([ \t]*)(?:!!!|\?\?\?\+?|===)[ \t]+\S")


def _admonitions(text: str) -> str:
    """The body of an admonition (`??? success "Solution"` over lines indented by four spaces) is Markdown, not an
    indented code block as CommonMark reads it: its lines lose the four spaces (the line numbers stay), nested
    admonitions one level at a time."""
    if "!!!" not in text and "???" not in text and "===" not in text:
        return text
    lines = text.split("\n")
    for _ in range(3):
        changed = False
        k = 0
        while k < len(lines):
            m = _ADMONITION.match(lines[k])
            if m is None:
                k += 1
                continue
            body = m.group(1) + "    "
            j = k + 1
            while j < len(lines) and (lines[j].startswith(body) or not lines[j].strip()):
                j += 1
            while j > k + 1 and not lines[j - 1].strip():
                j -= 1
            for x in range(k + 1, j):
                if lines[x].startswith(body):
                    lines[x] = m.group(1) + lines[x][len(body):]
                    changed = True
            lines[k] = ""                    # the marker line itself is no prose
            k = j
        if not changed:
            break
    return "\n".join(lines)


def _unescape_brackets(cell: str) -> str:
    """A table cell's Markdown-escaped brackets (`\\[10, 20, 30]`, written so that no link is made) are brackets,
    not the TeX display delimiter \\[ ... \\]."""
    if "\\[" in cell and "\\]" not in cell:
        return cell.replace("\\[", "[")
    return cell


def _blank_spans(content: str) -> str:
    """Prose with $math$ blanked (same length, newlines kept); code spans stay (they are text)."""
    def blank(m: re.Match) -> str:
        return "".join("\n" if ch == "\n" else " " for ch in m.group(0))
    s = re.sub(r"\$\$.+?\$\$|\$[^$\n]+?\$", blank, content, flags=re.S)
    # **q = [1, 1]**, __[0.2, 0.8]__: bold is no part of the numbers (2**0.5, a power, is left alone; a run-in
    # heading in bold, **Softmax.**, keeps its marks: they end it)
    s = re.sub(r"(?<![\w)*])(\*\*|__)(?=\S)([^\n]+?)(?<=\S)\1(?![\w(*])",
               lambda m: "  " + m.group(2) + "  " if re.search(r"\d", m.group(2)) else m.group(0), s)
    # `w=tensor([0.05, 0.21, 0.74]` quoted without its ")": the closing backtick closes the call (same length)
    s = re.sub(r"`([^`\n]*\b(?:tensor|array)\(\[[^`\n]*\])`",
               lambda m: " " + m.group(1) + (")" if m.group(1).count("(") == m.group(1).count(")") + 1 else " "), s)
    return s.replace("`", " ")


# a display that goes on from the one before it: it starts with the relation ("≈ [0.18, ...]", "= 0.73")
_GOES_ON = re.compile(r"^(?:=|≈|\\approx\b|\\simeq\b|&\s*(?:=|\\approx\b))")


def _math_block(group: list, src_lines: list[str], b: "Builder", line0: int, cell: int | None) -> None:
    """A display (or displays that go on from one another, written as one equation over several $$ blocks): one
    math segment, each of its lines mapped to its own line of the file."""
    bodies, lines = [], []
    for t in group:
        raw = "\n".join(src_lines[t.map[0]:t.map[1]])
        content = t.content
        key = content.strip()[:30]
        idx = raw.find(key) if key else -1
        first = t.map[0] + (raw[:idx].count("\n") if idx >= 0 else 0)
        n = content.strip().count("\n") + 1
        bodies.append(_unwrapped_style(content.strip()))
        lines += [first + line0 + k for k in range(n)]
    b.segment(Segment("\n".join(bodies), lines[0], "math", cell, lines))


_STYLE_GROUP = re.compile(r"^\{\s*\\(?:textstyle|displaystyle|scriptstyle)\b")


def _unwrapped_style(body: str) -> str:
    """`$$ {\\textstyle \\begin{aligned} .. \\end{aligned}} $$`: a display wrapped whole in a group that only sets
    its style; the group and the style become spaces (lines and columns kept), so its equations are read."""
    m = _STYLE_GROUP.match(body)
    if m is None or not body.endswith("}"):
        return body
    depth = 0
    for k, ch in enumerate(body):
        if k and body[k - 1] == "\\":
            continue                      # \{ and \}: braces printed, not a group
        depth += (ch == "{") - (ch == "}")
        if depth == 0:
            if k != len(body) - 1:
                return body               # the group closes before the end: not a wrapper of the whole display
            break
    return " " * m.end() + body[m.end():-1] + " "
