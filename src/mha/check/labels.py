"""The names people give the quantities of attention, in both languages, and what they point to.

A label (`A^{(1)}`, `attn_weights`, `scores`, `注意力权重`, `\\text{head}_2`, `softmax(S)`) becomes a
`Ref`: the trace nodes it may name (a family: "scores" is Q Kᵀ or the scaled scores), with the
head, row or entry it picks out.  Labels break ties between equal values and attribute a wrong
value to a step; the values themselves decide everything else.
"""

from __future__ import annotations

import functools
import re
from dataclasses import replace

from .gradients import grad_name, grad_nodes, mentions_grad
# the words of the prose around a number, re-exported: which head, row and step it is said of
from .labelwords import PROJECTION_WEIGHTS, SIZE_NAME
from .refs import ORDER, PER_HEAD, SHOWN, STEP, Ref  # noqa: F401
from .prosewords import APPROX_WORDS, CARRIED_ROUNDING, _ZH, head_in, row_in, step_in  # noqa: F401
from .tokenpairs import pair_label, role_word_token
from .vocabulary import LETTER, WORD_RES

# ------------------------------------------------------------------ vocabulary (vocabulary.py)

# a weighted sum of the values written with symbolic weights: a_1 h_1 + a_2 h_2 (+ ...), Σ_i α_i v_i
_WEIGHT_SYM = r"(?:a|α|w|p)_?\(?(?:\d|i|j|t,?i|t,?j|ij)\)?"
_WEIGHTED_SUM = re.compile(r"(?:Σ|∑|sum)_?\(?[ij]?\)?(?:=\d+)?(?:\^[A-Za-z0-9]+)?" + _WEIGHT_SYM + r"\*?[A-Za-z]{1,3}_?\(?[ij]\)?|"
                           + _WEIGHT_SYM + r"\*?[A-Za-z]{1,3}_?\(?\d\)?(?:\+" + _WEIGHT_SYM
                           + r"\*?[A-Za-z]{1,3}_?\(?\d\)?)+(?:\+(?:\.\.\.|…|⋯|cdots))?")


_SUBSCRIPTS = {ord(c): "_" + str(k) for k, c in enumerate("₀₁₂₃₄₅₆₇₈₉")}     # q₁: q_1
_SUB_DIGITS = str.maketrans("₀₁₂₃₄₅₆₇₈₉", "0123456789")
# two subscript indices, run together or parted by a comma (α₁₂, A₁,₃): one braced subscript, as A_{1,3} writes it
_SUB_PAIR = re.compile(r"([₀-₉]+)\s*,\s*([₀-₉]+)|([₀-₉])([₀-₉])(?![₀-₉])")


def _norm(text: str) -> str:
    s = _SUB_PAIR.sub(lambda m: "_{" + ",".join(g for g in m.groups() if g).translate(_SUB_DIGITS) + "}",
                      text.strip()) if "," in text or re.search("[₀-₉]{2}", text) else text.strip()
    s = s.translate(_SUBSCRIPTS)
    s = re.sub(r"\\(?:left|right|big|Big|bigl|bigr|displaystyle|mathrm|mathbf|text|operatorname|boldsymbol|bm)\b",
               "", s)
    s = s.replace("\\top", "T").replace("\\intercal", "T").replace("ᵀ", "^T").replace("⊤", "^T")
    s = re.sub(r"\\(alpha|omega)(?![A-Za-z])", lambda m: {"alpha": "α", "omega": "ω"}[m.group(1)], s)
    s = re.sub(r"(?<![A-Za-z])alpha(?=_)", "α", s)          # alpha_1: the weights of query 1, spelled out
    s = s.replace("\\", "")
    s = re.sub(r"\s+", " ", s)
    for _ in range(4):
        s = re.sub(r"\{([^{}]*)\}", r"\1", s)
    s = s.replace("{", "").replace("}", "")
    s = re.sub(r"\s*([_^()\[\],=])\s*", r"\1", s)
    return s.strip()


_HEAD_SUP = r"\^\(?(\d+|[hij])\)?"
_IDX = r"(\d+|[hijt])"


def _num(s: str | None) -> int | None:
    return int(s) if s is not None and s.isdigit() else None


def parse_label(text: str) -> Ref | None:
    """The quantity a label names, or None (memoized: a Ref is frozen).

    >>> r = parse_label(r"A^{(1)}"); (r.nodes, r.raw_head, r.raw_row, r.strong)
    (('A',), 1, None, True)
    >>> parse_label("attn_weights").nodes, parse_label(r"Q^{(2)}(K^{(2)})^T").nodes, parse_label("注意力权重").nodes
    (('A',), ('QKt',), ('A',))
    """
    if not text or len(text) > 160:
        return None
    bare = _bare_label(text)
    r = _label_form(bare)
    if r is not None:
        return r
    bare = re.sub(r"(_\{\s*\d+)\s*,\s*(?:\\cdot|\\bullet|\*|:|·)\s*\}", r"\1}", bare)
    # K^{(2)T}, K^{(2)\top}: head 2's K transposed, as (K^{(2)})^T
    bare = re.sub(r"^\s*([A-Za-z]\w*)\^\{\((\d+)\)\s*(?:T|\\top|⊤)\s*\}\s*$", r"(\1^{(\2)})^T", bare)
    # a "raw" subscript: S_raw (S_{\mathrm{raw}}) is the unscaled Q Kᵀ; K_raw is X W_K before its bias, which no
    # view holds (named, so never identified by its values as some other quantity)
    m = re.fullmatch(r"\s*([QKVS])_\{*\s*(?:\\(?:mathrm|text|rm|operatorname)\s*\{\s*raw\s*\}|raw)\s*\}*(.*)", bare)
    if m:
        r = _parse_label(m.group(1) + m.group(2))
        if r is not None:
            return replace(r, nodes=("QKt",) if m.group(1) == "S" else ("pre_bias",))
    r = _parse_label(bare)
    # "Head1 Output", "output of head 2": one head's output, never the concatenation or the projected output
    if r is not None and r.raw_head is not None and "O" in r.nodes and len(r.nodes) > 1 and \
            re.search(r"(?i)head|头", bare):
        r = replace(r, nodes=("O",))
    return r


