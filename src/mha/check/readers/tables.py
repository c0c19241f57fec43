"""Tables (Markdown, HTML, LaTeX tabular, tab- or pipe-separated text): shape statements, column matrices,
matrices per head and batch, or one matrix of numbers."""

from __future__ import annotations

import re
import unicodedata

from .. import labels as lb
from ..numbers import NEG_INF, Num, percent
from ..objects import Array, Place
from ..tokenpairs import pair_label
from .common import Segment, copy_context, row_letter
from .listed import ROW_QUANTITIES
from .sizewords import SIZE_UNITS
from .statements import read_tokens
from .tokens import walk_latex



def table_cells(seg: Segment) -> list[tuple[int, list[str]]]:
    out = []
    for k, line in enumerate(seg.text.split("\n")):
        s = line.strip()
        if s.startswith("|"):
            cells = [c.strip() for c in s.strip("|").split("|")]
        else:
            cells = [c.strip() for c in line.split("\t")]
        if all(re.fullmatch(r":?-{2,}:?", c) for c in cells if c):
            continue
        out.append(((seg.line_map or [seg.line + k])[min(k, len(seg.line_map or [0]) - 1)]
                    if seg.line_map else seg.line + k, cells))
    return out


_SHAPE_CELL = re.compile(r"^\$?\s*(?:[\[(]\s*\d+(?:\s*,\s*\d+)+\s*[\])]|\d+\s*(?:×|x|\\times|\*)\s*\d+"
                         r"(?:\s*(?:×|x|\\times|\*)\s*\d+)*)\s*\$?$")
_SHAPE_HEADER = re.compile(r"shape|形状|维度|dim|size|大小|尺寸", re.I)
# a cell that works its value out: `1.95 / 9.00 = **0.217**`, `$e^{0.67}$ = 1.95`
_WORKED_CELL = re.compile(r"^[^=|]*\d[^=|]*[-+*/×÷·^][^=|]*=\s*[*_$`]*\s*[-−]?\d+(?:\.\d+)?\s*[*_$`]*\s*$")
# a cell that works out a size: `2 × 32 × 4096 × 2 bytes = 524,288 bytes = 512 KB`, `512 KB × 4096 = 2 GB`
_SIZE_CELL = re.compile(r"^[^|]*\d[^|]*[*×·][^|]*=\s*[*_$`]*\s*\d[\d,]*(?:\.\d+)?\s*(?:" + SIZE_UNITS +
                        r")\s*[*_$`]*\s*$")


def _worked_cells(b: "Builder", rows: list[tuple[int, list[str]]], cell: int | None) -> None:
    """Each cell that works its own value out is an arithmetic line of its own, on the table row's line (the
    column may still be read as the vector of those values)."""
    for line, cells in rows:
        for c in cells:
            if isinstance(c, HeaderCell) or not isinstance(c, str) or \
                    not (_WORKED_CELL.match(c.strip()) or _SIZE_CELL.match(c.strip())):
                continue
            text = c.strip()
            if len(text) > 2 and text[0] == text[-1] == "$" and "$" not in text[1:-1].strip("$"):
                # `$\frac{e^{1.8}}{e^{2.5}+e^{1.8}+e^{0.5}} = 0.40$`: the whole cell is math, read as TeX
                b.segment(Segment(text.strip("$"), getattr(c, "line", 0) or line, "math", cell))
                continue
            b.segment(Segment(text, getattr(c, "line", 0) or line, "prose", cell))


# a header cell that writes its vector: `K0 = (131.5, 29.6, 8.9)`, `q_2 = [0.1, 0, 1]`
_HEADER_VECTOR = re.compile(r"^[^\W\d][^=()\[\]]{0,19}?\s*=\s*[(\[]\s*"
                            r"([-−+]?\d+(?:\.\d+)?(?:\s*,\s*[-−+]?\d+(?:\.\d+)?)+)\s*[)\]]$")
_PLAIN_CELL = re.compile(r"^[-−+]?\d+(?:\.\d+)?$")


