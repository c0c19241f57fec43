"""Printed numbers with their precision, and arithmetic over the intervals they stand for.

A printed number is a claim at its own precision: "0.7518" stands for every value in
[0.75175, 0.75185], "0.5" for [0.45, 0.55] and "2" for 2 exactly.  `Num` keeps the text,
the interval and the line it came from; `Expr` trees (built by the readers) evaluate to
`Num` intervals, so an arithmetic line is judged against its own printed terms.
"""

from __future__ import annotations

import math
import re
from dataclasses import dataclass, field

import numpy as np

NUMBER_RE = re.compile(r"[-+−]?(?:\d+\.\d*|\.\d+|\d+)(?:[eE][-+]?\d+)?")
_PARTS = re.compile(r"([-+]?)(\d*)(?:\.(\d*))?(?:[eE]([-+]?\d+))?$")


@dataclass(frozen=True)
class Num:
    """A printed number: its value, its text and the closed interval it stands for.

    >>> n = Num.parse("0.7518"); (n.lo, n.hi, n.decimals)
    (0.75175, 0.75185, 4)
    >>> round(Num.parse("-1.5e-03").hi, 12), Num.parse("3").exact
    (-0.00145, True)
    """
    value: float
    text: str
    lo: float
    hi: float
    line: int = 0
    decimals: int | None = None        # digits after the point at the printed scale; None = integer text

    @property
    def exact(self) -> bool:
        return self.lo == self.hi

    @property
    def half(self) -> float:
        return (self.hi - self.lo) / 2

    @classmethod
    def parse(cls, text: str, line: int = 0, decimals: int | None = None) -> "Num":
        """Read a number as printed; `decimals` overrides its precision (NumPy pads to a common one)."""
        t = text.strip().replace("−", "-").replace("+", "", 1) if text.strip().startswith("+") else \
            text.strip().replace("−", "-")
        m = _PARTS.match(t)
        if not m or not (m.group(2) or m.group(3)):
            raise ValueError(f"not a number: {text!r}")
        value = float(t)
        frac = m.group(3)
        exp = int(m.group(4)) if m.group(4) else 0
        if math.isinf(value):
            # past float64's range (3.4e+388): an exact infinity; decimals 0, since it is no integer (no size, index)
            return cls(value, text.strip(), value, value, line, 0)
        if decimals is None:
            if frac is None and not exp:
                return cls(value, text.strip(), value, value, line, None)
            decimals = len(frac or "") - exp
        half = half_unit(decimals)
        return cls(value, text.strip(), value - half, value + half, line, decimals)

    @classmethod
    def exact_value(cls, value: float, text: str, line: int = 0) -> "Num":
        return cls(value, text, value, value, line, None)

    def with_line(self, line: int) -> "Num":
        return Num(self.value, self.text, self.lo, self.hi, line, self.decimals)

    def put_at(self, x: float) -> "Num":
        """The number this one should have been: x rounded and printed as this one was, with its rounding."""
        v = round(x, self.decimals) if self.decimals is not None else x
        return Num(v, self.rounded(x), v - self.half, v + self.half, self.line, self.decimals)

    def contains(self, x: float, slack: float = 0.0) -> bool:
        """Does the exact value x round to this printed number (allowing float noise and `slack`)?"""
        if math.isnan(x):
            return False
        if math.isinf(x):
            return math.isinf(self.value) and (x > 0) == (self.value > 0)
        # float noise, at the scale of 1; a number printed in e-notation far below it (3.78e-11, a saturated
        # weight) at its own
        # (not below float32's normal range, 1.18e-38: a subnormal printed from float32, 1.5414e-44 for 1.5518e-44,
        # keeps only a few bits, as torch prints it)
        tiny = 1e-37 < abs(self.value) < 1e-6 and self.lo != self.hi and ("e" in self.text or "E" in self.text)
        eps = (1e-9 * abs(x) if tiny else 1e-9 * max(1.0, abs(x))) + slack
        # (a value on the half-way point to two thousandths of its last digit, 0.3444499 for 0.3445, may round either
        # way: its inputs were rounded themselves; the seed's 0.7517449 is eight thousandths short, and rounds down)
        eps += (self.hi - self.lo) * 2e-3
        return self.lo - eps <= x <= self.hi + eps

    def rounded(self, x: float) -> str:
        """x printed the way this number was printed."""
        if math.isinf(x):
            return "-∞" if x < 0 else "∞"
        if math.isnan(x):
            return "nan"             # arithmetic on printed infinities (1e999 - 1e999)
        if self.decimals is None:
            return str(int(round(x))) if abs(x - round(x)) < 1e-9 else f"{x:.4f}"
        if self.text.endswith("%"):               # a share printed as a percent: 19.56%
            return f"{100 * x:.{max(self.decimals - 2, 0)}f}%"
        word = self.text.rsplit(" ", 1)[-1] if " " in self.text else ""
        if word in MAGNITUDE:                     # 2.36 M: in millions, as printed (readers/magnitude.py)
            return f"{x / MAGNITUDE[word]:.{max(self.decimals, 0)}f} {word}"
        sci = re.match(r"[-+]?\d*(?:\.(\d*))?([eE]|×10\^)([-+]?\d+)$", self.text)
        if sci:                                   # 4.85e8, 4.85×10^8, 16e9: the mantissa's digits, its power
            k, d = int(sci.group(3)), len(sci.group(1) or "")
            if not -300 < k < 300:
                return f"{x:.{d}e}"               # (1e999 read as a power: no float holds its scale)
            return f"{x / 10.0 ** k:.{d}f}{sci.group(2)}{k}"
        if self.text.endswith(".") and abs(x - round(x)) <= self.half:
            return f"{x:.0f}."                    # torch's and NumPy's whole value, `-6.`, printed as they print it
        return f"{x:.{max(self.decimals, 0)}f}"


