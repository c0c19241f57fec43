"""Sets of worked examples with planted slips (tests/check_corpus, tests/check_heldout).

Each folder holds documents and a manifest.json: per document its file and slips (find, replace, line,
cell for notebooks, step, kind).  A slip is found when `mha check` reports an error on its line (and cell)
with its step; a sum of rounded terms is found as a note there, since that is how it is reported.
"""

import json
from pathlib import Path

from mha.check import check_document
from mha.inputs import MHAInputError


def load(folder: Path) -> list[dict]:
    """The manifest's documents, or [] when the folder is not in this checkout."""
    manifest = folder / "manifest.json"
    return json.loads(manifest.read_text(encoding="utf-8"))["documents"] if manifest.exists() else []


def check(text: str, doc: dict):
    """The report, or the MHAInputError of an unusable document (exit 2)."""
    try:
        return check_document(text, name=doc["file"])
    except MHAInputError as e:
        return e


def found(report, slip: dict) -> bool:
    if isinstance(report, Exception):
        return False
    return any(f.line == slip["line"] and f.cell == slip.get("cell") and f.step == slip["step"]
               and (f.severity == "error" or slip["kind"] == "rounded_sum") for f in report.findings)


def hunt(folder: Path, docs: list[dict]) -> tuple[int, list[str]]:
    """Plant every slip, one at a time: (how many were found, a line for each one missed)."""
    hits, misses = 0, []
    for doc in docs:
        text = (folder / doc["file"]).read_text(encoding="utf-8")
        for s in doc["slips"]:
            r = check(text.replace(s["find"], s["replace"]), doc)
            if found(r, s):
                hits += 1
            else:
                got = [f.describe() for f in getattr(r, "errors", [])][:2]
                misses.append(f"{doc['file']} line {s['line']} cell {s.get('cell')} {s['step']} {s['kind']}: {got}")
    return hits, misses


def assert_slips_apply_once(folder: Path, docs: list[dict]) -> None:
    """Each slip's text occurs once in its document and changes it (a slip that changes nothing cannot be found)."""
    for doc in docs:
        text = (folder / doc["file"]).read_text(encoding="utf-8")
        for s in doc["slips"]:
            assert text.count(s["find"]) == 1, (doc["file"], s["find"])
            assert s["find"] != s["replace"], (doc["file"], s["find"])


def assert_hit_rate(folder: Path, docs: list[dict], target: float, what: str) -> None:
    """At least `target` of the planted slips found (the rate is printed, for the README's figures)."""
    hits, misses = hunt(folder, docs)
    rate = hits / (hits + len(misses))
    print(f"\nmha check {what}: {hits} of {hits + len(misses)} planted slips found ({rate:.1%})")
    assert rate >= target, f"hit rate {rate:.1%} < {target:.0%}; missed:\n" + "\n".join(misses)


def clean_report(folder: Path, doc: dict):
    """The report of a clean document, asserted usable and without findings or objects left unchecked."""
    r = check((folder / doc["file"]).read_text(encoding="utf-8"), doc)
    assert not isinstance(r, Exception), f"{doc['file']}: {r}"
    assert not r.errors and not r.not_checked, [f.describe() for f in r.findings] + \
        [n.describe() for n in r.not_checked]
    return r
