"""A Python script that shows what it prints in the comments under each print (a blog's snippet, a gist):

    scores = Query @ Key.T
    print(scores)
    # [[ 2  4  4]
    #  [ 4 16 12]]

The code is read as code (its literals are the given inputs), and each comment block right under a print (or a
bare expression) as that print's output, the `#` blanked so that every number keeps its line and column.  A lesson
script often holds its worked example as text, in a triple-quoted string that it prints (`answers = '''...'''`):
the lines inside such a string are read as prose, where they stand; a string a call renders as Markdown (marimo's
`mo.md(r'''...''')`) is read as Markdown there."""

from __future__ import annotations

import re
import textwrap

from .common import Segment

_COMMENT = re.compile(r"^(\s*)#(.*)$")
_COMMENTED_PRINT = re.compile(r"^(\s*)#\s*(print\s*\([A-Za-z_][\w.\[\]]*\)\s*)$")
_SHOWS = re.compile(r"^\s*(?:print\s*\(|display\s*\(|[A-Za-z_][\w.\[\]]*\s*$)")
_PRINTED = re.compile(r"[\[(]?\s*[-+]?\d|tensor\(|array\(")
# a call that renders its string as Markdown: marimo's mo.md, IPython's Markdown, Streamlit's st.markdown
_MARKDOWN_CALL = re.compile(r"\b(?:mo\.md|Markdown|st\.markdown)\(\s*[rRfF]{0,2}(?:\"\"\"|\'\'\')\s*$")


def looks_like_script(text: str) -> bool:
    """Plain text that is a Python script with printouts in comments (not prose with a code sample)."""
    from .python import read_python
    return bool(re.search(r"^\s*print\s*\(", text, re.M) and re.search(r"^\s*#\s*[\[(]\s*[\[\d-]", text, re.M)
                and read_python(text).parsed)


def read_script(text: str, b: "Builder", line0: int = 1, cell: int | None = None, markdown=None) -> None:
    """Code and the printouts in its comments, in reading order (module doc).  The text inside a triple-quoted
    string is blanked in the code (which stays valid Python) and read as prose after the code around it."""
    lines = text.split("\n")
    bodies = _text_bodies(text)
    printed = printed_strings(lines, bodies)
    prose = []
    for a, z in bodies.items():
        if a not in printed:
            # (a marimo cell's mo.md string: Markdown, math and all, rendered where it stands)
            # (or a docstring's doctests, `>>> np.round(w, 4)` over `array([[0.6698, 0.3302]])`: a session)
            kind = "markdown" if _MARKDOWN_CALL.search(" ".join(lines[max(0, a - 2):a])) else \
                "session" if any(re.match(r"\s*>>> ", x) for x in lines[a:z]) else "prose"
            body = "\n".join(lines[a:z])
            prose.append((a, Segment(body if kind == "prose" else textwrap.dedent(body), line0 + a, kind, cell)))
    shown = {a: lines[a:z] for a, z in bodies.items() if a in printed}
    for a, z in bodies.items():
        lines[a:z] = [""] * (z - a)
    out: list[tuple[int, Segment]] = []
    k, start = 0, 0
    while k < len(lines):
        if k in shown:
            # print(weights) then a bare '''...''' string holding what it printed: that print's output
            if k > start:
                out.append((start, Segment("\n".join(lines[start:k]), line0 + start, "code", cell)))
            out.append((k, Segment("\n".join(shown[k]), line0 + k, "output", cell)))
            k = start = bodies[k]
            continue
        if _COMMENT.match(lines[k]) and k > 0 and _printout(lines, k) and \
                (m := _COMMENTED_PRINT.match(lines[k - 1])) and (k - 1 == 0 or not _COMMENT.match(lines[k - 2]) or
                                                                  not _printout(lines, k - 2)):
            # "# print(querys)" over "# tensor([[1., 0., 1.], ...": a print the author left as a comment, shown
            # with what it printed; read as the print it is, so the printout takes its name
            lines[k - 1] = m.group(1) + m.group(2)
        if _COMMENT.match(lines[k]) and k > 0 and _SHOWS.match(lines[_above(lines, k)]) and _printout(lines, k):
            j = k
            while j < len(lines) and _COMMENT.match(lines[j]):
                j += 1
            if k > start:
                out.append((start, Segment("\n".join(lines[start:k]), line0 + start, "code", cell)))
            body = [_COMMENT.sub(lambda m: m.group(1) + " " + m.group(2), x) for x in lines[k:j]]
            out.append((k, Segment("\n".join(body), line0 + k, "output", cell)))
            k = start = j
            continue
        k += 1
    if start < len(lines):
        out.append((start, Segment("\n".join(lines[start:]), line0 + start, "code", cell)))
    for _, seg in sorted(out + prose, key=lambda x: x[0]):
        if seg.where == "markdown" and markdown is not None:
            markdown(seg.text, b, seg.line, cell)        # (readers.markdown.read_markdown, passed in by the caller)
        elif seg.where == "markdown":
            b.segment(Segment(seg.text, seg.line, "prose", cell))
        elif seg.where == "session":
            from .text import read_text
            read_text(seg.text, b, seg.line, cell)
        else:
            b.segment(seg)


