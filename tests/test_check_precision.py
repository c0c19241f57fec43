"""`mha check` never cries wolf on documents it has never seen: attention weights printed after dropout (and what
is computed from them), however the document says so; a first unlabelled matrix that is not X (scores, weights,
queries, embeddings); correct documents in the styles public authors use; damaged documents (a report or one
exit 2).  Every document below was written for these tests; its numbers come from mha.trace or NumPy here."""

import json

import numpy as np

import mha
from mha.check import check_document
from mha.check.readers.dropout import DropState, after_dropout, dropped_prints
from check_helpers import numpy_rows

X = [[0.6, -0.2, 0.9, 0.1], [0.3, 0.8, -0.4, 0.5], [-0.7, 0.4, 0.2, 0.6], [0.2, 0.5, 0.7, -0.3]]
CFG = {"X": X, "n_heads": 1, "W_Q": "identity", "W_K": "identity", "W_V": "identity", "scale": "1/sqrt(d_k)",
       "W_O": "none", "causal": True}
KEEP = np.array([[1, 1, 1, 1], [0, 1, 1, 1], [1, 1, 0, 1], [1, 0, 1, 1]], dtype=float)


def _numbers(p: float, decimals: int = 2):
    t = mha.trace(CFG)
    A = t.A[0, 0]
    D = A * KEEP / (1 - p)
    V = np.asarray(X)
    return A, D, D @ V, A @ V, decimals


def _doc(p: float, decimals: int, words_before: str = "", code: bool = True) -> str:
    A, D, DV, AV, d = _numbers(p, decimals)
    rows = lambda M: numpy_rows(M, d)                                      # noqa: E731
    drop = (f"```python\nweights = torch.nn.Dropout(p={p})(weights)\nprint(weights)\n"
            f"print(weights.sum(dim=-1))\n```\n\n" if code else "")
    sums = f"{numpy_rows(D.sum(axis=-1, keepdims=True).T, d)}\n" if code else ""
    return f"""# Causal weights and dropout

```python
X = torch.tensor({X})
weights = torch.softmax(masked_scores(X @ X.T / 2), dim=-1)   # causal, scaled by 1/sqrt(4)
print(weights)
```

```text
{rows(A)}
```

{words_before}

{drop}```text
{rows(D)}
{sums}```

```python
print(weights @ X)
```

```text
{rows(DV)}
```

Without dropout the output is:

```text
{rows(AV)}
```
"""


def test_weights_after_dropout_in_code_are_not_judged_as_weights():
    # p = 0.1 at 2 decimals: most survivors, divided by 0.9, still look like weights, so the printout "mostly
    # matches" A; before the dropout reading, its dropped entries were findings
    for p in (0.1, 0.5):
        r = check_document(_doc(p, 2), fmt="md")
        assert not r.errors, (p, [f.describe() for f in r.errors])
        why = [n for n in r.not_checked if "dropout" in n.reason]
        assert len(why) >= 2, [f"{n.what}: {n.reason}" for n in r.not_checked]
        assert r.n_numbers >= 16          # the weights before dropout and the dropout-free output were judged


def test_words_that_say_after_dropout_are_enough_without_code():
    for words in ("The attention weights after dropout (training mode):", "对注意力权重做 dropout（p=0.1）之后："):
        r = check_document(_doc(0.1, 2, words, code=False), fmt="md")
        assert not r.errors, (words, [f.describe() for f in r.errors])


def test_a_slip_before_dropout_is_still_found():
    A, D, *_ = _numbers(0.1)
    good = f"{A[2, 1]:.2f}"
    doc = _doc(0.1, 2)
    row = numpy_rows(A, 2).split("\n")[2]
    slipped = row.replace(good, f"{A[2, 1] + 0.11:.2f}", 1)
    r = check_document(doc.replace(row, slipped, 1), fmt="md")
    line = doc[:doc.index(row)].count("\n") + 1
    assert any(f.line == line and f.step == "softmax" for f in r.errors), [f.describe() for f in r.errors]


def test_a_dropout_that_drops_nothing_is_judged():
    # rate 0: what it prints is the weights themselves, so a slip in that printout is found
    A, D, *_ = _numbers(0.1)
    doc = _doc(0.1, 2).replace("Dropout(p=0.1)", "Dropout(p=0.0)")
    same = numpy_rows(A, 2)
    slipped = same.replace(f"{A[3, 2]:.2f}", f"{A[3, 2] + 0.2:.2f}", 1)
    k = doc.index(numpy_rows(D, 2))
    doc = doc[:k] + slipped + doc[k + len(numpy_rows(D, 2)):]
    line = doc[:k].count("\n") + 4
    r = check_document(doc, fmt="md")
    assert any(f.line == line for f in r.errors), [f.describe() for f in r.errors]


