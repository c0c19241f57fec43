"""`mha check`: read a document, infer its configuration (or take --input), judge every claim, report."""

from __future__ import annotations

import json
import os
import sys
from typing import Any, Mapping

from ..arrays import internal_error_line
from ..inputs import MHAInputError, UsageError
from .report import Report

MAX_BYTES = 2_000_000           # larger documents are refused: a worked example is far smaller
MAX_NOTEBOOK_BYTES = 30_000_000  # a notebook may carry plots; what counts is its text (≤ MAX_BYTES)
MAX_CELLS = 3000
MAX_NUMBERS = 10_000            # a worked example prints hundreds of numbers; 10,000 is a data dump
_TEXT_MIMES = ("text/plain", "text/html", "text/markdown", "text/latex")
FORMATS = ("text", "json", "github")


class NothingToCheck(MHAInputError):
    """The document holds nothing `mha check` can check: no attention numbers, or only inputs (exit 2)."""


def check_document(text: str, config: Mapping[str, Any] | None = None, fmt: str | None = None,
                   name: str = "", scopes: bool = True, like: Any = None) -> Report:
    """Check every numeric claim of a worked example; config is the input mapping, or None to infer it; scopes:
    read again on its own each section the configuration does not explain (scoped.py); like: the numbering (Bases)
    of the document a section read on its own comes from.

    >>> import mha
    >>> check_document(mha.explain(lang="en").to_markdown(), fmt="md").ok
    True
    """
    from .infer import infer, prepare
    from .verdict import judge_document
    from .readers import read_document, sniff
    from .readers.decimalcomma import decimal_points
    from .readers.spacedpoints import circled_markers, enumerated_rows, spaced_points, thin_thousands
    fmt = fmt or sniff(text, name)
    if fmt == "ipynb":
        text, body = slim_notebook(text)
    else:
        body = text
    _count_numbers(body)
    text = decimal_points(text, fmt)          # 0,5 and 0{,}5 in a document that writes decimal commas
    text = spaced_points(text, fmt)           # 0. 707 in a page exported with a space after every point
    text = thin_thousands(text)               # 16\,640: one number, its groups parted by thin spaces
    text = enumerated_rows(text)              # `2、1、0`: a row of numbers, as Chinese prose lists them
    text = circled_markers(text)              # ③$0.731×4 + ...$: a step's marker, no digit of the formula
    try:
        doc = read_document(text, fmt)
    except RecursionError:
        raise MHAInputError("document: nests too deeply to be read") from None
    from .scoped import mark_openers
    mark_openers(doc, text, fmt)
    objs, bases = prepare(doc, like)
    from .claims.rates import rated_times
    from .claims.sizeunits import glued_sizes
    numeric_chains = [c for c in doc.chains if any(type(p).__name__ in ("ExprPart", "ShapePart", "ShapeProduct")
                                                  for p in c.parts) or glued_sizes(c.parts) or rated_times(c.parts)]
    from .claims.paramtable import param_tables
    if not doc.arrays and not numeric_chains and not doc.readings and not param_tables(doc):
        raise NothingToCheck("document: no attention numbers found (looked for matrices in LaTeX, bracket lists, "
                            "NumPy and torch printouts, tables, and arithmetic lines)")
    if config is not None:
        from .infer import Inference
        mapping = dict(config)
        from ..trace import trace
        trace(mapping)                       # a bad --input is one clear error (exit 2)
        inf = Inference(None, objs=objs, bases=bases)
        configuration = {"input": "from --input"}
        evidence: list[str] = []
    else:
        inf = infer(doc, objs, bases)
        if inf.best is None:
            # no configuration: the arithmetic written out (0.22·0.54 + ... ≈ 0.889) can still be read
            j = judge_document(doc, inf, None, given=False, text=text)
            scoped = _scopes_alone(j, doc, text, fmt, name, inf) if scopes else None
            if scoped is not None:
                return scoped
            if j.n_claims == 0 and not j.findings and inf.unexplained:
                raise NothingToCheck("configuration: could not be inferred: the document " + inf.unexplained +
                                     ", but no printed result follows from it with any scale, mask or number of "
                                     "heads tried (were the results worked from other numbers?); pass --input "
                                     "CASE.json to check them against a configuration you give")
            if j.n_claims == 0 and not j.findings:
                raise NothingToCheck("configuration: could not be inferred; looked for " + (inf.looked_for or
                                    "an input X with weights, or Q, K and V") + "; pass --input CASE.json")
            configuration = {"configuration": "not inferred (looked for " + (inf.looked_for or "an input X with "
                             "weights, or Q, K and V") + "); only the arithmetic written out was checked"}
            return Report(j.findings, j.n_claims, j.n_numbers, configuration, [], j.not_checked, fmt, None,
                          name or "-")
        mapping = inf.best.cand.mapping()
        configuration = inf.best.cand.describe()
        evidence = inf.evidence
    j = judge_document(doc, inf, mapping, given=config is not None, text=text)
    if config is None:
        from .regions import judge_other_examples
        evidence = evidence + judge_other_examples(doc, j)      # another example, in sections of its own
    if j.n_claims == 0 and not j.findings and not j.doubted:
        raise NothingToCheck("document: nothing to check: the numbers found are the inputs only"
                            + (f" ({len(j.not_checked)} other object(s) match nothing)" if j.not_checked else "")
                            + "; a worked example shows what is computed from them")
    report = Report(j.findings, j.n_claims, j.n_numbers, configuration, evidence, j.not_checked, fmt,
                    _jsonable(mapping), name or "-")
    if scopes and config is None:
        from .scoped import judge_scopes
        judge_scopes(report, doc, text, fmt, lambda t: check_document(t, fmt=fmt, name=name, scopes=False,
                                                                    like=j.inf.bases))
    _named_entries(report)
    return report