def _bare_label(text: str) -> str:
    """A label without what surrounds the symbol: a token's quoted name, the words of a CJK sentence before it,
    a pandas `.head()`, its shape in parentheses."""
    bare = text
    # a token's name in quotes before the label, as a row of a table of tokens writes it ('"red"  Q1 = [1, 0]')
    bare = re.sub(r'^\s*(?:"[^"\n]{1,20}"|“[^”\n]{1,20}”|\'[^\'\n]{1,20}\')\s*(?=[A-Za-z])', "", bare)
    # a copula after the symbol ("V 分别是", "K 为"): the sentence goes on to give its value
    bare = re.sub(r"(?<=[A-Za-z0-9}])\s*(?:分别|分別|依次)?(?:是|为|為|等于|等於)\s*$", "", bare)
    # words of a Chinese, Japanese or Korean sentence before a symbol ("假设 q", "참고할 정보는 v_{1}"): the symbol
    bare = re.sub(r"^\s*[\u3040-\u30ff\u4e00-\u9fff\uac00-\ud7af][\u3040-\u30ff\u4e00-\u9fff\uac00-\ud7af\s,，、]*"
                  r"(?=[A-Za-z](?:_\{?\w{1,3}\}?)?\s*$)", "", bare)
    # `attn_output_weights`, what torch's nn.MultiheadAttention returns beside its output: the attention weights
    # (averaged over heads), not the output projection's weight
    bare = re.sub(r"(?i)\b(attn|attention)_output_weights\b", r"\1_weights", bare)
    # a pandas table shown by its first rows, `query_df.head()`: the table's name, not a head of attention
    bare = re.sub(r"\.(?:head|tail)\(\s*\d*\s*\)", "", bare)
    # its shape in parentheses after it, "K^{(2)} (shape=3×2)": no part of the name
    bare = re.sub(r"\s*\(\s*shape\s*[=:]?\s*\d+(?:\s*[*×x,]\s*\d+)+\s*\)\s*$", "", bare, flags=re.I) or bare
    return bare


def _label_form(bare: str) -> Ref | None:
    """A label written as a known form around a simpler one (a scaled subscript, words in parentheses, entries
    listed, "after the mask", a row or entry index): the quantity it names, or None to read it as a symbol."""
    # `QK^T_{scaled}`, `{QK^T} _{\text{scaled}}`: the scores with a subscript that says they are scaled
    m = re.fullmatch(r"(.+?)\s*_\s*\{?\s*(?:\\(?:text|mathrm)\s*\{)?\s*scaled\s*\}?\s*\}?\s*", bare)
    if m:
        base = parse_label(m.group(1))
        if base is not None and base.nodes == ("QKt",):
            return replace(base, nodes=("S",))
    # "Q1 (query for word 1)", "k_2 (key of the second token)": an indexed symbol, then words about it in parentheses
    m = re.fullmatch(r"\s*([A-Za-z](?:_?\{?\d{1,2}\}?))\s*\(\s*([^()]*[A-Za-z\u4e00-\u9fff]{2,}[^()]*)\)\s*", bare)
    if m and not re.search(r"\d\s*[×x*,]\s*\d", m.group(2)):
        base = parse_label(m.group(1))
        if base is not None and (base.raw_row is not None or base.raw_head is not None):
            return base
    # "K (same as Q for self-attention)", "Q (simplified, d_k=3)": an input's letter, then words about it
    m = re.fullmatch(r"\s*([QKVX])\s*\(\s*([^()]*[A-Za-z\u4e00-\u9fff]{2,}[^()]*)\)\s*", bare)
    if m and not re.search(r"\d\s*[×x*,]\s*\d", m.group(2)):
        return parse_label(m.group(1))
    # "v = [v1, v2]" over a table's column of vectors: the letter, spelled out as its components
    m = re.fullmatch(r"\s*([A-Za-z])\s*=\s*[\[(]\s*\1_?\{?\d\}?(?:\s*,\s*\1_?\{?\d\}?)+\s*[\])]\s*", bare)
    if m:
        return parse_label(m.group(1))
    # [\alpha_{11}, \alpha_{12}, \alpha_{13}]: the entries of one row listed by name, the row itself
    m = re.fullmatch(r"\s*[\[(]([^\[\]()]{3,200})[\])]\s*", bare)
    if m and "," in m.group(1):
        refs = [parse_label(x) for x in m.group(1).split(",")]
        if all(r is not None and r.raw_row is not None and r.raw_col is not None for r in refs) and \
                len({(r.nodes, r.raw_row, r.raw_head) for r in refs}) == 1 and \
                [r.raw_col for r in refs] == list(range(refs[0].raw_col, refs[0].raw_col + len(refs))) and \
                refs[0].raw_col in (0, 1):
            return replace(refs[0], raw_col=None)
    # "each row of the softmax weights sums to", "the weights add up to": what is stated is the row's sum
    if re.search(r"(?:sums?|adds? up|add up)\s+to\W*$|(?:之和|总和|的和)(?:为|是)?\W*$", bare, re.I):
        return Ref(("row_sum",))
    # "weights after mask", "scores after masking": the quantity, with the mask applied; not the mask
    m = re.fullmatch(r"\s*(.+?)\s+(?:after|with)\s+(?:the\s+)?(?:causal\s+)?mask(?:ing)?\s*", bare, re.I)
    if m:
        base = parse_label(m.group(1))
        if base is not None and "mask" not in base.nodes:
            return base
    # "softmax row 3", "weights row 2": a quantity named in words, then which row (not which head)
    m = _WORDED_ROW.fullmatch(bare.replace("\\text", "").replace("{", "").replace("}", ""))
    if m:
        base = parse_label(m.group(1))
        if base is not None and base.raw_row is None and base.row is None and base.raw_head is None:
            return replace(base, raw_row=int(m.group(2)))
    # (QK^T)_{3,2}, (\mathbf{Q}\mathbf{K}^\top)_{3,2}: the entry (3, 2) of the product in parentheses
    m = re.fullmatch(r"\s*\(([^()]{1,60})\)\s*_\{?\s*(\d{1,2})\s*,\s*(\d{1,2})\s*\}?\s*", bare)
    if m:
        base = parse_label(m.group(1))
        if base is not None and base.nodes == ("QKt",) and base.raw_row is None and base.row is None:
            return replace(base, raw_row=int(m.group(2)), raw_col=int(m.group(3)))
    # a_{2,\cdot}, α_{3,:}, A_{1,*}: every column of row 2, the row itself
    m = re.fullmatch(r"\s*(.+?)_\{\s*(\d+)\s*,\s*(?:\\cdot|\\bullet|\*|:|·)\s*\}\s*", bare)
    if m:                                    # (a row, never a head: A_{2,*} is not A_2, which reads as head 2's A)
        base = parse_label(m.group(1))
        if base is not None and base.raw_row is None and base.raw_head is None and base.row is None:
            return replace(base, raw_row=int(m.group(2)))
    return None