def test_before_dropout_words_do_not_hide_a_slip():
    assert not after_dropout("The weights before dropout:")
    assert not after_dropout("Without dropout the output is:")
    assert not after_dropout("推理时不做 dropout：")
    assert after_dropout("经过 dropout 之后的权重：") and after_dropout("Now apply dropout to the weights:")


def test_dropped_names_follow_assignments_across_cells():
    s = DropState()
    first = dropped_prints("attn = torch.softmax(s, -1)\nprint(attn)\nattn = self.dropout(attn)\n", s)
    assert first.labels == set() and "attn" in s.dropped
    second = dropped_prints("ctx = attn @ v\nprint(ctx)\nattn = torch.softmax(s, -1)\nprint(attn)", s)
    assert second.labels == {"ctx"}                    # attn is clean again after its reassignment
    inert = dropped_prints("drop = nn.Dropout(0.0)\nw = drop(w)\nprint(w)\nprint(F.dropout(w, p=0.0))", DropState())
    assert inert.labels == set()
    method = dropped_prints("class A:\n    def forward(self, x):\n        w = self.dropout(softmax(x))\n"
                            "        print(w)\n        return w\nv = softmax(x)\nprint(v)\nprint(w)", DropState())
    assert method.labels == {"w"}                      # the print inside forward; the one outside is clean
    words = dropped_prints('print("Sum of first row:", nn.Dropout(0.5)(w)[0].sum())', DropState())
    assert words.texts == ["Sum of first row:"]


# ---------------------------------------------------------------- the first unlabelled matrix is not always X

def _sm(S):
    E = np.exp(S - S.max(-1, keepdims=True))
    return E / E.sum(-1, keepdims=True)


def _tex(M, d=4):
    return "$$\n\\begin{bmatrix}" + " \\\\ ".join(" & ".join(f"{x:.{d}f}" for x in r) for r in M) + "\\end{bmatrix}\n$$"


S3 = np.array([[2.0, 1.0, 0.1], [0.5, 2.5, 1.0], [1.2, 0.3, 1.8]])
V3 = np.array([[1.0, 0.0], [0.0, 1.0], [0.5, 0.5]])
Q3 = np.array([[1.0, 0.5], [0.2, 1.5], [0.8, -0.4]])
K3 = np.array([[0.9, 0.1], [-0.3, 1.2], [0.4, 0.4]])
E4 = np.array([[0.1, 0.8, 0.3], [0.7, 0.2, 0.5], [0.4, 0.6, 0.9], [0.2, 0.1, 0.4]])


def _first_matrix_documents() -> dict[str, str]:
    A = _sm(S3)
    Sq = Q3 @ K3.T / np.sqrt(2)
    Se = E4 @ E4.T / np.sqrt(3)
    return {
        "scores": f"# Softmax turns scores into weights\n\nSuppose the dot products are already computed:\n\n"
                  f"{_tex(S3, 1)}\n\nApplying softmax to each row gives\n\n{_tex(A)}\n\nMixing the vectors\n\n"
                  f"{_tex(V3, 1)}\n\nwith these weights gives\n\n{_tex(A @ V3)}\n",
        "weights": f"# Weighted sums\n\nA matrix whose rows add to one:\n\n{_tex(A)}\n\nand three vectors:\n\n"
                   f"{_tex(V3, 1)}\n\nTheir product is\n\n{_tex(A @ V3)}\n",
        "queries": f"# Queries against keys\n\n{_tex(Q3, 1)}\n\nAgainst the keys $K$\n\n{_tex(K3, 1)}\n\n"
                   f"the scaled products are\n\n{_tex(Sq)}\n\nand the softmax of each row is\n\n{_tex(_sm(Sq))}\n",
        "embedding": f"# 词向量与注意力\n\n四个词的向量如下：\n\n{_tex(E4, 1)}\n\n两两点积再除以 $\\sqrt{{3}}$：\n\n"
                     f"{_tex(Se)}\n\n按行做 softmax：\n\n{_tex(_sm(Se))}\n",
    }


def test_a_first_unlabelled_matrix_that_is_not_x_gives_no_finding():
    for name, doc in _first_matrix_documents().items():
        try:
            r = check_document(doc, fmt="md")
        except mha.inputs.MHAInputError:
            continue                          # nothing it could check: said in one line, no verdict
        assert not r.errors, (name, [f.describe() for f in r.errors])


