"""Names a printout takes from the code and captions around it: `print("Q\\n", q)` is labelled by the symbol on its
own line, and in one printout of several matrices each takes the head of the caption line above it."""

from __future__ import annotations

import re

from .. import labels as lb
from .common import Segment, line_offset


def print_label(texts: list[str], names: list[str]) -> str:
    """What a print call's output is labelled: its words, then its names; `print("Q\\n", q)` (a bare symbol
    printed on a line of its own above the value) is labelled by that symbol."""
    label = " ".join(texts) + (" " if texts else "") + " ".join(names)
    symbol = " ".join(t.strip() for t in texts).rstrip(":：= ")
    if names and re.fullmatch(r"[A-Za-z][\w^{}()']{0,6}", symbol) and lb.parse_label(label) is None and \
            lb.parse_label(symbol) is not None:
        return symbol
    return label


def printed_name(caption: str, labels: list[str]) -> str | None:
    """The code of a value printed after its words: `print("Softmax result:", y)` prints
    `Softmax result: tensor([...])`, read with the caption "Softmax result"; its print label is "Softmax result: y",
    and y (or `torch.softmax(x, dim=-1)`, printed so) is the value's code.  None unless exactly one print label is
    the caption followed by one Python expression."""
    import ast
    head = caption.strip().rstrip(":：= ")
    # (spaces as the caption was read, "Weights(After Softmax)", need not be the string's, "Weights (After Softmax)")
    spaced = r"\s*".join(re.escape(c) for c in re.sub(r"\s+", "", head))
    found = set()
    for p in labels if head else ():
        m = re.fullmatch(spaced + r"\s*[:：=]?\s+([A-Za-z_].*)", p.strip())
        if m is None:
            continue
        try:
            ast.parse(m.group(1), mode="eval")
        except (SyntaxError, ValueError, RecursionError, MemoryError):
            continue
        found.add(m.group(1))
    return found.pop() if len(found) == 1 else None


def heads_above(arrays: list, seg: Segment) -> None:
    """"HEAD 0: Attention Weights" over one matrix and "HEAD 1: ..." over the next, in one printout: each array takes
    the head of the nearest caption line above it (the printout's prose lines were all read before its arrays, so the
    context held the last head for every one of them)."""
    lines = seg.text.split("\n")
    heads = [(seg.line_of(line_offset(seg.text, k)), lb.head_in(x)) for k, x in enumerate(lines)
             if "[" not in x and re.search(r"[A-Za-z\u4e00-\u9fff]", x)]
    heads = [(ln, h) for ln, h in heads if h is not None]
    if len({h for _, h in heads}) < 2:
        return
    for a in arrays:
        above = [h for ln, h in heads if ln <= a.line]
        if above and a.context.head is not None:
            a.context.head = above[-1]


_GRAD_FN = re.compile(r"grad_fn=<(\w+)>")


def softmax_grad_fn(arrays: list, seg: Segment) -> None:
    """`tensor([[1.0000, 0.0000], ...], grad_fn=<SoftmaxBackward0>)` printed with no name (a print() inside a
    module's forward): torch says the tensor is a softmax's output, so it is read as attention weights."""
    for m in _GRAD_FN.finditer(seg.text):
        if not m.group(1).startswith("SoftmaxBackward"):
            continue
        line = seg.line_of(m.start())
        a = max((a for a in arrays if a.style == "torch" and a.line <= line), key=lambda a: a.line, default=None)
        if a is not None:
            a.softmax_out = True
        if a is not None and not a.label:
            a.label, a.labels = "softmax", ["softmax"]


def caption_ref(before: str) -> "lb.Ref | None":
    """The quantity named by the caption the words right before a printout end in ("Attention weights after the
    softmax:"), or None."""
    last = (before or "").strip().split("\n")[-1].strip().strip("*_ ")
    m = re.fullmatch(r"([^:：]{2,60}?)\s*[:：]", last)
    return lb.parse_label(m.group(1).strip("*_ ")) if m else None


def other_than(name: str, caption: "lb.Ref") -> bool:
    """Does the caption name another quantity than the name does?"""
    ref = lb.parse_label(name)
    return ref is None or not set(ref.nodes) & set(caption.nodes)


def not_shown(names: list[str], shown: list[str]) -> list[str]:
    """The names, less one of each name shown already (`print(w)` twice: the second w is still to be shown)."""
    left = list(shown)
    out = []
    for n in names:
        if n in left:
            left.remove(n)
        else:
            out.append(n)
    return out


def without_word_lines(names: list[str], text: str) -> list[str]:
    """print("Sum of first row:", s) printed a line of words and a number, not an array: its name does not
    label one of the arrays (without this, the names would shift onto the arrays printed before it)."""
    plain = [ln.strip() for ln in text.split("\n") if ln.strip() and "[" not in ln]
    out = []
    for n in names:
        m = re.match(r"([^\[\](){}=]*[A-Za-z\u4e00-\u9fff][^\[\](){}=]*[:：])\s", n)
        if m and any(ln.startswith(m.group(1)) for ln in plain):
            continue
        if n.strip() and n.strip() in plain:
            continue                # print("weights") printed that word on a line of its own: no array's name
        out.append(n)
    return out


_BARE_NUMBER = re.compile(r"^\s*-?\d+(?:\.\d+)?(?:[eE][-+]?\d+)?\s*$")


def without_trailing_scalars(names: list[str], text: str, n_arrays: int) -> list[str]:
    """`print(w)`, then `print(d_k ** 0.5)` printing `1.4142135623730951` on the output's last line: a bare number
    printed after the arrays is no array, and the print calls that made such trailing lines name none of them (else
    the names shift, and the weights take the name `d_k ** 0.5`).  Drops at most the names beyond the arrays."""
    lines = [ln for ln in text.split("\n") if ln.strip()]
    trailing = 0
    while trailing < len(lines) and _BARE_NUMBER.match(lines[len(lines) - 1 - trailing]):
        trailing += 1
    drop = min(trailing, max(0, len(names) - n_arrays))
    return names[:len(names) - drop] if drop else names


def items_named(seg: Segment, parts: list[str], new: list) -> list[str] | None:
    """The names of the arrays of a printed tuple, `(tensor([[False, True], ..]), tensor([[1.0, 0.0], ..]))`: each
    array the part of the tuple whose printed item holds its first row, where the items are as many as the parts."""
    text = seg.text.strip()
    if not (text.startswith("(") and text.endswith(")")):
        return None
    lead = seg.text.index("(")
    starts, depth = [lead + 1], 0
    for i, ch in enumerate(seg.text[lead + 1:], start=lead + 1):
        if ch in "([{":
            depth += 1
        elif ch in ")]}":
            depth -= 1
        elif ch == "," and depth == 0:
            starts.append(i + 1)
    if len(starts) != len(parts):
        return None
    first = [seg.line_of(p) for p in starts]
    out = []
    for a in new:
        k = max((j for j, ln in enumerate(first) if ln <= a.line), default=None)
        if k is None:
            return None
        out.append(parts[k])
    return out if len(set(out)) == len(out) else None
