"""Comments in code, read as text: `# [[0, 1, 1], [4, 4, 0]]` under `print(k)` or `s = q @ k.T` is that name's
value; a comment on a line that creates a running total (`torch.zeros(3)  # [0., 0., 0.]`) shows the initial value,
not the name's.  (readers/python.py gathers the comments and their labels.)"""

from __future__ import annotations

import re

from .. import labels as lb
from ..objects import LabelPart, Place
from .common import Segment, line_offset
from .drawn import text_tokens
from .statements import read_tokens


def comment_block(b: "Builder", block: list[tuple[int, str, str]], seg: Segment) -> None:
    """One block of consecutive comment lines of code, read as text: each chain takes the label of the code on its
    line (or of the print just above the block), each array its name."""
    # "#> " as reprex marks output; `#  [4., 16., 12.]],  # from query 2`: the row's own remark is no number of it
    code = seg.text.split("\n")
    rows = {a.label.strip(): a.n_rows for a in b.doc.arrays if a.label and not a.lead}
    bare = [_COMMENTED_PRINT.sub(r"\1 = ", re.sub(r"^#+\s?(?:>\s?)?", "", c)) for _, c, _ in block]
    text = "\n".join(_without_shapes(_unwrapped(_ROW_WORDS.sub("", re.sub(r"(?<=[\],)])\s+#.*$", "", c))),
                                     code[ln - 1] if 0 < ln <= len(code) else "", rows)
                      for (ln, _, _), c in zip(block, bare))
    line_map = [seg.line_of(line_offset(seg.text, ln - 1)) for ln, _, _ in block]
    sub = Segment(text, line_map[0], "comment", seg.cell, line_map)
    n_before = len(b.doc.arrays)
    n_chains = len(b.doc.chains)
    for k, line in enumerate(text.split("\n")):
        b.prose_context(line, Place(line_map[k], seg.cell, "comment"))
    toks = text_tokens(text)
    read_tokens(toks, sub, b.doc, b.ctx, text_mode=True)
    by_line = {line_map[k]: lab for k, (_, _, lab) in enumerate(block) if lab}
    if block[0][2] and not any(lab for _, _, lab in block[1:]):
        by_line = {ln: block[0][2] for ln in line_map}       # the output of the print above, over several lines
    for ch in b.doc.chains[n_chains:]:
        lab = by_line.get(ch.place.line) or _assigned_above(code, block, line_map, ch.place.line)
        if lab and ch.parts and isinstance(ch.parts[0], LabelPart) and _GENERIC.match(ch.parts[0].text):
            ch.parts.pop(0)                  # "# Output: tensor([...])": the printout of the code above, by its name
            ch.rels.pop(0)
        if lab and not any(isinstance(p, LabelPart) for p in ch.parts):
            names = [x.strip() for x in lab.split(" = ") if x.strip()]
            best = next((x for x in reversed(names) if lb.parse_label(x) is not None), names[0])
            ch.parts.insert(0, LabelPart(best))
            ch.rels.insert(0, "=")
    _drop_initial_values(b, n_before, n_chains, block, seg)
    for a in b.doc.arrays[n_before:]:
        code_label = by_line.get(a.place.line) or _assigned_above(code, block, line_map, a.place.line)
        if code_label and _GENERIC.match(a.label or ""):
            a.label, a.labels = "", []
        if not a.label and code_label:
            names = [x.strip() for x in code_label.split(" = ") if x.strip()]
            a.label = names[0]
            a.labels = names


# `# print(weights)   # [0.109 0.297]`: a print left commented out, with what it printed in a comment after it
_COMMENTED_PRINT = re.compile(r"^\s*print\(\s*([A-Za-z_][\w.]*)\s*\)\s+#\s*(?=[\[(\d-]|tensor\(|array\()")
# `# [[0.71, 0.00, 0.35],    Q1, K1'e en benzer`: words a run of spaces after a row remark on it, not part of it
_ROW_WORDS = re.compile(r"(?<=\],|\]\])[ \t]{2,}(?!dtype|grad_fn|device|requires_grad)(?=[^\W\d_])[^\[\]=]*$")
# a comment's own word for "what this prints", no name of a quantity: "# Output: tensor([...])", "# 输出："
_GENERIC = re.compile(r"(?i)^\s*(?:output|out|result|prints?|printed|returns?|输出|结果|출력|出力)\s*[:：]?\s*$")
_ASSIGNED = re.compile(r"^\s*([A-Za-z_]\w*)(?:\[[^\]]*\])?\s*(?:[-+*/@]?=)(?!=)")


