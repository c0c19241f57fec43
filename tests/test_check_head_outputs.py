"""A head's own output, named as such ("Head1 Output", "output of head 2"), printed as wide as the model (t213e, a
page whose two heads each have full-width projections of their own, given in words and an escaped list).  The label
was read as the concatenated or projected output, and the page's stated 2 heads were split from a model of width 2
(one number per head), which an identity X fits by chance: two right outputs were called wrong.  A label that names a
head is one head's output, and a head's output printed full width rules out heads split from that width."""

from mha.check.infer import Search, prepare
from mha.check.labels import parse_label
from mha.check.readers import read_document

PAGE = r"""# Two heads, each as wide as the model

We use 2 attention heads. Each has projections of its own, as wide as the model.

$$X = \begin{bmatrix} 1 & 0 \\ 0 & 1 \end{bmatrix}$$

$$\text{Head1 Output} = \begin{bmatrix} 0.73 & 0.27 \\ 0.27 & 0.73 \end{bmatrix}$$
"""


def test_a_label_naming_a_head_is_that_heads_output():
    for label in ("Head1 Output", "head 2 output", r"\text{Attention output}_\text{head1}"):
        ref = parse_label(label)
        assert ref.nodes == ("O",) and ref.raw_head in (1, 2), label
    assert "Y" in parse_label("Output").nodes               # no head named: any output


def test_a_full_width_head_output_rules_out_split_heads():
    doc = read_document(PAGE, "md")
    objs, _ = prepare(doc)
    assert [c.value for c in Search(doc, objs).head_options(2)] == [1]
    narrow = PAGE.replace(r"0.73 & 0.27 \\ 0.27 & 0.73", r"0.73 \\ 0.27")
    doc = read_document(narrow, "md")
    objs, _ = prepare(doc)
    assert 2 in [c.value for c in Search(doc, objs).head_options(2)]
