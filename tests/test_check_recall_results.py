"""`mha check` on worked results written with something after them (issue 18, recall): words, a unit, Markdown
bold, a remark in parentheses, a tick, a percent; a result on the next '#' comment line of code drawn in an HTML
<div>; a lesson page whose panels are HTML in its script's template literals; a vector of four printed as the softmax of the printout a cell before it (the name rebound).  Each document
is written for this project (own words, own numbers); the longer ones are in tests/check_corpus."""

import json
from pathlib import Path

import pytest
from slip_sets import check, found, load

from mha.check import check_document

CORPUS = Path(__file__).resolve().parent / "check_corpus"
MINE = ("md_notes_results_in_words.md", "html_div_code_comment_steps.html", "html_script_template_panels.html")
DOCS = [d for d in load(CORPUS) if d["file"] in MINE]


@pytest.mark.parametrize("doc", DOCS, ids=[d["file"] for d in DOCS])
def test_each_slip_is_found_on_its_line(doc):
    text = (CORPUS / doc["file"]).read_text(encoding="utf-8")
    clean = check(text, doc)
    assert not isinstance(clean, Exception) and not clean.errors, clean
    for s in doc["slips"]:
        r = check(text.replace(s["find"], s["replace"]), doc)
        assert found(r, s), (s["find"], [f.describe() for f in getattr(r, "errors", [])])
        assert {f.line for f in r.errors} == {s["line"]}, [f.describe() for f in r.errors]


def test_corpus_documents_are_in_the_manifest():
    assert sorted(d["file"] for d in DOCS) == sorted(MINE)


def _errors(text: str, name: str = "n.md") -> list[str]:
    return [f.describe() for f in check_document(text, name=name).errors]


@pytest.mark.parametrize("line", [
    "The receptive field is $32 \\times 4096 = 131\\text{K}$ tokens.",       # thousands: not the product itself
    "A layer holds $12 \\times 64 = 768 \\text{ million}$ weights.",
    "The cache holds 2 × 80 × 64 × 128 × 2 = 2.6 MB per token.",              # a unit that scales the number
    "The cost: 3 + 4 = 7 times more memory.",                                   # an operand, not the result
    "As a percent, 0.63 × 100 = 63% of the weight.",                            # a percent of a number over 1
    "Each head has d_k = 64 dimensions and d_v = 64 dimensions.",               # no arithmetic before the number
])
def test_words_after_a_number_that_is_not_the_result_stay_unjudged(line):
    assert _errors(f"# Sizes\n\n{line}\n\nAnd $1.5 + 0.5 = 2$ for the sum.\n") == []


def test_a_share_as_a_percent_is_judged_as_the_fraction():
    text = "# Shares\n\nThe weights are 8/12 = 67%, 3/12 = {b} and 1/12 = 8%.\n"
    assert _errors(text.format(b="25%")) == []
    got = _errors(text.format(b="52%"))
    assert len(got) == 1 and "25%" in got[0], got


def _notebook(weights: str) -> str:
    cells = [
        {"cell_type": "markdown", "metadata": {}, "source": "# Scores to weights"},
        {"cell_type": "code", "metadata": {}, "execution_count": 1,
         "source": "s = torch.tensor([torch.dot(q, vecs[w]) for w in vecs])\ns",
         "outputs": [{"output_type": "execute_result", "execution_count": 1, "metadata": {},
                      "data": {"text/plain": "tensor([ 0.8120,  0.3050, -0.2210,  1.1040])"}}]},
        {"cell_type": "code", "metadata": {}, "execution_count": 2,
         "source": "# weights that sum to one\ns = torch.softmax(s, dim=0)\ns",
         "outputs": [{"output_type": "execute_result", "execution_count": 2, "metadata": {},
                      "data": {"text/plain": f"tensor([{weights}])"}}]},
    ]
    return json.dumps({"cells": cells, "metadata": {}, "nbformat": 4, "nbformat_minor": 5})


@pytest.mark.parametrize("weights,wrong", [("0.3033, 0.1287, 0.1079, 0.4061", "0.1287"),     # one entry of four
                                           ("0.3033, 0.1827, 0.1079, 0.6041", "0.6041")])    # the sum broken too
def test_a_softmax_of_four_rebound_to_its_name_is_judged_against_the_printout_before(weights, wrong):
    clean = check_document(_notebook("0.3033, 0.1827, 0.1079, 0.4061"), name="w.ipynb")
    assert not clean.errors, [f.describe() for f in clean.errors]
    r = check_document(_notebook(weights), name="w.ipynb")
    assert [(f.cell, f.line, f.step) for f in r.errors] == [(3, 1, "softmax")], [f.describe() for f in r.errors]
    assert wrong in r.errors[0].describe()


def test_a_vector_of_four_with_two_entries_off_is_not_claimed():
    # two of four disagree: the printout is not identified as that softmax, so nothing is said
    r = check(_notebook("0.3033, 0.2827, 0.1079, 0.3061"), {"file": "w.ipynb"})
    assert isinstance(r, Exception) or not r.errors, [f.describe() for f in r.errors]