# the words for a number's magnitude in the languages read (readers/result.py, readers/markdown.py): 131 thousand,
# 1.2 millones, 131 ribu, 3 тыс
MAGNITUDE_WORDS = (r"thousands?|millions?|billions?|trillions?|"
                   r"mil|milh(?:ões|ão)|bilh(?:ões|ão)|mill(?:ones|ón)|milliards?|Million(?:en)?|"
                   r"Milliarden?|milion[ei]|miliard[io]|миллион\w*|миллиард\w*|"
                   r"ribu|juta|miliar|triliun|nghìn|ngàn|triệu|tỷ|milyon|milyar|Tausend|Mrd|тыс|млн|млрд")

# the words and letters written after a number for its magnitude: 2.36 M, 1.2 billion, 3 万
MAGNITUDE = {"k": 1e3, "K": 1e3, "thousand": 1e3, "M": 1e6, "Mio": 1e6, "million": 1e6, "millions": 1e6,
             "B": 1e9, "G": 1e9, "bn": 1e9, "billion": 1e9, "billions": 1e9, "T": 1e12, "trillion": 1e12,
             "万": 1e4, "百万": 1e6, "千万": 1e7, "亿": 1e8, "千": 1e3, "億": 1e8, "천": 1e3, "만": 1e4, "억": 1e8,
             # Indonesian and Malay, Vietnamese, Turkish, German, Russian
             "ribu": 1e3, "juta": 1e6, "miliar": 1e9, "triliun": 1e12, "nghìn": 1e3, "ngàn": 1e3, "triệu": 1e6,
             "tỷ": 1e9, "milyon": 1e6, "milyar": 1e9, "Tausend": 1e3, "Mrd": 1e9, "тыс": 1e3, "млн": 1e6, "млрд": 1e9}


def percent(text: str, line: int = 0) -> Num:
    """A share printed as a percent, "19.56%", as the fraction it stands for (0.1956, printed to 4 decimals)."""
    n = Num.parse(text.strip().rstrip("%").strip(), line)
    d = (n.decimals or 0) + 2
    return Num(n.value / 100, text.strip(), n.value / 100 - half_unit(d), n.value / 100 + half_unit(d), line, d)


def half_unit(decimals: int) -> float:
    """Half a unit of the last printed digit; infinite when that unit is past float64 (0e400)."""
    try:
        return 0.5 * 10.0 ** -decimals
    except OverflowError:
        return math.inf


# what masked_fill writes for a hidden score when not -∞: -1e9, -1e4 (BERT's -10000.0), torch.finfo's min
MASK_FILL = -1e4

