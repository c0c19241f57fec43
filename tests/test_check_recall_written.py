"""`mha check` on arithmetic people write out by hand around attention (issue 18, recall): a printout and its
copy after dropout, a weighted sum of value vectors written term by term, a softmax table with one row per key,
a scores | softmax pair with a slip that breaks the sum to one.  Each document is written for this test (own
words, own numbers); it checks clean, and each planted slip is found on its own line (and nowhere else does
the clean text get a finding).  A look-alike that is NOT the claim (no dropout scale shared, terms in another
order, weights that mostly disagree) stays unjudged."""

import textwrap

import pytest

from mha.check import check_document
from mha.inputs import MHAInputError


def _errors(text: str, name: str) -> dict[int, list[str]]:
    r = check_document(text, name=name)
    out: dict[int, list[str]] = {}
    for f in r.errors:
        out.setdefault(f.line, []).append(f.describe())
    return out


def _line_of(text: str, find: str) -> int:
    assert text.count(find) == 1, find
    return text[:text.index(find)].count("\n") + 1


DROPOUT_MD = textwrap.dedent("""\
    # Dropout, by hand

    In training mode dropout zeroes some entries and scales the survivors up, so the expected value is kept.

    ```text
    before: [0.40, 0.10, 0.30, 0.20]
    nn.Dropout(p=0.5), training mode
    after:  [0.80, 0.00, 0.60, 0.40]   # survivors doubled
    ```

    The same thing on two rows of attention weights (the rate is not printed this time):

    ```
    注意力权重：
    行0: [0.6, 0.3, 0.1]
    行1: [0.2, 0.5, 0.3]
    训练时经过 dropout 之后：
    行0: [0.75, 0.0, 0.125]
    行1: [0.25, 0.625, 0.375]
    ```
    """)
DROPOUT_SLIPS = [("after:  [0.80, 0.00, 0.60, 0.40]", "after:  [0.80, 0.00, 0.06, 0.40]"),
                 ("[0.75, 0.0, 0.125]", "[0.75, 0.0, 0.152]"),
                 ("[0.25, 0.625, 0.375]", "[0.25, 0.652, 0.375]")]

TERMS_MD = textwrap.dedent("""\
    # One context vector, by hand

    The first query puts weights 0.6, 0.3 and 0.1 on the three value vectors:

    $$
    \\begin{aligned}
    o_1 &= 0.6 \\times v_1 + 0.3 \\times v_2 + 0.1 \\times v_3 \\\\
    &= 0.6 \\times [2.0, -1.0] + 0.3 \\times [4.0, 0.5] + 0.1 \\times [-3.0, 6.0] \\\\
    &= [1.2, -0.6] + [1.2, 0.15] + [-0.3, 0.6] \\\\
    &= [2.1, 0.15]
    \\end{aligned}
    $$

    ```
    out_2 = 0.25 * [1.0, 3.0, 2.0] + 0.75 * [2.0, 1.0, 4.0]
          = [0.25, 0.75, 0.5] + [1.5, 0.75, 3.0]
          = [1.75, 1.5, 3.5]
    ```
    """)
TERMS_SLIPS = [("[1.2, -0.6] + [1.2, 0.15] + [-0.3, 0.6]", "[1.2, -0.6] + [1.2, 0.15] + [0.3, 0.6]"),
               ("= [0.25, 0.75, 0.5] + [1.5, 0.75, 3.0]", "= [0.25, 0.75, 0.5] + [1.5, 0.57, 3.0]")]

TABLE_MD = textwrap.dedent("""\
    # Softmax of four scores

    One query, four keys; the scores are already scaled.

    | key | score | softmax weight |
    |-----|-------|----------------|
    | a   | 1.5   | 0.468          |
    | b   | 0.5   | 0.172          |
    | c   | 0.2   | 0.128          |
    | d   | 0.8   | 0.232          |

    Scaling matters when scores grow:

    | Scores        | Softmax output        |
    | ------------- | --------------------- |
    | [4, 8, 12]    | [0.000, 0.018, 0.982] |
    """)
TABLE_SLIPS = [("| 0.128          |", "| 0.142          |"),
               ("[0.000, 0.018, 0.982]", "[0.000, 0.018, 0.098]")]


SHARES_MD = textwrap.dedent("""\
    # A softmax in words

    The query for "sat" meets four keys with scaled scores 2.0 ("cat"), 1.0 ("sat"), 0.5 ("mat") and 0.7 ("on").

    Exponentiating gives e^2.0 ≈ 7.39, e^1.0 ≈ 2.72, e^0.5 ≈ 1.65 and e^0.7 ≈ 2.01. The normaliser is
    Z ≈ 7.39 + 2.72 + 1.65 + 2.01 = 13.77, so "sat" looks ≈ 0.54 at "cat", 0.20 at itself,
    0.12 at "mat", and the rest, about 0.15, at "on".

    第二个查询：分母 Z ≈ 4.48 + 2.23 + 1.82 = 8.53，于是三个权重约为 53%、26%
    和 21%。
    """)
SHARES_SLIPS = [("0.20 at itself", "0.02 at itself"), ("about 0.15", "about 0.51"), ("和 21%", "和 12%")]


