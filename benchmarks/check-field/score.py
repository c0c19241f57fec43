"""Score `mha check` on the field trial's documents (issue 18): public worked examples written by others.

    PYTHONPATH=src python benchmarks/check-field/score.py                       # every document with a truth file
    PYTHONPATH=src python benchmarks/check-field/score.py --set dev -v          # dev only, each finding listed
    PYTHONPATH=src python benchmarks/check-field/score.py --json benchmarks/check-field/results/NAME.json
    PYTHONPATH=src python benchmarks/check-field/score.py --meta OTHER/benchmarks/check-field
    PYTHONPATH=src python benchmarks/check-field/score.py --lint                # check the truth files themselves
    python benchmarks/check-field/score.py --fetch [--docs DIR]                 # re-create the documents (network)

The documents live outside the repository (their text is never committed): `--docs` (default /work/field-docs)
holds `dev/<id>.<ext>`, `heldout/<id>.<ext>`, `unseen/<id>.<ext>`, `unseenF/<id>.<ext>`, `unseenG/<id>.<ext>`, `unseenH/<id>.<ext>`, `unseenI/<id>.<ext>`, `unseenJ/<id>.<ext>` and `unseenK/<id>.<ext>`
(the unseen sets are scored only with `--set unseen` / `--set unseenF` / `--set unseenG` / `--set unseenH` / `--set unseenI` / `--set unseenJ` / `--set unseenK`; "all" stays dev and held
out).  A document is scored when one of the `--meta` folders (default:
this script's folder; repeatable) has `sources/<id>.json` and `truth/<id>.json` for it.  The checker is whichever
`mha` is first on the path, so the same script measures any branch (PYTHONPATH=/work/main/src for main's).

Per document, and totalled for dev and held-out separately:
  usable        `mha check` did not refuse the document (exit 2) or crash
  claims        n_claims > 0 and at least one number checked
  false lines   distinct (cell, line) with an error finding where the truth records no own error
  own found     the author's own errors (truth "own_errors") with an error finding on their (cell, line)
  slips found   each planted slip alone (text.replace(find, replace, 1)): an error finding on its (cell, line);
                "new" counts those whose line had no error finding in the clean document
Own errors and slips are also counted over the REACHABLE ones only (truth "reachable": their exact value follows from
numbers the document prints; see reachable.py and README.md): `mha check` never executes code, so a number computed
from weights drawn at random and never printed cannot be checked by reading.  "reachable docs" counts the documents
with at least one reachable derived number; "claims" keeps all documents as its denominator.  An entry without the
flag counts as reachable (--lint lists such entries).
Notebook lines are as the checker counts them: within the cell's source, or within the cell's output area (the
outputs one after the other) for a number in an output; a finding's (cell, line) is matched either way.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
import traceback
from pathlib import Path

HERE = Path(__file__).resolve().parent
EXTS = ("ipynb", "md", "tex", "html", "htm", "txt", "rst")


def parts_of(which: str) -> tuple[str, ...]:
    """The folders a --set reads.  "all" is dev and held out, as before the unseen set came: the unseen set is
    scored only when asked for by name, so that no total over "all" changes by its arrival."""
    return ("dev", "heldout") if which == "all" else (which,)


def find_documents(docs: Path, metas: list[Path], which: str) -> list[dict]:
    """Every document under docs/<part> (parts_of(which)) with a sources and a truth file in one of the meta folders."""
    found = []
    for part in parts_of(which):
        for path in sorted((docs / part).glob("*")):
            if path.suffix.lstrip(".") not in EXTS:
                continue
            doc_id = path.stem
            for meta in metas:
                src, truth = meta / "sources" / f"{doc_id}.json", meta / "truth" / f"{doc_id}.json"
                if src.exists() and truth.exists():
                    found.append({"id": doc_id, "set": part, "path": path,
                                  "source": json.loads(src.read_text(encoding="utf-8")),
                                  "truth": json.loads(truth.read_text(encoding="utf-8"))})
                    break
    return found


def run_check(text: str, name: str):
    """(report or None, error line or None): None and the message when the document is refused or crashes."""
    from mha.check import check_document
    from mha.inputs import MHAInputError
    try:
        return check_document(text, name=name), None
    except MHAInputError as e:
        return None, f"exit 2: {e}"
    except Exception as e:                       # a crash is scored as unusable and reported with its place
        tb = traceback.extract_tb(e.__traceback__)[-1]
        return None, f"crash: {type(e).__name__}: {e} ({Path(tb.filename).name}:{tb.lineno})"


def error_lines(report) -> dict[tuple, list[str]]:
    """(cell, line) -> the descriptions of the error findings there."""
    out: dict[tuple, list[str]] = {}
    if report is None:
        return out
    for f in report.findings:
        if f.severity == "error":
            out.setdefault((f.cell, f.line), []).append(f.describe())
    return out


def followed_lines(report) -> set[tuple]:
    """(cell, line) of the notes that tie a line to an error found elsewhere ("follows from line N"): the contract's
    one slip, one finding. An own error whose line has only such a note is counted apart, never as found."""
    if report is None:
        return set()
    return {(f.cell, f.line) for f in report.findings
            if f.severity == "note" and (f.cause or "").startswith(("follows from line", "follows from cell"))}


def where(cell, line) -> str:
    return f"cell {cell}, line {line}" if cell is not None else f"line {line}"


def score_document(doc: dict) -> dict:
    text = doc["path"].read_text(encoding="utf-8")
    truth = doc["truth"]
    t0 = time.perf_counter()
    report, refused = run_check(text, doc["path"].name)
    clean = error_lines(report)
    own = {(e.get("cell"), e["line"]) for e in truth.get("own_errors", [])}
    own_reachable = {(e.get("cell"), e["line"]) for e in truth.get("own_errors", []) if e.get("reachable", True)}
    false = {k: v for k, v in clean.items() if k not in own}
    own_found = sorted(k for k in own if k in clean)
    followed = followed_lines(report)
    own_followed = sorted(k for k in own if k not in clean and k in followed)
    slips = []
    for s in truth.get("slips", []):
        key = (s.get("cell"), s["line"])
        n = text.count(s["find"])
        planted = text.replace(s["find"], s["replace"], 1)
        r, why = run_check(planted, doc["path"].name)
        errs = error_lines(r)
        slips.append({"cell": key[0], "line": key[1], "find": s["find"], "replace": s["replace"],
                      "what": s.get("what", ""), "occurrences": n, "found": key in errs,
                      "reachable": s.get("reachable", True),
                      "new": key in errs and key not in clean,
                      "got": errs.get(key, [])[:2] or [d for ds in errs.values() for d in ds][:2],
                      "refused": why})
    return {
        "id": doc["id"], "set": doc["set"], "format": doc["source"].get("format"), "lang": doc["source"].get("lang"),
        "starts_from": doc["source"].get("starts_from"),
        "usable": report is not None, "refused": refused,
        "claims": bool(report is not None and report.n_claims > 0 and report.n_numbers > 0),
        "n_claims": report.n_claims if report else 0, "n_numbers": report.n_numbers if report else 0,
        "configuration": report.configuration if report else None,
        "false_lines": [{"cell": k[0], "line": k[1], "findings": v} for k, v in sorted(false.items(), key=_order)],
        "own_errors": len(own), "own_found": [{"cell": c, "line": ln, "reachable": (c, ln) in own_reachable}
                                              for c, ln in own_found],
        "own_followed": [{"cell": c, "line": ln, "reachable": (c, ln) in own_reachable} for c, ln in own_followed],
        "own_errors_reachable": len(own_reachable),
        "slips": slips, "slips_found": sum(s["found"] for s in slips),
        "slips_found_new": sum(s["new"] for s in slips),
        "reachable_numbers": sum(n["role"] == "derived" and n.get("reachable", True) for n in truth.get("numbers", [])),
        "seconds": round(time.perf_counter() - t0, 2),
    }


def _order(item):
    (cell, line), _ = item
    return (cell or 0, line)


def totals(rows: list[dict]) -> dict:
    return {
        "documents": len(rows),
        "usable": sum(r["usable"] for r in rows),
        "claims": sum(r["claims"] for r in rows),
        "false_lines": sum(len(r["false_lines"]) for r in rows),
        "docs_with_false_lines": sum(bool(r["false_lines"]) for r in rows),
        "own_errors": sum(r["own_errors"] for r in rows),
        "own_found": sum(len(r["own_found"]) for r in rows),
        "slips": sum(len(r["slips"]) for r in rows),
        "slips_found": sum(r["slips_found"] for r in rows),
        "slips_found_new": sum(r["slips_found_new"] for r in rows),
        # the same over what a reader of the document can recompute (truth "reachable")
        "docs_with_reachable_numbers": sum(r["reachable_numbers"] > 0 for r in rows),
        "own_errors_reachable": sum(r["own_errors_reachable"] for r in rows),
        "own_found_reachable": sum(sum(o["reachable"] for o in r["own_found"]) for r in rows),
        "own_followed_reachable": sum(sum(o["reachable"] for o in r.get("own_followed", [])) for r in rows),
        "slips_reachable": sum(sum(s["reachable"] for s in r["slips"]) for r in rows),
        "slips_found_reachable": sum(sum(s["found"] and s["reachable"] for s in r["slips"]) for r in rows),
        "slips_found_new_reachable": sum(sum(s["new"] and s["reachable"] for s in r["slips"]) for r in rows),
    }


def print_row(r: dict, verbose: bool) -> None:
    state = "usable" if r["usable"] else "UNUSABLE"
    print(f"{r['id']} [{r['set']}, {r['format']}, {r['starts_from']}]: {state}, "
          f"claims {r['n_claims']} ({r['n_numbers']} numbers), false lines {len(r['false_lines'])}, "
          f"own errors found {len(r['own_found'])}/{r['own_errors']} "
          f"(reachable {sum(o['reachable'] for o in r['own_found'])}/{r['own_errors_reachable']}), "
          f"slips found {r['slips_found']}/{len(r['slips'])} (new {r['slips_found_new']}; reachable "
          f"{sum(s['found'] and s['reachable'] for s in r['slips'])}/{sum(s['reachable'] for s in r['slips'])}), "
          f"reachable numbers {r['reachable_numbers']}, {r['seconds']} s")
    if r["refused"]:
        print(f"    {r['refused']}")
    if verbose:
        for fl in r["false_lines"]:
            for d in fl["findings"]:
                print(f"    false: {d}")
        for s in r["slips"]:
            mark = "found" if s["found"] else "MISSED"
            print(f"    slip {where(s['cell'], s['line'])} {s['find']!r} -> {s['replace']!r}: {mark}"
                  + ("" if s["reachable"] else " (unreachable)")
                  + (f" (already flagged clean)" if s["found"] and not s["new"] else "")
                  + ("" if s["found"] else f"; got {s['got'] or s['refused']}"))


def print_totals(name: str, t: dict) -> None:
    print(f"{name}: {t['documents']} documents; usable {t['usable']}; with claims checked {t['claims']}; "
          f"false-finding lines {t['false_lines']} (in {t['docs_with_false_lines']} documents); "
          f"own errors found {t['own_found']}/{t['own_errors']}; "
          f"slips found {t['slips_found']}/{t['slips']} (on lines clean before: {t['slips_found_new']})")
    print(f"{name} (reachable only): documents with a reachable number {t['docs_with_reachable_numbers']}; "
          f"own errors found {t['own_found_reachable']}/{t['own_errors_reachable']} "
          f"(and {t['own_followed_reachable']} more noted as following from a finding); "
          f"slips found {t['slips_found_reachable']}/{t['slips_reachable']} "
          f"(on lines clean before: {t['slips_found_new_reachable']})")


# ------------------------------------------------------------------ linting the truth files

def located_lines(text: str, fmt: str) -> dict[tuple, str]:
    """(cell, line) -> that line's text, counted as the truth files and the checker count them."""
    if fmt != "ipynb":
        return {(None, i): s for i, s in enumerate(text.split("\n"), start=1)}
    nb = json.loads(text)
    out: dict[tuple, str] = {}
    join = lambda x: "".join(x) if isinstance(x, list) else (x or "")  # noqa: E731
    for k, cell in enumerate(nb["cells"], start=1):
        for i, s in enumerate(join(cell.get("source")).split("\n"), start=1):
            out[(k, i, False)] = s
        shown = 0
        for o in cell.get("outputs", []):
            body = join(o.get("text")) if o.get("output_type") == "stream" else join(o.get("data", {}).get("text/plain"))
            if not body:
                continue
            for i, s in enumerate(body.split("\n"), start=1 + shown):
                out[(k, i, True)] = s
            shown += body.count("\n") + (not body.endswith("\n"))
    return out


