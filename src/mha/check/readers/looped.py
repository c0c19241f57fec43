"""Entries of a matrix printed by a loop, one a line, as notebooks show who attends to whom:

    for i, word in enumerate(tokens):               the output:   'the'
        print(f"'{word}'")                                          -> 'the': 0.41
        for j, w in enumerate(weights[i]):                          -> 'cat': 0.33
            print(f"  -> '{tokens[j]}': {w:.2f}")                   'cat'
                                                                    -> 'the': 0.27 ...

Read line by line, each printed line is a token's name and one loose number, which nothing identifies.  The code
says what they are: the inner print formats one entry of `weights[i]`, so the printed lines, in order, are the
entries of `weights`, a row per pass of the outer loop (the runs between the outer loop's own lines).  A single
loop over one row (`for tok, w in zip(tokens, weights[0])`) prints that row.  Only the loop's own template is
read (its words are matched literally), each entry keeps its own line, and the matrix is named by the code's name,
so it is identified like any printout: by most of its entries agreeing with one quantity.
"""

from __future__ import annotations

import ast
import re
from dataclasses import dataclass

from ..numbers import Num
from ..objects import Array, Place
from .common import Segment, blank_lines, copy_context, line_offset

_VALUE = r"(?P<v>[-+−]?\d+(?:\.\d+)?(?:[eE][-+]?\d+)?%?)"


@dataclass
class LoopPrint:
    name: str                  # the matrix (or row) whose entries are printed: `weights`
    line: re.Pattern           # one printed line, the entry as group "v"
    nested: bool               # one row per pass of an outer loop


def loop_prints(tree: ast.AST | None) -> list[LoopPrint]:
    """The loops of a piece of code that print one entry of a named matrix per line."""
    out: list[LoopPrint] = []
    if tree is None:
        return out
    for outer in ast.walk(tree):
        if not isinstance(outer, ast.For):
            continue
        row = _row_var(outer.target)
        for inner in outer.body:
            if isinstance(inner, ast.For):
                got = _entry_print(inner, row)
                if got is not None:
                    out.append(LoopPrint(got[0], got[1], True))
        if not any(isinstance(n, ast.For) for n in outer.body):
            got = _entry_print(outer, None)
            if got is not None:
                out.append(LoopPrint(got[0], got[1], False))
    return out


def _row_var(target: ast.AST) -> str | None:
    """`i` of `for i in range(n)` and of `for i, word in enumerate(tokens)`."""
    if isinstance(target, ast.Name):
        return target.id
    if isinstance(target, ast.Tuple) and target.elts and isinstance(target.elts[0], ast.Name):
        return target.elts[0].id
    return None


def _indexed(node: ast.AST, row: str | None) -> str | None:
    """`weights[i]` (with i the outer loop's) or `weights[0]` alone: the name of the matrix indexed."""
    if not (isinstance(node, ast.Subscript) and isinstance(node.value, ast.Name)):
        return None
    idx = node.slice
    if row is not None and isinstance(idx, ast.Name) and idx.id == row:
        return node.value.id
    if row is None and isinstance(idx, ast.Constant) and isinstance(idx.value, int):
        return node.value.id
    return None


