"""From a token stream to typed statements: arrays, arithmetic, shapes and labels.

`read_tokens` splits a segment's tokens into statements at the statement breaks, splits each statement at
its relations (=, ≈, ∈, :) (both in splitting.py), types every part (an array, an arithmetic expression, a shape, or a label; the
arrays and shapes are read by arrays.py, the arithmetic by expr.py) and records what it found.
"""

from __future__ import annotations

import re
from dataclasses import replace

from .. import labels as lb
from .. import numbers as nb
from ..objects import Array, ArrayPart, Context, Document, ExprPart, LabelPart, Part, ShapePart
from .arrays import (BracketParser, _int_list, _integer_dots, _numpy_precision, _shape_part,
                     _shape_product, matrix_rows, nested_to_rows, stacked_matrix_rows)
from .common import Segment
from .remarks import before_remark, before_words
from .sentences import run_in
from .record import QUOTES as _QUOTES, SOFTMAX_INPUT as _SOFTMAX_INPUT, record
from .reprtuple import split_repr_tuple
from .result import as_result
from .expr import parse_expr
from .tuples import math_tuple
from .columns import bare_row, quantity_label
from .sizewords import counted_product, glossed_sizes, named_shape, query_row_name, token_vector_name, with_unit
from .tokens import Tok, flat_text
from .splitting import (elided_tails, split_commas, split_juxtaposed, split_relations, split_statements,
                        without_quoted_remarks)

_OPEN = {"[": "]", "(": ")", "{": "}"}
_TRAILING = {",", ".", ";", ":", "，", "。", "!", "?"}
# "Output: [0.0, 0.5, 0.5] ✓": a tick after a value says the author checked it; it is no part of the value
# (a cross is left alone: the author may be showing a wrong value on purpose)
_TICKS = {"✓", "✔", "✅", "☑", "✔️"}

# ------------------------------------------------------------------ parts

def _strip(toks: list[Tok]) -> list[Tok]:
    i, j = 0, len(toks)
    # (Markdown's bold or italic markers left over at an edge, `**Weight:** 1/4.56 = 0.22`, are no operators)
    while i < j and toks[i].kind in ("SEP",) or (i < j and toks[i].kind == "OP" and toks[i].text in _TRAILING):
        i += 1
    while j > i and (toks[j - 1].kind == "SEP" or (toks[j - 1].kind == "OP" and toks[j - 1].text in _TRAILING) or
                     toks[j - 1].text.strip() in _TICKS):
        j -= 1
    # Markdown's `**` left at the edge of a number (`**w:** `1 / 4.56 = 0.24``) is no operator
    k = i
    while k < j and _star(toks[k]):
        k += 1
    if k > i and k < j and (toks[k].kind == "NUM" or toks[k].text in ("(", "-", "−", "[")):
        i = k
    k = j
    while k > i and _star(toks[k - 1]):
        k -= 1
    if k < j and k > i and (toks[k - 1].kind == "NUM" or toks[k - 1].text in (")", "]")):
        j = k
    # "= [0.41, 0.49] \ (\text{approx})": a closing note in words says how the value was written, not what
    if j - i > 3 and toks[j - 1].kind == "OP" and toks[j - 1].text == ")" and toks[j - 3].kind == "OP" and \
            toks[j - 3].text == "(" and toks[j - 2].kind == "TEXT" and _NOTE.fullmatch(toks[j - 2].text.strip()):
        j -= 3
    elif j - i > 1 and toks[j - 1].kind == "TEXT" and _NOTE.fullmatch(toks[j - 1].text.strip(" ()")):
        j -= 1
    elif j - i > 1 and toks[j - 1].kind == "ID" and _NOTE.fullmatch(toks[j - 1].text) and \
            (toks[j - 2].kind == "NUM" or toks[j - 2].text in (")", "]")):
        j -= 1               # "≈ [0.41, 0.54] approximately" in plain text: the word is a word, not a name
    return toks[i:j]


