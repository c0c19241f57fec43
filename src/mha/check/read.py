"""One reader per format, each on a maintained parser, all feeding one `Builder`.

    Markdown   markdown-it-py (+ mdit-py-plugins: $ and $$ math, tables)
    LaTeX      pylatexenc's node tree (math, sections, tabular, verbatim)
    notebook   nbformat: markdown cells, code cells (Python's ast), text outputs
    HTML       html.parser: text, tables, <pre>, MathJax / KaTeX TeX source, MathML
    text       TeX delimiters, tab and pipe tables, the terminal's bracket matrices

A reader only cuts the document into `Segment`s (math, prose, code, output, table, heading) that
know their file lines; the `Builder` reads each segment and keeps the reader's context
(the heading, the head and row named in the prose, declared approximations).
"""

from __future__ import annotations

import functools
import re

from . import labels as lb
from .numbers import Num
from .objects import Array, Context, Document, Hint, Place, Reading, ShapePart, ShapeProduct
from .statements import Segment, read_tokens
from .tokens import Tok, lex_text, walk_latex

# ------------------------------------------------------------------ the builder


class Builder:
    """Reads segments in document order, keeping what a reader keeps in mind."""

    def __init__(self, fmt: str):
        self.doc = Document(format=fmt)
        self.ctx = Context()
        self.levels: list[tuple[int, int | None, str | None]] = []    # (heading level, head, step)
        self.pending_output_labels: list[str] = []
        self.last_expr: str | None = None

    # ---------------------------------------------------------- context
    def heading(self, text: str, level: int, place: Place) -> None:
        while self.levels and self.levels[-1][0] >= level:
            self.levels.pop()
        head = lb.head_in(text)
        step = lb.step_in(text)
        self.levels.append((level, head, step))
        self.ctx.heading = text.strip()
        self.ctx.head = next((h for _, h, _ in reversed(self.levels) if h is not None), None)
        self.ctx.step = next((s for _, _, s in reversed(self.levels) if s is not None), None)
        self.ctx.row = None
        self.ctx.approx = bool(lb.APPROX_WORDS.search(text))
        self.ctx.batch = _batch_in(text)
        self.ctx.partial = bool(_PARTIAL.search(text))
        self.hints(text, place)

    def prose_context(self, text: str, place: Place) -> None:
        h = lb.head_in(text)
        if h is not None and not _READING.search(text):
            self.ctx.head = h
        r = lb.row_in(text)
        if r is not None:
            self.ctx.row = r
        if lb.APPROX_WORDS.search(text):
            self.ctx.approx = True
        b = _batch_in(text)
        if b is not None:
            self.ctx.batch = b
        self.ctx.before = text.strip()[-120:]
        self.hints(text, place)

    def hints(self, text: str, place: Place) -> None:
        for kind, rx in _HINTS:
            m = rx.search(text)
            if m:
                value = next((g for g in m.groups() if g), True) if m.groups() else True
                self.doc.hints.append(Hint(kind, value, place, text.strip()[:160]))
        if _IDENTITY.search(text):
            names = re.findall(r"W_?\{?\^?\{?([QKVOqkvo])\}?|\bW([qkvo])\b|\b([qkvo])_?proj", text)
            for g in names:
                which = next(x for x in g if x).upper()
                self.doc.hints.append(Hint("identity", "W_" + which, place, text.strip()[:160]))
            if not names and re.search(r"all (the )?weights|所有权重|权重矩阵都", text, re.I):
                for w in "QKV":
                    self.doc.hints.append(Hint("identity", "W_" + w, place, text.strip()[:160]))

    # ---------------------------------------------------------- segments
    def segment(self, seg: Segment) -> None:
        if not seg.text.strip():
            return
        match seg.where:
            case "math":
                toks = walk_latex(seg.text)
                read_tokens(toks, seg, self.doc, self.ctx, text_mode=False)
            case "heading":
                self.heading(_strip_heading(seg.text), _heading_level(seg.text), seg.place(0))
                self.text(seg, prose=False)
            case "code":
                self.code(seg)
            case "output":
                self.output(seg)
            case _:
                self.text(seg, prose=True)

    def text(self, seg: Segment, prose: bool = True) -> None:
        """Prose, comments, output: lines of plain text, with bracket matrices and readings."""
        at: dict[int, Context] = {}
        if prose:
            for k, line in enumerate(seg.text.split("\n")):
                if line.strip():
                    place = Place(seg.line_of(_offset(seg.text, k)), seg.cell, seg.where)
                    self.line(line, place)
                    at[place.line] = Context(**{**self.ctx.__dict__})
        toks = text_tokens(seg.text)
        read_tokens(toks, seg, self.doc, self.ctx, text_mode=True, ctx_at=at.get if at else None)

    def line(self, line: str, place: Place) -> None:
        """One line of prose: a reading of one entry, or context for what follows."""
        if not self.reading(line, place):
            self.prose_context(line, place)
        else:
            self.hints(line, place)

    def prose_numbers(self, line: str, place: Place) -> None:
        """Shapes and single numbers stated in prose: "a 3×4 matrix", "`W_v` is 4×2", "sum $\\approx 22.03$"."""
        if not re.search(r"\d", line):
            return
        spans = [(m.start(), m.end(), m.group(1) or m.group(2) or m.group(3))
                 for m in _INLINE_MATH.finditer(line)]
        masked = _mask(line, spans)
        found: list[tuple[int, int, list[int] | None, str | None]] = []    # (start, end, dims, number)
        for a, z, body in spans:
            m = _DIMS_ONLY.match(body)
            if m:
                found.append((a, z, [int(x) for x in re.findall(r"\d+", body)], None))
                continue
            m = _NUMBER_ONLY.match(body)
            if m:
                found.append((a, z, None, m.group(1)))
        for m in re.finditer(r"(?<![\w.\[,])(-?\d+\.\d{2,})(?![\w\]])(?!\.\d)", masked):
            before, after = masked[:m.start()].rstrip(), masked[m.end():].lstrip()
            clause = re.split(r"[,;，；。:：]", before)[-1]
            if re.search(r"exact|would|could|rounds? to|精确|会得到|舍入|四舍五入", clause, re.I):
                continue            # a remark about rounding, not a value of the example
            if before[-1:] in set("=≈^/*×·+-−[,，") or after[:1] in set("=≈^/*×·+-−]") or \
                    re.search(r"[=≈]\s*$|[/×*]\s*$", before):
                continue            # part of arithmetic: the statement reader has it
            found.append((m.start(), m.end(), None, m.group(1)))
        for m in _DIMS_TEXT.finditer(masked):
            if re.match(r"\s*[=＝]", masked[m.end():]) or re.search(r"[=＝]\s*$", masked[:m.start()]):
                continue           # arithmetic, not a shape
            found.append((m.start(), m.end(), [int(x) for x in re.findall(r"\d+", m.group(0))], None))
        masked = self._tuples(line, masked, place)
        for m in re.finditer(r"[(（]\s*(-?\d+\.\d+(?:\s*[,，]\s*-?\d+\.\d+){2,})\s*[)）]|"
                             r"(?<![\d.])(-?\d+\.\d+(?:\s*/\s*-?\d+\.\d+){2,})(?![\d.])", masked):
            body = m.group(1) or m.group(2)
            nums = []
            for t in re.finditer(r"-?\d+\.\d+", body):
                nums.append(Num.parse(t.group(0), place.line))
            label = _nearest_label(line[:m.start()], spans) or ""
            self.doc.add_array(Array([nums], place, label=label, labels=[label] if label else [], style="prose",
                                     context=_copy(self.ctx)))
            masked = masked[:m.start()] + " " * (m.end() - m.start()) + masked[m.end():]
            found = [f for f in found if not (m.start() <= f[0] < m.end())]
        for a, z, dims, number in sorted(found):
            label = None
            after = re.match(r"\s*的\s*(\$[^$]+\$|`[^`]+`|[\w\u4e00-\u9fff]+)", line[z:])
            if dims is not None and after and lb.parse_label(after.group(1).strip("$`")) is not None:
                label = after.group(1).strip("$`")
            if dims is not None and label is None:
                # "a 3×4 input", "three 4×3 weight matrices": English puts the noun after the size
                noun = re.match(r"\s*([A-Za-z]+(?:\s+[A-Za-z]+)?)", line[z:])
                if noun:
                    words = noun.group(1)
                    if re.match(r"(?:weights?|projection)\b", words, re.I):
                        continue        # "4×3 weight matrices": the projections, said of several
                    r = lb.parse_label(words) or lb.parse_label(words.split()[0])
                    if r is not None and not re.match(r"(?:by|and|or|times|to|of|is|are)\b", words, re.I):
                        label = words if lb.parse_label(words) else words.split()[0]
            if label is None:
                label = _nearest_label(line[:a], spans)
            if label is None:
                continue
            from .objects import Chain, ExprPart, LabelPart
            from .numbers import Lit
            if dims is not None:
                if len(dims) < 2 or any(d == 0 or d > 4096 for d in dims):
                    continue
                if re.fullmatch(r"(?:the\s+)?weights?|权重|注意力|attention", label.strip(), re.I):
                    continue             # "the weights are 4×3": the projection weights, not A
                for piece in _split_names(label):
                    self.doc.chains.append(Chain([LabelPart(piece), ShapePart(dims, line[a:z])], ["∈"], place,
                                                 line.strip()[:120], _copy(self.ctx)))
            else:
                try:
                    num = Num.parse(number, place.line)
                except ValueError:
                    continue
                c = _copy(self.ctx)
                self.doc.chains.append(Chain([LabelPart(label), ExprPart(Lit(num), number)], ["="], place,
                                             line.strip()[:120], c))

    def _tuples(self, line: str, masked: str, place: Place) -> str:
        """Vectors written as tuples after a name: "x_1 = (1, 0, 2)^T" (a column: row 1 of X in the row
        convention), "alpha_1 = softmax(e_1) = (0.2, 0.5, 0.3)", and "    = (1.89, 0.66)^T" continuing the
        "z_1 = ..." a line above.  Only a tuple right after "=" that ends its chain, named by a label: a tuple in
        arithmetic, in words, or called a shape is none of these."""
        head = re.match(r"\s*([A-Za-z\u03b1-\u03c9][\w^{}']*)\s*=(?!=)", masked)
        cont = re.match(r"\s*[=≈]", masked)
        if head and lb.parse_label(head.group(1)) is not None:
            self._chain = head.group(1)
        elif not cont:
            self._chain = None
        prev = 0
        for m in _TUPLE.finditer(masked):
            before, after = masked[prev:m.start()], masked[m.end():]
            prev = m.end()
            if not re.search(r"(?<![=<>!])[=≈]\s*$", before) or re.match(r"\s*[-+*/·×^(\d.]", after):
                continue
            flat = before
            for _ in range(3):                 # commas inside parentheses do not end the clause
                flat = re.sub(r"\([^()]*\)", lambda p: "(" + "#" * (len(p.group(0)) - 2) + ")", flat)
            cut = max([0] + [x.end() for x in re.finditer(r"[;,，；:：]\s|\.\s|\s{3,}", flat)])
            clause = before[cut:]              # "so q = k, and Q.shape = (3, 2)": the clause of the tuple
            first = re.split(r"(?<![=<>!])[=≈](?!=)", clause)[0]
            if re.search(r"shape|size|dim|∈|\bin\b|R\^|形状|维", first, re.I):
                continue             # "Qh.shape = (2, 3, 2)", "in R^(2, 3)": a shape
            names = re.findall(r"[A-Za-z\u03b1-\u03c9][\w^{}']*", first)
            label = names[-1] if names else (getattr(self, "_chain", None) if not first.strip() and cont else None)
            if not label or lb.parse_label(label) is None:
                continue
            nums = [Num.parse(t.group(0), place.line) for t in re.finditer(r"-?\d+(?:\.\d+)?", m.group(1))]
            # "name = (…)" names its vector as firmly as a matrix is named: not the weak "prose" style
            self.doc.add_array(Array([nums], place, label=label, labels=[label], style="tuple",
                                     context=_copy(self.ctx)))
            masked = masked[:m.start()] + " " * (m.end() - m.start()) + masked[m.end():]
        return masked

    def reading(self, line: str, place: Place) -> bool:
        m = _READING.search(line)
        if not m:
            return False
        g = m.groupdict()
        i, j, v = (g["i"], g["j"], g["v"]) if g.get("v") else (g.get("i2"), g.get("j2"), g.get("v2"))
        if v is None or j is None:
            return False
        row = int(i) if i else self.ctx.row
        try:
            value = Num.parse(v, place.line)
        except ValueError:
            return False
        words = g.get("w") or ""
        self.doc.readings.append(Reading(value, row, int(j), words, place, line.strip(), _copy(self.ctx)))
        return True

    def code(self, seg: Segment) -> None:
        from .pycode import read_python
        facts = read_python(seg.text)
        if not facts.parsed:
            # a REPL transcript: ">>> Qh.shape" and then "(2, 3, 2)" on the next line state that shape
            lines = seg.text.split("\n")
            for k in range(len(lines) - 1):
                m = re.match(r"\s*>>>\s*([A-Za-z_][\w.]*\.shape)\s*$", lines[k])
                if m and re.fullmatch(r"\s*\((?:\d+,\s*)+\d*\)\s*", lines[k + 1]):
                    lines[k + 1] = f"{m.group(1)} = {lines[k + 1].strip()}"
            self.text(Segment("\n".join(lines), seg.line, "output", seg.cell, seg.line_map), prose=False)
            return
        for lit in facts.literals:
            rows = [[c.with_line(seg.line_of(_offset(seg.text, c.line - 1))) if c is not None else None
                     for c in r] if r is not None else None for r in lit.rows]
            place = Place(seg.line_of(_offset(seg.text, lit.line - 1)), seg.cell, "code")
            names = [x.strip() for x in lit.name.split(" = ")]
            a = Array(rows, place, label=names[-1], labels=names, lead=lit.lead, style="code", context=_copy(self.ctx))
            self.doc.add_array(a)
        for name, line in facts.identity:
            place = Place(seg.line_of(_offset(seg.text, line - 1)), seg.cell, "code")
            self.doc.hints.append(Hint("identity_name", name, place, name))
        for name, num in facts.scalars:
            place = Place(seg.line_of(_offset(seg.text, num.line - 1)), seg.cell, "code")
            self.doc.hints.append(Hint("assign", (name, num), place, name))
        # comments: consecutive comment lines form one text block
        block: list[tuple[int, str, str]] = []
        for item in facts.comments + [(10 ** 9, "", "")]:
            if block and item[0] != block[-1][0] + 1:
                self.comment_block(block, seg)
                block = []
            if item[0] < 10 ** 9:
                block.append(item)
        self.pending_output_labels = list(facts.prints)
        self.last_expr = facts.last_expr

    def comment_block(self, block: list[tuple[int, str, str]], seg: Segment) -> None:
        text = "\n".join(re.sub(r"^#+\s?", "", c) for _, c, _ in block)
        line_map = [seg.line_of(_offset(seg.text, ln - 1)) for ln, _, _ in block]
        sub = Segment(text, line_map[0], "comment", seg.cell, line_map)
        n_before = len(self.doc.arrays)
        n_chains = len(self.doc.chains)
        for k, line in enumerate(text.split("\n")):
            self.prose_context(line, Place(line_map[k], seg.cell, "comment"))
        toks = text_tokens(text)
        read_tokens(toks, sub, self.doc, self.ctx, text_mode=True)
        by_line = {line_map[k]: lab for k, (_, _, lab) in enumerate(block) if lab}
        if block[0][2] and not any(lab for _, _, lab in block[1:]):
            by_line = {ln: block[0][2] for ln in line_map}       # the output of the print above, over several lines
        from .objects import LabelPart as _LP
        for ch in self.doc.chains[n_chains:]:
            lab = by_line.get(ch.place.line)
            if lab and not any(isinstance(p, _LP) for p in ch.parts):
                names = [x.strip() for x in lab.split(" = ") if x.strip()]
                best = next((x for x in reversed(names) if lb.parse_label(x) is not None), names[0])
                ch.parts.insert(0, _LP(best))
                ch.rels.insert(0, "=")
        for a in self.doc.arrays[n_before:]:
            code_label = by_line.get(a.place.line)
            if not a.label and code_label:
                names = [x.strip() for x in code_label.split(" = ") if x.strip()]
                a.label = names[0]
                a.labels = names

    def output(self, seg: Segment) -> None:
        if "Size([" in seg.text:
            seg = self._sizes(seg)
        n_before = len(self.doc.arrays)
        for k, line in enumerate(seg.text.split("\n")):
            if re.search(r"[A-Za-z\u4e00-\u9fff]", line) and "[" not in line and "(" not in line:
                self.prose_context(line, Place(seg.line_of(_offset(seg.text, k)), seg.cell, "output"))
        toks = text_tokens(seg.text)
        read_tokens(toks, seg, self.doc, self.ctx, text_mode=True)
        new = [a for a in self.doc.arrays[n_before:] if not a.label]
        names = [p for p in self.pending_output_labels]
        if self.last_expr and seg.where == "output" and getattr(seg, "result", False):
            names = [self.last_expr]
        if new and len(names) >= len(new):
            for a, name in zip(new, names[-len(new):] if len(names) > len(new) else names):
                a.label, a.labels = name, [name]
        elif new and len(new) == 1 and self.last_expr:
            new[0].label, new[0].labels = self.last_expr, [self.last_expr]
        for a in self.doc.arrays[n_before:]:
            if a.style == "list":
                a.style = "numpy"

    def _sizes(self, seg: Segment) -> Segment:
        """torch.Size([3, 4]) torch.Size([4, 2]) printed by print(x.shape, W.shape): shape statements."""
        from .objects import Chain, LabelPart, ShapePart
        names = []
        for p in self.pending_output_labels:
            names += [x for x in re.split(r"[\s,]+", p) if x.endswith(".shape") or x.endswith(".size()")]
        k = 0
        for m in re.finditer(r"(?:torch\.)?Size\(\[([\d,\s]*)\]\)", seg.text):
            dims = [int(x) for x in re.findall(r"\d+", m.group(1))]
            if len(dims) >= 2 and k < len(names):
                label = names[k]
                self.doc.chains.append(Chain([LabelPart(label), ShapePart(dims, m.group(0))], ["∈"],
                                             seg.place(m.start()), m.group(0), _copy(self.ctx)))
            k += 1
        text = re.sub(r"(?:torch\.)?Size\(\[[\d,\s]*\]\)", lambda m: " " * len(m.group(0)), seg.text)
        out = Segment(text, seg.line, seg.where, seg.cell, seg.line_map)
        if getattr(seg, "result", False):
            out.result = True
        return out

    def finish(self) -> Document:
        for k, a in enumerate(self.doc.arrays):
            a.id = k
        # a display that starts with "=" continues the display just above it:
        #   \[ score = (0.22)(0.54) + (0.64)(0.36) \]   \[ = 0.1188 + 0.2304 \approx 0.349 \]
        chains = self.doc.chains
        for k in range(1, len(chains)):
            c, p = chains[k], chains[k - 1]
            m = re.match(r"\s*(=|≈|≃|~|\\approx)", c.text)
            if m and p.parts and c.place.where == p.place.where == "math" and c.place.cell == p.place.cell and \
                    0 < c.place.line - p.place.line <= 8 and len(c.rels) == len(c.parts) - 1:
                c.parts = [p.parts[-1]] + c.parts
                c.rels = ["≈" if m.group(1) in ("≈", "≃", "~", "\\approx") else "="] + c.rels
        self.doc.chains = [c for c in chains if len(c.parts) >= 2 or
                           any(isinstance(p, (ShapePart, ShapeProduct)) for p in c.parts)]
        return self.doc


