"""Arithmetic inside a statement: a token stream as an expression tree of numbers, symbols and vectors."""

from __future__ import annotations

import re

from .. import numbers as nb
from ..numbers import Expr, Lit, Num, Op, Sym, Vec
from .common import Segment
from .tokens import Tok, flat_text, lex_chars


def _signed(num: Num, negative: bool) -> Num:
    if not negative:
        return num
    return Num(-num.value, "-" + num.text.lstrip("+"), -num.hi, -num.lo, num.line, num.decimals)


_EULER_LINE = re.compile(r"\b[Ee]xp\s*\(|(?<![\w.])e\s*\^")


def _line_at(text: str, pos: int) -> str:
    """The line of a segment's text holding position pos (the whole text when pos is outside it)."""
    if not 0 <= pos <= len(text):
        return text
    end = text.find("\n", pos)
    return text[text.rfind("\n", 0, pos) + 1:end if end >= 0 else len(text)]


class ExprParser:
    """Arithmetic over tokens: + - × · / \\frac \\sqrt √ exp e^{x} powers, with symbols and vectors.

    Never evaluates anything but numbers: symbols stay `Sym`, bracketed vectors stay `Vec`.
    """

    def __init__(self, toks: list[Tok], seg: Segment):
        self.t = [x for x in toks if x.kind != "SEP"]
        self.i = 0
        self.seg = seg
        self.depth = 0
        # a line that writes exp() or e^x: a bare e on it is Euler's number (e/(2e+1))
        self.euler = bool(self.t) and bool(_EULER_LINE.search(_line_at(seg.text, self.t[0].pos)))

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
                    b = self._scientific_after(b)     # 0.1966 / 3.3524 \times 10^{-4}: the divisor is one number
                # (not a whole number after other factors: `2 · 28 · 2 · 10^{-9}` is bytes times two, in GB)
                sci = _scientific(factors[-1], b) if t.text == "*" and not (
                    len(factors) > 1 and isinstance(factors[-1], Lit) and
                    re.fullmatch(r"\d+", factors[-1].num.text)) else None
                if sci is not None:                   # 4.85 \times 10^8: one printed number, 4.85e8
                    factors[-1] = sci
                    continue
                if t.text == "/":
                    a = factors.pop() if len(factors) == 1 else Op("*", tuple(factors))
                    factors = [Op("/", (a, b))]
                else:
                    factors.append(b)
            elif self._starts_atom(t) and not (t.kind == "NUM" and isinstance(factors[-1], Lit)) and \
                    not self._gap_before(t, factors[-1]):
                b = self.unary()                      # implicit product: 0.4011 v_1, 2(x + 1)
                if isinstance(factors[-1], Sym) and t.kind == "OP" and t.text == "(" and isinstance(b, Lit):
                    factors[-1] = Sym(f"{factors[-1].text}({b.num.text})")   # q(0), PE(3): a function's value
                    continue
                factors.append(b)
            else:
                break
        return factors[0] if len(factors) == 1 else Op("*", tuple(factors))

    def _gap_before(self, t: Tok, last: Expr) -> bool:
        """`=2   (1*2 + 0*3)=2`: a number, two spaces or more, then a bracket: two expressions set side by side in
        code type, not a product (`2 (x + 1)` with one space still is one)."""
        prev = self.t[self.i - 1] if self.i > 0 else None
        return isinstance(last, Lit) and t.kind == "OP" and t.text == "(" and prev is not None and \
            prev.kind == "NUM" and prev.end and t.pos - prev.end >= 2

    def _scientific_after(self, b: Expr) -> Expr:
        """b, or b × 10^k when the tokens after it write that power of ten (b a number with a decimal point)."""
        t = self.peek()
        if not (isinstance(b, Lit) and "." in b.num.text and t is not None and t.kind == "OP" and t.text == "*"):
            return b
        at = self.i
        self.eat()
        try:
            sci = _scientific(b, self.unary())
        except (ValueError, IndexError):
            sci = None
        if sci is None:
            self.i = at
            return b
        return sci

    @staticmethod
    def _starts_atom(t: Tok) -> bool:
        return (t.kind in ("NUM", "ID", "GROUP", "FRAC", "SQRT", "TEXT", "INF", "MATRIX")
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

    def _tuple_vector(self) -> Vec:
        """`(1, 0, 0.5, 0.5)` in a dot product written out, `(1,0,1,0)·(1,0,0.5,0.5) = 1.5`: a vector when its
        entries are plain numbers and it is no shape (a zero, a negative or a decimal among them, or four or more)."""
        cells = []
        while True:
            n = nb.plain_number(self.unary())
            if n is None:
                raise ValueError("not a vector")
            cells.append(n)
            sep = self.eat()
            if sep.kind == "OP" and sep.text == ")":
                break
            if not (sep.kind == "OP" and sep.text == ","):
                raise ValueError("not a vector")
        if len(cells) < 4 and all(c.decimals is None and c.value >= 1 for c in cells):
            raise ValueError("a shape, not a vector")
        return Vec(tuple(cells))

    def _bracket_vector(self) -> Vec:
        """The entries of `[0.5, -0.5]` (or `[0.5 -0.5]`) after its opening bracket, up to the closing one."""
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
            if n is None and _exponential(item):
                n = nb.evaluate(item)      # [e^1, e^0, e^{0.5}] / (...): each entry's exponential, worked out
            if n is None:
                raise ValueError("not a vector")
            cells.append(n)
        return Vec(tuple(cells))

    def _matrix_vector(self, t: Tok) -> Vec:
        """A one-column or one-row matrix of plain numbers (`0.2 \\begin{bmatrix} 1.0 \\\\ 0.5 \\end{bmatrix} + ...`):
        a vector term, as `[1.0, 0.5]` is; any other matrix is no term of a sum of vectors."""
        rows = [[c for c in r if any(x.kind != "SEP" for x in c)] for r in t.args]
        rows = [r for r in rows if r]
        if len(rows) == 1:
            cells = rows[0]
        elif rows and all(len(r) == 1 for r in rows):
            cells = [r[0] for r in rows]
        else:
            raise ValueError("not a vector")
        out = []
        for c in cells:
            sub = ExprParser(c, self.seg)
            n = nb.plain_number(sub.unary()) if sub.t else None
            if n is None or sub.i != len(sub.t):
                raise ValueError("not a vector")
            out.append(n)
        if len(out) < 2:
            raise ValueError("not a vector")
        return Vec(tuple(out))

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
            at = self.i
            e = self.sum()
            close = self.eat()
            if close.kind == "OP" and close.text == ",":
                self.i = at
                return self._tuple_vector()
            if close.text != ")":
                raise ValueError("unbalanced")
            return e
        if t.kind == "OP" and t.text == "[":
            at = self.i
            try:
                e = self.sum()
                close = self.eat()
                if close is not None and close.kind == "OP" and close.text == "]" and not isinstance(e, (Lit, Vec)) \
                        and not all(nb.plain_number(t) is not None for t in nb.terms_of(e)):
                    return e        # `exp(a) / [exp(a) + exp(b)]`: brackets that group a sum, not a vector (one of
                    #                 plain numbers, `[0.5 -0.5]`, is NumPy's vector)
            except (ValueError, IndexError):
                pass
            self.i = at
            return self._bracket_vector()
        if t.kind == "MATRIX":
            return self._matrix_vector(t)
        if t.kind == "ID" and t.text in ("exp", "Exp"):
            return Op("exp", (self.atom(),))
        if t.kind == "ID" and t.text in ("sqrt", "np.sqrt", "math.sqrt"):
            return Op("sqrt", (self.atom(),))
        if t.kind == "ID" and t.text in ("cos", "sin", "tan", "log", "ln", "tanh"):
            n = self.peek()
            # `\ln 10^7` is ln(10⁷): a bare number after the function takes its power with it (`ln(10)^7` keeps
            # its brackets)
            return Op(t.text, (self.power() if n is not None and n.kind == "NUM" else self.atom(),))
        if t.kind == "ID" and t.text in ("floor", "ceil", "math.floor", "math.ceil", "np.floor", "np.ceil"):
            return Op(t.text.split(".")[-1], (self.atom(),))   # a conv's output size: floor((32 + 2 - 3) / 2) + 1
        if t.kind == "ID" and t.text == "e" and self.euler and self._bare_e():
            return Op("exp", (Lit(Num.parse("1")),))
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

    def _bare_e(self) -> bool:
        """The e just eaten stands alone: no index or power after it, and it is no function's whole argument
        (exp(e) takes a score named e)."""
        n = self.peek()
        if n is not None and (n.kind in ("GROUP", "TRANS") or n.kind == "OP" and n.text in ("_", "^", "'", "(")):
            return False
        before = self.t[self.i - 3:self.i - 1]
        return not (len(before) == 2 and before[0].kind == "ID" and before[1].text == "(" and
                    n is not None and n.text == ")")

    def _sub(self, toks: list[Tok]) -> Expr:
        p = ExprParser(toks, self.seg)
        p.depth = self.depth
        e = p.sum()
        if p.i != len(p.t):
            raise ValueError("trailing")
        return e


_SYMBOL_BASE = re.compile(r"[A-Za-zα-ωΑ-Ωℓ]|[a-z]_?\d")


def _scientific(a: Expr, b: Expr) -> Lit | None:
    """a × 10^k written out, as the one number it is (its precision is a's digits, scaled)."""
    match a, b:
        case Lit(m), Op("pow", (Lit(ten), Lit(k))) if ten.text == "10" and k.decimals is None and \
                re.fullmatch(r"-?\d+(?:\.\d+)?", m.text.lstrip("+")) and abs(k.value) < 300:
            n = Num.parse(f"{m.text}e{int(k.value)}", m.line)
            return Lit(Num(n.value, f"{m.text}×10^{int(k.value)}", n.lo, n.hi, n.line, n.decimals))
    return None


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
    e = ExprParser(toks, seg).parse()
    if isinstance(e, Vec) and toks[0].kind == "OP" and toks[0].text == "(":
        return None          # `q₁ = (1, 0, 1)`: a tuple alone is a vector given (prose.py reads it), no arithmetic
    return e


_TIMES_X = re.compile(r"(?<=[\d)])\s*[x×]\s*(?=[\d(])")


def arithmetic_of(text: str, times_x: bool = False) -> Expr | None:
    """Arithmetic written in plain text (`(2*1 + 1*3)/√2`; with times_x, `0.37x0.43 + 0.57x0.42` too), parsed; None
    when it does not parse or names a symbol."""
    t = _TIMES_X.sub("*", text.strip()) if times_x else text.strip()
    try:
        e = parse_expr(lex_chars(t), Segment(t, 1))
    except (ArithmeticError, ValueError, TypeError, IndexError):
        return None
    return None if e is None or nb.has_symbols(e) else e


def _exponential(e: Expr) -> bool:
    """An exponential of a number and nothing else (e^1, exp(0.5), e^{-0.3}): an entry of a vector that is worked
    out, as a plain number is read."""
    return isinstance(e, Op) and e.op == "exp" and not nb.has_symbols(e)