def _header_products(b: "Builder", rows: list[tuple[int, list[str]]], cell: int | None) -> None:
    """A table whose column headers and row names each write a vector (`| Q2 = (0.1, 0, 1) | 22.05 | ...` under
    `| | K0 = (131.5, 29.6, 8.9) | ...`), of one length: each number in it is their dot product, an arithmetic
    line of its own on the row's line (`(0.1, 0, 1)·(131.5, 29.6, 8.9) = 22.05`)."""
    if len(rows) < 3 or not all(isinstance(c, HeaderCell) for c in rows[0][1]):
        return
    def vec(text: str) -> list[str] | None:
        m = _HEADER_VECTOR.match(str(text).strip().strip("*_ $`"))
        return [x.strip().replace("−", "-") for x in m.group(1).split(",")] if m else None
    cols = [vec(c) for c in rows[0][1][1:]]
    if len(cols) < 2 or any(c is None for c in cols) or len({len(c) for c in cols}) != 1:
        return
    items = []
    for line, cells in rows[1:]:
        q = vec(cells[0]) if cells else None
        if q is None or len(q) != len(cols[0]) or len(cells) != len(cols) + 1:
            continue
        for k, c in zip(cols, cells[1:]):
            value = str(c).strip().replace("−", "-")
            if _PLAIN_CELL.match(value):
                items.append((q, k, value, getattr(c, "line", 0) or line))
    # (most cells are the plain products: a table of scaled scores or of weights under the same headers is not)
    agree = sum(Num.parse(v).contains(sum(float(x) * float(y) for x, y in zip(q, k))) for q, k, v, _ in items)
    if agree < 2 or 3 * agree < 2 * len(items):
        return
    for q, k, value, line in items:
        b.segment(Segment(f"[{', '.join(q)}] · [{', '.join(k)}] = {value}", line, "prose", cell))


_SUM_COLUMN = re.compile(r"(?:row\s*)?(?:sum|total|Σ|∑)|行和|合计|总和|summe|suma|soma|somme", re.I)
_REST_ROW = re.compile(r"(?:all\s+)?(?:the\s+)?(?:others?|rest|other\s+(?:words?|tokens?)|…|\.\.\.|"
                       r"其他(?:词|的词|token)?|其余(?:词)?|"
                       r"其它(?:词)?|その他|기타|otros?|autres?|andere)", re.I)
_TOTAL_ROW = re.compile(r"total|sum|Σ|∑|summe|gesamt|合计|总和|总计|求和", re.I)
_AXIS_WORDS = re.compile(r"^(?:query|queries|key|keys|token|tokens|row|rows|col|column|i|j|m|n|t|#|pos|position|"
                         r"位置|行|列|词|查询|键|序号|步骤|step|)$", re.I)


# the corner of a table that says what its rows and columns are ("query \\ key", "Q/K", "查询\\键"): no name
_AXIS_PAIR = re.compile(r"^(?:query|queries|q|token|tokens|row|rows|i|from|查询|词)\s*(?:\\{1,2}|/|→|↓|×|x)?\s*"
                        r"(?:key|keys|k|token|tokens|col|column|columns|j|to|键|词)$", re.I)


class HeaderCell(str):
    """A table cell marked as a header (<th>): a label, never a value."""


class LinedCell(str):
    """A table cell that knows its own line (HTML cells often sit on lines of their own)."""
    line: int = 0


def _partial_columns(b, body, start: int, width: int, cols, head, lines, cell) -> None:
    """A column of Q, K or V vectors with some tokens left empty (`| A | — | (1, 0) |`: only token C has a query)
    beside full columns: each vector it holds is that token's (q_3), as if written in prose."""
    full = {k for k, _ in cols}
    for k in range(start, width):
        if k in full:
            continue
        ref = lb.parse_label(head(k).replace("$", ""))
        cells = [nums[k] if k < len(nums) else None for _, nums, _ in body]
        have = [i for i, c in enumerate(cells) if c]
        if ref is None or len(ref.nodes) != 1 or next(iter(ref.nodes)) not in ("Q", "K", "V") or not have or \
                len(have) == len(cells) or len({len(cells[i]) for i in have}) != 1 or len(cells[have[0]]) < 2:
            continue
        if any(body[i][2] and not _empty_cell(body[i][2][k] if k < len(body[i][2]) else "") for i in
               range(len(cells)) if i not in have):
            continue                     # a cell with words, not a dash: not one token left out
        name = next(iter(ref.nodes)).lower()
        for i in have:
            label = f"{name}_{i + 1}"
            b.doc.add_array(Array([list(cells[i])], Place(lines[i], cell, "table"), label=label, labels=[label],
                                  style="table", context=copy_context(b.ctx)))


