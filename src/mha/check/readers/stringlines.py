"""A worked example kept in a script's string literals, one line of the page per literal, as a script that builds a
document (python-docx, a report writer) holds it:

    r = code.add_run(
        'X = [[0.8, 0.2, 0.5],\\n'
        '     [0.1, 0.9, 0.3]]\\n\\n'
        'scores = Q @ K.T = [[0.93, 0.41],\\n'
        ...

The literals are the page; the code around them is not.  Each literal's text goes on the line the literal is on (its
closing `\\n` dropped), everything else is blanked, and the result is read as plain text, so that every number keeps
its line.  Only a script with a run of such lines that print numbers in brackets counts (a script whose strings are
messages and labels is read as a script); the literals are parsed with `ast.literal_eval`, never run.
"""

from __future__ import annotations

import ast
import io
import re
import tokenize

_MIN_LINES = 6            # literals that end a line of the page ('...\n')
_MIN_BRACKETS = 2         # ... of which print numbers in brackets
_BRACKETED = re.compile(r"\[\s*-?\d")


def string_lines(text: str) -> str | None:
    """The page the script's one-line string literals spell, line for line; None when it does not spell one."""
    if "\\n'" not in text and '\\n"' not in text:
        return None
    try:
        toks = list(tokenize.generate_tokens(io.StringIO(text).readline))
    except (tokenize.TokenError, SyntaxError, IndentationError):
        return None
    lines = text.split("\n")
    out = [""] * len(lines)
    ended = bracketed = 0
    for t in toks:
        if t.type != tokenize.STRING or t.start[0] != t.end[0]:
            continue
        prefix = re.match(r"[A-Za-z]*", t.string).group(0).lower()
        if "f" in prefix or "b" in prefix:
            continue
        try:
            value = ast.literal_eval(t.string)
        except (ValueError, SyntaxError, MemoryError, RecursionError):
            continue
        if not isinstance(value, str):
            continue
        if value.endswith("\n"):
            ended += 1
        value = value.rstrip("\n")
        if "\n" in value:
            continue                  # several lines of the page in one literal: where each stands is not known
        bracketed += bool(_BRACKETED.search(value))
        row = t.start[0] - 1
        out[row] = f"{out[row]} {value}" if out[row] else value
    if ended < _MIN_LINES or bracketed < _MIN_BRACKETS:
        return None
    return "\n".join(out)