_TUPLE = re.compile(r"[(（]\s*(-?\d+(?:\.\d+)?(?:\s*[,，]\s*-?\d+(?:\.\d+)?)+)\s*[)）]"
                    r"(?:\s*\^\s*\{?\s*(?:T|\\top)\s*\}?|ᵀ|⊤|')?")


def _copy(ctx: Context) -> Context:
    return Context(**ctx.__dict__)


def _offset(text: str, line_index: int) -> int:
    """Where line line_index (0-based) of text starts (the last line's start past the end)."""
    starts = _line_starts(text)
    return starts[min(line_index, len(starts) - 1)]


@functools.lru_cache(maxsize=16)
def _line_starts(text: str) -> tuple[int, ...]:
    return (0,) + tuple(m.end() for m in re.finditer("\n", text))


def _strip_heading(text: str) -> str:
    return text.strip().lstrip("#").strip()


def _heading_level(text: str) -> int:
    s = text.strip()
    if s.startswith("#"):
        return len(s) - len(s.lstrip("#"))
    m = re.match(r"^(\d+(?:\.\d+)*)", s)
    if m:
        return m.group(1).count(".") + 1 + (0 if not m.group(1).endswith(".") else -1)
    return 1


def _batch_in(text: str) -> int | None:
    m = re.search(r"\b(?:batch|sequence|sample|序列|样本)\s*(?:#|b\s*=\s*)?(\d+)\b|第\s*(\d+)\s*(?:条|个)(?:序列|样本)",
                  text, re.I)
    if not m:
        return None
    return int(m.group(1) or m.group(2))


_READING = re.compile(
    r"(?:(?:token|词|query|查询|行)\s*(?P<i>\d+)\s*)?[^\d\n]{0,30}?(?:token|词|key|键)\s*(?P<j>\d+)"
    r"[^\d\n]{0,30}?(?P<w>weight|score|权重|分数|相似度|得分)[^\d\n]{0,12}?(?P<v>-?\d+(?:\.\d+)?)\s*[。.;；,，)）]?\s*$"
    r"|(?:(?:token|词|query|查询)\s*(?P<i2>\d+)\s*)?[^\d\n]{0,30}?(?:token|词|key|键)\s*(?P<j2>\d+)[^\d\n]{0,30}?"
    r"(?:=|:|：)\s*(?P<v2>-?\d+(?:\.\d+)?)\s*[。.;；,，)）]?\s*$",
    re.I)

