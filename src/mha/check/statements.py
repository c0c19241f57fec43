"""From a token stream to typed statements: arrays, arithmetic, shapes and labels.

`Segment` is one piece of a document of one kind (math, prose, output, ...) with the map from
its characters to file lines.  `read_tokens` splits its tokens into statements at the
statement breaks, splits each statement at its relations (=, ≈, ∈, :), types every part
(an array, an arithmetic expression, a shape, or a label) and records what it found.
"""

from __future__ import annotations

import bisect
import math
import re
from dataclasses import dataclass, field

from . import numbers as nb
from .numbers import Expr, Lit, Num, Op, Sym, Vec
from .objects import (Array, ArrayPart, Chain, Context, Document, ExprPart, LabelPart, Part, Place, ShapePart,
                      ShapeProduct)
from .tokens import Tok, flat_text

_OPEN = {"[": "]", "(": ")", "{": "}"}
_TRAILING = {",", ".", ";", ":", "，", "。", "!", "?"}
MAX_CELLS = 20000


@dataclass
class Segment:
    """A run of one kind of text and where its characters are in the file."""
    text: str
    line: int                        # file line of its first character (1-based)
    where: str = "prose"             # math, prose, code, comment, output, table, heading
    cell: int | None = None
    line_map: list[int] | None = None   # file line of each of its own lines, when not consecutive
    _starts: list[int] = field(default_factory=list, repr=False)

    def line_of(self, pos: int) -> int:
        if not self._starts:
            self._starts = [0] + [i + 1 for i, ch in enumerate(self.text) if ch == "\n"]
        k = max(0, bisect.bisect_right(self._starts, pos) - 1)
        if self.line_map:
            return self.line_map[min(k, len(self.line_map) - 1)]
        return self.line + k

    def place(self, pos: int, where: str | None = None) -> Place:
        return Place(self.line_of(pos), self.cell, where or self.where)


# ------------------------------------------------------------------ numbers inside tokens

def _signed(num: Num, negative: bool) -> Num:
    if not negative:
        return num
    return Num(-num.value, "-" + num.text.lstrip("+"), -num.hi, -num.lo, num.line, num.decimals)


