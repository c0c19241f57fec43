"""Arrays and shapes inside a statement: matrix tokens and nested bracket lists as rows of numbers (NumPy and
torch printouts included), and shapes written as ℝ^{3×4}, [3, 2], (2 × 3) or [3, 2] × [2, 3]."""

from __future__ import annotations

import math

from .. import numbers as nb
from ..numbers import Num
from ..objects import ShapePart, ShapeProduct
from .common import Segment
from .expr import parse_expr
from .tokens import Tok, flat_text

MAX_CELLS = 20000

# ------------------------------------------------------------------ arrays

def _cell(toks: list[Tok], seg: Segment) -> Num | None | str:
    """A matrix cell: a Num, None for an ellipsis, or "" when it is not a number."""
    toks = [t for t in toks if t.kind != "SEP"]
    if len(toks) == 1 and toks[0].kind == "ELL":
        return None
    if not toks:
        return ""
    if len(toks) == 2 and toks[0].kind == "OP" and toks[0].text == "-" and toks[1].kind == "INF":
        return nb.NEG_INF.with_line(seg.line_of(toks[1].pos))
    if len(toks) == 2 and toks[0].kind == "NUM" and toks[1].kind == "OP" and toks[1].text == "%":
        try:                                     # a weight printed as a percent: 18.02% (LaTeX 18.02\%)
            return nb.percent(toks[0].text + "%", seg.line_of(toks[0].pos))
        except ValueError:
            return ""
    e = parse_expr(toks, seg)
    if e is None or nb.has_symbols(e):
        return ""
    n = nb.plain_number(e)
    if n is not None:
        return n
    try:
        v = nb.evaluate(e)
    except ArithmeticError:
        return ""
    text = flat_text(toks)
    return Num(v.value, text, v.lo, v.hi, seg.line_of(toks[0].pos), 12 if v.lo == v.hi else None)


def matrix_rows(tok: Tok, seg: Segment) -> list[list[Num | None] | None] | None:
    rows: list[list[Num | None] | None] = []
    for r in tok.args:
        cells = [_cell(c, seg) for c in r]
        if any(c == "" for c in cells):
            return None
        if all(c is None for c in cells):
            rows.append(None)
        else:
            rows.append(cells)
    return rows or None


def stacked_matrix_rows(tok: Tok, seg: Segment) -> tuple[list, tuple[int, ...]] | None:
    """A batch written as a matrix of matrices, `\\begin{bmatrix} \\begin{bmatrix}..\\end{bmatrix} \\\\
    \\begin{bmatrix}..\\end{bmatrix} \\end{bmatrix}`: the inner matrices' rows stacked, with the batch as the
    leading shape (as a printed 3-D tensor is read); None unless every row holds one matrix, all of one shape."""
    inner = []
    for r in tok.args:
        cells = [c for c in ([t for t in cell if t.kind != "SEP"] for cell in r) if c]
        if len(cells) != 1 or len(cells[0]) != 1 or cells[0][0].kind != "MATRIX":
            return None
        rows = matrix_rows(cells[0][0], seg)
        if rows is None or any(x is None for x in rows) or len({len(x) for x in rows}) != 1:
            return None
        inner.append(rows)
    if len(inner) < 2 or len({(len(m), len(m[0])) for m in inner}) != 1:
        return None
    return [r for m in inner for r in m], (len(inner),)


