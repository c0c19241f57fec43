""""每个 head 的维度 $d_h=2$" ("each head's size is d_h = 2") states the size of a head, not how many there are.
The `h = N` of the head-count hint matched inside `d_h=2`, and the configuration said "H = 2 (stated)" on a page
with one head (t208a, a Chinese article kept in a .js string)."""

from mha.check import check_document
from mha.check.readers import read_document

PAGE = """# 一个注意力头

每个 head 的维度 $d_h=2$，只有一个 head。

$$X = \\begin{bmatrix}1&0\\\\0&1\\end{bmatrix}$$

$$A = \\begin{bmatrix}0.6698&0.3302\\\\0.3302&0.6698\\end{bmatrix}$$
"""


def test_a_head_size_is_not_read_as_the_number_of_heads():
    r = check_document(PAGE, fmt="md")
    assert r.configuration["H"].startswith("H = 1 (stated)"), r.configuration     # "只有一个 head"

    def heads(text):
        return [h.value for h in read_document(text, "md").hints if h.kind == "heads"]
    assert heads(PAGE.replace("，只有一个 head", "")) == []
    assert heads(PAGE.replace("$d_h=2$", "$h=2$").replace("，只有一个 head", "")) == ["2"]