class ExprParser:
    """Arithmetic over tokens: + - × · / \\frac \\sqrt √ exp e^{x} powers, with symbols and vectors.

    Never evaluates anything but numbers: symbols stay `Sym`, bracketed vectors stay `Vec`.
    """

    def __init__(self, toks: list[Tok], seg: Segment):
        self.t = [x for x in toks if x.kind != "SEP"]
        self.i = 0
        self.seg = seg
        self.depth = 0

    def peek(self, k: int = 0) -> Tok | None:
        j = self.i + k
        return self.t[j] if j < len(self.t) else None

    def eat(self) -> Tok:
        tok = self.t[self.i]
        self.i += 1
        return tok

    def parse(self) -> Expr | None:
        try:
            e = self.sum()
        except (ValueError, IndexError, RecursionError, ArithmeticError):
            return None
        return e if self.i == len(self.t) else None

    def num(self, tok: Tok) -> Num:
        return tok.num.with_line(self.seg.line_of(tok.pos))

    def sum(self) -> Expr:
        self.depth += 1
        if self.depth > 60:
            raise ValueError("too deep")
        terms = [self.product()]
        while self.peek() is not None and self.peek().kind == "OP" and self.peek().text in ("+", "-"):
            op = self.eat().text
            b = self.product()
            terms.append(b if op == "+" else Op("neg", (b,)))
        self.depth -= 1
        return terms[0] if len(terms) == 1 else Op("+", tuple(terms))

    def product(self) -> Expr:
        factors = [self.unary()]
        while True:
            t = self.peek()
            if t is None:
                break
            if t.kind == "OP" and t.text in ("*", "/"):
                self.eat()
                b = self.unary()
                if t.text == "/":
                    a = factors.pop() if len(factors) == 1 else Op("*", tuple(factors))
                    factors = [Op("/", (a, b))]
                else:
                    factors.append(b)
            elif self._starts_atom(t) and not (t.kind == "NUM" and isinstance(factors[-1], Lit)):
                factors.append(self.unary())          # implicit product: 0.4011 v_1, 2(x + 1)
            else:
                break
        return factors[0] if len(factors) == 1 else Op("*", tuple(factors))

    @staticmethod
    def _starts_atom(t: Tok) -> bool:
        return (t.kind in ("NUM", "ID", "GROUP", "FRAC", "SQRT", "TEXT", "INF")
                or (t.kind == "OP" and t.text in ("(", "[", "√")))

    def unary(self) -> Expr:
        t = self.peek()
        if t is not None and t.kind == "OP" and t.text == "-":
            self.eat()
            inner = self.unary()
            if isinstance(inner, Lit):
                return Lit(_signed(inner.num, True))
            return Op("neg", (inner,))
        if t is not None and t.kind == "OP" and t.text == "+":
            self.eat()
            return self.unary()
        return self.power()

    def power(self) -> Expr:
        base = self.atom()
        t = self.peek()
        if t is not None and t.kind == "OP" and t.text == "^":
            self.eat()
            expo = self.atom_or_signed()
            if isinstance(base, Sym) and base.text == "e":
                return Op("exp", (expo,))
            if isinstance(base, Sym) or isinstance(expo, Sym):
                return Sym(f"{_sym_text(base)}^{{{_sym_text(expo)}}}")
            return Op("pow", (base, expo))
        return base

    def atom_or_signed(self) -> Expr:
        t = self.peek()
        if t is not None and t.kind == "OP" and t.text in ("-", "+"):
            return self.unary()
        return self.atom()

    def atom(self) -> Expr:
        t = self.eat()
        if t.kind == "NUM":
            return Lit(self.num(t))
        if t.kind == "INF":
            return Lit(nb.POS_INF)
        if t.kind == "GROUP":
            return self._sub(t.args[0])
        if t.kind == "FRAC":
            if len(t.args) == 2:
                return Op("/", (self._sub(t.args[0]), self._sub(t.args[1])))
            a, b = self.atom(), self.atom()
            return Op("/", (a, b))
        if t.kind == "SQRT":
            return Op("sqrt", (self._sub(t.args[0]) if t.args else self.atom(),))
        if t.kind == "OP" and t.text == "√":
            return Op("sqrt", (self.atom(),))
        if t.kind == "OP" and t.text == "(":
            e = self.sum()
            close = self.eat()
            if close.text != ")":
                raise ValueError("unbalanced")
            return e
        if t.kind == "OP" and t.text == "[":
            cells = []
            while True:
                nxt = self.peek()
                if nxt is None:
                    raise ValueError("unbalanced")
                if nxt.kind == "OP" and nxt.text == "]":
                    self.eat()
                    break
                if nxt.kind == "OP" and nxt.text == ",":
                    self.eat()
                    continue
                item = self.unary()
                n = nb.plain_number(item)
                if n is None:
                    raise ValueError("not a vector")
                cells.append(n)
            return Vec(tuple(cells))
        if t.kind == "ID" and t.text in ("exp", "Exp"):
            return Op("exp", (self.atom(),))
        if t.kind == "ID" and t.text in ("sqrt", "np.sqrt", "math.sqrt"):
            return Op("sqrt", (self.atom(),))
        if t.kind == "ID" and t.text in ("cos", "sin", "tan", "log", "ln"):
            return Op(t.text, (self.atom(),))
        if t.kind == "ID" and _SYMBOL_BASE.fullmatch(t.text):
            text = t.text
            # subscripts, superscripts and primes stay part of a symbol: v_1^{(1)}, k_2'
            while self.peek() is not None:
                n = self.peek()
                if n.kind == "OP" and n.text in ("_", "^") and self.peek(1) is not None and \
                        self.peek(1).kind in ("GROUP", "NUM", "ID", "TEXT") and not (text == "e" and n.text == "^"):
                    self.eat()
                    sub = self.eat()
                    text += n.text + "{" + (flat_text(sub.args[0]) if sub.kind == "GROUP" else sub.text) + "}"
                elif n.kind == "TRANS" or (n.kind == "OP" and n.text == "'"):
                    self.eat()
                    text += "^T"
                else:
                    break
            return Sym(text)
        raise ValueError(f"unexpected {t!r}")

    def _sub(self, toks: list[Tok]) -> Expr:
        p = ExprParser(toks, self.seg)
        p.depth = self.depth
        e = p.sum()
        if p.i != len(p.t):
            raise ValueError("trailing")
        return e


