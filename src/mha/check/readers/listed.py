"""Values listed one per item under a caption that names them (a Markdown list, or the same drawn in plain text or a
code block with `-` before each item):

    Weights after the softmax:          Softmax 계산 후 가중치:
    - tea: 0.402                        - 아메리카노: 0.402
    - coffee: 0.329                     - 카페라떼: 0.329
    - milk: 0.269                       - 녹차라떼: 0.269

Each item names a token and gives one number (or works it out, `tea: 0.6×1 + 0.4×0 = 0.6`, whose result is the
value); the caption names the quantity.  The items are one row of that quantity, one entry per token, as a reader
takes them: the row of the weights (or scores) of one query.  Each entry keeps its own line."""

from __future__ import annotations

import re

from .. import labels as lb
from ..numbers import Num, percent
from ..objects import Array, Place
from .common import copy_context

# what a caption may name: the steps of one query's row
ROW_QUANTITIES = {("A",), ("QKt", "S"), ("S",), ("E",)}
_ITEM = re.compile(r"^\s*(?P<name>[^:：=\d][^:：=]{0,30}?)\s*[:：]\s*(?:(?P<work>[^=≈]*\d[^=≈]*)\s*(?:=|≈)\s*)?"
                   r"(?P<value>[-−]?\d+(?:\.\d+)?)\s*(?P<pct>%)?\s*(?:[(（][^()（）]*[)）])?\s*$")
# an item that names its quantity itself, one token a line: `sat -> "cat" (pos 1): score = 0.78  (the subject)`
_SAID_ITEM = re.compile(r"^(?P<name>[^:：=\d\s][^:：=]{0,40}?)\s*[:：]\s*(?P<what>[A-Za-z][\w ]{0,20}?)\s*=\s*"
                        r"(?P<value>[-−]?\d+(?:\.\d+)?)\s*(?:[(（][^()（）]*[)）])?\s*$")
# `score(cat) = 0.20   — low, the noun` / `weight(cat) = 0.10`: the quantity's name called on the token
_CALLED_ITEM = re.compile(r"^(?P<what>[A-Za-z][\w ]{0,20}?)\s*\(\s*(?P<name>[^()=:]{1,24}?)\s*\)\s*=\s*"
                          r"(?P<value>[-−]?\d+(?:\.\d+)?)\s*(?:(?:[—–←#(（]|--|\s-\s).*)?$")
# a closing line that totals the list, not one of its tokens: "Total: 1.00 (100 percent)"
_TOTAL = re.compile(r"(?i)^\s*(?:total|sum|合计|总和|总计|和)\s*[:：]")
_CAPTION = re.compile(r"^(?P<words>[^\n]{2,80}?)\s*[:：]\s*$")
# a numbered step named by the softmax alone ("Step 3 — softmax", "3. Softmax", "第三步：softmax")
_STEP_CAPTION = re.compile(r"(?i)^(?:step\s*\d+|\d+[.)]|第.{1,3}步)\s*[—–:：.-]?\s*"
                           r"(?:apply(?:ing)?\s+(?:the\s+)?)?softmax$")


def caption_quantity(caption: str) -> tuple[str, tuple] | None:
    """The name a caption ending in a colon gives the list under it, and the quantity it names."""
    m = _CAPTION.match(re.sub(r"^([*_]{1,2})(.*?[:：])\1\s*$", r"\2", caption.strip()))   # (**Step 3 — softmax:**)
    if not m:
        return None
    words = m.group("words").strip("*_ ")
    step = _STEP_CAPTION.match(words)
    if step:                                # "Step 3 — softmax": what that step gives, the weights
        return words, ("A",)
    ref = lb.parse_label(words)
    if ref is None:                         # "Scores (Q @ Kᵀ):": the words, without the remark in parentheses
        words = re.sub(r"\s*[(（][^()（）]*[)）]", "", words).strip()
        ref = lb.parse_label(words)
    if ref is None or ref.nodes not in ROW_QUANTITIES or ref.row is not None or ref.col is not None:
        return None
    return words, ref.nodes


