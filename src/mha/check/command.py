"""`mha check`: read a document, infer its configuration (or take --input), judge every claim, report."""

from __future__ import annotations

import sys
from typing import Any, Mapping

from ..inputs import MHAInputError, UsageError
from .report import Report

MAX_BYTES = 2_000_000           # larger documents are refused: a worked example is far smaller
MAX_CELLS = 3000


def check_document(text: str, config: Mapping[str, Any] | None = None, fmt: str | None = None,
                   name: str = "") -> Report:
    """Check every numeric claim of a worked example; config is the input mapping, or None to infer it.

    >>> import mha
    >>> check_document(mha.explain(lang="en").to_markdown(), fmt="md").ok
    True
    """
    from .infer import infer, prepare
    from .judge import Judge
    from .read import read_document, sniff
    fmt = fmt or sniff(text, name)
    try:
        doc = read_document(text, fmt)
    except RecursionError:
        raise MHAInputError("document: nests too deeply to be read") from None
    objs, bases = prepare(doc)
    numeric_chains = [c for c in doc.chains if any(type(p).__name__ in ("ExprPart", "ShapePart", "ShapeProduct")
                                                  for p in c.parts)]
    if not doc.arrays and not numeric_chains and not doc.readings:
        raise MHAInputError("document: no attention numbers found (looked for matrices in LaTeX, bracket lists, "
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
            j = Judge(doc, inf, None, given=False)
            j.run()
            if j.n_claims == 0:
                raise MHAInputError("configuration: could not be inferred; looked for " + (inf.looked_for or
                                    "an input X with weights, or Q, K and V") + "; pass --input CASE.json")
            configuration = {"configuration": "not inferred (looked for " + (inf.looked_for or "an input X with "
                             "weights, or Q, K and V") + "); only the arithmetic written out was checked"}
            return Report(j.findings, j.n_claims, j.n_numbers, configuration, [], j.not_checked, fmt, None)
        mapping = inf.best.cand.mapping()
        configuration = inf.best.cand.describe()
        evidence = inf.evidence
    j = Judge(doc, inf, mapping, given=config is not None)
    j.run()
    return Report(j.findings, j.n_claims, j.n_numbers, configuration, evidence, j.not_checked, fmt,
                  _jsonable(mapping))


def _jsonable(m: Mapping[str, Any] | None) -> dict | None:
    if m is None:
        return None
    import numpy as np
    return {k: (v.tolist() if isinstance(v, np.ndarray) else v) for k, v in m.items()}


def read_input(path: str) -> tuple[str, str]:
    """The document's text and name; '-' reads stdin.  Refuses what cannot be a worked example."""
    try:
        if path == "-":
            raw = sys.stdin.buffer.read(MAX_BYTES + 1)
            name = ""
        else:
            with open(path, "rb") as f:
                raw = f.read(MAX_BYTES + 1)
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
    if len(raw) > MAX_BYTES:
        raise MHAInputError(f"{name}: larger than {MAX_BYTES // 1_000_000} MB; a worked example is much smaller "
                            f"(split the document, or check the part with the example)")
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
    from ..inputs import read_json_file
    text, name = read_input(args.doc)
    config = read_json_file(args.input) if getattr(args, "input", None) else None
    if config is not None and not isinstance(config, dict):
        raise UsageError("--input: the JSON file must hold an object")
    fmt = getattr(args, "doc_format", None)
    if name.endswith(".ipynb") or (fmt is None and text.lstrip().startswith("{") and '"cells"' in text[:100000]):
        _check_notebook_size(text)
    report = check_document(text, config, fmt=fmt, name=name)
    if getattr(args, "format", "text") == "json":
        sys.stdout.write(report.to_json() + "\n")
    else:
        sys.stdout.write(report.to_text())
    return report.exit_code


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
