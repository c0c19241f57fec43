"""A matrix product drawn in plain text, each factor a column of [ ... ] rows of its own height:

                   [0, 1]
    [2, 0, 1]      [1, 0]      [1, 3]
    [1, 1, 0]  x   [1, 1]  =   [1, 1]

The operator and the "=" stand on one line; the factors may have different numbers of rows (a 2×3 times a 3×2),
so the rows are not lines of one matrix, as drawn.py's side-by-side reading takes them.  The block becomes
MATRIX * MATRIX = MATRIX tokens, which statements.py reads as a written-out product (claims/product.py).

A sum of vectors drawn one under another, ruled off, then its result (`drawn_sum`):

      [0.5, 1.0]
    + [2.0, 0.5]
    ------------
    = [2.5, 1.5]

becomes the one statement [0.5, 1.0] + [2.0, 0.5] = [2.5, 1.5] (each number keeps its own line), a vector sum
claims/vector.py judges against its printed terms."""

from __future__ import annotations

import re
from typing import Callable

from .tokens import Tok, lex_text

_OPERATORS = ("x", "×", "*", "@", "·", "⋅")
Groups = Callable[[str], "list[tuple[int, int]] | None"]


def _gaps(line: str, spans: list[tuple[int, int]]) -> list[str]:
    return [line[b:a].strip() for (_, b), (a, _) in zip(spans, spans[1:])]


def _block_end(lines: list[str], i: int, groups: Groups) -> int:
    """The last line of the run of lines made of [ ... ] groups only (operators and "=" between them)."""
    j = i
    while j < len(lines):
        spans = groups(lines[j]) if "[" in lines[j] else None
        if not spans or lines[j][:spans[0][0]].strip() or lines[j][spans[-1][1]:].strip():
            break
        if any(g and g not in _OPERATORS and g != "=" for g in _gaps(lines[j], spans)):
            break
        j += 1
    return j - 1


def drawn_product(lines: list[str], starts: list[int], i: int, groups: Groups) -> tuple[list[Tok], int] | None:
    """(tokens, last line) of a product drawn from line i on, or None when lines i.. are not one.  groups: the
    column spans of a line's [ ... ] groups (drawn.py's reading of a line)."""
    j = _block_end(lines, i, groups)
    if j <= i:
        return None
    spans = {k: groups(lines[k]) or [] for k in range(i, j + 1)}
    # the one line that carries the operator and the "=": three groups, one per factor and the result
    op_lines = [k for k in spans if any(_gaps(lines[k], spans[k]))]
    if len(op_lines) != 1:
        return None
    k_op = op_lines[0]
    gaps = _gaps(lines[k_op], spans[k_op])
    if len(spans[k_op]) != 3 or gaps[0] not in _OPERATORS or gaps[1] != "=":
        return None
    cols = [a for a, _ in spans[k_op]]
    factors: list[list[tuple[int, int, int]]] = [[], [], []]
    for k, sp in spans.items():
        for a, b in sp:
            n = next((c for c, col in enumerate(cols) if abs(col - a) <= 2), None)
            if n is None:
                return None
            factors[n].append((k, a, b))
    for rows in factors:
        ks = [k for k, _, _ in rows]
        if ks != list(range(ks[0], ks[0] + len(ks))) or k_op not in ks:
            return None                      # each factor's rows are consecutive and cross the operator line
    cells = [[_cells(lines[k], starts[k], a, b) for k, a, b in rows] for rows in factors]
    widths = [{len(r) for r in m} for m in cells]
    if any(len(w) != 1 for w in widths):
        return None
    (wl,), (wr,), (wc,) = widths
    if wl != len(cells[1]) or wr != wc or len(cells[0]) != len(cells[2]):
        return None                          # not (m×k)(k×n) = (m×n): some other drawing
    out: list[Tok] = []
    op_at = starts[k_op] + lines[k_op].index(gaps[0], spans[k_op][0][1])
    eq_at = starts[k_op] + lines[k_op].index("=", spans[k_op][1][1])
    for n, rows in enumerate(factors):
        k0, a0, _ = rows[0]
        k1, _, b1 = rows[-1]
        out.append(Tok("MATRIX", "rows", starts[k0] + a0, args=cells[n], end=starts[k1] + b1))
        if n < 2:
            out.append(Tok("OP", "*", op_at, end=op_at + 1) if n == 0 else Tok("REL", "=", eq_at, end=eq_at + 1))
    out.append(Tok("SEP", "\n", starts[j] + len(lines[j]), end=starts[j] + len(lines[j])))
    return out, j


def _cells(line: str, start: int, a: int, b: int) -> list[list[Tok]]:
    return [lex_text(m.group(0), start + a + 1 + m.start()) for m in re.finditer(r"[^\s,]+", line[a + 1:b - 1])]


_TERM = re.compile(r"^\s*([-+]?)\s*(\[[^\[\]]*\])\s*$")
_RULE = re.compile(r"^\s*[-─━_=]{3,}\s*$")
_TOTAL = re.compile(r"^\s*=\s*(\[[^\[\]]*\])\s*$")


def drawn_sum(lines: list[str], starts: list[int], i: int) -> tuple[list[Tok], int] | None:
    """(tokens, last line) of vectors added one under another from line i on (a rule, then "= [...]")."""
    terms = []
    j = i
    while j < len(lines) and (m := _TERM.match(lines[j])) and (j == i or m.group(1)):
        terms.append((j, m))
        j += 1
    if len(terms) < 2 or terms[0][1].group(1) == "-" or j + 1 >= len(lines) or not _RULE.match(lines[j]):
        return None
    total = _TOTAL.match(lines[j + 1])
    if total is None:
        return None
    sizes = {len(re.findall(r"[^\s,\[\]]+", m.group(2))) for _, m in terms} | \
        {len(re.findall(r"[^\s,\[\]]+", total.group(1)))}
    if len(sizes) != 1 or not all(re.fullmatch(r"\[[-+−\d.,\s]*\]", m.group(2)) for _, m in terms):
        return None
    out: list[Tok] = []
    for k, m in terms:
        a = m.start(1) if m.group(1) else m.start(2)
        out.extend(lex_text(lines[k][a:m.end(2)], starts[k] + a))
    k = j + 1
    a = lines[k].index("=")
    out.extend(lex_text(lines[k][a:total.end(1)], starts[k] + a))
    out.append(Tok("SEP", "\n", starts[k] + len(lines[k]), end=starts[k] + len(lines[k])))
    return out, k