def _with_swapped_weight(doc: str) -> tuple[str, int]:
    """The embedding document with two digits of one softmax weight swapped, and that weight's line."""
    W = _sm(E4 @ E4.T / np.sqrt(3))
    good = next(g for g in (f"{x:.4f}" for x in W[1:].ravel()) if doc.count(g) == 1 and g[-1] != g[-2])
    bad = good[:-2] + good[-1] + good[-2]
    k = doc.index(good)
    return doc.replace(good, bad), doc[:k].count("\n") + 1


def test_a_guessed_x_judges_only_when_a_printout_computed_from_it_holds():
    doc = _first_matrix_documents()["embedding"]
    slipped, line = _with_swapped_weight(doc)
    r = check_document(slipped, fmt="md")
    assert "first matrix" in r.configuration["X"]
    # the scores printed in full bear the guess out: the slip in the weights is found
    assert [f.line for f in r.errors] == [line], [f.describe() for f in r.errors]
    # without them nothing computed from the guess holds: the same slip is not a verdict, only "not checked"
    scores = _tex(E4 @ E4.T / np.sqrt(3))
    bare = slipped.replace(scores, "")
    r = check_document(bare, fmt="md")
    line = line - scores.count("\n")
    # (the caption "按行做 softmax：" names the weights: a row that no longer sums to 1 is wrong whatever X is)
    assert all(f.claim.endswith("its sum") and f.line == line for f in r.errors), [f.describe() for f in r.errors]
    assert any(n.line == line and "guessed" in n.reason for n in r.not_checked), r.not_checked


# ---------------------------------------------------------------- correct documents in public authors' styles

def _np(M, d=4):
    return "[" + "\n ".join("[" + " ".join(f"{x:{d + 3}.{d}f}" for x in r) + "]" for r in M) + "]"


def _inline(M, d=4):
    return "\\begin{bmatrix}" + " \\\\ ".join(" & ".join(f"{x:.{d}f}" for x in r) for r in M) + "\\end{bmatrix}"


def _adversarial_documents() -> dict[str, tuple[str, str]]:
    X1 = np.array([[1.0, 0.0], [0.0, 1.0], [1.0, 1.0]])
    S1 = X1 @ X1.T / np.sqrt(2)
    X2 = np.array([[0.5, -1.0, 0.2, 0.3], [1.5, 0.4, -0.6, 0.8]])
    S2 = X2 @ X2.T / 2
    two = (f"# Self-attention by hand, twice\n\n## Example 1\n\nLet $X = {_inline(X1, 1)}$ with no projections. Then "
           f"$S = XX^T/\\sqrt{{2}} = {_inline(S1)}$ and\n$A = \\mathrm{{softmax}}(S) = {_inline(_sm(S1))}$, so "
           f"$O = AX = {_inline(_sm(S1) @ X1)}$.\n\n## Another example\n\nNow a different input, two tokens of width "
           f"four: $X = {_inline(X2, 1)}$.\nScores $S = XX^T/\\sqrt{{4}} = {_inline(S2)}$, weights "
           f"$A = {_inline(_sm(S2))}$, output $O = {_inline(_sm(S2) @ X2)}$.\n")
    Q = np.array([[0.3, 1.1], [0.9, -0.2], [0.4, 0.6]])
    K = np.array([[1.0, 0.2], [0.1, 0.8], [-0.5, 0.7]])
    V = np.array([[1.0, 2.0], [0.0, 1.0], [2.0, 0.0]])
    Sr = np.round(Q @ K.T / np.sqrt(2), 2)
    Ar = np.round(_sm(Sr), 2)
    rounded = (f"# Attention, rounding as we go\n\nQueries $Q = {_inline(Q, 1)}$, keys $K = {_inline(K, 1)}$, values "
               f"$V = {_inline(V, 1)}$.\n\nScaled scores, rounded to two decimals: $S = QK^T/\\sqrt{{2}} \\approx "
               f"{_inline(Sr, 2)}$.\n\nSoftmax of the rounded scores, again to two decimals: $A \\approx "
               f"{_inline(Ar, 2)}$.\n\nOutput from the rounded weights: $O = AV \\approx {_inline(Ar @ V, 2)}$.\n")
    Xe = np.array([[0.2, 0.9], [1.1, -0.3], [0.5, 0.5], [-0.4, 0.7]])
    Me = np.where(np.triu(np.ones((4, 4)), 1) > 0, -np.inf, Xe @ Xe.T / np.sqrt(2))
    minus_inf = (f"# Masked scores\n\n```python\nX = np.array({Xe.tolist()})\nS = X @ X.T / np.sqrt(2)\n"
                 f"S[np.triu_indices(4, 1)] = -np.inf\nprint(S)\nA = np.exp(S - S.max(axis=1, keepdims=True))\n"
                 f"A /= A.sum(axis=1, keepdims=True)\nprint(A)\nprint(A @ X)\n```\n\n```\n{_np(Me)}\n{_np(_sm(Me))}\n"
                 f"{_np(_sm(Me) @ Xe)}\n```\n")
    q = np.array([[1.0, 0.0, 1.0], [0.0, 2.0, 0.0], [1.0, 1.0, 0.0]])
    k = np.array([[0.0, 1.0, 1.0], [1.0, 0.0, 0.0], [1.0, 1.0, 1.0]])
    v = np.array([[1.0, 0.0], [0.0, 1.0], [1.0, 1.0]])
    Af = _sm(q @ k.T / np.sqrt(3))
    vec = lambda r: ", ".join(f"{x:.0f}" for x in r)                           # noqa: E731
    four = lambda r: ", ".join(f"{x:.4f}" for x in r)                          # noqa: E731
    tokens = "\n".join(f"- 词元 {i + 1}：查询向量 $q_{i + 1} = [{vec(q[i])}]$，键向量 $k_{i + 1} = [{vec(k[i])}]$，"
                       f"值向量 $v_{i + 1} = [{vec(v[i])}]$" for i in range(3))
    zh = (f"# 逐个词元计算注意力\n\n{tokens}\n\n词元 1 的分数：$q_1 \\cdot k_j / \\sqrt{{3}}$ 依次为 "
          f"{four((q @ k.T / np.sqrt(3))[0])}。\n\nsoftmax 之后的权重为 {four(Af[0])}。\n\n所以词元 1 的输出是 "
          f"$[{four((Af @ v)[0])}]$。\n\n词元 2 的权重为 {four(Af[1])}，输出为 $[{four((Af @ v)[1])}]$。\n")
    return {"two examples": (two, "md"), "rounded inputs carried forward": (rounded, "md"),
            "-inf for masked cells": (minus_inf, "md"), "per-token vectors, Chinese": (zh, "md")}