EXPS_MD = textwrap.dedent("""\
    # Exponentials first

    One query's scores against four keys are $[3, 1, -2, 0.5]$.

    Exponentiating: $e^{3} \\approx 20.09$, and the others come to about 2.718, 0.1353 and 1.649,
    which is why the first key takes most of the weight.

    另一个查询的分数为 $[12, 4, 9]$，未缩放时它们的指数依次约为 $1.63\\times 10^5$、$54.6$、
    $8.10\\times 10^3$，差距悬殊。
    """)
EXPS_SLIPS = [("0.1353", "0.1533"), ("$8.10", "$8.01")]


SPREAD_MD = textwrap.dedent("""\
    # Why divide by the square root of d_k

    With unit-variance entries and d_k = 256, a raw dot product has a variance of 256, hence a standard deviation of 16.
    Its softmax saturates.

    若每个分量的方差为 1，则 50 维时点积的方差为 50，标准差约为 7.1；缩放之后方差回到 1。

    Scores spread from a variance of 64 down to 1 while the standard deviation of the weights shrinks.
    """)
SPREAD_SLIPS = [("deviation of 16", "deviation of 18"), ("标准差约为 7.1", "标准差约为 7.7")]


@pytest.mark.parametrize("name,text,slips", [("spread.md", SPREAD_MD, SPREAD_SLIPS),
                                             ("exps.md", EXPS_MD, EXPS_SLIPS),
                                             ("shares.md", SHARES_MD, SHARES_SLIPS),
                                             ("dropout.md", DROPOUT_MD, DROPOUT_SLIPS),
                                             ("terms.md", TERMS_MD, TERMS_SLIPS),
                                             ("table.md", TABLE_MD, TABLE_SLIPS)])
def test_clean_and_each_slip_on_its_line(name, text, slips):
    r = check_document(text, name=name)
    assert not r.errors, [f.describe() for f in r.errors]
    assert r.n_claims >= 2
    for find, replace in slips:
        line = _line_of(text, find)
        got = _errors(text.replace(find, replace, 1), name)
        assert line in got, (find, got)
        assert set(got) == {line}, (find, got)          # one slip, one finding: nothing downstream of it


def test_dropout_claim_names_the_scale():
    find, replace = DROPOUT_SLIPS[1]
    got = _errors(DROPOUT_MD.replace(find, replace, 1), "dropout.md")
    (msgs,) = got.values()
    assert "1.25" in msgs[0] and "0.152" in msgs[0] and "0.125" in msgs[0]


def test_dropout_lookalikes_stay_unjudged():
    # the words say dropout but no scale is shared by two kept entries: not this printout's dropout
    text = DROPOUT_MD.replace("after:  [0.80, 0.00, 0.60, 0.40]", "after:  [0.90, 0.00, 0.70, 0.10]")
    assert not _errors(text, "dropout.md")
    # no word for dropout: two printouts that happen to be in ratio are not a claim
    plain = "```\nfirst: [0.40, 0.10, 0.30]\nsecond: [0.80, 0.00, 0.66]\n```\n"
    with pytest.raises(MHAInputError, match="nothing to check"):
        check_document(plain, name="plain.md")


def test_two_weight_matrices_under_no_dropout_are_no_pair():
    # "no dropout": W_K under W_Q in ratio here and there is not a copy after dropout, even with a slip-like entry
    text = textwrap.dedent("""\
        Plain projections (no biases, no dropout here).

        ```python
        W_q = [[0.4, 0.0, 0.2], [0.1, 0.3, 0.5], [0.2, 0.6, 0.1]]
        W_k = [[0.8, 0.0, 0.4], [0.2, 0.6, 0.7], [0.1, 0.2, 0.3]]
        ```
        """)
    from mha.check.claims.dropout import dropout_pairs
    from mha.check.readers import read_document
    assert dropout_pairs(read_document(text, "md")) == []
    said = text.replace("(no biases, no dropout here)", "(dropout in training)")
    assert dropout_pairs(read_document(said, "md"))      # the words alone would pair them ...
    with pytest.raises(MHAInputError, match="could not be inferred"):   # ... but most entries share no scale:
        check_document(said, name="said.md")                            # no claim, nothing checked


def test_terms_in_another_order_are_not_judged():
    # the written-out products listed in another order than the factors: most terms disagree, so no finding
    text = TERMS_MD.replace("[1.2, -0.6] + [1.2, 0.15] + [-0.3, 0.6]", "[-0.3, 0.6] + [1.2, -0.6] + [1.2, 0.15]")
    got = _errors(text, "terms.md")
    assert _line_of(text, "[-0.3, 0.6] + [1.2, -0.6]") not in got


def test_weights_mostly_off_their_scores_are_not_paired():
    # two of three weights disagree with the softmax of the scores beside them: another pair, not a slip
    text = TABLE_MD.replace("[0.000, 0.018, 0.982]", "[0.100, 0.200, 0.300]")
    assert _line_of(text, "[0.100, 0.200, 0.300]") not in _errors(text, "table.md")


def test_shares_in_another_order_are_not_judged():
    # the words list the shares in another order than the sum's terms: no order is known, so nothing is judged
    text = SHARES_MD.replace('0.54 at "cat", 0.20 at itself,\n0.12 at "mat"',
                             '0.12 at "mat", 0.54 at "cat",\n0.20 at itself')
    assert text != SHARES_MD
    assert not _errors(text, "shares.md")
