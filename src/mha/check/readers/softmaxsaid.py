"""A softmax said in one sentence of prose: "Applying softmax to the scaled scores `[0.58, 1.15, 0.58]` produces
the weights `[0.26, 0.47, 0.26]`", "对 [1.2, 0.4] 做 softmax 得到 [0.69, 0.31]".  The sentence says that the second
vector is the softmax of the first, as `softmax([...]) = [...]` does (statements.py): the two are tied
(`Array.softmax_of`) and judged against each other (claims/softmax.py), whatever the configuration.

Only what the sentence says plainly is read:
* one sentence (no period outside the numbers, one line), the word softmax before the first vector, a verb of
  giving (gives, yields, produces, returns, results in, becomes, turns into; 得到, 变成, 结果为) between the two;
* no other operation named between them (a division, √, a temperature, a mask, exp, a log): `softmax of [1, 2, 1]
  divided by √3 gives [...]` applies the scale first, and which one is not said here;
* the second vector is a row of weights: two entries or more, each in [0, 1], summing to 1 within 0.2 (the
  rounding, or one slipped digit: the slip is what the pair is judged for).

An arrow between two vectors is the same statement when the line, or the line above it, names the softmax or the
normalisation (`第一行分数 [0.4, 0.8, 1.6] → 归一化后 [0.17, 0.26, 0.57]`; a comment `# softmax 归一化` over
`# [2.0, 0.5, -inf] → [0.82, 0.18, 0.00]`), no other operation is named there, and the weights are not the scores
divided by their sum (a normalisation, but not the softmax).  The arrow is then read as the document's other
arrows are (claims/softmax.py): the scores may have been scaled on the way (softmax(row / √d) for a whole d), and
most arrow rows of the document must be softmax rows before one that is not is called a slip.
"""

from __future__ import annotations

import math
import re

from .. import labels as lb
from ..numbers import Num
from ..objects import Array, Context, Document, Place

_NUM = r"-?\d+(?:\.\d+)?"
_VEC = rf"[`$]?\[\s*({_NUM}(?:\s*,\s*{_NUM})+)\s*\][`$]?"
_GIVES = r"(?:gives?|giving|yields?|yielding|produces?|producing|returns?|results? in|outputs?|becomes?|" \
         r"turns? (?:them |it |these |this )?into|we get)"
_SAID_EN = re.compile(rf"\bsoftmax\b(?P<a>[^.\[\]]{{0,60}}?){_VEC}(?P<b>[^.\[\]]{{0,60}}?)\b{_GIVES}\b"
                      rf"(?P<c>[^.\[\]]{{0,80}}?){_VEC}", re.I)
_GIVES_ZH = r"得到|变成|变为|结果约?为|结果是|约为|约等于"
_SAID_ZH = re.compile(rf"(?:softmax|Softmax|SoftMax)(?P<a>[^。；\[\]]{{0,20}}?){_VEC}(?P<b>[^。；\[\]]{{0,20}}?)"
                      rf"(?:{_GIVES_ZH}|输出)(?P<c>[^。；\[\]]{{0,20}}?){_VEC}|"
                      rf"(?:对\s*)?(?P<a2>){_VEC}(?P<b2>\s*(?:做|进行|应用|取|求|经过|通过)\s*(?:softmax|Softmax|SoftMax)"
                      rf"[^。；\[\]]{{0,10}}?)(?:{_GIVES_ZH})(?P<c2>[^。；\[\]]{{0,20}}?){_VEC}")
# ... or with its numbers listed in the words ("Applying softmax to 14 and 12 gives 0.88 and 0.12", "14 和 12 经
# Softmax 后得到 0.88 和 0.12"): nothing but a space between the scores and the verb, so that the list is the scores
_LIST = rf"(?<![\d.])({_NUM}(?:\s*,\s*{_NUM})*\s*,?\s*(?:and|和|与|及|、)\s*{_NUM})(?!\d|\.\d)"
_LISTED_EN = re.compile(rf"\bsoftmax\b(?P<a>[^.\[\]\d]{{0,40}}?){_LIST}(?P<b>\s*),?\s*{_GIVES}\b"
                        rf"(?P<c>[^.\[\]\d]{{0,40}}?){_LIST}", re.I)
