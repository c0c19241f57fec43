"""Numbers stated in prose: shapes ("a 3×4 matrix"), single values, tuples after a name, one entry read
out in words ("token 1's weight on token 2 is 0.41"), and the label nearest to each."""

from __future__ import annotations

import re

from .. import labels as lb
from .. import labelwords as lw
from ..numbers import Lit, Num
from ..objects import Array, Chain, ExprPart, LabelPart, Place, Reading, ShapePart
from ..vocabulary import WORD_RES
from .common import copy_context
from .shares import prose_number_hints


def prose_numbers(b: "Builder", line: str, place: Place) -> None:
    """Shapes and single numbers stated in prose: "a 3×4 matrix", "`W_v` is 4×2", "sum $\\approx 22.03$"."""
    if not re.search(r"\d", line):
        return
    prose_number_hints(b, line, place)          # every number in reading order, for claims/shares.py
    spans = [(m.start(), m.end(), m.group(1) or m.group(2) or m.group(3))
             for m in _INLINE_MATH.finditer(line)]
    masked = _mask(line, spans)
    # (start, end, dims, number) of each shape or number stated
    found = _math_numbers(line, spans) + _bare_numbers(masked) + _bare_shapes(masked)
    masked = _tuples(b, line, masked, place)
    found = _listed_numbers(b, line, masked, spans, place, found)
    for a, z, dims, number in sorted(found):
        _stated(b, line, place, spans, a, z, dims, number)


def _math_numbers(line: str, spans: list) -> list:
    """Inline math that is only a shape (`$3 \\times 4$`) or only a number."""
    found: list[tuple[int, int, list[int] | None, str | None]] = []
    for a, z, body in spans:
        m = _DIMS_ONLY.match(body)
        if m:
            found.append((a, z, [int(x) for x in re.findall(r"\d+", body)], None))
            continue
        m = _NUMBER_ONLY.match(body)
        if m and not _changed_from(line[:a], line[z:]):
            found.append((a, z, None, m.group(1)))
    return found


def _bare_numbers(masked: str) -> list:
    """Decimals in the words (outside math), not part of arithmetic, a change or a call."""
    found = []
    for m in re.finditer(r"(?<![\w.\[,])(-?\d+\.\d{2,})(?![\w\]])(?!\.\d)", masked):
        before, after = masked[:m.start()].rstrip(), masked[m.end():].lstrip()
        clause = re.split(r"[,;，；。:：]", before)[-1]
        if re.search(r"exact|would|could|rounds? to|精确|会得到|舍入|四舍五入", clause, re.I):
            continue            # a remark about rounding, not a value of the example
        if before[-1:] in set("=≈^/*×·+-−[,，") or after[:1] in set("=≈^/*×·+-−]") or \
                re.search(r"[=≈]\s*$|[/×*]\s*$", before):
            continue            # part of arithmetic: the statement reader has it
        if _changed_from(before, after):
            continue            # "pushes α_21 from 0.768 up to 0.944": the value before a change, not the quantity
        if re.search(r"\w\($", masked[:m.start()]) and after[:1] == ")":
            continue            # "exp(0.7071)=2.0281": the argument of a call, not a value of its name
        found.append((m.start(), m.end(), None, m.group(1)))
    return found


def _bare_shapes(masked: str) -> list:
    """Shapes in the words ("a 3×4 matrix"), not arithmetic or a factor of a written product."""
    found = []
    for m in _DIMS_TEXT.finditer(masked):
        if re.match(r"\s*[=＝+\-−]\s*\d", masked[m.end():]) or re.search(r"[=＝+\-−]\s*$", masked[:m.start()]):
            continue           # arithmetic (3×1+1×0=3), not a shape
        if re.search(r"\)\s*\(\s*$", masked[:m.start()]) or re.match(r"\s*\)\s*\(", masked[m.end():]):
            continue           # (3 × 4)(4 × 2): a factor of a written product of shapes, not a shape of a name
        found.append((m.start(), m.end(), [int(x) for x in re.findall(r"\d+", m.group(0))], None))
    return found