def _parse_weight(layer: str) -> Ref | None:
    """The projection a layer's name says its .weight is (q_proj, query, W_q, Q_layers[1]), or None (tok_emb, fc1)."""
    m = re.fullmatch(r"(.+?)\[(\d)\]", layer.strip())
    head = None
    if m:                                    # Q_layers[0]: head 1's query layer
        layer, head = m.group(1), int(m.group(2))
    word = re.sub(r"(?i)[._]?(?:layers?|linears?|projs?|projections?|heads?|lin|fc)$", "",
                  layer.strip().split(".")[-1])
    word = re.sub(r"(?i)^(?:w|to|proj|projection|linear|lin|layer|fc)_?(?=[a-z])", "", word)
    kind = {"q": "W_Q", "query": "W_Q", "queries": "W_Q", "k": "W_K", "key": "W_K", "keys": "W_K", "v": "W_V",
            "value": "W_V", "values": "W_V", "o": "W_O", "out": "W_O", "output": "W_O"}.get(word.lower())
    if kind is None:
        return None
    return Ref((kind,), raw_head=head if kind != "W_O" else None)       # the index as written


@functools.lru_cache(maxsize=4096)
def _parse_label(text: str) -> Ref | None:
    g = grad_name(text)                      # dQ, ∂L/∂Q, Q.grad, 梯度 (gradients.py): the gradient of what it names
    if g is not None:
        kind, what, (row, col) = g
        if kind == "node":
            return Ref(what, raw_row=row, raw_col=col)
        of = _parse_label(what)
        nodes = grad_nodes(of.nodes) if of is not None else ()
        if not nodes:
            return None
        of = replace(of, nodes=nodes, strong=True)
        return of if row is None else replace(of, raw_row=row, raw_col=col, raw_head=None)
    if mentions_grad(text):
        return None
    m = re.fullmatch(r"\s*(.+?)\.bias(?:\.data)?\s*", text)
    if m:                                    # q_proj.bias, W_Q.bias.data: the bias of the layer named, not its weight
        w = _parse_label(m.group(1) + ".weight")
        if w is None or w.nodes not in (("W_Q",), ("W_K",), ("W_V",), ("W_O",)):
            return None
        return replace(w, nodes=("b_" + w.nodes[0][2],))
    m = re.fullmatch(r"\s*(.+?)\.weight(?:\.data)?\s*", text)
    if m and not re.search(r"(?i)(?:^|[._])(?:w|weights?)[._]?(?:q|k|v|o|query|key|value|out)?$", m.group(1)):
        w = _parse_weight(m.group(1))        # q_proj.weight, layers[0].weight: a layer's parameters, never A
        return w
    m = _TOY_PREFIX.fullmatch(text.strip())
    if m:                                    # temp_q, toy_K, sample_x: the quantity of a small demonstration
        return _parse_label(m.group(1))
    m = re.fullmatch(r"\s*([A-Za-z][A-Za-z0-9]*(?:_[A-Za-z0-9]+)*)_+\s*", text)
    if m:                                    # Q_, K_, attn_: code's name for a local copy of the quantity
        return _parse_label(m.group(1))
    pair = pair_label(text)                  # score(q1, k2), q1 @ k2, (q_2 @ k_1) / 3 ** 0.5 (tokenpairs.py)
    if pair is not None and pair != text.strip():
        return _parse_label(pair)
    if re.search(r"\.(?:sum|mean|max|min|std|var|norm|argmax|argmin|size|dtype|item)\b|\blen\(", text):
        return None                          # weights.sum(dim=-1) is not the weights
    if _OTHER_CALL.search(text):
        return None                          # relu(scores) / 4, sigmoid(scores), log_softmax(x): other quantities
    text = re.sub(r"\.shape\b(\[[^\]]*\])?|\.T\b|\.t\(\)|\.numpy\(\)|\.tolist\(\)|\.detach\(\)|\.round\(\d*\)", "",
                  text)
    text = re.sub(r"^(?:np|numpy|torch)\.round\((.*?)(?:,\s*(?:decimals=)?\d+)?\)$", r"\1", text.strip())
    s = _norm(text)
    if not s:
        return None
    s = re.sub(r"^(?:print|display|np\.round|round|torch\.round)(?:\(|\b)", "", s)     # not "prints" (-> s)
    if s.strip() in ("和", "总和", "Σ", "sum", "Sum", "∑", "Σ_j", "Σ_{j}"):
        return Ref(("row_sum",), strong=False)
    if _WEIGHTED_SUM.fullmatch(s.replace(" ", "")):
        return Ref(("O",))                   # a_1 h_1 + a_2 h_2 + a_3 h_3, Σ_i α_i v_i: the context vector
    # -- a printed row times a weight: "[1,0] · Wq" is a row of Q (which row, the value says)
    m = re.fullmatch(r"\s*\[[-\d.,\s]+\]\s*(?:\*|·|@|×|\\cdot|\\times)?\s*(.+?)\s*", text)
    if m:
        # (the weight named alone, not a sentence that mentions it: "[1, 1, 0] picks rows 0 and 1 of W_K, ...")
        name = re.sub(r"\s*\([^()]*\)\s*$", "", m.group(1).strip())
        w = parse_label(name) if not re.search(r"\s|\[", name) else None
        if w is not None and len(w.nodes) == 1 and w.nodes[0] in ("W_Q", "W_K", "W_V", "W_O"):
            try:
                of = tuple(float(x) for x in re.findall(r"[-\d.]+", text[:text.index("]")]))
            except ValueError:
                of = None
            return Ref(({"W_Q": "Q", "W_K": "K", "W_V": "V", "W_O": "Y"}[w.nodes[0]],), raw_head=w.raw_head, of=of)
        return None
    r = _token_vector(s)
    if r is not None:
        return r
    return _formula_or_symbol(s, text)


