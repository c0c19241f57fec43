"""A sum of vectors written over several lines of plain text, each line going on with the one above:

    output = 0.1×[0.1, 0.2] + 0.3×[0.5, 0.6]        output = 0.1×[0.1, 0.2]
           = [0.01, 0.02] + [0.15, 0.18]                   + 0.3×[0.5, 0.6]
           = [0.16, 0.20]                                  = [0.16, 0.20]

A line that starts with + or = (≈) after a line of bracketed arithmetic continues it: the newlines between them
are read as spaces, so that the whole derivation is one statement (one chain), as a reader takes it.  The text
keeps its length, so every number keeps its line."""

from __future__ import annotations

import re

_GOES_ON = re.compile(r"\s*(?:\+|=(?!=)|≈)\s*(?=[\[\d.(−-])")
_ENDS = re.compile(r"[\]\d)]\s*$")


_TRAILING_PLUS = re.compile(r"^(.*\S)\s*\+\s*(#.*)?$")
_TERM = re.compile(r"\s*[-−]?(?:\d|\.\d|\[|\()")
_COMMENT = re.compile(r"\s#.*$")


def _trailing_plus(lines: list[str]) -> set[int]:
    """`out = 0.41 * [1.0, 0.1] +   # "The"` over `0.18 * [0.2, 0.9] +   # "cat"`: lines that end in + (a comment
    after it) go on with the term on the next line.  Their comments are blanked (the text keeps its length) and the
    indexes of the lines joined to the line before them are returned."""
    out: set[int] = set()
    for k in range(len(lines) - 1):
        m = _TRAILING_PLUS.match(lines[k])
        if not m or "[" not in lines[k] or not _TERM.match(lines[k + 1]) or "[" not in lines[k + 1]:
            continue
        for i in (k, k + 1):
            c = _COMMENT.search(lines[i])
            if c and lines[i].count('"') % 2 == 0:
                lines[i] = lines[i][:c.start()] + " " * (c.end() - c.start())
        out.add(k + 1)
    return out


_WRAPPED = re.compile(r"[\d)]\s*\+\s*\n[ \t]*[-−]?[\d(.]")


def _wrapped_sums(lines: list[str]) -> set[int]:
    """A sum wrapped by the line breaks of a paragraph, `... = 0.1(3.32+2.32) +` over `0.6(0.74+1.0) + ...`: the
    line after a line that ends in + (after a number or a bracket) and starts with a term goes on with it."""
    return {k + 1 for k in range(len(lines) - 1)
            if re.search(r"[\d)]\s*\+\s*$", lines[k]) and re.match(r"[ \t]*[-−]?[\d(.]", lines[k + 1])}


def join_continued(text: str) -> str:
    """The text with the newlines before each continuation line (and one blank line before it) made spaces."""
    plus = "[" in text and re.search(r"\+\s*(?:#[^\n]*)?\n", text) is not None
    wrapped = _WRAPPED.search(text) is not None
    if not wrapped and ("[" not in text or not (plus or re.search(r"\n\s*[+=≈]", text))):
        return text
    lines = text.split("\n")
    join_before: set[int] = _trailing_plus(lines) if plus else set()    # line k is joined to what comes before it
    if wrapped:
        join_before |= _wrapped_sums(lines)
    if "[" not in text:
        return _joined(lines, join_before)
    for k in range(1, len(lines)):
        if not _GOES_ON.match(lines[k]) or "[" not in lines[k]:
            continue
        j = k - 1 if lines[k - 1].strip() or k < 2 else k - 2
        if not lines[j].strip() or not _ENDS.search(lines[j]) or not _bracketed(lines, j, join_before):
            continue
        join_before.update(range(j + 1, k + 1))
    return _joined(lines, join_before)


def _joined(lines: list[str], join_before: set[int]) -> str:
    out = []
    for k, line in enumerate(lines):
        out.append((" " if k in join_before else "\n") + line if k else line)
    return "".join(out)


def _bracketed(lines: list[str], j: int, join_before: set[int]) -> bool:
    """Does the statement that line j ends hold bracketed arithmetic, begun on its first line (out = ...,
    0.1×[...])?  Vectors stacked one under another with + (a sum drawn in columns) are drawn_sum's."""
    k = j
    while k in join_before:
        k -= 1
    return "[" in " ".join(lines[k:j + 1]) and re.search(r"[×*·=]", lines[k]) is not None


_NAMED_GROUP = re.compile(r"([A-Za-z][\w^{}']*\s*=\s*)([^\W\d]\w*)(\s*)(\[[^\[\]]*\])")
_TOKEN_GROUP = re.compile(r"([^\W\d]\w*)(\s*)(\[[^\[\]]*\])")


def token_named_rows(text: str) -> str:
    """Matrices written with their name before the first row's token and each row after it named by its token,
    alone or side by side:

         X = the [ 1  0  1  0 ]          Q = the [1 2]     K = the [0 1]
             cat [ 0  2  0  1 ]              cat [1 1]         cat [2 0]

    The tokens are blanked (the text keeps its length), so that the rows are read as one matrix per name (side by
    side, as `W_Q = [..]    W_K = [..]` over rows of both is read); the first row is no longer "X = the" alone."""
    if "[" not in text or "=" not in text:
        return text
    lines = text.split("\n")
    for k, line in enumerate(lines[:-1]):
        first = list(_NAMED_GROUP.finditer(line))
        if not first or line[first[-1].end():].strip() or \
                any(line[a.end():b.start()].strip() for a, b in zip(first, first[1:])) or line[:first[0].start()].strip():
            continue
        cols = [m.start(4) for m in first]
        rows = []
        for j in range(k + 1, len(lines)):
            groups = list(_TOKEN_GROUP.finditer(lines[j]))
            if [m.start(3) for m in groups] != cols or lines[j][groups[-1].end():].strip() or \
                    lines[j][:groups[0].start()].strip() or \
                    any(lines[j][a.end():b.start()].strip() for a, b in zip(groups, groups[1:])):
                break
            rows.append((j, groups))
        if not rows:
            continue
        out = list(line)
        for m in first:
            out[m.start(2):m.start(4)] = " " * (m.start(4) - m.start(2))
        lines[k] = "".join(out)
        for j, groups in rows:
            out = list(lines[j])
            for m in groups:
                out[m.start(1):m.start(3)] = " " * (m.start(3) - m.start(1))
            lines[j] = "".join(out)
    return "\n".join(lines)