_SYMBOL_BASE = re.compile(r"[A-Za-zα-ωΑ-Ωℓ]|[a-z]_?\d")


def _sym_text(e: Expr) -> str:
    match e:
        case Sym(text):
            return text
        case Lit(num):
            return num.text
    return "?"


def parse_expr(toks: list[Tok], seg: Segment) -> Expr | None:
    if not toks or len(toks) > 4000:
        return None
    return ExprParser(toks, seg).parse()


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
            if t.kind in ("NUM", "INF", "ELL") or (t.kind == "OP" and t.text in ("-", "+", "/", "*", "(", ")")) \
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
        if self.commas or any(t.kind == "OP" and t.text in ("/", "*", "(") for t in toks) \
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
    if not decs:
        return
    d = max(decs)
    for r in rows:
        if not r:
            continue
        for k, c in enumerate(r):
            if c is not None and math.isfinite(c.value) and "e" not in c.text.lower() and (c.decimals or 0) < d:
                half = 0.5 * 10.0 ** -d
                r[k] = Num(c.value, c.text, c.value - half, c.value + half, c.line, d)


# ------------------------------------------------------------------ parts

def _strip(toks: list[Tok]) -> list[Tok]:
    i, j = 0, len(toks)
    while i < j and toks[i].kind in ("SEP",) or (i < j and toks[i].kind == "OP" and toks[i].text in _TRAILING):
        i += 1
    while j > i and (toks[j - 1].kind == "SEP" or (toks[j - 1].kind == "OP" and toks[j - 1].text in _TRAILING)):
        j -= 1
    return toks[i:j]


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
    """[3, 2] × [2, 3], (3, 4) @ (4, 2), (2 × 3)(3 × 2) (after an optional label and colon)."""
    core = [t for t in toks if t.kind != "SEP"]
    # (2 × 3)(3 × 2)
    closes = [k for k, t in enumerate(core) if t.kind == "OP" and t.text == ")"]
    if len(closes) == 2 and core and core[0].text == "(" and closes[1] == len(core) - 1:
        a, b = _pair(core[:closes[0] + 1]), _pair(core[closes[0] + 1:])
        if a and b:
            return ShapeProduct(a, b, None, flat_text(toks))
    stars = [k for k, t in enumerate(toks) if t.kind == "OP" and t.text == "*"]
    if len(stars) != 1:
        return None
    k = stars[0]
    left, right = _int_list(toks[:k]), _int_list(toks[k + 1:])
    if left and right and len(left) <= 4 and len(right) <= 4 and (len(left) > 1 or len(right) > 1):
        return ShapeProduct(left, right, None, flat_text(toks))
    return None


