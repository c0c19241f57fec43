"""Typst (.typ): its markup and its math written over into Markdown and LaTeX, line for line, so that the Markdown
reader reads a Typst page as it reads any other, and every number keeps its line.

    = Scores                     ->  # Scores
    $ A = mat(0.67, 0.33;        ->  $$ A = \\begin{bmatrix} 0.67 & 0.33 \\\\
              0.11, 0.89) $      ->            0.11 & 0.89 \\end{bmatrix} $$
    $sqrt(d_k) approx 1.41$      ->  $\\sqrt{d_k} \\approx 1.41$
    #table(columns: 2, [a], [0.5], [b], [0.5])  ->  | a | 0.5 | / | b | 0.5 | (a row per line where the page has one)

Raw blocks (```...```) and inline raw (`...`) are kept as they are; comments and `#set`/`#let`/`#import` lines are
blanked.  What is not understood is left as written: the readers after this one take a word they do not know for a
word.
"""

from __future__ import annotations

import re

# Typst's math symbols and functions under the names LaTeX gives them (only those a worked example of attention uses)
_SYMBOLS = {
    "approx": r"\approx", "times": r"\times", "dot": r"\cdot", "dot.op": r"\cdot", "dot.c": r"\cdot",
    "infinity": r"\infty", "oo": r"\infty", "sum": r"\sum", "prod": r"\prod", "exp": r"\exp", "log": r"\log",
    "ln": r"\ln", "max": r"\max", "min": r"\min", "in": r"\in", "RR": r"\mathbb{R}", "arrow.r": r"\rightarrow",
    "arrow.l": r"\leftarrow", "arrow.r.double": r"\Rightarrow", "eq.not": r"\neq", "lt.eq": r"\leq",
    "gt.eq": r"\geq", "minus": "-", "plus": "+", "div": r"\div", "quad": " ", "qquad": " ",
    "thin": " ", "med": " ", "thick": " ", "space": " ", "wide": " ",      # spacing: `(0.40, thin 0.20)`
    "dots": r"\dots", "dots.h": r"\dots", "dots.c": r"\cdots", "dots.v": r"\vdots", "dots.down": r"\ddots",
    "cdots": r"\cdots", "ldots": r"\ldots", "top": r"\top", "transpose": r"\top", "prime": "'",
    "softmax": r"\text{softmax}", "Attention": r"\text{Attention}", "Concat": r"\text{Concat}",
    "MultiHead": r"\text{MultiHead}", "head": r"\text{head}", "diag": r"\text{diag}",
}
_GREEK = ("alpha beta gamma delta epsilon theta lambda mu pi rho sigma tau phi omega "
          "Gamma Delta Theta Lambda Pi Sigma Phi Omega").split()
# functions whose argument becomes a braced group: sqrt(x) -> \sqrt{x}
_ONE_ARG = {"sqrt": r"\sqrt", "bold": r"\mathbf", "upright": r"\mathrm", "italic": r"\mathit", "cal": r"\mathcal",
            "hat": r"\hat", "tilde": r"\tilde", "overline": r"\overline", "bb": r"\mathbb", "abs": r"\left|",
            "norm": r"\left\|", "op": r"\operatorname"}
_WORD = re.compile(r"[A-Za-z][A-Za-z]*(?:\.[a-z]+)*")


def _outside_strings(s: str, j: int):
    """(index, character) of each character of s from j on, outside a "string" and not escaped by a backslash."""
    while j < len(s):
        c = s[j]
        if c == '"':
            k = s.find('"', j + 1)
            j = (k if k >= 0 else len(s) - 1) + 1
        elif c == "\\":
            j += 2
        else:
            yield j, c
            j += 1


def _close(s: str, i: int) -> int:
    """The index of the bracket closing the one at s[i] (or len(s)), skipping strings."""
    pairs = {"(": ")", "[": "]", "{": "}"}
    stack = [pairs[s[i]]]
    for j, c in _outside_strings(s, i + 1):
        if c in pairs:
            stack.append(pairs[c])
        elif c == stack[-1]:
            stack.pop()
            if not stack:
                return j
    return len(s)


