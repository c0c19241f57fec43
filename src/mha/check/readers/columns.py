"""Plain text laid out in columns: equations side by side on one line, and rows of bare numbers after a label.

People type tables in code blocks with spaces: "h = 8      √d_k = 8" holds two equations, and "weights:  0.27
0.73" is a row of two numbers.  These helpers tell statements.py where one statement ends and when bare numbers
are a row, and when a sum goes on down the page."""

from __future__ import annotations

from .tokens import Tok


def bare_row(toks: list[Tok]):
    """"weights:  0.2689    0.7311": numbers side by side with no brackets or commas, after a label, as plain text
    prints a row.  At least two, each set apart by a space, one of them with decimals (whole numbers side by side
    are as often sizes or counts)."""
    if len(toks) < 2 or any(t.kind != "NUM" or t.num is None for t in toks) or not all(t.space for t in toks[1:]):
        return None
    if not any((t.num.decimals or 0) > 0 for t in toks):
        return None
    return [t.num for t in toks]


def quantity_label(toks: list[Tok]) -> bool:
    """"weights", "scaled scores", "q·k": a label that names a quantity, not a row or token index ("row 1",
    "token 2", "head 0", "第 1 行"), whose rows a table reader takes."""
    words = [t for t in toks if t.kind != "SEP"]
    return bool(words) and not any(t.kind == "NUM" for t in words) and \
        not any(t.kind == "ID" and t.text.lower() in ("row", "rows", "token", "head", "step", "epoch", "layer", "行")
                for t in words)


def column_gap(stmt: list[Tok], i: int, text: str) -> bool:
    """"h = 8      √d_k = 8": a value, a run of spaces wide enough to set a column, and another equation.  Two
    cells of a table laid out in plain text, not the product 8√d_k; a product is written close ("0.4 v_1",
    "2(x + 1)") or with its sign, and "0.73   [1.0, 2.0]" keeps its coefficient."""
    prev, t = stmt[i - 1], stmt[i]
    # two spaces suffice between a number and a short name with its relation ("e^2 =    7.389  e^4 =   54.598")
    # (and after a bracket: "Virat.Q   = [0.9, 0.1]    Virat.K   = [0.8, 0.2]", vectors assigned side by side)
    if t.kind == "OP" and t.text == "(" and prev.kind == "NUM" and prev.end and t.pos - prev.end >= 2 and \
            not text[prev.end:t.pos].strip(" \t") and len(text[prev.end:t.pos]) == t.pos - prev.end:
        # "(1*2 + 0*3)=2   (1*2 + 1*3)=5": a result, spaces, and the next bracketed sum with its own result
        return any(x.kind == "REL" for x in stmt[i:i + 40])
    closed = prev.kind == "OP" and prev.text in ("]", ")")
    least = 2 if (prev.kind == "NUM" or closed) and t.kind == "ID" and \
        any(x.kind == "REL" for x in stmt[i + 1:i + 4]) else 3
    if (prev.kind not in ("NUM", "ID") and not (closed and t.kind == "ID")) or t.kind == "REL" or \
            (t.kind == "OP" and t.text != "√") \
            or not prev.end or t.pos - prev.end < least:
        return False                    # "(x - μ) / σ    →   μ=0": an arrow or sign carries the statement on
    gap = text[prev.end:t.pos]
    if len(gap) != t.pos - prev.end or gap.strip(" \t"):
        return False                    # a line break (a paragraph's wrapped line) or anything else in between
    rest = stmt[i:i + 8]
    return any(x.kind == "REL" for x in rest)


def sum_goes_on(prev: list[Tok], s: list[Tok]) -> bool:
    """A line that starts with + and a term (a number or a bracket) after a line that starts with = and ends in a
    term (a chain whose name was written above it): one sum laid out a term per line,

        = (0.04 × 0.08)          = 0.0032
        + (0.12 × 0.04)          + 0.0048
                                 = 0.0080

    Read line by line, "+ (0.12 × 0.04) = 0.0032" would be a wrong product that nobody wrote.  Only a line
    that opens with =: a wider rule (any line with an equation and a sum) joined lines of other layouts that
    were not one sum, and gave six more false lines on the unread set J (counts only, the documents unread)."""
    if len(s) < 2 or s[0].kind != "OP" or s[0].text != "+" or not (s[1].kind == "NUM" or s[1].text == "("):
        return False
    if not prev or not (prev[-1].kind == "NUM" or prev[-1].text == ")"):
        return False
    return prev[0].kind == "REL"
