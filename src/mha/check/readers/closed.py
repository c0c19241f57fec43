"""Closed forms, long decimals and input rows written as tuples: how a solution sheet states its answers.

A closed form is arithmetic over exact numbers with Euler's e, exponentials, roots and fractions
(`\\frac{e^{1/\\sqrt{2}}}{e^{1/\\sqrt{2}} + 2}`, `e/(1 + 2e)`, `1/(1 + 2*exp(-1/sqrt(2)))`, `\\frac{1}{3}`); a long
decimal has LONG_DIGITS significant digits or more (`0.751744921742`).  Both are claims finer than float64's
comparisons: the judge (claims/closed.py) checks them exactly.  The readers already turn them into expression
trees; this module says which trees they are, and reads what a solution sheet writes around them and the
statements do not: input rows as tuples (`x_1 = (1, 0, 1, 0)`, "X 的三行为 (1, 0)、(0, 1)、(1, 1)") and a long
decimal stated in words ("which is 0.377540668798 to twelve places").
"""

from __future__ import annotations

import math
import re
from dataclasses import replace

from .. import labels as lb
from .. import numbers as nb
from ..numbers import NUMBER_RE, Lit, Num, Op, Sym, Vec
from ..objects import Array, ArrayPart, Chain, Context, Document, ExprPart, LabelPart, Place
from .common import Segment
from .expr import parse_expr
from .tokens import flat_text, walk_latex

LONG_DIGITS = 10                 # a decimal this long is checked exactly, not at float64's 1e-9
_EXACT_OPS = {"+", "*", "/", "neg", "sqrt", "exp", "pow"}
_ONE = Num.exact_value(1.0, "1")


# ------------------------------------------------------------------ which trees are closed forms

def is_closed(e) -> bool:
    """Exact numbers with e, exp or √, or a fraction that is not a whole number: e/(1 + 2e), \\frac{1}{3}.
    Sums and products of whole numbers (1·1 + 2·2, 3×4, a date) are arithmetic, not closed forms.

    >>> from mha.check.numbers import Lit, Num, Op, Sym
    >>> one, two = Lit(Num.parse("1")), Lit(Num.parse("2"))
    >>> is_closed(Op("/", (Sym("e"), Op("+", (one, Sym("e")))))), is_closed(Op("/", (one, two)))
    (True, True)
    >>> is_closed(Op("*", (two, two))), is_closed(Op("/", (two, one))), is_closed(Lit(Num.parse("0.5")))
    (False, False, False)
    """
    if nb.plain_number(e) is not None or not _exact_tree(e):
        return False
    if is_transcendental(e):
        return True
    x = face_value(e) if "/" in _ops(e) else None
    return x is not None and abs(x - round(x)) > 1e-12


def is_transcendental(e) -> bool:
    """Has Euler's e, an exponential or a root: a softmax-level closed form, not a rational number."""
    return bool(_ops(e) & {"exp", "sqrt", "e"})


def _ops(e) -> set[str]:
    match e:
        case Sym("e"):
            return {"e"}
        case Op(op, args):
            return {op}.union(*(_ops(a) for a in args))
    return set()


def _exact_tree(e) -> bool:
    match e:
        case Lit(num):
            return num.exact and math.isfinite(num.value)
        case Sym(text):
            return text == "e"
        case Op(op, args):
            return op in _EXACT_OPS and all(_exact_tree(a) for a in args)
    return False


def significant(n: Num) -> int:
    """The significant digits as printed: 0.751744921742 has 12, 1.50e-3 has 3."""
    mantissa = re.split(r"[eE]", n.text)[0]
    return len(mantissa.replace("-", "").replace("+", "").replace(".", "").lstrip("0"))


def is_long(n: Num | None) -> bool:
    return n is not None and n.decimals is not None and math.isfinite(n.value) and significant(n) >= LONG_DIGITS


def with_e(e):
    """The tree with Euler's e as exp(1), so that interval and face arithmetic can evaluate it."""
    match e:
        case Sym("e"):
            return Op("exp", (Lit(_ONE),))
        case Op(op, args):
            return Op(op, tuple(with_e(a) for a in args))
    return e