def _star(t: Tok) -> bool:
    return t.kind == "OP" and t.text == "*"


_NOTE = re.compile(r"(?i)approx\.?|approximately|rounded|roughly|约|近似|约等于")


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
        n_mark = _transpose_mark(t)
        if n_mark:                                  # [2, 4, 6]^\top: the column the row written stands for
            a = self.array_at(t[:-n_mark], style_hint)
            if a is None or not a.rows or any(r is None or None in r for r in a.rows) or \
                    len({len(r) for r in a.rows}) != 1:
                return None
            return Array([list(col) for col in zip(*a.rows)], a.place, style=a.style)
        # \left[ MATRIX \right] and MATRIX alone
        core = t
        if len(core) == 3 and core[1].kind == "MATRIX" and core[0].kind == "OP" and core[2].kind == "OP":
            core = [core[1]]
        if len(core) == 1 and core[0].kind == "MATRIX":
            core = [self._annotated(core[0])]
        if len(core) == 1 and core[0].kind == "MATRIX":
            stacked = stacked_matrix_rows(core[0], self.seg)
            if stacked is not None:              # a batch of matrices, one per row of the outer one
                return Array(stacked[0], self.seg.place(core[0].pos), lead=stacked[1], style="tex")
            rows = matrix_rows(core[0], self.seg)
            if rows is None:
                return None
            return Array(rows, self.seg.place(core[0].pos), style="tex")
        # array([...], dtype=...) / tensor([...], grad_fn=...) / np.array([...])
        style = style_hint or "list"
        names = [x.text for x in core if x.kind == "ID"]
        if core[0].kind == "ID" and core[0].text in ("array", "tensor", "np", "torch", "numpy", "Tensor", "tf",
                                                    "Parameter", "matrix"):
            k = next((i for i, x in enumerate(core) if x.kind == "OP" and x.text == "["), None)
            if k is None or core[-1].text not in (")", "]"):
                return None
            style = "torch" if "tensor" in names or "torch" in names or "Parameter" in names else "numpy"
            bp = BracketParser(core, self.seg)
            got = bp.parse(k)
            if got is None or (core[-1].text == "]" and got[1] != len(core)):
                return None          # (`tensor([0.05, 0.21]` quoted without its ")": the list is whole)
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
        _integer_dots(rows)
        return Array(rows, self.seg.place(pos), lead=lead, style=style)

    def _annotated(self, tok: Tok) -> Tok:
        """\\begin{array}{cc} MATRIX & \\begin{matrix} \\leftarrow \\text{for "I"} ... \\end{matrix} \\end{array}:
        a matrix set beside its row annotations in a one-row array; the only one of its cells with numbers."""
        cells = tok.args[0] if len(tok.args) == 1 else []
        inner = [c[0] for c in cells if len(c) == 1 and c[0].kind == "MATRIX"]
        if len(cells) < 2 or len(inner) != len(cells):
            return tok
        numeric = [m for m in inner if any(r for r in (matrix_rows(m, self.seg) or []))]
        return numeric[0] if len(numeric) == 1 else tok

    def _written_product(self, toks: list[Tok]) -> tuple[Array, Array] | None:
        """[..] × [..] (a LaTeX \\times or \\cdot, a drawn x): both factors of a product, printed."""
        t = [x for x in toks if x.kind != "SEP"]
        if len(t) == 2 and t[0].kind == t[1].kind == "MATRIX" and self.seg.where == "math":
            t = [t[0], Tok("OP", "*", t[1].pos), t[1]]      # x W written side by side: a product in math
        if len(t) != 3 or t[0].kind != "MATRIX" or t[2].kind != "MATRIX" or t[1].kind != "OP" or t[1].text != "*":
            return None
        left, right = self.array_at([t[0]]), self.array_at([t[2]])
        return (left, right) if left is not None and right is not None else None

    def _softmax_argument(self, toks: list[Tok]) -> Array | None:
        """softmax([0.3, 2.0, -∞]) written out: the vector it is applied to, as the scores that go into the softmax
        (what the statement equals is their softmax; `record` ties the two)."""
        head = toks[0].args[0] if toks and toks[0].kind == "GROUP" and toks[0].args and len(toks[0].args[0]) == 1 \
            else toks[:1]                     # \operatorname{softmax}(...), \mathrm{softmax}(...)
        if len(toks) >= 4 and head and head[0].kind in ("ID", "TEXT") and head[0].text.lower() == "softmax" and \
                toks[1].text.lower() == "of" and toks[2].text == "[" and toks[-1].text == "]":
            inner = toks[2:]                  # said in words: "Softmax of [2.83, 2.12, 1.41] ≈ [...]"
        elif len(toks) < 5 or not head or head[0].kind not in ("ID", "TEXT") or head[0].text.lower() != "softmax" \
                or toks[1].text != "(" or toks[-1].text != ")":
            return None
        else:
            inner = toks[2:-1]
        if inner and inner[0].text != "[" and all(t.kind == "NUM" or t.text in (",", "-") for t in inner):
            inner = [Tok("OP", "[", inner[0].pos)] + inner + [Tok("OP", "]", inner[-1].pos)]   # softmax(0.7, 1.4, 0)
        arg = self.array_at(inner)
        if arg is None or not arg.is_vector or arg.n_cols < 2:
            return None
        arg.label = _SOFTMAX_INPUT
        return arg

    # ---------------------------------------------------------- one part
    def part(self, toks: list[Tok], after_label: bool = False, of_token: bool = False) -> list[Part]:
        """The typed pieces of one part of a statement; after_label: it follows "label:" naming a quantity, so
        bare numbers side by side are that quantity's row (columns.bare_row); of_token: it follows a token's
        vector name (`v2 = (1, 1)` beside `v0 = (5, -2)`), so a pair of whole numbers is its entries, no shape."""
        toks = run_in(_strip(toks))
        if not toks:
            return []
        a = self.array_at(toks)
        if a is not None:
            return [ArrayPart(a)]
        core = [t for t in toks if t.kind != "SEP"]
        if len(core) == 2 and core[0].kind == core[1].kind == "MATRIX" and not _has_numbers(core[1]):
            a = self.array_at(core[:1])   # [..] \begin{matrix} \text{(Token 1)} \\ .. \end{matrix}: rows captioned
            if a is not None:
                return [ArrayPart(a)]
        sized = with_unit(toks)
        if sized is not None:            # `= 19.2 \text{ GB}`: the number, judged in its unit (claims/setequal.py)
            sized = replace(sized, line=sized.line or self.seg.line_of(toks[0].pos))
            return [ExprPart(nb.Lit(sized), flat_text(toks))]
        row = bare_row(toks) if after_label else None
        if row is not None and self.seg.where in ("code", "output", "prose"):
            return [ArrayPart(Array([row], self.seg.place(toks[0].pos), style="numpy"))]
        factors = self._written_product(toks)
        if factors is not None:
            return [LabelPart(flat_text(toks), operands=factors)]
        # "[0.88, 0.12, 0.01]   ← useful!": a remark after an arrow annotates the value, it is not part of it
        arrow = next((k for k, t in enumerate(toks) if t.kind == "OP" and t.text in ("←", "⟵", "⇐")), None)
        if arrow:
            a = self.array_at(_strip(toks[:arrow]))
            if a is not None:
                return [ArrayPart(a)]
        if glossed_sizes(toks):
            return [LabelPart(flat_text(toks))]   # "Q: [4, 16, 128] (batch, tokens, d_k)": sizes, not entries
        stripped = lambda t: self.array_at(_strip(t))      # noqa: E731
        a = before_remark(stripped, toks) or before_words(stripped, toks, self.seg.where)
        if a is not None:
            return [ArrayPart(a)]
        arg = self._softmax_argument(toks)
        if arg is not None:
            return [LabelPart(flat_text(toks)), ArrayPart(arg)]
        sp = _shape_part(toks)
        if sp is not None:
            sp.line = self.seg.line_of(toks[0].pos)
            return [sp]
        prod = _shape_product(toks)
        if prod is not None:
            return [prod]
        # (2, 3, 4) in a comment or an output, torch.Size([2, 3, 4]): a shape
        if self.seg.where in ("comment", "output") and not of_token or \
                any(t.kind == "ID" and t.text == "Size" for t in toks):
            dims = _int_list(toks)
            if dims and len(dims) >= 2 and (toks[0].text == "(" or any(t.text == "Size" for t in toks)):
                return [ShapePart(dims, flat_text(toks))]
        tup = math_tuple(toks, self.seg)
        if tup is not None:
            return [ArrayPart(tup)]
        counted = counted_product(toks)      # "2 (K,V) × 128 heads × 2 bytes": the product of the numbers
        e = parse_expr(counted, self.seg) if counted is not None else None
        if e is not None and nb.leaves(e):
            return [ExprPart(e, flat_text(toks))]
        # "label: [3,3] × [3,2]" (the terminal writes the shape product after a colon)
        e = parse_expr(toks, self.seg)
        if e is not None and nb.leaves(e):
            return [ExprPart(e, flat_text(toks))]
        got = self._label_then_array(toks)
        if got is not None:
            return got
        if self.seg.where == "prose":
            # "the weights are [0.28, 0.14, 0.58], so the third counts most": words, a value, and the sentence on
            k = next((k for k in range(1, len(toks)) if toks[k].kind == "OP" and toks[k].text == "[" and
                      toks[k].space and toks[k - 1].kind == "ID"), None)
            arr = before_words(stripped, toks[k:], "prose") if k else None
            if arr is not None and not named_shape(flat_text(toks[:k]), arr) and \
                    lb.parse_label(flat_text(toks[:k])) is not None:
                return [LabelPart(flat_text(toks[:k])), ArrayPart(arr)]
        if toks and toks[0].kind == "ID" and toks[0].text in ("array", "tensor"):
            return []
        got = self._words_then_expr(toks)
        if got is not None:
            return got
        return [LabelPart(flat_text(toks))]


    def _label_then_array(self, toks: list[Tok]) -> list[Part] | None:
        """A label followed directly by an array (print("scores", s) → "scores [[...]]", "A ≈ MATRIX"): its
        parts, or None when the tokens do not end with one."""
        for k in range(len(toks) - 1, 0, -1):
            if toks[k].kind == "MATRIX" or (toks[k].kind == "OP" and toks[k].text == "[" and
                                            (k == 0 or not toks[k - 1].kind == "ID" or toks[k].space)):
                arr = self.array_at(toks[k:])
                if arr is not None and toks[k - 1].kind != "OP" and named_shape(flat_text(toks[:k]), arr):
                    return [LabelPart(flat_text(toks))]       # "an output of shape [4, 4]": sizes, not entries
                if arr is not None and toks[k - 1].kind == "NUM" and \
                        any(t.kind == "MATRIX" for t in toks[:k - 1]) and any(t.text == "+" for t in toks[:k]):
                    return [LabelPart(flat_text(toks))]   # 0.4 [2 1] + 0.6 [1 0]: the last term's vector, not a value
                if arr is not None and (toks[k - 1].kind != "OP" or _closing_quote(toks[:k])):
                    return [LabelPart(flat_text(toks[:k]), scalar=_coefficient(toks[:k], self.seg)), ArrayPart(arr)]
                if arr is not None:
                    break
        return None

    def _words_then_expr(self, toks: list[Tok]) -> list[Part] | None:
        """Words, then an expression ("除以 sqrt(2)", "divide by √3"): a label and the expression, or None."""
        for k in range(1, len(toks)):
            # (or a word in quotes: `"serin" 2.7183 / 17.6191`, a token's weight worked out after its name)
            quoted = toks[k - 1].kind == "OP" and toks[k - 1].text in _CLOSE_QUOTES and k >= 2 and \
                toks[k - 2].kind == "ID"
            if quoted or toks[k - 1].kind == "ID" and len(toks[k - 1].text) > 1 and \
                    not re.fullmatch(r"[A-Za-z]_?\d*", toks[k - 1].text):
                if toks[k].kind == "OP" and toks[k].text == "(" and not toks[k].space and \
                        not _CALL_WORDS.fullmatch(toks[k - 1].text):
                    continue         # "sigmoid(0.2 + 0.3)", "relu(x)": a function applied to it, not its value
                if toks[k].kind == "OP" and toks[k].text in ("+", "*", "/", "^", "×", "·"):
                    continue         # "exp(m_old - m_new) × l_old + exp(1 - 3)": the name is an operand of the sum
                e = parse_expr(toks[k:], self.seg)
                if e is not None and nb.leaves(e) and not nb.has_symbols(e) and (
                        any(t.kind in ("SQRT", "FRAC") or t.text in ("sqrt", "exp", "√", "^", "/", "*") for t in toks[k:])
                        or _decimal_sum(toks[k:], e)):
                    prod = _shape_product(toks[k:])      # "X W_Q is (3 × 4)(4 × 2)": shapes, not arithmetic
                    return [LabelPart(flat_text(toks[:k])), prod if prod is not None else ExprPart(e, flat_text(toks[k:]))]
                if e is not None and toks[k - 1].text.lower() in _COPULAS and _weighted_symbols(e):
                    # "The output is 0.731·v1 + 0.269·v2 = [...]": a weighted sum of named vectors after "is"
                    return [LabelPart(flat_text(toks[:k])), ExprPart(e, flat_text(toks[k:]))]
        return None