class PartReader:
    """Types the parts of one segment's statements and records arrays and chains in the document."""

    def __init__(self, seg: Segment, doc: Document, ctx: Context):
        self.seg = seg
        self.doc = doc
        self.ctx = ctx

    # ---------------------------------------------------------- arrays
    def array_at(self, toks: list[Tok], style_hint: str | None = None) -> Array | None:
        """An array spanning exactly these tokens (with \\left[ \\right], array(...), tensor(...))."""
        t = [x for x in toks if x.kind != "SEP"]
        if not t:
            return None
        # \left[ MATRIX \right] and MATRIX alone
        core = t
        if len(core) == 3 and core[1].kind == "MATRIX" and core[0].kind == "OP" and core[2].kind == "OP":
            core = [core[1]]
        if len(core) == 1 and core[0].kind == "MATRIX":
            rows = matrix_rows(core[0], self.seg)
            if rows is None:
                return None
            return Array(rows, self.seg.place(core[0].pos), style="tex")
        # array([...], dtype=...) / tensor([...], grad_fn=...) / np.array([...])
        style = style_hint or "list"
        names = [x.text for x in core if x.kind == "ID"]
        if core[0].kind == "ID" and core[0].text in ("array", "tensor", "np", "torch", "numpy", "Tensor",
                                                    "Parameter", "matrix"):
            k = next((i for i, x in enumerate(core) if x.kind == "OP" and x.text == "["), None)
            if k is None or core[-1].text != ")":
                return None
            style = "torch" if "tensor" in names or "torch" in names or "Parameter" in names else "numpy"
            bp = BracketParser(core, self.seg)
            got = bp.parse(k)
            if got is None:
                return None
            items, j = got
            return self._from_items(items, core[0].pos, style, printout=True)
        if core[0].kind == "OP" and core[0].text == "[" and core[-1].kind == "OP" and core[-1].text == "]":
            bp = BracketParser(core, self.seg)
            got = bp.parse(0)
            if got is None or got[1] != len(core):
                return None
            items, _ = got
            style = style if bp.commas else ("numpy" if self.seg.where in ("output",) or
                                             _is_multi(items) else style)
            return self._from_items(items, core[0].pos, style, printout=not bp.commas)
        return None

    def _from_items(self, items: list, pos: int, style: str, printout: bool) -> Array | None:
        got = nested_to_rows(items)
        if got is None:
            return None
        rows, lead = got
        if not any(r for r in rows):
            return None
        if printout and style in ("numpy", "torch") or (printout and self.seg.where == "output"):
            _numpy_precision(rows)
        return Array(rows, self.seg.place(pos), lead=lead, style=style)

    # ---------------------------------------------------------- one part
    def part(self, toks: list[Tok]) -> list[Part]:
        toks = _strip(toks)
        if not toks:
            return []
        a = self.array_at(toks)
        if a is not None:
            return [ArrayPart(a)]
        sp = _shape_part(toks)
        if sp is not None:
            sp.line = self.seg.line_of(toks[0].pos)
            return [sp]
        prod = _shape_product(toks)
        if prod is not None:
            return [prod]
        # (2, 3, 4) in a comment or an output, torch.Size([2, 3, 4]): a shape
        if self.seg.where in ("comment", "output") or any(t.kind == "ID" and t.text == "Size" for t in toks):
            dims = _int_list(toks)
            if dims and len(dims) >= 2 and (toks[0].text == "(" or any(t.text == "Size" for t in toks)):
                return [ShapePart(dims, flat_text(toks))]
        # "label: [3,3] × [3,2]" (the terminal writes the shape product after a colon)
        e = parse_expr(toks, self.seg)
        if e is not None and nb.leaves(e):
            return [ExprPart(e, flat_text(toks))]
        # a label followed directly by an array: print("scores", s) → "scores [[...]]", or "A ≈ MATRIX"
        for k in range(len(toks) - 1, 0, -1):
            if toks[k].kind == "MATRIX" or (toks[k].kind == "OP" and toks[k].text == "[" and
                                            (k == 0 or not toks[k - 1].kind == "ID" or toks[k].space)):
                arr = self.array_at(toks[k:])
                if arr is not None and toks[k - 1].kind != "OP":
                    return [LabelPart(flat_text(toks[:k])), ArrayPart(arr)]
                if arr is not None:
                    break
        if toks and toks[0].kind == "ID" and toks[0].text in ("array", "tensor"):
            return []
        # words, then an expression: "除以 sqrt(2)", "divide by √3"
        for k in range(1, len(toks)):
            if toks[k - 1].kind == "ID" and len(toks[k - 1].text) > 1 and not re.fullmatch(r"[A-Za-z]_?\d*", toks[k - 1].text):
                e = parse_expr(toks[k:], self.seg)
                if e is not None and nb.leaves(e) and not nb.has_symbols(e) and \
                        any(t.kind in ("SQRT", "FRAC") or t.text in ("sqrt", "exp", "√", "^", "/", "*") for t in toks[k:]):
                    return [LabelPart(flat_text(toks[:k])), ExprPart(e, flat_text(toks[k:]))]
        return [LabelPart(flat_text(toks))]


