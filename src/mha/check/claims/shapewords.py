"""Words and layouts around a shape or size claim (helpers of shape.py): sizes of real models said in prose, another
model's tensors, labels split over several objects, the encoder side of a cross-attention, random inputs, a
transposed print."""

from __future__ import annotations

import re
from typing import Any

from .. import labels as lb
from ..report import NotChecked


REAL_MODELS = re.compile(r"real(?:-world)? models?|in practice|typical(?:ly)?|production|\bGPT|\bBERT|LLaMA|Llama|"
                          r"the (?:original )?paper|e\.g\.|for example|such as|实际|通常|真实|原论文|例如|论文|"
                          r"Attention Is All You Need|Vaswani|"
                          # a setup supposed, not the one worked ("for a model with d_model = 8", "each would have")
                          r"for a (?:\w+ )?model with|\bsuppose|\bimagine|\bif (?:we|the model) (?:had|used)|"
                          r"\bwould (?:have|be|get)\b|假设|假如|如果", re.I)


def real_model_sizes(findings: list, not_checked: list, text: str) -> list:
    """A size finding whose line says, just before the value, that it is other models' ("real models use
    d_h = 64", "GPT-2 uses h = 12"): not checked (the findings kept are returned)."""
    lines = text.splitlines()
    cells = _notebook_sources(text) if any(f.cell is not None for f in findings) else []
    out = []
    for f in findings:
        line = lines[f.line - 1] if f.cell is None and f.step == "config" and 0 < f.line <= len(lines) else ""
        if f.cell is not None and f.step == "config" and 0 < f.cell <= len(cells):
            mine = cells[f.cell - 1]           # a notebook's code comment: "note in the paper, d_model=512"
            line = mine[f.line - 1] if 0 < f.line <= len(mine) else ""
        at = line.find(f.printed)
        if at >= 0 and REAL_MODELS.search(line[max(0, at - 80):at]):
            not_checked.append(NotChecked(f.line, f.cell, f.claim, "a size of other models (the words before it say "
                                          "so), not the worked example's"))
            continue
        if f.step == "config" and _model_width(f):
            # "d = 512, d_k = 64" in a section about a toy of width 2 (a chapter cited): a multiple of 16, eight
            # times the toy's or more, is another model's size, not a slip in the toy's (a slip is a digit, "T = 30")
            not_checked.append(NotChecked(f.line, f.cell, f.claim, f"the example's is {f.rounded}: {f.printed} is "
                                          "another model's size, not a slip in it?"))
            continue
        out.append(f)
    return out


def _model_width(f) -> bool:
    try:
        v, want = float(f.printed), float(f.exact)
    except (TypeError, ValueError):
        return False
    return want > 0 and v >= 8 * want and v % 16 == 0


def _notebook_sources(text: str) -> list[list[str]]:
    """Each cell's source lines of a notebook (1-based cell numbers index it from 1), or [] for other text."""
    import json
    try:
        nb = json.loads(text)
    except (ValueError, RecursionError):
        return []
    cells = nb.get("cells") if isinstance(nb, dict) else None
    if not isinstance(cells, list):
        return []
    from ..readers.notebook import _text_of
    return [_text_of(c.get("source", "") if isinstance(c, dict) else "").splitlines() for c in cells]


# words in a shape's label that name a tensor of the model other than attention's own
OTHER_TENSOR = re.compile(r"residual|norm(?:ali[sz]ed|ali[sz]ation)?\b|layernorm|\bffn\b|feed[- ]?forward|\bmlp\b|"
                           r"vocab|target|\bloss\b|\blabels?\b|(?<!attention )(?<!attn )\blogits?\b|"
                           r"(?<!attention )(?<!attn )\bprobabilit(?:y|ies)\b(?! of attention)|残差|归一化|前馈|词表", re.I)


def another_model(dims: list[int], sizes: set[int]) -> bool:
    """A size many times the largest of the example (32×8×128×128 beside a 3-token toy, "GPT-2's 1024 × 1024"):
    the shape of a real model the text mentions, not a claim about the worked example."""
    top = max(sizes, default=1)
    return any(d >= 16 and d > 8 * top and d not in sizes for d in dims)


def split_labels(text: str) -> list[str]:
    """Q, K, V ∈ ...: the names a shape is stated for (commas inside parentheses do not separate)."""
    out, depth, cur = [], 0, ""
    for ch in text:
        depth += (ch in "({[") - (ch in ")}]")
        if ch in ",，、" and depth == 0:
            out.append(cur)
            cur = ""
        else:
            cur += ch
    out.append(cur)
    return [x for x in out if x.strip()]