def printed_strings(lines: list[str], bodies: dict[int, int]) -> set[int]:
    """The triple-quoted strings (by first inner line) that stand alone right under a print or a bare expression:
    the author pasted what it printed there."""
    out = set()
    for a in bodies:
        if a >= 2 and lines[a - 1].strip() in ('"""', "'''") and _SHOWS.match(lines[a - 2]) and \
                not _COMMENT.match(lines[a - 2]):
            out.add(a)
    return out


def _printout(lines: list[str], k: int) -> bool:
    """Does the comment block at line k print numbers (its first line a number, a bracket of them, a tensor)?"""
    m = _COMMENT.match(lines[k])
    return m is not None and _PRINTED.match(m.group(2).strip()) is not None


def _text_bodies(text: str) -> dict[int, int]:
    """{first line: line after the last} (0-based) of the lines strictly inside each triple-quoted string of the
    script that spans three lines or more; the delimiters' own lines stay code, so the code left is still Python."""
    import io
    import tokenize
    out: dict[int, int] = {}
    try:
        for t in tokenize.generate_tokens(io.StringIO(text).readline):
            if t.type == tokenize.STRING and t.end[0] - t.start[0] >= 2 and \
                    re.match(r"^[rRbBuUfF]{0,2}(\"\"\"|\'\'\')", t.string):
                out[t.start[0]] = t.end[0] - 1        # lines start[0]+1 .. end[0]-1 (1-based) are inside
    except (tokenize.TokenError, IndentationError, SyntaxError):
        return {}
    # (only a string that holds numbers: `"""# section title"""` used as a comment stays where it is)
    lines = text.split("\n")
    return {a: b for a, b in out.items() if b > a and any(re.search(r"\d", x) for x in lines[a:b])}


def has_printed_string(text: str) -> bool:
    """Does this code hold a triple-quoted string of numbers right under a print (see printed_strings)?"""
    if "'''" not in text and '"""' not in text:
        return False
    return bool(printed_strings(text.split("\n"), _text_bodies(text)))


def has_commented_printout(text: str) -> bool:
    """Does this code show what a print printed in the comment lines right under it (`print(Z)` over `#tensor([`,
    `# [0.47, 0.56, 0.67],`)?"""
    if "#" not in text or "print" not in text:
        return False
    lines = text.split("\n")
    # (not a print whose own line already shows the first row in a trailing comment: `print(w)   # [[0.39 ...`
    # over `#  [0.47 ...]]` is one printout the code reader reads as it stands)
    return any(_COMMENT.match(lines[k]) and _SHOWS.match(lines[_above(lines, k)]) and
               "#" not in lines[_above(lines, k)] and _printout(lines, k) and _one_printout(lines, k)
               for k in range(1, len(lines)))


def _one_printout(lines: list[str], k: int) -> bool:
    """Does the comment block at line k show one printout (two tensors under one print are two tries, the rough
    and the exact, which the code reader names as it does comments)?"""
    block = []
    while k < len(lines) and _COMMENT.match(lines[k]):
        block.append(lines[k])
        k += 1
    return len(re.findall(r"tensor\(|array\(", "\n".join(block))) <= 1


def _above(lines: list[str], k: int) -> int:
    """The line above line k, past one blank line (`print(Z)`, a blank line, then what it printed, commented)."""
    return k - 2 if k >= 2 and not lines[k - 1].strip() and lines[k - 2].strip() else k - 1