_CLOSE_QUOTES = ('"', "”", "»", "'", "’", "」", "』")


# words written against a parenthesis that still introduce a value: "divide by(√2)" is rare, "sqrt(2)" is parsed
# as a function by expr.py; any other name right before "(" is a function the arithmetic does not know
_CALL_WORDS = re.compile(r"by|of|is|are|was|gives?|equals?|at|to|除以|乘以|等于|为", re.I)


def _decimal_sum(toks: list[Tok], e) -> bool:
    """Words, then a sum of printed decimals: "The sum is 2.718 + 2.460 + 2.226", "KV budget 22.08 − 8.40 − 1.60":
    the terms of a total worked out in a sentence (whole numbers added in words are counts, sizes or indices, not
    arithmetic of the example)."""
    return any(t.kind == "OP" and t.text in ("+", "-", "−") for t in toks) and \
        sum(1 for n in nb.leaves(e) if getattr(n, "decimals", None)) >= 2


def _has_numbers(tok: Tok) -> bool:
    """Does a MATRIX token hold any number (not only the words that caption another matrix's rows)?"""
    return any(t.kind == "NUM" or (t.kind == "MATRIX" and _has_numbers(t))
               for row in tok.args for cell in row for t in cell)


def _is_multi(items: list) -> bool:
    return any(isinstance(x, list) for x in items)