# cross-attention's other sequence, named by the side it comes from
ENCODER_SIDE = re.compile(r"encoder|memory|source|编码器|源序列|エンコーダ", re.I)
# a second matrix named by a bare letter of linear algebra, with its shape, on the same line
ALGEBRA = re.compile(r"(?:\\mathbf\{|\$|\b)[BCMNP]\}?\$?\s*\(\s*\d+\s*(?:×|x|\*|\\times)\s*\d+\s*\)")
_RANDOM = re.compile(r"\b(?:np\.random|numpy\.random|torch\.(?:randn|rand|randint|normal)|random\.|rng\.|"
                     r"default_rng|randn|rand)\b")


def random_inputs_before(doc, place, subject: str = "") -> bool:
    """Does code in the same cell (or, outside notebooks, within 30 lines above) bind an input (X, Q, K, V, or a
    name they are set to) to random values before this place, or bind the very name a shape is printed of
    (`subject`) to random values or to what it computes from them (`scores = torch.randn(2, 3, 3)`,
    `weights = torch.softmax(scores, dim=-1)`, then `weights.shape`)?"""
    defines = [h for h in doc.hints if h.kind == "define"]
    rand: set[str] = set()
    for h in sorted(defines, key=lambda h: (h.place.cell or 0, h.place.line)):
        name, rhs = h.value
        if (h.place.cell or 0, h.place.line) > (place.cell or 0, place.line):
            break
        if place.cell is not None and h.place.cell != place.cell:
            continue
        if place.cell is None and not 0 <= place.line - h.place.line <= 30:
            continue
        if _RANDOM.search(rhs) or rhs.strip() in rand or (
                subject and rand and re.search(r"\b(?:" + "|".join(map(re.escape, rand)) + r")\b", rhs)):
            rand.add(name.strip())
            ref = lb.parse_label(name.strip())
            if ref is not None and set(ref.nodes) & {"X", "Q", "K", "V"}:
                return True
        else:
            rand.discard(name.strip())
    return bool(subject) and subject in rand


def shape_subject(s: Any) -> str:
    """The name a shape statement is about: `k_t.shape`, `a.size()` -> `k_t`, `a`."""
    return re.sub(r"\.(?:shape|size\(\))$", "", s.label.strip())


def printed_with_that_shape(doc, s: Any) -> bool:
    """An array under the very name of the shape statement, printed before it in the same cell or within a few
    lines, has the stated shape: the statement is about that printout (`a = torch.tensor(...)`, `print(a)`,
    `print(a.shape)` in a scratch cell), whatever intermediate the name reads as."""
    name = shape_subject(s)
    if len(s.dims) < 2:
        return False
    return any((a.label or "").strip() == name and a.place.cell == s.place.cell and
               0 <= s.place.line - a.place.line <= 12 and [a.n_rows, a.n_cols] == list(s.dims[-2:])
               for a in doc.arrays)


# the last two axes swapped, and only those (`.transpose(1, 0, 2)` splitting heads is another permutation)
# (the whole right side: `k.T`, not `q @ k.T`, whose product is no transposed tensor)
_TRANSPOSE = re.compile(r"\s*[\w.]+(?:\.(?:T|mT)\b|\.t\(\)|\.(?:transpose|swapaxes)\(\s*"
                        r"(?:-2\s*,\s*-1|-1\s*,\s*-2|0\s*,\s*1|1\s*,\s*2)?\s*\))\s*|"
                        r"\s*(?:np|torch|tf)\.transpose\(\s*\w+\s*\)\s*")


def transposed_in_code(doc, s: Any) -> bool:
    """`k_t = k.transpose(-2, -1)`, then `print(k_t.shape)`: the name reads as K, and the code says it holds K
    transposed (its last two axes swapped)."""
    name = shape_subject(s)
    if not name.isidentifier():
        return False
    defines = [h for h in doc.hints if h.kind == "define" and h.value[0].strip() == name and
               h.place.order <= s.place.order]
    return bool(defines) and bool(_TRANSPOSE.fullmatch(max(defines, key=lambda h: h.place.order).value[1]))


def before_transpose(dims: list[int], shapes: list) -> bool:
    """(B, T, H, d_k) where the heads' layout is (B, H, T, d_k): `keys.view(b, T, H, d)` printed before its
    `.transpose(1, 2)`, the same tensor split into heads with its token and head axes not yet swapped; or, the
    heads' layout unbatched, (T, H, d_k) of a (T, H·d_k) matrix (a leading batch of one aside)."""
    dims = list(dims)
    while len(dims) > 3 and dims[0] == 1:
        dims = dims[1:]
    if len(dims) < 3:
        return False
    swapped = any(len(x) == len(dims) and list(x[:-3]) == list(dims[:-3]) and x[-3] == dims[-2] and
                  x[-2] == dims[-3] and x[-1] == dims[-1] and x[-3] != x[-2] for x in shapes)
    split = any(len(x) == len(dims) - 1 and list(x[:-1]) == dims[:-2] and x[-1] == dims[-2] * dims[-1] and
                dims[-2] > 1 for x in shapes)
    return swapped or split