def _entry_print(loop: ast.For, row: str | None) -> tuple[str, re.Pattern] | None:
    """(matrix, line pattern) of `for j, w in enumerate(M[i]): print(f"...{w:.2f}")`, of its zip form and of
    `for j in range(n): print(f"...{M[i][j]:.2f}")`."""
    it, target = loop.iter, loop.target
    name, entry = None, None
    if isinstance(it, ast.Call) and isinstance(it.func, ast.Name) and isinstance(target, ast.Tuple) and \
            len(target.elts) == 2 and not it.keywords:
        if it.func.id == "enumerate" and len(it.args) == 1:
            name, entry = _indexed(it.args[0], row), target.elts[1]
        elif it.func.id == "zip" and len(it.args) == 2:
            k = 1 if _indexed(it.args[1], row) else 0
            name, entry = _indexed(it.args[k], row), target.elts[k]
    elif isinstance(it, ast.Call) and isinstance(it.func, ast.Name) and it.func.id == "range" and \
            isinstance(target, ast.Name):
        entry = target                                   # the column variable: M[i][j] or M[i, j] is printed
    else:
        name, entry = _indexed(it, row), target
    if not isinstance(entry, ast.Name) or len(loop.body) != 1:
        return None
    body = loop.body[0]
    if not (isinstance(body, ast.Expr) and isinstance(body.value, ast.Call) and
            isinstance(body.value.func, ast.Name) and body.value.func.id == "print"):
        return None
    call = body.value
    if call.keywords or len(call.args) != 1 or not isinstance(call.args[0], ast.JoinedStr):
        return None
    parts, seen = [], []
    for part in call.args[0].values:
        if isinstance(part, ast.Constant) and isinstance(part.value, str):
            parts.append(re.escape(part.value))
        elif isinstance(part, ast.FormattedValue):
            got = _entry_of(part.value, entry.id, row, name is None)
            if got:
                seen.append(got)
                parts.append(_VALUE)
            else:
                parts.append(r"[^\n]*?")
        else:
            return None
    if len(seen) != 1 or "\n" in "".join(parts):
        return None
    return name or seen[0], re.compile(r"^\s*" + "".join(parts).strip() + r"\s*$")


def _entry_of(node: ast.AST, var: str, row: str | None, by_index: bool) -> str | None:
    """What a formatted value prints: "w" for `w`, `w.item()`, `float(w)` (the loop's entry); the matrix's name for
    `M[i][j]` or `M[i, j]` when the loop runs over column numbers.  A percentage (`w * 100`) is another quantity."""
    if isinstance(node, ast.Call) and not node.args and isinstance(node.func, ast.Attribute) and \
            node.func.attr == "item":
        node = node.func.value
    elif isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id == "float" and \
            len(node.args) == 1:
        node = node.args[0]
    if not by_index:
        return "entry" if isinstance(node, ast.Name) and node.id == var else None
    if not isinstance(node, ast.Subscript):
        return None
    if isinstance(node.slice, ast.Tuple) and len(node.slice.elts) == 2:       # M[i, j]
        first, col, base = node.slice.elts[0], node.slice.elts[1], node.value
    elif isinstance(node.value, ast.Subscript):                              # M[i][j]
        first, col, base = node.value.slice, node.slice, node.value.value
    else:
        return None
    if not (isinstance(col, ast.Name) and col.id == var and isinstance(base, ast.Name)):
        return None
    return _indexed(ast.Subscript(value=base, slice=first), row)


def looped_rows(b, seg: Segment, loops: list[LoopPrint]) -> Segment:
    """Read the lines each loop printed as its matrix (or row); give back the segment with them blanked."""
    lines = seg.text.split("\n")
    used: list[int] = []
    for loop in loops:
        runs: list[list[tuple[int, str]]] = []
        last = None
        for k, text in enumerate(lines):
            if k in used:
                continue
            m = loop.line.match(text)
            if m is None:
                continue
            if last is None or k != last + 1:
                runs.append([])
            runs[-1].append((k, m.group("v")))
            last = k
        if not runs or any(len(r) < 2 for r in runs) or "%" in "".join(v for r in runs for _, v in r):
            continue
        if not loop.nested and len(runs) != 1 or loop.nested and len({len(r) for r in runs}) != 1:
            continue
        try:
            rows = [[Num.parse(v.replace("−", "-"), seg.line_of(line_offset(seg.text, k))) for k, v in r]
                    for r in runs]
        except ValueError:
            continue
        first = seg.line_of(line_offset(seg.text, runs[0][0][0]))
        b.doc.add_array(Array(rows, Place(first, seg.cell, seg.where), label=loop.name, labels=[loop.name],
                              style="numpy", context=copy_context(b.ctx)))
        used += [k for r in runs for k, _ in r]
    return blank_lines(seg, used)
