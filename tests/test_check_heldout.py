"""`mha check` on the held-out documents in tests/check_heldout: 10 worked examples written in styles that the
main corpus does not have (beamer, Zhihu aligned chains, a StackExchange answer, a pandas notebook, a README
with Unicode boxes, torch at precision 3, token-label tables, column vectors, 3-D two-head arrays, Medium HTML
without LaTeX). Every document must be usable. The clean documents that check clean today must stay clean.
The slip rate is printed, and its floor is what the checker achieves honestly today (see the folder's
README.md for the documents and false findings still open)."""

from pathlib import Path

import pytest
from slip_sets import check, hunt, load

HELD = Path(__file__).resolve().parent / "check_heldout"
DOCS = load(HELD)
needs = pytest.mark.skipif(not DOCS, reason=f"the held-out set is not in this checkout ({HELD} is absent)")
TARGET = 0.93                   # 29 of 31 at the last measurement (tests/check_heldout/README.md)
# (30 until identity weighed what agrees, claims/identity.evidence: md_stackexchange_inline_code's transposed row
# `[[1, 0, 2], [0, 2, 2]]` is identified only by 1, 0, 2, 2, small integers named by prose, and is not judged)


@needs
@pytest.mark.parametrize("doc", DOCS, ids=[d["file"] for d in DOCS])
def test_held_out_document_is_usable_and_clean(doc):
    r = check((HELD / doc["file"]).read_text(encoding="utf-8"), doc)
    assert not isinstance(r, Exception), f"{doc['file']}: {r}"
    assert not r.errors, [f.describe() for f in r.errors]


@needs
def test_held_out_slips_apply_once_and_change_the_text():
    for doc in DOCS:
        text = (HELD / doc["file"]).read_text(encoding="utf-8")
        for s in doc["slips"]:
            assert text.count(s["find"]) == 1, s["find"]
            assert s["find"] != s["replace"], s["find"]          # a slip that changes nothing cannot be found


@needs
def test_held_out_slips_found():
    hits, misses = hunt(HELD, DOCS)
    rate = hits / (hits + len(misses))
    print(f"\nmha check held-out: {hits} of {hits + len(misses)} planted slips found ({rate:.1%})")
    assert rate >= TARGET, f"hit rate {rate:.1%} < {TARGET:.0%}; missed:\n" + "\n".join(misses)


def _doc(name: str) -> dict:
    return next(d for d in DOCS if d["file"] == name)


@needs
@pytest.mark.parametrize("find, replace, line, wrong", [
    # e^{0.87} ≈ 2.377 is e to the exact score 0.866 (correct); 2.477 is e to nothing that rounds to 0.87
    ("e^{0.87} &\\approx 2.377", "e^{0.87} &\\approx 2.377", 59, False),
    ("e^{0.87} &\\approx 2.377", "e^{0.87} &\\approx 2.477", 59, True),
    ("e^{2.60} &\\approx 13.438", "e^{2.60} &\\approx 13.538", 60, True),
])
def test_rounded_exponent_stands_for_the_exact_score(find, replace, line, wrong):
    doc = _doc("tex_beamer_slides_dk3.tex")
    text = (HELD / doc["file"]).read_text(encoding="utf-8")
    assert find in text
    r = check(text.replace(find, replace, 1), doc)           # the first one: line 59
    assert not isinstance(r, Exception), r
    assert any(f.line == line and f.severity == "error" for f in r.findings) == wrong, \
        [f.describe() for f in r.findings]


@needs
def test_double_rounding_is_a_note_and_a_real_slip_an_error():
    doc = _doc("nb_kaggle_pandas_dataframes.ipynb")
    text = (HELD / doc["file"]).read_text(encoding="utf-8")
    r = check(text, doc)
    notes = [f for f in r.findings if f.cell == 8 and f.line == 5 and f.severity == "note"]
    assert notes and "double rounding" in notes[0].cause, [f.describe() for f in r.findings]
    find = "down  0.190 -0.194  0.373"
    assert text.count(find) == 1
    r2 = check(text.replace(find, "down  0.190 -0.194  0.372"), doc)     # 0.373515 never gives 0.372
    assert any(f.cell == 8 and f.line == 5 and f.severity == "error" for f in r2.findings), \
        [f.describe() for f in r2.findings]