def _token_vector(s: str) -> Ref | None:
    """One token's row named by the token (Q(token2), q_cat, Query (it), cat.k), or None."""
    m = _TOKEN_ROW.fullmatch(s.strip())
    if m:                                    # Q(token2), k(word 3): that token's row
        return Ref(({"X": "X", "O": "O"}.get(m.group(1).upper(), m.group(1).upper()),), raw_row=int(m.group(2)))
    # -- q_cat, k_{she}, v_\text{drank}: one token's query, key or value, the token named by its word
    m = _TOKEN_WORD_VECTOR.fullmatch(s.replace(" ", ""))
    if m and m.group(2).lower() not in _NOT_TOKENS:
        return Ref(({"q": "Q", "k": "K", "v": "V", "x": "X"}[m.group(1).lower()],), token=m.group(2))
    named = role_word_token(s)               # Query (it), Key_cat: the same, the role said in words
    if named is not None:
        return Ref((named[0],), token=named[1])
    # -- century.Q, cat.k: the same, written as the token's attribute
    m = _TOKEN_ATTRIBUTE.fullmatch(s.replace(" ", ""))
    if m and m.group(1).lower() not in _NOT_TOKENS and m.group(1).lower() not in ("self", "np", "torch", "model"):
        return Ref(({"q": "Q", "k": "K", "v": "V"}[m.group(2).lower()],), token=m.group(1))
    return None


def _formula_or_symbol(s: str, text: str) -> Ref | None:
    """A label read as a formula (Q K^T / √d), a symbol with indices, a letter after words, or words."""
    # -- formulas that say what they compute
    f = _formula(s)
    if f is not None:
        return f
    if "@" in text or "matmul" in text:
        return None                          # a product of things we could not name
    m = _SIGNED_PRODUCT.fullmatch(s)
    if m:                                    # "\text{weights} \cdot \mathbf{V}", "weights × V": the product, O
        sides = [_parse_label(m.group(1)), _parse_label(m.group(2))]
        node = next((_PRODUCTS[(a, b)] for a in (sides[0].nodes if sides[0] else ())
                     for b in (sides[1].nodes if sides[1] else ()) if (a, b) in _PRODUCTS), None)
        if node is not None:
            return Ref((node,))
    # -- a symbol with indices: W_Q, W^Q_1, Q^(1), q_1^(1), α_{12}, head_1, x_2, K^T, (K^(1))^T
    r = _symbol(s)
    if r is not None:
        return r
    # -- "Q矩阵", "从embeddings生成的Q矩阵" (the Q matrix made from the embeddings): the letter the label ends on
    m = _LETTER_NOUN.search(text)
    if m:
        return _symbol(m.group(1) or m.group(2))
    # -- words (variable names, prose) in both languages
    w = _words(s, text)
    if w is None:
        first = re.match(r"^\s*([A-Za-zα-ω](?:_?\{?\d+\}?)(?:\^\{?\(?\d+\)?\}?)?)(?=[\s\u4e00-\u9fff(（:：])", text)
        if first:                             # "o3 的算法", "q2 (second query)": the symbol in front
            return _symbol(_norm(first.group(1)))
    return w


# two names with a sign of multiplication between them (after _norm: `\cdot` is "cdot")
_SIGNED_PRODUCT = re.compile(r"\s*([^·×*\s][^·×*]*?)\s*(?:·|×|\*|\bcdot\b|\btimes\b)\s*([^·×*\s][^·×*]*?)\s*")


