"""A matrix of written arithmetic and the matrix of its values:

    Q K^T = [[0.37x0.43 + 0.57x0.42, 0.37x0.29 + 0.57x0.41], ...] = [[0.40, 0.34], ...]
    S = \\begin{bmatrix} 1 \\cdot 0 + 2 \\cdot 1 & ... \\end{bmatrix} = \\begin{bmatrix} 2 & ... \\end{bmatrix}

Each printed value is judged against the arithmetic written in the same place, whatever the configuration.  The
line carries its own identity: the cells stand in the same places; a value is judged only when most of the others
agree with theirs (at least two thirds), so that the two matrices are known to be one computation written twice.
The written terms carry their rounding (each factor within half a unit of its last digit): only a value outside
every reading of its terms is a slip."""

from __future__ import annotations

import re
from dataclasses import dataclass

from .. import numbers as nb
from ..numbers import Num
from ..objects import Array, ArrayPart, Chain, LabelPart
from ..report import Finding, NotChecked
from .common import _chain_text, _simple_kind

@dataclass
class CellwiseClaim:
    chain: Chain
    cells: list[list[Num]]      # the written arithmetic, each cell as the interval its terms give
    result: Array
    name: str                   # the chain's own name for it ("Q · K^T"), else "matrix"
    rounded: Array | None = None    # `≈ [0.65; 0.35]` after the values: the same cells, rounded again


def _held_cells(plan, result: Array):
    """Which cells of the result the configuration identified the result by and gives as printed (a grid of
    booleans), when the result as a whole was identified (its plan holds); else None."""
    hit = plan.get("hit") if plan and plan.get("kind") == "holds" else None
    if hit is None or hit.view is None or getattr(hit, "ok", None) is None:
        return None
    ok = hit.ok
    try:
        if len(ok) != len(result.rows) or any(r is None or len(ok[i]) != len(r) for i, r in enumerate(result.rows)):
            return None
    except TypeError:
        return None
    return [[bool(v) for v in row] for row in ok]


_FRAC = re.compile(r"\\[dt]?frac\s*\{([^{}]*)\}\s*\{([^{}]*)\}")
_TEX_TIMES = re.compile(r"\\(?:cdot|times)\b")


def _is_expr(n: Num | None) -> bool:
    return n is not None and bool(re.search(r"[-+*/×·]|\\[dt]?frac\b", n.text.lstrip("-+−")))


def _plain(text: str) -> str:
    """TeX arithmetic as plain text: `\\frac{2.718}{30.193}` as `(2.718)/(30.193)`, `\\cdot` as `*`."""
    if "\\" not in text:
        return text
    return _TEX_TIMES.sub("*", _FRAC.sub(lambda m: f"({m.group(1)})/({m.group(2)})", text))


def _parse_cell(text: str, like: Num | None = None) -> Num | None:
    """The interval the written arithmetic stands for; with `like` (the printed value), terms printed to fewer
    decimals and significant digits than it are exact (numbers.exact_below: 0.5 in `0.5x0.7` is a given)."""
    from ..readers.expr import arithmetic_of
    text = _plain(text)
    if not re.search(r"\d\)?\s*[-+*/x×]\s*[\d(]", text):
        return None
    e = arithmetic_of(text, times_x=True)
    if e is None:
        return None
    try:
        if like is not None:
            e = nb.exact_below(e, like.decimals or 0, nb.significant_digits(like) or None)
        got = nb.evaluate(e)
    except (ArithmeticError, OverflowError, ValueError, TypeError, IndexError):
        return None
    return Num(got.value, text.strip(), got.lo, got.hi, 0, None)


def _written_matrix(text: str) -> list[list[Num]] | None:
    """`[[a+b, c+d], [e+f, g+h]]` or `[a+b, c+d]` written in plain text: the cells as intervals."""
    t = text.replace("\n", " ").strip()
    if t.startswith("(") and t.endswith(")") and "," in t:
        t = "[" + t[1:-1] + "]"          # a tuple, `(\\frac{2.718}{30.193}, ...)`: one row
        if "(" in _FRAC.sub("", t) or "[" in t[1:]:
            return None
    if not (t.startswith("[") and t.endswith("]")):
        return None
    inner = t[1:-1].strip()
    rows = re.findall(r"\[([^\[\]]*)\]", inner) if inner.startswith("[") else [inner]
    if not rows or (inner.startswith("[") and re.sub(r"\[[^\[\]]*\]|[\s,]", "", inner)):
        return None
    out = []
    for r in rows:
        cells = [_parse_cell(c) for c in r.split(",")]
        if not cells or any(c is None for c in cells):
            return None
        out.append(cells)
    return out if len({len(r) for r in out}) == 1 else None