_PARTIAL = re.compile(r"online softmax|tiled|flash[- ]?attention|key block|分块|在线\s*softmax|逐块", re.I)
_INLINE_MATH = re.compile(r"\$\$?([^$]+?)\$\$?|\\\((.+?)\\\)|`([^`]+)`")
_DIMS_ONLY = re.compile(r"^\s*\(?\s*\d+\s*(?:\\times|×|x|\\cdot)\s*\d+(?:\s*(?:\\times|×|x)\s*\d+)*\s*\)?\s*$")
_NUMBER_ONLY = re.compile(r"^\s*(?:\\approx|≈|=|\\sim)?\s*(-?\d+\.\d+)\s*$")
_DIMS_TEXT = re.compile(r"(?<![\w.])\d+\s*[×xX]\s*\d+(?:\s*[×xX]\s*\d+)*(?![\w.])")
_STOP = re.compile(r"gives?|giving|yields?|produces?|results? in|becomes?|得到|变成|结果|=|→|->|⇒|times|乘以|乘|by", re.I)


def _mask(line: str, spans) -> str:
    out = list(line)
    for a, z, _ in spans:
        for k in range(a, z):
            out[k] = " "
    return "".join(out)


def _split_names(label: str) -> list[str]:
    return [x.strip() for x in re.split(r",|，|、|\band\b|和|与", label) if x.strip()]


_FILLER = re.compile(r"^(?:\s|this|that|it|its|is|are|was|a|an|the|of|size|shape|matrix|matrices|now|so|then|"
                     r"都是|是|为|形状|大小|维度|即|就是|也是|得|成|the result)*$", re.I)


def _nearest_label(before: str, spans) -> str | None:
    """The last thing before a shape or a number, in its clause, that names a quantity.

    The clause before is used only when this one has nothing but filler words before the number
    ("Concatenated, this is a 3×4 matrix").
    """
    masked = re.sub(r"\$[^$]*\$|\\\(.*?\\\)|`[^`]*`", lambda m: "\0" * len(m.group(0)), before)
    cuts = [0] + [m.end() for m in re.finditer(r"[;；。!?！？]|(?<!\d)[,，]|[,，](?=\s)", masked)]
    clauses = [before[a:b] for a, b in zip(cuts, cuts[1:] + [len(before)])]
    for depth, clause in enumerate(reversed(clauses[-2:])):
        units = []
        for m in re.finditer(r"\$\$?([^$]+?)\$\$?|\\\((.+?)\\\)|`([^`]+)`|([A-Za-z_\u4e00-\u9fff][\w\u4e00-\u9fff'^{}\\]*)",
                             clause):
            units.append((m.end(), m.group(1) or m.group(2) or m.group(3) or m.group(4)))
        for end, unit in reversed(units):
            if _STOP.search(clause[end:]):
                return None
            if len(unit) == 1 and unit not in "QKVXSYO":
                continue
            if re.search(r"[\u4e00-\u9fff]", unit) and _STOP.search(unit):
                hit = next((m for rx, _ in lb._WORD_RES for m in [rx.search(unit)] if m), None)
                if hit is None or _STOP.search(unit[hit.end():]):
                    return None
            u = unit.split("=")[0].strip() if "=" in unit and not re.search(r"[\d.]\s*$", unit.split("=")[0]) \
                else unit
            r = lb.parse_label(u)
            if r is not None:
                return u
        words = re.findall(r"[A-Za-z]+", clause)
        for n in (4, 3, 2):
            if len(words) >= n:
                phrase = " ".join(words[-n:])
                r = lb.parse_label(phrase)
                if r is not None and not _STOP.search(phrase):
                    return phrase
        if depth == 0 and not _FILLER.match(re.sub(r"[\d×x().:：，,]", " ", clause)):
            return None
    return None


_IDENTITY = re.compile(r"identity|单位矩阵|恒等|=\s*I(?:_\d+|_\{\d+\})?\b|\\mathbf\{I\}|\bI_\{?\d|np\.eye|torch\.eye",
                       re.I)
_HINTS = [
    ("causal", re.compile(r"causal|因果|look[- ]ahead mask|future (tokens|positions)|下三角|上三角.*(-\s*∞|-inf|屏蔽)|"
                          r"masked (self-)?attention|decoder mask", re.I)),
    ("unscaled", re.compile(r"without (the )?scal|no scal|not scaled|unscaled|skip(ping)? the scal|不(做|进行)?缩放|"
                            r"省略.{0,6}缩放|without dividing|omit.{0,20}(√|sqrt)", re.I)),
    ("no_wo", re.compile(r"no output projection|without (an? )?(output projection|W_?\^?\{?O)|no W_?\^?\{?O|"
                         r"没有输出投影|不做输出投影|省略.{0,4}W_?O", re.I)),
    ("heads", re.compile(r"(?<![\w.])(\d+)\s*(?:attention\s+)?heads\b|(\d+)\s*个\s*(?:head|头)|"
                         r"(?:num_heads|n_heads|nhead|num_attention_heads|h)\s*=\s*(\d+)\b|\bH\s*=\s*(\d+)|"
                         r"([一二两三四五六七八])\s*个\s*(?:head|头)", re.I)),
    ("scale", re.compile(r"(?:divide[ds]? by|scaled? by|除以|scale\s*=)\s*(?:√|\\sqrt\{?|sqrt\()?\s*(\d+(?:\.\d+)?)",
                         re.I)),
    ("scale_sqrt", re.compile(r"(?:divide[ds]? by|scaled? by|除以)\s*(?:√|\\sqrt\{?|sqrt\()\s*(\d+)", re.I)),
    ("padding", re.compile(r"padding|填充|pad token|key_lengths|key lengths", re.I)),
    ("rope", re.compile(r"\brope\b|rotary|旋转位置|旋转编码", re.I)),
    ("alibi", re.compile(r"\balibi\b|attention with linear biases", re.I)),
    ("batch", re.compile(r"batch", re.I)),
]


# ------------------------------------------------------------------ plain text, with the terminal's matrices

_BOX_TOP, _BOX_MID, _BOX_BOT = "⎡", "⎢", "⎣"
_BOX_CHARS = "⎡⎢⎣⎤⎥⎦"


_GROUP = re.compile(r"\[([^\[\]]*)\]")
# one number or ellipsis, then separators (or the end): no two ways to split "1.6243865", so no backtracking
_GROUP_BODY = re.compile(r"^[,\s]*(?:(?:[-+−]?(?:\d+(?:\.\d*)?|\.\d+)(?:[eE][-+]?\d+)?|-?inf|\.\.\.|…)(?:[,\s]+|$))+$")


def _groups(line: str) -> list[tuple[int, int]] | None:
    """Column spans of the one-level number groups [ 1 0 2 ] of a line, if the line's brackets are all such."""
    if line.count("[") != line.count("]") or "[[" in line.replace(" ", "") or "]]" in line.replace(" ", ""):
        return None
    out = []
    for m in _GROUP.finditer(line):
        if m.start() > 0 and re.match(r"[\w\])]", line[m.start() - 1]):
            continue                          # scores[0][1]: an index, not a group of numbers
        if not _GROUP_BODY.match(m.group(1)) or not re.search(r"\d", m.group(1)):
            return None
        out.append((m.start(), m.end()))
    return out or None


def text_tokens(text: str) -> list[Tok]:
    """Tokens of plain text.  Matrices written as rows of [ ... ] on consecutive lines (side by side too,
    as in "Q = [ 1 0 ]   K = [ 2 1 ]") and the terminal's ⎡ ⎢ ⎣ matrices become MATRIX tokens."""
    has_box = any(c in text for c in _BOX_CHARS)
    lines = text.split("\n")
    if "│" in text:
        lines, drawn = _unicode_boxes(lines)
        has_box = has_box or drawn
    aligned = any(_aligned_run(lines, k) > k for k in range(len(lines)) if _ALIGNED_ROW.match(lines[k]))
    woven = any(len(_WOVEN_HEAD.findall(line)) >= 2 for line in lines)
    if not has_box and not aligned and not woven and not _multi_row(lines):
        return lex_text(text)
    starts = []
    p = 0
    for line in lines:
        starts.append(p)
        p += len(line) + 1
    out: list[Tok] = []
    depths = _depths(lines)
    i = 0
    while i < len(lines):
        line = lines[i]
        if has_box and _BOX_TOP in line:
            j = i
            while j < len(lines) and (_BOX_BOT not in lines[j]) and (j == i or _BOX_MID in lines[j]):
                j += 1
            if j < len(lines) and _BOX_BOT in lines[j]:
                # drop a column-number header line just emitted
                if i > 0 and re.fullmatch(r"\s*(\d+\s+)*\d+\s*", lines[i - 1]):
                    while out and out[-1].pos >= starts[i - 1]:
                        out.pop()
                out.extend(_box(lines, starts, i, j))
                out.append(Tok("SEP", "\n", starts[j] + len(lines[j]), end=starts[j] + len(lines[j])))
                i = j + 1
                continue
        if woven:
            got = _woven(lines, starts, i)
            if got is not None:
                toks, j = got
                out.extend(toks)
                i = j + 1
                continue
        run = _aligned_run(lines, i) if depths[i] == 0 else i
        if run > i:
            # a header of column names just emitted ("k1 k2 k3") is not part of the text
            out.extend(_aligned(lines, starts, i, run))
            i = run + 1
            continue
        run = _run(lines, i, depths)
        if run > i:
            out.extend(_side_by_side(lines, starts, i, run))
            i = run + 1
            continue
        out.extend(lex_text(line + "\n", starts[i]))
        i += 1
    return out


_WOVEN_ROW = r"\[\s*[-+−\d.eE,\s]*\]"
_WOVEN_HEAD = re.compile(r"[A-Za-z_][\w^{}()]*\s*=\s*\[" + _WOVEN_ROW + r"\s*,?")
_WOVEN_PIECE = re.compile(_WOVEN_ROW + r"\s*\]?\s*,?")


def _woven(lines: list[str], starts: list[int], i: int) -> tuple[list[Tok], int] | None:
    """Nested lists written side by side and continued row by row:
        Wq = [[1, 0], Wk = [[1, 1], Wv = [[1, 0],
        [0, 1]] [0, 1]] [0, 1]]
    read as one matrix after the other (each piece keeps its place)."""
    heads = list(_WOVEN_HEAD.finditer(lines[i]))
    if len(heads) < 2 or _WOVEN_HEAD.sub("", lines[i]).strip():
        return None
    pieces: list[list[tuple[int, str]]] = [[(starts[i] + h.start(), h.group())] for h in heads]
    open_ = [True] * len(heads)
    j = i
    while any(open_):
        j += 1
        if j >= len(lines):
            return None
        found = list(_WOVEN_PIECE.finditer(lines[j]))
        which = [k for k in range(len(heads)) if open_[k]]
        if len(found) != len(which) or _WOVEN_PIECE.sub("", lines[j]).strip():
            return None
        for k, g in zip(which, found):
            pieces[k].append((starts[j] + g.start(), g.group()))
            if re.search(r"\]\s*\]", g.group()):
                open_[k] = False
    out: list[Tok] = []
    for k, ps in enumerate(pieces):
        for pos, piece in ps:
            out.extend(lex_text(piece.rstrip().rstrip(",") if piece is ps[-1][1] else piece, pos))
        end = ps[-1][0] + len(ps[-1][1])
        out.append(Tok("SEP", "\n", end, end=end))
    return out, j


