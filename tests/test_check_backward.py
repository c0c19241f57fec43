"""`mha check` on hand-written backward passes (issue 20): the eight documents of tests/check_backward check clean
with their upstream gradient inferred, and their 33 planted slips (a missing D term, a transposed dK, a forgotten
scale, a masked entry given a gradient, an arithmetic slip in D_i) are found on their line with their step and
named by their cause."""

from pathlib import Path

import numpy as np
import pytest
from slip_sets import assert_hit_rate, assert_slips_apply_once, check, clean_report, load

from mha.check import check_document
from mha.check.labels import parse_label
from mha.trace import trace

HERE = Path(__file__).resolve().parent
BACK = HERE / "check_backward"
DOCS = load(BACK)
needs = pytest.mark.skipif(not DOCS, reason=f"the backward set is not in this checkout ({BACK} is absent)")
TARGET = 0.95
# the cause each kind of slip is named by (transposed dK: the forward's "transposed indices")
KIND = {"missing_D": "missing_D", "transposed_dK": "transposed", "missing_scale": "missing_scale",
        "masked_gradient": "masked_gradient", "arithmetic": "arithmetic"}


@needs
@pytest.mark.parametrize("doc", DOCS, ids=[d["file"] for d in DOCS])
def test_backward_document_is_clean_with_its_upstream_inferred(doc):
    r = clean_report(BACK, doc)
    assert r.n_numbers >= 60
    # the upstream gradient inferred is the one the document was made with (make.py's configuration)
    want, got = trace(doc["config"]), trace(r.mapping)
    assert got.grads is not None, r.configuration
    for name in ("dY", "dS", "dQ", "dK", "dV", "dX"):
        np.testing.assert_allclose(getattr(got.grads, name), getattr(want.grads, name), atol=1e-12, err_msg=name)


@needs
def test_backward_slips_apply_once_and_change_the_text():
    assert_slips_apply_once(BACK, DOCS)


@needs
def test_backward_slips_found():
    assert_hit_rate(BACK, DOCS, TARGET, "backward")


@needs
def test_backward_slips_are_named_by_their_cause():
    named, total = 0, 0
    for doc in DOCS:
        text = (BACK / doc["file"]).read_text(encoding="utf-8")
        for s in doc["slips"]:
            r = check(text.replace(s["find"], s["replace"]), doc)
            total += 1
            named += any(f.line == s["line"] and f.cell == s.get("cell") and f.kind == KIND[s["kind"]]
                         for f in r.errors)
    assert named == total, f"{named} of {total} slips named by their cause"


@pytest.mark.parametrize("text, nodes", [
    ("dQ", ("dQ", "dQh")), ("dW_Q", ("dW_Q",)), (r"\frac{\partial L}{\partial K}", ("dK", "dKh")),
    ("∂L/∂V", ("dV", "dVh")), ("A.grad", ("dA",)), ("attn_weights.grad", ("dA",)), ("grad_Q", ("dQ", "dQh")),
    ("dS", ("dS", "dQKt")), (r"\delta A", ("dA",)), ("Q 的梯度", ("dQ", "dQh")), ("上游梯度", ("dY", "dO_concat")),
    ("D_2", ("D",)), ("target", ("target",)), ("目标", ("target",)),
])
def test_gradient_names_in_both_languages(text, nodes):
    assert parse_label(text).nodes == nodes


def test_forward_names_are_unchanged_by_the_backward_vocabulary():
    assert parse_label("W_Q").nodes == ("W_Q",) and parse_label("Q K^T").nodes == ("QKt",)
    assert parse_label("d_k") is None and parse_label("dQ W_Q^T + dK W_K^T") is None
    assert parse_label("dS^{(2)}_{13}").raw_head == 2 and parse_label("dS^{(2)}_{13}").raw_col == 3


def test_gradients_that_follow_from_no_upstream_are_not_checked_not_wrong():
    """dQ printed with numbers no upstream gradient explains: the configuration cannot say, so no finding."""
    doc = ("X = [[1, 0], [0, 1], [1, 1]]\nW_Q = [[1, 0], [0, 1]]\nW_K = [[1, 0], [0, 1]]\nW_V = [[1, 0], [0, 1]]\n"
           "A = [[0.4011, 0.1978, 0.4011], [0.1978, 0.4011, 0.4011], [0.2483, 0.2483, 0.5035]]\n"
           "dQ = [[0.31, -0.27], [0.05, 0.44], [0.93, 0.18]]\n")
    r = check_document(doc, fmt="txt")
    assert not r.errors, [f.describe() for f in r.errors]
    assert any(n.what.startswith("dQ") for n in r.not_checked)


@needs
@pytest.mark.parametrize("readme", ["README.md", "README.zh-CN.md"])
def test_readme_shows_the_real_backward_finding(readme):
    text = (HERE.parent / readme).read_text(encoding="utf-8")
    shown = [line for line in text.splitlines() if line.startswith(("line 99: dS[1,1]", "  backward: L = ½"))]
    doc = next(d for d in DOCS if d["file"] == "md_zhihu_backprop_zh.md")
    s = doc["slips"][0]
    r = check((BACK / doc["file"]).read_text(encoding="utf-8").replace(s["find"], s["replace"]), doc)
    real = r.to_text().splitlines() + [f.describe() for f in r.errors]     # the summary, and the findings as described
    assert len(shown) == 2 and all(line in real for line in shown), shown


@pytest.mark.parametrize("name", ["backward", "backward-causal"])
def test_the_backward_explanations_check_clean(name):
    """`mha explain --example backward(-causal)` in Markdown (English) and LaTeX (Chinese): every gradient, the
    softmax's Jacobian of a row and the written-out entries hold."""
    import mha
    data = mha.EXAMPLES[name].data
    for text, fmt in ((mha.explain(data, lang="en").to_markdown(), "md"), (mha.explain(data, lang="zh").to_latex(),
                                                                           "tex")):
        r = check_document(text, fmt=fmt)
        assert not r.errors and not r.not_checked, (fmt, [f.describe() for f in r.errors],
                                                   [n.describe() for n in r.not_checked])
        assert "backward" in r.configuration and r.n_numbers > 500


def test_a_slip_in_the_jacobian_is_found():
    import mha
    md = mha.explain(mha.EXAMPLES["backward-causal"].data, lang="en").to_markdown()
    find = "J_{2} \\approx \\begin{bmatrix}\n0.2212 & -0.2212 & 0 \\\\"
    assert md.count(find) == 2                      # row 2 of head 1, and of head 2
    line = md[:md.index(find)].count("\n") + 2
    r = check_document(md.replace(find, find.replace("-0.2212", "-0.2221"), 1), fmt="md")
    assert [(f.line, f.step) for f in r.errors] == [(line, "backward_softmax")], [f.describe() for f in r.findings]