def cellwise_claims(c: Chain) -> list[CellwiseClaim]:
    out = []
    for k in range(len(c.parts) - 1):
        p, q = c.parts[k], c.parts[k + 1]
        if c.rels[k] not in ("=", "≈") or not isinstance(q, ArrayPart) or q.array.elided:
            continue
        if any(_is_expr(n) for r in q.array.rows for n in r):
            continue                                  # the right side is arithmetic too
        cells = None
        if isinstance(p, ArrayPart) and not p.array.elided and \
                (len(p.array.rows) >= 2 or any("frac" in n.text for n in p.array.rows[0] if n is not None)) and \
                all(_is_expr(n) for r in p.array.rows for n in r):
            cells = [list(r) for r in p.array.rows]    # TeX: the matrix of expressions is read as an array
        elif isinstance(p, LabelPart) and p.operands is None:
            cells = _written_matrix(p.text)
        if cells is None or len(cells) != len(q.array.rows) or \
                any(len(a) != len(b) for a, b in zip(cells, q.array.rows)) or sum(map(len, cells)) < 2:
            continue
        name = next((x.text for x in c.parts[:k] if isinstance(x, LabelPart) and x is not p and "[" not in x.text),
                    "matrix")
        after = c.parts[k + 2] if k + 2 < len(c.parts) and c.rels[k + 1] in ("=", "≈") else None
        rounded = after.array if isinstance(after, ArrayPart) and not after.array.elided and \
            [len(r) for r in after.array.rows] == [len(r) for r in q.array.rows] and \
            not any(n is None or _is_expr(n) for r in after.array.rows for n in r) else None
        out.append(CellwiseClaim(c, cells, q.array, " ".join(name.split()), rounded))
    return out


def _witnessed(c: CellwiseClaim, pairs: list, bad: list) -> bool:
    """Too few cells for two thirds to agree (a column of two sums), but the values are rounded again after them
    (`= [0.654; 0.364] ≈ [0.65; 0.35]`): every rounded cell is its written arithmetic at that precision, and each
    disagreeing value is not what its rounded copy says.  The arithmetic and the copy are one computation written
    three times; the value that leaves both is the slip."""
    if c.rounded is None or not bad or len(bad) == len(pairs):
        return False
    r = c.rounded.rows
    if not all(r[i][j].contains(x.value, x.hi - x.value) or r[i][j].contains(x.lo) or r[i][j].contains(x.hi)
               for i, j, x, _ in pairs):
        return False
    return all(r[i][j].decimals is not None and r[i][j].decimals < (n.decimals or 0) and
               not r[i][j].contains(n.value) for i, j, _, n in bad)


class CellwiseJudging:
    """Judge method for CellwiseClaim (a mixin of Judge)."""

    def judge_cellwise(self, c: CellwiseClaim) -> None:
        if c.chain.context.partial:
            return
        pairs = [(i, j, _parse_cell(x.text, n) or x, n) for i, (xr, nr) in enumerate(zip(c.cells, c.result.rows))
                 for j, (x, n) in enumerate(zip(xr, nr))]
        bad = [(i, j, x, n) for i, j, x, n in pairs
               if not (x.lo <= n.hi + 1e-9 * max(1.0, abs(n.value)) and n.lo <= x.hi + 1e-9 * max(1.0, abs(x.value)))]
        if (3 * len(bad) > len(pairs) or len(pairs) - len(bad) < 2) and not _witnessed(c, pairs, bad):
            self.not_checked.append(NotChecked(c.result.line, c.result.place.cell, _chain_text(c.chain)[:60],
                                               f"{len(bad)} of its {len(pairs)} values are not the arithmetic "
                                               "written in their places: another step is meant; no value is judged"))
            return
        self.n_claims += 1
        self.n_numbers += len(pairs)
        # judged against the arithmetic it is written as: no longer "not checked" for matching no intermediate
        self.not_checked = [x for x in self.not_checked if (x.line, x.cell) != (c.result.line, c.result.place.cell)
                            or "matches no" not in x.reason]
        name = c.name
        held = _held_cells(getattr(self, "plans", {}).get(c.result.id), c.result)
        for i, j, x, n in bad:
            if held is not None and held[i][j]:
                # the value is the configuration's (K = E W_K of the printed E and W_K), the arithmetic written in
                # its place is not: a factor of the written sum is mistyped, and that is the one slip (found once,
                # whichever claim comes to it first)
                line = c.cells[i][j].line or x.line or n.line or c.result.row_line(i)
                if any((g.line, g.cell, g.printed) == (line, c.result.place.cell, x.text) for g in self.findings):
                    continue
                self.add(Finding(line, c.result.place.cell,
                                 f"the arithmetic written for {name}[{i + 1},{j + 1}]", x.text, n.value, n.text,
                                 c.chain.context.step or "scores",
                                 f"a mistyped term: it gives {n.rounded(x.value)}, but {name}[{i + 1},{j + 1}] is "
                                 f"{n.text}, as the printed inputs give and as the result beside it says",
                                 "arithmetic"))
                continue
            self.add(Finding(n.line or c.result.row_line(i), c.result.place.cell, f"{name}[{i + 1},{j + 1}]", n.text,
                             x.value, n.rounded(x.value), c.chain.context.step or "scores",
                             f"arithmetic slip: {x.text} gives {n.rounded(x.value)}",
                             _simple_kind(n, x.value) if _simple_kind(n, x.value) != "wrong_value" else "arithmetic"),
                     merge=True)
