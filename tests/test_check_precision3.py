"""`mha check` never cries wolf, round 3: what a careful reader identifies without being told.  Weights printed
after a dropout that neither code nor words mention (their values say so); more below.  Every document here was
written for these tests; its numbers come from NumPy or mha.trace here."""

import json

import numpy as np
from check_helpers import numpy_rows
from test_check_precision import _doc, _numbers

from mha.check import check_document
from mha.check.numbers import Num
from mha.check.readers.dropvalues import dropped_factor


def _g(M, d):
    nums = [[Num.parse(f"{x:.{d}f}") for x in r] for r in M]
    return (np.array([[n.lo for n in r] for r in nums]), np.array([[n.hi for n in r] for r in nums]),
            np.array([[n.value for n in r] for r in nums]))


# ------------------------------------------------------------ weights after dropout, said by nothing but values

def test_a_dropped_copy_with_no_code_and_no_words_is_one_not_checked_line():
    for p, d in ((0.2, 1), (0.1, 2), (0.5, 2), (0.3, 4)):
        r = check_document(_doc(p, d, "", code=False), fmt="md")
        assert not r.errors, (p, d, [f.describe() for f in r.errors])
        why = [n for n in r.not_checked if "after dropout" in n.reason]
        assert len(why) == 2, (p, d, [f"{n.what}: {n.reason}" for n in r.not_checked])   # the copy, its product
        assert r.n_numbers >= 32


def test_a_slip_in_the_weights_is_still_found_beside_a_dropped_copy():
    A, D, *_ = _numbers(0.2, 2)
    doc = _doc(0.2, 2, "", code=False)
    row = numpy_rows(A, 2).split("\n")[3]
    k = doc.index(row)
    slipped = row.replace(f"{A[3, 1]:.2f}", f"{A[3, 1] + 0.09:.2f}", 1)
    r = check_document(doc[:k] + slipped + doc[k + len(row):], fmt="md")
    line = doc[:k].count("\n") + 1
    assert any(f.line == line and f.step == "softmax" for f in r.errors), [f.describe() for f in r.errors]


def test_the_factor_is_the_dropout_scale_and_one_is_not_a_dropout():
    A, D, *_ = _numbers(0.2, 4)
    c = dropped_factor(_g(D, 4), _g(A, 4))
    assert c is not None and abs(c - 1.25) < 1e-3
    again = A.copy()
    again[2, 1] = 0.0                  # the weights printed again with one entry slipped to 0: a slip, not dropout
    assert dropped_factor(_g(again, 4), _g(A, 4)) is None
    assert dropped_factor(_g(A, 4), _g(A, 4)) is None                      # rows sum to 1
    assert dropped_factor(_g(2 * A, 4), _g(A, 4)) is None                  # scaled but nothing dropped
    other = D.copy()
    other[3, 0] *= 1.5                 # one survivor off the common factor: not this matrix's dropout
    assert dropped_factor(_g(other, 4), _g(A, 4)) is None


# ------------------------------------------------------------ causal weights printed first are not the input X

def _sm(S):
    E = np.exp(S - S.max(-1, keepdims=True))
    return E / E.sum(-1, keepdims=True)


def _tex(M, d=4):
    return "$$\n\\begin{bmatrix}" + " \\\\ ".join(" & ".join(f"{x:.{d}f}" for x in r) for r in M) + "\\end{bmatrix}\n$$"


S4 = np.array([[0.9, 0.2, 0.4, 1.0], [0.3, 1.2, 0.1, 0.5], [0.8, 0.6, 1.5, 0.2], [0.4, 0.9, 0.7, 1.1]])
A4 = _sm(np.where(np.triu(np.ones((4, 4)), 1) > 0, -np.inf, S4))
V4 = np.array([[1.0, 0.5], [0.2, 0.8], [0.6, 0.1], [0.3, 0.9]])


def test_masked_weights_printed_first_are_not_guessed_as_x():
    from mha.check.infer import infer, prepare
    from mha.check.readers import read_document
    for d in (4, 2):
        text = f"# Causal weights\n\nThe masked attention weights:\n\n{_tex(A4, d)}\n\nThe values:\n\n" \
               f"{_tex(V4, 1)}\n\nThe output:\n\n{_tex(A4 @ V4, d)}\n"
        doc = read_document(text, "md")
        objs, bases = prepare(doc)
        inf = infer(doc, objs, bases)
        x = inf.best.cand.describe().get("X", "") if inf.best else ""
        assert "line 4" not in x and "line 6" not in x, x          # the weights stand on line 4 (d=2) or 6
        try:
            r = check_document(text, fmt="md")
        except Exception as e:                                     # nothing it could check: one line, no verdict
            assert type(e).__name__ == "NothingToCheck", e
            continue
        assert not r.errors, [f.describe() for f in r.errors]


