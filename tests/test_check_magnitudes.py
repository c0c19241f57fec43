"""A count written with its magnitude after it: `4 · 768² = 2.36 M`.

Outside trial t136d: slides worked the parameter counts of an attention block this way; the reader took `2.36 M`
for 2.36 times a symbol M, and the line was reported as "printed 2.36; exact 4" (a false finding, and the planted
4.72 → 4.73 on the next line went unseen).  A part that is only a number and a magnitude word (K, M, B, million,
万, ...) beside arithmetic that evaluates is that number scaled (readers/magnitude.py).
"""

import pytest

from mha.check import check_document

PAGE = r"""# Counting parameters

For a model width of 1024 and a feed-forward width of 4096:

$$P_\text{attn} = 4\,d_\text{model}^2 = 4\cdot 1024^2 = \mathbf{4.19\,M}$$

$$P_\text{ffn} = 2\,d_\text{model}\,d_\text{ff} = 2\cdot 1024\cdot 4096 = \mathbf{8.39\,M}$$

Twelve such layers hold $12 \cdot 12.58 = 150.96$ million weights, about $0.15$ billion.
"""


def test_counts_with_magnitudes_hold():
    r = check_document(PAGE, fmt="md")
    assert not r.errors, [f.describe() for f in r.errors]
    assert r.n_numbers >= 2, r.n_numbers


@pytest.mark.parametrize("good, bad, line", [("4.19\\,M", "4.21\\,M", 5), ("8.39\\,M", "8.93\\,M", 7)])
def test_a_slipped_count_is_found_in_its_magnitude(good, bad, line):
    r = check_document(PAGE.replace(good, bad), fmt="md")
    assert [f.line for f in r.errors] == [line], [f.describe() for f in r.findings]
    assert " M" in r.errors[0].rounded, r.errors[0].describe()


def test_a_letter_after_a_lone_number_stays_a_symbol():
    from mha.check import numbers as nb
    from mha.check.readers import read_document
    from mha.check.readers.magnitude import scaled
    doc = read_document("$$y = 2 M$$\n", "md")      # no arithmetic beside it: 2 M may be twice a matrix M
    exprs = [p.expr for c in doc.chains for p in c.parts if hasattr(p, "expr")]
    assert exprs and not any(isinstance(e, nb.Lit) and e.num.value == 2e6 for e in exprs), exprs
    assert scaled(nb.Op("*", (nb.Lit(nb.Num.parse("2")), nb.Sym("M")))).num.value == 2e6   # what it would be