_NUMBER_TOKEN = r"(?:[-+−]?(?:\d+\.\d*|\.\d+|\d+)(?:[eE][-+]?\d+)?|[-−]?inf|[-−]∞)"
_ALIGNED_ROW = re.compile(r"^\s*(?P<name>[A-Za-z_\u4e00-\u9fff][\w\u4e00-\u9fff]{0,8}\s+)?(?P<nums>" + _NUMBER_TOKEN
                          + r"(?:[ \t]+" + _NUMBER_TOKEN + r")+)\s*$")


def _aligned_run(lines: list[str], i: int) -> int:
    """The last line of a block of rows like "q2   0.4172   0.0849    -inf" (plain-text tables)."""
    m = _ALIGNED_ROW.match(lines[i])
    if not m:
        return i
    n = len(m.group("nums").split())
    j = i
    while j + 1 < len(lines):
        m2 = _ALIGNED_ROW.match(lines[j + 1])
        if not m2 or len(m2.group("nums").split()) != n:
            break
        j += 1
    return j


def _aligned(lines: list[str], starts: list[int], i: int, j: int) -> list[Tok]:
    rows = []
    for k in range(i, j + 1):
        m = _ALIGNED_ROW.match(lines[k])
        a = m.start("nums")
        cells = [lex_text(t.group(0), starts[k] + a + t.start()) for t in re.finditer(r"\S+", m.group("nums"))]
        rows.append(cells)
    return [Tok("MATRIX", "aligned", starts[i] + _ALIGNED_ROW.match(lines[i]).start("nums"), args=rows,
                end=starts[j] + len(lines[j])), Tok("SEP", "\n", starts[j] + len(lines[j]), end=starts[j] + len(lines[j]))]


def _depths(lines: list[str]) -> list[int]:
    """The bracket depth at the start of each line: rows inside an open [[ ... belong to that list."""
    out, d = [], 0
    for line in lines:
        out.append(d)
        d = max(0, d + line.count("[") - line.count("]") + line.count("(") - line.count(")"))
    return out


def _multi_row(lines: list[str]) -> bool:
    prev = False
    for line, d in zip(lines, _depths(lines)):
        g = "[" in line and d == 0 and _groups(line)
        if g and prev:
            return True
        prev = bool(g)
    return False


def _run(lines: list[str], i: int, depths: list[int] | None = None) -> int:
    """The last line of a block of consecutive lines made of [ ... ] groups in the same columns (≥ 2 lines)."""
    if depths is not None and depths[i]:
        return i
    g0 = _groups(lines[i]) if "[" in lines[i] else None
    if not g0:
        return i
    cols = [a for a, _ in g0]
    j = i
    while j + 1 < len(lines):
        if depths is not None and depths[j + 1]:
            break
        g = _groups(lines[j + 1]) if "[" in lines[j + 1] else None
        if not g or not all(any(abs(a - c) <= 3 for c in cols) for a, _ in g):
            break
        first = _groups(lines[i]) or []
        gaps0 = [lines[i][b:a].strip() for (_, b), (a, _) in zip(first, first[1:])]
        gaps1 = [lines[j + 1][b:a].strip() for (_, b), (a, _) in zip(g, g[1:])]
        if any(x and x == y for x, y in zip(gaps0, gaps1)):
            break                  # "[1,0] · [0,1] = ..." on every line: statements, not matrix rows
        if lines[j + 1][:g[0][0]].strip() in ("=", "->", "→", "⇒", "≈"):
            break                  # "    = [3, 3]" under "    = [3, 4] @ [4, 3]": the next step of a derivation
        if any(re.search(r"[A-Za-z\u4e00-\u9fff]", lines[j + 1][b:a]) for (_, b), (a, _) in zip(g, g[1:])) and not (
                not any(gaps0) and all(re.fullmatch(r"\s*(?:[A-Za-z_][\w^{}]{0,8}\s*=\s*)?", lines[j + 1][b:a])
                                       for (_, b), (a, _) in zip(g, g[1:]))):
            # (side-by-side matrices named on a later row, "W_Q = [..]   W_K = [..]", under blank gaps, go on)
            break                  # "ant: [2,1] · Wk = [1, 3]" on each line: statements, not matrix rows
        j += 1
    return j if j > i else i


def _side_by_side(lines: list[str], starts: list[int], i: int, j: int) -> list[Tok]:
    clusters: list[dict] = []
    for k in range(i, j + 1):
        for a, b in _groups(lines[k]):
            cl = next((c for c in clusters if abs(c["col"] - a) <= 3), None)
            if cl is None:
                cl = {"col": a, "rows": [], "label": "", "label_pos": starts[k] + a}
                clusters.append(cl)
            cl["rows"].append((k, a, b))
    clusters.sort(key=lambda c: c["col"])
    out: list[Tok] = []
    for n, cl in enumerate(clusters):
        k0, a0, _ = cl["rows"][0]

        def prefix(k: int, a: int) -> str:
            left = max((b for (kk, aa, b) in (r for c in clusters[:n] for r in c["rows"]) if kk == k), default=0)
            return lines[k][left:a]
        label = prefix(k0, a0)
        names = [re.sub(r"\s*(?:=|->|→|:|~|≈)\s*$", "", prefix(k, a)).strip() for (k, a, _) in cl["rows"]]
        left_end = max((b for (kk, aa, b) in (r for c in clusters[:n] for r in c["rows"]) if kk == k0), default=0)
        if not label.strip() and k0 > 0 and lines[k0 - 1].strip() and not _groups(lines[k0 - 1]):
            # the name written above the column: "W_Q (3×2)        W_K (3×2)"
            above = lines[k0 - 1]
            nxt = min((c["col"] for c in clusters if c["col"] > cl["col"]), default=len(above))
            words = above[max(0, a0 - 2):max(a0, nxt - 1)].strip()
            words = re.sub(r"\s*[\(（][^)）]*[\)）]?\s*$|[:：]\s*$", "", words).strip()
            if words and lb.parse_label(words) is not None:
                label = words + " = "
                left_end = a0
        label_at = starts[k0] + left_end
        named = [(k, a) for (k, a, _) in cl["rows"] if re.sub(r"\s*(?:=|->|→|:|~|≈)\s*$", "", prefix(k, a)).strip()]
        if not label.strip() and len(named) == 1 and len(cl["rows"]) > 1 and \
                re.search(r"(?:=|:)\s*$", prefix(*named[0])) and lb.parse_label(names[[k for k, *_ in cl["rows"]].index(
                    named[0][0])]) is not None:
            # the name on a later row: "W_Q  =  [ 0  1  0 ]" under "        [ 1  0  0.5 ]"
            k, a = named[0]
            label = prefix(k, a)
            label_at = starts[k] + max((b for (kk, aa, b) in (r for c in clusters[:n] for r in c["rows"]) if kk == k),
                                       default=0)
            names = [""] * len(names)
        header_axis = k0 > 0 and len(re.findall(r"\b[A-Za-z]_?\d+\b", lines[k0 - 1])) >= 2
        words_only = all(re.fullmatch(r"[A-Za-z\u4e00-\u9fff\"']+", x) for x in names if x)
        if sum(bool(x) for x in names) > 1 and not _row_letter(names) and not header_axis and not words_only and \
                len(set(names)) == len(names) and not all(re.fullmatch(r"(?:token|row|query|q|k|x|行|词)\s*_?\d+", x, re.I)
                                                          for x in names if x):
            # rows with names of their own ("row 0: [...]", "scores: [...]"): one vector each
            for (k, a, b) in cl["rows"]:
                pre = prefix(k, a)
                left = max((bb for (kk, aa, bb) in (r for c in clusters[:n] for r in c["rows"]) if kk == k), default=0)
                out.extend(lex_text(pre, starts[k] + left))
                cells = [lex_text(m.group(0), starts[k] + a + 1 + m.start()) for m in re.finditer(r"[^\s,]+",
                                                                                              lines[k][a + 1:b - 1])]
                out.append(Tok("MATRIX", "row", starts[k] + a, args=[cells], end=starts[k] + b))
                out.append(Tok("SEP", "\n", starts[k] + b, end=starts[k] + b))
            continue
        if sum(bool(x) for x in names) > 1 and words_only and k0 > 0 and re.search(
                r"embedding|input|token|输入|词向量|嵌入", lines[k0 - 1], re.I):
            label = "X = "                    # "please → [1, 0]" under "each token has an embedding"
        elif sum(bool(x) for x in names) > 1:
            label = (_row_letter(names) + " = ") if _row_letter(names) and not header_axis else ""
            if not label:
                out.extend(lex_text(prefix(k0, a0), starts[k0] + left_end))
                out.append(Tok("SEP", "\n", starts[k0] + a0, end=starts[k0] + a0))
        rows = []
        for (k, a, b) in cl["rows"]:
            body = lines[k][a + 1:b - 1]
            cells = []
            for m in re.finditer(r"[^\s,]+", body):
                cells.append(lex_text(m.group(0), starts[k] + a + 1 + m.start()))
            rows.append(cells)
        if label.strip():
            toks = lex_text(label, label_at)
            for t in toks:
                t.pos = max(t.pos, starts[k0])
            out.extend(toks)
        out.append(Tok("MATRIX", "rows", starts[k0] + a0, args=rows, end=starts[cl["rows"][-1][0]]))
        out.append(Tok("SEP", "\n", starts[k0] + a0, end=starts[k0] + a0))
    # what follows the groups on the block's lines (rarely anything) is dropped
    return out


_UBAR = "│┃|"
_UTOP = re.compile(r"┌[\s─]*┐")
_UBOT = re.compile(r"└[\s─]*┘")


def _unicode_boxes(lines: list[str]) -> tuple[list[str], bool]:
    """Matrices drawn with box characters, as READMEs do:
            ┌      ┐
            │ 1  2 │
        X = │ 0  1 │
            └      ┘
    become the terminal's ⎡ ⎢ ⎣ matrices (character for character, so every place stays put); the corner
    lines become blank.  Only rows of numbers between two bars in the same columns count: a drawn table
    (┌───┬───┐, │ a │ b │) keeps its lines."""
    out = list(lines)
    drawn = False
    i = 0
    while i < len(lines):
        top = _UTOP.search(lines[i])
        if top and not lines[i][:top.start()].strip() and not lines[i][top.end():].strip():
            a, b = top.start(), top.end() - 1
            k0 = i + 1
        else:
            bars = [p for p, ch in enumerate(lines[i]) if ch == "│"]
            if len(bars) != 2:
                i += 1
                continue
            a, b = bars
            k0, top = i, None
        k = k0
        rights = []
        while k < len(lines):
            bars = [p for p, ch in enumerate(lines[k]) if ch == "│"]
            # the right bar may drift a little: "│ -4.950  2.121 │" under "│ 4.950  2.121 │"
            if len(bars) != 2 or bars[0] != a or abs(bars[1] - b) > 3 or not _GROUP_BODY.match(lines[k][a + 1:bars[1]]) \
                    or not re.search(r"\d", lines[k][a + 1:bars[1]]):
                break
            rights.append(bars[1])
            k += 1
        k1 = k - 1                                 # the last row
        bot = _UBOT.search(lines[k]) if k < len(lines) else None
        closed = bool(bot and bot.start() == a and not lines[k][:a].strip() and not lines[k][bot.end():].strip())
        if k1 < k0 or (top is None and not closed and k1 == k0):
            i += 1
            continue                               # one bare row between bars: not enough to call it a matrix
        for r in range(k0, k1 + 1):
            line = out[r]
            left = "⎡" if r == k0 else "⎣" if r == k1 else "⎢"
            right = "⎤" if r == k0 else "⎦" if r == k1 else "⎥"
            if k0 == k1:
                left, right = "[", "]"              # a boxed row vector: read as [ ... ]
            rb = rights[r - k0]
            out[r] = line[:a] + left + line[a + 1:rb] + right + line[rb + 1:]
        if top is not None:
            out[i] = " " * len(lines[i])
        if closed:
            out[k] = " " * len(lines[k])
        drawn = True
        i = k + 1 if closed else k
    return out, drawn


