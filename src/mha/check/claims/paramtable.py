"""A table of weights with their shapes (or the products that count them) and parameter counts, as notes on a
model's size write one:

    | Projection | Weight shape  | # parameters |
    | W_Q        | (8192, 8192)  | 67 108 864   |
    | W_up       | (8192, 28672) | 234 881 024  |

A count is the product of its row's shape (with the bias, one more row of the last size, where the layer has one);
in millions or billions (`67.1M`, `0.23 B`) to its printed digits.  Only a near miss is judged a slip: a count more
than twice or less than half the product counts something else (every layer, every head), as a row may say in a
column this reading does not follow.  A one-dimensional shape (a norm's, `(768,)`) is left alone: its count may
be its weight and its bias together.
"""

from __future__ import annotations

import math
import re

from ..report import Finding

_COUNT_HEAD = re.compile(r"(?i)\bparam(?:eter)?s?\b|#\s*params?|参数|參數|パラメータ|파라미터")
# the column that gives each weight's shape, or the product that counts it (`768 × (768×3)` under 계산, calculation)
_SHAPE_HEAD = re.compile(r"(?i)\bshape\b|\bcalculation\b|\bformula\b|形状|形狀|尺寸|サイズ|형태|크기|计算|計算|계산|公式")
_SHAPE = re.compile(r"^[(\[]?\s*(\d+(?:\s*[,×x*]\s*\(?\s*\d+(?:\s*[×x*]\s*\d+)*\s*\)?)+)\s*[)\]]?$")
_SEPARATOR = re.compile(r"^\s*\|?\s*:?-{3,}")
_SUFFIX = {"K": 1e3, "k": 1e3, "M": 1e6, "B": 1e9, "G": 1e9}


def _cells(line: str) -> list[str]:
    return [c.strip().strip("`*").strip() for c in line.strip().strip("|").split("|")]


def _count(text: str):
    """The count a cell prints, how far it may be from the product (its rounding) and how to print a count as it
    does: `67 108 864`, `8,388,608`, `67.1M`, `0.23 B`; None for anything else."""
    t = text.replace("\u202f", " ").replace("\u2009", " ").replace("\u00a0", " ").strip()
    m = re.fullmatch(r"(\d{1,3}(?:[ ,_']\d{3})+|\d+)", t)
    if m:
        return float(re.sub(r"[ ,_']", "", t)), 0.0, lambda x: f"{x:,.0f}"
    m = re.fullmatch(r"(\d+(?:\.\d+)?)(\s*)([KkMBG])", t)
    if m:
        digits = len(m.group(1).split(".")[1]) if "." in m.group(1) else 0
        unit = _SUFFIX[m.group(3)]
        return float(m.group(1)) * unit, 0.5 * 10.0 ** -digits * unit, \
            lambda x: f"{x / unit:.{digits}f}{m.group(2)}{m.group(3)}"
    return None


def _columns(head: list[str]) -> tuple[int, int] | None:
    """The column of counts and the column of shapes of a table's header, where it has one of each."""
    counts = [i for i, h in enumerate(head) if _COUNT_HEAD.search(h)]
    shapes = [i for i, h in enumerate(head) if _SHAPE_HEAD.search(h)]
    return (counts[0], shapes[0]) if len(counts) == 1 and len(shapes) == 1 else None


def _blocks(lines: list[str]):
    """Each Markdown table as its rows, (line number, text): the header row, then the rows under its separator."""
    k = 0
    while k + 1 < len(lines):
        if lines[k].lstrip().startswith("|") and _SEPARATOR.match(lines[k + 1]) and "|" in lines[k + 1]:
            rows = [(k + 1, lines[k])]
            j = k + 2
            while j < len(lines) and lines[j].lstrip().startswith("|"):
                rows.append((j + 1, lines[j]))
                j += 1
            yield rows
            k = j
        else:
            k += 1


def judge_param_tables(j, doc) -> None:
    """Each parameter count of a table with a shape column, against its shape (j: the judge)."""
    sources = [(None, doc.lines)] + sorted(doc.cell_lines.items())
    for cell, lines in sources:
        for rows in _blocks(lines or []):
            head = _cells(rows[0][1])
            columns = _columns(head)
            if columns is None:
                continue
            count, shape = columns
            for line, text in rows[1:]:
                cells = _cells(text)
                if len(cells) != len(head):
                    continue
                m, got = _SHAPE.match(cells[shape]), _count(cells[count])
                if m is None or got is None:
                    continue
                dims = [int(d) for d in re.findall(r"\d+", m.group(1))]
                product = math.prod(dims)
                value, room, form = got
                holds = any(abs(value - p) <= room + 1e-9 for p in (product, product + dims[-1], product + dims[0]))
                if not holds and not 0.5 < value / product < 2:
                    continue            # another quantity: every layer's, every head's
                j.n_claims += 1
                j.n_numbers += 1
                if holds:
                    continue
                shown = form(product)
                name = cells[0].replace("`", "")
                j.add(Finding(line, cell, f"{head[count]} of {name}", cells[count], float(product), shown, "size",
                              f"parameter count: {' × '.join(map(str, dims))} is {product:,}", "arithmetic"))


def param_tables(doc) -> bool:
    """Whether the page has a table of shapes and parameter counts to judge."""
    for lines in [doc.lines] + list(doc.cell_lines.values()):
        for rows in _blocks(lines or []):
            if _columns(_cells(rows[0][1])) is not None:
                return True
    return False
