"""Two false findings from the final trial of the last stop (t147a, a lecture note's worked exercise):

* a weight that the text says a slip would give ("Without the √3 the scores stay 2 and 0, so α₁₁ = 0.8808
  instead") was judged a restatement of the worked α₁₁ = 0.7604 (claims/restated.py now passes over a quote whose
  sentence says so: hint `whatif`, readers/builder.py);
* `[0.760368 - 0.239632, 0 + 0.239632] = [0.520737, 0.239632]`: a bracket of sums of rounded weights, whose result
  is the exact difference 0.5207369 rounded, was held to the printed terms' 0.520736 with no room for their
  rounding (claims/vector.py now gives each such cell the span of its terms).

In both, a real slip on the same line is still found.
"""

from mha.check import check_document

WHATIF = """# One query, two keys

Take $q = [1, 1, 0]$, $k_1 = [1, 1, 0]$ and $k_2 = [0, 0, 1]$, with $d_k = 3$.

The dot products are $s_{{11}} = 1 + 1 + 0 = 2$ and $s_{{12}} = 0 + 0 + 0 = 0$. Dividing by $\\sqrt 3$ gives
$1.1547$ and $0$, and then
$\\alpha_{{11}} = e^{{1.1547}}/(e^{{1.1547}} + 1) = 0.7604$, $\\alpha_{{12}} = 0.2396$.

{trap} the $\\sqrt 3$ the scores stay $2$ and $0$,
so $\\alpha_{{11}} = {value}$ instead.
"""


def _errors(text: str) -> list:
    return check_document(text, fmt="md").errors


def test_a_weight_the_text_calls_the_slip_is_no_restatement():
    for trap in ("A mistake learners often make is forgetting the scale. Without",
                 "If you forget to divide, i.e. without"):
        errors = _errors(WHATIF.format(trap=trap, value="0.8808"))
        assert not errors, [f.describe() for f in errors]


def test_a_restatement_with_another_value_is_still_found():
    text = WHATIF.format(trap="Put together, with", value="0.8808").replace(" instead.", ", the first weight.")
    errors = _errors(text)
    assert [(f.line, f.printed) for f in errors] == [(10, "0.8808")], [f.describe() for f in errors]


BRACKET = """# Mixing two values

Suppose the softmax has already given the weights $\\alpha_1 = 0.760368$ and $\\alpha_2 = 0.239632$ for two
value vectors $v_1 = [1, 0]$ and $v_2 = [-1, 1]$.

$$\\mathbf{{o}} = 0.760368\\,[1,0] + 0.239632\\,[-1,1] = [0.760368 - 0.239632,\\; 0 + 0.239632]$$
$= [{first},\\; 0.239632]$.
"""


def test_a_bracket_of_rounded_terms_carries_their_rounding():
    errors = _errors(BRACKET.format(first="0.520737"))     # e^(2/√3) / (e^(2/√3) + 1) · 2 − 1 = 0.5207369
    assert not errors, [f.describe() for f in errors]


def test_a_slip_in_the_bracket_result_is_found():
    errors = _errors(BRACKET.format(first="0.520747"))
    assert [(f.line, f.printed) for f in errors] == [(7, "0.520747")], [f.describe() for f in errors]