NEG_INF = Num(-math.inf, "-∞", -math.inf, -math.inf)
POS_INF = Num(math.inf, "∞", math.inf, math.inf)


def interval(lo: float, hi: float, value: float, text: str = "") -> Num:
    return Num(value, text, min(lo, hi), max(lo, hi))


# ------------------------------------------------------------------ interval arithmetic

def add(a: Num, b: Num) -> Num:
    return interval(a.lo + b.lo, a.hi + b.hi, a.value + b.value)


def neg(a: Num) -> Num:
    return interval(-a.hi, -a.lo, -a.value)


def mul(a: Num, b: Num) -> Num:
    c = [a.lo * b.lo, a.lo * b.hi, a.hi * b.lo, a.hi * b.hi]
    c = [0.0 if math.isnan(x) else x for x in c]
    return interval(min(c), max(c), a.value * b.value)


def div(a: Num, b: Num) -> Num:
    if b.lo <= 0 <= b.hi:
        raise ArithmeticError("division by an interval holding 0")
    return mul(a, interval(1 / b.hi, 1 / b.lo, 1 / b.value))


def sqrt(a: Num) -> Num:
    if a.lo < 0:
        raise ArithmeticError("square root of a negative number")
    return interval(math.sqrt(a.lo), math.sqrt(a.hi), math.sqrt(a.value))


def exp(a: Num) -> Num:
    if a.hi > 700:
        raise ArithmeticError("exp overflows")
    return interval(math.exp(a.lo), math.exp(a.hi), math.exp(a.value))


def power(a: Num, b: Num) -> Num:
    if not b.exact or b.value != int(b.value):
        raise ArithmeticError("only integer powers")
    n = int(b.value)
    if a.exact and a.value in (2.0, 10.0) and abs(n) <= 64:
        # a power of ten or of two (10^{-9} turning bytes into GB, 2^{30}): exact, and any size of it
        return Num.exact_value(a.value ** n, f"{a.text}^{n}")
    if abs(n) > 8:
        raise ArithmeticError("only small integer powers")
    out = Num.exact_value(1.0, "1")
    for _ in range(abs(n)):
        out = mul(out, a)
    if n < 0:
        out = div(Num.exact_value(1.0, "1"), out)
    if n % 2 == 0 and a.lo < 0 < a.hi:
        out = interval(0.0, out.hi, out.value)
    return out


# ------------------------------------------------------------------ expression trees

@dataclass(frozen=True)
class Lit:
    num: Num


@dataclass(frozen=True)
class Sym:
    """A symbol inside arithmetic (v_1, q, x_2): resolved by the judge, never evaluated here."""
    text: str


@dataclass(frozen=True)
class Vec:
    """A bracketed vector inside arithmetic: 0.4011[1, 0] + ..."""
    cells: tuple[Num, ...]


@dataclass(frozen=True)
class Op:
    """op is one of + * / neg sqrt exp pow; args are sub-trees."""
    op: str
    args: tuple = field(default_factory=tuple)


Expr = Lit | Sym | Vec | Op


def evaluate(e: Expr) -> Num:
    """The interval an arithmetic tree stands for (ArithmeticError for symbols or vectors)."""
    match e:
        case Lit(num):
            return num
        case Op(("+" | "*") as op, args):
            combine = add if op == "+" else mul
            out = evaluate(args[0])
            for a in args[1:]:
                out = combine(out, evaluate(a))
            return out
        case Op("/", (a, b)):
            return div(evaluate(a), evaluate(b))
        case Op("neg", (a,)):
            return neg(evaluate(a))
        case Op("sqrt", (a,)):
            return sqrt(evaluate(a))
        case Op("exp", (a,)):
            return exp(evaluate(a))
        case Op("pow", (a, b)):
            return power(evaluate(a), evaluate(b))
        case Op(("floor" | "ceil") as fn, (a,)):
            x, f = evaluate(a), (math.floor if fn == "floor" else math.ceil)
            return interval(f(x.lo), f(x.hi), f(x.value))
        case Op(("cos" | "sin" | "tan" | "log" | "ln" | "tanh") as fn, (a,)):
            x = evaluate(a)
            f = {"cos": math.cos, "sin": math.sin, "tan": math.tan, "log": math.log, "ln": math.log,
                 "tanh": math.tanh}[fn]
            if fn in ("log", "ln") and x.lo <= 0:
                raise ArithmeticError("log of a non-positive number")
            pts = [f(x.lo), f(x.hi), f(x.value)]
            if fn in ("cos", "sin", "tan") and x.hi - x.lo > 1e-3:
                raise ArithmeticError("periodic function of a wide interval")
            return interval(min(pts), max(pts), f(x.value))
    raise ArithmeticError("not a number expression")


