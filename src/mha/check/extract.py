"""Reading a hand-written worked example: every numeric claim with its line and its label.

Nothing here evaluates input as code: numbers and the few operators of a
worked example (+ - × * · / √ \\frac) are parsed by a small recursive-descent
parser into intervals (see `Num`), and labels are matched by regular expressions.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any

# ------------------------------------------------------------------ numbers with their printed precision


@dataclass(frozen=True)
class Num:
    """A printed number: its value, its text, and the interval it stands for.

    "0.7518" stands for [0.75175, 0.75185); an integer such as "1" is exact.
    """
    value: float
    text: str
    lo: float
    hi: float

    @property
    def decimals(self) -> int:
        t = self.text.lstrip("-+")
        return len(t.split(".")[1]) if "." in t else 0

    @classmethod
    def parse(cls, text: str) -> "Num":
        v = float(text)
        half = 0.5 * 10.0 ** -len(text.split(".")[1]) if "." in text else 0.0
        return cls(v, text, v - half, v + half)

    @classmethod
    def exact(cls, v: float, text: str) -> "Num":
        return cls(v, text, v, v)


def _iv(op: str, a: Num, b: Num, text: str) -> Num:
    if op == "+":
        return Num(a.value + b.value, text, a.lo + b.lo, a.hi + b.hi)
    if op == "-":
        return Num(a.value - b.value, text, a.lo - b.hi, a.hi - b.lo)
    if op == "*":
        c = [a.lo * b.lo, a.lo * b.hi, a.hi * b.lo, a.hi * b.hi]
        return Num(a.value * b.value, text, min(c), max(c))
    if b.lo <= 0 <= b.hi:
        raise ValueError("division by an interval holding 0")
    c = [a.lo / b.lo, a.lo / b.hi, a.hi / b.lo, a.hi / b.hi]
    return Num(a.value / b.value, text, min(c), max(c))


_NUMBER = r"[-+]?(?:\d+\.\d+|\d+|\.\d+)"
_ARITH_TOKEN = re.compile(r"\s*(\\sqrt|\\frac|\\times|\\cdot|\\div|\d+\.\d+|\d+|\.\d+|[-+*/×·÷(){}])")


class Arith:
    """A parsed arithmetic expression: its value interval and its top-level + terms."""

    def __init__(self, text: str):
        self.text = text
        self.toks = self._tokenize(text)
        self.i = 0
        self.terms: list[list[Num]] = []      # top-level terms, each a list of its factors
        self.result = self._sum(top=True)
        if self.i != len(self.toks):
            raise ValueError("trailing input")

    @staticmethod
    def _tokenize(text: str) -> list[str]:
        s = text.replace("\\left", "").replace("\\right", "").replace("\\,", "").replace("\\;", "")
        s = s.replace("{\\times}", "\\times")
        toks, pos = [], 0
        while pos < len(s):
            if s[pos].isspace():
                pos += 1
                continue
            m = _ARITH_TOKEN.match(s, pos)
            if not m:
                raise ValueError(f"not arithmetic at {pos}")
            toks.append(m.group(1))
            pos = m.end()
        return toks

    def _peek(self) -> str | None:
        return self.toks[self.i] if self.i < len(self.toks) else None

    def _eat(self) -> str:
        t = self.toks[self.i]
        self.i += 1
        return t

    def _sum(self, top: bool = False) -> Num:
        first = self._product()
        if top:
            self.terms.append(self._factors)
        acc = first
        while self._peek() in ("+", "-"):
            op = self._eat()
            b = self._product()
            if top:
                self.terms.append(self._factors if op == "+" else [Num(-f.value, "-" + f.text, -f.hi, -f.lo)
                                                                   for f in self._factors[:1]] + self._factors[1:])
            acc = _iv(op, acc, b, self.text)
        return acc

    def _product(self) -> Num:
        factors = [self._unary()]
        acc = factors[0]
        while self._peek() in ("*", "×", "·", "\\times", "\\cdot", "/", "÷", "\\div"):
            op = self._eat()
            b = self._unary()
            if op in ("/", "÷", "\\div"):
                acc = _iv("/", acc, b, self.text)
                factors = [acc]
            else:
                acc = _iv("*", acc, b, self.text)
                factors.append(b)
        self._factors = factors
        return acc

    def _unary(self) -> Num:
        t = self._peek()
        if t == "-":
            self._eat()
            a = self._unary()
            return Num(-a.value, "-" + a.text, -a.hi, -a.lo)
        if t == "+":
            self._eat()
            return self._unary()
        return self._atom()

    def _atom(self) -> Num:
        t = self._eat() if self._peek() is not None else None
        if t is None:
            raise ValueError("unexpected end")
        if t in ("(", "{"):
            saved = getattr(self, "_factors", None)
            inner = self._sum()
            self._factors = saved
            if self._peek() != (")" if t == "(" else "}"):
                raise ValueError("unbalanced")
            self._eat()
            return inner
        if t == "\\sqrt":
            a = self._atom()
            if a.lo < 0:
                raise ValueError("sqrt of a negative number")
            return Num(a.value ** 0.5, "\\sqrt{" + a.text + "}", a.lo ** 0.5, a.hi ** 0.5)
        if t == "\\frac":
            a, b = self._atom(), self._atom()
            return _iv("/", a, b, self.text)
        if re.fullmatch(r"\d+\.\d+|\d+|\.\d+", t):
            return Num.parse(t)
        raise ValueError(f"unexpected {t!r}")


def parse_arith(text: str) -> Arith | None:
    """An arithmetic expression of printed numbers, or None when the text is anything else."""
    if not re.search(r"\d", text) or len(text) > 2000:
        return None
    try:
        return Arith(text)
    except (ValueError, IndexError, RecursionError, OverflowError, ZeroDivisionError):
        return None


# ------------------------------------------------------------------ labels

@dataclass(frozen=True)
class Label:
    """What a left-hand side names: a trace quantity, optionally one head, row, or transposed."""
    name: str                  # X, Q, K, V, QKt, S, A, O, E, O_concat, Y, W_Q.., b_Q.., x, q, k, v, o, m, l
    head: int | None = None    # 1-based; None = not per head; 0 = generic (h)
    row: int | None = None     # 1-based, for row vectors such as o_1^(1), x_2, m_1
    transposed: bool = False

    def __str__(self) -> str:
        s = {"QKt": "Q^(h) K^(h)T", "O_concat": "O_concat"}.get(self.name, self.name)
        if self.name == "QKt" and self.head:
            s = f"Q^({self.head}) K^({self.head})T"
        elif self.head:
            s += f"^({self.head})"
        if self.row:
            s = f"{self.name.lower()}_{self.row}" + (f"^({self.head})" if self.head else "")
        if self.transposed and self.name != "QKt":
            s = f"({s})T"
        return s


def _clean(tex: str) -> str:
    s = tex
    for w in ("\\left", "\\right", "\\displaystyle", "\\!", "\\,", "\\;", "\\quad", "\\qquad"):
        s = s.replace(w, "")
    s = re.sub(r"\\(?:mathrm|text|operatorname|mathbf|boldsymbol|textrm|mathit)\s*\{([^{}]*)\}", r"\1", s)
    s = s.replace("\\top", "T").replace("^\\intercal", "^T").replace("\\intercal", "T")
    s = re.sub(r"\s+", "", s)
    for _ in range(3):
        s = re.sub(r"\{([^{}]*)\}", r"\1", s)     # drop grouping braces: Q^{(1)} -> Q^(1), {V}^{(1)} -> V^(1)
    s = s.replace("{", "").replace("}", "")
    return s


_HEAD = r"(?:\^?\((\d+|h)\))"
_QKT = re.compile(r"^Q\^?\((\d+|h)\)\(?K\^?\((\d+|h)\)\)?\^?\(?T\)?$|^Q\^?\((\d+|h)\)K\^?\((\d+|h)\)\^?T$")
_HEADED = re.compile(r"^([QKVSAOE])" + _HEAD + r"$")
_HEADED_T = re.compile(r"^\(([QKV])" + _HEAD + r"\)\^?T$|^([QKV])" + _HEAD + r"\^?T$")
_ROWVEC = re.compile(r"^([oqkvx])_?(\d+)" + _HEAD + r"?$|^([oqkvx])" + _HEAD + r"_?(\d+)$")
_PLAIN = {"X": "X", "Q": "Q", "K": "K", "V": "V", "Y": "Y", "O_concat": "O_concat", "Oconcat": "O_concat",
          "O_cat": "O_concat", "Concat": "O_concat"}
_WEIGHT = re.compile(r"^([Wb])_?\^?\(?([QKVO])\)?$")
_ROWSTAT = re.compile(r"^(m|l|ℓ)_?(\d+)$")


def parse_label(tex: str) -> Label | None:
    """Recognise the usual ways of writing the worked example's symbols.

    >>> parse_label(r"Q^{(1)}(K^{(1)}{)}^T")
    Label(name='QKt', head=1, row=None, transposed=False)
    >>> str(parse_label(r"o_3^{(1)}")), str(parse_label(r"O_{\\text{concat}}")), str(parse_label("O{(2)}"))
    ('o_3^(1)', 'O_concat', 'O^(2)')
    """
    s = _clean(tex)
    if not s or len(s) > 80:
        return None
    m = _QKT.match(s)
    if m:
        g = [x for x in m.groups() if x]
        if g[0] == g[1]:
            return Label("QKt", _head(g[0]))
        return None
    m = _HEADED.match(s)
    if m:
        return Label(m.group(1), _head(m.group(2)))
    m = _HEADED_T.match(s)
    if m:
        name, h = (m.group(1), m.group(2)) if m.group(1) else (m.group(3), m.group(4))
        return Label(name, _head(h), transposed=True)
    m = _ROWVEC.match(s)
    if m:
        if m.group(1):
            name, row, h = m.group(1), m.group(2), m.group(3)
        else:
            name, h, row = m.group(4), m.group(5), m.group(6)
        if name == "x":
            return Label("X", None, int(row)) if h is None else None
        return Label(name.upper(), _head(h) if h else None, int(row))
    if s in _PLAIN:
        return Label(_PLAIN[s])
    m = _WEIGHT.match(s)
    if m:
        return Label(f"{m.group(1)}_{m.group(2)}")
    m = _ROWSTAT.match(s)
    if m:
        return Label("row_max" if m.group(1) == "m" else "row_sum", None, int(m.group(2)))
    return None


def _head(h: str | None) -> int | None:
    return None if h is None else (0 if h == "h" else int(h))


CONFIG_SYMBOLS = {"B": "B", "T": "T", "S": "S", "d": "d_model", "d_model": "d_model", "dmodel": "d_model",
                  "H": "n_heads", "h": "n_heads", "n_heads": "n_heads", "num_heads": "n_heads",
                  "d_h": "d_head", "d_head": "d_head", "d_k": "d_head", "dh": "d_head"}


# ------------------------------------------------------------------ claims

@dataclass
class Claim:
    """One checkable statement.  kind: matrix, vector, weighted_sum, arith, shape, config, reading."""
    kind: str
    line: int
    text: str
    label: Label | None = None
    labels: list[Label] = field(default_factory=list)
    cells: list[list[Num | None]] | None = None   # matrix / vector values; None = elided
    rows: list[int | None] | None = None          # 0-based row index of each printed row (negative from the end)
    cols: list[int | None] | None = None
    lines: list[int] | None = None                # line of each printed row
    arith: Arith | None = None                    # arithmetic left side
    rhs: Num | None = None
    shape: list[int] | None = None
    operands: list[list[int]] | None = None       # shape arithmetic: [a, b] x [c, d]
    terms: list[tuple[Num, Any]] | None = None    # weighted sum: (weight, vector or v-index)
    context: dict[str, Any] = field(default_factory=dict)


_MATRIX_ENV = re.compile(
    r"\\begin\{(array|bmatrix|pmatrix|vmatrix|Bmatrix|matrix|smallmatrix)\}(\{[^{}]*\})?(.*?)\\end\{\1\}", re.S)
_BRACKETS = re.compile(r"\[\s*\[.*?\]\s*\]", re.S)
_ELLIPSIS = {"\\vdots", "\\cdots", "\\ddots", "\\ldots", "...", "…", "⋮", "⋯", "⋱"}


def parse_cell(cell: str) -> Num | None | str:
    """A matrix cell: a Num, None for an ellipsis, "-inf" for a masked score, or "" if not numeric."""
    c = cell.strip().strip("$").strip()
    if c in _ELLIPSIS:
        return None
    if c in ("-\\infty", "−∞", "-∞", "-inf"):
        return "-inf"
    a = parse_arith(c)
    if a is None:
        return ""
    if len(a.terms) == 1 and len(a.terms[0]) == 1 and re.fullmatch(_NUMBER, c.replace(" ", "")):
        return Num.parse(c.replace(" ", "").lstrip("+"))
    return Num(a.result.value, c, a.result.lo, a.result.hi)


def parse_matrix_body(body: str) -> list[list[Any]] | None:
    rows = [r for r in re.split(r"\\\\(?:\[[^\]]*\])?", body)]
    rows = [r for r in rows if r.strip() and r.strip() not in ("\\hline",)]
    out = [[parse_cell(c) for c in r.replace("\\hline", "").split("&")] for r in rows]
    if not out or any(c == "" for row in out for c in row):
        return None
    return out


def parse_bracket_list(text: str) -> list[list[Any]] | None:
    """[[1, 0], [0, 1]] or [1, 0, 1] as rows of cells."""
    t = text.strip()
    if re.match(r"\[\s*\[", t):
        if not re.fullmatch(r"\[\s*(?:\[[^\[\]]*\]\s*,?\s*)+\]", t):
            return None
        inner = re.findall(r"\[([^\[\]]*)\]", t)
        rows = [[parse_cell(c) for c in r.split(",")] for r in inner]
    elif re.fullmatch(r"\[[^\[\]]*\]", t):
        rows = [[parse_cell(c) for c in t[1:-1].split(",")]]
    else:
        return None
    if not rows or any(c == "" or isinstance(c, str) for row in rows for c in row):
        return None
    return rows


# ------------------------------------------------------------------ walking the document

_MATH = re.compile(r"\$\$(.+?)\$\$|\\\[(.+?)\\\]|\\begin\{(equation|align|gather|displaymath|multline)(\*?)\}(.+?)"
                   r"\\end\{\3\4\}|\$([^$\n]+?)\$", re.S)
_ZH_NUM = {"一": 1, "二": 2, "三": 3, "四": 4, "五": 5, "六": 6, "七": 7, "八": 8, "九": 9, "十": 10}
_ROW_CTX = re.compile(r"(?:第\s*([一二三四五六七八九十]|\d+)\s*行|\brow\s+(\d+)|^\s*(?:[-*•]\s*)?token\s+(\d+)\s*(?:在|in)\b)",
                      re.I)
_HEAD_CTX = re.compile(r"(?:\bhead\s*(\d+)|第\s*(\d+)\s*个头)", re.I)
_READING = re.compile(r"token\s*(\d+)(?:.*?token\s*(\d+))?[^\d\[\]=]*?(?:=|:|：|weight|权重|score|分数|相似度)\s*(?:是|为|of|is)?\s*"
                      r"(" + _NUMBER + r")\s*[。.;；)）]?\s*$", re.I)
_SHAPE_MUL = re.compile(r"\[\s*(\d+)\s*,\s*(\d+)\s*\]\s*(?:\\times|×|x|\*|\\cdot)\s*\[\s*(\d+)\s*,\s*(\d+)\s*\]$")
_SHAPE = re.compile(r"^\[\s*(\d+(?:\s*,\s*\d+)*)\s*\]$")
_IN_R = re.compile(r"\\in\s*\{?\s*\\mathbb\s*\{?\s*R\s*\}?\s*\}?\s*\^\s*\{?\s*(\d+(?:\s*(?:\\times|×)\s*\d+)+)\s*\}?")
_ASSIGNMENTS = re.compile(r"^\s*[\w\\{}]+\s*=\s*[\d.]+\s*(,\s*[\w\\{}]+\s*=\s*[\d.]+\s*)+$")
_RELATION = re.compile(r"=|\\approx|≈|\\simeq|\\equiv")


class Walker:
    """Reads the document top to bottom, keeping the context a reader would (head, row, step)."""

    def __init__(self, text: str):
        self.text = text
        self.starts = [0] + [m.end() for m in re.finditer(r"\n", text)]
        self.claims: list[Claim] = []
        self.ctx: dict[str, Any] = {"head": None, "row": None, "matrix": None, "o": None, "component": 0,
                                    "step": None}
        self.hints: dict[str, Any] = {"identity": {}, "n_heads": None, "d_head": None}

    def line_of(self, offset: int) -> int:
        import bisect
        return bisect.bisect_right(self.starts, offset)

    # -------------------------------------------------------------- driver

    def run(self) -> "Walker":
        text = self.text
        segments: list[tuple[int, str, str]] = []
        pos = 0
        table_lines = set()
        for i, start in enumerate(self.starts):
            end = self.starts[i + 1] - 1 if i + 1 < len(self.starts) else len(text)
            line = text[start:end]
            self._hints_from(line, i + 1)
            if self._table_row(line, i + 1):
                table_lines.add(i)
        for m in _MATH.finditer(text):
            if self.line_of(m.start()) - 1 in table_lines:
                continue
            if m.start() > pos:
                segments.append((pos, "text", text[pos:m.start()]))
            body = next(g for g in (m.group(1), m.group(2), m.group(5), m.group(6)) if g is not None)
            segments.append((m.start() + m.group(0).index(body[:1]) if body else m.start(), "math", body))
            pos = m.end()
        segments.append((pos, "text", text[pos:]))
        for offset, kind, body in segments:
            if kind == "math":
                self.math(body, offset)
            else:
                o = offset
                for part in body.split("\n"):
                    if self.line_of(o) - 1 not in table_lines:
                        self.prose(part, o)
                    o += len(part) + 1
        return self

    # -------------------------------------------------------------- prose

    def prose(self, line: str, offset: int) -> None:
        s = line.strip()
        if not s:
            return
        n = self.line_of(offset)
        heading = s.startswith("#") or re.match(r"^\d+(\.\d+)*\.?\s+\S", s) or s.startswith("\\section") \
            or s.startswith("\\subsection")
        hm = _HEAD_CTX.search(s)
        if hm and (heading or not _READING.search(s)):
            self.ctx["head"] = int(hm.group(1) or hm.group(2))
        if heading:
            self.ctx["row"] = None
            low = s.lower()
            if "softmax" in low:
                self.ctx["matrix"] = Label("A", self.ctx["head"])
            for word, step in (("score", "scores"), ("相似", "scores"), ("q^", "scores"),
                               ("v^", "weighted_sum"), ("weighted", "weighted_sum"), ("乘以 v", "weighted_sum")):
                if word in low:
                    self.ctx["step"] = step
        rm = _READING.search(s)
        if rm and not heading:
            j = int(rm.group(2) or rm.group(1))
            i = int(rm.group(1)) if rm.group(2) else self.ctx["row"]
            self.claims.append(Claim("reading", n, s, label=self.ctx["matrix"], rhs=Num.parse(rm.group(3)),
                                     context={"i": i, "j": j, "head": self.ctx["head"]}))
            return
        cm = _ROW_CTX.search(s)
        if cm:
            g = cm.group(1) or cm.group(2) or cm.group(3)
            self.ctx["row"] = _ZH_NUM.get(g) or int(g)
        # plain-text statements: config scalars (T = 3) and label = [list]
        if "=" in s and not heading:
            body = re.sub(r"\s#\s.*$", "", s)
            self.statement(body, offset, n, plain=True)

    def _hints_from(self, s: str, n: int) -> None:
        c = _clean(s)
        explicit = re.search(r"(?:^|[\s$(（])(?:H|n_heads|num_heads)\s*=\s*(\d+)", s)
        if explicit and (self.hints["n_heads"] is None or not self.hints.get("n_heads_explicit")):
            self.hints["n_heads"] = (int(explicit.group(1)), n)
            self.hints["n_heads_explicit"] = True
        m = re.search(r"(?<!第)(?<!第 )\b(\d+)\s*个\s*(?:head|头)|\b(\d+)\s*(?:attention\s+)?heads\b", s, re.I)
        if m and self.hints["n_heads"] is None:
            self.hints["n_heads"] = (int(next(g for g in m.groups() if g)), n)
        if self.hints.get("causal") is None and re.search(r"causal mask|因果掩码", s, re.I):
            align = "bottom_right" if re.search(r"bottom[- ]right|右下角", s, re.I) else "top_left"
            self.hints["causal"] = (align, n)
        names = re.findall(r"W_?\{?\^?([QKVO])\}?", s)
        if names and re.search(r"单位矩阵|identity|\bI_?\d*\b|=I(_\d+)?$", s + " " + c, re.I):
            for name in names:
                self.hints["identity"].setdefault("W_" + name, n)

    def _table_row(self, line: str, n: int) -> bool:
        cells = [c.strip() for c in (line.strip().strip("|").split("|") if line.strip().startswith("|")
                                     else line.split("\t"))]
        if len(cells) < 2:
            return False
        shape_cells = [c for c in cells if _SHAPE.match(c.strip("$ "))]
        if not shape_cells:
            return False
        shape = [int(x) for x in _SHAPE.match(shape_cells[-1].strip("$ ")).group(1).split(",")]
        for c in cells:
            if c is shape_cells[-1]:
                continue
            sym = c.strip("$ ")
            first = _RELATION.split(sym)[0]
            labels = [parse_label(p) for p in re.split(r",|，", first)]
            labels = [lab for lab in labels if lab]
            if labels:
                self.claims.append(Claim("shape", n, line.strip(), labels=labels, shape=shape))
                return True
        return False

    # -------------------------------------------------------------- math

    def math(self, tex: str, offset: int) -> None:
        mats: list[tuple[list[list[Any]], list[int]]] = []

        def stash(m: re.Match) -> str:
            rows = parse_matrix_body(m.group(3))
            if rows is None:
                return " SYMBOLIC "
            # the line of each printed row
            lines, pos = [], m.start(3)
            for r in re.split(r"(\\\\)", m.group(3)):
                if r != "\\\\" and r.strip():
                    lines.append(self.line_of(offset + pos + len(r) - len(r.lstrip())))
                pos += len(r)
            mats.append((rows, lines[:len(rows)] or [self.line_of(offset)] * len(rows)))
            return f" ⟦M{len(mats) - 1}⟧ "

        body = _MATRIX_ENV.sub(stash, tex)
        body = re.sub(r"\\left\s*[\[(|.]|\\right\s*[\])|.]", "", body)
        n = self.line_of(offset)
        flat = re.sub(r"\s*\n\s*", " ", body).strip()
        # A display split over lines with no '=' between label and value (a slip in some notes):
        # "o_1^{(1)} 0.4011[1,0] + ..." is read as "o_1^{(1)} = 0.4011[1,0] + ...".
        if not _RELATION.search(flat):
            m = re.match(r"^(\S+?)\s+(" + _NUMBER + r"\s*\[.*)$", flat)
            if m and parse_label(m.group(1)):
                flat = f"{m.group(1)} = {m.group(2)}"
        for stmt in re.split(r"\\\\|;", flat):
            self.statement(stmt, offset, n, mats=mats)

    def statement(self, stmt: str, offset: int, n: int, mats: list | None = None, plain: bool = False) -> None:
        mats = mats or []
        if _ASSIGNMENTS.match(stmt):          # "d=4, H=2, d_h=2": one statement each
            for piece in stmt.split(","):
                self.statement(piece, offset, n, mats, plain)
            return
        parts = [p.strip() for p in _RELATION.split(stmt)]
        if len(parts) < 2 and "\\in" not in stmt and not _SHAPE_MUL.search(stmt):
            if len(parts) == 1:
                self._lone(parts[0], n, mats)
            return
        labels: list[Label] = []
        for k, part in enumerate(parts):
            mref = re.fullmatch(r"⟦M(\d+)⟧(.*)", part)
            if mref:
                rows, lines = mats[int(mref.group(1))]
                self.matrix_claim(labels, rows, lines, stmt)
                self._in_shape(labels, mref.group(2), n, stmt)
                labels = []
                continue
            if "\\in" in part:
                left = part.split("\\in")[0]
                labs = [parse_label(x) for x in re.split(r",", left)]
                labs = [x for x in labs if x] or labels
                self._in_shape(labs, part[part.index("\\in"):], n, stmt)
                continue
            lab = parse_label(part)
            if lab:
                labels.append(lab)
                self._on_label(lab)
                continue
            key = _clean(part)
            nxt = parts[k + 1] if k + 1 < len(parts) else None
            if key in CONFIG_SYMBOLS and nxt is not None:
                tail = [parse_arith(p) for p in parts[k + 1:]]
                nums = [a for a, p in zip(tail, parts[k + 1:]) if a is not None and re.fullmatch(_NUMBER, p.strip())]
                if nums:
                    self.claims.append(Claim("config", n, stmt.strip(), rhs=nums[-1].result,
                                             context={"symbol": CONFIG_SYMBOLS[key]}))
                    if CONFIG_SYMBOLS[key] == "n_heads" and self.hints["n_heads"] is None:
                        self.hints["n_heads"] = (int(nums[-1].result.value), n)
                    if CONFIG_SYMBOLS[key] == "d_head" and self.hints["d_head"] is None:
                        self.hints["d_head"] = (int(nums[-1].result.value), n)
                labels = []
                continue
            sm = _SHAPE_MUL.search(part.split(":")[-1].replace("\\quad", "").strip())
            if sm and nxt is not None and _SHAPE.match(nxt.strip()):
                a = [int(sm.group(1)), int(sm.group(2))]
                b = [int(sm.group(3)), int(sm.group(4))]
                res = [int(x) for x in _SHAPE.match(nxt.strip()).group(1).split(",")]
                self.claims.append(Claim("shape", n, stmt.strip(), operands=[a, b], shape=res,
                                         context={"step": self.ctx["step"], "head": self.ctx["head"]}))
                return
            bl = parse_bracket_list(part)
            if bl is not None:
                if labels:
                    self.vector_claim(labels, bl, n, stmt)
                    labels = []
                elif not _SHAPE.match(part) or len(bl[0]) > 3 or any(
                        c is not None and c.decimals for c in bl[0]):
                    self.claims.append(Claim("vector", n, stmt.strip(), cells=bl))
                continue
            ws = self._weighted_sum(part)
            if ws is not None:
                if labels and labels[-1].name == "O" and labels[-1].row:
                    self.claims.append(Claim("weighted_sum", n, stmt.strip(), label=labels[-1], terms=ws))
                labels = []
                continue
            ar = parse_arith(part)
            if ar is not None and nxt is not None and (len(ar.terms) > 1 or len(ar.terms[0]) > 1
                                                       or "sqrt" in part or "frac" in part or "/" in part):
                rhs = parse_arith(nxt)
                if rhs is not None and len(rhs.terms) == 1 and len(rhs.terms[0]) == 1:
                    ctx = {}
                    if self.ctx["o"] is not None:
                        ctx = {"o": self.ctx["o"], "component": self.ctx["component"]}
                        self.ctx["component"] += 1
                    self.claims.append(Claim("arith", n, f"{part} = {nxt}", arith=ar, rhs=rhs.result, context=ctx))
                continue
            if ar is not None and labels and len(ar.terms) == 1 and len(ar.terms[0]) == 1:
                lab = labels[-1]
                self.claims.append(Claim("scalar", n, stmt.strip(), label=lab, rhs=ar.result,
                                         context={"head": self.ctx["head"]}))
                labels = []
                continue
            # anything else (a formula such as \frac{Q K^T}{\sqrt{2}}) names the same quantity: keep the labels

    def _lone(self, part: str, n: int, mats: list) -> None:
        """A display holding only a matrix or a vector, with no label: matched by value later."""
        mref = re.fullmatch(r"⟦M(\d+)⟧", part)
        if mref:
            rows, lines = mats[int(mref.group(1))]
            self.claims.append(Claim("matrix", lines[0], part, cells=rows, lines=lines))
            return
        bl = parse_bracket_list(part)
        if bl is not None:
            self.claims.append(Claim("vector", n, part, cells=bl))

    def _on_label(self, lab: Label) -> None:
        if lab.head:
            self.ctx["head"] = lab.head
        if lab.name == "O" and lab.row:
            self.ctx["o"] = (lab.head or self.ctx["head"], lab.row)
            self.ctx["component"] = 0
        elif lab.name in ("QKt", "S", "A", "E"):
            self.ctx["o"] = None
        if lab.name == "QKt":
            self.ctx["step"] = "scores"
        elif lab.name == "O":
            self.ctx["step"] = "weighted_sum"

    def _in_shape(self, labels: list[Label], text: str, n: int, stmt: str) -> None:
        m = _IN_R.search(text)
        if m and labels:
            shape = [int(x) for x in re.split(r"\\times|×", m.group(1))]
            self.claims.append(Claim("shape", n, stmt.strip(), labels=list(labels), shape=shape))

    def _weighted_sum(self, part: str) -> list[tuple[Num, Any]] | None:
        pieces = [p.strip() for p in re.split(r"\+(?![^\[]*\])", part) if p.strip()]
        if len(pieces) < 2:
            return None
        terms = []
        for p in pieces:
            if p in _ELLIPSIS:
                terms.append((None, None))
                continue
            m = re.fullmatch(r"(" + _NUMBER + r")\s*(?:\\,|\\cdot|·)?\s*(\[[^\]]*\]|v.*)", p)
            if not m:
                return None
            if m.group(2).startswith("["):
                vec = parse_bracket_list(m.group(2))
                if vec is None:
                    return None
                terms.append((Num.parse(m.group(1)), vec[0]))
            else:
                lab = parse_label(m.group(2))
                if lab is None or lab.name != "V" or not lab.row:
                    return None
                terms.append((Num.parse(m.group(1)), lab.row))
        return terms

    def matrix_claim(self, labels: list[Label], rows: list[list[Any]], lines: list[int], stmt: str) -> None:
        if not labels:
            self.claims.append(Claim("matrix", lines[0], stmt.strip(), cells=rows, lines=lines))
            return
        for lab in labels:
            self.claims.append(Claim("matrix", lines[0], stmt.strip(), label=lab, labels=labels, cells=rows,
                                     lines=lines, context={"head": self.ctx["head"]}))
        if labels[0].name in ("QKt", "S", "A", "E"):
            self.ctx["matrix"] = labels[0]

    def vector_claim(self, labels: list[Label], rows: list[list[Any]], n: int, stmt: str) -> None:
        for lab in labels:
            self.claims.append(Claim("vector", n, stmt.strip(), label=lab, cells=rows,
                                     context={"head": self.ctx["head"]}))


def extract(text: str) -> Walker:
    """Walk a document and collect its claims and configuration hints."""
    return Walker(text).run()