def _box(lines: list[str], starts: list[int], i: int, j: int) -> list[Tok]:
    if any(not any(ch in "⎡⎢⎣" for ch in lines[k]) or not any(ch in "⎤⎥⎦" for ch in lines[k]) for k in range(i, j + 1)):
        return [t for k in range(i, j + 1) for t in lex_text(lines[k] + "\n", starts[k])]   # not a whole box
    rows, label, suffix = [], "", ""
    label_line, suffix_line = i, i
    for k in range(i, j + 1):
        line = lines[k]
        a = next(p for p, ch in enumerate(line) if ch in "⎡⎢⎣")
        b = max(p for p, ch in enumerate(line) if ch in "⎤⎥⎦")
        before = re.sub(r"^\s*\d+\s", " ", line[:a]).strip()
        if before:
            label, label_line = before, k
        after = line[b + 1:].strip()
        if after:
            suffix, suffix_line = after, k
        cells = []
        for m in re.finditer(r"\S+", line[a + 1:b]):
            cells.append(lex_text(m.group(0), starts[k] + a + 1 + m.start()))
        rows.append(cells)
    toks = lex_text(label, starts[label_line]) if label else []
    for t in toks:
        t.pos = starts[label_line] + (lines[label_line].find(label) if label else 0)
    toks.append(Tok("MATRIX", "box", starts[i], args=rows, end=starts[j] + len(lines[j])))
    if suffix:
        toks.extend(lex_text(suffix, starts[suffix_line] + lines[suffix_line].find(suffix)))
    return toks


_TEX_DELIMS = re.compile(r"\$\$(.+?)\$\$|\\\[(.+?)\\\]|\\\((.+?)\\\)|"
                         r"\\begin\{(equation\*?|align\*?|gather\*?|displaymath|multline\*?|eqnarray\*?|"
                         r"bmatrix|pmatrix|matrix|vmatrix|array)\}(.+?)\\end\{\4\}|(?<![\\$\w])\$([^$\n]+?)\$(?!\d)",
                         re.S)


def split_text(text: str, line: int, cell: int | None, where: str = "prose",
               line_map: list[int] | None = None) -> list[Segment]:
    """Plain text: tables first (tab- or pipe-separated rows), then TeX math in $$ $$, \\[ \\], \\( \\),
    $ $ or an environment, and prose between."""
    base = Segment(text, line, where, cell, line_map)
    segs: list[Segment] = []
    lines = text.split("\n")
    p = 0
    run_start = 0
    table: list[tuple[int, str]] = []
    for k, ln in enumerate(lines + [None]):
        is_row = ln is not None and _is_table_row(ln)
        if is_row:
            if not table and p > run_start:
                segs.extend(_split_math(text, run_start, p, base, where))
            table.append((p, ln))
        elif table:
            segs.append(_table_segment(table, base))
            table = []
            run_start = p
        if ln is not None:
            p += len(ln) + 1
    if run_start < len(text) and not table:
        segs.extend(_split_math(text, run_start, len(text), base, where))
    return segs


def _is_table_row(line: str) -> bool:
    s = line.strip()
    if s.startswith("|") and s.count("|") >= 2:
        return True
    return "\t" in s and len([c for c in s.split("\t") if c.strip()]) >= 2


def _split_math(text: str, a: int, b: int, base: Segment, where: str) -> list[Segment]:
    segs: list[Segment] = []
    pos = a
    for m in _TEX_DELIMS.finditer(text, a, b):
        if m.start() > pos:
            segs.append(_prose(text, pos, m.start(), base, where))
        g = next(k for k in (1, 2, 3, 5, 6) if m.group(k) is not None)
        start = m.start(g) if g != 5 else m.start()
        body = m.group(g) if g != 5 else m.group(0)
        segs.append(Segment(body, base.line_of(start), "math", base.cell, _sub_map(base, text, start, body)))
        pos = m.end()
    if pos < b:
        segs.append(_prose(text, pos, b, base, where))
    return [s for s in segs if s.text.strip()]


def _prose(text: str, a: int, b: int, base: Segment, where: str) -> Segment:
    t = text[a:b]
    return Segment(t, base.line_of(a), where, base.cell, _sub_map(base, text, a, t))


def _sub_map(base: Segment, text: str, start: int, body: str) -> list[int]:
    n = body.count("\n") + 1
    out = []
    p = start
    for _ in range(n):
        out.append(base.line_of(p))
        nxt = text.find("\n", p)
        p = nxt + 1 if nxt >= 0 else p
    return out or [base.line_of(start)]


def _table_segment(rows: list[tuple[int, str]], base: Segment) -> Segment:
    text = "\n".join(line for _, line in rows)
    seg = Segment(text, base.line_of(rows[0][0]), "table", base.cell, [base.line_of(p) for p, _ in rows])
    return seg


# ------------------------------------------------------------------ tables

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
_AXIS_WORDS = re.compile(r"^(?:query|queries|key|keys|token|tokens|row|rows|col|column|i|j|m|n|t|#|pos|position|"
                         r"位置|行|列|词|查询|键|序号|步骤|step|)$", re.I)


class HeaderCell(str):
    """A table cell marked as a header (<th>): a label, never a value."""


class LinedCell(str):
    """A table cell that knows its own line (HTML cells often sit on lines of their own)."""
    line: int = 0


def read_table(b: Builder, rows: list[tuple[int, list[str]]], cell: int | None, caption: str = "",
               symbol: str = "") -> None:
    """A table: shape statements (a column of shapes), column matrices (cells holding vectors, or headers
    naming different quantities), or one matrix of numbers (header row and first column are labels)."""
    if not rows:
        return
    parsed = [(line, [None if isinstance(c, HeaderCell) else _cell_nums(c, getattr(c, "line", 0) or line)
                      for c in cells], cells)
              for line, cells in rows]
    header = parsed[0][2] if parsed and all(not n for n in parsed[0][1]) else None
    body = parsed[1:] if header is not None else parsed
    if symbol:
        data = [[n[0] for n in nums if n] for _, nums, _ in body]
        data = [r for r in data if r]
        if data and len({len(r) for r in data}) == 1:
            lines = [line for line, nums, _ in body if any(nums)]
            b.doc.add_array(Array(data, Place(lines[0], cell, "table"), label=symbol, labels=[symbol], style="table",
                                  context=_copy(b.ctx)))
            return
    # a shape table
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
        return
    if not body:
        return
    width = max(len(cells) for _, _, cells in body)
    if header is not None and _grouped_table(b, header, body, cell):
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
    if not cols:
        return
    head = lambda k: (header[k] if header is not None and k < len(header) else "").strip()   # noqa: E731
    lines = [line for line, _, _ in body]
    wide = [k for k, n in cols if n >= 2]
    # a header that names a group of columns (Q over two columns, then K, then V)
    if header is not None and all(n == 1 for _, n in cols):
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
                                      style="table", context=_copy(b.ctx)))
            return
    refs = {k: lb.parse_label(head(k).replace("$", "")) for k, _ in cols}
    distinct = len({r.nodes for r in refs.values() if r is not None}) >= 2
    if wide or (distinct and len(cols) >= 2):
        for k, n in cols:
            data = [list(nums[k]) for _, nums, _ in body]
            label = head(k).replace("$", "")
            a = Array(data, Place(lines[0], cell, "table"), label=label, labels=[label] if label else [],
                      style="table", context=_copy(b.ctx))
            b.doc.add_array(a)
        return
    data = [[nums[k][0] for k, _ in cols] for _, nums, _ in body]
    corner = head(0).replace("$", "").strip() if start == 1 else ""
    label = corner if corner and not _AXIS_WORDS.match(corner) and lb.parse_label(corner) is not None else ""
    axis_header = header is not None and sum(bool(_row_letter([h])) for h in header) >= 2
    if not label and named_rows and not axis_header:
        label = _row_letter([cells[0] for _, _, cells in body])
    if not label and caption:
        m = re.search(r"\\\((.+?)\\\)|\$(.+?)\$", caption)
        math = (m.group(1) or m.group(2)) if m else ""
        label = math if math and lb.parse_label(math) is not None else ""
    a = Array(data, Place(lines[0], cell, "table"), label=label, labels=[label] if label else [], style="table",
              context=_copy(b.ctx))
    b.doc.add_array(a)


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
        ctx = _copy(b.ctx)
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


def _row_letter(names: list[str]) -> str:
    """Rows named x_1, x_2, x_3 (or q1, q2...) are the rows of X (or Q...)."""
    letters = set()
    for n in names:
        m = re.fullmatch(r"\$?\s*([A-Za-z])\s*_?\{?\s*(\d+)\s*\}?\s*\$?", n.strip())
        if not m:
            return ""
        letters.add(m.group(1))
    return letters.pop().upper() if len(letters) == 1 else ""


def _cell_nums(c: str, line: int) -> list[Num] | None:
    """The numbers of a table cell: one number, "1, 0.5", "[1, 2]", "-inf"; None when it holds anything else."""
    s = c.strip().strip("`*").strip().strip("$").strip().replace("−", "-").replace("\\infty", "inf")
    s = s.replace("\\,", "").replace("\\;", "")
    if s.startswith("[") and s.endswith("]") or s.startswith("(") and s.endswith(")"):
        s = s[1:-1]
    parts = [p for p in re.split(r"[,\s]+", s) if p]
    if not parts or len(parts) > 64:
        return None
    out = []
    for p in parts:
        if p in ("-inf", "-∞"):
            from .numbers import NEG_INF
            out.append(NEG_INF.with_line(line))
            continue
        if not re.fullmatch(r"[-+]?(?:\d+\.\d*|\.\d+|\d+)(?:[eE][-+]?\d+)?", p):
            return None
        try:
            out.append(Num.parse(p, line))
        except ValueError:
            return None
    return out


# ------------------------------------------------------------------ formats