def leaves(e: Expr) -> list[Num]:
    """Every printed number of an expression, in reading order."""
    match e:
        case Lit(num):
            return [num]
        case Vec(cells):
            return list(cells)
        case Op(_, args):
            return [n for a in args for n in leaves(a)]
    return []


def has_symbols(e: Expr) -> bool:
    match e:
        case Sym() | Vec():
            return True
        case Op(_, args):
            return any(has_symbols(a) for a in args)
    return False


def nines_below_one(n: "Num", x: float) -> bool:
    """0.999 for 0.99985: a weight just under 1 written in nines says "all but 1" (1.000 would say "exactly one"),
    the way authors write a saturated softmax; not a rounding slip."""
    return bool(re.fullmatch(r"0\.99+", n.text.strip())) and n.value < x <= 1.0


def tiny_above_zero(n: "Num", x: float) -> bool:
    """0.00001 for 1e-43: the other end of a saturated softmax, "all but 0" written as a last-digit 1."""
    return bool(re.fullmatch(r"0\.0+1", n.text.strip())) and 0.0 <= x < n.value


def vector_dot(e: Expr) -> bool:
    """[0.6, 0.8] · [0.4, 0.7]: a dot product of two bracketed vectors of one length (face() evaluates it)."""
    return isinstance(e, Op) and e.op == "*" and len(e.args) == 2 and all(isinstance(a, Vec) for a in e.args) \
        and len(e.args[0].cells) == len(e.args[1].cells)


def is_plain_number(e: Expr) -> bool:
    return isinstance(e, Lit) or (isinstance(e, Op) and e.op == "neg" and isinstance(e.args[0], Lit))


def plain_number(e: Expr) -> Num | None:
    """A lone printed number (with its sign), or None."""
    if isinstance(e, Lit):
        return e.num
    if isinstance(e, Op) and e.op == "neg" and isinstance(e.args[0], Lit):
        n = e.args[0].num
        if math.isinf(n.value):
            return Num(-n.value, "-" + n.text.lstrip("-"), -n.hi, -n.lo, n.line, n.decimals)
        # (-(-0.328): the sign of a negative number taken off, "0.328", not "--0.328")
        return Num(-n.value, n.text[1:] if n.text.startswith("-") else "-" + n.text, -n.hi, -n.lo, n.line, n.decimals)
    return None


def substitute(e: Expr, values: dict[int, float]) -> Expr:
    """The tree with the printed numbers whose id is in `values` replaced by those exact values (each keeping its
    text and line): what the arithmetic gives from the right terms instead of the printed ones."""
    if isinstance(e, Lit) and id(e.num) in values:
        x = values[id(e.num)]
        return Lit(Num(x, e.num.text, x, x, e.num.line, None))
    if isinstance(e, Op):
        return Op(e.op, tuple(substitute(a, values) for a in e.args))
    return e


def terms_of(e: Expr) -> list[Expr]:
    """The top-level + terms (a - b is a + (neg b))."""
    if isinstance(e, Op) and e.op == "+":
        return list(e.args)
    return [e]


def factors_of(e: Expr) -> list[Expr]:
    if isinstance(e, Op) and e.op == "*":
        return list(e.args)
    if isinstance(e, Op) and e.op == "neg":
        inner = factors_of(e.args[0])
        return [Op("neg", (inner[0],))] + inner[1:]
    return [e]