# ------------------------------------------------------------------ statements

def _operand_before(raw_parts: list[list[Tok]], text: str) -> bool:
    """Does the statement open with a multiplication sign (`×12 = …`), its left operand outside it?"""
    lead = next((t for t in (raw_parts[0] if raw_parts else []) if not (t.kind == "OP" and t.text == ".")), None)
    return lead is not None and lead.kind == "OP" and lead.text == "*" and 0 <= lead.pos < len(text) and \
        text[lead.pos] in "×·⋅∙"


def read_tokens(toks: list[Tok], seg: Segment, doc: Document, ctx: Context, text_mode: bool,
                on_statement=None, ctx_at=None) -> None:
    """Type every statement of a token stream and record its arrays and chains.

    ctx_at: the context as it stood after each prose line (by line number), so that "row 1: …" and
    "row 2: …" in one paragraph each keep their own row; otherwise the context after the segment."""
    reader = PartReader(seg, doc, ctx)
    pending_label: str | None = None
    toks = without_quoted_remarks(toks) if text_mode else toks
    for stmt in (one for whole in split_statements(toks, text_mode) for sub in split_juxtaposed(whole, seg.text)
                 for one in split_repr_tuple(sub)):
        for piece in split_commas(stmt):
            raw_parts, rels = split_relations(piece)
            raw_parts, rels = elided_tails(raw_parts, rels)
            if _operand_before(raw_parts, seg.text):
                continue            # "… = 7,077,888. ×12 = 84,934,656": its left operand is the sentence before
            parts: list[Part] = []
            part_rels: list[str] = []
            for k, p in enumerate(raw_parts):
                typed = reader.part(p, after_label=k == 1 and rels == [":"] and quantity_label(raw_parts[0]),
                                    of_token=k == 1 and token_vector_name(_strip(raw_parts[0])))
                if k:               # "√128 ≈ 11.3 keeps values", "= **7.1**", "= 67%": the number is the result
                    typed = as_result(typed, parts, rels[k - 1], _strip(p), seg.line_of)
                for j, tp in enumerate(typed):
                    parts.append(tp)
                    part_rels.append(rels[k - 1] if (k > 0 and j == 0) else ("=" if j else ""))
            if not parts:
                continue
            place = seg.place(piece[0].pos)
            text = flat_text(piece)
            # a lone array right after "Attention weights:" takes that line as its label
            if len(parts) == 1 and isinstance(parts[0], ArrayPart) and pending_label:
                parts.insert(0, LabelPart(pending_label))
                part_rels = ["", ":"]
            elif len(parts) == 2 and isinstance(parts[0], LabelPart) and isinstance(parts[1], ArrayPart) and \
                    part_rels[1] in (":", "：", "→") and pending_label and len(parts[1].array.rows) > 1 and \
                    lb.parse_label(parts[0].text) is None and lb.parse_label(pending_label) is not None:
                # "Q矩阵（每个词的查询向量）：" over "猫: [...]", "坐: [...]": rows named by their tokens, under a
                # caption that names the matrix; the first token's name is no name of it (and "please → [1, 0]",
                # the token pointing at its row, under "Query vectors:")
                parts[0] = LabelPart(pending_label)
                part_rels[1] = ":"
            if len(parts) == 2 and isinstance(parts[0], LabelPart) and isinstance(parts[1], ArrayPart) and \
                    part_rels[1] in (":", "：") and pending_label and len(parts[1].array.rows) == 1 and \
                    (row := query_row_name(parts[0].text, pending_label)) is not None:
                # "attention weights:" over "q0:  1.0000  0.0000", "q1:  0.2261  0.7739": each row named by its
                # query, a row of the captioned matrix (not the query's own vector)
                parts[0] = LabelPart(f"{pending_label} row {row}")
                parts[1].array.label, parts[1].array.labels = parts[0].text, [parts[0].text]
                record(parts, part_rels[1:], seg.place(piece[0].pos), flat_text(piece), doc, ctx, _shown(piece))
                continue
            caption, pending_label = pending_label, None
            if len(parts) >= 1 and isinstance(parts[-1], LabelPart) and text_mode and \
                    piece[-1].kind == "OP" and piece[-1].text in (":", "："):
                pending_label = parts[-1].text
            if text_mode and len(raw_parts) == 2 and rels == [":"] and not raw_parts[1]:
                pending_label = flat_text(raw_parts[0])
            if pending_label and caption and len(parts) == 1 and lb.parse_label(pending_label) is None and \
                    lb.parse_label(caption) is not None:
                pending_label = caption     # "猫:" splits from its row: the caption above still names the matrix
            if text_mode and len(parts) == 2 and isinstance(parts[0], LabelPart) and \
                    isinstance(parts[1], ShapePart) and re.search(r"(?i)shape$", parts[0].text):
                # "Q (Queries) shape: (3, 2)" over rows named by tokens: the printout's caption names them
                pending_label = re.sub(r"(?i)\s*(?:\(.*?\))?\s*shape$", "", parts[0].text) or None
            here = (ctx_at(place.line) if ctx_at is not None else None) or ctx
            if here is not ctx:
                here = _with_row(here, ctx)
            record(parts, part_rels[1:] if len(part_rels) > 1 else [], place, text, doc, here, _shown(piece))
            if on_statement is not None:
                on_statement(parts, place)