def _unnumber(text: str) -> str:
    """Code copied from a web page with its line numbers glued on ("1X = [[1.0, 0.0],", "2     [0.0, 1.0]]"):
    the numbers blanked out, columns and lines kept.  Only a run 1, 2, 3, ... where some number touches the
    code ("1X", "3scores[0]") -- a matrix printed as "1 0" / "2 3" is left alone."""
    lines = text.split("\n")
    out = list(lines)
    i = 0
    while i < len(lines):
        if not re.match(r"1(?!\d)", lines[i]):
            i += 1
            continue
        j = i
        while j < len(lines) and re.match(rf"{j - i + 1}(?!\d)", lines[j]):
            j += 1
        run = range(i, j)
        glued = any(re.match(rf"{k - i + 1}[A-Za-z_\[\(\"'#]", lines[k]) for k in run)
        if j - i >= 2 and glued:
            for k in run:
                n = len(str(k - i + 1))
                out[k] = " " * n + lines[k][n:]
        i = max(j, i + 1)
    return "\n".join(out)


_IN_PROMPT = re.compile(r"^\s*In\s*\[\s*\d*\s*\]\s*:\s?(.*)$")
_OUT_PROMPT = re.compile(r"^\s*Out\s*\[\s*\d*\s*\]\s*:\s?(.*)$")
_PRINTED = re.compile(r"^\s*(?:array|tensor|matrix|Tensor)\(|^\s*\[+\s*[-+]?(?:\d|\.\d|nan|inf)|^\s*[-+]?\d+(?:\.\d*)?(?:e[-+]?\d+)?\s*$")


def _parses(code: str) -> bool:
    from .pycode import read_python
    return bool(code.strip()) and read_python(code).parsed


def _printed_chunk(chunk: list[str]) -> bool:
    """A chunk of a notebook transcript that is what a cell printed: an array printout, or a short caption
    ("Dot product scores:") over one."""
    lines = [x for x in chunk if x.strip()]
    if not lines:
        return False
    if _PRINTED.match(lines[0]):
        return True
    return len(lines) >= 2 and len(lines[0].strip()) <= 80 and len(lines[0].split()) <= 10 and \
        bool(_PRINTED.match(lines[1]))


def _transcript(lines: list[str]) -> list[tuple[str, list[int]]] | None:
    """A Jupyter notebook pasted as text: "In [2]:" prompts, each followed by its code and then what the cell
    showed (its last expression's value, or what it printed).  The document's lines as pieces in order:
    ("prose", lines), ("code", lines), ("output", lines) or ("result", lines) -- an output that shows the
    value of the cell's last bare expression.  None when the text is no such transcript."""
    prompts = [k for k, x in enumerate(lines) if _IN_PROMPT.match(x)]
    if not prompts:
        return None
    pieces: list[tuple[str, list[int]]] = []
    if prompts[0] > 0:
        pieces.append(("prose", list(range(prompts[0]))))
    for n, p in enumerate(prompts):
        end = prompts[n + 1] if n + 1 < len(prompts) else len(lines)
        body = list(range(p, end))            # the prompt line holds code after "In [2]:" too
        chunks: list[list[int]] = []
        for k in body:
            if k != p and (not lines[k].strip() or _OUT_PROMPT.match(lines[k])):
                if chunks and chunks[-1]:
                    chunks.append([])
                if _OUT_PROMPT.match(lines[k]):
                    chunks.append([k])
                    chunks.append([])
                continue
            if not chunks:
                chunks.append([])
            chunks[-1].append(k)
        chunks = [c for c in chunks if c]
        code: list[int] = []
        text = lambda ks: "\n".join(_IN_PROMPT.sub(r"\1", lines[k]) for k in ks)
        i = 0
        while i < len(chunks):
            c = chunks[i]
            if _OUT_PROMPT.match(lines[c[0]]) or (code and _printed_chunk([lines[k] for k in c])) or \
                    not _parses(text(code + c)):
                break
            code += c
            i += 1
        if not code:
            return None              # a prompt with no code under it: not a transcript
        pieces.append(("code", code))
        shown = False
        while i < len(chunks):
            c = chunks[i]
            if _OUT_PROMPT.match(lines[c[0]]):
                rest = _OUT_PROMPT.match(lines[c[0]]).group(1)
                if i + 1 < len(chunks) and not rest.strip():
                    pieces.append(("result", chunks[i + 1]))
                    shown = True
                    i += 2
                    continue
                pieces.append(("result", c))
                shown = True
            elif not shown and _printed_chunk([lines[k] for k in c]):
                pieces.append(("output", c))
            else:
                pieces.append(("prose", c))
                shown = True
            i += 1
    return pieces


def _read_transcript(text: str, pieces, b: Builder, line: int, cell: int | None,
                     line_map: list[int] | None) -> None:
    lines = text.split("\n")
    at = lambda k: line_map[k] if line_map and k < len(line_map) else line + k
    for kind, ks in pieces:
        body = "\n".join(_IN_PROMPT.sub(r"\1", lines[k]) if kind == "code" else
                         _OUT_PROMPT.sub(r"\1", lines[k]) for k in ks)
        lmap = [at(k) for k in ks]
        if kind == "prose":
            read_text(body, b, lmap[0], cell, lmap, transcript=False)
        elif kind == "code":
            b.segment(Segment(body, lmap[0], "code", cell, lmap))
        else:
            seg = Segment(body, lmap[0], "output", cell, lmap)
            # the value of the cell's last bare expression ("X" and then "array([[1., 0.], ...])")
            seg.result = kind == "result" or (b.last_expr is not None and not b.pending_output_labels)
            b.segment(seg)


def read_text(text: str, b: Builder, line: int = 1, cell: int | None = None,
              line_map: list[int] | None = None, transcript: bool = True) -> None:
    if transcript:
        pieces = _transcript(text.split("\n"))
        if pieces is not None:
            _read_transcript(text, pieces, b, line, cell, line_map)
            return
    display = False              # inside \[ ... \], $$ ... $$ or \begin{...}: math, not prose
    for k, raw in enumerate(text.split("\n")):
        st = raw.strip()
        opened = st.startswith(("\\[", "$$", "\\begin{"))
        inside = display or opened
        if opened:
            display = not re.search(r"(\\\]|\$\$|\\end\{[^}]*\})\s*$", st[2:]) if not st.startswith("\\begin{") \
                else not re.search(r"\\end\{", st)
        elif display and re.search(r"\\\]|\$\$|\\end\{", st):
            display = False
        if not inside and not _is_table_row(raw):
            ln = line_map[k] if line_map and k < len(line_map) else line + k
            b.prose_numbers(raw, Place(ln, cell, "prose"))
    for seg in split_text(text, line, cell, "prose", line_map):
        if seg.where == "table":
            read_table(b, table_cells(seg), cell)
        elif seg.where == "prose":
            _prose_with_headings(seg, b)
        else:
            b.segment(seg)


def _prose_with_headings(seg: Segment, b: Builder) -> None:
    """Plain text has headings too: '4.2 缩放', '# Head 2', a short line followed by '---'."""
    lines = seg.text.split("\n")
    buf: list[int] = []

    def flush():
        if buf:
            t = "\n".join(lines[k] for k in buf)
            b.segment(Segment(t, seg.line_of(_offset(seg.text, buf[0])), "prose", seg.cell,
                              [seg.line_of(_offset(seg.text, k)) for k in buf]))
            buf.clear()
    for k, line in enumerate(lines):
        s = line.strip()
        if _looks_like_heading(s):
            flush()
            b.segment(Segment(s, seg.line_of(_offset(seg.text, k)), "heading", seg.cell))
            continue
        buf.append(k)
    flush()


def _looks_like_heading(s: str) -> bool:
    if s.startswith("#") and not s.startswith("#!") and len(s) < 120 and not re.match(r"^#\s*[\[\d(-]", s):
        return True
    return bool(re.match(r"^\d+(\.\d+)*\.?\s+[^\W\d_]", s)) and len(s) < 60 and "=" not in s and not re.search(
        r"\d\s*[×x*]\s*\d|[⎡⎢⎣│\[\]]", s)


def _need(module: str, package: str):
    """Import an optional reader library, or say in one line what to install."""
    import importlib
    try:
        return importlib.import_module(module)
    except ImportError:
        from ..inputs import UsageError
        raise UsageError(f"mha check needs {package} to read this format (a dependency of mha): pip install {package}") from None


def read_markdown(text: str, b: Builder, line0: int = 1, cell: int | None = None) -> None:
    MarkdownIt = _need("markdown_it", "markdown-it-py").MarkdownIt
    dollarmath_plugin = _need("mdit_py_plugins.dollarmath", "mdit-py-plugins").dollarmath_plugin
    md = MarkdownIt("commonmark", {"html": True}).enable("table").use(
        dollarmath_plugin, allow_labels=True, allow_space=True, allow_digits=False, double_inline=True)
    src_lines = text.split("\n")
    toks = md.parse(text)
    i = 0
    table: list[tuple[int, list[str]]] = []
    row: list[str] = []
    row_line = 0
    caption = ""
    while i < len(toks):
        t = toks[i]
        ln = (t.map[0] if t.map else 0) + line0
        if t.type == "heading_open":
            inline = toks[i + 1]
            b.heading(_strip_heading(inline.content), int(t.tag[1]), Place(ln, cell, "heading"))
            for c in inline.children or []:
                if c.type in ("math_inline", "math_inline_double"):
                    b.segment(Segment(c.content, ln, "math", cell))
            b.prose_numbers(inline.content, Place(ln, cell, "heading"))
            i += 3
            continue
        if t.type == "inline" and t.map:
            _inline(t, src_lines, b, line0, cell)
            caption = t.content
        elif t.type == "math_block" or t.type == "math_block_label":
            _math_block(t, src_lines, b, line0, cell)
        elif t.type in ("fence", "code_block"):
            start = t.map[0] + (1 if t.type == "fence" else 0)
            lang = (t.info or "").strip().split(" ")[0].lower()
            n = t.content.count("\n")
            seg_lines = [start + line0 + k for k in range(max(1, n + 1))]
            where = "code" if lang in ("python", "py", "python3", "ipython", "ipython3", "pycon", "") else "output"
            if lang in ("text", "console", "output", "txt", "plaintext", "bash", "shell", "sh", "log", "out"):
                where = "output"
            if where == "code" and lang == "":
                from .pycode import read_python
                if not read_python(t.content).parsed or not re.search(r"=|print|import", t.content):
                    where = "output"
            if lang in ("latex", "tex", "math"):
                where = "math"
            if where != "math" and any(_IN_PROMPT.match(x) for x in t.content.split("\n")):
                read_text(t.content, b, seg_lines[0], cell, seg_lines)     # a notebook pasted as a transcript
                i += 1
                continue
            b.segment(Segment(t.content, seg_lines[0], where, cell, seg_lines))
        elif t.type == "html_block":
            read_html(t.content, b, line0 + t.map[0], cell)
        elif t.type == "tr_open":
            row, row_line = [], ln
        elif t.type in ("th_open", "td_open"):
            inline = toks[i + 1]
            row.append(HeaderCell(inline.content) if t.type == "th_open" else inline.content)
            i += 3
            continue
        elif t.type == "tr_close":
            table.append((row_line, row))
        elif t.type == "table_close":
            read_table(b, table, cell, caption if len(caption) < 200 else "")
            table = []
        i += 1