def _listed_numbers(b: "Builder", line: str, masked: str, spans: list, place: Place, found: list) -> list:
    """Lists of decimals in the words, each stored as a row; the single numbers found inside them dropped."""
    for m in re.finditer(r"[(（]\s*(-?\d+\.\d+(?:\s*[,，]\s*-?\d+\.\d+){2,})\s*[)）]|"
                         r"(?<![\d.])(-?\d+\.\d+(?:\s*/\s*-?\d+\.\d+){2,})(?![\d.])|"
                         r"(?<![\d.])(-?\d+\.\d+(?:\s*、\s*-?\d+\.\d+)+)(?![\d.])|" + _AND_LIST + "|" + _COLON_LIST,
                         masked):
        # (3) a Chinese list: 0.5774、1.1547、1.7321; (4) one in words: "0.742, 0.106 and 0.495"; (5) the whole
        # rest of a line after a colon: "Softmax: 0.1400, 0.2840, 0.5760."
        body = m.group(1) or m.group(2) or m.group(3) or m.group(4) or m.group(5)
        nums = []
        for t in re.finditer(r"-?\d+\.\d+", body):
            nums.append(Num.parse(t.group(0), place.line))
        label = _nearest_label(line[:m.start()], spans) or ""
        b.doc.add_array(Array([nums], place, label=label, labels=[label] if label else [], style="prose",
                              context=copy_context(b.ctx)))
        found = [f for f in found if not (m.start() <= f[0] < m.end())]
    return found


def _stated(b: "Builder", line: str, place: Place, spans: list, a: int, z: int, dims: list[int] | None,
            number: str | None) -> None:
    """One shape or number said in the words, stored as a chain with the label the sentence gives it."""
    label = None
    after = re.match(r"\s*的\s*(\$[^$]+\$|`[^`]+`|[\w\u4e00-\u9fff]+)", line[z:])
    if dims is not None and after and lb.parse_label(after.group(1).strip("$`")) is not None:
        label = after.group(1).strip("$`")
    if dims is not None and _HYPOTHETICAL.search(re.split(r"[,;，；。:：(（]", line[:a])[-1]):
        return                 # "in GPT-2 it would be 1024 × 1024": another model's size, not the example's
    if dims is not None and lw.CROSS_ATTENTION.search(line):
        return                 # "a 2×3 alpha from a 2×2 query": cross-attention's shapes, queries of another length
    if dims is not None and _operand(line[z:]):
        return                 # "(3 × 2 ile 2 × 3 → 3 × 3)": a factor of a product whose shape comes after →
    if dims is not None and label is None and _TO_MAKE.search(line[max(0, a - 40):a]):
        return                 # "then create a 4 x 3 matrix such that ...": an exercise's new matrix, none given
    if dims is not None and _COUNTED.search(line[max(0, a - 12):a]):
        return                 # "把兩個 2×2 接回 2×4", "two 2×2 blocks": the shape of each of several
    if dims is not None and label is None:
        label = _noun_after(line[z:])
        if label is None and _THING_AFTER.match(line[z:]) and not _CONTAINER.match(line[z:]):
            return            # "a 3×3 convolution", "4×4 patches": the size of that thing, none of ours
        if label == "" or _SAID_OF_EACH.search(re.split(r"(?<=[a-z)])\.\s+(?=[A-Z])|[。！？]", line[:a])[-1]):
            return            # "4×3 weight matrices", "each matrix will be a 4x3 matrix": said of several
    if label is None:
        label = _nearest_label(line[:a], spans)
    if label is not None and dims is None and _SUMS_TO.search(line[max(0, a - 30):a]):
        label = "row sum"        # "each row of the weights sums to `1.0`": the row's sum, not a weight
    if label is None:
        return
    if dims is not None and _result_word(label) and len(_SHAPE_SAID.findall(line[:a])) >= 2:
        return                       # "Q 是 3×2，K^T 是 2×3，结果是 3×3": the result of the factors' product, no Y
    if dims is None and _COLUMN_SUMS.search(re.split(r"[;；。]|\.\s", line[:a])[-1]):
        return                 # "every row sums to 1; the columns sum to 0.59, 1.01 and 1.40": not a row's sum
    if dims is not None:
        if len(dims) < 2 or any(d == 0 or d > 4096 for d in dims):
            return
        if re.fullmatch(r"(?:the\s+)?weights?|权重|注意力|attention", label.strip(), re.I):
            return             # "the weights are 4×3": the projection weights, not A
        for piece in _split_names(label):
            b.doc.chains.append(Chain([LabelPart(piece), ShapePart(dims, line[a:z])], ["∈"], place,
                                      line.strip()[:120], copy_context(b.ctx)))
    else:
        try:
            num = Num.parse(number, place.line)
        except ValueError:
            return
        c = copy_context(b.ctx)
        r = lb.row_in(line[:a], last=True)
        if r is not None and r != lb.row_in(line[:a]):
            c.row = r        # "Masked row 1 has ... Row 3 has ... sum 11.107": the row named last before it
        b.doc.chains.append(Chain([LabelPart(label), ExprPart(Lit(num), number)], ["="], place,
                                  line.strip()[:120], c))


