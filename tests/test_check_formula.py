"""A notebook that works two examples (issue 18, recall): first plain attention over the inputs themselves,
softmax(X Xᵀ) X, unscaled and unmasked although the notebook later speaks of a causal mask; then a second
example from seeded weights that are never printed, whose printouts are computed by formulas the code writes out
(`w / w.sum(dim=-1, keepdim=True)`, `torch.softmax(masked / keys.shape[-1]**0.5, dim=-1)`) over printouts a cell
before.  The first is found by the search (the scale and the mask move together: one at a time they trap the climb
at the causal hint); the second is judged against its own printed operands (claims/formula.py), with the scale read
from the printout and snapped to √n.

Every number here is my own, computed below with plain NumPy (not mha)."""

import json

import numpy as np
import pytest

from mha.check import check_document

X = np.array([[0.62, 0.10, 0.35], [0.18, 0.74, 0.51], [0.40, 0.33, 0.92], [0.85, 0.27, 0.06]])
# the second example's projections: "seeded", never printed
WQ = np.array([[0.31, -0.52], [0.77, 0.14], [-0.26, 0.63]])
WK = np.array([[-0.44, 0.29], [0.58, -0.17], [0.21, 0.66]])


def _softmax(s):
    e = np.exp(s - s.max(axis=1, keepdims=True))
    return e / e.sum(axis=1, keepdims=True)


def _tensor(m, tail=""):
    """A torch-like printout with 4 decimals ('-inf' right-aligned like torch)."""
    def cell(v):
        return f"{'-inf':>7}" if np.isneginf(v) else f"{v:7.4f}"
    rows = ["[" + ", ".join(cell(v) for v in r) + "]" for r in m]
    body = (",\n" + " " * 8).join(rows)
    return f"tensor([{body}]" + (f",\n       {tail})" if tail else ")") + "\n"


def _numbers():
    s1 = X @ X.T
    a1 = _softmax(s1)
    o1 = a1 @ X
    s2 = (X @ WQ) @ (X @ WK).T
    a2 = _softmax(s2 / np.sqrt(2))
    tril = np.tril(np.ones((4, 4)))
    masked_w = a2 * tril
    norm = masked_w / masked_w.sum(axis=1, keepdims=True)
    masked = np.where(tril == 1, s2, -np.inf)
    causal = _softmax(masked / np.sqrt(2))
    return s1, a1, o1, a2, masked_w, norm, masked, causal


def _md(text):
    return {"cell_type": "markdown", "metadata": {}, "source": text}


def _code(src, out):
    return {"cell_type": "code", "metadata": {}, "execution_count": 1, "source": src,
            "outputs": [{"output_type": "stream", "name": "stdout", "text": out}]}


def notebook() -> str:
    s1, a1, o1, a2, masked_w, norm, masked, causal = _numbers()
    rows = ",\n".join("    [" + ", ".join(f"{v:.2f}" for v in r) + "]" for r in X)
    cells = [
        _md("# 两个例子：先不用权重，再用随机种子生成的权重\n\n第一部分直接用输入本身做注意力。"),
        _code(f"import torch\nemb = torch.tensor([\n{rows}\n])", ""),
        _md("## 1. 输入与自身的点积\n\n每一对词向量的点积就是分数，不除以任何数。"),
        _code("attn_scores = emb @ emb.T\nprint(attn_scores)", _tensor(s1)),
        _code("attn_weights = torch.softmax(attn_scores, dim=-1)\nprint(attn_weights)", _tensor(a1)),
        _code("all_context_vecs = attn_weights @ emb\nprint(all_context_vecs)", _tensor(o1)),
        _md("## 2. Seeded projections, then a causal mask\n\nThe weights below come from a seed and are not "
            "shown; the causal mask hides every later token."),
        _code("torch.manual_seed(7)\nproj_q = torch.nn.Linear(3, 2, bias=False)\nproj_k = torch.nn.Linear(3, 2, "
              "bias=False)\nqueries, keys = proj_q(emb), proj_k(emb)\nattn_scores = queries @ keys.T\n"
              "attn_weights = torch.softmax(attn_scores / keys.shape[-1]**0.5, dim=-1)\nprint(attn_weights)",
              _tensor(a2, "grad_fn=<SoftmaxBackward0>")),
        _code("lower = torch.tril(torch.ones(4, 4))\nw_cut = attn_weights * lower\nprint(w_cut)",
              _tensor(masked_w, "grad_fn=<MulBackward0>")),
        _md("把每一行重新归一化，使每行之和回到 1："),
        _code("totals = w_cut.sum(dim=-1, keepdim=True)\nw_renorm = w_cut / totals\nprint(w_renorm)",
              _tensor(norm, "grad_fn=<DivBackward0>")),
        _md("A shorter way: put -inf above the diagonal before the softmax."),
        _code("upper = torch.triu(torch.ones(4, 4), diagonal=1)\nfilled = attn_scores.masked_fill(upper.bool(), "
              "-torch.inf)\nprint(filled)", _tensor(masked, "grad_fn=<MaskedFillBackward0>")),
        _md("Each row sums to one again:"),
        _code("causal_w = torch.softmax(filled / keys.shape[-1]**0.5, dim=-1)\nprint(causal_w)",
              _tensor(causal, "grad_fn=<SoftmaxBackward0>")),
    ]
    for k, c in enumerate(cells):
        c["id"] = f"cell-{k}"
    return json.dumps({"cells": cells, "metadata": {}, "nbformat": 4, "nbformat_minor": 5}, ensure_ascii=False)


