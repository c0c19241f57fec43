"""A matrix printed one row per line, each row after its token's name, under a header of the tokens' names:

    HEAD 0: Attention Scores (Q @ K^T)
                        <BOS>             I          like
           <BOS> [     -0.0126        0.0213       -0.0152]
               I [      0.0021       -0.0134        0.0119]
            like [     -0.0140        0.0097       -0.0039]

Read line by line, each row would be a loose vector named by its token ("I", "like"), and a row whose name looks
like markup (`<BOS>`) would be lost.  A name with `=` or `:` is a statement's (`行 1:  α = [...]`), not a token's.  Consecutive lines of a name and a bracketed row of equal width are one
matrix; its name is the caption printed above it (the nearest line above the header, within the same printout,
that names a quantity: "Attention Weights (after softmax)", "Scaled Scores (scores / 2.8284)").  A note after a row
(`sum=1.0000`) is no part of it.  The rows' lines are blanked from the segment.
"""

from __future__ import annotations

import re

from .. import labels as lb
from ..numbers import NEG_INF, Num
from ..objects import Array, Place
from .common import Segment, blank_lines, copy_context, line_offset

_NUM = r"[-+−]?(?:\d+\.?\d*(?:[eE][-+]?\d+)?|\.\d+|inf|∞)"
_ROW = re.compile(rf"^\s*(?P<name>[^\s\[\]=:：][^\[\]=:：]{{0,30}}?)\s+\[\s*(?P<body>{_NUM}(?:(?:\s*,\s*|\s+){_NUM})+)"
                  rf"\s*,?\s*\](?P<note>\s+[^\s\[\]][^\[\]]*)?$")
CAPTION_LINES = 8
# a token's name has a letter in it, and no operator before it ("+ [0.20, 0.01]" continues a sum); or it is a
# punctuation token of the sentence ("." in "the cat sat .")
_TOKEN_NAME = re.compile(r"^(?![+*×·/−-])[^\n]*[A-Za-z\u4e00-\u9fff]|^\s*[.,!?;]\s*$")


def _numbers(body: str, line: int) -> list[Num] | None:
    out = []
    for t in re.split(r"\s*,\s*|\s+", body.strip()):
        if not t:
            continue
        if t.lstrip("-−") in ("inf", "∞"):
            if not t.startswith(("-", "−")):
                return None
            out.append(NEG_INF.with_line(line))
            continue
        try:
            out.append(Num.parse(t, line))
        except ValueError:
            return None
    return out


def _caption(lines: list[str], header: int) -> tuple[str, int | None]:
    """The nearest line above the table (from `header` up) that names a quantity, as it names it (a remark in
    parentheses left out), and the head it names ("(head 0)", "HEAD 1:"), if any."""
    for k in range(header - 1, max(-1, header - 1 - CAPTION_LINES), -1):
        s = lines[k].strip()
        if not s:
            continue
        if _ROW.match(lines[k]):
            break                             # another table: the caption above belongs to it
        if "[" in s or ("=" in s and re.search(r"\d", s.split("=", 1)[1])):
            continue                          # a printed value or an equation with numbers, not a caption
        bare = re.sub(r"\s*\([^()]*\)\s*:?$", "", s).rstrip(":：")
        # ("Attention scores = Q @ K^T:": the name before the formula it is defined by)
        for text in (bare, bare.split(":", 1)[-1].strip(), s, bare.split("=", 1)[0].strip() if "=" in bare else ""):
            if text and not re.match(r"(?i)(?:each|every|the)\b", text) and lb.parse_label(text) is not None:
                return text, lb.head_in(s)
    return "", None


def row_tables(b, seg: Segment) -> Segment:
    """Read each table of named rows in the segment as one matrix; give back the segment with its rows blanked."""
    lines = seg.text.split("\n")
    if sum(1 for x in lines if _ROW.match(x)) < 2:
        return seg
    used: list[int] = []
    k = 0
    while k < len(lines):
        run: list[tuple[int, list[Num]]] = []
        j = k
        while j < len(lines) and (m := _ROW.match(lines[j])) is not None and _TOKEN_NAME.search(m.group("name")):
            nums = _numbers(m.group("body"), seg.line_of(line_offset(seg.text, j)))
            if nums is None or (run and len(nums) != len(run[0][1])):
                break
            run.append((j, nums))
            j += 1
        if len(run) < 2:
            k = max(j, k + 1)
            continue
        header = run[0][0] - 1 if run[0][0] > 0 and _is_header(lines[run[0][0] - 1], len(run[0][1])) else run[0][0]
        if header == run[0][0] and any(lb.parse_label(_ROW.match(lines[i]).group("name").strip(" :=")) is not None
                                       for i, _ in run):
            k = j                             # "scores [...]", "weights [...]": each line a vector of its own name
            continue
        label, head = _caption(lines, header)
        first = seg.line_of(line_offset(seg.text, run[0][0]))
        a = Array([nums for _, nums in run], Place(first, seg.cell, seg.where), label=label,
                  labels=[label] if label else [], style="numpy", context=copy_context(b.ctx))
        if head is not None:
            a.context.head = head
        b.doc.add_array(a)
        used += [i for i, _ in run]
        k = j
    return blank_lines(seg, used)


def _is_header(line: str, width: int) -> bool:
    """The tokens' names over the columns: as many words as the rows have numbers, and no number."""
    words = line.split()
    return len(words) == width and not any(re.fullmatch(_NUM, w) for w in words)
