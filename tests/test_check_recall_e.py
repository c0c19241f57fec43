"""`mha check` on readings found missing on documents written by others (the field trial's set E), each shown with
a document of our own: sizes set in code by a tuple assignment (`T, d_k, d_v = 3, 6, 2`), which give the scale of
printed scores when the queries and keys are never printed.

Every expected value here was computed with plain NumPy (see each test), not with mha."""

import json

import numpy as np
from mha.check import check_document

# ---------------------------------------------------------------- sizes from a tuple assignment

_RNG = np.random.default_rng(7)
_Q, _K = _RNG.normal(size=(3, 6)).round(2), _RNG.normal(size=(3, 6)).round(2)
_V = _RNG.normal(size=(3, 2)).round(2)
_S = _Q @ _K.T                                  # the raw scores; d_k = 6 is stated only in the code
_SCALED = _S / np.sqrt(6)
_A = np.exp(_SCALED - _SCALED.max(axis=1, keepdims=True))
_A /= _A.sum(axis=1, keepdims=True)
_OUT = _A @ _V


def _torch(m: np.ndarray) -> str:
    rows = [", ".join(f"{x:7.4f}" for x in r) for r in m]
    return "tensor([[" + "],\n        [".join(rows) + "]])"


def _nb(sizes: str, scaled: str | None = None) -> str:
    def out(*pairs):
        return [{"output_type": "stream", "name": "stdout", "text": "".join(f"{a}\n{b}\n" for a, b in pairs)}]

    def code(src, outputs):
        return {"cell_type": "code", "id": f"c{len(src)}", "execution_count": None, "metadata": {}, "source": src,
                "outputs": outputs}
    cells = [{"cell_type": "markdown", "id": "m0", "metadata": {},
              "source": "# Scores first\n\nThe queries and keys stay hidden."},
             code(f"import math\nimport torch\n{sizes}\nQ = torch.randn(T, d_k)\nK = torch.randn(T, d_k)\n"
                  "V = torch.randn(T, d_v)", []),
             code("scores = Q @ K.T\nprint('raw scores:')\nprint(scores)", out(("raw scores:", _torch(_S)))),
             code("scaled = scores / math.sqrt(d_k)\nprint('scaled scores:')\nprint(scaled)",
                  out(("scaled scores:", scaled or _torch(_SCALED)))),
             code("weights = torch.softmax(scaled, dim=-1)\nprint('attention weights:')\nprint(weights)",
                  out(("attention weights:", _torch(_A)))),
             code("print('values:')\nprint(V)\nout = weights @ V\nprint('output:')\nprint(out)",
                  out(("values:", _torch(_V)), ("output:", _torch(_OUT))))]
    return json.dumps({"cells": cells, "metadata": {}, "nbformat": 4, "nbformat_minor": 5})


def test_sizes_of_a_tuple_assignment_give_the_scale_of_printed_scores():
    r = check_document(_nb("T, d_k, d_v = 3, 6, 2"), name="scores.ipynb")
    assert "d_k = 6" in json.dumps(r.configuration), r.configuration
    assert not [f for f in r.findings if f.severity == "error"]
    assert r.n_numbers >= 24                     # scaled scores, weights and output are all checked


def test_a_slip_in_the_scaled_scores_is_found_on_its_line():
    wrong = _SCALED.copy()
    wrong[1, 2] = -wrong[1, 2]                   # a dropped sign in the second row
    r = check_document(_nb("T, d_k, d_v = 3, 6, 2", _torch(wrong)), name="scores.ipynb")
    errs = [f for f in r.findings if f.severity == "error"]
    assert [(f.cell, f.step) for f in errs] == [(4, "scale")], [f.describe() for f in errs]
    assert f"{abs(_SCALED[1, 2]):.4f}" in errs[0].describe()


def test_without_the_sizes_the_scaled_scores_are_taken_as_given():
    # no d_k anywhere: the scale cannot be known, so the scaled scores are the start and the raw ones unchecked
    r = check_document(_nb("T, d_k, d_v = n, m, 2"), name="scores.ipynb")
    assert "d_k = 6" not in json.dumps(r.configuration)
    assert not [f for f in r.findings if f.severity == "error"]


# ---------------------------------------------------------------- a derivation restating its name on each line
# (tests/check_corpus/md_notes_restated_name_lines.md is the longer document)

_LINES = """# One weighted sum

The weights of the first word are `a = [0.6, 0.4]`, its values `v1 = [1, 3]` and `v2 = [2, 0]`.

`z1 = 0.6 * [1, 3] + 0.4 * [2, 0]`
`z1 = [0.6 + 0.8, 1.8 + 0]`
`z1 = {last}`
"""


def test_a_name_restated_on_the_next_line_goes_on_with_its_derivation():
    # 0.6*[1, 3] + 0.4*[2, 0] = [1.4, 1.8] (plain arithmetic); the last line restates z1 with a slip in it
    assert np.allclose(0.6 * np.array([1, 3]) + 0.4 * np.array([2, 0]), [1.4, 1.8])
    clean = check_document(_LINES.format(last="[1.4, 1.8]"), name="z.md")
    assert not [f for f in clean.findings if f.severity == "error"]
    r = check_document(_LINES.format(last="[1.4, 8.1]"), name="z.md")
    errs = [f for f in r.findings if f.severity == "error"]
    assert [f.line for f in errs] == [7], [f.describe() for f in errs]
    assert "1.8" in errs[0].describe()


