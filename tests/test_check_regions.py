"""`mha check` on documents that work more than one example (issue 18, slip recall): an example printed before the
inferred configuration's first given, or in sections the configuration explains nothing in, is inferred and judged
on its own (check/regions.py).  Each document is written for this test (own words, own numbers, computed with
plain NumPy).  A region whose own configuration cannot be identified stays unjudged; and two one-row printouts that
name the same row are two objects, not two rows of one matrix (readers/drawn.py)."""

import textwrap

from mha.check import check_document
from mha.check.readers import read_document

# softmax over causally masked scores: rows [1], [0, 1.5], [1, 1, 3] -> [1], [0.182, 0.818], [0.107, 0.107, 0.787];
# then X (4x4) with W_Q, W_K, W_V (4x2), scale 1/sqrt(2): the layer the configuration is inferred from
WARM_UP_FIRST = textwrap.dedent("""\
    Warm-up before the real layer: a causal softmax over scores we simply write down.

    ```python
    scores = np.array([[2.0, 0.5, 1.0],
                       [0.0, 1.5, 0.5],
                       [1.0, 1.0, 3.0]])
    causal = np.tril(np.ones((3, 3))) == 1
    weights = np.exp(np.where(causal, scores{scale}, -np.inf))
    weights = weights / weights.sum(axis=1, keepdims=True)
    print(weights.round(3))
    ```

    ```text
    [[1.    0.    0.   ]
     {row2}
     {row3}
    ```

    Now the layer itself, with four tokens of width four and projections to width two.

    ```python
    X = np.array([[1, 0, 1, 0], [0, 1, 0, 1], [1, 1, 0, 0], [0, 0, 1, 1]])
    W_Q = np.array([[1, 0], [0, 1], [0, 2], [1, 0]])
    W_K = np.array([[0, 1], [1, 0], [1, 1], [0, 2]])
    W_V = np.array([[1, 2], [0, 1], [2, 0], [1, 1]])
    ```

    The scaled scores QKᵀ/√2:

    ```text
    [[3.5355 3.5355 2.1213 4.9497]
     [2.1213 2.1213 1.4142 2.8284]
     [2.1213 2.1213 1.4142 2.8284]
     [3.5355 3.5355 2.1213 4.9497]]
    ```

    The attention weights A:

    ```text
    [[0.1573 0.1573 0.0382 0.6471]
     [0.2212 0.2212 0.1091 0.4486]
     [0.2212 0.2212 0.1091 0.4486]
     [0.1573 0.1573 0.0382 0.6471]]
    ```

    And the output A V:

    ```text
    [[2.6089 1.3911]
     [2.3395 1.6605]
     [2.3395 1.6605]
     [2.6089 1.3911]]
    ```
    """)

UNSCALED = dict(scale="", row2="[0.182 0.818 0.   ]", row3="[0.107 0.107 0.787]]")
# the same warm-up with the scores halved in the code (which the search does not read): the weights are those of
# the halved scores, [0.321 0.679], [0.212 0.212 0.576]
HALVED = dict(scale=" / 2", row2="[0.321 0.679 0.   ]", row3="[0.212 0.212 0.576]]")


def _errors(text: str) -> dict[int, list[str]]:
    out: dict[int, list[str]] = {}
    for f in check_document(text, fmt="md").errors:
        out.setdefault(f.line, []).append(f"{f.step}: {f.describe()}")
    return out


def _line_of(text: str, find: str) -> int:
    assert text.count(find) == 1, find
    return text[:text.index(find)].count("\n") + 1


def test_an_example_before_the_configurations_givens_is_judged_on_its_own():
    clean = WARM_UP_FIRST.format(**UNSCALED)
    r = check_document(clean, fmt="md")
    assert not r.errors, [f.describe() for f in r.errors]
    assert not r.not_checked, [n.describe() for n in r.not_checked]     # the warm-up is checked, not set aside
    assert any("another example" in e for e in r.evidence), r.evidence
    slipped = clean.replace("[0.107 0.107 0.787]]", "[0.107 0.170 0.787]]")
    line = _line_of(slipped, "0.170")
    got = _errors(slipped)
    assert list(got) == [line], got
    assert got[line][0].startswith("softmax: ") and "0.107" in got[line][0], got


