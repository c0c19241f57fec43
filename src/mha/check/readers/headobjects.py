"""Weights grouped by head in an object or a dict literal of code:

    const head2 = {
      W_query: [[0,0,0],[0,5,0],[0,0,0]],
      W_key:   [[0,0,0],[0,5,0],[0,0,0]],
    };

Each key names a weight of that head, not the one W_Q of the example: `W_query` inside `head2 = {...}` reads as
`head2.W_query` (head 2's W_Q), as the page's code uses it (`runAttentionHead(sentence, head2)`).  Lines keep their
number; only the keys inside such a literal are renamed."""

from __future__ import annotations

import re

_OPEN = re.compile(r"^(\s*(?:(?:const|let|var)\s+)?)([A-Za-z_]*?head_?(\d+))(\s*(?::\s*\w+\s*)?=\s*\{)\s*$", re.I)
_KEY = re.compile(r"^(\s*)(['\"]?)([A-Za-z_]\w*)(\2\s*:)")


def head_objects(text: str) -> str:
    if "head" not in text.lower() or "{" not in text:
        return text
    lines = text.split("\n")
    k = 0
    while k < len(lines):
        m = _OPEN.match(lines[k])
        if not m:
            k += 1
            continue
        name = m.group(2)
        j = k + 1
        while j < len(lines) and not re.match(r"^\s*\}", lines[j]) and j - k <= 40:
            key = _KEY.match(lines[j])
            if key and re.search(r"\bW|weight|query|key|value|\bq\b|\bk\b|\bv\b", key.group(3), re.I):
                lines[j] = key.group(1) + key.group(2) + f"{name}." + key.group(3) + key.group(4) + \
                    lines[j][key.end():]
            j += 1
        k = j + 1
    return "\n".join(lines)
