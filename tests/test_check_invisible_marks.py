"""A Chinese post exported from an editor that starts each paragraph with a zero-width space and a tab, with its
matrices in `\\left[\\begin{matrix} ... \\end{matrix}\\right]` and the output named `Softmax(XX^T/√3) X`.

On a public post (outside trial t128a) the invisible U+200B before every paragraph hid all its matrices from the
reader: nothing was checked and two planted slips went unseen.  With it gone, the output named as the softmax
times X was still read as the weights (its name begins with the softmax).  Both are fixed: zero-width marks are
dropped before reading (readers/__init__), and a TeX label that ends in `\\right) X` names the output (labels.py).
"""

import pytest

from mha.check import check_document

ZW = "\u200b"

PAGE = f"""# 用一个小矩阵理解自注意力

{ZW}\t设输入 $X$ 有三个词，每个词是一个三维向量：
$$
X=\\left[ \\begin{{matrix}}
\t1&\t\t0&\t\t2\\\\
\t0&\t\t1&\t\t1\\\\
\t2&\t\t1&\t\t0\\\\
\\end{{matrix}} \\right]
$$
{ZW}\t先算 $XX^T$：
$$
XX^T=\\left[ \\begin{{matrix}}
\t5&\t\t2&\t\t2\\\\
\t2&\t\t2&\t\t1\\\\
\t2&\t\t1&\t\t5\\\\
\\end{{matrix}} \\right]
$$
{ZW}\t除以 $\\sqrt{{3}}$ 再按行做 Softmax：
$$
\\mathrm{{Softmax}} \\left( \\frac{{XX^T}}{{\\sqrt{{3}}}} \\right) =\\left[ \\begin{{matrix}}
\t0.7386&\t\t0.1307&\t\t0.1307\\\\
\t0.3904&\t\t0.3904&\t\t0.2192\\\\
\t0.1386&\t\t0.0778&\t\t0.7836\\\\
\\end{{matrix}} \\right]
$$
{ZW}\t最后乘上 $X$：
$$
\\mathrm{{Softmax}} \\left( \\frac{{XX^T}}{{\\sqrt{{3}}}} \\right) X=\\left[ \\begin{{matrix}}
\t1.0000&\t\t0.2614&\t\t1.6080\\\\
\t0.8288&\t\t0.6096&\t\t1.1712\\\\
\t1.7057&\t\t0.8614&\t\t0.3551\\\\
\\end{{matrix}} \\right]
$$
"""


def test_the_post_is_read_and_holds():
    r = check_document(PAGE, fmt="md")
    assert not r.errors, [f.describe() for f in r.errors]
    assert not r.not_checked, r.not_checked
    assert r.n_numbers >= 27, r.n_numbers


@pytest.mark.parametrize("old, new", [("0.3904&\t\t0.2192", "0.3904&\t\t0.2102"),     # a weight
                                      ("0.6096", "0.6069")])                           # an output
def test_a_slip_in_the_post_is_found(old, new):
    assert PAGE.count(old) == 1
    text = PAGE.replace(old, new)
    line = text.split("\n").index(next(x for x in text.split("\n") if new in x)) + 1
    r = check_document(text, fmt="md")
    assert line in [f.line for f in r.errors], [f.describe() for f in r.findings]


def test_a_tex_label_ending_in_x_names_the_output():
    from mha.check import labels as lb
    assert lb.parse_label(r"\mathrm{Softmax} \left( \frac{XX^T}{\sqrt{3}} \right) X").nodes == ("O", "O_concat", "Y")
    assert lb.parse_label(r"\mathrm{Softmax} \left( \frac{XX^T}{\sqrt{3}} \right)").nodes == ("A",)