# a generic word for what comes out, and a shape said in a sentence (3×2, $3\times2$, 3 x 2)
_RESULT_WORD = re.compile(r"(?i)(?:the\s+)?(?:result|product|output)|结果|結果|결과|resultado|ergebnis|résultat|"
                          r"risultato|hasil|sonuç|wynik|результат")
def _result_word(label: str) -> bool:
    """A label that is only a word for what comes out ("result", "结果刚好是"), no symbol of a quantity."""
    label = label.strip()
    m = _RESULT_WORD.match(label)
    return m is not None and (m.end() == len(label) or not re.search(r"[A-Za-z]", label[m.end():]))


_SHAPE_SAID = re.compile(r"\d+\s*(?:\\times|×|x|\*)\s*\d+")


# a number said to be what something sums to ("sums to `1.0`", "adds up to 1", "之和为 1")
_SUMS_TO = re.compile(r"(?:\b(?:sums?|adds?\s+up|add\s+up|totals?)\s+to|之和为|总和为|和为)\s*[`$*]{0,2}\s*$", re.I)


# a change told in words: the first value is what it was ("from 0.768 up to 0.944", "从 0.77 升到 0.94", "went
# down (`0.8438` to `0.7337`)")
_BEFORE_CHANGE = re.compile(r"(?:\bfrom|从|由|[(（])$", re.I)
_TO_CHANGE = re.compile(r"(?:%\s*)?(?:(?:up|down|all the way)\s+)?(?:to\b|升到|降到|提高到|增加到|变为|变成|到)", re.I)


_ARROW_NUMBER = re.compile(r"(?:→|->|⟶)\s*[`*_$]*-?\d")
_NUMBER_ARROW = re.compile(r"-?\d[\d.]*[`*_$]*\s*(?:→|->|⟶)$")


def _changed_from(before: str, after: str) -> bool:
    """Is the number between `before` and `after` the value before a change ("from 0.77 to 0.94", "(0.84 to
    0.73)"), or either end of one written with an arrow ("the weight went 0.2779 → 0.9998")?"""
    if _ARROW_NUMBER.match(after.lstrip(" `*_$")) or _NUMBER_ARROW.search(before.rstrip(" `*_$")):
        return True
    if _A_DEVIATION.match(after.lstrip(" `*_$")):
        return True             # "行和可能出现 $0.0001$ 量级偏差": the size of a drift, not the quantity itself
    return bool(_BEFORE_CHANGE.search(before.rstrip(" `*_$"))) and bool(_TO_CHANGE.match(after.lstrip(" `*_$")))


# what follows a number that is the size of a deviation of the quantity named before it, not its value
_A_DEVIATION = re.compile(r"(?:的)?(?:量级|数量级)?(?:的)?(?:偏差|误差|差异|出入)|(?:order\s+of\s+)?(?:deviation|discrepancy|"
                          r"rounding\s+(?:error|drift))", re.I)


# a size said of several objects at once, in the sentence before it: no one name takes it
# a count just before a shape: it is the shape of each of that many ("two 2×2", "兩個 2×2", "3 个 4×2")
_COUNTED = re.compile(r"(?:\b(?:two|three|four|both|several|multiple|\d+)\s+|[兩两二三四多几幾各每]\s*个?個?\s*)\$?\s*$", re.I)
_SAID_OF_EACH = re.compile(r"\b(?:each|every|all|these|both)\s+(?:of\s+(?:the|these)\s+)?(?:matrix|matrices)\b|"
                           r"\beach of them\b|每个矩阵|每一个矩阵|这些矩阵|三个矩阵|"
                           # "In this case they are going to be 2x2": said of the several named a sentence before
                           r"\b(?:they|these|those|them|both)\b|它们|这些", re.I)


# an exercise's instruction to make a matrix of that size: the size of what the reader will build
_TO_MAKE = re.compile(r"(?i)\b(?:create|build|make|construct|write|draw|design|form|initiali[sz]e|fill)\s+"
                      r"(?:(?:a|an|the|your|one|another)\s+)?(?:new\s+)?\$?$|(?:创建|构造|构建|建立|生成|写出?)\s*(?:一个)?\s*$")


