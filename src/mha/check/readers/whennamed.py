"""A list named only "before" or "after", with what it is said in a remark at the end of its line:

    antes:  [0.8, 0.3, 0.1]  -- puntuaciones crudas
    después: [0.57, 0.29, 0.14]  -- pesos que suman 1

"before" and "after" say where the list stands in a step, not what it is; the remark says what it is (raw scores,
weights that sum to 1).  The remark's words become the list's name, so the two pair as scores and their softmax."""

from __future__ import annotations

import re

from .. import labels as lb

_WHEN = r"(?:before|after|antes|despu[eé]s|vorher|nachher|avant|apr[eè]s|prima|dopo|до|после|前|后|後)"
_LINE = re.compile(r"^(?P<indent>\s*)" + _WHEN + r"\s*[:：]\s*(?P<list>\[[^\[\]\n]*\])\s*(?:--+|—|#|//|←|<-+)\s*"
                   r"(?P<remark>[^\n]{2,60}?)\s*$", re.I | re.M)


def named_by_remark(text: str) -> str:
    """Each `before: [..]  -- what it is` line written `what it is: [..]` (see the module); other lines unchanged."""
    if "[" not in text:
        return text

    def one(m: re.Match) -> str:
        remark = m.group("remark").strip()
        ref = lb.parse_label(remark)
        if ref is None or not set(ref.nodes) & {"QKt", "S", "A", "E"}:
            return m.group(0)
        return f"{m.group('indent')}{remark}: {m.group('list')}"
    return _LINE.sub(one, text)
