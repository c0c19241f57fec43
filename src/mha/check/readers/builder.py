"""The `Builder`: what every reader feeds, in document order, and what a reader keeps in mind.

A reader only cuts its document into `Segment`s (math, prose, code, output, table, heading) that know
their file lines; the Builder reads each segment and keeps the context (the heading, the head and row
named in the prose, declared approximations, hints such as "causal" or "2 heads").
"""

from __future__ import annotations

import re

from .. import labels as lb
from .. import labelwords as lw
from ..objects import Context, Document, Hint, Place, ShapePart, ShapeProduct
from .common import Segment, line_offset, own_words
from .drawn import text_tokens
from .dropout import DroppedPrints, DropState, after_dropout
from .continued import token_named_rows
from .frames import unwrap_frames
from .headobjects import head_objects
from .prose import _READING, reading
from .python import read_code, read_output
from .sidebyside import side_by_side
from .statements import read_tokens
from .tokens import walk_latex
from .vectortable import vector_tables
from .listed import listed_rows_in_text
from .magnitude import magnitudes
from .workedlists import paired_lists, worked_lists


class Builder:
    """Reads segments in document order, keeping what a reader keeps in mind."""

    def __init__(self, fmt: str):
        self.doc = Document(format=fmt)
        self.ctx = Context()
        self.levels: list[tuple[int, int | None, str | None]] = []    # (heading level, head, step)
        self.pending_output_labels: list[str] = []
        self.pending_displays: list[str] = []     # what each display(x) of the last code shows, in order
        self.last_expr: str | None = None
        self.loops: list = []                     # the last code's loops printing a matrix entry a line (looped.py)
        self.calls: dict[str, str] = {}          # name -> the call it was last assigned (python.py)
        self.shapes: tuple[dict, dict, dict] = ({}, {}, {})   # tensors, attention modules, their results (torchshapes)
        self.drop_state = DropState()              # names holding dropped values, across cells
        self.pending_dropped = DroppedPrints()     # which prints of the last code passed through dropout
        self.words_since_code = True               # prose between the last code and an output: not its printout
        self.headings_since_code: list[str] = []   # the headings between the last code and now
        self.shown_names: list[str] = []           # the names outputs since the last code were given
        self.code_values: dict = {}                # inputs given as code, by name, across cells (codevalue.py)
        self.code_computed: set[str] = set()       # names code computed (`w = softmax(s)`), across cells
        self.carried = False                       # the document declares rounding carried forward (labels.py)
        self.code_texts: list[tuple[str, Place]] = []   # every piece of code, for what it says as a whole
        self.worded_math: set[tuple[int, int | None]] = set()   # inline "$= 416{,}256$" after words (markdown.py)
        self.source: list[str] = []         # the document's lines (not a notebook's), as the readers got them

    # ---------------------------------------------------------- context
    def heading(self, text: str, level: int, place: Place) -> None:
        self.doc.headings.append(place)
        while self.levels and self.levels[-1][0] >= level:
            self.levels.pop()
        head = lb.head_in(text)
        step = lb.step_in(text)
        self.levels.append((level, head, step))
        self.ctx.heading = text.strip()
        self.ctx.head = next((h for _, h, _ in reversed(self.levels) if h is not None), None)
        self.ctx.step = next((s for _, _, s in reversed(self.levels) if s is not None), None)
        self.ctx.row = None
        self.ctx.approx = bool(lb.APPROX_WORDS.search(text)) or self.carried
        self.ctx.batch = batch_in(text)
        self.ctx.partial = bool(_PARTIAL.search(text))
        self.ctx.dropout = after_dropout(text)
        self.words_since_code = True
        self.headings_since_code.append(text.strip())
        self.hints(text, place)

    def prose_context(self, text: str, place: Place) -> None:
        h = lb.head_in(text)
        if h is not None and not _READING.search(text):
            self.ctx.head = h
        r = lb.row_in(text)
        if r is not None:
            self.ctx.row = r
        if lb.CARRIED_ROUNDING.search(text):
            self.carried = True               # declared for the whole document: it outlives the headings
        if self.carried or lb.APPROX_WORDS.search(text):
            self.ctx.approx = True
        b = batch_in(text)
        if b is not None:
            self.ctx.batch = b
        self.ctx.before = text.strip()[-120:]
        self.ctx.dropout = after_dropout(text)
        self.hints(text, place)

    def hints(self, text: str, place: Place) -> None:
        for kind, rx in _HINTS:
            m = rx.search(text)
            if m and kind == "unscaled" and _WOULD.search(text):
                continue            # "Without scaling, weights would be about (0.98, 0.02, 0.00)": the other reading
            if m:
                value = next((g for g in m.groups() if g), True) if m.groups() else True
                if kind == "heads" and m.group(4) and lw.h_is_head_size(text):
                    kind = "head_dim"       # "T = 4, C = 6, H = 3": a head's size in that notation
                self.doc.hints.append(Hint(kind, value, place, text.strip()[:160]))
        self.identity_hints(text, place)

    def identity_hints(self, text: str, place: Place) -> None:
        """"W_Q, W_K and W_V are the identity": a hint per weight the text names with such a word.  Written as a
        symbol (`$W_Q = I$`, `W_q = np.eye(3)`), only the weights set equal to it are (`$W_K = [..]$, $W_V = 2I$`
        on the same line are not).  A weight set to the identity times a number (`W_Q = np.eye(4) * 0.5`,
        `$W_V = 2I$`) is that number times it: a hint of its own."""
        scaled = set()
        for m in [*_SCALED_EYE.finditer(text), *_SCALED_I.finditer(text)]:
            factor = float(m.group("a") or m.group("b") or 1) / float(m.group("c") or 1)
            which = m.group(1).upper()
            scaled.add(which)
            self.doc.hints.append(Hint("scaled_identity", ("W_" + which, factor), place, text.strip()[:160]))
        if _IDENTITY.search(text):
            names = re.findall(r"W_?\{?\^?\{?([QKVOqkvo])\}?|\bW([qkvo])\b|\b([qkvo])_?proj", text)
        else:
            names = [w for m in _SET_TO_I.finditer(text[:2000]) for w in re.findall(_W_NAME, m.group(1))]
        for g in names:
            which = next(x for x in g if x).upper()
            if which not in scaled:
                self.doc.hints.append(Hint("identity", "W_" + which, place, text.strip()[:160]))
        if not names and not scaled and _IDENTITY.search(text) and \
                re.search(r"all (the )?weights|所有权重|权重矩阵都", text, re.I):
            for w in "QKV":
                self.doc.hints.append(Hint("identity", "W_" + w, place, text.strip()[:160]))

    # ---------------------------------------------------------- segments
    def segment(self, seg: Segment) -> None:
        if not seg.text.strip():
            return
        if seg.where in ("code", "output", "prose") and "{" in seg.text and "head" in seg.text.lower():
            # `const head2 = { W_query: [[..]] }`: head 2's weights, named so (headobjects.py)
            seg = Segment(head_objects(seg.text), seg.line, seg.where, seg.cell, seg.line_map)
        if seg.where in ("output", "code", "prose", "comment") and "[" in seg.text and "=" in seg.text:
            # " X = the [ 1 0 ]" over "     cat [ 0 2 ]": one matrix named X, its rows named by tokens (continued.py)
            seg = Segment(token_named_rows(seg.text), seg.line, seg.where, seg.cell, seg.line_map)
        if seg.where in ("output", "code", "prose", "comment") and "\\" in seg.text:
            # a pandas frame wrapped into blocks of columns, joined into one (frames.py); every line kept in place
            seg = Segment(unwrap_frames(seg.text), seg.line, seg.where, seg.cell, seg.line_map)
        if seg.where in ("output", "prose", "comment"):
            seg = side_by_side(seg)         # `Q = [[..],   V = [[..],` typed side by side over several lines
        match seg.where:
            case "math":
                seg = paired_lists(seg)     # `e^{0.71}, e^{0} = 2.03, 1`: an equation per item
                if re.search(r"\d%(?!\n)", seg.text):
                    # `$1.0 / 4.0 = 25%$`: a percent sign typed after a number, not a comment that hides the rest of
                    # its line (a .tex line that ends in `0.5%` keeps its comment)
                    seg = Segment(re.sub(r"(?<=\d)%(?!\n)", r"\\%", seg.text), seg.line, seg.where, seg.cell,
                                  seg.line_map)
                toks = walk_latex(seg.text)
                read_tokens(toks, seg, self.doc, self.ctx, text_mode=False)
            case "heading":
                self.heading(_strip_heading(seg.text), _heading_level(seg.text), seg.place(0))
                self.text(seg, prose=False)
            case "code":
                read_code(self, seg)
            case "output":
                read_output(self, seg)
            case _:
                self.text(seg, prose=True)

    def text(self, seg: Segment, prose: bool = True) -> None:
        """Prose, comments, output: lines of plain text, with bracket matrices and readings."""
        seg = vector_tables(self, seg)     # Token | Query | Key | Value drawn in text, a vector per cell
        at: dict[int, Context] = {}
        if prose:
            for k, line in enumerate(seg.text.split("\n")):
                if line.strip():
                    place = Place(seg.line_of(line_offset(seg.text, k)), seg.cell, seg.where)
                    self.line(line, place)
                    at[place.line] = Context(**{**self.ctx.__dict__})
        seg = worked_lists(seg)            # [0.42/2=0.21, 0.29/2=0.145]: a vector, and a sum per item
        listed_rows_in_text(self, seg)     # "After softmax:" over "- cat: 0.34" lines (listed.py)
        toks = text_tokens(seg.text)
        read_tokens(toks, seg, self.doc, self.ctx, text_mode=True, ctx_at=at.get if at else None)

    def line(self, line: str, place: Place) -> None:
        """One line of prose: a reading of one entry, or context for what follows."""
        self.words_since_code = True
        if not reading(self, line, place):
            self.prose_context(line, place)
        else:
            self.hints(line, place)

    def finish(self) -> Document:
        for k, a in enumerate(self.doc.arrays):
            a.id = k
        # a display that starts with "=" continues the display just above it:
        #   \[ score = (0.22)(0.54) + (0.64)(0.36) \]   \[ = 0.1188 + 0.2304 \approx 0.349 \]
        # (not an inline "$= 416{,}256$" after words of its own: "Decoder RNN: identical shape $= 416{,}256$")
        chains = self.doc.chains
        for k in range(1, len(chains)):
            c, p = chains[k], chains[k - 1]
            m = re.match(r"\s*(=|≈|≃|~|\\approx)", c.text)
            if m and p.parts and c.place.where == p.place.where == "math" and c.place.cell == p.place.cell and \
                    0 < c.place.line - p.place.line <= 8 and len(c.rels) == len(c.parts) - 1 and \
                    (c.place.line, c.place.cell) not in self.worded_math and not self._worded_row(c.place.line) \
                    and not self._worded_inline(c.place.line):
                c.parts = [p.parts[-1]] + c.parts
                c.rels = ["≈" if m.group(1) in ("≈", "≃", "~", "\\approx") else "="] + c.rels
        self.doc.chains = [c for c in chains if len(c.parts) >= 2 or
                           any(isinstance(p, (ShapePart, ShapeProduct)) for p in c.parts)]
        for c in self.doc.chains:
            magnitudes(c)
        if not any(h.kind in ("head_word", "heads") for h in self.doc.hints):
            # heads named in code, a formula or a label (`num_heads=2`, `\text{head}_1`): the page speaks of heads
            said = next((p for t, p in self.code_texts if HEAD_WORD.search(t)), None) or next(
                (c.place for c in self.doc.chains if HEAD_WORD.search(c.text)), None) or next(
                (a.place for a in self.doc.arrays if HEAD_WORD.search(a.label or "")), None)
            if said is not None:
                self.doc.hints.append(Hint("head_word", True, said, "heads named"))
        unscaled = unscaled_in_code(self.code_texts)
        if unscaled is not None and not any(h.kind in ("unscaled", "scale", "scale_sqrt") for h in self.doc.hints):
            self.doc.hints.append(Hint("unscaled", True, unscaled, "scores computed in code with no scale"))
        return self.doc


    def _worded_inline(self, line: int) -> bool:
        """`<li>Large positive scores $\\to$ probability $\\approx 1$`: inline math that opens with its relation
        after words of its own on a page's line (an HTML or text page; markdown.py marks its own), the value of
        those words, not the result of the formula above."""
        if self.doc.format not in ("html", "txt") or not 0 < line <= len(self.source):
            return False
        row = self.source[line - 1]
        m = re.search(r"\$\s*(?:=|≈|\\approx|\\sim)", row)
        if m is None:
            return False
        before = re.sub(r"<[^>]*>|\$[^$]*\$", " ", row[:m.start()])
        return own_words(before)

    def _worded_row(self, line: int) -> bool:
        r"""`\text{Training step (3× forward):} \quad &\approx 290`: an aligned row whose words, before its
        relation, name a quantity of its own; its value is not the result of the row above (here a FLOP count
        three rows up, with a row of its own between them)."""
        if not 0 < line <= len(self.source):
            return False
        row = self.source[line - 1]
        # (an aligned row: its words stand before the alignment mark; "所以 $\approx 3$", a connective before
        # inline math, goes on with the formula above, as markdown.py reads it)
        if "&" not in row:
            return False
        return _ROW_WORDS.search(_TEX_SPACING.sub(" ", row[:row.index("&")])) is not None


