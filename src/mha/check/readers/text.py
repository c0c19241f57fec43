"""Plain text: TeX math between its delimiters, tables, prose, headings, code with its line numbers glued on,
and notebooks pasted as text (In [n]: prompts)."""

from __future__ import annotations

import re

from .. import labels as lb
from ..objects import Place
from .common import Segment, line_offset
from .prose import prose_numbers
from .python import read_python
from .repl import session_start
from .tables import read_table, table_cells


_TEX_DELIMS = re.compile(r"\$\$(.+?)\$\$|\\\[(.+?)\\\]|\\\((.+?)\\\)|"
                         r"\\begin\{(equation\*?|align\*?|gather\*?|displaymath|multline\*?|eqnarray\*?|"
                         r"bmatrix|pmatrix|matrix|vmatrix|array)\}(.+?)\\end\{\4\}|(?<![\\$\w])\$([^$\n]+?)\$(?!\d)",
                         re.S)


def split_text(text: str, line: int, cell: int | None, where: str = "prose",
               line_map: list[int] | None = None) -> list[Segment]:
    """Plain text: tables first (tab- or pipe-separated rows), then TeX math in $$ $$, \\[ \\], \\( \\),
    $ $ or an environment, and prose between."""
    base = Segment(text, line, where, cell, line_map)
    segs: list[Segment] = []
    lines = text.split("\n")
    p = 0
    run_start = 0
    table: list[tuple[int, str]] = []
    for k, ln in enumerate(lines + [None]):
        is_row = ln is not None and _is_table_row(ln)
        if is_row:
            if not table and p > run_start:
                segs.extend(_split_math(text, run_start, p, base, where))
            table.append((p, ln))
        elif table:
            segs.append(_table_segment(table, base))
            table = []
            run_start = p
        if ln is not None:
            p += len(ln) + 1
    if run_start < len(text) and not table:
        segs.extend(_split_math(text, run_start, len(text), base, where))
    return segs


def _is_table_row(line: str) -> bool:
    s = line.strip()
    if s.startswith("|") and s.count("|") >= 2:
        return True
    return "\t" in s and len([c for c in s.split("\t") if c.strip()]) >= 2


def _split_math(text: str, a: int, b: int, base: Segment, where: str) -> list[Segment]:
    segs: list[Segment] = []
    pos = a
    for m in _TEX_DELIMS.finditer(text, a, b):
        if m.start() > pos:
            segs.append(_prose(text, pos, m.start(), base, where))
        g = next(k for k in (1, 2, 3, 5, 6) if m.group(k) is not None)
        start = m.start(g) if g != 5 else m.start()
        body = m.group(g) if g != 5 else m.group(0)
        segs.append(Segment(body, base.line_of(start), "math", base.cell, _sub_map(base, text, start, body)))
        pos = m.end()
    if pos < b:
        segs.append(_prose(text, pos, b, base, where))
    return [s for s in segs if s.text.strip()]


def _prose(text: str, a: int, b: int, base: Segment, where: str) -> Segment:
    t = text[a:b]
    return Segment(t, base.line_of(a), where, base.cell, _sub_map(base, text, a, t))


def _sub_map(base: Segment, text: str, start: int, body: str) -> list[int]:
    n = body.count("\n") + 1
    out = []
    p = start
    for _ in range(n):
        out.append(base.line_of(p))
        nxt = text.find("\n", p)
        p = nxt + 1 if nxt >= 0 else p
    return out or [base.line_of(start)]


def _table_segment(rows: list[tuple[int, str]], base: Segment) -> Segment:
    text = "\n".join(line for _, line in rows)
    seg = Segment(text, base.line_of(rows[0][0]), "table", base.cell, [base.line_of(p) for p, _ in rows])
    return seg



# ------------------------------------------------------------------ formats

def _unnumber(text: str) -> str:
    """Code copied from a web page with its line numbers glued on ("1X = [[1.0, 0.0],", "2     [0.0, 1.0]]"):
    the numbers blanked out, columns and lines kept.  Only a run 1, 2, 3, ... where some number touches the
    code ("1X", "3scores[0]") -- a matrix printed as "1 0" / "2 3" is left alone."""
    lines = text.split("\n")
    out = list(lines)
    i = 0
    while i < len(lines):
        if not re.match(r"1(?!\d)", lines[i]):
            i += 1
            continue
        j = i
        while j < len(lines) and re.match(rf"{j - i + 1}(?!\d)", lines[j]):
            j += 1
        run = range(i, j)
        glued = any(re.match(rf"{k - i + 1}[A-Za-z_\[\(\"'#]", lines[k]) for k in run)
        if j - i >= 2 and glued:
            for k in run:
                n = len(str(k - i + 1))
                out[k] = " " * n + lines[k][n:]
        i = max(j, i + 1)
    return "\n".join(out)


