"""`mha check` reads attention in the notations other authors write (issue 18: documents that start from per-token
vectors or from scores).  Focused documents, written for this test (own words, own numbers, every expected value
computed with plain NumPy in `_truth`), one per reading:

- a table with one row per key and one column per step (score, score ÷ 2, weight as a percent);
- attention weights given with the value vectors (no Q, K), named only "weights";
- Chinese token names (第1个词的查询, 值向量 v1) and 约等于 for ≈;
- a notebook that prints whole-valued scores (tensor([4., -2., 6.])) and scales them in code (scores / 2);
- per-token vectors named "Query 1:", "Key 2:".

Each checks clean and each planted slip is found on its line.  Then the notation matrix (tests/notation_matrix.py):
every clean variant checks clean, and the recall of planted slips per axis stays at or above the floor it reached.
"""

import textwrap

import numpy as np
import pytest

from mha.check import check_document


def _softmax(s):
    e = np.exp(s - s.max())
    return e / e.sum()


def _truth():
    """Every number the documents below print, computed here."""
    s1 = np.array([3.0, -1.0, 1.0])
    w1 = _softmax(s1 / 2)
    v1 = np.array([[1.0, 0.0, 2.0], [0.0, 1.0, -1.0], [2.0, 1.0, 0.0]])
    w2 = np.array([0.2, 0.5, 0.3])
    v2 = np.array([[2.0, -1.0, 0.0], [1.0, 1.0, 3.0], [-1.0, 2.0, 1.0]])
    q3, k3 = np.array([1.0, 2.0]), np.array([[1.0, 0.0], [0.0, 1.0], [1.0, 1.0]])
    v3 = np.array([[1.0, 0.0, 1.0], [0.0, 1.0, 2.0], [1.0, -1.0, 0.0]])
    w3 = _softmax(k3 @ q3 / np.sqrt(2))
    s4 = np.array([4.0, -2.0, 6.0])
    return {"z1": s1 / 2, "w1%": 100 * w1, "o1": w1 @ v1, "o2": w2 @ v2, "s3": k3 @ q3,
            "z3": k3 @ q3 / np.sqrt(2), "w3": w3, "o3": w3 @ v3, "w4": _softmax(s4 / 2)}


def _fmt(xs, d, sep=", "):
    return sep.join(f"{x:.{d}f}" for x in xs)


def _errors(text: str, name: str) -> dict[int, list[str]]:
    out: dict[int, list[str]] = {}
    for f in check_document(text, name=name).errors:
        out.setdefault(f.line if f.cell is None else (f.cell, f.line), []).append(f.describe())
    return out


def _line_of(text: str, find: str) -> int:
    assert text.count(find) == 1, find
    return text[:text.index(find)].count("\n") + 1


T = _truth()

KEY_TABLE_MD = textwrap.dedent(f"""\
    # One query, three keys, in a table

    The query meets each key; we divide by 2 (the square root of d_k = 4) and take the softmax.

    | key | value | score | score ÷ 2 | weight |
    |---|---|---|---|---|
    | k1 | [1, 0, 2] | 3 | {T['z1'][0]:.1f} | {T['w1%'][0]:.2f}% |
    | k2 | [0, 1, -1] | -1 | {T['z1'][1]:.1f} | {T['w1%'][1]:.2f}% |
    | k3 | [2, 1, 0] | 1 | {T['z1'][2]:.1f} | {T['w1%'][2]:.2f}% |

    The output weighs each key's value by its weight:

    o = [{_fmt(T['o1'], 4)}]
    """)
KEY_TABLE_SLIPS = [("| 24.47% |", "| 24.74% |"), ("| -0.5 |", "| 0.5 |"), ("0.3348", "0.3384")]

WEIGHTS_TXT = textwrap.dedent(f"""\
    Mixing the values
    =================

    The softmax is already done; these are the weights of the first query:

    weights = [0.2, 0.5, 0.3]
    v1 = [2, -1, 0]
    v2 = [1, 1, 3]
    v3 = [-1, 2, 1]

    Each value vector times its weight, added up:

    output = [{_fmt(T['o2'], 1)}]
    """)