def test_an_identity_x_is_still_the_first_matrix():
    from mha.check.infer.candidates import _masked_weights
    from mha.check.infer.prepare import prepare
    from mha.check.readers import read_document
    eye = np.eye(3)
    doc = read_document(f"# Toy\n\n{_tex(eye, 0)}\n\n{_tex(_sm(eye / np.sqrt(3)))}\n", "md")
    objs, _ = prepare(doc)
    assert not _masked_weights(objs[0])                # integers: a one-hot input, not weights
    assert _masked_weights(prepare(read_document(_tex(A4), "md"))[0][0])


# ------------------------------------------------------------ a notebook run out of order: stale printouts

def _np(M, d=4):
    return "[" + "\n ".join("[" + " ".join(f"{x:{d + 3}.{d}f}" for x in r) + "]" for r in M) + "]"


def _notebook(cells) -> str:
    out = []
    for k, (src, text) in enumerate(cells):
        c = {"cell_type": "code", "id": f"c{k}", "metadata": {}, "execution_count": k + 1,
             "source": src.splitlines(True), "outputs": []}
        if text:
            c["outputs"] = [{"output_type": "stream", "name": "stdout", "text": text.splitlines(True)}]
        out.append(c)
    head = {"cell_type": "markdown", "id": "h", "metadata": {}, "source": ["# Self-attention in NumPy\n"]}
    return json.dumps({"cells": [head] + out, "metadata": {}, "nbformat": 4, "nbformat_minor": 5})


X_NOW = np.array([[1.0, 0.0, 1.0], [0.0, 1.0, 0.0], [1.0, 1.0, 0.0]])
X_THEN = np.array([[1.0, 0.0, 1.0], [0.0, 2.0, 0.0], [1.0, 1.0, 0.0]])     # before the edit of cell 1


def _chain(X):
    S = X @ X.T / np.sqrt(3)
    A = _sm(S)
    return S, A, A @ X


def _stale_notebook(stale: bool = True, slip: tuple = ()) -> tuple[str, dict]:
    S, A, O = _chain(X_NOW)
    _, A0, O0 = _chain(X_THEN)
    shown = {"S": _np(S), "A": _np(A0 if stale else A), "O": _np(O0 if stale else O)}
    if slip:
        name, good, bad = slip
        assert good in shown[name]
        shown[name] = shown[name].replace(good, bad, 1)
    return _notebook([(f"import numpy as np\nX = np.array({X_NOW.tolist()})\nprint(X)", _np(X_NOW, 1)),
                      ("S = X @ X.T / np.sqrt(3)\nprint(S)", shown["S"]),
                      ("A = np.exp(S) / np.exp(S).sum(axis=1, keepdims=True)\nprint(A)", shown["A"]),
                      ("O = A @ X\nprint(O)", shown["O"])]), shown


def test_a_stale_printout_is_named_once_and_what_follows_is_not_judged():
    text, _ = _stale_notebook()
    r = check_document(text, fmt="ipynb")
    assert not r.errors, [f.describe() for f in r.errors]
    stale = [n for n in r.not_checked if "stale" in n.reason]
    assert [n.what.split()[0] for n in stale] == ["A", "O"], [f"{n.what}: {n.reason}" for n in r.not_checked]
    assert "own code" in stale[0].reason and "computed" in stale[1].reason
    assert r.n_numbers >= 9                                 # the scores were judged


def test_slips_in_a_notebook_run_in_order_are_found():
    text, _ = _stale_notebook(stale=False)
    assert not check_document(text, fmt="ipynb").errors
    S, A, O = _chain(X_NOW)
    for name, M, (i, j) in (("A", A, (2, 1)), ("O", O, (1, 2)), ("S", S, (0, 2))):
        good = f"{M[i, j]:.4f}"
        bad = good[:-2] + good[-1] + good[-2]
        assert bad != good
        r = check_document(_stale_notebook(stale=False, slip=(name, good, bad))[0], fmt="ipynb")
        assert len(r.errors) >= 1 and not any("stale" in n.reason for n in r.not_checked), \
            (name, [f.describe() for f in r.errors], [n.reason for n in r.not_checked])


