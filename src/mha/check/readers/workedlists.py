"""A list whose every item is worked out in place: `[0.42/2=0.21, 0.29/2=0.145, 0.54/2=0.27]` (or a list of sums
equal to the list of their values, `[0.42/2, 0.29/2] = [0.21, 0.145]`),
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


# `[0.42/1.414, -0.15/1.414] = [0.297, -0.106]`: a list of sums, then the list of their values
_WORK = rf"\s*{_NUM}(?:\s*[-+*/×÷·]\s*{_NUM})+\s*"
_PAIRED = re.compile(rf"\[({_WORK}(?:,{_WORK})+)\]\s*(=|≈)\s*\[(\s*{_NUM}\s*(?:,\s*{_NUM}\s*)+)\]")


def _paired_line(line: str) -> str:
    """The line with each list of sums replaced by its values, and the sums, one statement each, at the end of the
    line (the line goes on after the list: `[6,4] → [6/2, 4/2] = [3,2] → softmax ≈ [0.73, 0.27]`)."""
    sums: list[str] = []
    end = [0]                                 # where the last list rewritten ends

    def values(m: re.Match) -> str:
        items, vals = m.group(1).split(","), m.group(3).split(",")
        if len(items) != len(vals):
            return m.group(0)
        sums.extend(f"{i.strip()} {m.group(2)} {v.strip()}" for i, v in zip(items, vals))
        end[0] = m.end()
        return f"[{', '.join(v.strip() for v in vals)}]"

    out = _PAIRED.sub(values, line)
    if not sums:
        return line
    rest = line[end[0]:]
    if not re.search(r"=|≈|→|->|⇒", rest):
        # nothing goes on after the list but a remark (`= [1, 1]    (simplified)`): the sums right after it
        head = out[:len(out) - len(rest)]
        return head + "".join(f";  {x}" for x in sums) + rest
    return out + "".join(f";  {x}" for x in sums)


def worked_lists(seg: Segment) -> Segment:
    """The segment with each worked list rewritten as its vector and its items' sums (itself when it has none)."""
    if "[" not in seg.text or not (_LIST.search(seg.text) or _PAIRED.search(seg.text)):
        return seg
    lines = seg.text.split("\n")
    line_map = seg.line_map or [seg.line + k for k in range(len(lines))]
    return Segment("\n".join(_paired_line(_LIST.sub(_rewritten, x)) for x in lines), seg.line, seg.where,
                   seg.cell, line_map)


# `e^{0.71}, e^{0}, e^{0.35} = 2.03, 1, 1.42`: a list of worked items equal, item by item, to a list of numbers
_PLAIN = re.compile(rf"\s*{_NUM}\s*")


def _top_commas(tex: str) -> list[str] | None:
    """The parts of `tex` between its commas outside braces and brackets (None when they do not balance)."""
    parts, depth, start = [], 0, 0
    for k, ch in enumerate(tex):
        if ch in "{([":
            depth += 1
        elif ch in "})]":
            depth -= 1
            if depth < 0:
                return None
        elif ch == "," and depth == 0:
            parts.append(tex[start:k])
            start = k + 1
    return parts + [tex[start:]] if depth == 0 else None


def paired_lists(seg: Segment) -> Segment:
    """A math segment `a, b, c = x, y, z` (two or more worked items, each with a number of its own, and as many plain
    numbers) rewritten as `a = x; b = y; c = z`, three statements; any other segment as it is."""
    text = seg.text
    if text.count("=") != 1 or "\n" in text.strip() or "," not in text:
        return seg
    left, right = text.split("=")
    items, values = _top_commas(left), _top_commas(right)
    if not items or not values or len(items) != len(values) or len(items) < 2:
        return seg
    if not all(_PLAIN.fullmatch(v) for v in values) or \
            not all(re.search(r"\d", i) and not _PLAIN.fullmatch(i) and re.search(r"[\^(\\]", i) for i in items):
        return seg
    said = "; ".join(f"{i.strip()} = {v.strip()}" for i, v in zip(items, values))
    return Segment(said, seg.line, seg.where, seg.cell, seg.line_map)