def _named_entries(report: Report) -> None:
    """A row found not to sum to 1, and on the same line an entry of it found wrong: one slip, one finding, on the
    entry (it names the number)."""
    from .scoped import row_sum_finding
    entries = {(f.cell, f.line) for f in report.errors if not row_sum_finding(f)}
    report.findings = [f for f in report.findings if not (f.severity == "error" and row_sum_finding(f) and
                                                          (f.cell, f.line) in entries)]


def _scopes_alone(j: Any, doc: Any, text: str, fmt: str, name: str, inf: Any) -> Report | None:
    """A document with no configuration of its own may hold several examples that reuse the names (q and k of one
    width in a first code block, of another in the next section): each section is read on its own (scoped.py), and
    the report is kept when some section's own configuration explains objects there; None when none does."""
    from .scoped import judge_scopes
    looked = inf.looked_for or "an input X with weights, or Q, K and V"
    report = Report(j.findings, j.n_claims, j.n_numbers,
                    {"configuration": f"not inferred for the whole document (looked for {looked}); sections "
                                      "read on their own below"}, [], j.not_checked, fmt, None, name or "-")
    before = report.n_numbers
    judge_scopes(report, doc, text, fmt, lambda t: check_document(t, fmt=fmt, name=name, scopes=False,
                                                                like=inf.bases), whole=False)
    return report if report.n_numbers > before else None


def _count_numbers(text: str) -> None:
    import re
    from .readers.common import DATA_URI
    text = DATA_URI.sub("data:,", text)        # a pasted image's base64 holds digits, not numbers
    n = sum(1 for _ in zip(range(MAX_NUMBERS + 1), re.finditer(r"(?<![\w.])\d+(?:\.\d+)?(?:[eE][-+]?\d+)?", text)))
    if n > MAX_NUMBERS:
        raise MHAInputError(f"document: more than {MAX_NUMBERS:,} numbers; a worked example prints far fewer "
                            f"(check the part with the example)")