class BracketParser:
    """Nested bracket lists: Python/JSON literals, NumPy rows without commas, torch printouts."""

    def __init__(self, toks: list[Tok], seg: Segment):
        self.t = toks
        self.seg = seg
        self.commas = False
        self.count = 0

    def parse(self, i: int) -> tuple[list, int] | None:
        try:
            return self._list(i, 0)
        except (ValueError, IndexError, RecursionError):
            return None

    def _list(self, i: int, depth: int) -> tuple[list, int]:
        if depth > 6:
            raise ValueError("too deep")
        if self.t[i].kind != "OP" or self.t[i].text != "[":
            raise ValueError("not a list")
        i += 1
        items: list = []
        current: list[Tok] = []

        def flush():
            if current:
                items.extend(self._items(current))
                current.clear()
        while True:
            t = self.t[i]
            if t.kind == "SEP":
                i += 1
                continue
            if t.kind == "OP" and t.text == "[":
                flush()
                sub, i = self._list(i, depth + 1)
                items.append(sub)
                continue
            if t.kind == "OP" and t.text == "]":
                flush()
                return items, i + 1
            if t.kind == "OP" and t.text == ",":
                self.commas = True
                if current:
                    items.append(self._one(current))
                    current.clear()
                i += 1
                continue
            if t.kind in ("NUM", "INF", "ELL") or (t.kind == "OP" and t.text in ("-", "+", "/", "*", "(", ")", "√")) \
                    or (t.kind == "OP" and t.text == "%" and current and current[-1].kind == "NUM") \
                    or t.kind in ("FRAC", "SQRT", "GROUP") or (t.kind == "ID" and t.text in ("nan", "NaN", "e")):
                current.append(t)
                i += 1
                continue
            if not current and items and isinstance(items[-1], list) and \
                    (t.kind == "REL" or (t.kind == "OP" and t.text in ("<", "←", "#")) or t.kind == "ID"):
                # "[0.1, 0.9], ← walk": a note after a row, before the next one
                while self.t[i].kind != "SEP" and not (self.t[i].kind == "OP" and self.t[i].text in "[]"):
                    i += 1
                continue
            raise ValueError(f"not a number list: {t!r}")

    def _one(self, toks: list[Tok]) -> Num | None:
        c = _cell(toks, self.seg)
        if c == "":
            raise ValueError("not a number")
        self.count += 1
        if self.count > MAX_CELLS:
            raise ValueError("too large")
        return c

    def _items(self, toks: list[Tok]) -> list:
        """Items of a run without commas: NumPy prints "0.1 -0.2" for two numbers."""
        if self.commas or any(t.kind == "OP" and t.text in ("/", "*", "(", "√") for t in toks) \
                or any(t.kind in ("FRAC", "SQRT", "GROUP") for t in toks):
            return [self._one(toks)]
        out, cur = [], []
        for t in toks:
            if cur and (t.space or t.kind == "ELL" or cur[-1].kind == "ELL") and not (
                    cur[-1].kind == "OP" and cur[-1].text in ("-", "+")):
                out.append(self._one(cur))
                cur = []
            cur.append(t)
        if cur:
            out.append(self._one(cur))
        return out


def nested_to_rows(items: list) -> tuple[list[list[Num | None] | None], tuple[int, ...]] | None:
    """A nested list as 2-D rows plus the leading shape of an N-D one; None if ragged."""
    if not items:
        return None
    if all(not isinstance(x, list) for x in items):
        return [list(items)], ()
    if any(not isinstance(x, list) and x is not None for x in items):
        return None
    if all(x is None or all(not isinstance(y, list) for y in x) for x in items):
        rows = [None if x is None else list(x) for x in items]
        widths = {len(r) for r in rows if r is not None and None not in r}
        if len(widths) > 1:
            return None
        return rows, ()
    subs = [nested_to_rows(x) for x in items if x is not None]
    if any(s is None for s in subs) or len({(len(s[0]), s[1]) for s in subs}) != 1 or len(subs) != len(items):
        return None
    rows = [r for s in subs for r in s[0]]
    inner = subs[0][1]
    return rows, (len(items),) + inner


