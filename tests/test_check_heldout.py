"""`mha check` on the held-out documents in tests/check_heldout: 10 worked examples written in styles that the
main corpus does not have (beamer, Zhihu aligned chains, a StackExchange answer, a pandas notebook, a README
with Unicode boxes, torch at precision 3, token-label tables, column vectors, 3-D two-head arrays, Medium HTML
without LaTeX). Every document must be usable. The clean documents that check clean today must stay clean.
The slip rate is printed, and its floor is what the checker achieves honestly today (see the folder's
README.md for the documents and false findings still open)."""

import json
from pathlib import Path

import pytest

from mha.check import check_document
from mha.inputs import MHAInputError

HELD = Path(__file__).resolve().parent / "check_heldout"
MANIFEST = HELD / "manifest.json"
DOCS = json.loads(MANIFEST.read_text(encoding="utf-8"))["documents"] if MANIFEST.exists() else []
needs = pytest.mark.skipif(not DOCS, reason=f"the held-out set is not in this checkout ({HELD} is absent)")
# known false findings, still open (README.md of the folder): these documents are usable but not yet clean
OPEN = {"tex_beamer_slides_dk3.tex", "nb_kaggle_pandas_dataframes.ipynb"}
TARGET = 0.83


def _check(text: str, doc: dict):
    try:
        return check_document(text, name=doc["file"])
    except MHAInputError as e:            # exit 2: the document was not usable
        return e


def _found(report, slip: dict) -> bool:
    if isinstance(report, Exception):
        return False
    return any(f.line == slip["line"] and f.cell == slip.get("cell") and f.severity == "error"
               and f.step == slip["step"] for f in report.findings)


@needs
@pytest.mark.parametrize("doc", DOCS, ids=[d["file"] for d in DOCS])
def test_held_out_document_is_usable_and_clean(doc):
    r = _check((HELD / doc["file"]).read_text(encoding="utf-8"), doc)
    assert not isinstance(r, Exception), f"{doc['file']}: {r}"
    if doc["file"] in OPEN:
        pytest.xfail("known false findings, listed in tests/check_heldout/README.md")
    assert not r.errors, [f.describe() for f in r.errors]


@needs
def test_held_out_slips_found():
    hits, misses = 0, []
    for doc in DOCS:
        text = (HELD / doc["file"]).read_text(encoding="utf-8")
        for s in doc["slips"]:
            assert text.count(s["find"]) == 1, s["find"]
            if _found(_check(text.replace(s["find"], s["replace"]), doc), s):
                hits += 1
            else:
                misses.append(f"{doc['file']} line {s['line']} cell {s.get('cell')} {s['step']} {s['kind']}")
    rate = hits / (hits + len(misses))
    print(f"\nmha check held-out: {hits} of {hits + len(misses)} planted slips found ({rate:.1%})")
    assert rate >= TARGET, f"hit rate {rate:.1%} < {TARGET:.0%}; missed:\n" + "\n".join(misses)