def _transpose_mark(t: list[Tok]) -> int:
    """How many tokens at the end say "transposed" after a closing bracket: ^T, ^{T}, ^\\top, ^{\\top}."""
    texts = [x.text for x in t[-5:]]
    for mark in (["^", "T"], ["^", "{", "T", "}"], ["^", "\\", "top"], ["^", "{", "\\", "top", "}"]):
        if len(t) > len(mark) and texts[-len(mark):] == mark and t[-len(mark) - 1].text == "]":
            return len(mark)
    return 0


def _coefficient(toks: list[Tok], seg: Segment) -> bool:
    """Is this a number written before an array it multiplies (\\frac{1}{2}, 0.5 \\cdot, 1/√2 ×)?"""
    while toks and toks[-1].kind == "OP" and toks[-1].text in ("*", "×", "·", "\\cdot", "\\times"):
        toks = toks[:-1]
    if not toks:
        return False
    e = parse_expr(toks, seg)
    return e is not None and bool(nb.leaves(e)) and not nb.has_symbols(e)


def _with_row(line_ctx: Context, seg_ctx: Context) -> Context:
    """The segment's context with the row and head that stood at the statement's own line."""
    c = Context(**{**seg_ctx.__dict__})
    c.row = line_ctx.row
    c.head = line_ctx.head
    return c


