"""A formula sheet with two small examples, each in its own code block under "**Example N**", from an outside trial's
page (t240a).  The second example was set aside whole ("another example") and never judged, for two reasons:

- read on its own, its scale (1/√d_k) tied with the 0.707 the example states ("scale by √2 ≈ 1.414"), and a scope
  whose every choice ties was not trusted; a stated scale that the chosen one agrees with decides it
  (`scoped.py`, `_decided`);
- with a slip in its one printed output, nothing else it computed counted: its scores, named by their key
  (`Q·K1 = ... = 0`, one query, no row), now count toward what a start computes (`infer/computed.py`, `key_named`).

My own numbers."""

from check_helpers import clean_report, error_findings, line_of


def _block(n, q, k1, k2, v1, v2, dots, scaled, exps, total, weights, out):
    return [f"**Example {n}:**", "```", f"Query Q = {q}", f"Keys:  K1 = {k1},  K2 = {k2}",
            f"Values: V1 = {v1},  V2 = {v2}", "", "Step 1: dot products", f"  Q·K1 = {dots[0]}", f"  Q·K2 = {dots[1]}",
            "", "Step 2: scale by √2 ≈ 1.414", f"  {scaled[0]}", f"  {scaled[1]}", "", "Step 3: softmax",
            f"  e^{exps[0]}", f"  e^{exps[1]}", f"  sum = {total}", f"  weight1 = {weights[0]}",
            f"  weight2 = {weights[1]}", "", f"Final output: {out}", "```", ""]


def _page(out2="[3.32, 4.68]"):
    return "\n".join(["## Scaled dot-product attention", ""] + _block(
        1, "[2, 0]", "[1, 0]", "[0, 1]", "[4, 0]", "[0, 8]", ["(2×1)+(0×0) = 2", "(2×0)+(0×1) = 0"],
        ["2 / 1.414 = 1.414", "0 / 1.414 = 0"], ["1.414 = 4.113", "0 = 1.0"], "5.113",
        ["4.113/5.113 = 0.804", "1.0/5.113 = 0.196"], "[3.22, 1.56]") + _block(
        2, "[0, 1]", "[1, 0]", "[0, 1]", "[6, 2]", "[2, 6]", ["(0×1)+(1×0) = 0", "(0×0)+(1×1) = 1"],
        ["0 / 1.414 = 0", "1 / 1.414 = 0.707"], ["0 = 1.0", "0.707 = 2.028"], "3.028",
        ["1.0/3.028 = 0.330", "2.028/3.028 = 0.670"], out2))


def test_both_examples_are_judged():
    report = clean_report(_page())
    assert not [n for n in report.not_checked if n.line > line_of(_page(), "**Example 2:**")], report.not_checked


def test_a_slip_in_the_second_examples_output_is_found():
    page = _page("[3.32, 4.86]")
    errs = error_findings(page)
    assert [(f.line, f.printed) for f in errs] == [(line_of(page, "[3.32, 4.86]"), "4.86")], \
        [f.message() for f in errs]