def _split(s: str, seps: str) -> list[tuple[str, str]]:
    """s split at the top-level separators in seps: [(part, the separator after it or '')]."""
    out, depth, start = [], 0, 0
    for j, c in _outside_strings(s, 0):
        if c in "([{":
            depth += 1
        elif c in ")]}":
            depth -= 1
        elif depth == 0 and c in seps:
            out.append((s[start:j], c))
            start = j + 1
    out.append((s[start:], ""))
    return out


_NAMED_ARG = re.compile(r"^\s*[a-z][a-z-]*\s*:")


def _matrix(body: str, column: bool) -> str:
    """mat(a, b; c, d) or vec(a, b): the LaTeX matrix, the newlines of the Typst kept where they were."""
    out, delim = [], "pmatrix"
    for part, sep in _split(body, ",;" if not column else ","):
        if _NAMED_ARG.match(part):
            if '"["' in part:
                delim = "bmatrix"
            lead = part.count("\n")
            out.append("\n" * lead)
            continue
        out.append(math_to_tex(part))
        if sep:
            out.append(r" \\ " if (sep == ";" or column) else " & ")
    inner = "".join(out)
    lead = "\n" * inner[:len(inner) - len(inner.lstrip())].count("\n")
    tail = "\n" * inner[len(inner.rstrip()):].count("\n")
    inner = inner.strip()
    if inner.endswith("\\\\"):
        inner = inner[:-2].rstrip()
    return rf"\begin{{{delim}}}{lead} {inner} \end{{{delim}}}" + tail


def math_to_tex(s: str) -> str:
    """One span of Typst math as LaTeX."""
    out: list[str] = []
    i = 0
    while i < len(s):
        c = s[i]
        if c == '"':
            k = s.find('"', i + 1)
            k = k if k >= 0 else len(s)
            out.append(r"\text{" + s[i + 1:k] + "}")
            i = k + 1
            continue
        if c in "^_" and i + 1 < len(s) and s[i + 1] == "(":
            k = _close(s, i + 1)
            out.append(c + "{" + math_to_tex(s[i + 2:k]) + "}")
            i = k + 1
            continue
        if c == "\\":
            if i + 1 < len(s) and s[i + 1] in "$#\"_*[]()\\":
                out.append(s[i + 1] if s[i + 1] not in "_" else r"\_")
                i += 2
            else:
                out.append(r" \\ ")     # a line break in Typst's math
                i += 1
            continue
        if s.startswith(("->", "=>", "<=", ">=", "!="), i):
            out.append({"->": r"\to ", "=>": r"\Rightarrow ", "<=": r"\leq ", ">=": r"\geq ",
                        "!=": r"\neq "}[s[i:i + 2]])
            i += 2
            continue
        m = _WORD.match(s, i) if c.isalpha() and (i == 0 or not s[i - 1].isalnum()) else None
        if m:
            word, k = m.group(0), m.end()
            call = k < len(s) and s[k] == "("
            if call and word in ("mat", "vec"):
                e = _close(s, k)
                out.append(_matrix(s[k + 1:e], word == "vec"))
                i = e + 1
                continue
            if call and word == "frac":
                e = _close(s, k)
                parts = _split(s[k + 1:e], ",")
                if len(parts) == 2:
                    out.append(r"\frac{" + math_to_tex(parts[0][0]) + "}{" + math_to_tex(parts[1][0]) + "}")
                    i = e + 1
                    continue
            if call and word == "lr":
                e = _close(s, k)
                out.append(math_to_tex(s[k + 1:e]))
                i = e + 1
                continue
            if call and word in _ONE_ARG:
                e = _close(s, k)
                arg = math_to_tex(s[k + 1:e])
                if word == "abs":
                    out.append(r"\left|" + arg + r"\right|")
                elif word == "norm":
                    out.append(r"\left\|" + arg + r"\right\|")
                else:
                    out.append(_ONE_ARG[word] + "{" + arg + "}")
                i = e + 1
                continue
            if len(word) > 1:
                if word in _SYMBOLS:
                    out.append(_SYMBOLS[word] + " ")
                elif word in _GREEK:
                    out.append("\\" + word + " ")
                elif "." in word and word.split(".")[0] in _SYMBOLS:
                    out.append(_SYMBOLS[word.split(".")[0]] + " ")
                else:
                    out.append(r"\text{" + word + "}" if not call else r"\operatorname{" + word + "}")
                i = k
                continue
        out.append(c)
        i += 1
    return "".join(out)