_LISTED_ZH = re.compile(rf"(?:对\s*)?(?P<a2>){_LIST}(?P<b2>\s*(?:做|进行|应用|取|求|经过|通过|经)\s*(?:softmax|Softmax|SoftMax)"
                        rf"[^。；\[\]\d]{{0,10}}?)(?:{_GIVES_ZH})(?P<c2>[^。；\[\]\d]{{0,20}}?){_LIST}")
# ... in Korean or Japanese, the scores first ("점수 `[2,1,0]`에 Softmax를 적용하면 약 `[0.67, 0.24, 0.09]`", "점수가
# `[1, 3, 2]`라면 Softmax 가중치는 `[...]`", "スコア [2, 1, 0] にソフトマックスを適用すると [...]"): the softmax named between
# the two vectors, with a verb of applying it or the weights named as what follows
_SOFTMAX_CJK = r"(?:softmax|Softmax|SoftMax|소프트맥스|ソフトマックス)"
_APPLIED_CJK = r"(?:적용|취하|거치|통과|넣으|가중치는|결과는|확률은|適用|通す|通すと|かける|かけると|取ると|とると|重みは|結果は)"
_SAID_CJK = re.compile(rf"(?P<a2>){_VEC}(?P<b2>[^.。；\[\]\d]{{0,16}}?{_SOFTMAX_CJK}[^.。；\[\]\d]{{0,16}}?)"
                       rf"(?P<c2>(?<=[가-힣ぁ-んァ-ン])[\s约約약]*){_VEC}")
_LISTED_WORDS = re.compile(r"\s*,?\s*(?:and|和|与|及|、)\s*")
# another operation named between the scores and the weights: which one is applied first is not said plainly
_OTHER = re.compile(r"divid|√|sqrt|temperature|scal(?:e|ed|ing) by|/|τ|\btau\b|mask|\bexp|e\^|\blog|除以|缩放|温度|掩码|나누|나눈|스케일|온도|마스크|割|スケール|マスク",
                    re.I)
MAX_RUN = 12            # arrow lines under the line that says softmax
_ROOM = 0.2             # how far the weights may sum from 1: rounding, or one slipped digit
_FENCE = re.compile(r"^\s*(?:```|~~~)")
_TAG = re.compile(r"<[^<>\n]{0,200}>")
_ENTRY = r"(?:-?\d+(?:\.\d+)?|[-−](?:inf|∞))"
_ARROW = re.compile(rf"\[\s*({_ENTRY}(?:\s*,\s*{_ENTRY})+)\s*\]`?\s*(?:→|->|⟶|=>)\s*(?P<w>[^\[\]\d]{{0,14}}?)\s*"
                    rf"[:：]?\s*`?\[\s*({_NUM}(?:\s*,\s*{_NUM})+)\s*\]", re.I)
_NORMALISED = re.compile(r"^(?:归一化后?|softmax\s*后?|after softmax|normali[sz]ed|weights?|权重|概率|probabilities)?$",
                         re.I)
_SAYS = re.compile(r"softmax|归一化|normali[sz]", re.I)


def tie_said_softmax(doc: Document, text: str) -> None:
    """Tie each softmax said in a sentence of a Markdown, plain-text or HTML document (its tags taken out of the
    line); add the vectors the statement reader did not keep (a vector inside a sentence is part of its words)."""
    if doc.format not in ("md", "text", "html"):
        return
    added = False
    fenced = False
    for k, line in enumerate(text.split("\n")):
        if _FENCE.match(line):
            fenced = not fenced
            continue
        if fenced or ("softmax" not in line.lower() and "소프트맥스" not in line and "ソフトマックス" not in line):
            continue
        if doc.format == "html":
            line = _TAG.sub(" ", line)          # `<em>scaled scores</em> [2, 1, 0]`: the words, not the markup
        for m in (*_SAID_EN.finditer(line), *_SAID_ZH.finditer(line), *_LISTED_EN.finditer(line),
                  *_LISTED_ZH.finditer(line), *_said_cjk(line)):
            added |= _tie(doc, m, k + 1, line)
    if added:
        doc.set_arrays(doc.arrays, in_reading_order=True)


def _said_cjk(line: str) -> list[re.Match]:
    """The Korean and Japanese sentences (_SAID_CJK) whose words between the vectors apply the softmax."""
    return [m for m in _SAID_CJK.finditer(line) if re.search(_APPLIED_CJK, m.group("b2")) or
            re.search(_SOFTMAX_CJK + r"\s*(?:는|은|は)\s*$", m.group("b2"))]      # "softmax는 약 [...]"


