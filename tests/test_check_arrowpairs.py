"""Scores and weights listed key by key, "score 1.0 → weight 0.23" (issue 18, own-error recall; claims/arrowpairs.py).

An intuition section draws one query against a few keys, one line per key, with its score and its weight.  The
weights are the softmax of those scores; a made-up weight is an error on its line, and the same weights written
again into the weighted sum are wrong there too.  A list that some scale explains (the scores divided by √d_k
before the softmax, left unsaid) is left alone.  My own pages and numbers; the weights are recomputed here with
NumPy, independently of mha."""

import numpy as np

from check_helpers import error_lines, line_of, softmax
from mha.check import check_document


X = [1.0, 0.5, 2.0]
P = [f"{p:.2f}" for p in softmax(X)]                   # 0.23, 0.14, 0.63
HALF = [f"{p:.2f}" for p in softmax(np.array(X) / 2)]  # the same scores halved first: 0.29, 0.23, 0.48


def _page(ws, lang="en") -> str:
    if lang == "zh":
        rows = "\n".join(f"  ├── 键{k + 1} → 相似度 {x} → 权重 {w}" for k, (x, w) in enumerate(zip(X, ws)))
        # a page with nothing else to read is refused (exit 2): the worked example under the sketch is written out
        return (f"# 直觉\n\n```\n查询: \"猫\"\n{rows}\n  ▼\n输出 = {ws[0]} × 值1 + {ws[1]} × 值2 + {ws[2]} × 值3\n```\n"
                f"\n## 计算\n\n```\nsoftmax([1.0, 0.5, 2.0]) = [{P[0]}, {P[1]}, {P[2]}]\n```\n")
    rows = "\n".join(f"  key {k + 1}: score {x} -> weight {w}" for k, (x, w) in enumerate(zip(X, ws)))
    return f"# Intuition\n\n```\nquery: \"cat\"\n{rows}\noutput = {ws[0]} * v1 + {ws[1]} * v2 + {ws[2]} * v3\n```\n"


def test_the_oracle_numbers():
    assert P == ["0.23", "0.14", "0.63"] and HALF == ["0.29", "0.23", "0.48"]


def test_the_clean_lists_give_nothing():
    assert error_lines(_page(P)) == {}
    assert error_lines(_page(P, "zh")) == {}


def test_made_up_weights_are_found_on_their_lines_and_noted_in_the_sum_that_repeats_them():
    for lang, word in (("en", "weight"), ("zh", "权重")):
        text = _page(["0.30", "0.10", "0.60"], lang)
        errs = error_lines(text)
        lines = [line_of(text, f"{word} {w}") for w in ("0.30", "0.10", "0.60")]
        total = line_of(text, "0.30 ×" if lang == "zh" else "0.30 *")
        assert sorted(errs) == lines, lang
        assert [errs[ln][0].rounded for ln in lines] == P
        # one slip, one finding: the weighted sum that writes them again gets a note pointing back
        notes = [f for f in check_document(text, fmt="md").findings if f.line == total]
        assert notes and {f.severity for f in notes} == {"note"}, lang
        assert notes[0].cause.startswith(f"follows from line {lines[0]}:"), lang


def test_weights_that_a_left_out_scale_explains_are_left_alone():
    assert error_lines(_page(HALF)) == {}


def test_one_line_is_not_a_list():
    text = "# Intuition\n\nOne key: score 1.0 -> weight 0.60\n"
    assert error_lines(text) == {}