_RAW_BLOCK = re.compile(r"```.*?```", re.S)
_INLINE_RAW = re.compile(r"`[^`\n]*`")
_COMMENT = re.compile(r"(?<![:\\])//[^\n]*|/\*.*?\*/", re.S)
_HEADING = re.compile(r"(?m)^(\s*)(=+)(?=\s)")
_DIRECTIVE = re.compile(r"(?m)^[ \t]*#(?:set|show|import|include|let|pagebreak|outline|bibliography)\b[^\n]*")
_MATH = re.compile(r"(?<!\\)\$(.*?)(?<!\\)\$", re.S)
_TABLE = re.compile(r"#(?:table|grid)\(")
_CONTENT_CALL = re.compile(r"#[a-z][\w.]*(?:\([^()\n]*\))?\[")


def _blank(s: str) -> str:
    return re.sub(r"[^\n]", " ", s)


def _table(call: str) -> str:
    """#table(columns: N, [a], [b], ...): the cells as rows between bars (`| a | b |`, read as a table's rows
    as a plain-text table is), each row on the line its first cell is on (or the next free one), the line count
    kept."""
    body = call[call.index("(") + 1:-1]
    parts = [p for p, _ in _split(body, ",")]
    cols = None
    cells: list[tuple[int, str]] = []
    offset = call.index("(") + 1
    for p in parts:
        named = _NAMED_ARG.match(p)
        if named and p.strip().startswith("columns"):
            v = p.split(":", 1)[1].strip()
            cols = int(v) if v.isdigit() else len(_split(v.strip()[1:-1], ",")) if v.startswith("(") else None
        elif not named and p.strip():
            text = p.strip()
            line = call[:offset + p.index(text[0])].count("\n")
            if text.startswith("[") and text.endswith("]"):
                text = text[1:-1]
            elif text.startswith("$") and text.endswith("$"):
                text = "$" + math_to_tex(text[1:-1]) + "$"
            cells.append((line, text.replace("\n", " ").replace("|", "/")))
        offset += len(p) + 1
    n_lines = call.count("\n") + 1
    if not cols or not cells:
        return _blank(call)
    lines = [""] * n_lines
    rows = [cells[k:k + cols] for k in range(0, len(cells), cols)]
    used = set()
    for r, row in enumerate(rows):
        at = row[0][0]
        while at in used and at + 1 < n_lines:
            at += 1
        if at in used:
            return _blank(call)
        used.add(at)
        lines[at] = "| " + " | ".join(t for _, t in row) + " |"
    return "\n".join(lines)


def _content_calls(text: str) -> str:
    """`#strong[0.67]`, `#text(fill: red)[0.67]`: the call and its closing bracket dropped, the content kept."""
    out, i = [], 0
    while True:
        m = _CONTENT_CALL.search(text, i)
        if not m:
            return "".join(out) + text[i:]
        e = _close(text, m.end() - 1)
        out.append(text[i:m.start()] + _content_calls(text[m.end():e]))
        i = e + 1


def typst_to_markdown(text: str) -> str:
    """The page written over, line for line (the line count and each number's line kept)."""
    kept: list[str] = []

    def keep(m: re.Match) -> str:
        kept.append(m.group(0))
        return f"\x00{len(kept) - 1}\x00"
    text = _RAW_BLOCK.sub(keep, text)
    text = _INLINE_RAW.sub(keep, text)
    text = _COMMENT.sub(lambda m: _blank(m.group(0)), text)
    text = _DIRECTIVE.sub(lambda m: _blank(m.group(0)), text)
    out, i = [], 0
    while True:
        m = _TABLE.search(text, i)
        if not m:
            break
        e = _close(text, m.end() - 1)
        out.append(text[i:m.start()])
        out.append(_table(text[m.start() + 1:e + 1]) + " ")
        i = e + 1
    text = "".join(out) + text[i:]

    def math(m: re.Match) -> str:
        body = m.group(1)
        tex = math_to_tex(body)
        display = body[:1].isspace() and body[-1:].isspace()
        return "$$" + tex + "$$" if display else "$" + tex + "$"
    text = _MATH.sub(math, text)
    text = _content_calls(text)                 # #strong[..], #text(fill: red)[..]: the content kept
    text = _HEADING.sub(lambda m: m.group(1) + "#" * len(m.group(2)), text)
    return re.sub("\x00(\\d+)\x00", lambda m: kept[int(m.group(1))], text)