def _empty_cell(c) -> bool:
    return str(c).strip().strip("$").strip() in ("", "—", "–", "-", "−", "N/A", "n/a", "/", "·", "…", "\\text{—}")


def read_table(b: "Builder", rows: list[tuple[int, list[str]]], cell: int | None, caption: str = "",
               symbol: str = "") -> None:
    """A table: shape statements (a column of shapes), column matrices (cells holding vectors, or headers
    naming different quantities), or one matrix of numbers (header row and first column are labels)."""
    if not rows:
        return
    _worked_cells(b, rows, cell)
    _header_products(b, rows, cell)
    parsed = [(line, [None if isinstance(c, HeaderCell) else _cell_nums(c, getattr(c, "line", 0) or line)
                      for c in cells], cells)
              for line, cells in rows]
    header, body = _header_and_body(parsed)
    if symbol and _symbol_table(b, body, cell, symbol):
        return
    if _shape_table(b, header, body, cell):
        return
    if not body:
        return
    width = max(len(cells) for _, _, cells in body)
    if header is not None and _grouped_table(b, header, body, cell):
        return
    if header is not None and _quantity_rows(b, header, body, cell):
        return
    if _role_rows(b, body, cell) or _role_matrices(b, body, cell):
        return
    # the first column names the rows (token 1, query 2, 1, 2, 3 ...) unless it is one of several numeric columns
    first = [nums[0] if nums else None for _, nums, _ in body]
    if all(cells and isinstance(cells[0], HeaderCell) for _, _, cells in body):
        first = [None for _ in body]
    index_col = all(f is not None and len(f) == 1 and f[0].decimals is None and abs(f[0].value) < float("inf")
                    for f in first) and \
        [int(f[0].value) for f in first] in (list(range(1, len(first) + 1)), list(range(len(first))))
    named_rows = all(not nums[0] for _, nums, cells in body if nums) if body else False
    if all(cells and isinstance(cells[0], HeaderCell) for _, _, cells in body):
        named_rows = True
    start = 1 if (index_col or named_rows) and width > 1 else 0
    cols = []
    for k in range(start, width):
        cells = [nums[k] if k < len(nums) else None for _, nums, _ in body]
        if all(c for c in cells) and len({len(c) for c in cells}) == 1:
            cols.append((k, len(cells[0])))
    head = lambda k: (header[k] if header is not None and k < len(header) else "").strip()   # noqa: E731
    lines = [line for line, _, _ in body]
    if cols and (index_col or named_rows):
        _partial_columns(b, body, start, width, cols, head, lines, cell)
    if not cols:
        return
    wide = [k for k, n in cols if n >= 2]
    if header is not None and all(n == 1 for _, n in cols) and _column_groups(b, body, cols, head, lines, cell):
        return
    # headers of step columns in shorthand (| raw q·k | raw / √4 |) read as the quantities they name
    stepped = dict(zip((k for k, _ in cols), _step_headers([head(k).replace("$", "") for k, _ in cols])))
    as_written = head
    head = lambda k: stepped.get(k, as_written(k))         # noqa: E731
    refs = {k: lb.parse_label(head(k).replace("$", "")) for k, _ in cols}
    distinct = len({r.nodes for r in refs.values() if r is not None}) >= 2
    if wide or (distinct and len(cols) >= 2) or _quantity_columns(header, cols, head, index_col or named_rows):
        for k, n in cols:
            data = [list(nums[k]) for _, nums, _ in body]
            if n == 1 and (index_col or named_rows) and len(data) > 1:
                data = [[r[0] for r in data]]      # one row per key: a column of scores is one query's row
            label = head(k).replace("$", "")
            a = Array(data, Place(lines[0], cell, "table"), label=label, labels=[label] if label else [],
                      style="table", context=copy_context(b.ctx))
            b.doc.add_array(a)
        return
    if _one_query_column(b, header, body, cols, head, lines, cell, index_col or named_rows):
        return
    data = [[nums[k][0] for k, _ in cols] for _, nums, _ in body]
    if any(str(c).strip().strip("$").strip() in ("...", "…", "⋯", "\\cdots", "\\dots")
           for _, _, cells in body for c in cells[start:]):
        data = [row + [None] for row in data]    # a column of `...` (a sparse matrix shown by its first columns):
        #                                          the rows go on beyond what is printed (an elided cell)
    label = _matrix_label(header, head, start, named_rows, body, cols, caption)
    a = Array(data, Place(lines[0], cell, "table"), label=label, labels=[label] if label else [], style="table",
              context=copy_context(b.ctx))
    b.doc.add_array(a)