def _is_multi(items: list) -> bool:
    return any(isinstance(x, list) for x in items)


# ------------------------------------------------------------------ statements

def split_statements(toks: list[Tok], text_mode: bool) -> list[list[Tok]]:
    """Statement breaks: \\\\, \\quad, ';' and (in plain text) newlines outside brackets."""
    out: list[list[Tok]] = [[]]
    depth = 0
    comment = False
    for t in toks:
        if comment:
            if t.kind == "SEP" and t.text == "\n":
                comment = False
                out.append([])
            continue
        if text_mode and t.kind == "OP" and t.text == "#" and depth == 0 and any(x.kind == "REL" for x in out[-1]):
            comment = True          # "T = 3   # three tokens": the rest of the line is a comment
            continue
        if t.kind == "OP" and t.text in "[(":
            depth += 1
        elif t.kind == "OP" and t.text in "])":
            depth = max(0, depth - 1)
        if t.kind == "SEP" and (depth == 0 or t.text != "\n") or (t.kind == "OP" and t.text == ";" and depth == 0) \
                or (text_mode and depth == 0 and t.kind == "OP" and t.text in ("，", "。")):
            if t.text == "\n" and depth:
                out[-1].append(t)
                continue
            out.append([])
            continue
        out[-1].append(t)
    out = [s for s in out if s]
    merged: list[list[Tok]] = []
    for s in out:
        if merged and text_mode and s[0].kind == "REL":
            merged[-1].extend(s)
        else:
            merged.append(s)
    return merged


def split_juxtaposed(stmt: list[Tok]) -> list[list[Tok]]:
    """q₁ = [1, 0.5]    k₁ = [1, 1]    v₁ = [-0.5, 0.5]: assignments side by side on one line.

    After a relation, a bracketed value that closes at the top level and is followed by a short name and a
    relation (no brackets or numbers in between, subscripts aside) ends one statement; the name starts the
    next one."""
    out: list[list[Tok]] = [[]]
    depth = 0
    seen_rel = False
    n = len(stmt)
    for i, t in enumerate(stmt):
        out[-1].append(t)
        if t.kind == "REL" and depth == 0:
            seen_rel = True
        if t.kind == "OP" and t.text in "[(":
            depth += 1
        elif t.kind == "OP" and t.text in "])":
            depth = max(0, depth - 1)
            if depth == 0 and seen_rel and t.text == "]" and i + 1 < n and stmt[i + 1].kind == "ID":
                j = i + 1
                while j < n and j <= i + 5 and stmt[j].kind != "REL" and not (
                        stmt[j].kind == "OP" and stmt[j].text not in ("_", "^", "{", "}")) and not (
                        stmt[j].kind == "NUM" and not (stmt[j - 1].kind == "OP" and stmt[j - 1].text in "_^")):
                    j += 1
                if j < n and j > i + 1 and stmt[j].kind == "REL":
                    out.append([])
                    seen_rel = False
    return [s for s in out if s]