def exact_below(e: Expr, decimals: int, digits: int | None = None) -> Expr:
    """The expression with every printed number of fewer decimals than `decimals` taken as exact.

    A careful reader takes "1.5" in "1.5/√2 ≈ 1.0607" at face value; only terms printed at the
    result's precision (or finer) may carry their own rounding into the result.  With `digits` (the result's
    significant digits), a term printed to as many significant digits as the result (three or more) keeps its
    rounding even with fewer decimals: "11.17 / √6 ≈ 4.559" is worked from the 11.167 that 11.17 rounds; "1.2"
    in "0.5125 / 1.2 = 0.43" stays a given.  A result printed to a machine's full precision
    (`0.49306869139523984`) is worked from unrounded values: a term of six significant digits there (`0.707107`)
    is their rounding, not a given.
    """
    match e:
        case Lit(num):
            if num.decimals is not None and num.decimals < decimals and math.isfinite(num.value) and \
                    (digits is None or significant_digits(num) < max(3, min(digits, 6))):
                return Lit(Num(num.value, num.text, num.value, num.value, num.line, num.decimals))
            return e
        case Op(op, args):
            return Op(op, tuple(exact_below(a, decimals, digits) for a in args))
    return e


def significant_digits(n: Num) -> int:
    """The significant digits a decimal is printed to (11.17: 4, 0.0931: 3); 0 for integers and zero."""
    if n.decimals is None or n.value == 0 or not math.isfinite(n.value):
        return 0
    return n.decimals + math.floor(math.log10(abs(n.value))) + 1


def face(e: Expr) -> float:
    """The value of an arithmetic tree with every printed number taken as written."""
    match e:
        case Lit(num):
            return num.value
        case Op("+", args):
            return sum(face(a) for a in args)
        case Op("*", (Vec(u), Vec(v))) if len(u) == len(v):
            return sum(x.value * y.value for x, y in zip(u, v))      # [0.6, 0.8] · [0.4, 0.7]: a dot product
        case Op("*", args):
            out = 1.0
            for a in args:
                out *= face(a)
            return out
        case Op("/", (a, b)):
            d = face(b)
            if d == 0:
                raise ArithmeticError("division by zero")
            return face(a) / d
        case Op("neg", (a,)):
            return -face(a)
        case Op("sqrt", (a,)):
            x = face(a)
            if x < 0:
                raise ArithmeticError("square root of a negative number")
            return math.sqrt(x)
        case Op("exp", (a,)):
            x = face(a)
            if x > 700:
                raise ArithmeticError("exp overflows")
            return math.exp(x)
        case Op("pow", (a, b)):
            return evaluate(e).value
        case Op(("cos" | "sin" | "tan" | "tanh") as fn, (a,)):
            return {"cos": math.cos, "sin": math.sin, "tan": math.tan, "tanh": math.tanh}[fn](face(a))
        case Op(("floor" | "ceil") as fn, (a,)):
            return float((math.floor if fn == "floor" else math.ceil)(face(a)))
        case Op(("log" | "ln"), (a,)):
            x = face(a)
            if x <= 0:
                raise ArithmeticError("log of a non-positive number")
            return math.log(x)
    raise ArithmeticError("not a number expression")


def face_vector(e: Expr) -> list[float] | None:
    """Σ scalar · [vector] with the printed numbers as written, or None when it is anything else."""
    match e:
        case Vec(cells):
            return [c.value for c in cells]
        case Op("+", args):
            parts = [face_vector(a) for a in args]
            if any(p is None for p in parts) or len({len(p) for p in parts}) != 1:
                return None
            return [sum(x) for x in zip(*parts)]
        case Op("neg", (a,)):
            v = face_vector(a)
            return None if v is None else [-x for x in v]
        case Op("*", args):
            vecs = [a for a in args if isinstance(a, Vec) or (isinstance(a, Op) and a.op == "+")]
            if len(vecs) != 1:
                return None
            v = face_vector(vecs[0])
            if v is None:
                return None
            k = 1.0
            for a in args:
                if a is not vecs[0]:
                    try:
                        k *= face(a)
                    except ArithmeticError:
                        return None
            return [k * x for x in v]
        case Op("exp", (a,)) if isinstance(a, Vec):
            v = face_vector(a)                   # exp([0, 5.657, 2.828]): each entry's exponential
            return None if v is None or max(v) > 700 else [math.exp(x) for x in v]
        case Op("/", (a, b)) if isinstance(a, Vec) and not isinstance(b, Vec):
            try:                                 # [3, 0, 2] ÷ 2: a vector over a scalar
                k = face(b)
            except (ArithmeticError, TypeError):
                return None
            return None if k == 0 else [x / k for x in face_vector(a)]
    return None