def _header_and_body(parsed: list) -> tuple[list | None, list]:
    """A table's header row (None when its first row holds numbers) and its body, without a row of totals, a
    last row standing for the rest of the tokens, or a last column of row sums."""
    header = parsed[0][2] if parsed and all(not n for n in parsed[0][1]) else None
    body = parsed[1:] if header is not None else parsed
    # a row of column totals under the rows (| total | | 4.35 | 1.00 |) is no token's row
    body = [r for r in body if not (r[2] and _TOTAL_ROW.fullmatch(r[2][0].strip("*_ $`").strip()))]
    # a last row for the rest of the tokens in words (| others | weak | near 0 | near 0 |) stands for no token
    if len(body) > 2 and body[-1][2] and _REST_ROW.fullmatch(body[-1][2][0].strip("*_ $`").strip()) and \
            not any(n for n in body[-1][1][1:]):
        body = body[:-1]
    if header is not None and len(header) > 2 and _SUM_COLUMN.fullmatch(str(header[-1]).strip("*_ $`").strip()):
        # a last column of row sums (| Me | in | Name | Row sum |): each row's total, not one more key's weight
        header = header[:-1]
        body = [(line, nums[:len(header)], cells[:len(header)]) if len(cells) == len(header) + 1 else
                (line, nums, cells) for line, nums, cells in body]
    return header, body


def _matrix_label(header, head, start: int, named_rows: bool, body: list, cols: list, caption: str) -> str:
    """The name of a table read as one matrix: its corner cell, its rows' common letter, or its caption."""
    corner = head(0).replace("$", "").strip() if start == 1 else ""
    label = corner if corner and not _AXIS_WORDS.match(corner) and \
        not _AXIS_PAIR.match(re.sub(r"\s*[↓→←↑]\s*", " ", corner).strip()) and \
        lb.parse_label(corner) is not None else ""
    axis_header = header is not None and sum(bool(row_letter([h])) for h in header) >= 2
    # rows named k1, k2 under columns named score, weight: the header names the quantity, the rows only the keys
    said = header is not None and any(lb.parse_label(head(k).replace("$", "")) is not None for k, _ in cols)
    if not label and named_rows and not axis_header and not said:
        label = row_letter([cells[0] for _, _, cells in body])
    if not label and caption:
        m = re.search(r"\\\((.+?)\\\)|\$(.+?)\$", caption)
        math = (m.group(1) or m.group(2)) if m else ""
        label = math if math and lb.parse_label(math) is not None else ""
        words = re.sub(r"\s*\([^()]*\)", "", caption).strip().rstrip(":：")
        if lb.parse_label(words) is None:
            words = re.split(r"\s+[—–-]\s+|[:：]\s", words)[0].strip()    # "Q (queries) — shape (2, 3)": its title
        if not label and len(words) <= 40 and lb.parse_label(words) is not None and \
                not re.fullmatch(r"(?i)[\W_]*(?:head|头|注意力头)\s*\d+[\W_]*", words):   # "**Head 2**" says whose
            label = words                # "Raw scores (rows are queries, columns are keys):" names the table
    return label


_REMARK = re.compile(r"(\[[^\[\]]*\])`?(?:\s*(?:←|⟵|<-+|⬅|👈)[^\d\[\]]*|"
                     # `[0.2689, 0.7311, 0, 0]` — only tokens 1–2: a remark after a dash, in words
                     r"\s+[—–]\s+[^\[\]=]*[^\W\d_][^\[\]=]*)")
_SUBSCRIPT_DIGITS = str.maketrans("₀₁₂₃₄₅₆₇₈₉", "0123456789")