# a quantity in words, then its row: "softmax row 3", "weights row 2:"
_WORDED_ROW = re.compile(r"\s*([A-Za-z][A-Za-z ]{2,40}?)\s+row\s*(\d{1,3})\s*:?\s*", re.I)


# a token's vector named by the token: q_cat, k_{she}, v_\text{drank} (after _norm: q_cat, k_she, v_drank)
_TOKEN_ATTRIBUTE = re.compile(r"([A-Za-z][A-Za-z\u00c0-\u024f]{0,15})\.([QKVqkv])")
# (`k_I` too: the pronoun that opens so many example sentences, "I love ML"; another lone letter is an index)
_TOKEN_WORD_VECTOR = re.compile(r"([qkvxQKVX])_\(?([A-Za-z]{2,12}|I|[^\x00-\x7f]{1,6})\)?")
_NOT_TOKENS = {"proj", "projection", "weight", "weights", "total", "head", "heads", "dim", "cache", "norm", "rope",
               "bias", "out", "output", "in", "input", "len", "size", "mask", "new", "old", "all", "tmp", "temp", "rot",
               "scaled", "max", "min", "sum", "mean", "std", "var", "vec", "list", "batch", "seq", "model", "tokens",
               "embed", "emb", "pos", "enc", "dec", "src", "tgt", "mem", "kv", "ln", "lin", "fc", "id", "idx", "val",
               "mat", "matrix", "vector", "shape", "states", "state", "hidden", "layer", "attn", "rows", "cols", "row",
               "col", "prev", "next", "cur", "last", "first", "past", "cached", "curr", "current", "full", "shared", "mqa",
               "gqa"}


# a Chinese label's head noun comes last: a letter and 矩阵/向量 at its end, alone or after 的
_LETTER_NOUN = re.compile(r"(?:^|的)\s*([QKVX])\s*(?:矩阵|向量)\s*[:：]?\s*$|"
                          r"^\s*(?:[Tt]he\s+)?([QKVX])[ -](?:[Mm]atri(?:x|ces)|[Vv]ectors?)\s*(?:\([^()]*\))?\s*[:：]?\s*$")
#  (and in English "Q matrix", "the K vectors", "V Vector (4D)": the letter, then its noun and a remark on its size)


# a query against the keys by a running index (a table column's header): scaled when divided
_ANY_DOT = re.compile(r"^q(?:_?\{?[ij]\}?)?(?:\*|·|\.|cdot)k(?:_?\{?[ij]\}?)?((?:/|÷)\S+)?$")
_TOY_PREFIX = re.compile(r"(?:temp|tmp|toy|sample|example|demo|dummy|test|my)_((?:[QKVXqkvx]|query|key|value|queries|"
                         r"keys|values|inputs?)(?:_?\d)?)")
_TOKEN_ROW = re.compile(r"([QKVXqkvx])\((?:token|tok|word|position|pos|词)\s*_?(\d+)\)")
_BARE_DOT = re.compile(r"^q(?:uery)?(?:\*|·|\.|cdot|@|,)\s*k(?:ey)?_?\(?(\d+)\)?$")
_DOT = re.compile(r"^([qxk])_?\(?(\d+)\)?(?:\^\(?\d+\)?)?(?:\*|·|\.|cdot|@|,)\s*([kx])_?\(?(\d+)\)?(?:\^\(?\d+\)?)?$")


_PRODUCTS = {("Qh", "Kh"): "QKt", ("Ah", "Vh"): "O", ("A", "Vh"): "O", ("Q", "K"): "QKt", ("X", "X"): "QKt", ("A", "V"): "O", ("A", "X"): "O", ("X", "W_Q"): "Q", ("X", "W_K"): "K", ("X", "W_V"): "V",
             ("O_concat", "W_O"): "Y", ("O", "W_O"): "Y", ("Y", "W_O"): "Y"}


# the states a projection takes, named by the sequence they come from: X_dec, X_{enc}, X_tgt, X_src, H_enc, x_memory
# (the decoder's and the encoder's in cross-attention): X, whichever sequence, as a factor of a product
_X_WORD = re.compile(r"[XxHh]_?\{?(?:\\(?:text|mathrm|rm)\{)?(?:dec|enc|tgt|src|target|source|kv|mem|memory|encoder|"
                     r"decoder|context|ctx|in|input)\}?\}?", re.I)


def _code_product(s: str) -> Ref | None:
    """a @ b in code: the product of two named quantities (q @ k.T, weights @ v, x @ W_q, concat @ W_O)."""
    m = re.match(r"^\s*(?:torch|np|numpy)\.matmul\((.*),(.*)\)\s*$", s)
    sides = [m.group(1), m.group(2)] if m else [x for x in s.split("@")]
    if len(sides) != 2:
        return None
    scaled = bool(re.search(r"/|sqrt|\*\s*scale", sides[1]))
    sides = [re.sub(r"\.T\b|\.transpose\([^)]*\)|\.t\(\)|\)+\s*$|/.*$|\*.*$", "", x).strip().lstrip("(").strip()
             for x in sides]
    refs = [parse_label(x) or (Ref(("A",)) if re.fullmatch(r"weights?|w|attn|probs?|p", x, re.I) else None)
            or (Ref(("X",)) if k == 0 and _X_WORD.fullmatch(x) else None) for k, x in enumerate(sides)]
    if any(r is None for r in refs):
        return None
    for a in refs[0].nodes:
        for b in refs[1].nodes:
            node = _PRODUCTS.get((a, b))
            if node:
                return Ref(("S",) if node == "QKt" and scaled else (node,), raw_head=refs[0].raw_head or refs[1].raw_head)
    return None