FLOAT32_REL = 5e-7     # a few float32 units in the last place (2^-23 ≈ 1.2e-7), what its sums of products carry


def _long(c) -> bool:
    return isinstance(c, Num) and len(c.text.lstrip("+-−").replace(".", "").lstrip("0")) >= 8


def _not_float32(c) -> bool:
    """A number with eight significant digits or more that neither NumPy (shortest digits, at most its decimals) nor
    a fixed-decimals format (torch's, `%.8f`) prints for any float32."""
    if not _long(c) or c.decimals is None or not math.isfinite(c.value) or "e" in c.text.lower() or \
            abs(c.value) > 3.0e38:
        return False
    f = np.float32(c.value)
    for g in (f, np.nextafter(f, np.float32(np.inf)), np.nextafter(f, np.float32(-np.inf))):
        for unique in (True, False):
            printed = np.format_float_positional(g, precision=c.decimals, unique=unique, trim="-")
            if float(printed) == c.value:
                return False
    return True


def _last_unit(rows: list) -> None:
    """Eight significant digits or more read within two units of their last digit even in an array that says
    float64: the eighth digit of a result is where float32 and float64 part (3.4898374 is what a float32 kernel
    gives for 3.48983732, and a page that adds 1 to it by hand writes 4.4898374, which no float32 prints); a
    careful reader calls no slip there, and three units off or a digit changed further up is still one."""
    for r in rows:
        for k, c in enumerate(r or []):
            if _long(c) and c.decimals and "e" not in c.text.lower() and math.isfinite(c.value):
                slack = min(FLOAT32_REL * abs(c.value), 4 * c.half)     # two units of the last digit at most
                r[k] = Num(c.value, c.text, min(c.lo, c.value - slack), max(c.hi, c.value + slack), c.line,
                           c.decimals)


def float32_ties(rows: list) -> None:
    """Widen each rounded number of a torch printout by a few float32 units of its value: the float32 sum torch
    printed may round the other way from the exact one where that one lies that close to a tie."""
    for r in rows:
        for k, c in enumerate(r or []):
            if isinstance(c, Num) and c.decimals is not None and math.isfinite(c.value) and c.value != 0:
                slack = FLOAT32_REL * abs(c.value)
                r[k] = Num(c.value, c.text, c.lo - slack, c.hi + slack, c.line, c.decimals)


def float32_width(rows: list) -> None:
    """Seven or more significant digits are past what float32 carries: NumPy prints a float32 array (and `print` of
    one) to 8 decimals, so 0.70710677 is √½ computed in float32, and torch computes in float32 by default.  Such a
    number is read as its value ± a few float32 units, never tighter: a careful reader does not call the eighth
    digit of a float32 result a slip.  A number NumPy printed short and padded (`7.1816   ` among `11.3064003`)
    is read at its row's precision, so it is one of them.

    Numbers that no float32 prints (0.33333333: float32's nearest to ⅓ prints 0.33333334) say the array was
    computed in float64 and printed to 8 decimals: then every number of it is read at its printed precision.  Two
    of them at least (and a quarter of its long numbers), since one may be a slip in a float32 printout."""
    long = [c for r in rows for c in (r or []) if _long(c)]
    need, odd = max(2, math.ceil(0.25 * len(long))), 0
    for c in long:
        odd += _not_float32(c)
        if odd >= need:
            _last_unit(rows)
            return
    for r in rows:
        for k, c in enumerate(r or []):
            if not isinstance(c, Num) or not math.isfinite(c.value) or c.value == 0:
                continue
            digits = len(c.text.lower().split("e")[0].lstrip("+-−").replace(".", "").lstrip("0"))
            if c.decimals is not None and "e" not in c.text.lower() and abs(c.value) >= 1e-12:
                # NumPy pads a short number (7.1816) with spaces to its row's 7 decimals: read at that precision,
                # it carries as many digits as its neighbours
                digits = max(digits, int(math.floor(math.log10(abs(c.value)))) + 1 + c.decimals)
            slack = FLOAT32_REL * abs(c.value)
            if digits >= 7 and c.half < slack:
                r[k] = Num(c.value, c.text, c.value - slack, c.value + slack, c.line, c.decimals)