def split_relations(toks: list[Tok]) -> tuple[list[list[Tok]], list[str]]:
    parts: list[list[Tok]] = [[]]
    rels: list[str] = []
    depth = 0
    # parentheses count only when they balance: (K^{(1)}{)}^T hides its ')' in a group
    opens = "[(" if sum(t.text == "(" for t in toks if t.kind == "OP") == \
        sum(t.text == ")" for t in toks if t.kind == "OP") else "["
    closes = "])" if opens == "[(" else "]"
    for t in toks:
        if t.kind == "OP" and t.text in opens:
            depth += 1
        elif t.kind == "OP" and t.text in closes:
            depth = max(0, depth - 1)
        if depth == 0 and (t.kind == "REL" or (t.kind == "OP" and t.text == ":" and parts[-1]
                                               and not _is_time_colon(parts[-1]))):
            rels.append(t.text if t.kind == "REL" else ":")
            parts.append([])
            continue
        parts[-1].append(t)
    return parts, rels


def _is_time_colon(before: list[Tok]) -> bool:
    return False


def split_commas(stmt: list[Tok]) -> list[list[Tok]]:
    """d=4, H=2, d_h=2: top-level commas between pieces that each hold a relation."""
    pieces: list[list[Tok]] = [[]]
    seps: list[Tok | None] = [None]             # the comma or "and" before each piece
    depth = 0
    for t in stmt:
        if t.kind == "OP" and t.text in "[(":
            depth += 1
        elif t.kind == "OP" and t.text in "])":
            depth = max(0, depth - 1)
        if depth == 0 and ((t.kind == "OP" and t.text == ",") or (t.kind == "ID" and t.text in ("and", "以及"))):
            pieces.append([])
            seps.append(t)
            continue
        pieces[-1].append(t)
    seps = [sp for sp, p in zip(seps, pieces) if p]
    pieces = [p for p in pieces if p]
    if len(pieces) > 1 and all(any(x.kind == "REL" for x in p) for p in pieces):
        return pieces
    if len(pieces) > 2 and sum(any(x.kind == "REL" for x in p) for p in pieces) >= 2:
        # "exp(2.121) = 8.342, so the weights are 8.342 / 10.370 = 0.804 and 0.196": a piece without a
        # relation belongs to the one before it; each relation keeps its own piece
        out: list[list[Tok]] = []
        for sp, p in zip(seps, pieces):
            if out and not any(x.kind == "REL" for x in p):
                out[-1] = out[-1] + ([sp] if sp is not None else []) + p
            else:
                out.append(p)
        if len(out) > 1 and all(any(x.kind == "REL" for x in p) for p in out):
            return out
    return [stmt]


def read_tokens(toks: list[Tok], seg: Segment, doc: Document, ctx: Context, text_mode: bool,
                on_statement=None, ctx_at=None) -> None:
    """Type every statement of a token stream and record its arrays and chains.

    ctx_at: the context as it stood after each prose line (by line number), so that "row 1: …" and
    "row 2: …" in one paragraph each keep their own row; otherwise the context after the segment."""
    reader = PartReader(seg, doc, ctx)
    pending_label: str | None = None
    for stmt in (sub for whole in split_statements(toks, text_mode) for sub in split_juxtaposed(whole)):
        for piece in split_commas(stmt):
            raw_parts, rels = split_relations(piece)
            parts: list[Part] = []
            part_rels: list[str] = []
            for k, p in enumerate(raw_parts):
                typed = reader.part(p)
                for j, tp in enumerate(typed):
                    parts.append(tp)
                    part_rels.append(rels[k - 1] if (k > 0 and j == 0) else ("=" if j else ""))
            if not parts:
                continue
            place = seg.place(piece[0].pos)
            text = seg.text[piece[0].pos - _base(seg, piece):][:0] if False else flat_text(piece)
            # a lone array right after "Attention weights:" takes that line as its label
            if len(parts) == 1 and isinstance(parts[0], ArrayPart) and pending_label:
                parts.insert(0, LabelPart(pending_label))
                part_rels = ["", ":"]
            pending_label = None
            if len(parts) == 2 and isinstance(parts[0], LabelPart) and part_rels[1] == ":" and \
                    isinstance(parts[1], LabelPart) is False:
                pass
            if len(parts) >= 1 and isinstance(parts[-1], LabelPart) and text_mode and \
                    piece[-1].kind == "OP" and piece[-1].text in (":", "："):
                pending_label = parts[-1].text
            if text_mode and len(raw_parts) == 2 and rels == [":"] and not raw_parts[1]:
                pending_label = flat_text(raw_parts[0])
            here = (ctx_at(place.line) if ctx_at is not None else None) or ctx
            if here is not ctx:
                here = _with_row(here, ctx)
            record(parts, part_rels[1:] if len(part_rels) > 1 else [], place, text, doc, here)
            if on_statement is not None:
                on_statement(parts, place)