def test_correct_documents_in_public_styles_give_no_finding():
    for name, (doc, fmt) in _adversarial_documents().items():
        r = check_document(doc, fmt=fmt)
        assert not r.errors, (name, [f.describe() for f in r.errors])
        assert r.n_numbers >= 6, (name, r.n_numbers)


def test_weights_printed_rounded_then_products_of_the_unrounded_ones():
    rng = np.random.default_rng(7)
    X = np.array([[1.0, 0.5, -0.3], [0.2, -1.0, 0.8], [0.6, 0.1, 0.4]])
    Wq, Wk, Wv = (rng.standard_normal((3, 2)) for _ in range(3))
    Q, K, V = X @ Wq, X @ Wk, X @ Wv
    S = Q @ K.T / np.sqrt(2)
    outs = [Wq, Wk, Wv, Q, K, V, S, _sm(S), _sm(S) @ V]
    doc = ("# Random projections\n\n```python\nX = np.array([[1.0, 0.5, -0.3], [0.2, -1.0, 0.8], [0.6, 0.1, 0.4]])\n"
           "W_q, W_k, W_v = (rng.standard_normal((3, 2)) for _ in range(3))\nQ, K, V = X @ W_q, X @ W_k, X @ W_v\n"
           "S = Q @ K.T / np.sqrt(2)\nA = np.exp(S) / np.exp(S).sum(axis=1, keepdims=True)\n"
           + "".join(f"print({m})\n" for m in ("W_q", "W_k", "W_v", "Q", "K", "V", "S", "A", "A @ V"))
           + "```\n\n```\n"
           + "\n".join(_np(M) for M in outs) + "\n```\n")
    r = check_document(doc, fmt="md")
    assert not r.errors, [f.describe() for f in r.errors]
    assert r.n_numbers >= 18, r.n_numbers


# ---------------------------------------------------------------- damaged documents: a report or one exit 2

_JUNK = ["[", "]", "$", "$$", "\\begin{bmatrix}", "&", "\\\\", "3.4e+388", "1e-400", "-1e999", "nan", "NaN", "-inf",
         "Infinity", "−", "−0.5", "9" * 330, "tensor(", "```", "\\frac{", "=", "≈", "…", "\x00", "\ufeff", "−∞",
         "float('-inf')", "\r"]