def tie_arrow_softmax(doc: Document, text: str) -> None:
    """Tie `[scores] → [weights]` where its line or the line above says softmax (module docstring)."""
    if doc.format not in ("md", "text", "py"):
        return
    lines = text.split("\n")
    for k, line in enumerate(lines):
        if "[" not in line:
            continue
        above = _above(lines, k)
        for m in _ARROW.finditer(line):
            if not _NORMALISED.match(m.group("w").strip()):
                continue
            rest = _ARROW.sub(" ", line)
            # scores with -∞ in them are masked already: "the masked scores" above them names no other step
            masked = re.search(r"inf|∞", m.group(1)) is not None
            if not (_SAYS.search(rest) or m.group("w").strip() or _SAYS.search(above)) or \
                    any(_other(t, masked) for t in (rest, above)):
                continue
            _tie_arrow(doc, k + 1, m.group(1), m.group(3))


def _other(text: str, masked: bool) -> bool:
    """Does the text name an operation besides the softmax (a mask too, unless the scores carry theirs)?"""
    text = re.sub(r"(?i)softmax", "", text)
    return any(not (masked and re.fullmatch(r"(?i)mask|掩码", m.group(0))) for m in _OTHER.finditer(text))


def _above(lines: list[str], k: int) -> str:
    """The line over line k's run of arrow lines (`# softmax 归一化` over three `# [...] → [...]`), blank lines
    skipped; "" when the run is longer than MAX_RUN."""
    j = k - 1
    while j >= 0 and (not lines[j].strip() or _ARROW.search(lines[j])) and k - j <= MAX_RUN:
        j -= 1
    return lines[j] if j >= 0 and k - j <= MAX_RUN else ""


def _a_softmax_pair(xs: list[float], ys: list[Num], room: float = _ROOM) -> bool:
    """Can ys be the softmax weights of the scores xs, as far as their values say?  Weights in [0, 1] summing to 1
    (within _ROOM), scores that are no weights themselves, and not the scores over their sum (a normalisation)."""
    if len(xs) != len(ys) or not all(0 <= n.value <= 1 for n in ys) or abs(sum(n.value for n in ys) - 1) > room:
        return False
    finite = [v for v in xs if math.isfinite(v)]
    if len(finite) < 2 or (all(0 <= v <= 1 for v in finite) and abs(sum(finite) - 1) < 0.02):
        return False                              # the weights again, not the scores
    total = sum(finite)
    return not (total and all(n.contains(v / total, slack=n.half) if math.isfinite(v) else n.value == 0
                              for n, v in zip(ys, xs)))


def _tie_arrow(doc: Document, line: int, left: str, right: str) -> None:
    xs = [-math.inf if re.fullmatch(r"[-−](?:inf|∞)", t) else float(t) for t in re.split(r"\s*,\s*", left.strip())]
    ys = [Num.parse(t, line) for t in re.split(r"\s*,\s*", right.strip())]
    if not _a_softmax_pair(xs, ys):
        return
    row = [a for a in doc.arrays if a.place.cell is None and a.line == line and a.n_rows == 1 and a.rows[0] and
           None not in a.rows[0]]
    x = next((a for a in row if [n.value for n in a.rows[0]] == xs), None)
    y = next((a for a in row if [n.text for n in a.rows[0]] == [n.text for n in ys]), None)
    if x is None or y is None or x is y or y.softmax_of is not None:
        return
    y.softmax_of = x
    y.softmax_arrow = True


def _tie(doc: Document, m: re.Match, line: int, text: str) -> bool:
    vecs = [v for g in m.groups() if g is not None and
            re.fullmatch(rf"{_NUM}(?:\s*,\s*{_NUM})+", v := _LISTED_WORDS.sub(", ", g.strip()))]
    words = [g for g in (m.groupdict().get(n) for n in ("a", "b", "c", "a2", "b2", "c2")) if g]
    if len(vecs) != 2 or any(_OTHER.search(w.replace("softmax", "").replace("Softmax", "")) for w in words):
        return False
    label = (m.groupdict().get("c") or m.groupdict().get("c2") or "").strip() or "weights"
    return _tie_vectors(doc, line, vecs[0], vecs[1], label, bool(lb.APPROX_WORDS.search(text)))