# a word right after a size, not a function word (the size is that noun's), and nouns that only hold numbers ("a 3×4
# matrix" is still the named quantity's)
_THING_AFTER = re.compile(r"\s*(?!(?:by|and|or|times|to|of|is|are|per|each|for|in|on|at|with|as|from|the|a|an|it|"
                          r"this|that|which|where|so|then|here|now|too|also|both|there|only|all|when|if|but|while|after|before|"
                          r"instead|again|each|every)\b)[A-Za-z]{3,}", re.I)
_CONTAINER = re.compile(r"(?i)\s*(?:matri(?:x|ces)|tensors?|arrays?|vectors?|blocks?|tables?|shapes?|dim(?:ension)?s?|"
                        r"outputs?|results?|grids? of (?:numbers|values)|entries|elements|numbers|values|scores?|"
                        r"weights?|square|rectangular|real|float|mask)\b")


def _noun_after(rest: str) -> str | None:
    """"a 3×4 input", "three 4×3 weight matrices": English puts the noun after the size.  The name, "" for the
    projection weights said of several, None for none."""
    # (a transpose mark stays with its name: "a 4×3 K^T matrix" is the shape of Kᵀ, not of K)
    noun = re.match(r"\s*([A-Za-z]+(?:\^\{?(?:T|\\top)\}?|ᵀ)?(?:\s+[A-Za-z]+)?)", rest)
    if not noun:
        return None
    words = noun.group(1)
    if re.match(r"(?:weights?|projection)\b", words, re.I):
        return ""
    r = lb.parse_label(words) or lb.parse_label(words.split()[0])
    if r is None or re.match(r"(?:by|and|or|times|to|of|is|are|per|each|for|in|on|at|with)\b", words, re.I):
        return None
    first = words.split()[0]
    return words if lb.parse_label(words) and not (first != words and lb.parse_label(first) and
                                                    lb.parse_label(first).transposed) else first


def _tuples(b: "Builder", line: str, masked: str, place: Place) -> str:
    """Vectors written as tuples after a name: "x_1 = (1, 0, 2)^T" (a column: row 1 of X in the row
    convention), "alpha_1 = softmax(e_1) = (0.2, 0.5, 0.3)", and "    = (1.89, 0.66)^T" continuing the
    "z_1 = ..." a line above.  Only a tuple right after "=" that ends its chain, named by a label: a tuple in
    arithmetic, in words, or called a shape is none of these."""
    head = re.match(r"\s*([A-Za-z\u03b1-\u03c9][\w^{}']*)\s*=(?!=)", masked)
    cont = re.match(r"\s*[=≈]", masked)
    if head and lb.parse_label(head.group(1)) is not None:
        b._chain = head.group(1)
    elif not cont:
        b._chain = None
    prev = 0
    for m in _TUPLE.finditer(masked):
        before, after = masked[prev:m.start()], masked[m.end():]
        prev = m.end()
        if not re.search(r"(?<![=<>!])[=≈]\s*$", before) or re.match(r"\s*(?:[-+*/·×^(\d]|\.\d)", after):
            continue             # (a full stop after the tuple ends the sentence, it continues nothing)
        flat = before
        for _ in range(3):                 # commas inside parentheses do not end the clause
            flat = re.sub(r"\([^()]*\)", lambda p: "(" + "#" * (len(p.group(0)) - 2) + ")", flat)
        cut = max([0] + [x.end() for x in re.finditer(r"[;,，；:：]\s|\.\s|\s{3,}", flat)])
        clause = before[cut:]              # "so q = k, and Q.shape = (3, 2)": the clause of the tuple
        first = re.split(r"(?<![=<>!])[=≈](?!=)", clause)[0]
        if re.search(r"shape|size|dim|∈|\bin\b|R\^|形状|维", first, re.I):
            continue             # "Qh.shape = (2, 3, 2)", "in R^(2, 3)": a shape
        if "+" in first:
            continue             # "0.40×v₁ + 0.20×v₂ + 0.40×v₃ = (0.80, 0.60)": the sum's, not its last term's name
        names = re.findall(r"[A-Za-z\u03b1-\u03c9][\w^{}']*", first)
        label = names[-1] if names else (getattr(b, "_chain", None) if not first.strip() and cont else None)
        if not label or lb.parse_label(label) is None:
            continue
        nums = [Num.parse(t.group(0), place.line) for t in re.finditer(r"[-−]?\d+(?:\.\d+)?", m.group(1))]
        # "name = (…)" names its vector as firmly as a matrix is named: not the weak "prose" style
        b.doc.add_array(Array([nums], place, label=label, labels=[label], style="tuple",
                                 context=copy_context(b.ctx)))
        masked = masked[:m.start()] + " " * (m.end() - m.start()) + masked[m.end():]
    return masked