def test_operand_names_are_the_variables_read():
    from mha.check.claims.stale import operand_names
    assert operand_names("torch.softmax(scores / d_k ** 0.5, dim=-1)") == ["scores", "d_k"]
    assert operand_names("weights @ values") == ["weights", "values"]
    assert operand_names("F.softmax(x.matmul(w.T), dim=1)") == ["x", "w"]


# ------------------------------------------------------------ a module's parameters printed by torch

WQKV = np.array([[0.3, -0.2, 0.5, 0.1], [0.0, 0.4, -0.3, 0.2], [0.6, 0.1, 0.0, -0.4], [-0.1, 0.3, 0.2, 0.5],
                 [0.2, 0.5, -0.1, 0.0], [0.4, -0.3, 0.3, 0.1], [-0.5, 0.2, 0.1, 0.3], [0.1, 0.0, 0.6, -0.2],
                 [0.5, 0.1, 0.2, -0.3], [-0.2, 0.6, 0.0, 0.4], [0.3, -0.1, 0.4, 0.2], [0.0, 0.2, -0.5, 0.6]])
WOUT = np.array([[0.2, 0.1, -0.3, 0.4], [-0.1, 0.5, 0.2, 0.0], [0.3, -0.2, 0.1, 0.6], [0.4, 0.0, -0.5, 0.1]])
XM = np.array([[0.5, 0.1, -0.3, 0.8], [0.2, 0.9, 0.4, -0.1], [-0.6, 0.3, 0.7, 0.2]])


def _torch_module():
    import torch
    m = torch.nn.MultiheadAttention(4, 2, bias=False, batch_first=True).double()
    with torch.no_grad():
        m.in_proj_weight.copy_(torch.tensor(WQKV))
        m.out_proj.weight.copy_(torch.tensor(WOUT))
    out, _ = m(*(torch.tensor(XM[None]),) * 3)
    return m, out[0].detach().numpy()


def _torch_rows(M, d=4, indent=8):
    return "tensor([" + (",\n" + " " * indent).join("[" + ", ".join(f"{x:7.{d}f}" for x in r) + "]" for r in M) + "]"


def _state_dict_doc(Y, form="state_dict"):
    if form == "state_dict":
        params = (f"OrderedDict([('in_proj_weight', {_torch_rows(WQKV, 1, 8)})), ('out_proj.weight', "
                  f"{_torch_rows(WOUT, 1, 8)}))])")
        code = "print(attn.state_dict())"
    else:
        params = (f"in_proj_weight Parameter containing:\n{_torch_rows(WQKV, 1, 8)}, requires_grad=True)\n"
                  f"out_proj.weight Parameter containing:\n{_torch_rows(WOUT, 1, 8)}, requires_grad=True)")
        code = "for name, p in attn.named_parameters():\n    print(name, p)"
    return (f"# Inside nn.MultiheadAttention\n\n```python\nattn = nn.MultiheadAttention(4, num_heads=2, bias=False, "
            f"batch_first=True)\nload_my_weights(attn)\n{code}\n```\n\n```\n{params}\n```\n\n```python\n"
            f"x = torch.tensor([{XM.tolist()}])\nout, _ = attn(x, x, x)\nprint(out[0])\n```\n\n```\n"
            f"{_torch_rows(Y)}, grad_fn=<SelectBackward0>)\n```\n")


def test_torch_packs_q_k_v_in_in_proj_weight_and_computes_x_w_transposed():
    import mha
    _, Y = _torch_module()
    cfg = {"X": XM.tolist(), "n_heads": 2, "W_Q": WQKV[:4].T.tolist(), "W_K": WQKV[4:8].T.tolist(),
           "W_V": WQKV[8:].T.tolist(), "W_O": WOUT.T.tolist(), "scale": "1/sqrt(d_k)"}
    assert np.abs(mha.trace(cfg).Y - Y).max() < 1e-12