# | raw q·k | raw / √4 | softmax |: a column named as an earlier one divided by a root (or by a number) is the
# scaled scores; "raw" before a name of the scores, or alone, the unscaled ones
_DIVIDED = re.compile(r"^(?P<base>.*?)\s*(?:/|÷|\\div|×\s*1\s*/)\s*(?:√|\\sqrt)?\s*\{?\s*(?:\d+(?:\.\d+)?|d_?k?|d)\s*\}?\s*$")
_RAW = re.compile(r"(?i)^\s*(?:raw|unscaled)\b\s*(?P<rest>.*)$")


def _step_headers(names: list[str]) -> list[str]:
    """Headers of step columns said in shorthand, as the quantity they name: "raw q·k" -> "q·k", "raw" -> "raw
    scores", "raw / √4" or "q·k / 2" after a column of scores -> "scaled scores".  Others are kept as written."""
    out = []
    for k, name in enumerate(names):
        new = name
        if lb.parse_label(name) is None:
            div = _DIVIDED.match(name)
            base = div.group("base").strip() if div else None
            raw = _RAW.match(name)
            if base is not None and (not base or base in names[:k] or _RAW.match(base)):
                new = "scaled scores " + name[div.end("base"):].strip()     # the divisor kept: the written scale
            elif raw is not None and not raw.group("rest"):
                new = "raw scores"
            elif raw is not None:
                ref = lb.parse_label(raw.group("rest"))
                new = raw.group("rest") if ref is not None and set(ref.nodes) <= {"QKt", "S"} else name
        out.append(new)
    return out


def _numbered(name: str) -> str:
    """k₁, k_2, key 3 -> k#, k_#, key #: one quantity numbered along an axis."""
    return re.sub(r"\d+", "#", name.translate(_SUBSCRIPT_DIGITS))


def _quantity_rows(b: "Builder", header: list[str], body: list, cell: int | None) -> bool:
    """One column per key and one row per step (| | k₁ | k₂ | over | q · k | … |, | softmax | … |): each row is a
    quantity of its own, named by its first cell, when the rows name different quantities and the header only
    numbers the keys (or names tokens)."""
    if len(body) < 2 or len(header) < 3:
        return False
    names = [cells[0].strip("*_ $`") if cells else "" for _, _, cells in body]
    refs = [lb.parse_label(n) for n in names]
    if any(r is None for r in refs) or len({r.nodes for r in refs}) < len(refs):
        return False
    keys = [h.strip("*_ $`") for h in header[1:]]
    key_refs = [lb.parse_label(k) for k in keys]
    if not (len({_numbered(k) for k in keys}) == 1 or all(r is None for r in key_refs)):
        return False
    rows = [nums[1:] for _, nums, _ in body]
    if any(len(r) != len(keys) or any(not c or len(c) != 1 for c in r) for r in rows):
        return False
    for (line, _, _), name, r in zip(body, names, rows):
        b.doc.add_array(Array([[c[0] for c in r]], Place(line, cell, "table"), label=name, labels=[name],
                              style="table", context=copy_context(b.ctx)))
    return True


_ROLES = {("Q",), ("K",), ("V",)}


def _role_rows(b: "Builder", body: list, cell: int | None) -> bool:
    """One row per vector, named by its role (| Query (Q) | ... | [0.6, 0.4] |, | Key (K) - cat | ... | [1, 0] |,
    | Value (V) - cat | ... | [1, 0] |): the rows of each role, one after another, are that role's matrix (Q, K or
    V, one row per token), when keys and values are both named and every row holds one vector."""
    roles: list[tuple[tuple, int, list]] = []
    for line, nums, cells in body:
        role = _role(cells[0]) if cells else None
        vectors = [n for n in nums[1:] if n and len(n) >= 2]
        if role is None or len(vectors) != 1 or any(n and len(n) == 1 for n in nums[1:]):
            return False
        roles.append((role, line, vectors[0]))
    order = [r for k, (r, _, _) in enumerate(roles) if k == 0 or roles[k - 1][0] != r]
    if len(order) != len(set(order)) or not {("K",), ("V",)} <= set(order):
        return False                       # a role named twice apart, or no keys and values: not this layout
    for role in order:
        rows = [(line, v) for r, line, v in roles if r == role]
        if len({len(v) for _, v in rows}) != 1:
            return False
    for role in order:
        rows = [(line, v) for r, line, v in roles if r == role]
        b.doc.add_array(Array([list(v) for _, v in rows], Place(rows[0][0], cell, "table"), label=role[0],
                              labels=[role[0]], style="table", context=copy_context(b.ctx)))
    return True