def test_a_name_printed_twice_without_arithmetic_is_two_values():
    # a value and then its new value (after an update) are not one value equal to another
    # (merged, "w1 = 0.52 = 0.48" would be an arithmetic slip)
    text = ("# Before and after\n\nThe first weight before and after the update:\n\n`w1 = 0.52`\n`w1 = 0.48`\n\n"
            "and the query `q = [1, 2]`, `k = [3, 4]`: `q · k = 1 * 3 + 2 * 4 = 11`.\n")
    r = check_document(text, name="w.md")
    assert not [f for f in r.findings if f.severity == "error"], [f.describe() for f in r.findings]


# ---------------------------------------------------------------- a display that is only "= [ ... ]"

_DISPLAYS = r"""# The output of one word

\[
o = a_1 \cdot v_1 + a_2 \cdot v_2
\]

\[
= 0.25 \cdot [0.40, 1.20, 0.80] + 0.75 \cdot [1.00, 0.20, 0.60]
\]

\[
= {last}
\]
"""


def test_a_display_of_one_vector_after_equals_goes_on_with_the_display_above():
    # 0.25*[0.4, 1.2, 0.8] + 0.75*[1.0, 0.2, 0.6] = [0.85, 0.45, 0.65] (plain arithmetic)
    assert np.allclose(0.25 * np.array([0.4, 1.2, 0.8]) + 0.75 * np.array([1.0, 0.2, 0.6]), [0.85, 0.45, 0.65])
    for note in ("", r" \ (\text{approx})", r" \quad \text{(rounded)}"):
        clean = check_document(_DISPLAYS.replace("{last}", "[0.85, 0.45, 0.65]" + note), name="o.md")
        assert not [f for f in clean.findings if f.severity == "error"], note
        r = check_document(_DISPLAYS.replace("{last}", "[0.85, 0.54, 0.65]" + note), name="o.md")
        errs = [f for f in r.findings if f.severity == "error"]
        assert [f.line for f in errs] == [12], (note, [f.describe() for f in errs])
        assert "0.45" in errs[0].describe()


# ---------------------------------------------------------------- a vector sum continued on lines of + and =

_CONTINUED = """# Mixing three values

```
out = 0.2×[1.0, 0.5, 0.0]
    + 0.5×[0.4, 0.2, 1.0]
    + 0.3×[0.0, 1.0, 0.6]

    = [0.20, 0.10, 0.00]
    + {middle}
    + [0.00, 0.30, 0.18]

    = {last}
```

A matrix drawn row under row is still a matrix:

```
W = [0.5, 0.1]
    [0.2, 0.4]
```
"""


def test_a_sum_continued_on_lines_of_plus_and_equals_is_one_derivation():
    # 0.2*[1, 0.5, 0] + 0.5*[0.4, 0.2, 1] + 0.3*[0, 1, 0.6] = [0.4, 0.5, 0.68] (plain arithmetic)
    terms = [0.2 * np.array([1.0, 0.5, 0.0]), 0.5 * np.array([0.4, 0.2, 1.0]), 0.3 * np.array([0.0, 1.0, 0.6])]
    assert np.allclose(terms[1], [0.2, 0.1, 0.5]) and np.allclose(sum(terms), [0.4, 0.5, 0.68])
    doc = _CONTINUED.replace("{middle}", "[0.20, 0.10, 0.50]")
    clean = check_document(doc.replace("{last}", "[0.40, 0.50, 0.68]"), name="c.md")
    assert not [f for f in clean.findings if f.severity == "error"]
    r = check_document(_CONTINUED.replace("{middle}", "[0.20, 0.01, 0.50]").replace("{last}", "[0.40, 0.50, 0.68]"),
                       name="c.md")
    errs = [f for f in r.findings if f.severity == "error"]
    assert [f.line for f in errs] == [9], [f.describe() for f in errs]
    r = check_document(doc.replace("{last}", "[0.40, 0.50, 0.86]"), name="c.md")
    errs = [f for f in r.findings if f.severity == "error"]
    assert [f.line for f in errs] == [12], [f.describe() for f in errs]
    assert "0.68" in errs[0].describe()


def test_joining_keeps_every_line_and_leaves_a_drawn_matrix_alone():
    from mha.check.readers.continued import join_continued
    doc = _CONTINUED.replace("{middle}", "[0.20, 0.10, 0.50]").replace("{last}", "[0.40, 0.50, 0.68]")
    joined = join_continued(doc)
    assert len(joined) == len(doc)
    assert joined.count("\n") == doc.count("\n") - 8          # the 8 newlines inside the derivation (blank lines too)
    assert "W = [0.5, 0.1]\n    [0.2, 0.4]" in joined


def test_a_toy_weighted_sum_named_output_is_not_judged_against_the_example():
    # the corpus document infers its Q, K, V; a toy mix named only "output" (no row) whose weights and vectors are
    # none of the example's is another example: 0.1*[0.1, 0.2] + 0.3*[0.5, 0.6] + 0.6*[0.9, 1.0] = [0.70, 0.80]
    assert np.allclose(0.1 * np.array([0.1, 0.2]) + 0.3 * np.array([0.5, 0.6]) + 0.6 * np.array([0.9, 1.0]),
                       [0.70, 0.80])
    from pathlib import Path
    doc = (Path(__file__).parent / "check_corpus" / "md_notes_token_tables_arrows.md").read_text(encoding="utf-8")
    toy = "\n\nA toy mix, unrelated:\n\n```\noutput = 0.1×[0.1, 0.2]\n       + 0.3×[0.5, 0.6]\n" \
          "       + 0.6×[0.9, 1.0]\n       = {last}\n```\n"
    r = check_document(doc + toy.format(last="[0.70, 0.80]"), name="t.md")
    assert not [f for f in r.findings if f.severity == "error"], [f.describe() for f in r.findings]
    r = check_document(doc + toy.format(last="[0.70, 0.08]"), name="t.md")    # its own arithmetic is still checked
    assert [f.line for f in r.findings if f.severity == "error"] == [doc.count("\n") + 9]
