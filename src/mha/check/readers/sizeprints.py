"""Sizes a notebook prints: `torch.Size([3, 4]) torch.Size([4, 2])` under `print(x.shape, W.shape)`, read as shape
statements about the names printed (and, for an attention module called on tensors of known sizes, what those
sizes make its output), then blanked so that no reader takes them for values."""

from __future__ import annotations

import re

from ..objects import Chain, Hint, LabelPart, ShapePart
from .common import Segment, copy_context
from .torchshapes import product_shape


def shape_names(p: str) -> bool:
    """Is every name printed (print(x.shape, W.size())) the shape of something?"""
    parts = [x for x in re.split(r"[\s,]+", p) if x]
    return bool(parts) and all(x.endswith((".shape", ".size()")) for x in parts)


# a heading between code and the sizes it printed that still announces its output ("### Output", "运行结果")
_OUTPUT_HEADING = re.compile(r"output|result|print|输出|结果|打印|出力|結果", re.I)


def sizes(b: "Builder", seg: Segment) -> Segment:
    """torch.Size([3, 4]) torch.Size([4, 2]) printed by print(x.shape, W.shape): shape statements.  Sizes shown
    after a heading that does not announce an output, or after several headings, are an example output of code not
    shown yet, not the last code's printout ("输出结果示例" five sections after another demo)."""
    names = []
    hs = b.headings_since_code
    stale = len(hs) > 1 or bool(hs) and not _OUTPUT_HEADING.search(hs[0])
    for p in [] if stale else b.pending_output_labels:
        names += [x for x in re.split(r"[\s,]+", p) if x.endswith(".shape") or x.endswith(".size()")]
    shown = b.last_expr if getattr(seg, "result", False) and b.last_expr else ""
    if shown.endswith((".shape", ".size()")) and len(re.findall(r"Size\(\[", seg.text)) == 1 and not stale:
        # torch.bmm(X, Y).shape as a cell's result: the product of tensors of sizes the code states
        expected = product_shape(shown.rsplit(".", 1)[0], b.shapes[0])
        m = re.search(r"(?:torch\.)?Size\(\[([\d,\s]*)\]\)", seg.text)
        if expected is not None and m is not None:
            b.doc.hints.append(Hint("module_shape", (shown, [int(x) for x in re.findall(r"\d+", m.group(1))],
                                                     expected), seg.place(m.start()), m.group(0)))
    k = 0
    for m in re.finditer(r"(?:torch\.)?Size\(\[([\d,\s]*)\]\)", seg.text):
        dims = [int(x) for x in re.findall(r"\d+", m.group(1))]
        if len(dims) >= 2 and k < len(names):
            label = names[k]
            b.doc.chains.append(Chain([LabelPart(label), ShapePart(dims, m.group(0))], ["∈"],
                                         seg.place(m.start()), m.group(0), copy_context(b.ctx)))
            base = label.rsplit(".", 1)[0]
            if base in b.shapes[2]:               # the output or weights of an attention module on known tensors
                b.doc.hints.append(Hint("module_shape", (label, dims, b.shapes[2][base]), seg.place(m.start()),
                                        m.group(0)))
        k += 1
    text = re.sub(r"(?:torch\.)?Size\(\[[\d,\s]*\]\)", lambda m: " " * len(m.group(0)), seg.text)
    out = Segment(text, seg.line, seg.where, seg.cell, seg.line_map)
    if getattr(seg, "result", False):
        out.result = True
    return out