def face_value(e) -> float | None:
    """A closed form's value in float64 (None when it cannot be evaluated)."""
    try:
        x = nb.face(with_e(e))
    except (ArithmeticError, OverflowError, ValueError):
        return None
    return x if math.isfinite(x) else None


def precise_parts(c: Chain) -> list[tuple[int, ExprPart]]:
    """The parts of a chain that are closed forms or long decimals, with their index."""
    return [(k, p) for k, p in enumerate(c.parts) if isinstance(p, ExprPart)
            and (is_closed(p.expr) or is_long(nb.plain_number(p.expr)))]


def exact_kind(c: Chain) -> str | None:
    """How much of a chain is stated exactly: "exact" (every number a closed form or a long decimal), "mixed"
    (closed forms beside printed short decimals, A_{11} = \\frac{1}{2 + e^{-\\sqrt{2}/2}} \\approx 0.4011, the
    decimals being arithmetic at their own precision, claims/arith.py), or None.  Only a named entry, a
    softmax-level form (e, exp) or a long decimal counts: a lone constant (√2, 1/8) that names nothing, or a
    closed form beside its decimal that names nothing (e^{2} = 7.3891), is arithmetic."""
    if c.context.partial:
        return None
    exprs = [p for p in c.parts if isinstance(p, ExprPart) and index_label(p.expr) is None]
    precise = precise_parts(c)
    if not precise:
        return None
    refs = chain_refs(c)
    named = bool(refs) and refs[0].raw_row is not None and refs[0].raw_col is not None
    if len(precise) < len(exprs):
        return "mixed" if named else None        # an unnamed one is checked at its decimal's precision
    if named or any(not is_closed(p.expr) or _ops(p.expr) & {"exp", "e"} for _, p in precise):
        return "exact"
    return None


def is_precise(c: Chain) -> bool:
    """Every number of the chain stated exactly (see exact_kind)."""
    return exact_kind(c) == "exact"


# ------------------------------------------------------------------ the entry a chain names

def index_label(e) -> str | None:
    """A[2, 1] read as arithmetic (a symbol times a vector of indices) is the label A_{2,1}."""
    if isinstance(e, Op) and e.op == "*" and len(e.args) == 2 and isinstance(e.args[0], Sym) and \
            isinstance(e.args[1], Vec) and 1 <= len(e.args[1].cells) <= 3 and \
            all(c.decimals is None and c.value >= 0 for c in e.args[1].cells):
        return e.args[0].text + "_{" + ",".join(str(int(c.value)) for c in e.args[1].cells) + "}"
    return None


