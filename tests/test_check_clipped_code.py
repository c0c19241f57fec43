"""A page saved by a web clipper (t220c, an Obsidian clipping of a Chinese blog post): the code blocks lost their
fences, every code line became a paragraph of its own, and brackets and underscores were escaped
(`\\[\\[0.43, 0.15, 0.89\\], # Your (x^1)`).  Read as prose, the input's rows were separate sentences: nothing was
checked, and slips in the printed weights were missed.  Runs of such lines are fenced again (readers/clipped.py).
My own inputs; Q = K = V = X, unscaled."""

from check_helpers import error_places, line_of

PAGE = """## 自注意力

下面用三个词的嵌入做例子。

import torch

inputs = torch.tensor(

\\[\\[0.2, 0.9\\], # cat (x^1)

\\[0.7, 0.1\\], # sat (x^2)

\\[0.4, 0.5\\]\\] # down (x^3)

)

计算注意力分数并归一化：

attn\\_scores = inputs @ inputs.T

attn\\_weights = torch.softmax(attn\\_scores, dim=-1)

print(attn\\_weights)

结果如下：

tensor(\\[\\[0.4417, 0.2376, 0.3207\\],

\\[0.2928, {w}, 0.3236\\],

\\[0.3696, 0.3026, 0.3278\\]\\])
"""


def test_the_clipped_page_is_read_and_holds():
    from mha.check import check_document
    r = check_document(PAGE.format(w="0.3836"), fmt="md")
    assert [f for f in r.findings if f.severity == "error"] == [] and r.n_numbers >= 9
    assert r.configuration["X"].startswith("X from line")


def test_a_slip_in_the_clipped_printout_is_found():
    text = PAGE.format(w="0.3863")
    assert error_places(text) == [(line_of(text, "0.3863"), "0.3863")]


def test_prose_with_escapes_is_left_alone():
    from mha.check.readers.clipped import clipped_code
    prose = "一段话\\_有下划线。\n\n另一段话 \\[注\\]。\n\n第三段。\n"
    assert clipped_code(prose) == prose