def _numpy_precision(rows: list) -> None:
    """NumPy and torch pad every number of a printout to the same digits: use the widest."""
    nums = [c for r in rows if r for c in r if c is not None and math.isfinite(c.value)]
    decs = [c.decimals for c in nums if c.decimals is not None and "e" not in c.text.lower()]
    if len(nums) >= 2 and all(c.text.endswith(".") for c in nums):
        decs = [4]         # tensor([0., -3., 1.]): whole values, printed so because no entry needs a decimal
    if not decs or _significant_digits(nums):
        return
    d = _rounded_before_printing(nums, max(decs))
    for r in rows:
        if not r:
            continue
        for k, c in enumerate(r):
            if c is not None and math.isfinite(c.value) and "e" not in c.text.lower() and (c.decimals or 0) != d:
                half = nb.half_unit(d)
                r[k] = Num(c.value, c.text, c.value - half, c.value + half, c.line, d)



def _integer_dots(rows: list) -> None:
    """`[[1. 0. 1.]]`, `array([0., 1.])`, `tensor([1., 0.])`: NumPy and torch write a float that is whole at their
    print precision (8 and 4 decimals by default) with a bare trailing point, and give every entry of a printout
    the same form, so a printout of only such entries says each value is that whole number, not that it was
    rounded to units (0.26 is printed 0.26, never 0.).  Read them at one decimal at least (± 0.05), which any
    precision but zero carries."""
    nums = [c for r in rows if r for c in r if c is not None and math.isfinite(c.value)]
    if len(nums) < 2 or not all(c.decimals == 0 and c.text.endswith(".") for c in nums):
        return
    for r in rows:
        for k, c in enumerate(r or []):
            if c is not None and math.isfinite(c.value):
                r[k] = Num(c.value, c.text, c.value - 0.05, c.value + 0.05, c.line, 1)


def _significant_digits(nums: list[Num]) -> bool:
    """`array([ 3.8807971,  4.0728263,  45.264239])`: every entry carries the same count of significant digits
    (float128 and old NumPy print that way), so 45.264239 is ± 5e-7, not padded to 7 decimals."""
    plain = [c for c in nums if "e" not in c.text.lower() and "." in c.text]
    if len(plain) < 2 or len({c.decimals for c in plain}) < 2:
        return False
    sig = {len(c.text.lstrip("+-−").replace(".", "").lstrip("0")) for c in plain}
    return len(sig) == 1 and next(iter(sig)) >= 6


def _rounded_before_printing(nums: list[Num], d: int) -> int:
    """The digits a printout really carries: torch pads to 4 decimals, so `x.round(decimals=3)` prints -1.2510 and
    0.0590, every entry ending in 0.  When all of at least four entries end in zeros, the last digits are padding,
    not precision (0.0590 is 0.059 ± 0.0005, not ± 0.00005).  Only where two decimals at least remain: a row of
    1.0000 (row sums) or of 0.5000 says nothing about how it was printed, and is kept as printed."""
    if d < 2 or len(nums) < 4:
        return d
    def zeros(c: Num) -> int:                    # trailing zeros at d decimals (a shorter text is padded by them)
        frac = c.text.lower().split("e")[0].partition(".")[2]
        frac = frac + "0" * (d - len(frac))
        return len(frac) - len(frac.rstrip("0"))
    if any("e" in c.text.lower() for c in nums):
        return d
    k = min(zeros(c) for c in nums)
    return d - k if d - k >= 2 else d


# ------------------------------------------------------------------ shapes

def _int_list(toks: list[Tok]) -> list[int] | None:
    """[3, 2] or (3, 2) or torch.Size([3, 2]) as dimensions."""
    core = [t for t in toks if t.kind != "SEP"]
    if core and core[0].kind == "ID" and core[0].text in ("Size", "torch") :
        core = [t for t in core if not (t.kind == "ID" or (t.kind == "OP" and t.text == "."))]
        if core and core[0].text == "(" and core[-1].text == ")":
            core = core[1:-1]
    if len(core) < 3 or core[0].kind != "OP" or core[0].text not in "[(" or core[-1].text not in "])":
        return None
    dims = []
    expect_num = True
    for t in core[1:-1]:
        if expect_num and t.kind == "NUM" and t.num.decimals is None and t.num.value >= 1:
            dims.append(int(t.num.value))
            expect_num = False
        elif not expect_num and t.kind == "OP" and t.text == ",":
            expect_num = True
        else:
            return None
    return dims or None


