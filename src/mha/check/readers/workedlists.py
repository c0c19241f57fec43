"""A list whose every item is worked out in place: `[0.42/2=0.21, 0.29/2=0.145, 0.54/2=0.27]`,
`weights = [1.23/3.70=0.33, 1.16/3.70=0.31]`.  A reader takes it as two things: the vector of the results
(`[0.21, 0.145, 0.27]`, under the list's name) and one small sum per item (`0.42/2 = 0.21`).  The line is
rewritten that way, the vector first and the items after it as statements of their own (`; 0.42/2=0.21; ...`);
lines keep their number, so every number keeps its line."""

from __future__ import annotations

import re

from .common import Segment

_NUM = r"[-−]?(?:\d+(?:\.\d*)?|\.\d+)"
_ITEM = rf"\s*(?:{_NUM}|\(\s*{_NUM}\s*\))(?:\s*[-+*/×÷·]\s*(?:{_NUM}|\(\s*{_NUM}\s*\)))+\s*(?:=|≈)\s*{_NUM}\s*"
_LIST = re.compile(rf"\[({_ITEM}(?:,{_ITEM})+)\]")
_SPLIT = re.compile(rf"^(?P<work>.*?)\s*(?P<rel>=|≈)\s*(?P<value>{_NUM})\s*$")


def _rewritten(m: re.Match) -> str:
    items = [_SPLIT.match(x.strip()) for x in m.group(1).split(",")]
    values = ", ".join(i.group("value") for i in items)
    sums = ";  ".join(f"{i.group('work').strip()} {i.group('rel')} {i.group('value')}" for i in items)
    return f"[{values}];  {sums}"


def worked_lists(seg: Segment) -> Segment:
    """The segment with each worked list rewritten as its vector and its items' sums (itself when it has none)."""
    if "[" not in seg.text or not _LIST.search(seg.text):
        return seg
    lines = seg.text.split("\n")
    line_map = seg.line_map or [seg.line + k for k in range(len(lines))]
    return Segment("\n".join(_LIST.sub(_rewritten, x) for x in lines), seg.line, seg.where, seg.cell, line_map)