WEIGHTS_SLIPS = [(f"[{_fmt(T['o2'], 1)}]", "[0.6, 0.9, 1.9]")]

ZH_ORDINAL_TXT = textwrap.dedent(f"""\
    手算注意力（只看第1个词）
    ====================

    已知向量：
    第1个词的查询：[1, 2]
    第1个词的键：[1, 0]
    第2个词的键：[0, 1]
    第3个词的键：[1, 1]
    值向量 v1 = [1, 0, 1]
    值向量 v2 = [0, 1, 2]
    值向量 v3 = [1, -1, 0]

    点积：scores = [{_fmt(T['s3'], 0)}]
    除以 √2：scores / √2 约等于 [{_fmt(T['z3'], 4)}]
    权重 α 约等于 [{_fmt(T['w3'], 4)}]
    输出 o 约等于 [{_fmt(T['o3'], 4)}]
    """)
ZH_ORDINAL_SLIPS = [(f"{T['z3'][2]:.4f}", "2.1231"), (f"{T['w3'][1]:.4f}", "0.2480"), (f"{T['o3'][2]:.4f}", "0.7800")]

QUERY_WORDS_TXT = textwrap.dedent("""\
    Two tokens, no projections

    Query 1: [1, 0]
    Query 2: [0, 2]
    Key 1: [2, 0]
    Key 2: [1, 1]
    Value 1: [1, 3]
    Value 2: [2, -1]

    Dot products (no scaling in this toy):

    scores_1 = [2, 1]
    scores_2 = [0, 2]

    α_1 = [{w11}, {w12}]
    α_2 = [{w21}, {w22}]
    """)


def _query_words() -> tuple[str, list]:
    a = [_softmax(np.array([2.0, 1.0])), _softmax(np.array([0.0, 2.0]))]
    text = QUERY_WORDS_TXT.format(w11=f"{a[0][0]:.4f}", w12=f"{a[0][1]:.4f}", w21=f"{a[1][0]:.4f}",
                                  w22=f"{a[1][1]:.4f}")
    return text, [(f"{a[0][1]:.4f}", "0.2698"), (f"{a[1][0]:.4f}", "0.1129")]


@pytest.mark.parametrize("text,slips,name", [
    (KEY_TABLE_MD, KEY_TABLE_SLIPS, "key_table.md"),
    (WEIGHTS_TXT, WEIGHTS_SLIPS, "weights.txt"),
    (ZH_ORDINAL_TXT, ZH_ORDINAL_SLIPS, "zh_ordinal.txt"),
    (*_query_words(), "query_words.txt"),
], ids=["key-table-percent-written-scale", "weights-with-values", "zh-ordinal-names", "query-words"])
def test_notation_checks_clean_and_finds_each_slip(text, slips, name):
    r = check_document(text, name=name)
    assert not r.errors, [f.describe() for f in r.errors]
    assert r.n_numbers >= 3
    for find, replace in slips:
        line = _line_of(text, find)
        got = _errors(text.replace(find, replace), name)
        assert line in got, (find, replace, got)
        assert set(got) == {line}, got


def test_percent_weights_are_read_as_shares():
    r = check_document(KEY_TABLE_MD, name="key_table.md")
    assert "written" in " ".join(r.configuration.values()) or r.n_numbers >= 9
    got = _errors(KEY_TABLE_MD.replace("| 24.47% |", "| 24.74% |"), "key_table.md")
    assert any("24.47%" in d for ds in got.values() for d in ds), got     # the rounding printed as a percent