def _role_matrices(b: "Builder", body: list, cell: int | None) -> bool:
    """One row per matrix, named by its role, the matrix written as a literal in the next cell (| Query (Q) |
    `[[1.0, 0.0], [0.0, 1.0]]` (the identity) |): Q, K and V given whole, when keys and values are both named."""
    found = []
    for line, _, cells in body:
        role = _role(cells[0]) if cells else None
        mats = [m for m in (_matrix_cell(str(c), line) for c in cells[1:]) if m is not None]
        if role is None or len(mats) != 1:
            return False
        found.append((role, line, mats[0]))
    roles = [r for r, _, _ in found]
    if len(set(roles)) != len(roles) or not {("K",), ("V",)} <= set(roles):
        return False
    for role, line, rows in found:
        b.doc.add_array(Array(rows, Place(line, cell, "table"), label=role[0], labels=[role[0]], style="table",
                              context=copy_context(b.ctx)))
    return True


def _matrix_cell(text: str, line: int) -> list[list[Num]] | None:
    """A nested list literal in a cell, `[[1, 0], [0, 1]]`, with a remark in parentheses after it or none."""
    s = re.sub(r"\s*\([^()\[\]]*\)\s*$", "", text.strip().strip("*_").strip().strip("`$").strip())
    s = s.strip().strip("`").strip()
    if not (s.startswith("[[") and s.endswith("]]")):
        return None
    rows = []
    for inner in re.findall(r"\[([^\[\]]*)\]", s[1:-1]):
        try:
            rows.append([Num.parse(p.strip(), line) for p in inner.split(",") if p.strip()])
        except ValueError:
            return None
    if not rows or len({len(r) for r in rows}) != 1 or not rows[0]:
        return None
    return rows


def _role(cell: str) -> tuple | None:
    """The role a row's first cell names: Query (Q), Key (K) - cat, 키 (K): the word, or its letter in parentheses."""
    ref = lb.parse_label(cell.strip("*_ $`"))
    if ref is not None and ref.nodes in _ROLES:
        return ref.nodes
    m = re.search(r"\(\s*([QKV])\s*\)", cell)
    return (m.group(1),) if m and ref is None else None


def _one_query_column(b: "Builder", header, body: list, cols: list, head, lines: list[int], cell: int | None,
                      rows_named: bool) -> bool:
    """| Key Token | Score |, one key per row: the only numeric column is one query's row of scores (or weights,
    exponentials), named by its own header, not by the corner over the keys ("Key Token" names no matrix of keys)."""
    if header is None or not rows_named or len(cols) != 1 or cols[0][1] != 1 or len(body) < 2:
        return False
    k = cols[0][0]
    name = head(k).replace("$", "").strip()
    ref = lb.parse_label(name)
    if ref is None or ref.nodes not in ROW_QUANTITIES or ref.row is not None or ref.col is not None:
        return False
    data = [[nums[k][0] for _, nums, _ in body]]
    b.doc.add_array(Array(data, Place(lines[0], cell, "table"), label=name, labels=[name], style="table",
                          context=copy_context(b.ctx)))
    return True


def _quantity_columns(header, cols: list, head, rows_named: bool) -> bool:
    """One row per key or token and one column per step (| key | score | score / 2 | weight |): each column is a
    quantity of its own, not a column of one matrix, when the rows are named and the headers name quantities that
    differ (a header of keys, | | k1 | k2 |, is a matrix's)."""
    if header is None or not rows_named or len(cols) < 2 or sum(bool(row_letter([h])) for h in header) >= 2:
        return False
    names = [head(k).replace("$", "") for k, _ in cols]
    if len({_numbered(n) for n in names}) < len(names):
        return False          # w(k1) | w(k2) | w(k3): one quantity numbered along an axis, a matrix's columns
    return len(set(names)) == len(names) and all(lb.parse_label(n) is not None for n in names)