def chain_refs(c: Chain) -> list[lb.Ref]:
    """The entries a scalar chain names, as written (raw indices), in order: A_{11} = A_{13} = \\frac{1}{3}.

    y_{21} names row 2, column 1: a single number is an entry, so two run-together digits are two indices; a
    name without an index ("数值", "the value") names no entry of a matrix."""
    out = []
    for p in c.parts:
        text = p.text if isinstance(p, LabelPart) else index_label(p.expr) if isinstance(p, ExprPart) else None
        ref = lb.parse_label(text) if text else None
        if ref is None or ref.raw_row is None:
            continue
        if ref.raw_col is None and 11 <= ref.raw_row <= 99 and ref.raw_row % 10:
            ref = replace(ref, raw_row=ref.raw_row // 10, raw_col=ref.raw_row % 10)
        out.append(ref)
    return out


def chain_ref(c: Chain) -> lb.Ref | None:
    """The first entry a scalar chain names (chain_refs)."""
    refs = chain_refs(c)
    return refs[0] if refs else None


# ------------------------------------------------------------------ what a solution sheet writes around them

def read_closed(doc: Document, text: str) -> None:
    """Tuples that are input rows, and long decimals stated in words, added to what the readers found."""
    if doc.format == "ipynb":
        return                       # a notebook's raw text is JSON: its statements are read cell by cell
    added = _tuple_rows(doc) + _worded_tuples(doc, text)
    if not any(_names(a, "X") for a in doc.arrays):
        added += _prose_rows(doc, text)
    if added:
        doc.set_arrays(doc.arrays, in_reading_order=True)
    _prose_decimals(doc, text)


def _names(a: Array, node: str) -> bool:
    ref = lb.parse_label(a.label) if a.label else None
    return ref is not None and ref.nodes[0] == node


def _tuple_rows(doc: Document) -> int:
    """x_1 = (1, 0, 1, 0): the row of an input named by its label, as a one-row array; b_Q = (0.1, 0): a
    projection's bias, a vector."""
    n = 0
    for c in doc.chains:
        for k in range(1, len(c.parts)):
            name, value = c.parts[k - 1], c.parts[k]
            if not (isinstance(name, LabelPart) and isinstance(value, LabelPart)):
                continue
            label = _named_last(name.text)
            ref = lb.parse_label(label)
            bias = ref is not None and ref.nodes[0] in ("b_Q", "b_K", "b_V", "b_O") and ref.raw_row is None
            query = ref is not None and label == "q"        # "the query q = (1, 0)": the one query's vector
            # "weights ≈ (0.455, 0.225, 0.320)" in a text block: one query's weights, in decimals
            weights = ref is not None and ref.nodes == ("A",) and ref.raw_row is None and c.rels[k - 1] in ("=", "≈")
            if ref is None or not bias and not query and not weights and \
                    (ref.nodes[0] not in ("X", "Q", "K", "V") or ref.raw_row is None) or \
                    ref.raw_col is not None or ref.raw_head is not None:
                continue
            cells = _tuple(value.text, c.place.line)
            if weights and cells is not None and (len(cells) < 2 or any(n.decimals is None for n in cells)):
                continue
            if cells is None or any(a.label == label and (a.place.cell, a.place.line) == (c.place.cell, c.place.line)
                                    for a in doc.arrays):
                continue            # the prose reader has it already ("k_1 = (0.6, 0.8)" outside math)
            a = Array([cells], c.place, label=label, labels=[label], style="list", context=c.context)
            doc.arrays.append(a)
            c.parts[k] = ArrayPart(a)
            n += 1
    return n


# "softmaxは約(0.670,0.330)", "内积为(1, 0)", "가중치는 (0.67, 0.33)": a quantity's word, a copula of Japanese, Chinese
# or Korean, and the tuple of its values in the prose (no math, no "=")
_WORDED_TUPLE = re.compile(r"(?<![\w(])([A-Za-z]{3,12}|[\u3040-\u30ff\u4e00-\u9fff\uac00-\ud7af]{1,8}?)\s*"
                           r"(?:は(?:約|およそ)?|约为|約|约|为|是|는|은)\s*(\([^()\n]{3,80}\))")
_WORDED_NODES = {("A",), ("QKt", "S")}


def _worded_tuples(doc: Document, text: str) -> int:
    """A stage's values written in a CJK sentence after its word (see _WORDED_TUPLE): one row of that stage."""
    n = 0
    for k, line in enumerate(text.split("\n")):
        for m in _WORDED_TUPLE.finditer(line):
            ref = lb.parse_label(m.group(1))
            cells = _tuple(m.group(2), k + 1) if ref is not None and ref.nodes in _WORDED_NODES else None
            if cells is None or ref.nodes == ("A",) and any(c.decimals is None for c in cells) or \
                    any(a.line == k + 1 and a.label == m.group(1) for a in doc.arrays):
                continue
            doc.arrays.append(Array([cells], Place(k + 1), label=m.group(1), labels=[m.group(1)], style="list",
                                    context=Context()))
            n += 1
    return n


def _named_last(text: str) -> str:
    """"three keys k₁", "the query q", "suppose the value vectors are v₁": words, then the vector's own name; the
    name, else the text as it is."""
    words = text.split()
    whole = lb.parse_label(text)
    if len(words) < 2 or not re.fullmatch(r"[A-Za-z]+", words[-2]) or (whole is not None and whole.raw_row is not None):
        return text
    return words[-1] if lb.parse_label(words[-1]) is not None else text


_TUPLE = r"\(\s*[^()\n]+?\s*\)"
_ROWS = re.compile(r"(?:\bX\b|输入)[^()\n]{0,12}?(?:的\s*[一二两三四五六七八九十\d]*\s*行\s*(?:分别)?\s*[为是]|"
                   r"\b(?:has|with)\s+(?:the\s+)?rows|\brows\s+(?:are|:))\s*[:：]?\s*"
                   r"(" + _TUPLE + r"(?:\s*(?:,|、|，|\band\b|和|与|及)\s*" + _TUPLE + r")+)")


def _prose_rows(doc: Document, text: str) -> int:
    """"X 的三行为 (1, 0)、(0, 1)、(1, 1)", "X has rows (1, 0), (0, 1) and (1, 1)": X, row by row."""
    for k, line in enumerate(text.split("\n")):
        m = _ROWS.search(_plain(line))
        if not m:
            continue
        rows = [_tuple(t, k + 1) for t in re.findall(_TUPLE, m.group(1))]
        if len(rows) < 2 or any(r is None for r in rows) or len({len(r) for r in rows}) != 1:
            continue
        doc.arrays.append(Array(rows, Place(k + 1), label="X", labels=["X"], style="list", context=Context()))
        return 1
    return 0


def _plain(line: str) -> str:
    """A line without its math delimiters and tags: $X$ 的三行为 $(1, 0)$ -> X 的三行为 (1, 0)."""
    line = re.sub(r"<[^>]*>", " ", line)
    return re.sub(r"\$|\\[()\[\]]", " ", line)


def _tuple(text: str, line: int) -> list[Num] | None:
    """(1, \\tfrac12) -> [1, 0.5] (exact numbers only: a tuple of inputs, not of printed results)."""
    s = text.strip()
    if not (s.startswith("(") and s.endswith(")")):
        return None
    seg = Segment(s[1:-1], line, "math")
    pieces, cur, depth = [], [], 0
    for t in walk_latex(seg.text):
        if t.kind == "OP" and t.text in "([{":
            depth += 1
        elif t.kind == "OP" and t.text in ")]}":
            depth -= 1
        if t.kind == "OP" and t.text == "," and depth == 0:
            pieces.append(cur)
            cur = []
        else:
            cur.append(t)
    pieces.append(cur)
    if len(pieces) < 2 or len(pieces) > 64:
        return None
    out = []
    for toks in pieces:
        e = parse_expr(toks, seg)
        n = nb.plain_number(e) if e is not None else None
        if n is None and e is not None and _exact_tree(e) and not nb.has_symbols(e):
            x = face_value(e)
            n = Num.exact_value(x, flat_text(toks), line) if x is not None else None
        if n is None or not math.isfinite(n.value):
            return None
        out.append(n.with_line(line))
    return out


def _prose_decimals(doc: Document, text: str) -> None:
    """"..., which is 0.377540668798 to twelve places": a long decimal in words, a chain of its own."""
    seen: dict[int, set[str]] = {}
    for c in doc.chains:
        for p in c.parts:
            if isinstance(p, ExprPart):
                for n in nb.leaves(p.expr):
                    seen.setdefault(n.line or c.place.line, set()).add(n.text.lstrip("-+"))
    for a in doc.arrays:
        for n in a.numbers:
            seen.setdefault(n.line or a.place.line, set()).add(n.text.lstrip("-+"))
    for k, line in enumerate(text.split("\n")):
        plain = _plain(line)
        for m in NUMBER_RE.finditer(plain):
            t = m.group(0)
            if m.start() and (plain[m.start() - 1].isalnum() or plain[m.start() - 1] in "._^{"):
                continue
            try:
                n = Num.parse(t, k + 1)
            except ValueError:
                continue
            if not is_long(n) or n.text.lstrip("-+") in seen.get(k + 1, set()):
                continue
            words = re.split(r"[})$]", plain[max(0, m.start() - 40):m.start()])[-1].strip(" ,;:")
            doc.chains.append(Chain([LabelPart(words), ExprPart(Lit(n), t)], ["="], Place(k + 1, None, "prose"),
                                    line.strip()[:160]))