_IN_PROMPT = re.compile(r"^\s*In\s*\[\s*\d*\s*\]\s*:\s?(.*)$")
_OUT_PROMPT = re.compile(r"^\s*Out\s*\[\s*\d*\s*\]\s*:\s?(.*)$")
_PRINTED = re.compile(r"^\s*(?:array|tensor|matrix|Tensor)\(|^\s*\[+\s*[-+]?(?:\d|\.\d|nan|inf)|^\s*[-+]?\d+(?:\.\d*)?(?:e[-+]?\d+)?\s*$")


def _parses(code: str) -> bool:
    return bool(code.strip()) and read_python(code).parsed


def _printed_chunk(chunk: list[str]) -> bool:
    """A chunk of a notebook transcript that is what a cell printed: an array printout, or a short caption
    ("Dot product scores:") over one."""
    lines = [x for x in chunk if x.strip()]
    if not lines:
        return False
    if _PRINTED.match(lines[0]):
        return True
    return len(lines) >= 2 and len(lines[0].strip()) <= 80 and len(lines[0].split()) <= 10 and \
        bool(_PRINTED.match(lines[1]))


def _transcript(lines: list[str]) -> list[tuple[str, list[int]]] | None:
    """A Jupyter notebook pasted as text: "In [2]:" prompts, each followed by its code and then what the cell
    showed (its last expression's value, or what it printed).  The document's lines as pieces in order:
    ("prose", lines), ("code", lines), ("output", lines) or ("result", lines) -- an output that shows the
    value of the cell's last bare expression.  None when the text is no such transcript."""
    prompts = [k for k, x in enumerate(lines) if _IN_PROMPT.match(x)]
    if not prompts:
        return None
    pieces: list[tuple[str, list[int]]] = []
    if prompts[0] > 0:
        pieces.append(("prose", list(range(prompts[0]))))
    for n, p in enumerate(prompts):
        end = prompts[n + 1] if n + 1 < len(prompts) else len(lines)
        body = list(range(p, end))            # the prompt line holds code after "In [2]:" too
        chunks: list[list[int]] = []
        for k in body:
            if k != p and (not lines[k].strip() or _OUT_PROMPT.match(lines[k])):
                if chunks and chunks[-1]:
                    chunks.append([])
                if _OUT_PROMPT.match(lines[k]):
                    chunks.append([k])
                    chunks.append([])
                continue
            if not chunks:
                chunks.append([])
            chunks[-1].append(k)
        chunks = [c for c in chunks if c]
        code: list[int] = []
        text = lambda ks: "\n".join(_IN_PROMPT.sub(r"\1", lines[k]) for k in ks)
        i = 0
        while i < len(chunks):
            c = chunks[i]
            if _OUT_PROMPT.match(lines[c[0]]) or (code and _printed_chunk([lines[k] for k in c])) or \
                    not _parses(text(code + c)):
                break
            code += c
            i += 1
        if not code:
            return None              # a prompt with no code under it: not a transcript
        pieces.append(("code", code))
        shown = False
        while i < len(chunks):
            c = chunks[i]
            if _OUT_PROMPT.match(lines[c[0]]):
                rest = _OUT_PROMPT.match(lines[c[0]]).group(1)
                if i + 1 < len(chunks) and not rest.strip():
                    pieces.append(("result", chunks[i + 1]))
                    shown = True
                    i += 2
                    continue
                pieces.append(("result", c))
                shown = True
            elif not shown and _printed_chunk([lines[k] for k in c]):
                pieces.append(("output", c))
            else:
                pieces.append(("prose", c))
                shown = True
            i += 1
    return pieces


def _read_transcript(text: str, pieces, b: "Builder", line: int, cell: int | None,
                     line_map: list[int] | None) -> None:
    lines = text.split("\n")
    at = lambda k: line_map[k] if line_map and k < len(line_map) else line + k
    for kind, ks in pieces:
        body = "\n".join(_IN_PROMPT.sub(r"\1", lines[k]) if kind == "code" else
                         _OUT_PROMPT.sub(r"\1", lines[k]) for k in ks)
        lmap = [at(k) for k in ks]
        if kind == "prose":
            read_text(body, b, lmap[0], cell, lmap, transcript=False)
        elif kind == "code":
            b.segment(Segment(body, lmap[0], "code", cell, lmap))
        else:
            seg = Segment(body, lmap[0], "output", cell, lmap)
            # the value of the cell's last bare expression ("X" and then "array([[1., 0.], ...])")
            seg.result = kind == "result" or (b.last_expr is not None and not b.pending_output_labels)
            b.segment(seg)