def _damaged(rng, text: str) -> str:
    import re
    for _ in range(rng.randint(1, 4)):
        k = rng.randrange(len(text) + 1)
        roll = rng.random()
        if roll < 0.25:
            text = text[:k] + text[k + rng.randint(1, 200):]
        elif roll < 0.5:
            text = text[:k] + rng.choice(_JUNK) + text[k:]
        elif roll < 0.7:
            nums = list(re.finditer(r"-?\d+\.\d+", text))
            if nums:
                n = rng.choice(nums)
                text = text[:n.start()] + rng.choice(["3.4e+388", "1e-400", "nan", "-inf", "−" + n.group().lstrip("-"),
                                                      n.group() + "e999"]) + text[n.end():]
        elif roll < 0.85:
            text = text[:k]                                   # cut short
        else:
            text = text[:k] + text[k:k + 300].replace("-", "−") + text[k + 300:]     # unicode minus
    return text


def _damaged_notebook(rng, nb: dict) -> str:
    """A notebook whose JSON still parses but holds the wrong types where lines, cells and outputs belong."""
    import copy
    nb = copy.deepcopy(nb)
    spots = []

    def walk(o, path):
        spots.append(path)
        items = o.items() if isinstance(o, dict) else enumerate(o) if isinstance(o, list) else ()
        for key, value in items:
            walk(value, path + (key,))
    walk(nb, ())
    for _ in range(rng.randint(1, 3)):
        path = rng.choice(spots[1:])
        o = nb
        try:
            for key in path[:-1]:
                o = o[key]
            o[path[-1]] = rng.choice([None, 0, 3.4e300, "", [], {}, [1, None], "nan", ["tensor([[nan, inf]])", 2]])
        except (KeyError, IndexError, TypeError):
            pass
    return json.dumps(nb)


def test_damaged_documents_give_a_report_or_one_exit_2():
    import random
    from pathlib import Path
    rng = random.Random(18)
    texts = [d for d, _ in _adversarial_documents().values()] + list(_first_matrix_documents().values()) + \
        [_doc(0.1, 2), _doc(0.5, 4, "After dropout:", code=False)]
    corpus = Path(__file__).resolve().parent / "check_corpus"
    nb = json.loads((corpus / "nb_torch_dropout_weights_zh.ipynb").read_text(encoding="utf-8"))
    cases = [(_damaged(rng, rng.choice(texts)), "md") for _ in range(24)]
    cases += [(_damaged_notebook(rng, nb), "ipynb") for _ in range(12)]
    # found by fuzzing: lines of a cell's source that are numbers, not text
    cases.append((json.dumps({"cells": [{"cell_type": "markdown", "metadata": {}, "source": [1, 2]}],
                              "metadata": {}, "nbformat": 4, "nbformat_minor": 5}), "ipynb"))
    for text, fmt in cases:
        try:
            check_document(text, fmt=fmt, name=f"damaged.{fmt}")
        except mha.inputs.MHAInputError as e:
            assert "\n" not in str(e).strip(), str(e)


def test_scaled_by_one_over_a_root_states_the_root_not_one():
    # "scaled by 1/sqrt(4)" was read as a stated scale of 1, which then outvoted the printed weights
    from mha.check.readers import read_document
    for text, root in (("# causal, scaled by 1/sqrt(4)", "4"), ("scale = 1/sqrt(8)", "8"), ("除以 √2", "2")):
        hints = [(h.kind, h.value) for h in read_document(text, "md").hints if h.kind.startswith("scale")]
        assert ("scale_sqrt", root) in hints and ("scale", "1") not in hints, (text, hints)


def test_a_documents_own_code_warns_nothing():
    # an invalid escape in the author's code (a DeprecationWarning when Python parses it) and a printout with a
    # NaN are the document's; check reads them without a warning on the user's terminal
    import warnings
    backslash = "\\"
    doc = ("```python\nimport re\nclean = re.sub('" + backslash + "[', '', text)\n"
           "scores = np.array([[1.0, 2.0], [0.5, 1.5]])\nweights = softmax(scores / keys.shape[-1]**0.5)\n"
           "print(scores)\nprint(weights)\nprint(weights / weights.sum(-1, keepdims=True))\n```\n\n"
           "```text\n[[1.  2. ]\n [0.5 1.5]]\n[[0.33 0.67]\n [nan 0.67]]\n[[0.33 0.67]\n [0.33 0.67]]\n```\n")
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        r = check_document(doc, fmt="md")
    assert r.n_claims >= 0 and not [f for f in r.errors if "nan" in f.describe().lower()]
