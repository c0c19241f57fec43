r"""A worked example said in one sentence, each step's vector in inline math with no "=" before it: "softmax gives
the weights $(0.401, 0.198, 0.401)$", and the output as an unnamed weighted sum of the named value vectors,
"$0.401\,v_1 + 0.198\,v_2 + 0.401\,v_3 = (1.203, 1.000)$", the vectors v_j given earlier on the same line (an outside
trial's Vietnamese chapter, t247b, written with TeX decimal commas).  Before, the weights had no name (a verb of
giving named nothing) and the sum's value vectors were looked up only on earlier lines, so neither slip was found.
My own numbers and words."""

import pytest
from check_helpers import error_places, line_of

from mha.check import check_document

_EN = ("A query $q = (1, 0)$ meets keys $k_1 = (1, 0)$, $k_2 = (0, 1)$, $k_3 = (1, 1)$ with values "
       "$v_1 = (1, 0)$, $v_2 = (0, 1)$, $v_3 = (2, 2)$ and $d_k = 2$. The dot products are $(1, 0, 1)$; over "
       "$\\sqrt2$ they are $(0.707, 0, 0.707)$. Softmax gives the weights $({w})$, so the query leans on keys 1 "
       "and 3 alike. Its output is $0.401\\,v_1 + 0.198\\,v_2 + 0.401\\,v_3 = ({o})$.")
_VI = ("Truy vấn $q = (1, 0)$, các khoá $k_1 = (1, 0)$, $k_2 = (0, 1)$, $k_3 = (1, 1)$, giá trị $v_1 = (1, 0)$, "
       "$v_2 = (0, 1)$, $v_3 = (2, 2)$, $d_k = 2$. Tích vô hướng là $(1, 0, 1)$; chia cho $\\sqrt2$ còn "
       "$(0{{,}}707;\\; 0;\\; 0{{,}}707)$. Softmax cho trọng số $({w})$. Kết quả: "
       "$0{{,}}401\\,v_1 + 0{{,}}198\\,v_2 + 0{{,}}401\\,v_3 = ({o})$.")
_W = {"en": "0.401, 0.198, 0.401", "vi": "0{,}401;\\; 0{,}198;\\; 0{,}401"}
_O = {"en": "1.203, 1.000", "vi": "1{,}203;\\; 1{,}000"}


def _page(lang, w=None, o=None):
    body = (_EN if lang == "en" else _VI).format(w=w or _W[lang], o=o or _O[lang])
    return "# Example\n\n" + body + "\n"


@pytest.mark.parametrize("lang", ["en", "vi"])
def test_the_clean_sentence_checks_clean(lang):
    report = check_document(_page(lang), fmt="md")
    assert [f for f in report.findings if f.severity == "error"] == []
    assert report.n_numbers >= 8


@pytest.mark.parametrize("lang", ["en", "vi"])
def test_a_slipped_weight_given_by_a_verb_is_found(lang):
    w = _W[lang].replace("198", "189")
    page = _page(lang, w=w)
    assert [(line, printed) for line, printed in error_places(page, fmt="md")] == [(3, "0.189")]


@pytest.mark.parametrize("lang", ["en", "vi"])
def test_a_slip_in_an_unnamed_weighted_sum_is_found(lang):
    o = _O[lang].replace("203", "230")
    page = _page(lang, o=o)
    assert (line_of(page, "v_3 = ("), "1.230") in error_places(page, fmt="md")