def _formula(s: str) -> Ref | None:
    if "@" in s or "matmul" in s:
        return _code_product(s)
    low = s.lower().replace("@", "*").replace(" ", "")
    low = re.sub(r"(?<=[kv])_?(?:shared|mqa|gqa)\b", "", low)     # A V_shared: K and V shared by the heads
    head = _first_head(s)
    m = _DOT.match(low.replace(" ", ""))
    if m:                                    # q_1 · k_2, x1.x3: one score
        return Ref(("QKt",), raw_row=int(m.group(2)), col=None, raw_head=None,
                   strong=True)._with_col(int(m.group(4)))
    m = _BARE_DOT.match(low.replace(" ", ""))
    if m:                                    # q · k_2, Q·K3: the one query against key 2 (claims/target.py)
        return Ref(("QKt",), strong=True)._with_col(int(m.group(1)))
    m = _ANY_DOT.match(low)
    if m:                                    # q · k_j, q_i · k_j / √2: a query's scores, one per key
        return Ref(("S",) if m.group(1) else ("QKt",), raw_head=None, strong=True)
    if re.match(r"^(e\^|exp\()", low):
        return Ref(("E",), raw_head=head)
    if re.search(r"inputs?(to|of|into)(the)?softmax|softmax(\'s)?inputs?|pre[-_]?softmax|before(the)?softmax|"
                 r"softmax前|softmax的输入", low):
        return Ref(("QKt", "S"), raw_head=head)      # what goes into the softmax is the scores
    if re.search(r"softmax|σ\(", low):
        inner_after = re.search(r"softmax\(.*\)\s*\*?\s*([vV]|x|X)", s)
        # \mathrm{Softmax}\left(\frac{XX^T}{\sqrt{3}}\right)X: the weights times the values, written in TeX
        tex_after = re.search(r"softmax\}?(?:\\left)?\(.*\)\*?(?:v|x)$", low)
        # softmax(\frac{1}{\sqrt{2}}[..])[..]: the weights times a matrix written out, the values
        written_after = re.search(r"softmax\}?(?:\\left)?\(.*\)\*?\[matrix\]$", low)
        if inner_after or tex_after or written_after or re.search(r"softmax\(.*\)[vV]", s):
            return Ref(("O", "O_concat", "Y"), raw_head=head)
        return Ref(("A",), raw_head=head)
    if re.search(r"multihead|multi-head|多头", low):
        return Ref(("Y", "O_concat"))
    if re.search(r"(concat|concatenate)\(.*\)\*?w_?\^?o$|o_?concat\*?w_?\^?o$", low):
        return Ref(("Y",))
    if re.match(r"^concat\(|^concatenate\(|^拼接", low) or re.search(r"concat\(head", low):
        return Ref(("O_concat",))
    if re.search(r"attention\(", low):
        return Ref(("O", "O_concat", "Y"), raw_head=head)
    # Q_{text} K_{image}^\top: the product of a named Q and a named K (cross-attention's), not Q transposed
    named = re.sub(r"\\(?:text|mathrm|mathbf|operatorname)\b", "", low)
    if re.fullmatch(r"\\?q_\{?[a-z]{2,}\}?\*?\\?k_\{?[a-z]{2,}\}?\^\{?(?:t|\\top|⊤)\}?", named.replace("{}", "")) or \
            re.fullmatch(r"q_\{\{?[a-z]{2,}\}?\}\*?k_\{\{?[a-z]{2,}\}?\}\^\{?(?:t|\\top|⊤)\}?", named):
        return Ref(("QKt",), raw_head=head)
    qk = re.search(r"q(?:\^?\(?(\d+|h)?\)?)?[\*·]?\(?k(?:\^?\(?(\d+|h)?\)?)?\)?\^?t", low)
    if qk and ("frac" in low or "/" in low or "sqrt" in low or "√" in low):
        return Ref(("S",), raw_head=_num(qk.group(1)))
    if qk and re.match(r"^\(?q", low):
        return Ref(("QKt",), raw_head=_num(qk.group(1)))
    # X_dec W_Q, X_{enc} W^K: a projection of one sequence's states (cross-attention), Q, K or V whole
    m = re.fullmatch(r"\s*(\S+?)\s*(?:\*|·|×)?\s*W_?\^?\{?([QKVqkv])\}?\s*", s)
    if m and _X_WORD.fullmatch(m.group(1)):
        return Ref((m.group(2).upper(),))
    # x_2 W_Q, x_2 W^Q_1, x_{2}W_Q^{(1)}: token 2's row of Q (of head 1's)
    m = re.match(r"^x_?\{?(\d+)\}?\*?w_?(\d+)?\^?\{?([qkv])\}?(?:_?\{?(\d+)\}?|\^\{?\((\d+)\)\}?)?$", low)
    if m:
        head = m.group(2) or m.group(4) or m.group(5)
        return Ref((m.group(3).upper(),), raw_row=int(m.group(1)), raw_head=int(head) if head else None)
    # X^{(b)}\,W_V: the sample's X (a letter index: b, i, n), a thin space, then the weight
    xw = re.sub(r"^x\^\{?\(?[a-z]\)?\}?", "x", re.sub(r"\\[,;:!]", "", low))
    if re.match(r"^x\*?w_?\^?q$|^xw\^?q|^x\*?w_?q", xw):
        return Ref(("Q",))
    if re.match(r"^x\*?w_?\^?k$|^x\*?w_?k", xw):
        return Ref(("K",))
    if re.match(r"^x\*?w_?\^?v$|^x\*?w_?v", xw):
        return Ref(("V",))
    m = re.match(r"^a(?:[_^]?\(?(\d+)\)?)?\*?v(?:[_^]?\(?(\d+)\)?)?$", low)
    if m:
        return Ref(("O",), raw_head=_num(m.group(1) or m.group(2)))
    if re.match(r"^o_?concat\*?w_?\^?o|^concat.*w_?\^?o$", low):
        return Ref(("Y",))
    return None