_TEX_SPACING = re.compile(r"\\(?:begin\{\w+\*?\}|\[|quad|qquad|[,;:! ])")
_ROW_WORDS = re.compile(r"[A-Za-z\u00c0-\u024f]{3,}|[\u4e00-\u9fff]")


HEAD_WORD = re.compile(r"(?i)\bheads?\b|\bhead_?\d|multi-?head|\bn_?heads?\b|num_?heads|head_?dim|d_?head|"
                       r"多头|注意力头|[个每各两三四]\s*头|头数|第\s*\S{1,2}\s*个?头|头\s*\d|ヘッド|헤드|"
                       r"\bcabezas?\b|\bcabeças?\b|\btêtes?\b|\bköpfe\b|голов")


# scores = q @ k.T, torch.matmul(q, k.transpose(-2, -1)), np.dot(Q, K.T): the product of queries and keys
_SCORES_IN_CODE = re.compile(r"^\s*([A-Za-z_]\w*)\s*=\s*(?:[A-Za-z_][\w.]*\s*@\s*[A-Za-z_][\w.]*\.(?:T|t\(\)|transpose\()|"
                             r"(?:torch\.|np\.)?(?:matmul|dot|bmm|mm)\(\s*[A-Za-z_][\w.]*\s*,\s*[A-Za-z_][\w.]*\.(?:T|t\(\)|"
                             r"transpose\())", re.M)