def _slip(text: str, value: float, new: str) -> str:
    old = f"{value:.4f}"
    assert text.count(old) >= 1, old
    return text.replace(old, new, 1)


def _errors(text):
    return [f for f in check_document(text, fmt="ipynb").errors]


def test_clean_two_example_notebook_has_no_finding():
    r = check_document(notebook(), fmt="ipynb")
    assert not r.errors, [f.describe() for f in r.errors]
    assert r.n_claims >= 5


def test_the_first_example_is_found_though_the_notebook_speaks_of_a_causal_mask():
    r = check_document(notebook(), fmt="ipynb")
    assert "unscaled" in r.configuration["scale"] and "no mask" in r.configuration["mask"], r.configuration
    o1 = _numbers()[2]
    bad = _slip(notebook(), o1[2, 1], f"{o1[2, 1] + 0.0090:.4f}")
    errs = _errors(bad)
    assert any(f.printed == f"{o1[2, 1] + 0.0090:.4f}" for f in errs), [f.describe() for f in errs]


@pytest.mark.parametrize("which, i, j", [(5, 2, 1), (5, 3, 2), (7, 3, 0), (7, 2, 2)])
def test_a_slip_in_a_printout_computed_by_a_written_formula_is_found(which, i, j):
    value = _numbers()[which][i, j]
    wrong = f"{value + 0.0270:.4f}"
    text = notebook()
    # the same value may print elsewhere (a row of the causal weights repeats the renormalised one): plant the slip
    # in the printout under test, the last one of its kind for the causal weights
    head = "causal_w = torch.softmax" if which == 7 else "w_renorm = w_cut / totals"
    k = text.index(head)
    old = f"{value:.4f}"
    at = text.index(old, k)
    bad = text[:at] + wrong + text[at + len(old):]
    errs = _errors(bad)
    assert [f.printed for f in errs] == [wrong], [f.describe() for f in errs]


def test_a_formula_over_an_operand_not_printed_is_no_claim():
    # the weights' operand (the scores) is never printed in example 2 before `attn_weights = softmax(...)`: a slip
    # there has no identity evidence, and nothing is said about it
    a2 = _numbers()[3]
    text = notebook()
    k = text.index("proj_q")
    old = f"{a2[1, 1]:.4f}"
    at = text.index(old, k)
    bad = text[:at] + f"{a2[1, 1] + 0.0270:.4f}" + text[at + len(old):]
    assert not [f for f in _errors(bad) if f.printed == f"{a2[1, 1] + 0.0270:.4f}"]


def test_a_scale_that_fits_no_whole_square_root_is_no_claim():
    # the printout was computed with a divisor of 1.37 (no √n and no n within 5%): the formula is not identified
    _, _, _, _, _, _, masked, _ = _numbers()
    odd = _softmax(masked / 1.37)
    text = notebook()
    k = text.index("causal_w = torch.softmax")
    start = text.index("tensor([", k)
    end = text.index("grad_fn=<SoftmaxBackward0>", start)
    printed = _tensor(odd, "grad_fn=<SoftmaxBackward0>")
    body = json.dumps(printed, ensure_ascii=False)[1:-1]
    bad = text[:start] + body[:body.index("grad_fn")] + text[end:]
    from mha.check.claims.formula import formula_claims
    from mha.check.command import slim_notebook
    from mha.check.infer import prepare
    from mha.check.readers import read_document
    doc = read_document(slim_notebook(bad)[0], "ipynb")
    objs, _ = prepare(doc)
    formulas = [c.formula for c in formula_claims(objs, doc.hints, set())]
    assert "torch.softmax(filled / keys.shape[-1]**0.5, dim=-1)" not in formulas, formulas
    assert "w_cut / totals" in formulas, formulas