def _inline(t, src_lines: list[str], b: Builder, line0: int, cell: int | None) -> None:
    first = t.map[0] + line0
    content = t.content
    if re.search(r"\\\[|\\\(|\\begin\{|\$\$", content) or any(_is_table_row(x) for x in content.split("\n")):
        # MathJax delimiters that CommonMark would unescape: read the raw lines as text with TeX
        raw = "\n".join(src_lines[t.map[0]:t.map[1]])
        read_text(raw, b, first, cell)
        return
    # prose first: the words of a line set the context of its math ("差别只来自舍入", "Head 2")
    lines = content.split("\n")
    seg = Segment(content, first, "prose", cell, [first + k for k in range(len(lines))])
    for k, text_line in enumerate(lines):
        if text_line.strip():
            b.line(text_line, Place(first + k, cell, "prose"))
            b.prose_numbers(text_line, Place(first + k, cell, "prose"))
    line = first
    for c in t.children or []:
        if c.type in ("softbreak", "hardbreak"):
            line += 1
        elif c.type in ("math_inline", "math_inline_double"):
            b.segment(Segment(c.content, line, "math", cell))
            line += c.content.count("\n")
    # numbers in prose outside math and code spans: "the weights are [0.2, 0.5, 0.3]"
    plain = _blank_spans(content)
    if re.search(r"\d", plain):
        toks = text_tokens(plain)
        read_tokens(toks, Segment(plain, first, "prose", cell, seg.line_map), b.doc, b.ctx, text_mode=True)


def _blank_spans(content: str) -> str:
    """Prose with $math$ blanked (same length, newlines kept); code spans stay (they are text)."""
    def blank(m: re.Match) -> str:
        return "".join("\n" if ch == "\n" else " " for ch in m.group(0))
    s = re.sub(r"\$\$.+?\$\$|\$[^$\n]+?\$", blank, content, flags=re.S)
    return s.replace("`", " ")


def _math_block(t, src_lines: list[str], b: Builder, line0: int, cell: int | None) -> None:
    raw = "\n".join(src_lines[t.map[0]:t.map[1]])
    content = t.content
    key = content.strip()[:30]
    idx = raw.find(key) if key else -1
    first = t.map[0] + (raw[:idx].count("\n") if idx >= 0 else 0)
    n = content.strip().count("\n") + 1
    body = content.strip()
    b.segment(Segment(body, first + line0, "math", cell, [first + line0 + k for k in range(n)]))


def read_latex(text: str, b: Builder) -> None:
    """A LaTeX document: math nodes, sections, tabular, verbatim and prose, by walking pylatexenc's tree."""
    from pylatexenc import latexwalker as lw
    from .tokens import latex_context
    w = lw.LatexWalker(text, latex_context=latex_context(), tolerant_parsing=True)
    try:
        nodes, _, _ = w.get_latex_nodes()
    except Exception:
        read_text(text, b)
        return
    starts = [0] + [k + 1 for k, ch in enumerate(text) if ch == "\n"]
    whole = Segment(text, 1, "prose")
    whole._starts = starts
    prose: list = []
    src_lines = text.split("\n")
    scanned: set[int] = set()

    def flush():
        if not prose:
            return
        a, z = prose[0].pos, prose[-1].pos + prose[-1].len
        chunk = text[a:z]
        seg = Segment(chunk, whole.line_of(a), "prose", None, None)
        lines = chunk.split("\n")
        for k, line in enumerate(lines):
            if line.strip():
                b.line(_detex(line), Place(seg.line + k, None, "prose"))
                ln = seg.line + k
                if ln not in scanned and ln <= len(src_lines):
                    scanned.add(ln)
                    raw = src_lines[ln - 1]
                    if "&" not in raw:
                        b.prose_numbers(_detex(raw), Place(ln, None, "prose"))
        prose.clear()

    def math(node):
        seg = Segment(text, 1, "math")
        seg._starts = starts
        toks = lw_tokens(node)
        read_tokens(toks, seg, b.doc, b.ctx, text_mode=False)

    def walk(ns):
        for n in ns or []:
            if n is None:
                continue
            if isinstance(n, lw.LatexMathNode):
                flush()
                math(n)
            elif isinstance(n, lw.LatexEnvironmentNode):
                name = n.environmentname
                if name in ("equation", "equation*", "align", "align*", "gather", "gather*", "displaymath",
                            "multline", "multline*", "eqnarray", "eqnarray*", "math", "flalign", "flalign*") or \
                        name in ("bmatrix", "pmatrix", "matrix", "vmatrix"):
                    flush()
                    math(n)
                elif name in ("verbatim", "lstlisting", "minted", "Verbatim", "python", "pycode"):
                    flush()
                    body = text[n.pos:n.pos + n.len]
                    inner = re.sub(r"^\\begin\{[^}]*\}(\{[^}]*\}|\[[^\]]*\])*\n?|\\end\{[^}]*\}$", "", body)
                    off = body.find(inner[:20]) if inner else 0
                    ln = whole.line_of(n.pos + max(0, off))
                    b.segment(Segment(inner, ln, "code" if name != "verbatim" else "output"))
                elif name in ("tabular", "tabular*", "tabularx", "longtable", "table"):
                    flush()
                    if name.startswith("tab") or name == "longtable":
                        _tabular(n, text, whole, b)
                    else:
                        walk(n.nodelist)
                else:
                    walk(n.nodelist)
            elif isinstance(n, lw.LatexMacroNode) and n.macroname in ("section", "subsection", "subsubsection",
                                                                     "paragraph", "chapter", "section*",
                                                                     "subsection*", "title"):
                flush()
                args = n.nodeargd.argnlist if n.nodeargd else []
                title = text[args[-1].pos + 1:args[-1].pos + args[-1].len - 1] if args and args[-1] is not None else ""
                level = {"chapter": 1, "section": 1, "subsection": 2, "subsubsection": 3, "paragraph": 4,
                         "title": 1}.get(n.macroname.rstrip("*"), 2)
                b.heading(_detex(title), level, Place(whole.line_of(n.pos), None, "heading"))
            elif isinstance(n, lw.LatexCharsNode):
                prose.append(n)
            elif isinstance(n, lw.LatexGroupNode):
                walk(n.nodelist)
            elif isinstance(n, lw.LatexMacroNode):
                if n.macroname in ("item",):
                    flush()
                elif n.macroname in ("textbf", "emph", "textit", "text"):
                    prose.append(n)
                elif n.nodeargd is not None and n.nodeargd.argnlist:
                    # \fitwidth{$...$}, \resizebox{..}{..}{$...$}, \fbox{...}: the math inside an argument
                    for arg in n.nodeargd.argnlist:
                        if arg is not None and (isinstance(arg, lw.LatexGroupNode) or
                                                isinstance(arg, lw.LatexMathNode)):
                            walk([arg] if isinstance(arg, lw.LatexMathNode) else arg.nodelist)
            elif isinstance(n, lw.LatexCommentNode):
                continue
        flush()

    def lw_tokens(node):
        from .tokens import nodes_to_toks
        if isinstance(node, lw.LatexMathNode):
            return nodes_to_toks(node.nodelist, 0)
        return nodes_to_toks([node], 0)

    walk(nodes)


def _tabular(n, text: str, whole: Segment, b: Builder) -> None:
    from pylatexenc import latexwalker as lw
    rows: list[tuple[int, list[str]]] = []
    body_nodes = n.nodelist or []
    pieces: list[list] = [[]]
    row_lines: list[int] = []
    for c in body_nodes:
        if isinstance(c, lw.LatexSpecialsNode) and c.specials_chars == "&":
            pieces.append([])
        elif isinstance(c, lw.LatexMacroNode) and c.macroname == "\\":
            rows.append((row_lines[0] if row_lines else whole.line_of(c.pos),
                         ["".join(text[x.pos:x.pos + x.len] for x in p).strip() for p in pieces]))
            pieces, row_lines = [[]], []
        elif isinstance(c, lw.LatexMacroNode) and c.macroname in ("hline", "toprule", "midrule", "bottomrule",
                                                                  "cline"):
            continue
        else:
            if (not isinstance(c, lw.LatexCharsNode) or c.chars.strip()) and not row_lines:
                lead = len(c.chars) - len(c.chars.lstrip()) if isinstance(c, lw.LatexCharsNode) else 0
                row_lines.append(whole.line_of(c.pos + lead))
            pieces[-1].append(c)
    if any(p for p in pieces if any(getattr(x, "chars", "x").strip() for x in p)):
        rows.append((row_lines[0] if row_lines else whole.line_of(n.pos),
                     ["".join(text[x.pos:x.pos + x.len] for x in p).strip() for p in pieces]))
    rows = [(ln, [re.sub(r"^\{.*?\}$", "", c) if False else c for c in cells]) for ln, cells in rows]
    read_table(b, rows, None)


def _detex(s: str) -> str:
    s = re.sub(r"\\(textbf|emph|textit|text|mathrm)\{([^{}]*)\}", r"\2", s)
    return s


# ------------------------------------------------------------------ HTML

