"""One query against a few keys, its weights written one by one as α₁ = …, α₂ = 0.264, α₃ = 0.471.

With a single query there is no second or third row: α₃ is the third key's weight.  The label used to be read as
"row 3 of A" (α_i: the weights of query i), which the one-query trace does not have, so α₂ and α₃ were never judged
and a slip in them passed (found by probing the start-from-vectors form the issue asks for).
"""

from mha.check import check_document

PAGE = """# One query, three keys

Take the query q₁ = (1, 0, 1) and the keys k₁ = (1, 1, 0), k₂ = (0, 1, 1), k₃ = (1, 0, 1).

Dot products:

- q₁·k₁ = 1×1 + 0×1 + 1×0 = 1
- q₁·k₂ = 1×0 + 0×1 + 1×1 = 1
- q₁·k₃ = 1×1 + 0×0 + 1×1 = 2

Scaled by √3 ≈ 1.732: 1/1.732 = 0.577, 1/1.732 = 0.577, 2/1.732 = 1.155.

Softmax: α₁ = e^0.577 / (e^0.577 + e^0.577 + e^1.155) = 1.781 / (1.781 + 1.781 + 3.174) = 0.264, α₂ = 0.264, α₃ = 0.471.

With v₁ = (1, 2), v₂ = (0, 1), v₃ = (3, 0), the output is

z₁ = 0.264·(1, 2) + 0.264·(0, 1) + 0.471·(3, 0) = (1.677, 0.793).
"""


def test_clean_page_holds_and_judges_each_weight():
    r = check_document(PAGE, fmt="md")
    assert not r.errors, [f.describe() for f in r.errors]
    # the two lone weights are among the numbers checked (37 before they were read)
    assert r.n_numbers >= 39, r.n_numbers


def test_a_slip_in_the_third_weight_is_found_on_its_line():
    r = check_document(PAGE.replace("α₃ = 0.471", "α₃ = 0.417"), fmt="md")
    assert [f.line for f in r.errors] == [13], [f.describe() for f in r.findings]
    assert "0.471" in r.errors[0].describe()


def test_with_several_queries_alpha_2_is_not_read_as_a_column():
    # A[1,2] is 0.3302: were α_2 read as the second key's weight, 0.6698 would be a false finding
    page = """# Two queries

Q = [[1, 0], [0, 1]], K = [[1, 0], [0, 1]], V = [[1, 2], [3, 4]].

Scores Q Kᵀ / √2 = [[0.7071, 0], [0, 0.7071]].

Weights A = [[0.6698, 0.3302], [0.3302, 0.6698]].

α_2 = 0.6698
"""
    r = check_document(page, fmt="md")
    assert not r.errors, [f.describe() for f in r.errors]


FRACTIONS = r"""# 从分数出发的注意力

假设某个查询对三个键的原始分数为 $s = [2.0, 1.0, 0.1]$。

softmax 权重：

$$
\alpha_1 = \frac{e^{2.0}}{e^{2.0} + e^{1.0} + e^{0.1}} = \frac{7.389}{7.389 + 2.718 + 1.105} = 0.659
$$

$$
\alpha_2 = \frac{e^{1.0}}{e^{2.0} + e^{1.0} + e^{0.1}} = 0.242, \quad \alpha_3 = \frac{e^{0.1}}{11.212} = 0.099
$$

值向量 $v_1 = [1, 0]$，$v_2 = [0, 1]$，$v_3 = [1, 1]$，输出：

$$
o = 0.659 \times [1, 0] + 0.242 \times [0, 1] + 0.099 \times [1, 1] = [0.758, 0.341]
$$
"""


def test_weights_as_fractions_hold():
    r = check_document(FRACTIONS, fmt="md")
    assert not r.errors, [f.describe() for f in r.errors]
    assert "raw scores" in r.configuration.get("mode", ""), r.configuration


def test_a_slip_in_the_only_output_keeps_the_start_from_scores():
    # the α's named one by one are what the start computes; the output's slip no longer sends it away
    r = check_document(FRACTIONS.replace("[0.758, 0.341]", "[0.758, 0.314]"), fmt="md")
    assert [f.line for f in r.errors] == [18], [f.describe() for f in r.findings]
    assert "raw scores" in r.configuration.get("mode", ""), r.configuration
    assert not r.not_checked, [n.describe() for n in r.not_checked]