def listed_row(b: "Builder", caption: str, items: list[tuple[int, str]], cell: int | None) -> bool:
    """Add the row the items give under a caption naming a quantity (True), or nothing (False): at least two items,
    each `name: number`, the names all different and none naming another quantity."""
    named = caption_quantity(caption)
    if named is None or len(items) < 2:
        return False
    label, nodes = named
    row: list[Num] = []
    names = []
    for line, text in items:
        m = _ITEM.match(text)
        if not m:
            return False
        name = m.group("name").strip("*_` ")
        ref = lb.parse_label(name)
        if ref is not None and ref.nodes != nodes:
            return False                      # "- score: 0.6" under "Weights:": items of different quantities
        value = m.group("value").replace("−", "-")
        row.append(percent(value + "%", line) if m.group("pct") else Num.parse(value, line))
        names.append(name)
    if len(set(names)) < len(names):
        return False
    b.doc.add_array(Array([row], Place(items[0][0], cell, "prose"), label=label, labels=[label], style="list",
                          context=copy_context(b.ctx)))
    return True


_TEXT_ITEM = re.compile(r"^\s*[-*•]\s+(?P<item>\S.*)$")
# a printout's items indented under their caption, without a bullet, a bar of blocks drawn after the value:
# "  Item 2: 0.3057  ████████████"
_INDENTED_ITEM = re.compile(r"^\s{2,}(?P<item>[^\s\-*•].*?)(?:\s+[█▉▊▋▌▍▎▏▇▆▅▄▃▂▁■#|]+)?\s*$")


def _text_item(line: str) -> re.Match | None:
    """A bulleted item, or an indented one that only gives its value (`  pizza: 1.761/4.453 = 0.395` works it out:
    an arithmetic line of its own, judged as such)."""
    m = _TEXT_ITEM.match(line)
    if m:
        return m
    m = _INDENTED_ITEM.match(line)
    return m if m and not re.search(r"[=/×*≈]", m.group("item")) else None


def plain_item(line: str) -> re.Match | None:
    """In a code block or a printout, right under its caption: an unindented `name: value` line, a remark in
    parentheses after it allowed (`sat -> "The": 0.18  (18 percent)`); not a total."""
    if _TOTAL.match(line):
        return None
    m = re.match(r"^(?P<item>\S.*?)\s*$", line)
    return m if m and _ITEM.match(m.group("item")) and not re.search(r"[=/×*≈]", m.group("item")) else None


def _said_rows(b: "Builder", seg, lines: list[str], offsets: list[int]) -> None:
    """Runs of two or more lines that each name their token and say which quantity the value is (`...: score =
    0.78`), all the same quantity of one query's row: that row, with no caption needed."""
    k = 0
    while k < len(lines):
        run, j = [], k
        while j < len(lines) and (m := _SAID_ITEM.match(lines[j].strip()) or _CALLED_ITEM.match(lines[j].strip())):
            run.append(m)
            j += 1
        if len(run) >= 2:
            whats = {m.group("what").strip().lower() for m in run}
            ref = lb.parse_label(run[0].group("what").strip()) if len(whats) == 1 else None
            names = [m.group("name").strip() for m in run]
            if ref is not None and ref.nodes in ROW_QUANTITIES and ref.row is None and ref.col is None and \
                    len(set(names)) == len(names):
                row = [Num.parse(m.group("value").replace("−", "-"), seg.line_of(offsets[k + i]))
                       for i, m in enumerate(run)]
                label = run[0].group("what").strip()
                b.doc.add_array(Array([row], Place(seg.line_of(offsets[k]), seg.cell, "prose"), label=label,
                                      labels=[label], style="list", context=copy_context(b.ctx)))
        k = max(j, k + 1)


def listed_rows_in_text(b: "Builder", seg) -> None:
    """The same rows where the list is lines of plain text (a printout, a code block): a caption line ending in a
    colon, then two or more `- name: value` lines (or `  name: value`, indented without a bullet)."""
    if ":" not in seg.text and "：" not in seg.text:
        return
    lines = seg.text.split("\n")
    offsets = [0]
    for line in lines:
        offsets.append(offsets[-1] + len(line) + 1)
    if seg.where in ("code", "output"):
        _said_rows(b, seg, lines, offsets)
    k = 0
    while k < len(lines):
        if caption_quantity(lines[k]) is None:
            k += 1
            continue
        items, j = [], k + 1
        plain = seg.where in ("code", "output") and j < len(lines) and plain_item(lines[j]) is not None
        while j < len(lines) and (m := (plain_item(lines[j]) if plain else _text_item(lines[j]))):
            items.append((seg.line_of(offsets[j]), m.group("item")))
            j += 1
        if items:
            listed_row(b, lines[k], items, seg.cell)
        k = max(j, k + 1)