def test_a_state_dict_printout_gives_the_weights_and_the_output_is_checked():
    _, Y = _torch_module()
    for form in ("state_dict", "named_parameters"):
        doc = _state_dict_doc(Y, form)
        r = check_document(doc, fmt="md")
        assert not r.errors, (form, [f.describe() for f in r.errors])
        assert "nn.Linear" in r.configuration["W_Q"] and r.configuration["H"].startswith("H = 2"), r.configuration
        assert r.n_numbers >= 12, form
        good = f"{Y[1, 2]:7.4f}"
        bad = f"{Y[1, 2] + 0.03:7.4f}"
        line = doc[:doc.index(good)].count("\n") + 1
        r = check_document(doc.replace(good, bad, 1), fmt="md")
        assert [f.line for f in r.errors] == [line], (form, [f.describe() for f in r.errors])


def test_a_state_dict_the_outputs_do_not_confirm_gives_no_finding():
    # the module was re-initialised after its weights were printed: the output is another module's
    other = np.array([[0.1, 0.3, -0.2, 0.05], [0.4, -0.1, 0.2, 0.3], [-0.3, 0.2, 0.5, -0.1]])
    r = check_document(_state_dict_doc(other), fmt="md")
    assert not r.errors, [f.describe() for f in r.errors]


# ------------------------------------------------------------ correct documents in more public styles

def _row(r, d):
    return ", ".join(f"{x:.{d}f}" for x in r)


def _tt(M, d=4, neg="-inf"):
    return "tensor([" + ",\n        ".join("[" + ", ".join(neg if np.isinf(v) else f"{v:.{d}f}" for v in r) + "]"
                                          for r in M) + "])"


XP = np.array([[0.2, 0.4, 0.1], [0.6, -0.1, 0.5], [0.3, 0.3, 0.9], [0.0, 0.0, 0.0]])