def reading(b: "Builder", line: str, place: Place) -> bool:
    m = _READING.search(line)
    if not m:
        return False
    g = m.groupdict()
    i, j, v = (g["i"], g["j"], g["v"]) if g.get("v") else (g.get("i2"), g.get("j2"), g.get("v2"))
    if v is None or j is None:
        return False
    row = int(i) if i else b.ctx.row
    try:
        value = Num.parse(v, place.line)
    except ValueError:
        return False
    words = g.get("w") or ""
    b.doc.readings.append(Reading(value, row, int(j), words, place, line.strip(), copy_context(b.ctx)))
    return True


_TUPLE = re.compile(r"[(（]\s*([-−]?\d+(?:\.\d+)?(?:\s*[,，]\s*[-−]?\d+(?:\.\d+)?)+)\s*[)）]"
                    r"(?:\s*\^\s*\{?\s*(?:T|\\top)\s*\}?|ᵀ|⊤|')?")

_READING = re.compile(
    r"(?:(?:token|词|query|查询|行)\s*(?P<i>\d+)\s*)?[^\d\n]{0,30}?(?:token|词|key|键)\s*(?P<j>\d+)"
    r"[^\d\n]{0,30}?(?P<w>weight|score|权重|分数|相似度|得分)[^\d\n]{0,12}?(?P<v>-?\d+(?:\.\d+)?)\s*[。.;；,，)）]?\s*$"
    r"|(?:(?:token|词|query|查询)\s*(?P<i2>\d+)\s*)?[^\d\n]{0,30}?(?:token|词|key|键)\s*(?P<j2>\d+)[^\d\n]{0,30}?"
    r"(?:=|:|：)\s*(?P<v2>-?\d+(?:\.\d+)?)\s*[。.;；,，)）]?\s*$",
    re.I)

# three or more numbers with decimals, the last after "and" (und, et, y, 和): one vector said in words; not part of a
# longer run of numbers on either side ("0.34, 0.38 and 0.28, 0.40": two rows run together)
_AND_LIST = (r"(?<![\d.])(?<!\d,\s)(?<!\d,)(-?\d+\.\d+(?:\s*,\s*-?\d+\.\d+)+\s*,?\s+(?:and|und|et|y|和|与|及)\s+"
             r"-?\d+\.\d+)(?!\.?\d|%)(?!\s*,\s*-?\d)")
# a label, a colon, then nothing but three or more decimals to the end of the line (or of its sentence), a remark
# in parentheses allowed after them
_COLON_LIST = (r"(?<=[:：])\s*(-?\d+\.\d+(?:\s*[,，]\s*-?\d+\.\d+){2,})\s*(?:[(（][^()（）]*[)）])?\s*[.;。；]?\s*$")
_INLINE_MATH = re.compile(r"\$\$?([^$]+?)\$\$?|\\\((.+?)\\\)|`([^`]+)`")
_DIMS_ONLY = re.compile(r"^\s*\(?\s*\d+\s*(?:\\times|×|x|\\cdot)\s*\d+(?:\s*(?:\\times|×|x)\s*\d+)*\s*\)?\s*$")
_NUMBER_ONLY = re.compile(r"^\s*(?:\\approx|≈|=|\\sim)?\s*(-?\d+\.\d+)\s*$")
# after a shape: perhaps another shape, then an arrow and the product's shape ("3 × 2 ile 2 × 3 → 3 × 3")
_OPERAND = re.compile(r"(?:[^→\n]{0,40}?(?<![\w.])\d+\s*[×xX*]\s*\d+)?[^→\n\d]{0,12}?(?:→|->|⟶|⇒|=>)\s*\d+\s*"
                      r"[×xX*]\s*\d+|"
                      # "(2×4 @ 4×2 = 2×2)": the first factor of a product of shapes written out with its result
                      r"\s*(?:@|·|⋅|\*|×|times)\s*\d+\s*[×xX*]\s*\d+\s*=\s*\d+\s*[×xX*]\s*\d+")