def _dims(toks: list[Tok]) -> list[int] | None:
    """3 × 4 or 3, 4 or {3\\times 4}: the exponent of ℝ."""
    flat: list[Tok] = []
    for t in toks:
        flat.extend(t.args[0] if t.kind == "GROUP" else [t])
    dims, expect = [], True
    for t in flat:
        if expect and t.kind == "NUM" and t.num.decimals is None:
            dims.append(int(t.num.value))
            expect = False
        elif expect and t.kind == "ID":          # symbolic sizes (T × d) are not checked
            return None
        elif not expect and ((t.kind == "OP" and t.text in ("*", ",")) or (t.kind == "ID" and t.text == "x")):
            expect = True
        else:
            return None
    return dims if dims and not expect else None


def _shape_part(toks: list[Tok]) -> ShapePart | None:
    for k, t in enumerate(toks):
        if t.kind == "GROUP" and len(t.args[0]) == 1 and t.args[0][0].kind == "ID":
            t = t.args[0][0]
        if t.kind == "ID" and t.text in ("ℝ", "R") and k + 2 <= len(toks) and toks[k + 1].kind == "OP" \
                and toks[k + 1].text == "^":
            rest = toks[k + 2:]
            if rest and rest[0].kind == "GROUP":
                dims = _dims([rest[0]])
            else:
                dims = _dims(rest)
            if dims:
                return ShapePart(dims, flat_text(toks))
    return None


def _pair(toks: list[Tok]) -> list[int] | None:
    """(2 × 3): a shape written as a parenthesised product."""
    core = [t for t in toks if t.kind != "SEP"]
    if len(core) == 5 and core[0].text == "(" and core[4].text == ")" and core[2].text == "*" and \
            core[1].kind == "NUM" and core[3].kind == "NUM" and core[1].num.decimals is None and \
            core[3].num.decimals is None:
        return [int(core[1].num.value), int(core[3].num.value)]
    if len(core) == 1 and core[0].kind == "GROUP":
        return _pair([Tok("OP", "(")] + core[0].args[0] + [Tok("OP", ")")])
    return None


def _shape_product(toks: list[Tok]) -> ShapeProduct | None:
    """[3, 2] × [2, 3], (3, 4) @ (4, 2), (2 × 3)(3 × 2), (3 × 2) × (2 × 3) (after an optional label and colon)."""
    core = [t for t in toks if t.kind != "SEP"]
    # (2 × 3)(3 × 2), and with a × between them
    closes = [k for k, t in enumerate(core) if t.kind == "OP" and t.text == ")"]
    if len(closes) == 2 and core and core[0].text == "(" and closes[1] == len(core) - 1:
        second = closes[0] + 1 + (closes[0] + 1 < len(core) and core[closes[0] + 1].kind == "OP" and
                                  core[closes[0] + 1].text == "*")
        a, b = _pair(core[:closes[0] + 1]), _pair(core[second:])
        if a and b:
            return ShapeProduct(a, b, None, flat_text(toks))
    stars = [k for k, t in enumerate(toks) if t.kind == "OP" and t.text == "*"]
    if len(stars) != 1:
        return None
    k = stars[0]
    left, right = _int_list(toks[:k]), _int_list(toks[k + 1:])
    if left and right and len(left) <= 4 and len(right) <= 4 and (len(left) > 1 or len(right) > 1) and \
            max(left + right) > 1:     # [1, 1] · [1, 0] is a dot product of two 0/1 vectors, not of 1×1 shapes
        return ShapeProduct(left, right, None, flat_text(toks))
    return None

