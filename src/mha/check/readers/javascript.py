"""The data of a page's script: `const A = [[0.51, 0.19, 0.31], ...];` in a <script> of an interactive lesson,
which draws its matrices from these arrays.  Each declaration of a numeric array literal is read as the code
literal it is (name and numbers, each on its own line); everything else in the script (functions, strings, the
drawing) is left out, so that no other JavaScript is read as a claim.  Only arrays named as a quantity (X, Q, K, V,
S, A, W_q, scores, ...) are kept: a page's other data (colour tables, a cache, pixel patterns) is no evidence of
the example and would be guessed to be its input."""

from __future__ import annotations

import re

from .. import labels as lb
from .common import Segment

_DECL = re.compile(r"\b(?:const|let|var)\s+([A-Za-z_$][\w$]*)\s*=\s*\[")
_BODY = re.compile(r"[\s\d.,+\-eE\[\]]*")


def script_arrays(js: str) -> str:
    """The script with only its numeric array declarations kept, as Python assignments (`A=[[...]]`, the keyword
    blanked), every other character blanked, so that each number stays where it was, on its line."""
    out = [c if c == "\n" else " " for c in js]
    for m in _DECL.finditer(js):
        end = _closing(js, m.end() - 1)
        if end is None:
            continue
        body = js[m.end() - 1:end + 1]
        if not _BODY.fullmatch(body) or not re.search(r"\d", body) or body.count("[") < 2:
            continue                       # strings, names or one flat list of a few numbers: not a matrix
        if lb.parse_label(m.group(1)) is None:
            continue
        for k in range(m.start(1), end + 1):
            out[k] = "_" if js[k] == "$" else js[k]
    return "".join(out)


def _closing(js: str, i: int) -> int | None:
    depth = 0
    for k in range(i, min(len(js), i + 20000)):
        if js[k] == "[":
            depth += 1
        elif js[k] == "]":
            depth -= 1
            if depth == 0:
                return k
        elif js[k] in "'\"`;(){}":
            return None
    return None


def script_segment(js: str, line: int, cell: int | None) -> Segment | None:
    code = script_arrays(js)
    lines = [ln.strip() for ln in code.split("\n")]
    if not any(lines):
        return None
    # each kept line starts at column 0 (Python's indentation), the blank ones stay as line breaks
    return Segment("\n".join(lines), line, "code", cell)


_TEMPLATE = re.compile(r"`([^`]*)`")
_MARKUP = re.compile(r"<(?:div|pre|p|span|table|td|code|li)\b[^>]*>", re.I)
_ESCAPE = re.compile(r"\\u([0-9a-fA-F]{4})|\\u\{([0-9a-fA-F]{1,6})\}")


def script_pages(js: str, line: int) -> list[tuple[str, int]]:
    """The HTML that a page's script writes into the page (a template literal of markup, `<div>...</div>`, shown
    when a step is clicked), each with the line it starts on: what the reader of the page sees.  Its JavaScript
    escapes (\\u00b7) are the characters they stand for; a template with ${...} holes is left out (its numbers
    are not all on the page)."""
    out = []
    for m in _TEMPLATE.finditer(js):
        body = m.group(1)
        if "${" in body or len(_MARKUP.findall(body)) < 2 or not re.search(r"\d", body):
            continue
        text = _ESCAPE.sub(lambda e: chr(int(e.group(1) or e.group(2), 16)), body)
        out.append((text, line + js[:m.start(1)].count("\n")))
    return out