def slim_notebook(text: str) -> tuple[str, str]:
    """A notebook without its plots and other binary outputs (only text outputs are read), and the text that
    is read (sources and text outputs); refused when that is larger than a worked example can be."""
    import json
    try:
        nb = json.loads(text)
    except (json.JSONDecodeError, RecursionError):
        return text, text                     # the reader says what is wrong with it
    if not isinstance(nb, dict) or not isinstance(nb.get("cells"), list):
        return text, text
    body: list[str] = []                      # what is read: sources and text outputs

    def add(x: Any) -> None:
        # a damaged notebook can hold numbers or nulls where lines belong: they are not text that is read
        body.append("".join(y for y in x if isinstance(y, str)) if isinstance(x, list) else x if isinstance(x, str)
                    else "")
    for cell in nb["cells"]:
        if not isinstance(cell, dict):
            continue
        cell.pop("attachments", None)
        add(cell.get("source"))
        for out in cell.get("outputs", []) if isinstance(cell.get("outputs"), list) else []:
            if not isinstance(out, dict):
                continue
            add(out.get("text"))
            if isinstance(out.get("data"), dict):
                out["data"] = {k: v for k, v in out["data"].items() if k in _TEXT_MIMES}
                add(out["data"].get("text/plain"))
    # a JSON escape of half a surrogate pair ("\\udcff") is no character: it is read as "?" from here on
    slim = json.dumps(nb, ensure_ascii=False).encode("utf-8", "replace").decode("utf-8")
    if len(slim.encode("utf-8")) > MAX_BYTES:
        raise MHAInputError(f"doc: a notebook with more than {MAX_BYTES // 1_000_000} MB of text; a worked example "
                            f"is much smaller (keep the cells with the example)")
    return slim, "\n".join(body).encode("utf-8", "replace").decode("utf-8")


def _jsonable(m: Mapping[str, Any] | None) -> dict | None:
    if m is None:
        return None
    import numpy as np
    return {k: (v.tolist() if isinstance(v, np.ndarray) else v) for k, v in m.items() if not k.startswith("_")}


def read_input(path: str) -> tuple[str, str]:
    """The document's text and name; '-' reads stdin.  Refuses what cannot be a worked example."""
    try:
        if path == "-":
            raw = sys.stdin.buffer.read(MAX_NOTEBOOK_BYTES + 1)
            name = ""
        else:
            with open(path, "rb") as f:
                raw = f.read(MAX_NOTEBOOK_BYTES + 1)
            name = path
    except FileNotFoundError:
        raise UsageError(f"doc: no such file: {path}") from None
    except IsADirectoryError:
        raise UsageError(f"doc: {path} is a directory") from None
    except OSError as e:
        raise UsageError(f"doc: cannot read {path}: {e.strerror}") from None
    return usable_text(raw, "doc"), name


def usable_text(raw: bytes, name: str = "document") -> str:
    """Decode and sanity-check a document; raise MHAInputError (exit 2) when it cannot be checked."""
    notebook = raw[:200].lstrip().startswith(b"{") and b'"cells"' in raw[:100000]
    if len(raw) > (MAX_NOTEBOOK_BYTES if notebook else MAX_BYTES):
        limit = MAX_NOTEBOOK_BYTES if notebook else MAX_BYTES
        raise MHAInputError(f"{name}: larger than {limit // 1_000_000} MB; a worked example is much smaller "
                            f"(split the document, or check the part with the example)")
    if raw[:2] == b"\xff\xfe" and b"\n\x00" in raw or raw[:2] == b"\xfe\xff" and b"\x00\n" in raw:
        # UTF-16 with its byte-order mark (as some Windows editors save Markdown), with line breaks as UTF-16
        # writes them: text, not binary data
        try:
            raw = raw.decode("utf-16").encode("utf-8")
        except UnicodeDecodeError as e:
            raise MHAInputError(f"{name}: not UTF-16 text after its byte-order mark (byte {e.start})") from None
    if not raw.strip():
        raise MHAInputError(f"{name}: the file is empty")
    if b"\x00" in raw:
        raise MHAInputError(f"{name}: looks like binary data (it contains NUL bytes)")
    try:
        text = raw.decode("utf-8-sig")
    except UnicodeDecodeError as e:
        raise MHAInputError(f"{name}: not UTF-8 text (byte {e.start})") from None
    return text