def unscaled_in_code(code_texts: list[tuple[str, Place]]) -> Place | None:
    """Where the code computes its scores as Q Kᵀ and nothing in any of it scales them (no square root, no
    `/ d`, no `scale`): the document's attention is unscaled, as the Illustrated-Attention notebooks are.  None
    when the code says nothing of scores, or scales them somewhere."""
    code = "\n".join(t for t, _ in code_texts)
    names = {m.group(1) for m in _SCORES_IN_CODE.finditer(code)}
    if len(names) != 1 or "softmax" not in code:
        return None
    name = next(iter(names))
    if re.search(r"sqrt|\*\*\s*0?\.5|\bscal(?:e|ing)|temperature|\b" + re.escape(name) + r"\s*(?:/|\*|/=|\*=)", code):
        return None
    return next(p for t, p in code_texts if _SCORES_IN_CODE.search(t))


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


def batch_in(text: str) -> int | None:
    m = re.search(r"\b(?:batch|sequence|sample|序列|样本)\s*(?:#|b\s*=\s*)?(\d+)\b|第\s*(\d+)\s*(?:条|个)(?:序列|样本)",
                  text, re.I)
    if not m:
        return None
    return int(m.group(1) or m.group(2))


_PARTIAL = re.compile(r"online softmax|tiled|flash[- ]?attention|key block|分块|在线\s*softmax|逐块", re.I)