def _symbol_table(b: "Builder", body: list, cell: int | None, symbol: str) -> bool:
    """A table right after "A =" (or with a data-symbol): one matrix of that name."""
    data = [[n[0] for n in nums if n] for _, nums, _ in body]
    data = [r for r in data if r]
    if data and len({len(r) for r in data}) == 1:
        lines = [line for line, nums, _ in body if any(nums)]
        b.doc.add_array(Array(data, Place(lines[0], cell, "table"), label=symbol, labels=[symbol], style="table",
                              context=copy_context(b.ctx)))
        return True
    return False


def _shape_table(b: "Builder", header: list[str] | None, body: list, cell: int | None) -> bool:
    """A column of shapes beside the names they are shapes of: shape statements."""
    shape_cols = {k for line, _, cells in body for k, c in enumerate(cells) if _SHAPE_CELL.match(c.strip())}
    if shape_cols and (any(_SHAPE_HEADER.search(h) for h in header or []) or
                       any("×" in c or "times" in c or "x" in c for _, _, cells in body for c in cells
                           if _SHAPE_CELL.match(c.strip()))):
        for line, _, cells in body:
            shape = next((c for c in cells if _SHAPE_CELL.match(c.strip())), None)
            if shape is None:
                continue
            named = [(c, lb.parse_label(c.strip("$ ").replace("$", ""))) for c in
                     sorted(cells, key=lambda x: "$" not in x) if c is not shape and re.search(r"[A-Za-zα-ω]", c)]
            pick = next((c for c, r in named if r is not None and r.strong), None)
            if pick is not None:
                text = pick.strip("$ ")
                dims = "×".join(re.findall(r"\d+", shape))
                seg = Segment(text.replace("$", "") + " \\in \\mathbb{R}^{" + dims + "}", line, "table", cell)
                read_tokens(walk_latex(seg.text), seg, b.doc, b.ctx, text_mode=False)
        return True
    return False


def _column_groups(b: "Builder", body: list, cols: list[tuple[int, int]], head, lines: list[int],
                   cell: int | None) -> bool:
    """A header that names a group of columns (Q over two columns, then K, then V): one matrix per group."""
    groups: list[tuple[str, list[int]]] = []
    for k, _ in cols:
        h = head(k)
        if h:
            groups.append((h, [k]))
        elif groups and groups[-1][1][-1] == k - 1:
            groups[-1][1].append(k)
        else:
            groups = []
            break
    if len(groups) >= 2 and any(len(g) > 1 for _, g in groups) and \
            all(lb.parse_label(h.replace("$", "")) is not None for h, _ in groups):
        for h, ks in groups:
            data = [[nums[k][0] for k in ks] for _, nums, _ in body]
            label = h.replace("$", "")
            b.doc.add_array(Array(data, Place(lines[0], cell, "table"), label=label, labels=[label],
                                  style="table", context=copy_context(b.ctx)))
        return True
    return False


_INDEX_HEADER = re.compile(r"^(?:head|heads|h|batch|b|sample|sequence|seq|query|queries|q|token|tokens|row|i|"
                           r"position|pos|头|注意力头|样本|序列|批次|行|查询|位置|词)$", re.I)
_BATCH_HEADER = re.compile(r"^(?:batch|b|sample|sequence|seq|样本|序列|批次)$", re.I)
_HEAD_HEADER = re.compile(r"^(?:head|heads|h|头|注意力头)$", re.I)
_ROW_HEADER = re.compile(r"^(?:第\s*\d+\s*行|row\s*\d+|query\s*\d+|token\s*\d+)$", re.I)