def test_notebook_whole_valued_printout_and_scale_in_code():
    import json
    w = T["w4"]
    cells = [("code", "import torch\nscores = torch.tensor([4., -2., 6.])\nprint(scores)", "tensor([ 4., -2.,  6.])"),
             ("code", "scaled = scores / 2\nprint(scaled)", "tensor([ 2., -1.,  3.])"),
             ("code", "weights = torch.softmax(scaled, dim=-1)\nprint(weights)",
              f"tensor([{_fmt(w, 4)}])")]
    nb = {"cells": [{"cell_type": k, "id": f"c{i}", "metadata": {}, "source": s, "execution_count": i + 1,
                     "outputs": [{"output_type": "stream", "name": "stdout", "text": o + "\n"}]}
                    for i, (k, s, o) in enumerate(cells)], "metadata": {}, "nbformat": 4, "nbformat_minor": 5}
    text = json.dumps(nb)
    r = check_document(text, name="scaled.ipynb")
    assert not r.errors, [f.describe() for f in r.errors]
    assert "0.5" in " ".join(r.configuration.values()), r.configuration     # the scale read from `scores / 2`
    slipped = check_document(text.replace(f"{w[2]:.4f}", "0.7241"), name="scaled.ipynb")
    assert [(f.cell, f.line) for f in slipped.errors] == [(3, 1)], [f.describe() for f in slipped.errors]


# ---------------------------------------------------------------- the notation matrix

MATRIX_N, MATRIX_SEED = 48, 3
# the recall each axis value reached on these 48 variants (found / planted, 2 slips each) when this test was
# written, less one slip (two for all of them: 72/96 then); a value with fewer than 6 planted slips is not pinned.
# scores, percent, notebook, zh, scale none and spell q1 lost the same two slips (one variant) to identity weighing
# what agrees (claims/identity.evidence): both in weights printed as [0.00%, 0.00%, 100.00%], whose other cells
# (0, 0, 1) any dominant score gives, so they identify nothing
FLOORS = {
    ('start', 'one_query'): 0.81, ('start', 'scores'): 0.64, ('start', 'tokens'): 0.9, ('start', 'weights'): 0.35,
    ('format', 'beamer'): 0.62, ('format', 'html'): 0.8, ('format', 'md_latex'): 0.64, ('format', 'md_table'): 0.66,
    ('format', 'notebook'): 0.68, ('format', 'text'): 0.57, ('lang', 'en'): 0.75, ('lang', 'zh'): 0.7,
    ('present', 'exps'): 0.6, ('present', 'p2'): 0.55, ('present', 'p3'): 0.78, ('present', 'p4'): 0.5,
    ('present', 'percent'): 0.9, ('present', 'terms'): 0.62, ('scale', 'div'): 0.81, ('scale', 'divsym'): 0.88,
    ('scale', 'mul'): 0.62, ('scale', 'none'): 0.55, ('scale', 'sqrt'): 0.71, ('spell', 'Query 1:'): 0.75,
    ('spell', 'q1'): 0.41, ('spell', 'q_1'): 0.7, ('spell', 'query_1'): 0.87, ('spell', 'q₁'): 0.87,
    ('spell', 'table'): 0.64, ('spell', 'zh_ord'): 0.56, ('all', 'all'): 0.72,
}


@pytest.fixture(scope="module")
def matrix_rows():
    from notation_measure import measure
    return measure(MATRIX_N, MATRIX_SEED)


def test_matrix_clean_variants_check_clean(matrix_rows):
    bad = [(r["name"], r["clean_errors"][:2]) for r in matrix_rows if r["clean_errors"]]
    assert not bad, bad
    assert sum(r["usable"] for r in matrix_rows) >= 0.9 * len(matrix_rows)


def test_matrix_recall_per_axis_stays_above_its_floor(matrix_rows):
    from notation_measure import recall_by_axis
    by = recall_by_axis(matrix_rows)
    low = []
    for (axis, value), floor in FLOORS.items():
        if axis == "all":
            continue
        f, t = by[axis].get(value, (0, 0))
        if t and f / t < floor:
            low.append(f"{axis}={value}: {f}/{t} < {floor:.2f}")
    found = sum(sum(r["found"]) for r in matrix_rows)
    planted = sum(len(r["found"]) for r in matrix_rows)
    print(f"\nnotation matrix: {found}/{planted} slips found; " +
          "; ".join(f"{a}: " + " ".join(f"{k} {f}/{t}" for k, (f, t) in sorted(v.items())) for a, v in by.items()))
    assert not low, low
    assert found / planted >= FLOORS.get(("all", "all"), 0.0)