_IDENTITY = re.compile(r"identity|单位矩阵|單位矩陣|恒等|単位行列|단위\s?행렬|항등\s?행렬|identidad|identidade|identité|"
                       r"einheitsmatrix", re.I)
# the identity as a symbol, and the weights set equal to it: `W_Q = W_K = I`, `$W_V = \mathbf{I}$`, `W_q = np.eye(3)`
_W_NAME = r"W_?\{?\^?\{?([QKVOqkvo])\}?\}?|\bW([qkvo])\b"        # (the same names, with groups)
_SET_TO_I = re.compile(r"((?:(?:W_?\{?\^?\{?[QKVOqkvo]\}?\}?|\bW[qkvo]\b)\s*=\s*)+)"
                       r"(?:I(?:_\d+|_\{\d+\})?\b(?![.\d])|\\mathbf\{I\}|\\mathbb\{I\}|"
                       r"(?:np|numpy|torch)\.(?:eye|identity)\()")
# `$W_V = 2I$`, `W_K = 0.5 \mathbf{I}`: a number times the identity written as a symbol
_SCALED_I = re.compile(r"\bW_?\{?([QKVqkv])\}?\s*=\s*(?P<b>\d+(?:\.\d+)?)\s*(?:\\cdot|\*|\\times)?\s*"
                       r"(?:I(?:_\d+|_\{\d+\})?\b|\\mathbf\{I\}|\\mathbb\{I\})(?P<a>)(?P<c>)")