def _first_head(s: str) -> int | None:
    m = re.search(r"\^\((\d+)\)|_(\d+)\b", s)
    return _num(m.group(1) or m.group(2)) if m else None


_SYM = re.compile(
    r"^\(?(?P<name>[A-Za-zα-ωℓ]|W|b|head|Head|Z|z)"
    r"(?P<idx>(?:[_^](?:\(?[A-Za-z0-9,]+\)?|\([^()]*\)))*)"
    r"\)?(?P<t>\^T|\^\{?T\}?|')?$")


def _symbol(s: str) -> Ref | None:
    t = s.replace(" ", "")
    m = re.match(r"^(?:Q|q)[_^]?\(?(\d+|h|i)?\)?\(?(?:K|k)[_^]?\(?(\d+|h|i)?\)?\)?\^T$", t)
    if m and (m.group(1) == m.group(2) or not (m.group(1) and m.group(2))):
        return Ref(("QKt",), raw_head=_num(m.group(1) or m.group(2)))
    transposed = False
    m = re.match(r"^\((.*)\)\^T$", t)
    if m:
        t, transposed = m.group(1), True
    if t.endswith("^T") or t.endswith("'"):
        t, transposed = (t[:-2] if t.endswith("^T") else t[:-1]), True
    elif re.fullmatch(r"[QKVXqkvx](?:_T|\.T|_transposed|_trans)", t):
        t, transposed = t[0], True         # K_T = K.T in code, `K.T`, `K_transposed`: K transposed (K_t is step t's)
    # weights: W_Q, W^Q, W_q, Wq, W^Q_1, W_1^Q, W1_Q (head 1's in code), W_Q^(1), W^{(1)}_Q, W_{query}
    # (and W_QT, the weight stored transposed for `X @ W_QT`, C × H: the X W orientation read here)
    m = re.match(r"^([Ww]|b)(?:_?\^?\(?([QKVOqkvo])(?:uery|ey|alue|ut(?:put)?|T)?\)?)"
                 r"(?:[_^]?\(?(\d+)\)?)?$|^([Ww]|b)(?:_?\(?(\d+)\)?)[\^_]?\(?([QKVOqkvo])\)?$"
                 r"|^([Ww]|b)\^?\((\d+)\)_?([QKVOqkvo])$", t)
    if m:
        g = m.groups()
        kind = g[0] or g[3] or g[6]
        which = (g[1] or g[5] or g[8]).upper()
        head = _num(g[2] or g[4] or g[7])
        node = ("W_" if kind in "Ww" else "b_") + which
        return Ref((node,), raw_head=head, transposed=transposed)
    # head_i, \text{head}_i, Z_i (a head's output)
    m = re.match(r"^(?:head|Head|h)_?\(?(\d+)\)?$", t)
    if m:
        return Ref(("O",), raw_head=int(m.group(1)), transposed=transposed)
    # one letter with a superscript head and/or subscripts: Q^(1), q_1^(1), o^(1)_3, α_{12}, x_2, Z_0
    m0 = re.match(r"^([QKVqkv])h$", t)      # Qh, Kh: the per-head split in code
    if m0:
        return Ref((m0.group(1).upper() + "h",), transposed=transposed)
    m0 = re.match(r"^([A-Za-zα-ωℓ])(\d{1,2})$", t)
    if m0:
        t = f"{m0.group(1)}_{m0.group(2)}"
    m = re.match(r"^([A-Za-zα-ωℓ])((?:[_^](?:\([^()]*\)|[A-Za-z0-9,]+))*)$", t)
    if m and m.group(1) in LETTER:
        letter, idx = m.group(1), m.group(2)
        sup = re.findall(r"\^\(?([0-9]+|[hij])\)?", idx)
        sub = re.findall(r"_\(?([0-9]+(?:,[0-9]+)?|[0-9]{2}|[hijt]+|[a-z]+)\)?", idx)
        head = row = None
        nodes = LETTER[letter]
        if sup and sup[0].isdigit():
            head = int(sup[0])
        elif sup and sup[0] not in "hij":
            return None
        if re.search(r"\^(?!\()[A-Za-z]{2,}", idx):
            return None                      # K^TScores: a transpose run into the next word (table cells glued)
        if sub:
            s0 = sub[0]
            named = _named_subscript(letter, s0, head, transposed)
            if named is not None:
                return named
            if "," in s0 or (len(s0) == 2 and s0.isdigit() and letter in "αaAeSsωw"):
                i, j = (s0.split(",") if "," in s0 else (s0[0], s0[1]))
                return Ref(nodes if letter not in "ea" else (("A",) if letter == "a" else nodes),
                           raw_head=head, raw_row=int(i), raw_col=int(j), transposed=transposed)
            if s0.isdigit():
                if letter.isupper() and letter not in "XE" and head is None:
                    head = int(s0)           # Q_1, A_2, Z_0: one head's matrix
                else:
                    row = int(s0)            # x_1, q_2, o_3^(1): one token's row
            elif s0 in ("i", "j", "t", "h", "ij", "m", "n", "k", "p", "s", "b"):
                pass
            elif s0 in ("unscaled", "unmasked", "causal", "masked") and letter in "AaOoEe" and \
                    re.fullmatch(rf"(?:\^\(?\w+\)?)?_\(?{s0}\)?(?:\^\(?\w+\)?)?", idx):
                pass                         # A_unscaled, O_unmasked, A_causal: another reading (claims/unscaled.py)
            else:
                return None
        if letter == "W" and not sub and not sup:
            return None
        if letter == "W":                    # W_1: the one matrix head 1 uses for Q, K and V
            return Ref(("W_Q", "W_K", "W_V"), raw_head=head, transposed=transposed)
        if letter == "H" and (sub or sup):
            return Ref(("O",), raw_head=head, transposed=transposed)
        nodes = {"Q": ("Q",), "K": ("K",), "V": ("V",)}.get(letter.upper(), nodes) if letter.lower() in "qkv" \
            else nodes
        return Ref(nodes, raw_head=head, raw_row=row, transposed=transposed)
    return None