QA = np.array([[0.9, -0.3, 0.4], [0.2, 0.7, -0.5], [-0.6, 0.1, 0.8], [0.3, 0.3, 0.3]])
KB = np.array([[0.5, 0.2, -0.1], [-0.4, 0.6, 0.9], [0.8, -0.7, 0.2], [0.1, 0.4, 0.6]])


def product_notebook(scores=None, said: bool = False) -> str:
    """A later section that prints two operands (from a seed) and their product `qa @ kb.T`; said: each operand
    printed after a letter of its own on the line above, print("Q \\n: ", qa)."""
    s = QA @ KB.T if scores is None else scores
    cells = [
        _md("# 第三部分：另一组随机向量\n\n种子换了，这里把两组向量都打印出来。"),
        _code("torch.manual_seed(11)\nqa = make_queries()\n" + ('print("Q \\n: ", qa)' if said else "print(qa)"),
              ("Q \n:  " if said else "") + _tensor(QA)),
        _code("kb = make_keys()\n" + ('print("K \\n: ", kb)' if said else "print(kb)"),
              ("K \n:  " if said else "") + _tensor(KB)),
        _code("sc = qa @ kb.T\nprint(sc)", _tensor(s)),
    ]
    for k, c in enumerate(cells):
        c["id"] = f"cell-{k}"
    return json.dumps({"cells": cells, "metadata": {}, "nbformat": 4, "nbformat_minor": 5}, ensure_ascii=False)


def test_a_product_of_two_printed_operands_is_judged_by_them():
    from mha.check.claims.formula import formula_claims
    from mha.check.command import slim_notebook
    from mha.check.infer import prepare
    from mha.check.readers import read_document
    doc = read_document(slim_notebook(product_notebook())[0], "ipynb")
    objs, _ = prepare(doc)
    assert [(c.kind, c.formula) for c in formula_claims(objs, doc.hints, set())] == [("matmul", "qa @ kb.T")]
    s = QA @ KB.T
    wrong = s.copy()
    wrong[2, 1] = -wrong[2, 1]                    # a dropped sign in one entry
    errs = check_document(product_notebook(wrong), fmt="ipynb").errors
    assert [f.printed for f in errs] == [f"{wrong[2, 1]:.4f}"], [f.describe() for f in errs]
    assert abs(float(errs[0].rounded) - s[2, 1]) < 5e-4 and "qa @ kb.T" in errs[0].claim
    assert not check_document(product_notebook(), fmt="ipynb").errors


def test_a_product_of_operands_printed_after_words_is_judged_by_them():
    # print("Q \n: ", qa) names the printout by its words and then the variable: qa is still the operand
    s = QA @ KB.T
    wrong = s.copy()
    assert f"{s[2, 3]:.4f}" == "0.4600"
    wrong[2, 3] = 0.64                            # two digits swapped
    errs = check_document(product_notebook(wrong, said=True), fmt="ipynb").errors
    assert [(f.cell, f.printed) for f in errs] == [(4, "0.6400")], [f.describe() for f in errs]
    assert "qa @ kb.T" in errs[0].claim and errs[0].step == "scores"
    assert not check_document(product_notebook(said=True), fmt="ipynb").errors


def test_a_product_whose_operand_was_rebound_unprinted_is_no_claim():
    # most entries disagree with qa @ kb.T (the operand changed without a print): no identity, nothing said
    other = (QA * 1.7) @ KB.T
    other[0, 0] += 0.5
    from mha.check.command import NothingToCheck
    try:
        errs = check_document(product_notebook(other), fmt="ipynb").errors
    except NothingToCheck:
        errs = []                             # nothing identified: exit 2 with "nothing to check" is fine too
    assert not errs, [f.describe() for f in errs]


def test_a_softmax_down_the_columns_is_not_read_as_one_along_the_rows():
    from mha.check.claims.formula import formula_claims
    from mha.check.command import slim_notebook
    from mha.check.infer import prepare
    from mha.check.readers import read_document
    old = "causal_w = torch.softmax(filled / keys.shape[-1]**0.5, dim=-1)"
    text = notebook().replace(old, old.replace("dim=-1", "dim=0"))
    assert text != notebook()
    doc = read_document(slim_notebook(text)[0], "ipynb")
    objs, _ = prepare(doc)
    formulas = [c.formula for c in formula_claims(objs, doc.hints, set())]
    assert not any("dim=0" in f for f in formulas) and "w_cut / totals" in formulas, formulas