def _styles() -> dict[str, tuple[str, int]]:
    """Each document and the fewest numbers it must get checked."""
    out = {}
    S = np.array([[2.0, 1.0, 0.0], [0.5, 0.5, 2.0], [1.0, 3.0, 1.0]])
    A = np.round(_sm(S), 2)
    V = np.array([[1, 0, 2], [0, 3, 1], [4, 1, 0]])
    tab = "| | key 1 | key 2 | key 3 |\n|---|---|---|---|\n" + "\n".join(
        f"| query {i + 1} | " + " | ".join(f"{x:.2f}" for x in A[i]) + " |" for i in range(3))
    out["integer values, weights at 2 decimals"] = (
        f"# Mixing values\n\nThe scores\n\n```\nS = {S.tolist()}\n```\n\ngive, row by row, the weights (rounded to "
        f"two decimals)\n\n{tab}\n\nThe values are whole numbers:\n\n```\nV = {V.tolist()}\n```\n\nso the output, "
        f"from the rounded weights, is\n\n```\nO = A @ V = {np.round(A @ V, 2).tolist()}\n```\n", 9)
    x1 = np.array([[1.0, 2.0], [3.0, 1.0]])
    x2 = np.array([[0.5, 0.1, 0.3], [0.2, 0.9, 0.4], [0.7, 0.6, 0.8]])
    s1, s2 = x1 @ x1.T / np.sqrt(2), x2 @ x2.T / np.sqrt(3)
    out["two warm-ups sharing x, no heading between"] = (
        f"# Dot-product attention, two warm-ups\n\n```python\nx = np.array({x1.tolist()})\nscores = x @ x.T / "
        f"np.sqrt(2)\nprint(scores.round(4))\nprint(softmax(scores).round(4))\n```\n\n```\n{np.round(s1, 4)}\n"
        f"{np.round(_sm(s1), 4)}\n```\n\nNow an unrelated one with three tokens:\n\n```python\nx = np.array("
        f"{x2.tolist()})\nscores = x @ x.T / np.sqrt(3)\nprint(scores.round(4))\nprint(softmax(scores).round(4))\n"
        f"print((softmax(scores) @ x).round(4))\n```\n\n```\n{np.round(s2, 4)}\n{np.round(_sm(s2), 4)}\n"
        f"{np.round(_sm(s2) @ x2, 4)}\n```\n", 20)
    Q = np.array([[0.8, 0.3], [0.1, 0.9]])
    K = np.array([[0.5, 0.5], [1.0, -0.2], [0.3, 0.7]])
    Vk = np.array([[1.0, 0.0], [0.0, 1.0], [0.5, 0.5]])
    Sr = np.round(Q @ K.T / np.sqrt(2), 2)
    Er = np.round(np.exp(Sr), 3)
    Ar = np.round(Er / Er.sum(1, keepdims=True), 3)
    Or = np.round(Ar @ Vk, 3)
    t = "| query | key | score | exp | weight |\n|---|---|---|---|---|\n" + "\n".join(
        f"| {i + 1} | {j + 1} | {Sr[i, j]:.2f} | {Er[i, j]:.3f} | {Ar[i, j]:.3f} |" for i in range(2) for j in range(3))
    out["one table, rounded columns carried forward"] = (
        f"# One table, step by step\n\nQ = {Q.tolist()}, K = {K.tolist()}, V = {Vk.tolist()}, scale 1/√2. Each "
        f"column is computed from the rounded column before it.\n\n{t}\n\nOutputs: o_1 = [{_row(Or[0], 3)}], "
        f"o_2 = [{_row(Or[1], 3)}].\n", 0)
    Sc = XP @ XP.T / np.sqrt(3)
    M = Sc.copy()
    M[:, 3] = -np.inf
    out["a padding column of -inf"] = (
        f"# A padded batch\n\nThe last token is padding, so its column is masked.\n\n```python\nX = torch.tensor("
        f"{XP.tolist()})\nscores = X @ X.T / 3 ** 0.5\nscores = scores.masked_fill(pad_mask, float('-inf'))\n"
        f"print(scores)\nw = torch.softmax(scores, dim=-1)\nprint(w)\nprint(w @ X)\n```\n\n```\n{_tt(M)}\n"
        f"{_tt(_sm(M))}\n{_tt(_sm(M) @ XP)}\n```\n", 30)
    M2 = Sc.copy()
    M2[np.triu_indices(4, 1)] = -1e9
    out["-1e9 for masked cells"] = (
        f"# Masking with a large negative number\n\n```python\nX = np.array({XP.tolist()})\nS = X @ X.T / "
        f"np.sqrt(3)\nS[np.triu_indices(4, 1)] = -1e9\nprint(S)\nA = softmax(S)\nprint(A)\nprint(A @ X)\n```\n\n"
        f"```\n{np.array2string(M2, precision=4)}\n{np.array2string(_sm(M2), precision=4)}\n"
        f"{np.array2string(_sm(M2) @ XP, precision=4)}\n```\n", 30)
    A3 = _sm(Sc[:3, :3])
    out["weights in percent"] = (
        "# Attention in percent\n\nScores $S = XX^T/\\sqrt{3}$ for $X = " + str(XP[:3].tolist()) + "$:\n\n"
        "| | t1 | t2 | t3 |\n|---|---|---|---|\n" + "\n".join(
            f"| t{i + 1} | " + " | ".join(f"{v:.3f}" for v in Sc[i, :3]) + " |" for i in range(3)) +
        "\n\nWeights, in percent:\n\n| | t1 | t2 | t3 |\n|---|---|---|---|\n" + "\n".join(
            f"| t{i + 1} | " + " | ".join(f"{100 * v:.1f}%" for v in A3[i]) + " |" for i in range(3)) + "\n", 9)
    q = np.array([1.0, 0.5])
    k = np.array([[1.0, 0.0], [0.0, 1.0], [1.0, 1.0]])
    v = np.array([[2.0, 0.0], [0.0, 2.0], [1.0, 1.0]])
    a = _sm(k @ q / np.sqrt(2))
    out["one query, shares in percent"] = (
        f"# How much does the query attend to each key?\n\nThe query is $q = [1, 0.5]$ and the keys are "
        f"$k_1 = [1, 0]$, $k_2 = [0, 1]$, $k_3 = [1, 1]$.\n\nThe scaled scores $q \\cdot k_j / \\sqrt{{2}}$ are "
        f"{_row(k @ q / np.sqrt(2), 3)}.\n\nAfter softmax the query gives " + ", ".join(
            f"{100 * x:.1f}%" for x in a[:-1]) + f" and {100 * a[-1]:.1f}% of its attention to the three keys; "
        f"together 100%.\n\nWith values $v_1 = [2, 0]$, $v_2 = [0, 2]$, $v_3 = [1, 1]$ the output is "
        f"$[{_row(a @ v, 3)}]$.\n", 0)
    return out


def test_correct_documents_in_more_public_styles_give_no_finding():
    for name, (doc, least) in _styles().items():
        r = check_document(doc, fmt="md")
        assert not r.errors, (name, [f.describe() for f in r.errors])
        assert r.n_numbers >= least, (name, r.n_numbers)