def _grouped_table(b: "Builder", header: list[str], body: list, cell: int | None) -> bool:
    """A table indexed by head (and batch) columns: one matrix per group, with that head as context.

    | head | query | key 1 | key 2 |          | 样本 | 头 | 第 1 行 | 第 2 行 |
    |   1  |   1   | 0.14  | 0.63  |          |  0   | 1  | 0.6, 0.4 | 0.4, 0.6 |
    """
    names = [h.strip().strip("$").strip() for h in header]
    idx = [k for k, h in enumerate(names) if _INDEX_HEADER.match(h)
           and all(k < len(nums) and nums[k] and len(nums[k]) == 1 and nums[k][0].decimals is None
                   for _, nums, _ in body)]
    group_cols = [k for k in idx if _HEAD_HEADER.match(names[k]) or _BATCH_HEADER.match(names[k])]
    if not group_cols:
        return False
    data_cols = [k for k in range(len(names)) if k not in idx
                 and all(k < len(nums) and nums[k] for _, nums, _ in body)]
    if not data_cols:
        return False
    groups: dict[tuple, list] = {}
    for line, nums, _ in body:
        key = tuple(int(nums[k][0].value) for k in group_cols)
        groups.setdefault(key, []).append((line, nums))
    wide = all(len(body[0][1][k]) > 1 for k in data_cols)
    rows_by_header = wide and all(_ROW_HEADER.match(names[k]) for k in data_cols)
    for key, items in groups.items():
        ctx = copy_context(b.ctx)
        for k, v in zip(group_cols, key):
            if _HEAD_HEADER.match(names[k]):
                ctx.head = v
            else:
                ctx.batch = v
        if rows_by_header:
            data = [list(nums[k]) for line, nums in items for k in data_cols]
        elif wide:
            continue
        else:
            data = [[nums[k][0] for k in data_cols] for line, nums in items]
        if len({len(r) for r in data}) != 1:
            continue
        b.doc.add_array(Array(data, Place(items[0][0], cell, "table"), label="", labels=[], style="table",
                              context=ctx))
    return True



_SUBSCRIPTS = str.maketrans("₀₁₂₃₄₅₆₇₈₉", "0123456789")
_NAMED_CELL = re.compile(r"(.{3,24}?)\s*=\s*([-+]?\d+(?:\.\d+)?)")


def _strip_marks(c: str) -> str:
    """A cell's text without the marks that highlight it (`4.601 ⭐`, `0.62 ✅`, `★ 0.31`): symbols and emoji at either
    end, never a digit or a sign."""
    s = c.strip()
    while s and (unicodedata.category(s[-1]) == "So" or s[-1] in "\ufe0f\u200d"):
        s = s[:-1].rstrip()
    while s and (unicodedata.category(s[0]) == "So" or s[0] in "\ufe0f\u200d"):
        s = s[1:].lstrip()
    return s


def _cell_nums(c: str, line: int) -> list[Num] | None:
    """The numbers of a table cell: one number, "1, 0.5", "[1, 2]", "-inf"; None when it holds anything else."""
    s = _strip_marks(c).strip("`*").strip().strip("$").strip().replace("−", "-").replace("\\infty", "inf")
    s = s.replace("\\,", "").replace("\\;", "")
    if "**" in s:
        s = s.replace("**", "")     # `0.210, **0.265**, 0.169`: the largest weight of a listed row in bold
    if s.startswith("\\(") and s.endswith("\\)"):
        s = s[2:-2].strip()         # `\([1, 0, 1]\)`: inline math delimited the LaTeX way
    named = _NAMED_CELL.fullmatch(s)
    if named and pair_label(named.group(1).translate(_SUBSCRIPTS).replace(" ", "").lower()) is not None:
        s = named.group(2)          # `Q₁·K₂ = 0.10`: the cell names its entry (the table's place says the same)
    remark = _REMARK.fullmatch(s)
    if remark:
        s = remark.group(1)         # `[0.6, 0.4, 1.0, 0.2] ← the word we follow`: the arrow points at the vector
    if s.startswith("[") and s.endswith("]") or s.startswith("(") and s.endswith(")"):
        s = s[1:-1]
    parts = [p for p in re.split(r"[,\s]+", s) if p]
    if not parts or len(parts) > 64:
        return None
    out = []
    for p in parts:
        if p in ("-inf", "-∞"):
            out.append(NEG_INF.with_line(line))
            continue
        if re.fullmatch(r"(?:\d+\.\d*|\d+)%", p):     # a weight as a percent: 19.56%
            out.append(percent(p, line))
            continue
        if not re.fullmatch(r"[-+]?(?:\d+\.\d*|\.\d+|\d+)(?:[eE][-+]?\d+)?", p):
            return None
        try:
            out.append(Num.parse(p, line))
        except ValueError:
            return None
    return out