def _tie_vectors(doc: Document, line: int, left: str, right: str, label: str, approx: bool,
                 where: str = "prose") -> bool:
    """Tie the row of weights `right` to the scores `left` (both written `a, b, c`) on this line, adding the arrays
    the other readers did not make; whether any was added."""
    xs, ys = ([Num.parse(t, line) for t in re.split(r"\s*,\s*", v.strip())] for v in (left, right))
    if len(xs) != len(ys) or [n.text for n in xs] == [n.text for n in ys] or \
            not all(0 <= n.value <= 1 for n in ys) or abs(sum(n.value for n in ys) - 1) > _ROOM:
        return False
    added = False
    got = []
    for nums, name in ((xs, "softmax input"), (ys, label)):
        a = _on_line(doc, line, nums)
        if a is None:
            a = Array([nums], Place(line, None, where), label=name, labels=[name], context=Context(approx=approx))
            doc.arrays.append(a)
            added = True
        got.append(a)
    x, y = got
    if y.softmax_of is None and x is not y:
        y.softmax_of = x
    return added


# an exercise's example: `input: scores = [1, 2, 3]` over `output: [0.0900, 0.2447, 0.6652]`
_IO_IN = re.compile(rf"^\s*(?:input|输入)\s*[:：]\s*(?:[A-Za-z_]\w*\s*=\s*)?\[\s*({_NUM}(?:\s*,\s*{_NUM})+)\s*\]\s*$",
                    re.I)
_IO_OUT = re.compile(rf"^\s*(?:output|输出)\s*[:：]\s*\[\s*({_NUM}(?:\s*,\s*{_NUM})+)\s*\]\s*$", re.I)
_IO_BACK = 40           # lines above the input within which the page must name the softmax


# a row named by its step over the row of its softmax: `raw:     [0.2, 3.1, 1.4]` over `softmax: [.14, .61, .25]`
_STEP_IN = re.compile(rf"^\s*(?:raw|raw scores|scores?|logits?)\s*[:：]\s*`?\[\s*({_NUM}(?:\s*,\s*{_NUM})+)\s*\]",
                      re.I)
_STEP_OUT = re.compile(rf"^\s*softmax\s*[:：]\s*`?\[\s*(-?(?:\d+)?\.?\d+(?:\s*,\s*-?(?:\d+)?\.?\d+)+)\s*\]", re.I)


def tie_step_rows(doc: Document, text: str) -> None:
    """`raw: [...]` right over `softmax: [...]` (module docstring): the second row is the first's softmax, when the
    values can be (_a_softmax_pair, with room for a slipped digit: the row is named the softmax), and no other
    operation is named in the lines above a row of mere "scores" ("With scaling:" says which scores are inside)."""
    if doc.format not in ("md", "text", "py") or "softmax" not in text.lower():
        return
    _tie_line_pairs(doc, text, _STEP_IN, _STEP_OUT, 0.5, lambda lines, k: re.match(
        r"\s*(?:raw|logits?)\b", lines[k], re.I) is not None or not _OTHER.search("\n".join(lines[max(0, k - 5):k])))


def tie_io_softmax(doc: Document, text: str) -> None:
    """An exercise's `input: [...]` line right over its `output: [...]` line, on a page that names the softmax in the
    lines above and no other operation on the two lines: the output is the input's softmax, when the values can be
    (_a_softmax_pair, as for an arrow)."""
    if doc.format not in ("md", "text", "py") or "put" not in text and "输" not in text:
        return
    _tie_line_pairs(doc, text, _IO_IN, _IO_OUT, _ROOM,
                    lambda lines, k: _SAYS.search("\n".join(lines[max(0, k - _IO_BACK):k])) is not None)


def _tie_line_pairs(doc: Document, text: str, first: re.Pattern, second: re.Pattern, room: float, ok) -> None:
    """Each line `first` matches right over one `second` matches (the vector their first group holds): the second
    vector is the first's softmax, where ok(lines, k) and the values can be (_a_softmax_pair)."""
    lines = text.split("\n")
    for k in range(len(lines) - 1):
        m, n = first.match(lines[k]), second.match(lines[k + 1])
        if m is None or n is None or not ok(lines, k):
            continue
        scores = [Num.parse(t, k + 1) for t in re.split(r"\s*,\s*", m.group(1).strip())]
        ys = [Num.parse(t, k + 2) for t in re.split(r"\s*,\s*", n.group(1).strip())]
        if not _a_softmax_pair([v.value for v in scores], ys, room=room):
            continue
        x, y = _on_line(doc, k + 1, scores), _on_line(doc, k + 2, ys)
        if x is not None and y is not None and x is not y and y.softmax_of is None:
            y.softmax_of = x


