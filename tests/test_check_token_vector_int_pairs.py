"""Per-token vectors listed in a plain code block, one of them a pair of positive whole numbers: `v0 = (4, -1)
v1 = (0, 2)   v2 = (2, 2)`.  In a block read as output, `(2, 2)` was taken for a shape, so V had two rows, the
configuration fell back to V = K and "shape of V: printed 1×1" was a false finding (a page of per-token keys and
values numbered from 0, t229d).  After a token's vector name the pair is its entries (readers/statements.py
`_token_vector_name`).  My own vectors."""

import math

ks = [(1, 0), (0, 1), (1, 1)]
vs = [(4, -1), (0, 2), (2, 2)]
q = (1, 0)


def _page(out=None):
    s = [sum(a * b for a, b in zip(q, k)) for k in ks]
    e = [math.exp(x - max(s)) for x in s]
    w = [x / sum(e) for x in e]
    o = [sum(w[j] * vs[j][i] for j in range(3)) for i in range(2)]
    out = out or f"({o[0]:.2f}, {o[1]:.2f})"
    return "\n".join([
        "# A lookup by hand", "", "No scaling, to keep the numbers round.", "", "```",
        "keys:   k0 = (1, 0)    k1 = (0, 1)    k2 = (1, 1)",
        "values: v0 = (4, -1)   v1 = (0, 2)    v2 = (2, 2)",
        "query:  q1 = (1, 0)", "```", "",
        f"Scores $q_1 \\cdot k_j$: $({s[0]}, {s[1]}, {s[2]})$. Weights: $\\alpha = ({w[0]:.3f}, {w[1]:.3f}, "
        f"{w[2]:.3f})$. Output: $o_1 = {out}$.", ""]), o


def _report(text):
    from mha.check import check_document
    return check_document(text, fmt="md")


def test_the_values_are_read_as_vectors_and_the_page_checks_clean():
    text, _ = _page()
    r = _report(text)
    assert r.errors == [], [f.describe() for f in r.errors]
    assert "V as v_i vectors" in " ".join(str(v) for v in r.configuration.values())


def test_a_slip_in_the_output_is_found():
    _, o = _page()
    slipped = f"{o[0] + 0.05:.2f}"
    text, _ = _page(f"({slipped}, {o[1]:.2f})")
    assert [f.printed for f in _report(text).errors] == [slipped]