def test_a_slip_in_the_layer_is_still_found_with_the_warm_up_before_it():
    text = WARM_UP_FIRST.format(**UNSCALED).replace("[0.2212 0.2212 0.1091 0.4486]\n [0.2212",
                                                     "[0.2212 0.2122 0.1091 0.4486]\n [0.2212")
    line = _line_of(text, "0.2122")
    assert list(_errors(text)) == [line]


def test_a_warm_up_its_own_configuration_does_not_explain_stays_unjudged():
    # the halving is written only inside the code: the region's search explains nothing, so nothing is said there,
    # not even about a slip (no identity), and the layer after it still checks clean
    clean = WARM_UP_FIRST.format(**HALVED)
    assert _errors(clean) == {}
    slipped = clean.replace("[0.212 0.212 0.576]]", "[0.212 0.221 0.576]]")
    assert _errors(slipped) == {}
    r = check_document(slipped, fmt="md")
    assert not any("another example" in e for e in r.evidence)


# the layer of WARM_UP_FIRST, then code that gives Q, K and V new values (a causal mask, scale 1/sqrt(2)):
# weights [1], [0.3302, 0.6698], [0.2483, 0.2483, 0.5035]; output (V = [[2, 0], [0, 2], [1, 1]]) as printed below
REBOUND_AFTER = textwrap.dedent("""\

    A second, separate case: the queries, keys and values typed in, with a causal mask.

    ```python
    Q = np.array([[1.0, 0.0], [0.0, 1.0], [1.0, 1.0]])
    K = np.array([[1.0, 0.0], [0.0, 1.0], [1.0, 1.0]])
    V = np.array([[2.0, 0.0], [0.0, 2.0], [1.0, 1.0]])
    S = Q @ K.T / np.sqrt(2)
    S = np.where(np.tril(np.ones((3, 3))) == 1, S, -np.inf)
    weights = np.exp(S - S.max(axis=1, keepdims=True))
    weights = weights / weights.sum(axis=1, keepdims=True)
    print("weights:\\n", weights.round(4))
    print("output:\\n", (weights @ V).round(4))
    ```

    ```text
    weights:
     [[1.     0.     0.    ]
     [0.3302 0.6698 0.    ]
     [0.2483 0.2483 0.5035]]
    output:
     [[2.     0.    ]
     [0.6605 1.3395]
     [1.     1.    ]]
    ```
    """)


def test_an_example_whose_givens_are_typed_in_again_is_judged_on_its_own():
    layer = WARM_UP_FIRST.format(**UNSCALED)
    clean = layer[layer.index("Now the layer itself"):] + REBOUND_AFTER
    r = check_document(clean, fmt="md")
    assert not r.errors, [f.describe() for f in r.errors]
    assert not r.not_checked, [n.describe() for n in r.not_checked]
    for find, wrong in (("[0.2483 0.2483 0.5035]]", "[0.2483 0.2438 0.5035]]"),
                        ("[0.6605 1.3395]", "[0.6605 1.3935]")):
        slipped = clean.replace(find, wrong)
        line = _line_of(slipped, wrong)
        got = _errors(slipped)
        assert list(got) == [line], (wrong, got)


def test_two_one_row_printouts_naming_the_same_row_are_two_objects():
    text = textwrap.dedent("""\
        ```text
        raw softmax row 0: tensor([0.0912, 0.6737, 0.2351])
        scaled softmax row 0: tensor([0.1950, 0.5300, 0.2750])
        ```

        ```text
        The   [0.50, 0.30, 0.20]
        cat   [0.10, 0.60, 0.30]
        ```
        """)
    arrays = read_document(text, "md").arrays
    shapes = [(a.label, sum(1 for r in a.rows if r is not None)) for a in arrays]
    assert [n for _, n in shapes] == [1, 1, 2], shapes      # token-named rows stay one matrix
    assert "raw" in shapes[0][0] and "scaled" in shapes[1][0], shapes
