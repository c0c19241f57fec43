"""A softmax said in a sentence of prose, with its vectors in code spans (t143d, an explainer written as long
paragraphs; no matrix, no equation): "Applying softmax to the scaled scores `[0.58, 0.58, 1.15]` yields the weights
`[0.26, 0.26, 0.47]`".

Two things kept such a page silent.  A paragraph written on one line was one statement, so the weights were part of
the words of the sentences before them (readers/splitting.py now ends a statement at a period after a word, before
a capitalised one).  And a vector in the middle of a sentence is words to the statement reader: the sentence's
softmax is now read on its own (readers/softmaxsaid.py) and the pair judged as `softmax([...]) = [...]` is.
A sentence that names another operation between the two (a division, √, a temperature) ties nothing.
"""

from check_helpers import error_places
from mha.check import check_document

PARAGRAPH = """# Three words

The three words of the toy sentence have these query, key and value rows:

```
Q = [[1,1,0], [0,1,0], [1,0,1]]
K = [[0,1,1], [1,0,0], [1,1,0]]
V = [[4,0], [0,4], [2,2]]
```

The first word's query meets the three keys in dot products of `[1, 1, 2]`, and the key width is 3. The scores \
are therefore divided by `√3 ≈ 1.73`, which gives roughly `[0.58, 0.58, 1.15]`. Softmax then turns these into \
weights that are all positive and add up to one. Applying softmax to the scaled scores `[0.58, 0.58, 1.15]` yields \
the weights `[0.26, 0.26, {w}]`, so the first word looks mostly at the third. Mixing the value rows with these \
weights gives about `[2.0, 2.0]`.
"""


def _errors(text: str) -> list:
    return check_document(text, fmt="md").errors


def test_the_paragraph_holds_and_its_weights_are_read():
    r = check_document(PARAGRAPH.format(w="0.47"), fmt="md")
    assert not r.findings, [f.describe() for f in r.findings]
    assert r.n_numbers >= 13


def test_a_slip_in_the_weights_of_the_sentence_is_found():
    errors = _errors(PARAGRAPH.format(w="0.57"))
    assert [(f.line, f.printed) for f in errors] == [(11, "0.57")], [f.describe() for f in errors]


CHINESE = "# 两个分数\n\n对 [1.2, 0.4] 做 softmax 得到 [{a}, 0.31]。\n"


def test_a_chinese_sentence_ties_its_softmax():
    assert not _errors(CHINESE.format(a="0.69"))
    errors = _errors(CHINESE.format(a="0.79"))
    assert [(f.line, f.printed) for f in errors] == [(3, "0.79")], [f.describe() for f in errors]


def test_another_operation_between_the_vectors_ties_nothing():
    # softmax([1, 2, 1]) is [0.21, 0.58, 0.21]; divided by √3 first it is [0.26, 0.47, 0.26]: the sentence does
    # not say which comes first, so neither is claimed
    text = "# S\n\nThe softmax of `[1, 2, 1]` divided by √3 gives `[0.26, 0.47, 0.26]`.\n\n$2 / 1.73 = 1.16$\n"
    r = check_document(text, fmt="md")
    assert r.n_claims and not r.errors, [f.describe() for f in r.findings]


# Korean and Japanese put the scores first and the verb after the softmax (t212a, a Korean lecture's one-line
# example with no Q, K or V anywhere on the page)
KOREAN = "# 점수\n\n세 점수 `[3, 0, 1]`에 Softmax를 적용하면 약 `[{a}, 0.042, 0.114]`가 됩니다.\n"
JAPANESE = "# 重み\n\nスコア `[0.5, 2.0, 1.0]` にソフトマックスを適用すると `[0.140, {b}, 0.231]` になります。\n"


def test_a_korean_sentence_ties_its_softmax():
    assert not _errors(KOREAN.format(a="0.844"))
    errors = _errors(KOREAN.format(a="0.884"))
    assert [(f.line, f.printed) for f in errors] == [(3, "0.884")], [f.describe() for f in errors]


def test_a_japanese_sentence_ties_its_softmax():
    assert not _errors(JAPANESE.format(b="0.629"))
    errors = _errors(JAPANESE.format(b="0.692"))
    assert [(f.line, f.printed) for f in errors] == [(3, "0.692")], [f.describe() for f in errors]


def test_a_korean_sentence_with_a_division_first_ties_nothing():
    # softmax([3, 0, 1] / √2) is [0.716, 0.086, 0.198]: the sentence divides first, and the tie is not made
    text = "# 점수\n\n점수 `[3, 0, 1]`을 √2로 나눈 뒤 Softmax를 적용하면 `[0.716, 0.086, 0.198]`입니다.\n"
    for page in (text, text.replace("0.716", "0.844").replace("0.086", "0.042").replace("0.198", "0.114")):
        assert error_places(page) == []


# "if the scores are [...], the softmax is about [...]": the softmax as the sentence's topic (는, は), in an HTML
# paragraph whose words carry markup (t214f, a Korean page built as HTML)
HTML = ("<html><body>\n<h2>한 query</h2>\n<p><em>스케일링된 점수</em>가 [3, 0, 1]이라고 하면 softmax는 약 "
        "[{a}, 0.042, 0.114]입니다.</p>\n</body></html>\n")


def test_a_topic_softmax_in_an_html_paragraph_is_tied():
    assert error_places(HTML.format(a="0.844"), fmt="html") == []
    assert error_places(HTML.format(a="0.848"), fmt="html") == [(3, "0.848")]