def _assigned_above(code: list[str], block: list, line_map: list[int], line: int) -> str:
    """The variable the code just above the comment block gives a value (`attn_scores_2[i] = torch.dot(...)` in a
    loop, `context_vec_2 += ...`): what a bare "# Output:" under it shows; "" when the line above assigns nothing."""
    if line not in line_map:
        return ""
    first = block[0][0]
    for k in range(first - 2, max(-1, first - 4), -1):
        if 0 <= k < len(code) and code[k].strip() and not code[k].lstrip().startswith("#"):
            m = _ASSIGNED.match(code[k])
            return m.group(1) if m else ""
    return ""


# "#返回注意力分数（tensor([0.9544, 1.4950])）", "#（Attention weights: tensor([...])）": a printout quoted in brackets
_WRAPPED = re.compile(r"[（(](\s*(?:[^()（）:：\n]*[:：]\s*)?(?:tensor|array)\(.*\))\s*[)）]\s*$")


def _unwrapped(comment: str) -> str:
    """The comment with the brackets around a quoted printout made spaces (same length)."""
    return _WRAPPED.sub(lambda m: " " + m.group(1) + " " * (len(m.group(0)) - len(m.group(1)) - 1), comment)


_INT_LIST = re.compile(r"[\[(]\s*\d+(?:\s*,\s*\d+)+\s*,?\s*[\])]")
_SHAPE_WORDS = re.compile(r"(?i)shape|\bsize\b|\bdims?\b|形状|维度|尺寸")
_ANY_LIST = re.compile(r"\[[^\[\]]*\]")


def _without_shapes(comment: str, code: str, rows: dict | None = None) -> str:
    """`# [2, 8, 10, 64] -> [2, 10, 512]`, `print(x.shape)  # [2, 10, 64]`: lists of whole numbers in a comment
    that speaks of shapes (a shape word, code that prints a shape, or an arrow between lists that are all whole
    numbers) are tensor sizes, not values; they are blanked, keeping every other character where it was.  An
    arrow from whole scores to decimal weights (`# [1, 0, 1] -> [0.42, 0.16, 0.42]`) is left alone.  So is
    `Q = X @ W_Q   # [3, 2]` where X, given above, has rows: the product is a matrix, so one flat list is its
    shape (rows: the row counts of the arrays read so far, by name)."""
    if not _INT_LIST.search(comment):
        return comment
    lists = _ANY_LIST.findall(comment)
    arrow = re.search(r"->|→", comment) and len(lists) >= 2 and all(_INT_LIST.fullmatch(x) for x in lists)
    if not (arrow or _SHAPE_WORDS.search(comment) or re.search(r"\.shape\b|\.size\(", code.split("#")[0])
            or _product_of_matrix(code.split("#")[0], comment, rows or {})):
        return comment
    return _INT_LIST.sub(lambda m: " " * len(m.group()), comment)


_PRODUCT = re.compile(r"^\s*[A-Za-z_]\w*\s*=\s*([A-Za-z_]\w*)\s*(?:@|\.(?:mm|matmul)\()|"
                      r"^\s*[A-Za-z_]\w*\s*=\s*(?:torch|np|numpy)\.(?:matmul|dot|mm)\(\s*([A-Za-z_]\w*)\s*,")


def _product_of_matrix(code: str, comment: str, rows: dict) -> bool:
    """The code line assigns a product whose left factor is an array of two rows or more, and the comment is one
    flat list of whole numbers: the product's value would be rows, so the list is its shape."""
    m = _PRODUCT.match(code)
    name = m and (m.group(1) or m.group(2))
    return bool(name) and rows.get(name, 0) >= 2 and "[[" not in comment.replace(" ", "") and \
        len(_ANY_LIST.findall(comment)) == 1


_FILL = re.compile(r"\b(?:zeros|ones|zeros_like|ones_like|empty|empty_like|full|full_like)\s*\(")


def _drop_initial_values(b: "Builder", n_before: int, n_chains: int, block: list[tuple[int, str, str]],
                         seg: Segment) -> None:
    """`out = torch.zeros(3)  # [0., 0., 0.]`: the comment shows what the line's own code creates (a running
    total before the loop adds to it), not the value the name ends with."""
    lines = seg.text.split("\n")
    filled = {seg.line_of(line_offset(seg.text, ln - 1)) for ln, _, _ in block
              if 0 < ln <= len(lines) and _FILL.search(lines[ln - 1].split("#")[0])}
    if not filled:
        return
    keep = b.doc.arrays[:n_before]
    for a in b.doc.arrays[n_before:]:
        values = {c.value for c in a.numbers}
        if not (a.place.line in filled and len(values) == 1 and values <= {0.0, 1.0}):
            keep.append(a)
    gone = {id(a) for a in b.doc.arrays[n_before:]} - {id(a) for a in keep}
    b.doc.arrays[:] = keep
    b.doc.chains[n_chains:] = [c for c in b.doc.chains[n_chains:]
                               if not any(id(getattr(p, "array", None)) in gone for p in c.parts)]