def lint(doc: dict) -> list[str]:
    """Problems in a truth file: a printed number not on its line, a slip whose find is missing or not unique."""
    text = doc["path"].read_text(encoding="utf-8")
    fmt = doc["source"].get("format", doc["path"].suffix.lstrip("."))
    lines = located_lines(text, fmt)
    key = (lambda e: (e.get("cell"), e["line"], bool(e.get("output")))) if fmt == "ipynb" else \
        (lambda e: (None, e["line"]))
    problems = []
    t = doc["truth"]
    for n in t.get("numbers", []):
        s = lines.get(key(n))
        if s is None or n["printed"].lstrip("-") not in s:
            problems.append(f"number {n['printed']!r} ({n.get('what')}) not on {where(n.get('cell'), n['line'])}")
    for e in t.get("own_errors", []):
        if key(e) not in lines:
            problems.append(f"own error at {where(e.get('cell'), e['line'])}: no such line")
    for s in t.get("slips", []):
        c = text.count(s["find"])
        if c != 1:
            problems.append(f"slip {s['find']!r}: found {c} times in the document")
        elif s["find"] == s["replace"]:
            problems.append(f"slip {s['find']!r}: does not change the text")
        else:
            # the slip's line is the line its planting changes (in a notebook, of the cell's source or output)
            changed = {k for k, v in located_lines(text.replace(s["find"], s["replace"], 1), fmt).items()
                       if lines.get(k) != v}
            if key(s) not in changed:
                problems.append(f"slip {s['find']!r}: changes {sorted(changed, key=str)}, truth says "
                                f"{where(s.get('cell'), s['line'])}" + (" (output)" if s.get("output") else ""))
        if (s.get("cell"), s["line"]) in {(e.get("cell"), e["line"]) for e in t.get("own_errors", [])}:
            problems.append(f"slip {s['find']!r}: on a line with an own error")
    unflagged = sum("reachable" not in e for k in ("numbers", "own_errors", "slips") for e in t.get(k, []))
    if unflagged:
        problems.append(f"{unflagged} entries without a reachable flag (run reachable.py)")
    return problems


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description="Score `mha check` on the field trial's documents.")
    ap.add_argument("--docs", default="/work/field-docs", help="folder with dev/ and heldout/ (default %(default)s)")
    ap.add_argument("--meta", action="append", default=None,
                    help="folder with sources/ and truth/ (repeatable; default: this script's folder)")
    ap.add_argument("--set", choices=("all", "dev", "heldout", "unseen", "unseenF", "unseenG", "unseenH", "unseenI", "unseenJ", "unseenK"), default="all",
                    help="all = dev and heldout; unseen, unseenF, unseenG, unseenH, unseenI, unseenJ, unseenK (never read by who changes the checker) only by name")
    ap.add_argument("--only", nargs="*", default=None, help="document ids (or id prefixes such as fieldC-) to score, by spaces or commas")
    ap.add_argument("--json", default=None, help="write the per-document results and totals here")
    ap.add_argument("-v", "--verbose", action="store_true", help="list each false finding and each slip")
    ap.add_argument("--lint", action="store_true", help="check the truth files against the documents, do not score")
    ap.add_argument("--fetch", action="store_true",
                    help="re-create the documents under --docs from their sources (network; sha256 checked), do not score")
    a = ap.parse_args(argv)
    if a.only:                                   # "--only fieldA-07,fieldC-04" as well as "--only fieldA-07 fieldC-04"
        a.only = [o for x in a.only for o in x.split(",") if o]
    metas = [Path(m) for m in a.meta] if a.meta else [HERE]
    if a.fetch:
        sys.path.insert(0, str(HERE))
        from fetch_docs import run as fetch_run
        return fetch_run(Path(a.docs), metas, a.only)
    docs = find_documents(Path(a.docs), metas, a.set)
    if a.only:
        docs = [d for d in docs if any(d["id"].startswith(o) for o in a.only)]
    if not docs:
        print(f"no documents with sources and truth under {a.docs} for {[str(m) for m in metas]}", file=sys.stderr)
        return 2
    if a.lint:
        bad = 0
        for d in docs:
            for p in lint(d):
                bad += 1
                print(f"{d['id']}: {p}")
        print(f"{len(docs)} documents linted, {bad} problem(s)")
        return 1 if bad else 0
    rows = []
    for d in docs:
        r = score_document(d)
        print_row(r, a.verbose)
        rows.append(r)
    result = {"checker": _checker_path(), "docs": a.docs, "meta": [str(m) for m in metas], "documents": rows}
    for part in ("dev", "heldout", "unseen", "unseenF", "unseenG", "unseenH", "unseenI", "unseenJ", "unseenK"):
        sub = [r for r in rows if r["set"] == part]
        if sub:
            result[f"totals_{part}"] = totals(sub)
            print_totals(part, result[f"totals_{part}"])
    result["totals_all"] = totals(rows)
    if a.json:
        Path(a.json).parent.mkdir(parents=True, exist_ok=True)
        Path(a.json).write_text(json.dumps(result, ensure_ascii=False, indent=1, default=str) + "\n",
                                encoding="utf-8")
    return 0


def _checker_path() -> str:
    import mha
    return str(Path(mha.__file__).resolve().parent)


if __name__ == "__main__":
    sys.exit(main())