_COPULAS = ("is", "are", "equals", "gives", "becomes", "为", "是", "等于")


def _weighted_symbols(e) -> bool:
    """0.731·v1 + 0.269·v2: two or more terms, each one printed number times one name."""
    terms = nb.terms_of(e)
    if len(terms) < 2:
        return False
    for t in terms:
        fs = nb.factors_of(t)
        if len(fs) != 2 or sum(nb.plain_number(f) is not None for f in fs) != 1 or \
                sum(isinstance(f, nb.Sym) for f in fs) != 1:
            return False
    return True


def _closing_quote(toks: list[Tok]) -> bool:
    """`Row "please" [1, 0, 1]`: the name before the array ends with a quoted word (the quote closes one opened)."""
    quotes = [t for t in toks if t.kind == "OP" and len(t.text) == 1 and t.text in _QUOTES]
    return bool(quotes) and toks[-1] is quotes[-1] and len(quotes) % 2 == 0 and len(toks) >= 3


def _shown(toks: list[Tok]) -> str:
    """A statement as a finding quotes it: flat_text's spelling of each token, with the spaces the writer put
    between them (`4 × 536MB = 2144MB`, not `4*536MB=2144MB`)."""
    out: list[str] = []
    for t in toks:
        if t.space and out:
            out.append(" ")
        out.append(flat_text([t]))
    text = "".join(out).strip()
    # a spaced product or relation keeps its spaces on both sides (`2 \times 32` reads as `2* 32`); no space
    # before a closing mark
    # (not Markdown's `**` of bold words, nor a compound operator, `current_y -= 0.04`)
    text = re.sub(r"(?<=[\w)\]}])(?: \*\s*|\* )(?=[\w(\[{\\.-])", " × ", text)
    text = re.sub(r"(?<=[^\s\-+*/<>!=:])(?: (=|≈)\s*|(=|≈) )(?=\S)", lambda m: f" {m.group(1) or m.group(2)} ",
                  text)
    return re.sub(r"\s+(?=[.,;:)\]。，])", "", text)
