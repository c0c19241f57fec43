"""Printouts of Julia and R sessions, named as their own REPLs name them, rewritten line for line into the
"name =" over a drawn matrix that plain text is read as (statements.py: a name on its own line names the
printout under it).

    julia> Q = X * Wq                    > Q                       Q =
    3×2 Matrix{Float64}:          ->             [,1]  [,2]   ->
     0.6  0.5                         [1,]  0.6   0.5           0.6   0.5

Julia: the `N×M Matrix{Float64}:` header under `julia> NAME = ...` becomes `NAME =`.  R: `> NAME` (or
`> round(NAME, 4)`) over a `[,1] [,2]` header becomes `NAME =`, the header blank, and the `[1,]` row names spaces.
Every line keeps its length, so that every character after it stays where it was."""

from __future__ import annotations

import re

_JULIA_SET = re.compile(r"^\s*julia>\s*([A-Za-z_]\w*)\s*=(?!=)")
_JULIA_HEAD = re.compile(r"^\s*\d+(?:×\d+)*\s+(?:Matrix|Array|Vector)\{[\w,\s]+\}(?::|\s+with .*:)?\s*$")
_R_SHOW = re.compile(r"^\s*>\s*(?:(?:print|round|signif)\(\s*)?([A-Za-z_][\w.]*)\s*(?:,\s*\d+\s*)?\)?\s*$")
_R_HEAD = re.compile(r"^\s*(?:\[,\d+\]\s*)+$")
_R_ROW = re.compile(r"^\s*\[\d+,\]")


_KNITR = re.compile(r"^(\s*)#>")
_KNITR_SHOW = re.compile(r"^\s*(?:(?:print|round|signif)\(\s*){0,2}([A-Za-z_][\w.]*)\s*(?:,\s*(?:digits\s*=\s*)?\d+\s*)?"
                         r"\)?\s*\)?\s*$")
_R_VECTOR = re.compile(r"^(\s*)\[\d+\](?=\s+[-\d.])")


def _knitr(lines: list[str]) -> None:
    """An R Markdown page's printouts, each line behind `#>` (knitr's prefix): the prefix becomes spaces, the
    `print(scores)` above a `[,1] [,2]` header names the matrix (as `> scores` does in a session), and a vector's
    `[1]` index is blanked."""
    for k, line in enumerate(lines):
        m = _KNITR.match(line)
        if not m:
            continue
        lines[k] = m.group(1) + "  " + line[m.end():]
        if _R_HEAD.match(lines[k]) and k and not _KNITR.match(lines[k - 1]):
            shown = _KNITR_SHOW.match(lines[k - 1])
            if shown and len(lines[k - 1]) >= len(shown.group(1)) + 2:
                lines[k - 1] = _keep(lines[k - 1], "> " + shown.group(1))     # then named as a session names it
        lines[k] = _R_VECTOR.sub(lambda r: r.group(1) + " " * (len(r.group(0)) - len(r.group(1))), lines[k])


def session_printouts(text: str) -> str:
    """The text with Julia and R printouts named as plain text names them (module doc)."""
    if "julia>" not in text and "[,1]" not in text and "#>" not in text:
        return text
    lines = text.split("\n")
    if "#>" in text:
        _knitr(lines)
    for k in range(1, len(lines)):
        if _JULIA_HEAD.match(lines[k]):
            m = _JULIA_SET.match(lines[k - 1])
            if m:
                lines[k] = _keep(lines[k], f"{m.group(1)} =")
            elif lines[k - 1].lstrip().startswith("julia>"):
                lines[k] = _keep(lines[k], "")   # the value of an expression: unnamed, the header names nothing
        elif _R_HEAD.match(lines[k]):
            m = _R_SHOW.match(lines[k - 1])
            if m:
                lines[k - 1], lines[k] = _keep(lines[k - 1], f"{m.group(1)} ="), _keep(lines[k], "")
            j = k + 1
            while j < len(lines) and _R_ROW.match(lines[j]):
                lines[j] = _R_ROW.sub(lambda r: " " * len(r.group(0)), lines[j])
                j += 1
    return "\n".join(lines)


def _keep(old: str, new: str) -> str:
    """new in place of old, as long as old (token positions are offsets into the text as written)."""
    return new.ljust(len(old)) if len(new) <= len(old) else new[:len(old)]