# `W_Q = np.eye(4) * 0.5`, `W_k = 0.5 * torch.eye(4)`, `W_V = np.eye(4) / 2`: the identity times a number
_EYE_CALL = r"(?:np|numpy|torch)\.(?:eye|identity)\(\s*\d+\s*\)"
_SCALED_EYE = re.compile(r"\bW_?\{?([QKVqkv])\}?\s*=\s*(?:(?P<b>\d+(?:\.\d+)?)\s*\*\s*" + _EYE_CALL + r"|" + _EYE_CALL +
                         r"\s*(?:\*\s*(?P<a>\d+(?:\.\d+)?)|/\s*(?P<c>\d+(?:\.\d+)?)))(?![\d.])")
# a sentence about what would happen otherwise ("Without scaling, the weights would be ...")
_WOULD = re.compile(r"(?i)\bwould\b|\bwill\s+(?:instead|otherwise)\b|否则|如果不|不缩放的话")
_HINTS = [
    ("cross", lw.CROSS_ATTENTION),
    ("causal", re.compile(r"causal|因果|look[- ]ahead mask|future (tokens|positions)|下三角|上三角.*(-\s*∞|-inf|屏蔽)|"
                          r"masked (self-)?attention|decoder mask", re.I)),
    ("unscaled", re.compile(r"without (the )?scal|no scal|not scaled|unscaled|skip(ping)? the scal|不(做|进行)?缩放|"
                            r"省略.{0,6}缩放|without dividing|omit.{0,20}(√|sqrt)", re.I)),
    ("no_wo", re.compile(r"no output projection|without (an? )?(output projection|W_?\^?\{?O)|no W_?\^?\{?O|"
                         r"没有输出投影|不做输出投影|省略.{0,4}W_?O", re.I)),
    # "with `head_dim=2`" in prose: a head's width, said outside any formula the chains read
    ("head_dim", re.compile(r"(?<![\w.])(?:head_dim|head_size|d_head|dim_head)\s*=\s*(\d+)\b")),
    ("heads", re.compile(r"(?<![\w.])(\d+)\s*(?:attention\s+)?heads\b|(\d+)\s*个\s*(?:head|头)|"
                         r"(?<![\w.])(?:num_heads|n_heads|nhead|num_attention_heads|h)\s*=\s*(\d+)\b|\bH\s*=\s*(\d+)|"
                         r"([一二两三四五六七八])\s*个\s*(?:head|头)", re.I)),
    # "scaled by 1/sqrt(4)" states √4, not 1: a number followed by "/" is a numerator
    ("scale", re.compile(r"(?:divide[ds]? by|scaled? by|除以|scale\s*=)\s*(?:√|\\sqrt\{?|sqrt\()?\s*(\d+(?:\.\d+)?)"
                         r"(?![\d.]*\s*/)", re.I)),
    # "kq_scale = 1/8", "scale = 1/√64": the factor written as a fraction
    ("scale", re.compile(r"scale\s*=\s*1\s*/\s*(\d+(?:\.\d+)?)(?![\d.])", re.I)),
    ("scale_sqrt", re.compile(r"scale\s*=\s*1\s*/\s*(?:√|\\sqrt\{?|sqrt\()\s*(\d+)", re.I)),
    # "√d_k = 1.41": the rounded divisor the author then divides by (0.84 / 1.41 = 0.60, not 0.84 / √2 = 0.59)
    ("scale", re.compile(r"(?:√|\\sqrt\s*\{?|sqrt\()\s*\{?\s*d_?\{?k\}?\s*[})]*\s*(?:=|≈|\\approx|約|约)\s*"
                         r"(\d+\.\d+)(?![\d.]*\s*/)")),
    # "scores = [2, 1] / sqrt(4) = [1.0, 0.5]": a vector divided by a root written with its number
    ("scale_sqrt", re.compile(r"\]\s*[/÷]\s*(?:√|\\sqrt\{?|(?:np\.|math\.)?sqrt\()\s*(\d+)")),
    # "With scaling (÷ √512 ≈ 22.6)": a division sign before a root with its number
    ("scale_sqrt", re.compile(r"(?:^|[\s(（])÷\s*(?:√|\\sqrt\{?|sqrt\()\s*(\d+)")),
    # "Scale by √d_k (÷1.414)": the rounded divisor the author then divides by
    ("scale", re.compile(r"(?:^|[\s(（])÷\s*(\d+\.\d+)(?![\d.])")),
    ("scale_sqrt", re.compile(r"(?:divide[ds]? by|scaled? by|除以|scale\s*=)\s*(?:\$|\\\()?\s*(?:1\s*/\s*)?(?:√|\\sqrt\{?|sqrt\(|"
                              r"(?:the\s+)?square\s+root\s+of\s+)\s*(\d+)", re.I)),
    # "Without the √2 the logits are ±1, giving α₁₁ = 0.88": a number the line says comes from a slip or another
    # choice (the trap, the mistake), not the example's own (claims/restated.py)
    ("whatif", re.compile(r"\b(?:without|forgetting|forget|forgot|omitting|skipping|dropping) (?:the |to )?"
                          r"(?:\$|√|\\sqrt|sqrt|1/√|division|divid)|"
                          r"\bif (?:we|you|one) (?:had )?(?:forg[oe]t|skip|omit|drop|leave out|left out)|"
                          r"\bhad (?:we|you) (?:not|forgotten|skipped|omitted)|\b(?:the|a common) (?:trap|mistake|pitfall)\b|"
                          r"(?:如果|若)(?:忘|不除|没有除|漏)|常见(?:的)?错误|"
                          # "zeroing the forbidden weights *after* the softmax would leave the row (.., 0)": the
                          # wrong way to mask, shown
                          r"\bafter\W{0,2}\s+(?:the\s+)?softmax\b.{0,80}\bwould\b|"
                          r"\bwould\b.{0,60}\bafter\W{0,2}\s+(?:the\s+)?softmax\b", re.I)),
    # "Given:", "Let", "已知": the values after it are an exercise's inputs (claims/array.py: _exercise_given)
    ("given", re.compile(r"^\W{0,4}(?:given|let|suppose|assume|consider)\b|^\W{0,4}(?:已知|给定|假设|设)", re.I)),
    # any word for heads: a page that never names one works a single head, whatever its widths divide into
    ("head_word", HEAD_WORD),
    ("padding", re.compile(r"padding|填充|pad token|key_lengths|key lengths", re.I)),
    ("rope", re.compile(r"\brope\b|rotary|rotate_half|旋转位置|旋转编码|回転位置|회전 위치", re.I)),
    ("alibi", re.compile(r"\balibi\b|attention with linear biases", re.I)),
    ("batch", re.compile(r"batch", re.I)),
    # a weight that multiplies a token's vector from the left (`q_i = W_Q x_i`, `k = W^K x`): the page's vectors are
    # columns, and Q = X W_Qᵀ in rows (infer/candidates.py: the weights transposed, on a tie)
    ("w_left", re.compile(r"(?<![A-Za-z])W\s*(?:_|\^)\s*\{?\s*\(?[QKVqkv]\)?\s*\}?\s*(?:\\cdot|·|\\,)?\s*"
                          r"(?:\\mathbf\{|\\boldsymbol\{|\\vec\{)?x\}?\s*(?:_|(?![\w(]))")),
    # tokens kept as columns: the scores K Qᵀ with a column per query, the softmax down each column
    ("columns", re.compile(r"(?:one )?column per (?:query|token)|down each column|each column of \S+ sums to (?:1|one)|"
                           r"\bK\s*Q\s*\^\s*\{?\s*(?:\\top|T)\b|\bKQᵀ|每一列(?:对应|是)一个(?:查询|词)", re.I)),
]
SCALE_HINTS = [(kind, rx) for kind, rx in _HINTS if kind in ("scale", "scale_sqrt")]