def _swap_last_digits(text: str) -> str:
    """0.2468 -> 0.2486, 26.8% -> 28.6%: the two last digits swapped (a common slip)."""
    digits = [i for i, c in enumerate(text) if c.isdigit()]
    i, j = digits[-2], digits[-1]
    return text[:i] + text[j] + text[i + 1:j] + text[i] + text[j + 1:]


def test_a_slip_in_those_styles_is_found():
    docs = _styles()
    S = XP @ XP.T / np.sqrt(3)
    padded = _sm(np.where(np.arange(4) == 3, -np.inf, S))
    causal = _sm(np.where(np.triu(np.ones((4, 4)), 1) > 0, -1e9, S)) @ XP
    for name, good in (("a padding column of -inf", f"{padded[1, 2]:.4f}"),
                       ("-1e9 for masked cells", f"{causal[2, 1]:.4f}")):
        doc = docs[name][0]
        bad = _swap_last_digits(good)
        assert doc.count(good) == 1 and bad != good, (name, good)
        line = doc[:doc.index(good)].count("\n") + 1
        r = check_document(doc.replace(good, bad, 1), fmt="md")
        assert any(f.line == line for f in r.errors), (name, good, bad, [f.describe() for f in r.errors])


# ------------------------------------------------------------ a comment that shows what the line's code creates

def test_a_comment_showing_an_initial_zeros_is_not_the_final_value():
    # two entries of the result's last row round to 0 at the comment's precision ("0."): a majority that would
    # "identify" the comment as that row, and its third entry as a slip (before the comment was read as such)
    X = np.array([[-0.8, 1.0, -1.0], [-0.9, 1.4, 1.0], [-0.1, -0.5, 1.2]])
    S = X @ X.T / np.sqrt(3)
    W = _sm(S)
    C = W @ X

    def doc(printed):
        return (f"# Context vectors by a loop\n\n```python\nimport numpy as np\nX = np.array({X.tolist()})\n"
                f"S = X @ X.T / np.sqrt(3)\nprint(S)\nA = np.exp(S) / np.exp(S).sum(axis=1, keepdims=True)\n"
                f"print(A)\ncontext = np.zeros((3, 3))\nfor i in range(3):\n    context_vec = np.zeros(3)  # [0., 0., 0.]\n"
                f"    for j in range(3):\n        context_vec += A[i, j] * X[j]\n    context[i] = context_vec\n"
                f"print(context)\n```\n\n```\n{_np(S)}\n"
                f"{_np(W)}\n{printed}\n```\n")
    text = doc(_np(C))
    r = check_document(text, fmt="md")
    assert not r.errors, [f.describe() for f in r.errors]
    assert r.n_numbers >= 18
    good = f"{C[1, 2]:.4f}"
    bad = _swap_last_digits(good)
    slipped = doc(_np(C).replace(good, bad))
    line = slipped[:slipped.index(bad)].count("\n") + 1
    assert [f.line for f in check_document(slipped, fmt="md").errors] == [line]


def test_sparse_or_named_matrices_beside_weights_are_not_dropped_copies():
    from mha.check.readers import read_document
    from mha.check.readers.dropvalues import mark_dropped_copies
    W = np.array([[0.5, 0.25, 0.25], [0.25, 0.5, 0.25], [0.3, 0.3, 0.4]])
    sparse = np.array([[0.7071, 0.0, 0.0], [0.0, 0.7071, 0.0], [0.0, 0.0, 0.0]])    # two survivors, seven zeros
    assert dropped_factor(_g(sparse, 4), _g(W, 4)) is None
    dropped = np.array([[0.625, 0.0, 0.3125], [0.3125, 0.625, 0.0], [0.375, 0.375, 0.5]])   # W / 0.8, two dropped
    assert abs(dropped_factor(_g(dropped, 4), _g(W, 4)) - 1.25) < 1e-3
    for label, marked in (("S", False), ("A_{drop}", True), ("", True)):
        doc = read_document(f"$$A = {_tex(W)[3:-3]}$$\n\n$${label + ' = ' if label else ''}{_tex(dropped)[3:-3]}$$\n",
                            "md")
        mark_dropped_copies(doc)
        assert doc.arrays[1].context.dropout is marked, (label, doc.arrays[1].label)
