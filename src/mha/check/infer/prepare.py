"""The document's arrays made ready for matching: each with its labels resolved, its grid of printed intervals
and the hints of the prose around it; whether the document counts heads and rows from 0 or from 1; and the
family of intermediates a label may name."""

from __future__ import annotations

import re
from dataclasses import dataclass, field, replace
from typing import Any

import numpy as np

from .. import labels as lb
from ..objects import Array, Document
from ..readers.builder import batch_in

MAX_OBJECTS = 600


@dataclass
class Obj:
    """A printed array with what it says about itself, ready to be compared with views."""
    a: Array
    ref: lb.Ref | None                    # the nearest label
    refs: list = field(default_factory=list)   # every label of its chain: W_1^Q = W_1^K = I = [...]
    lo: np.ndarray | None = None          # 2-D grids (None when elided or ragged)
    hi: np.ndarray | None = None
    val: np.ndarray | None = None
    slices: int = 1                       # N-D printouts: how many 2-D slices are stacked in the grid
    head_hint: int | None = None          # 0-based head from the surrounding prose
    batch_hint: int | None = None
    row_hint: int | None = None           # 1-based row from the surrounding prose ("the first row")
    n: int = 0
    other_layer: bool = False             # under a heading about a convolution or the feed-forward layer only

    @property
    def shape(self) -> tuple[int, int] | None:
        return None if self.val is None else self.val.shape

    @property
    def slice_shape(self) -> tuple[int, int] | None:
        if self.val is None:
            return None
        return (self.val.shape[0] // self.slices, self.val.shape[1])


# Labels that number keys and values: rows count the cached keys first, heads count K/V heads.
KEY_SIDE = frozenset({"K", "V", "Kh", "Vh", "Kr", "Vr", "Kc", "Vc"})
# ... and what has one row per query: with one query its rows are that query's, whatever a label's subscript says
QUERY_SIDE = frozenset({"Q", "Qh", "Qr", "QKt", "S", "E", "A", "O", "O_concat", "Y"})


@dataclass
class Bases:
    """Whether the document counts heads and rows from 0 (code) or from 1 (prose and papers)."""
    head: int = 1
    row: int = 1
    # set once the configuration is known (judge): a decoding step with a KV cache numbers its query rows by
    # their position after the cached tokens; grouped-query attention numbers its K/V by K/V head
    query: int = 0                        # tokens before query row 0 (cached ones)
    kv_heads: tuple[int, ...] | None = None   # for each K/V head, the first query head that uses it (G < H)

    def resolve(self, ref: lb.Ref | None) -> lb.Ref | None:
        if ref is None:
            return None
        key_side = ref.nodes[0] in KEY_SIDE
        head = None if ref.raw_head is None else ref.raw_head - self.head
        if head is not None and key_side and self.kv_heads is not None and 0 <= head < len(self.kv_heads):
            head = self.kv_heads[head]
        return replace(ref, head=head,
                       row=None if ref.raw_row is None else ref.raw_row - self.row - (0 if key_side else self.query),
                       col=ref.col if ref.raw_col is None else ref.raw_col - self.row)

    def with_config(self, cfg: Any) -> "Bases":
        from ...explanation.tokens import first_query
        kv = None
        if 0 < cfg.G < cfg.n_heads:
            kv = tuple(next(h for h in range(cfg.n_heads) if cfg.group(h) == g) for g in range(cfg.G))
        return replace(self, query=first_query(cfg), kv_heads=kv)


    def label(self, text: str) -> lb.Ref | None:
        return self.resolve(lb.parse_label(text))


def _entries_from_zero(doc: Document) -> bool:
    """A scalar named by a row and a column, one of them 0 (`α_{10} = 0.198`, `A[0, 2] = 0.31`): the document
    numbers entries from 0, as an array labelled with a row 0 says."""
    from ..objects import LabelPart
    for c in doc.chains[:MAX_OBJECTS]:
        for p in c.parts:
            if isinstance(p, LabelPart):
                r = lb.parse_label(p.text)
                if r is not None and r.raw_row is not None and r.raw_col is not None and 0 in (r.raw_row, r.raw_col):
                    return True
    return False


def prepare(doc: Document, like: Bases | None = None) -> tuple[list[Obj], Bases]:
    """The document's objects and how it numbers heads and rows.  like: the numbering of the document that a
    section read on its own comes from (scoped.py, regions.py); a page that counts from 0 does so in every
    section, also in one that happens to print no index 0."""
    raw_heads = []
    raw_rows = []
    all_refs = []
    for a in doc.arrays[:MAX_OBJECTS]:
        refs = []
        for text in [a.label] + [x for x in a.labels if x != a.label]:
            ref = lb.parse_label(text)
            if ref is not None:
                refs.append(ref)
        if not refs and not a.label:
            refs = _prose_label(a)
        all_refs.append(refs)
        for ref in refs:
            if ref.raw_head is not None:
                raw_heads.append(ref.raw_head)
            if ref.raw_row is not None:
                raw_rows.append(ref.raw_row)
    _numbered_vectors(doc.arrays[:MAX_OBJECTS], all_refs)
    _token_outputs(doc.arrays[:MAX_OBJECTS], all_refs)
    raw_rows.extend(r.raw_row for refs in all_refs for r in refs if r.raw_row is not None)
    ctx_heads = [a.context.head for a in doc.arrays if a.context.head is not None]
    bases = Bases(0 if (0 in raw_heads or 0 in ctx_heads) else 1,
                  0 if (0 in raw_rows or _entries_from_zero(doc)) else 1)
    if like is not None:
        bases = Bases(min(bases.head, like.head), min(bases.row, like.row))
    out = []
    defines = [h for h in doc.hints if h.kind == "define"]
    for a, refs in zip(doc.arrays[:MAX_OBJECTS], all_refs):
        refs = [bases.resolve(r) for r in refs]
        if _FFN_WEIGHT.fullmatch((a.label or "").replace("$", "").strip()) and \
                _FFN_WORDS.search(" ".join((a.context.heading or "", (a.context.before or "")[-300:]))):
            refs = []                                # W_1 of the feed-forward layer, not one head's W^Q = W^K = W^V
        if refs and all(set(r.nodes) <= {"X"} for r in refs) and _FFN_WORDS.search(a.context.heading or "") and \
                not _ATTENTION_WORDS.search(a.context.heading or ""):
            refs = []                                # the x of a feed-forward example ("FFN(x) = max(0, xW_1)W_2")
        if refs and a.place.where in ("output", "comment") and any({"QKt", "S"} & set(r.nodes) for r in refs) and \
                _softmax_defined(a, defines):
            refs = [lb.Ref(("A",), strong=True)]     # `attention_score = softmax(...)`: the code says weights
        if refs and any(_STATE_LETTER.fullmatch((x or "").replace(" ", "")) for x in [a.label, *a.labels]) and \
                a.place.cell is None and _says_states(doc):
            # "the decoder state $\mathbf{s}_1$", "起始狀態 $s_0 = h_2$" (and $s_0$ anywhere after such words): a
            # hidden state, no scores
            refs = [r for r in refs if not {"S", "QKt"} & set(r.nodes)]
        coded = _coded_role(a, defines)
        if coded is not None and not any(coded in r.nodes for r in refs):
            refs = [lb.Ref((coded,), strong=True)]   # `A1 = torch.mm(queries, keys.T)` printed as `A1`: scores
        if a.style == "prose":                       # words in a sentence name a vector only weakly
            refs = [replace(r, strong=False) for r in refs]
        # an entry's name cannot label a matrix, nor a row's name several rows (w_12 = np.round(A, 4))
        rows = sum(1 for r in a.rows if r is not None)
        # ... but `X2` over a whole matrix (the second example's X, a page working several) still names X: the
        # quantity kept, the index dropped, so that it is judged as X, never matched by value to another step
        refs = [replace(r, raw_row=None) if r.raw_row is not None and rows > 1 and not a.lead and r.raw_col is None
                and _WHOLE_INDEXED.fullmatch(a.label or "") else r for r in refs]
        refs = [r for r in refs if not (r.raw_col is not None and len(a.numbers) > 1)
                and not (r.raw_row is not None and rows > 1 and not a.lead)]
        o = Obj(a, refs[0] if refs else None, refs, n=len(a.numbers))
        o.other_layer = other_layer(a.context.heading or "")
        if a.context.head is not None:
            o.head_hint = a.context.head - (0 if 0 in ctx_heads else 1)
        o.batch_hint = batch_in(a.label or "") or a.context.batch     # "sequence 2 output": its own label first
        o.row_hint = a.context.row
        g = a.grids()
        # entries worked out in place ([0.1×1 + 0.2×0, ...]) are no printed values; a softmax written as its closed
        # form (\frac{e^{0.6}}{e^{0.6}+e^{0.5}}) is one, exactly: its exponents are the scores it is taken of
        computed = sum(bool(re.search(r"[-+*/×·^(]", c.text.lstrip("-+")) and "." in c.text
                            and not re.fullmatch(r"[-+]?\d*\.?\d+(?:[eE][-+]?\d+)?", c.text)
                            and not _EXP_FORM.search(c.text)) for c in a.numbers)
        if g is not None and computed * 2 <= len(a.numbers):
            o.lo, o.hi, o.val = g
            if any(_EXP_FORM.search(c.text) for c in a.numbers):
                o.lo, o.hi = _exact_forms(a, o.lo, o.hi, o.val)
            if a.lead:
                o.slices = int(np.prod(a.lead))
        out.append(o)
    return out, bases


_EXP_FORM = re.compile(r"e\^|\\exp|exp\s*\(")
_WHOLE_INDEXED = re.compile(r"\s*[XQKV]_?\{?\d\}?\s*")     # X2, Q_3, K_{1}: a whole matrix of one of several examples


def _exact_forms(a, lo: np.ndarray, hi: np.ndarray, val: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """A closed form's exponents are the scores as the document gives them, not numbers rounded on the way: as
    evidence, e^{0.6}/(e^{0.6}+e^{0.5}) is that one value (the verdict still reads it at face value, judge.py)."""
    lo, hi = lo.copy(), hi.copy()
    exact = np.array([[bool(c is not None and _EXP_FORM.search(c.text)) for c in r] for r in a.rows if r is not None])
    if exact.shape != val.shape:
        return lo, hi
    lo[exact] = val[exact]
    hi[exact] = val[exact]
    return lo, hi


def _softmax_defined(a, defines: list) -> bool:
    """A printout whose name is last assigned, in its own cell, a softmax of something (`attention_score =
    softmax(np.divide(q.dot(k.T), d), axis=1)`): weights, whatever the name says."""
    name = (a.label or "").strip()
    # in a notebook, its own cell's last assignment; in a script (no cells), the last one before it
    rhs = [h.value[1] for h in defines if h.value[0].strip() == name and (
        (a.place.cell is not None and h.place.cell == a.place.cell) or
        (a.place.cell is None and h.place.cell is None and h.place.line < a.line))]
    return bool(rhs) and bool(re.match(r"\s*(?:[\w.]+\.)?soft_?max\s*\(", rhs[-1]))


_CODE_NAME = re.compile(r"[A-Za-z_]\w*")


def _last_define(name: str, before, defines: list):
    """The right-hand side of the last assignment to `name` that runs before `before` (a Place), or None."""
    rhs = [h for h in defines if h.value[0].strip() == name and h.place.run_order < before.run_order]
    return max(rhs, key=lambda h: h.place.run_order) if rhs else None


# q @ k.T, torch.mm(q, k.T), np.matmul(Q, K.transpose(-2, -1)): the product of queries and keys, nothing else
# (the factors named as queries and keys: `dA = dO @ V.T` of a backward pass is no score)
_Q_NAME = r"(?:[A-Za-z_][\w.]*\.)?(?:[qQ](?:_?\w{0,3}|uer(?:y|ies)\w*)|\w*_(?:q|query|queries))"
_K_NAME = r"(?:[A-Za-z_][\w.]*\.)?(?:[kK](?:_?\w{0,3}|eys?\w*)|\w*_(?:k|key|keys))"
_QK_PRODUCT = re.compile(rf"{_Q_NAME}@{_K_NAME}\.(?:T|t\(\)|transpose\([-\d,]*\))|"
                         rf"(?:torch\.|np\.)?(?:matmul|dot|bmm|mm)\({_Q_NAME},{_K_NAME}\."
                         r"(?:T|t\(\)|transpose\([-\d,]*\))\)")


def _coded_role(a, defines: list) -> str | None:
    """What the code says a printout under a bare variable name is, whatever the name itself suggests: `A1 =
    torch.mm(queries, keys.T)` printed as `A1` holds raw scores (not head 1's weights), `A2 = A1 / scaler` scaled
    scores (the scale then read from `scaler = torch.sqrt(torch.tensor(4.))`, written_scale.coded_scale), `A3 =
    F.softmax(A2, 1)` weights.  Only a printout of the program's (output or comment) whose name the code assigns
    exactly such an expression; None for anything else."""
    name = (a.label or "").strip()
    # `A1, A1.shape`: a notebook shows the tensor and its shape as a tuple; the printout is the tensor
    m = re.fullmatch(r"([A-Za-z_]\w*)\s*,\s*\1\.(?:shape|size\(\)|dtype)", name)
    name = m.group(1) if m else name
    if a.place.where not in ("output", "comment") or not _CODE_NAME.fullmatch(name) or not defines:
        return None
    h = _last_define(name, a.place, defines)
    if h is None:
        return None
    rhs = h.value[1].strip()
    if _QK_PRODUCT.fullmatch(rhs.replace(" ", "")):
        return "QKt"
    if re.match(r"(?:[\w.]+\.)?soft_?max\s*\(", rhs):
        return "A"
    m = re.fullmatch(r"([A-Za-z_]\w*)\s*([/*])\s*(.+)", rhs)
    if m is None:
        return None
    src = _last_define(m.group(1), h.place, defines)
    if src is None or not _QK_PRODUCT.fullmatch(src.value[1].replace(" ", "")):
        return None
    factor = m.group(3).strip()
    if _CODE_NAME.fullmatch(factor):
        k = _last_define(factor, h.place, defines)
        factor = f"({k.value[1].strip()})" if k is not None else factor
    if not a.source or a.source.replace(" ", "") == rhs.replace(" ", ""):
        a.source = f"{m.group(1)} {m.group(2)} {factor}"     # what coded_scale reads the multiplier from
    return "S"


# W_1, W_2 under words about the feed-forward layer: its matrices, not attention's
_FFN_WEIGHT = re.compile(r"W_?\{?[12]\}?")
_ATTENTION_WORDS = re.compile(r"attention|attend|注意力|self-attn|\bMHA\b|aten[çc][ãa]o|atenci[óo]n|aufmerksamkeit|"
                              r"attenzione|внимани", re.I)
_FFN_WORDS = re.compile(r"feed[- ]?forward|\bFFN\b|\bMLP\b|ReLU|GELU|d_?\\?(?:text\{)?ff|前馈|全连接", re.I)


_CONVOLUTION_WORDS = re.compile(r"\bCNNs?\b|convolution|\bconv\b|卷积", re.I)
# one neuron, a perceptron, the XOR network of an introduction to neural networks
_NEURON_WORDS = re.compile(r"\bXOR\b|perceptr|\bneur[oô]n(?:io|e|a)?s?\b|\bneurone|神经元|感知机|"
                           # normalisation layers: a row's mean and variance, not its scores
                           r"layer[ _-]?norm|\bLayerNorm\b|\bRMSNorm\b|batch[ _-]?norm|层归一化|层标准化", re.I)


def other_layer(heading: str) -> bool:
    """A heading about another layer than attention ("2.1 What is a CNN?", "Numerical FFN example", "XOR in pure
    numpy", "the artificial neuron"): the arrays under it (a filter sliding over an image patch, the feed-forward
    layer's W_1, the inputs of a network that learns XOR) are that layer's."""
    return bool((_FFN_WORDS.search(heading) or _CONVOLUTION_WORDS.search(heading) or _NEURON_WORDS.search(heading))
                and not _ATTENTION_WORDS.search(heading))


# a name at the end of a label: "K2", "the values are V1", "query q_3"
_TRAILING = re.compile(r"""(?:^|[\s(（:：,，"”'])([QKVqkv])_?\{?(\d{1,2})\}?\s*$""")


def _numbered_vectors(arrays: list[Array], all_refs: list[list]) -> None:
    """K1 = [1, 0], K2 = [0, 1], K3 = [1, 1]; "the values are V1 = ..., V2 = ...": single rows numbered 0 or 1 up,
    one after the other and all of one width, are the tokens' rows of K (V), not the heads that K_1, K_2 name
    when they are matrices.  Q only beside keys or values numbered alike (`Q₁ = [1, 0]  K₁ = [0, 1]  V₁ = [1, 2]`
    for each of three tokens): alone, one token's queries numbered so (`Q₁ = [2, 1]`, `Q₂ = [3, 4]`) are its heads'
    (a query per token is written q_1, q_2); nor vectors said to be a head's."""
    groups: dict[str, list[tuple[int, int]]] = {}
    for k, a in enumerate(arrays):
        m = _TRAILING.search(a.label or "")
        if m is None or a.lead or a.context.head is not None or \
                sum(1 for r in a.rows if r is not None) != 1:
            continue
        groups.setdefault(m.group(1).upper(), []).append((k, int(m.group(2))))
    rows_of = {letter: sorted(i for _, i in items) for letter, items in groups.items() if _in_order(arrays, items)}
    for letter, items in groups.items():
        if letter not in rows_of or (letter == "Q" and rows_of["Q"] not in (rows_of.get("K"), rows_of.get("V"))):
            continue              # Q₁, Q₂, Q₃ are tokens' queries only beside K₁, K₂, K₃ (or V's) numbered alike
        for k, i in items:
            all_refs[k] = [lb.Ref((letter,), raw_row=i)] + [r for r in all_refs[k] if letter not in r.nodes]


_OUTPUT_WORD = re.compile(r"(?i)(?:output|out|context(?:_vector)?|ctx)(?:_?\{?(\d{1,2})\}?|\[(\d{1,2})\])")


def _in_order(arrays: list[Array], items: list[tuple[int, int]]) -> bool:
    """(array index, its number) of single rows under one letter: two or more, numbered in order from 0 or 1, all of
    one width, as tokens' rows are (q1, q2, q3; O_1, O_2)."""
    idx = sorted(i for _, i in items)
    widths = {len(next(r for r in arrays[k].rows if r is not None)) for k, _ in items}
    return len(items) >= 2 and idx == list(range(idx[0], idx[0] + len(idx))) and idx[0] <= 1 and len(widths) == 1


_OUTPUT_LETTER = re.compile(r"[OoYy]_?\{?(\d{1,2})\}?")


def _token_outputs(arrays: list[Array], all_refs: list[list]) -> None:
    """`output_1 = [1.34, 1.66]`, `context_2 = [...]`, `output[0]`: a single row under an output's word and an index
    is that token's output (as v1, v2 are tokens' values), not head 1's, whose output has a row per token.  So are
    `O_1`, `O_2` (or y_1, y_2) when two or more single rows of one width are numbered so in order."""
    single = [k for k, a in enumerate(arrays) if not a.lead and sum(1 for r in a.rows if r is not None) == 1]
    lettered: dict[str, list[tuple[int, int]]] = {}
    for k in single:
        m = _OUTPUT_LETTER.fullmatch((arrays[k].label or "").strip())
        if m:
            lettered.setdefault(arrays[k].label.strip()[0].upper(), []).append((k, int(m.group(1))))
    rows = {k for items in lettered.values() if _in_order(arrays, items) for k, _ in items}
    for k, a in enumerate(arrays):
        m = _OUTPUT_WORD.fullmatch((a.label or "").strip())
        if k in rows:
            m = _OUTPUT_LETTER.fullmatch(a.label.strip())
        if m is None or a.lead or sum(1 for r in a.rows if r is not None) != 1:
            continue
        # (`output[1]`, indexed as code indexes: a row, numbered as the page numbers them, from 0 if it has output[0])
        i = int(next(g for g in m.groups() if g is not None))
        all_refs[k] = [replace(r, raw_row=i, raw_head=None) if r.raw_row is None and
                       (r.raw_head == i or (r.raw_head is None and m.group(0).endswith("]"))) else r
                       for r in all_refs[k]]


# a lowercase s with a token's index, after words that call it a state ("the decoder state $\mathbf{s}_1$",
# "解码器状态 $s_2$"): Bahdanau's notation, a hidden state, not a row of scores
_STATE_LETTER = re.compile(r"(?:\\mathbf|\\boldsymbol|\\bm)?\{?s\}?_?\{?\d{1,2}\}?")
_STATE_NAMED = re.compile(r"(?i)(?:\bstates?|状态|狀態)(?:\s*[:：*]{1,3})?\s*[$`(]*\s*(?:\\mathbf|\\boldsymbol|\\bm)?\s*"
                          r"\{?\s*s\s*\}?\s*_")      # ("的起始狀態：** $s_0 = h_2$": a colon and bold between)

def _says_states(doc) -> bool:
    """Do the document's words call a lowercase s with an index a state anywhere ("the decoder state $s_1$")?"""
    said = getattr(doc, "_says_states", None)
    if said is None:
        said = doc._says_states = any(_STATE_NAMED.search(line) for line in doc.lines)
    return said


_CLAUSE = re.compile(r"[。；;！!？?]|[，,：:](?=[^，,：:]*$)|\.\s")


def _prose_label(a: Array) -> list[lb.Ref]:
    """A matrix in math with no name of its own, named by the words right before it ("the raw scores are $[...]$",
    "内积变为 $[...]$"): the last clause, read as prose words (weak: they break ties, never attribute a slip)."""
    before = a.context.before
    nums = a.numbers
    if a.place.where != "math" or not before or not nums or nums[0].text in before[-40:]:
        return []
    clause = _CLAUSE.split(before)[-1].strip()
    if not clause or len(clause) > 60:
        return []
    ref = lb.parse_label(clause)
    return [] if ref is None else [replace(ref, strong=False)]


def _family(ref: lb.Ref) -> set[str]:
    nodes = set(ref.nodes)
    if "Q" in nodes:
        nodes |= {"Qh", "Qr"}
    if "K" in nodes:
        nodes |= {"Kh", "Kr"}
    if "V" in nodes:
        nodes |= {"Vh", "Vr"}
    return nodes


def _is(o: Obj, node: str, strong_only: bool = False) -> bool:
    return any(node in r.nodes and (r.strong or not strong_only) for r in o.refs)


def _ref_for(o: Obj, node: str) -> lb.Ref | None:
    return next((r for r in o.refs if node in r.nodes), None)

