"""`mha check` on the corpus of worked examples in tests/check_corpus (written for the project, in the styles
people publish in): every clean document checks clean, and planted slips are found on their line with
their step.  The manifest format is in the team contract (notes/CONTRACT.md)."""

import json
from pathlib import Path

import pytest

from mha.check import check_document
from mha.inputs import MHAInputError

CORPUS = Path(__file__).resolve().parent / "check_corpus"
MANIFEST = CORPUS / "manifest.json"
DOCS = json.loads(MANIFEST.read_text(encoding="utf-8"))["documents"] if MANIFEST.exists() else []
needs_corpus = pytest.mark.skipif(not DOCS, reason=f"the corpus is not in this checkout ({CORPUS} is absent)")
TARGET = 0.95


def _text(doc: dict) -> str:
    return (CORPUS / doc["file"]).read_text(encoding="utf-8")


def _check(text: str, doc: dict):
    try:
        return check_document(text, name=doc["file"])
    except MHAInputError as e:            # exit 2: the document was not usable
        return e


def _found(report, slip: dict) -> bool:
    if isinstance(report, Exception):
        return False
    on_line = [f for f in report.findings if f.line == slip["line"] and f.cell == slip.get("cell")
               and (f.severity == "error" or slip["kind"] == "rounded_sum")]
    return any(f.step == slip["step"] for f in on_line)


@needs_corpus
@pytest.mark.parametrize("doc", DOCS, ids=[d["file"] for d in DOCS])
def test_clean_document_has_no_findings(doc):
    r = _check(_text(doc), doc)
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
    hits, misses = 0, []
    for doc in DOCS:
        text = _text(doc)
        for s in doc["slips"]:
            r = _check(text.replace(s["find"], s["replace"]), doc)
            if _found(r, s):
                hits += 1
            else:
                got = [f.describe() for f in getattr(r, "errors", [])][:2]
                misses.append(f"{doc['file']} line {s['line']} cell {s.get('cell')} {s['step']} {s['kind']}: {got}")
    total = hits + len(misses)
    rate = hits / total
    print(f"\nmha check corpus: {hits} of {total} planted slips found on their line with their step ({rate:.1%})")
    assert rate >= TARGET, f"hit rate {rate:.1%} < {TARGET:.0%}; missed:\n" + "\n".join(misses)
