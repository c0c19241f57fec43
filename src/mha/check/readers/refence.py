"""Fenced code in a Markdown text, walked line by line: which lines stand outside fences, and how a run of lines
that lost its fences is fenced again in place (the blank lines around the run hold the fences, so every line keeps
its number).  Shared by the rewrites markdown.py and clipped.py make before the text is parsed."""

from __future__ import annotations

_FENCES = ("```", "~~~")


def is_fence(line: str) -> bool:
    return line.lstrip().startswith(_FENCES)


def outside_fences(lines: list[str]) -> list[bool]:
    """For each line, does it stand outside fenced code (a fence line itself counts as inside)?"""
    out, fence = [], False
    for line in lines:
        if is_fence(line):
            fence = not fence
            out.append(False)
        else:
            out.append(not fence)
    return out


def blank_around(lines: list[str], first: int, last: int) -> bool:
    """Are the lines just before `first` and just after `last` blank (the end of the text counts as blank)?"""
    return first >= 1 and not lines[first - 1].strip() and (last + 1 == len(lines) or not lines[last + 1].strip())


def fence_in_place(lines: list[str], first: int, last: int) -> int:
    """Fence lines first..last, the blank lines around them becoming the fences (see blank_around); the index of
    the closing fence."""
    lines[first - 1] = "```"
    if last + 1 == len(lines):
        lines.append("```")
    else:
        lines[last + 1] = "```"
    return last + 1
