"""A row of weights that does not sum to 1 is wrong whatever the configuration; it must not keep a section from
being read on its own, and the entry that section's reading names replaces it (one slip, one finding).

On a course notebook (outside trial t132c) the document's configuration was a poor guess (token ids as X), and the
cell that prints Q, K, V and the weights was checked as a scope of its own.  A slip planted in one weight made its row
sum 1.0011; that finding, inside the scope, stopped the scope from being read, and the weight's exact value was never
named.  Now the row sum holds no scope back, and the scope's finding on the entry takes its place
(scoped.judge_scopes, scoped._merge).
"""

from types import SimpleNamespace

from mha.check.report import Finding, NotChecked
from mha.check.scoped import _merge, row_sum_finding


def _f(line, claim, printed, severity="error"):
    return Finding(line, 3, claim, printed, 0.2088, "0.2088", "softmax", None, "wrong_value", severity)


def test_a_row_sum_finding_is_told_apart():
    assert row_sum_finding(_f(33, "Attention weight: a row's sum", "0.2021 + 0.2098 = 1.0011"))
    assert row_sum_finding(_f(33, "weights row 2: its sum", "0.4 + 0.7 = 1.1"))
    assert not row_sum_finding(_f(33, "A[3,3]", "0.2098"))


def test_the_scope_names_the_entry_in_place_of_the_row_sum():
    report = SimpleNamespace(findings=[_f(33, "Attention weight: a row's sum", "0.2021 + 0.2098 = 1.0011"),
                                       _f(10, "Q[1,1]", "0.7")],
                             not_checked=[NotChecked(31, 3, "Attention weight (5×5)", "matches nothing")],
                             n_claims=5, n_numbers=10)
    sub = SimpleNamespace(findings=[_f(33, "A[3,3]", "0.2098")], not_checked=[], n_claims=3, n_numbers=40)
    _merge(report, sub, (3, 1), (3, 40), {(3, 31), (3, 33)})
    assert sorted((f.line, f.claim) for f in report.findings) == [(10, "Q[1,1]"), (33, "A[3,3]")]
    assert report.not_checked == [] and report.n_numbers == 50


def test_a_row_sum_the_scope_does_not_explain_stays():
    report = SimpleNamespace(findings=[_f(33, "Attention weight: a row's sum", "0.2021 + 0.2098 = 1.0011")],
                             not_checked=[], n_claims=1, n_numbers=5)
    sub = SimpleNamespace(findings=[], not_checked=[], n_claims=3, n_numbers=40)
    _merge(report, sub, (3, 1), (3, 40), {(3, 33)})
    assert [f.claim for f in report.findings] == ["Attention weight: a row's sum"]