def _with_row(line_ctx: Context, seg_ctx: Context) -> Context:
    """The segment's context with the row and head that stood at the statement's own line."""
    c = Context(**{**seg_ctx.__dict__})
    c.row = line_ctx.row
    c.head = line_ctx.head
    return c


def _base(seg: Segment, piece: list[Tok]) -> int:
    return 0


def record(parts: list[Part], rels: list[str], place: Place, text: str, doc: Document, ctx: Context) -> None:
    """Store the arrays of a statement with their labels, and the statement itself when it says something."""
    labels = [p.text for p in parts if isinstance(p, LabelPart)]
    for k, p in enumerate(parts):
        if isinstance(p, ArrayPart):
            a = p.array
            left = next((q.text for q in reversed(parts[:k]) if isinstance(q, LabelPart)), "")
            first = next((q.text for q in parts[:k] if isinstance(q, LabelPart)), "")
            if first and first != left and re.fullmatch(r"[A-Za-z][A-Za-z0-9]{0,3}(\^\{?\(?[A-Za-z0-9]+\)?\}?|_\{?[A-Za-z0-9]+\}?)*", first):
                left = first                  # "Y = Concat(O^(1), O^(2)) ≈ [...]": the chain's subject
            if not left:
                left = next((q.text for q in parts[k + 1:] if isinstance(q, LabelPart)), "")
            a.label = left
            a.labels = labels
            a.rel = rels[k - 1] if 0 < k <= len(rels) else ""
            if k > 0 and isinstance(parts[k - 1], ExprPart):
                a.prev_expr = parts[k - 1].expr
            a.context = Context(**{**ctx.__dict__})
            a.context.approx = ctx.approx
            doc.add_array(a)
    # shape products take their result from the next part: [3,2] × [2,3] = [3,3], (3, 4) @ (4, 2) -> (3, 2)
    for k, p in enumerate(parts):
        if isinstance(p, ShapeProduct) and k + 1 < len(parts):
            nxt = parts[k + 1]
            if isinstance(nxt, ArrayPart) and nxt.array.is_vector and nxt.array.all_integers():
                p.result = [int(c.value) for c in nxt.array.numbers]
                if nxt.array in doc.arrays:
                    doc.arrays.remove(nxt.array)
            elif isinstance(nxt, (LabelPart, ExprPart)):
                m = re.fullmatch(r"\(?\s*(\d+(?:\s*[,*]\s*\d+)+)\s*\)?", nxt.text.replace(" ", ""))
                if m:
                    p.result = [int(x) for x in re.split(r"[,*]", m.group(1))]
                    if isinstance(nxt, ExprPart):
                        parts[k + 1] = LabelPart(nxt.text)
    lone = len(parts) == 1 and isinstance(parts[0], ExprPart) and re.match(r"\s*(=|≈|\\approx)", text) is not None
    if len(parts) >= 2 or lone or any(isinstance(p, (ShapePart, ShapeProduct)) for p in parts):
        c = Context(**{**ctx.__dict__})
        c.approx = ctx.approx
        doc.chains.append(Chain(parts, rels, place, text, c))
