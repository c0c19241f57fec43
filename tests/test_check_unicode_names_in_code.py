"""A code block that names its arrays with Greek letters or Chinese words (`α = [[..]]`, `权重 = [..]`), as Python
allows.  Python's parser counts a node's columns in UTF-8 bytes, and the code reader cut its lines by characters, so
every number after a two- or three-byte name was read from the wrong place and the whole array was dropped: a page
whose weights were `α` in a fenced block had them neither checked nor found wrong (readers/pyparse.py
`source_of`).  My own small example."""

import numpy as np

S = np.array([[0.4, 0.1, -0.2], [0.0, 0.6, 0.3]])


def _softmax(s):
    e = np.exp(s - s.max(axis=1, keepdims=True))
    return e / e.sum(axis=1, keepdims=True)


def _arrays(text):
    from mha.check.readers import read_document
    return read_document(text, "md").arrays


def _fenced(name, m, lang=""):
    rows = ", ".join("[" + ", ".join(f"{v:.3f}" for v in r) + "]" for r in m)
    return f"# Weights\n\n```{lang}\n{name} = [{rows}]\n```\n"


def test_greek_and_chinese_names_keep_their_numbers():
    A = _softmax(S)
    for name in ("α", "权重", "attn_α"):
        for lang in ("", "python"):
            got = [a for a in _arrays(_fenced(name, A, lang)) if a.label == name]
            assert len(got) == 1, (name, lang)
            assert [n.text for n in got[0].numbers] == [f"{v:.3f}" for v in A.ravel()]


def test_a_chinese_comment_line_before_does_not_shift_the_numbers():
    text = "# 例子\n\n```python\n# 注意力权重\nweights = [0.25, 0.75]  # 两个键\n```\n"
    got = [a for a in _arrays(text) if a.label == "weights"]
    assert [n.text for n in got[0].numbers] == ["0.25", "0.75"]
