"""An attention function called on three literal matrices, in prose or inline code:

    Example: `attention([[1,0],[0,1]], [[1,0],[0,1]], [[2,1],[0,3]])`
    Expected: `[[1.3395, 1.6605], [0.6605, 2.3395]]`

A function whose name ends in "attention", "attn" or "sdpa" (or an exercise site's `solve`), called with exactly
three bracketed arrays (and perhaps a fourth argument None: no mask), is given its query, keys and values in that
order (every attention function of the tutorials and exercise sites takes them so).  The call is rewritten in place
as `Q = ..., K = ..., V = ...`, which the readers then name as any statement of givens; the line keeps its number.
In a code fence only a call that is the whole line is rewritten, as `Q = ...; K = ...; V = ...`, which is Python
too; a call inside other code is left alone (rewriting it would break the program the code reader parses).
"""

from __future__ import annotations

import re

_CALL = re.compile(r"(?<![\w.])(?:(?:[A-Za-z_]\w*_)?(?:attention|attn|sdpa)|solve)\s*\(\s*(?=\[)", re.I)
_FENCE = re.compile(r"^\s*(```|~~~)")
_NAMES = ("Q", "K", "V")


def name_call_arguments(text: str) -> str:
    """The text with each attention call on three literal arrays, outside code fences, written as the givens."""
    if "(" not in text or not _CALL.search(text):
        return text
    lines = text.split("\n")
    fenced = False
    for k, line in enumerate(lines):
        if _FENCE.match(line):
            fenced = not fenced
            continue
        if _CALL.search(line):
            lines[k] = _rewrite(line, fenced)
    return "\n".join(lines)


def _rewrite(line: str, fenced: bool) -> str:
    out, at = [], 0
    for m in _CALL.finditer(line):
        if m.start() < at:
            continue
        args, end = _arguments(line, m.end())
        if args is not None and len(args) == 4 and args[3] in ("None", "mask=None"):
            args = args[:3]
        if args is None or len(args) != 3 or not all(a.startswith("[") and a.endswith("]") for a in args):
            continue
        if fenced and (line[:m.start()].strip() or line[end:].strip()):
            continue                             # inside other code: Python, left as it is
        out.append(line[at:m.start()])
        out.append(("; " if fenced else ", ").join(f"{n} = {a}" for n, a in zip(_NAMES, args)))
        at = end
    out.append(line[at:])
    return "".join(out)


def _arguments(line: str, start: int) -> tuple[list[str] | None, int]:
    """The top-level arguments of the call whose first argument starts at `start`, and where the call ends."""
    depth, args, piece = 0, [], start
    for i in range(start, len(line)):
        c = line[i]
        if c in "[(":
            depth += 1
        elif c in "])":
            if depth == 0:                       # the call's own closing parenthesis
                if c != ")":
                    return None, start
                args.append(line[piece:i].strip())
                return args, i + 1
            depth -= 1
        elif c == "," and depth == 0:
            args.append(line[piece:i].strip())
            piece = i + 1
    return None, start