def read_html(text: str, b: Builder, line0: int = 1, cell: int | None = None) -> None:
    from html.parser import HTMLParser

    class P(HTMLParser):
        def __init__(self):
            super().__init__(convert_charrefs=True)
            self.stack: list[str] = []
            self.skip = 0
            self.buf: list[tuple[int, str]] = []
            self.mode: list[str] = ["prose"]
            self.math_depth = 0
            self.mathml: list[str] = []
            self.math_line = 0
            self.annotation = None
            self.table: list[tuple[int, list[str]]] | None = None
            self.row: list[str] | None = None
            self.cellbuf: list[str] | None = None
            self.row_line = 0
            self.pre = None
            self.pre_line = 0
            self.script_tex = None
            self.heading = None
            self.heading_line = 0
            self.caption = None
            self.caption_line = 0
            self.table_caption = ""
            self.table_symbol = ""
            self.cell_is_th = False
            self.cell_line = 0
            self.last_math = None

        def line(self) -> int:
            return self.getpos()[0] + line0 - 1

        def flush(self):
            if not self.buf:
                return
            lines: dict[int, list[str]] = {}
            for ln, s in self.buf:
                parts = s.split("\n")
                for k, p in enumerate(parts):
                    lines.setdefault(ln + k, []).append(p)
            self.buf = []
            keys = sorted(lines)
            txt = "\n".join(" ".join(lines[k]) for k in keys)
            if not txt.strip():
                return
            read_text(txt, b, keys[0], cell, keys)

        def handle_starttag(self, tag, attrs):
            a = dict(attrs)
            if tag in ("br",):
                return
            if self.skip or a.get("aria-hidden") == "true" or tag in ("style", "head", "svg", "noscript") or \
                    "katex-html" in (a.get("class") or ""):
                if tag not in ("br", "img", "meta", "link", "input", "hr", "col", "area", "base", "wbr",
                               "source", "path", "circle", "rect", "line", "use"):
                    self.skip += 1
                return
            if tag == "script":
                typ = a.get("type") or ""
                if "math/tex" in typ:
                    self.script_tex = []
                    self.math_line = self.line()
                else:
                    self.skip += 1
                return
            if self.math_depth:
                self.math_depth += 1
                if tag == "annotation" and "tex" in (a.get("encoding") or "").lower():
                    self.annotation = []
                self.mathml.append(("<", tag))
                return
            if tag == "math":
                self.flush()
                self.math_depth = 1
                self.mathml = []
                self.annotation = None
                self.math_line = self.line()
                return
            if tag in ("h1", "h2", "h3", "h4", "h5", "h6"):
                self.flush()
                self.heading = []
                self.heading_line = self.line()
                return
            if tag == "table":
                self.flush()
                self.table = []
                self.table_symbol = a.get("data-symbol") or ""
                if not self.table_symbol and self.last_math and self.last_math[1] >= self.line() - 2 and \
                        re.search(r"(=|\\approx|≈)\s*$", self.last_math[0]):
                    self.table_symbol = re.sub(r"(=|\\approx|≈)\s*$", "", self.last_math[0]).strip()
                return
            if tag == "tr" and self.table is not None:
                self.row = []
                self.row_line = self.line()
                return
            if tag in ("td", "th") and self.row is not None:
                self.cellbuf = []
                self.cell_is_th = tag == "th"
                self.cell_line = self.line()
                return
            if tag == "pre" or (tag == "code" and self.pre is None and "block" in (a.get("class") or "")):
                self.flush()
                self.pre = []
                self.pre_line = self.line()
                self.pre_class = a.get("class") or ""
                return
            if tag == "caption" and self.table is not None:
                self.caption = []
                self.caption_line = self.line()
                return
            if tag in ("p", "div", "li", "section", "article", "blockquote", "figcaption", "caption", "dt", "dd"):
                self.flush()

        def handle_endtag(self, tag):
            if self.skip:
                if tag not in ("br",):
                    self.skip -= 1
                return
            if tag == "script" and self.script_tex is not None:
                tex = "".join(self.script_tex)
                self.script_tex = None
                self.emit_math(tex, self.math_line)
                return
            if self.math_depth:
                self.math_depth -= 1
                if tag == "annotation" and self.annotation is not None:
                    self.mathml.append(("tex", "".join(self.annotation)))
                    self.annotation = None
                    return
                self.mathml.append((">", tag))
                if self.math_depth == 0:
                    tex = next((x[1] for x in self.mathml if x[0] == "tex"), None)
                    if tex is None:
                        tex = mathml_to_tex(self.mathml)
                    self.emit_math(tex, self.math_line)
                return
            if tag in ("h1", "h2", "h3", "h4", "h5", "h6") and self.heading is not None:
                title = " ".join("".join(self.heading).split())
                self.heading = None
                b.heading(title, int(tag[1]), Place(self.heading_line, cell, "heading"))
                return
            if tag in ("td", "th") and self.cellbuf is not None and self.row is not None:
                text = " ".join("".join(self.cellbuf).split())
                if self.cell_is_th:
                    self.row.append(HeaderCell(text))
                else:
                    c = LinedCell(text)
                    c.line = self.cell_line
                    self.row.append(c)
                self.cellbuf = None
                return
            if tag == "tr" and self.row is not None and self.table is not None:
                self.table.append((self.row_line, self.row))
                self.row = None
                return
            if tag == "caption" and self.caption is not None:
                self.table_caption = " ".join("".join(self.caption).split())
                self.caption = None
                b.line(self.table_caption, Place(self.caption_line, cell, "prose"))
                return
            if tag == "table" and self.table is not None:
                rows, self.table = self.table, None
                read_table(b, rows, cell, self.table_caption, self.table_symbol)
                self.table_caption = ""
                self.last_math = None
                return
            if tag == "pre" and self.pre is not None:
                body = "".join(self.pre)
                self.pre = None
                lead = len(body) - len(body.lstrip("\n"))
                where = "code" if re.search(r"python|language-py|highlight-py", self.pre_class) else "output"
                if where == "output":
                    from .pycode import read_python
                    if read_python(body).parsed and re.search(r"^\s*\w+\s*=|import ", body, re.M):
                        where = "code"
                b.segment(Segment(body.lstrip("\n"), self.pre_line + lead, where, cell))
                return
            if tag in ("p", "div", "li", "section", "article", "blockquote", "figcaption", "caption", "dt", "dd"):
                self.flush()

        def pending_label(self) -> str:
            return ""

        def emit_math(self, tex: str, line: int):
            # inline math stays in the running prose (for labels and hints) and is read as math
            self.last_math = (tex, line)
            if self.cellbuf is not None:
                self.cellbuf.append(tex)
                return
            if self.heading is not None:
                self.heading.append(tex)
                return
            if self.caption is not None:
                self.caption.append(" $" + tex + "$ ")
                return
            self.buf.append((line, " $" + " ".join(tex.split("\n")) + "$ "))

        def handle_data(self, data):
            if self.skip:
                return
            if self.script_tex is not None:
                self.script_tex.append(data)
                return
            if self.math_depth:
                if self.annotation is not None:
                    self.annotation.append(data)
                else:
                    self.mathml.append(("t", data))
                return
            if self.heading is not None:
                self.heading.append(data)
                return
            if self.caption is not None:
                self.caption.append(data)
                return
            if self.cellbuf is not None:
                self.cellbuf.append(data)
                return
            if self.pre is not None:
                self.pre.append(data)
                return
            self.buf.append((self.line(), data))

    p = P()
    try:
        p.feed(text)
        p.close()
    except (AssertionError, ValueError, RecursionError):
        pass
    p.flush()


_MO = {"×": "\\times ", "·": "\\cdot ", "⋅": "\\cdot ", "−": "-", "≈": "\\approx ", "∈": "\\in ", "⊤": "^T",
       "…": "\\cdots ", "⋯": "\\cdots ", "⋮": "\\vdots ", "⋱": "\\ddots ", "∞": "\\infty ", "√": "\\sqrt "}


def mathml_to_tex(events: list[tuple[str, str]]) -> str:
    """A little MathML (mi, mn, mo, msup, msub, mfrac, msqrt, mtable) as TeX, for pages without a TeX annotation."""
    pos = 0

    def node() -> str:
        nonlocal pos
        if pos >= len(events):
            return ""
        kind, val = events[pos]
        if kind == "t":
            pos += 1
            return _MO.get(val.strip(), val)
        if kind != "<":
            pos += 1
            return ""
        tag = val
        pos += 1
        kids: list[str] = []
        while pos < len(events) and not (events[pos][0] == ">" and events[pos][1] == tag):
            kids.append(node())
        pos += 1
        if tag == "msup" and len(kids) >= 2:
            return "{" + kids[0] + "}^{" + kids[1] + "}"
        if tag == "msub" and len(kids) >= 2:
            return "{" + kids[0] + "}_{" + kids[1] + "}"
        if tag == "msubsup" and len(kids) >= 3:
            return "{" + kids[0] + "}_{" + kids[1] + "}^{" + kids[2] + "}"
        if tag == "mfrac" and len(kids) >= 2:
            return "\\frac{" + kids[0] + "}{" + kids[1] + "}"
        if tag == "msqrt":
            return "\\sqrt{" + "".join(kids) + "}"
        if tag == "mtable":
            return "\\begin{bmatrix}" + " \\\\ ".join(k for k in kids if k.strip()) + "\\end{bmatrix}"
        if tag == "mtr":
            return " & ".join(k for k in kids if k is not None)
        if tag in ("mtext",):
            return "\\text{" + "".join(kids) + "}"
        return " ".join(kids) if tag in ("mrow", "math", "mstyle", "semantics", "mtd", "mpadded") else "".join(kids)

    out = []
    while pos < len(events):
        out.append(node())
    return " ".join(out)


# ------------------------------------------------------------------ notebooks

def read_notebook(text: str, b: Builder) -> None:
    nbformat = _need("nbformat", "nbformat")
    try:
        nb = nbformat.reads(text, as_version=4)
    except Exception as e:                     # nbformat's own errors name what is wrong with the file
        from ..inputs import MHAInputError
        raise MHAInputError(f"doc: not a readable notebook ({type(e).__name__}: {str(e)[:120]})") from None
    for k, cell in enumerate(nb.cells, start=1):
        if not isinstance(cell, dict):
            continue
        src = _text_of(cell.get("source", ""))
        kind = cell.get("cell_type")
        if kind == "markdown":
            read_markdown(src, b, 1, k)
        elif kind == "code":
            b.segment(Segment(src, 1, "code", k))
            n_src = src.count("\n") + 1
            outs = cell.get("outputs", [])
            shown = 0                          # lines of the cell's output area above this output
            for out in outs if isinstance(outs, list) else []:
                if not isinstance(out, dict):
                    continue
                body = None
                result = False
                if out.get("output_type") == "stream":
                    body = _text_of(out.get("text", ""))
                elif out.get("output_type") in ("execute_result", "display_data"):
                    data = out.get("data", {})
                    data = data if isinstance(data, dict) else {}
                    body = _text_of(data["text/plain"]) if "text/plain" in data else None
                    result = out.get("output_type") == "execute_result"
                    if body is None and "text/html" in data:
                        read_html(_text_of(data["text/html"]), b, 1, k)
                        continue
                if not body:
                    continue
                seg = Segment(body, OUTPUT_LINE(n_src) + shown, "output", k)
                shown += body.count("\n") + (not body.endswith("\n"))
                seg.result = result
                b.output(seg)
        else:
            read_text(src, b, 1, k)


def _text_of(x) -> str:
    """A notebook string field: a string or a list of strings (anything else reads as nothing)."""
    if isinstance(x, str):
        return x
    if isinstance(x, list):
        return "".join(s for s in x if isinstance(s, str))
    return ""


def OUTPUT_LINE(n_src: int) -> int:
    """Outputs are located by the line inside the cell's output area (1-based, the outputs one after the other,
    as the notebook shows them), in the code cell's number."""
    return 1


# ------------------------------------------------------------------ entry point

FORMATS = ("md", "tex", "ipynb", "html", "txt")


def sniff(text: str, name: str = "") -> str:
    """The format from the file name, else from the content."""
    low = name.lower()
    for ext, fmt in ((".ipynb", "ipynb"), (".tex", "tex"), (".html", "html"), (".htm", "html"),
                     (".md", "md"), (".markdown", "md"), (".txt", "txt"), (".text", "txt")):
        if low.endswith(ext):
            return fmt
    head = text.lstrip()[:2000]
    if head.startswith("{") and '"cells"' in text[:200000] and '"nbformat"' in text:
        return "ipynb"
    if re.search(r"<!DOCTYPE html|<html[\s>]|<body[\s>]", head, re.I):
        return "html"
    if re.search(r"\\documentclass|\\begin\{document\}", head):
        return "tex"
    if re.search(r"^#{1,6} |^```|^\|.*\|\s*$", text[:20000], re.M):
        return "md"
    return "txt"


def read_document(text: str, fmt: str) -> Document:
    b = Builder(fmt)
    match fmt:
        case "md":
            read_markdown(text, b)
        case "tex":
            read_latex(text, b)
        case "ipynb":
            read_notebook(text, b)
        case "html":
            read_html(text, b)
        case _:
            read_text(_unnumber(text), b)
    doc = b.finish()
    doc.n_lines = text.count("\n") + 1
    return doc
