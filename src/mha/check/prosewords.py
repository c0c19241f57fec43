"""The words of the prose around a printed number that say which head, row and step it belongs to ("head 2",
"第 3 行", "the second token", "scaled"), and that its values are worked from rounded ones (labels.py re-exports
these)."""

from __future__ import annotations

import re

_ZH = {"一": 1, "二": 2, "三": 3, "四": 4, "五": 5, "六": 6, "七": 7, "八": 8, "两": 2}


_HEAD_WORDS = re.compile(r"(?:\bhead\s*#?\s*(\d+)\b|第\s*(\d+|[一二三四五六七八])\s*个?\s*(?:头|head)|头\s*(\d+)|"
                         r"\bheads?\[(\d+)\]|\bh\s*=\s*(\d+)\b)", re.I)
_ROW_WORDS = re.compile(r"(?:第\s*(\d+|[一二三四五六七八九十])\s*行|\brow\s+(\d+)\b|\btoken\s+(\d+)\b|\bquery\s+(\d+)\b|"
                        r"\b(first|second|third|fourth|fifth|sixth) (?:row|token|query)\b)", re.I)
_ORDINAL = {"first": 1, "second": 2, "third": 3, "fourth": 4, "fifth": 5, "sixth": 6}
_STEP_WORDS = [
    ("scores", r"scores?|similarit|dot[- ]product|相似|分数|点积|q\s*k"),
    ("scale", r"scal|缩放|√|sqrt"),
    ("softmax", r"softmax|weights|权重|归一"),
    ("weighted_sum", r"weighted|加权|乘以\s*v|times v|context|上下文"),
    ("concat", r"concat|拼接"),
    ("output", r"output projection|输出投影|w_?o|final"),
    ("projection", r"projection|投影|q,? ?k,? ?v|queries|查询"),
    ("split", r"split|拆|heads?\b"),
    ("input", r"\binputs?\b|输入|embeddings?"),
]
# The document says that what follows is computed from rounded values: one unit in the last digit is then
# a rounding artefact (a note), not a slip.  "≈" alone only says a number is rounded at its own precision.
APPROX_WORDS = re.compile(r"(?:computed|calculated|worked out|done|derived)\s+(?:\w+\s+){0,3}(?:from|with|using)\s+"
                          r"(?:the\s+|these\s+)?rounded|from\s+(?:the\s+|these\s+)?rounded\s+(?:weights|values|numbers|terms)|"
                          r"rounding (?:noise|error|artefact|artifact)s?|come(?:s)? only from rounding|"
                          r"舍入误差|舍入造成|差别只来自|只差在第.位|用.{0,12}(?:四舍五入|舍入|位小数).{0,12}(?:算|计算)|"
                          r"中间结果算|四位小数的(?:权重|中间结果)|"
                          # a declared approximation: "approximate the above as follows", "for readability"
                          r"approximat(?:e|ed|ing)\s+(?:the|these|this|them|it|as)\b|for readability|roughly|"
                          r"近似为|近似地|约等于|大约|假[设定].{0,3}约|"      # "Softmax 后假设约为 [..]": supposed, about
                          # the same said in other languages: "для удобства аппроксимируем", 次のように近似する,
                          # 다음과 같이 근사한다, xấp xỉ, aproximamos, approximons, näherungsweise, yaklaşık
                          r"аппроксимир|приближ[её]нн|近似(?:する|して|し|値)|근사(?:한|하|해|치)|xấp xỉ|"
                          r"aproxim(?:amos|ar|adamente)|approxim(?:ons|er|ativement)|näherungsweise|annähern|"
                          r"yaklaşık|"
                          # a display rounded on purpose: "shown to one decimal place", "printed to 2 decimals"
                          r"(?:shown|displayed|printed|written)\s+(?:here\s+|below\s+)?(?:to|with|at)\s+"
                          r"(?:one|two|three|four|\d)\s+decimal|rounded for display|只显示.{0,6}位小数", re.I)


# rounding carried forward, declared for the whole document: "rounded at every step", "每一步都四舍五入",
# "后面的步骤用的是四舍五入后的数": every later value may be off by what its predecessors' rounding carries
CARRIED_ROUNDING = re.compile(r"round(?:ed|ing)?\s+(?:\w+\s+){0,4}(?:at|after)\s+(?:each|every)\s+step|"
                              r"(?:each|every)\s+(?:intermediate\s+)?(?:step|result)\s+(?:is\s+|was\s+)?rounded|"
                              r"用的是(?:四舍五入|舍入)后的|(?:中间结果|每一步).{0,6}(?:四舍五入|舍入)", re.I)


def head_in(text: str) -> int | None:
    """A 1-based head number named in prose ("Head 2", "第 2 个头"), or None."""
    m = _HEAD_WORDS.search(text)
    if not m:
        return None
    g = next(x for x in m.groups() if x)
    return _ZH.get(g) if g in _ZH else int(g)


def row_in(text: str, last: bool = False) -> int | None:
    """The row the prose names (its first mention; last: the mention nearest the end, for a number after it)."""
    found = list(_ROW_WORDS.finditer(text)) if last else [_ROW_WORDS.search(text)]
    m = found[-1] if found else None
    if not m:
        return None
    g = next(x for x in m.groups() if x)
    if g.lower() in _ORDINAL:
        return _ORDINAL[g.lower()]
    return (_ZH_ALL.get(g) or int(g)) if g in _ZH_ALL else int(g)


_ZH_ALL = {**_ZH, "九": 9, "十": 10}


def step_in(text: str) -> str | None:
    low = text.lower()
    for step, rx in _STEP_WORDS:
        if re.search(rx, low):
            return step
    return None