def _named_subscript(letter: str, s0: str, head: int | None, transposed: bool) -> Ref | None:
    """A letter with a word for a subscript that says which version it is (K_cache, Q_full, X_all, W_q, K_new,
    O_concat), or None."""
    if s0 in ("concat", "cat", "c"):
        return Ref(("O_concat",), transposed=transposed)
    if s0 in ("cache", "past", "cached") and letter in "KkVv":     # K_cache: the past keys, an input
        return Ref(("Kc",) if letter in "Kk" else ("Vc",), raw_head=head, transposed=transposed)
    if s0 in ("curr", "current", "full", "all") and letter in "KkVv":
        # K_curr, K_full: the cache with this step's key appended, what the query attends over
        return Ref(("Kr",) if letter in "Kk" else ("Vr",), raw_head=head, transposed=transposed)
    if s0 in ("curr", "current", "full", "all") and letter in "QqXx":
        # X_all, Q_full: every token's row, the new one stacked under the earlier ones (a recomputation
        # beside a KV cache), the same X and Q as without the cache
        return Ref(("X",) if letter in "Xx" else ("Q",), raw_head=head, transposed=transposed)
    if s0 in ("shared", "mqa", "gqa") and letter in "KkVv":     # K_shared: one K for every query head
        return Ref(("K",) if letter in "Kk" else ("V",), raw_head=head, transposed=transposed)
    if s0 in ("new",) and letter in "KkVv":                       # K_new: this step's keys only
        return Ref(("Kh",) if letter in "Kk" else ("Vh",), raw_head=head, transposed=transposed)
    if s0 in ("q", "k", "v", "o") and letter in "Ww":
        return Ref(("W_" + s0.upper(),), raw_head=head, transposed=transposed)
    if s0 in _SEQUENCE_WORDS and letter in "QqKkVv":
        # Q_dec, K_enc, V_{enc}: cross-attention's queries from one sequence, keys and values from another; given
        # as they are, they are Q, K and V of T queries against S keys
        return Ref((letter.upper(),), raw_head=head, transposed=transposed)
    return None


_SEQUENCE_WORDS = {"dec", "enc", "src", "tgt", "decoder", "encoder", "source", "target", "mem", "memory", "cross"}


_OTHER_CALL = re.compile(r"(?<![\w.])(?:[\w.]+\.)?(?:relu|sigmoid|tanh|gelu|silu|swish|elu|softplus|log_?softmax|"
                         r"logsigmoid|log|normali[sz]e|l2_?norm|layer_?norm)\s*\(", re.I)
_BARE_RESULT = re.compile(r"(?:the\s+)?(?:final\s+)?(?:results?|res|结果|最终结果)")


def _words(s: str, original: str) -> Ref | None:
    # "score ÷ 2", "scores × 0.7071": the scale written after the name, not a head number
    s = re.sub(r"\s*(?:/|÷|×|\*|\\div|\\times)\s*(?:√|\\sqrt)?\s*\{?\s*\d+(?:\.\d+)?\s*\}?\s*$", "", s)
    low = re.sub(r"(?<=[a-z])(?=[A-Z][a-z])", " ", s).lower().replace("\\", "")   # MaskedScores: two words
    low = re.sub(r"[.\[\]()'\"`:=]+", " ", low)
    head = None
    m = re.search(r"(?:head|头)[ _]?(\d+)|第\s*(\d+|[一二三四五六七八])\s*个?头|\bh(\d+)\b|[_ ](\d+)$", low)
    if m:
        g = m.group(1) or m.group(2) or m.group(3) or m.group(4)
        head = _ZH.get(g) if g in _ZH else int(g)
    strong = bool(re.fullmatch(r"[A-Za-z_][A-Za-z_0-9.]*(\[\d+\])*", original.strip()))
    if SIZE_NAME.search(low):
        return None                  # "d_model (total embedding size)", "total tokens": a size or a count, no sum
    for k, (rx, nodes) in enumerate(WORD_RES):
        if rx.search(low):
            # "weights", "attention", and a bare "Result:" (of whatever was just worked): too vague to attribute
            generic = k == len(WORD_RES) - 1 or bool(_BARE_RESULT.fullmatch(low.strip()))
            if generic and PROJECTION_WEIGHTS.search(low) and not re.search(r"attention|注意力|softmax", low):
                return None           # "the weight matrices", 三个权重矩阵: W_Q, W_K, W_V, not the attention weights
            return Ref(nodes, raw_head=head, strong=strong and not generic)
    return None