def read_text(text: str, b: "Builder", line: int = 1, cell: int | None = None,
              line_map: list[int] | None = None, transcript: bool = True) -> None:
    if transcript and session_start(text) is not None:     # >>> prompts: a Python session (repl.py)
        k = session_start(text)
        if k:
            read_text("\n".join(text.split("\n")[:k]), b, line, cell, line_map[:k] if line_map else None, False)
        at = line_map[k:] if line_map else [line + j for j in range(k, text.count("\n") + 1)]
        b.segment(Segment("\n".join(text.split("\n")[k:]), at[0], "code", cell, at))
        return
    if transcript:
        pieces = _transcript(text.split("\n"))
        if pieces is not None:
            _read_transcript(text, pieces, b, line, cell, line_map)
            return
    display = False              # inside \[ ... \], $$ ... $$ or \begin{...}: math, not prose
    closer = ""                  # what ends it: \], $$, or the \end{...} of the environment that opened it
    for k, raw in enumerate(text.split("\n")):
        st = raw.strip()
        opened = not display and st.startswith(("\\[", "$$", "\\begin{"))
        inside = display or opened
        if opened:
            env = re.match(r"\\begin\{([^}]*)\}", st)
            closer = "\\]" if st.startswith("\\[") else "$$" if st.startswith("$$") else \
                f"\\end{{{env.group(1)}}}" if env else "\\end{"        # (a \begin{ left open: any \end ends it)
            display = closer not in (st[2:] if not env else st[env.end():])
        elif display and closer in st:
            display = False
        if not inside and not _is_table_row(raw):
            ln = line_map[k] if line_map and k < len(line_map) else line + k
            r = lb.row_in(re.sub(r"\\\(.*?\\\)", " ", raw))
            if r is not None:      # "- Row 2: \([0, 0.71, 0]\)" over "... The sum is 4.03": the row its sum is of
                b.ctx.row = r
            prose_numbers(b, raw, Place(ln, cell, "prose"))
            if "\\(" in raw:       # "the weights \( W^Q = W^K \) are the identity": the words and the math are one
                b.identity_hints(raw, Place(ln, cell, "prose"))
    for seg in split_text(text, line, cell, "prose", line_map):
        if seg.where == "table":
            read_table(b, table_cells(seg), cell)
        elif seg.where == "prose":
            _prose_with_headings(seg, b)
        else:
            b.segment(seg)


def _prose_with_headings(seg: Segment, b: "Builder") -> None:
    """Plain text has headings too: '4.2 缩放', '# Head 2', a short line followed by '---'."""
    lines = _uncomment_continued(seg.text.split("\n"))
    buf: list[int] = []

    def flush():
        if buf:
            t = "\n".join(lines[k] for k in buf)
            b.segment(Segment(t, seg.line_of(line_offset(seg.text, buf[0])), "prose", seg.cell,
                              [seg.line_of(line_offset(seg.text, k)) for k in buf]))
            buf.clear()
    for k, line in enumerate(lines):
        s = line.strip()
        if _looks_like_heading(s):
            flush()
            b.segment(Segment(s, seg.line_of(line_offset(seg.text, k)), "heading", seg.cell))
            continue
        buf.append(k)
    flush()


_GOES_ON = re.compile(r"\s*#\s*(?:=(?!=)|≈)\s*[\[\d(−-]")


def _uncomment_continued(lines: list[str]) -> list[str]:
    """Code comments drawn in text (an HTML page's code in a <div>): "# scaled: [2.1/11.3, ...]" and under it
    "#        = [0.19, ...]" are one statement, not two headings; their '#' become spaces (lengths kept)."""
    out = list(lines)
    for k in range(1, len(lines)):
        if _GOES_ON.match(lines[k]) and lines[k - 1].lstrip().startswith("#"):
            for j in (k - 1, k):
                out[j] = out[j].replace("#", " ", 1)
    return out


def _looks_like_heading(s: str) -> bool:
    if s.startswith("#") and not s.startswith("#!") and len(s) < 120 and not re.match(r"^#\s*[\[\d(-]", s):
        return True
    return bool(re.match(r"^\d+(\.\d+)*\.?\s+[^\W\d_]", s)) and len(s) < 60 and "=" not in s and not re.search(
        r"\d\s*[×x*]\s*\d|[⎡⎢⎣│\[\]]", s)
