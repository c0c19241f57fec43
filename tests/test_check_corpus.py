"""`mha check` on the corpus of worked examples in tests/check_corpus (written for the project, in the styles
people publish in): every clean document checks clean, and planted slips are found on their line with
their step.  The manifest format is in the team contract (notes/CONTRACT.md)."""

from pathlib import Path

import pytest
from slip_sets import check, hunt, load

CORPUS = Path(__file__).resolve().parent / "check_corpus"
DOCS = load(CORPUS)
needs_corpus = pytest.mark.skipif(not DOCS, reason=f"the corpus is not in this checkout ({CORPUS} is absent)")
TARGET = 0.95


def _text(doc: dict) -> str:
    return (CORPUS / doc["file"]).read_text(encoding="utf-8")


@needs_corpus
@pytest.mark.parametrize("doc", DOCS, ids=[d["file"] for d in DOCS])
def test_clean_document_has_no_findings(doc):
    r = check(_text(doc), doc)
    assert not isinstance(r, Exception), f"{doc['file']}: {r}"
    assert not r.errors, [f.describe() for f in r.errors]
    assert r.n_claims > 5


@needs_corpus
@pytest.mark.parametrize("doc", DOCS, ids=[d["file"] for d in DOCS])
def test_slips_apply_once_and_change_the_text(doc):
    text = _text(doc)
    for s in doc["slips"]:
        assert text.count(s["find"]) == 1, s["find"]
        assert s["find"] != s["replace"]


@needs_corpus
def test_planted_slips_are_found_on_their_line_with_their_step():
    hits, misses = hunt(CORPUS, DOCS)
    total = hits + len(misses)
    rate = hits / total
    print(f"\nmha check corpus: {hits} of {total} planted slips found on their line with their step ({rate:.1%})")
    assert rate >= TARGET, f"hit rate {rate:.1%} < {TARGET:.0%}; missed:\n" + "\n".join(misses)