def _operand(rest: str) -> bool:
    """Is the shape just read a factor of a product whose own shape the rest of the line gives after an arrow?"""
    rest = re.sub(r"\\(?:times|cdot)", "×", rest.replace("$", " "))
    return _OPERAND.match(re.sub(r"\\(?:to|rightarrow|longrightarrow|Rightarrow)\b", "→", rest)) is not None
_DIMS_TEXT = re.compile(r"(?<![\w.])\d+\s*[×xX]\s*\d+(?:\s*[×xX]\s*\d+)*(?![\w.])")
_STOP = re.compile(r"gives?|giving|yields?|produces?|results? in|becomes?|得到|变成|结果|=|→|->|⇒|times|乘以|乘|by", re.I)


_JOINED = re.compile(r"[\s$`*]*(?:and|or|和|与|及|或)[\s$`*]*", re.I)
_COLUMN_SUMS = re.compile(r"\bcolumns?\b[^;.]*\b(?:sums?|adds?\s+up|totals?)\b|\bcolumn[-_ ]?(?:sums?|totals?)\b|"
                          r"\bsums?\s+of\s+(?:each|every|the)\s+columns?\b|列(?:之)?和|每一?列", re.I)
_HYPOTHETICAL = re.compile(r"\b(?:would|could|might)\b|会是|可能是", re.I)


def _factor(clause: str, start: int) -> bool:
    """Is the name that starts at `start` the second factor of a product written side by side or with a sign
    ("X W_Q is 3 × 2", "Q Kᵀ / √2 is 3 × 3", "Q × K^T (a 3×3 matrix)")?  A size said after it is the product's,
    not the factor's."""
    prev = re.search(r"(?<![\w\\])([A-Za-z](?:_\{?\w+\}?|\^\{?\w+\}?|ᵀ|⊤|')*)\s*(?:[*·@×]|\\times|\\cdot)?\s*$",
                     clause[:start])
    return prev is not None and lb.parse_label(prev.group(1)) is not None and prev.group(1) != "a"


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
    ends = [m.end() for m in re.finditer(r"(?<![\d\s.])\.\s+(?=\S)", masked)]
    if ends:                 # only this sentence: "... carries $x_i$ along. A $3\times3$ ..." names nothing
        before, masked = before[ends[-1]:], masked[ends[-1]:]
    cuts = [0] + [m.end() for m in re.finditer(r"[;；。!?！？]|(?<!\d)[,，]|[,，](?=\s)", masked)]
    clauses = [before[a:b] for a, b in zip(cuts, cuts[1:] + [len(before)])]
    for depth, clause in enumerate(reversed(clauses[-2:])):
        units = []
        for m in re.finditer(r"\$\$?([^$]+?)\$\$?|\\\((.+?)\\\)|`([^`]+)`|([A-Za-z_\u4e00-\u9fff][\w\u4e00-\u9fff'^{}\\]*)",
                             clause):
            units.append((m.end(), m.group(1) or m.group(2) or m.group(3) or m.group(4), m.start()))
        for end, unit, start in reversed(units):
            if _STOP.search(clause[end:]):
                return None
            between = clause[end:]
            if between.count(")") > between.count("("):
                continue         # "$-1.609$ (beam1+$w_1$) and $-2.079$": a name in brackets closed before the
                                 # number is said of what comes before the brackets
            if _JOINED.fullmatch(between):
                return None      # "$w_1$ and $-2.079$": one item of a list names no number after the list
            if len(unit) == 1 and unit not in "QKVXSYO":
                continue
            if re.search(r"[\u4e00-\u9fff]", unit) and _STOP.search(unit):
                hit = next((m for rx, _ in WORD_RES for m in [rx.search(unit)] if m), None)
                if hit is None or _STOP.search(unit[hit.end():]):
                    return None
            u = unit.split("=")[0].strip() if "=" in unit and not re.search(r"[\d.]\s*$", unit.split("=")[0]) \
                else unit
            r = lb.parse_label(u)
            if r is not None:
                if re.match(r"\s*(?:[×*·@]|\\times|\\cdot)\s*[A-Za-z\\]", clause[end:]):
                    return None      # "Q×Kᵀ ... (3 × 3)": the first factor of a product, whose size is said
                return None if re.match(r"[A-Za-z\\]", unit) and _factor(clause, start) else u
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