def main_from_args(args: Any) -> int:
    """`mha check DOC...`: each document checked and reported in turn; the exit status is the worst of them
    (3 > 2 > 1 > 0; 3: a fault of mha's own, in one line).  With one document a usage or input error is raised
    (the CLI prints it and exits 2); with several it is printed for that document and the others are still
    checked.  --skip-unrelated: a document
    with nothing to check (no attention numbers) counts as clean, so a pre-commit hook over every Markdown
    file passes the ones that are not worked examples."""
    from ..inputs import read_json_file
    docs = [args.doc] if isinstance(args.doc, str) else list(args.doc)
    config = read_json_file(args.input) if getattr(args, "input", None) else None
    if config is not None and not isinstance(config, dict):
        raise UsageError("--input: the JSON file must hold an object")
    if docs.count("-") > 1:
        raise UsageError("doc: stdin (-) can be read once")
    skip = getattr(args, "skip_unrelated", False)
    out = getattr(args, "format", "text")
    several_json = out == "json" and len(docs) > 1         # one JSON array, an object per document checked
    worst = 0
    reports = []
    for path in docs:
        try:
            report = _check_one(path, config, args)
            status = report.exit_code
            if several_json:
                reports.append(report.to_json())
            else:
                sys.stdout.write(report.to_json() + "\n" if out == "json" else report.to_github()
                                 if out == "github" else report.to_text())
        except NothingToCheck as e:
            _refused_json(path, e, out, several_json, reports, skipped=skip)
            if not skip and len(docs) == 1:
                raise
            print(f"mha check: {path}: skipped, {_one_line(e)}" if skip else f"mha: error: {path}: {_one_line(e)}",
                  file=sys.stderr)
            status = 0 if skip else 2
        except (MHAInputError, UsageError) as e:
            _refused_json(path, e, out, several_json, reports)
            if len(docs) == 1:
                raise
            print(f"mha: error: {path}: {_one_line(e)}", file=sys.stderr)
            status = 2
        except Exception as e:          # a reader's own fault: said in one line, the other documents still checked
            if os.environ.get("MHA_DEBUG"):
                raise
            print(f"mha check: {path}: {internal_error_line(e)}", file=sys.stderr)
            status = 3
        worst = max(worst, status)
    if several_json:
        sys.stdout.write("[" + ",\n".join(reports) + "]\n")
    return worst


def _refused_json(path: str, e: Exception, out: str, several: bool, reports: list[str], skipped: bool = False) -> None:
    """With --format json a document that is refused (or skipped) still gets its object, so a program reading the
    output sees every document it asked for: {"path", "ok": false, "refused": the one-line reason} (with
    --skip-unrelated, "skipped" instead and "ok": true).  The one line on stderr and the exit status stay as
    they are."""
    if out != "json":
        return
    key = "skipped" if skipped else "refused"
    obj = json.dumps({"path": path, "ok": skipped, key: _one_line(e)}, ensure_ascii=False, indent=1)
    if several:
        reports.append(obj)
    else:
        sys.stdout.write(obj + "\n")
        sys.stdout.flush()


def _check_one(path: str, config: dict | None, args: Any) -> Report:
    text, name = read_input(path)
    fmt = getattr(args, "doc_format", None)
    if name.endswith(".ipynb") or (fmt is None and text.lstrip().startswith("{") and '"cells"' in text[:100000]):
        _check_notebook_size(text)
    return check_document(text, config, fmt=fmt, name=name)


def _one_line(e: Exception) -> str:
    return " ".join(str(e).split())


def _check_notebook_size(text: str) -> None:
    import json
    try:
        nb = json.loads(text)
    except (json.JSONDecodeError, RecursionError):
        raise MHAInputError("doc: not a readable notebook (invalid JSON)") from None
    cells = nb.get("cells") if isinstance(nb, dict) else None
    if isinstance(cells, list) and len(cells) > MAX_CELLS:
        raise MHAInputError(f"doc: a notebook of {len(cells)} cells; mha check reads up to {MAX_CELLS} cells "
                            f"(split it, or keep the cells with the worked example)")