# a Markdown table of softmax examples: an input column and a softmax column, a vector in each cell
_TABLE_ROW = re.compile(r"^\s*\|(.*)\|\s*$")
_IN_HEAD = re.compile(r"^(?:输入|input|inputs|scores?|logits?|分数|x|z)$", re.I)
_OUT_HEAD = re.compile(r"^(?:softmax|softmax\s*(?:输出|output|结果|result|weights?|权重)|(?:输出|output|weights?|权重)"
                       r"\s*\(?softmax\)?)$", re.I)
# (a cell may write a tiny weight in E notation, `2e-9`, and one near 1 as `~1.0`)
_CELL_NUM = r"(?:[~≈]\s*)?-?\d+(?:\.\d+)?(?:[eE][-+]?\d+)?"
_CELL_VEC = re.compile(rf"^[`$]?\[\s*({_CELL_NUM}(?:\s*,\s*{_CELL_NUM})+)\s*\][`$]?$")


def tie_table_softmax(doc: Document, text: str) -> None:
    """`| 输入 | softmax 输出 |` over rows `| [1, 2, 3] | [0.09, 0.24, 0.67] |`: each row says that its second vector
    is the softmax of its first, as a sentence would.  Only a table whose header names an input column and a column
    that is the softmax alone (no scale, temperature or mask in its name), and only cells that are plain vectors."""
    if doc.format not in ("md", "text") or "|" not in text:
        return
    lines = text.split("\n")
    added = False
    cols = None
    for k, line in enumerate(lines):
        m = _TABLE_ROW.match(line)
        if m is None:
            cols = None
            continue
        cells = [c.strip().strip("*").strip() for c in m.group(1).split("|")]
        if cols is None:
            heads = [i for i, c in enumerate(cells) if _IN_HEAD.match(c)], \
                    [i for i, c in enumerate(cells) if _OUT_HEAD.match(c)]
            cols = (heads[0][0], heads[1][0]) if len(heads[0]) == 1 and len(heads[1]) == 1 else ()
            continue
        if not cols or max(cols) >= len(cells):
            continue
        a, b = (_CELL_VEC.match(cells[i]) for i in cols)
        if a is not None and b is not None:
            left, right = (re.sub(r"[~≈]\s*", "", v.group(1)) for v in (a, b))
            added |= _tie_vectors(doc, k + 1, left, right, "softmax", right != b.group(1), "table")
    if added:
        doc.set_arrays(doc.arrays, in_reading_order=True)


def _on_line(doc: Document, line: int, nums: list[Num]) -> Array | None:
    """The one-row array the statement reader already made of these numbers on this line, if any."""
    texts = [n.text for n in nums]
    return next((a for a in doc.arrays if a.place.cell is None and a.line == line and a.n_rows == 1 and
                 a.rows[0] is not None and [n.text if n is not None else None for n in a.rows[0]] == texts), None)


# the text defines σ as the softmax: `\text{softmax}(v)_i = \sigma(v)_i`, "σ denotes the softmax", "σ 表示 softmax"
_SIGMA_DEFINED = re.compile(r"softmax\}?\s*\(\s*\w*\s*\)\s*(?:_\{?\w\}?)?\s*=\s*\\sigma|"
                            r"(?:\\sigma|σ)\S{0,4}\s+(?:denotes|is|stands for|=|表示|为|是)\s*(?:the\s+)?"
                            r"(?:\\(?:text|operatorname|mathrm)\{)?softmax", re.I)
_SIGMOID = re.compile(r"sigmoid|logistic|S 型|S型", re.I)
_SIGMA_CALL = re.compile(r"(?:\\sigma\b|σ)(?=\s*(?:\\left)?\s*\()")


def sigma_as_softmax(text: str) -> str:
    """Where the text defines σ as the softmax (and names no sigmoid), `σ([1.0, 1.1]) = [0.475, 0.525]` is a softmax
    written out, read as if the author had written softmax there (claims/applied.py).  Elsewhere σ may be the
    sigmoid, applied entry by entry, and is left alone."""
    if ("σ" not in text and "\\sigma" not in text) or not _SIGMA_DEFINED.search(text) or _SIGMOID.search(text):
        return text
    return _SIGMA_CALL.sub("softmax", text)
