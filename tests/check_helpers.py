"""Shared by the check tests: the seed document beside the checkout (../shared, in this workplace and in its CI;
the tests that read it skip with the reason where it is absent) and how numbers are printed in the small documents
written for the tests."""

from pathlib import Path

import pytest

SEED = Path(__file__).resolve().parents[2] / "shared" / "seeds" / "000_54b22f0c3b2dd9eb.txt"
DOC = SEED.read_text(encoding="utf-8") if SEED.exists() else None
needs_seed = pytest.mark.skipif(DOC is None, reason=f"the seed document is not at {SEED}")


def r4(x):
    return f"{x:.4f}"


def numpy_rows(M, decimals=4):
    """A matrix as numpy prints it: [[a b] / [c d]]."""
    return "\n".join((" [" if i else "[[") + " ".join(f"{x:.{decimals}f}" for x in row) + "]"
                     for i, row in enumerate(M)) + "]"


def softmax(x):
    """The oracle's softmax, in plain NumPy (independent of mha)."""
    import numpy as np
    e = np.exp(np.asarray(x, dtype=float) - np.max(x))
    return e / e.sum()


def error_lines(text: str, fmt: str = "md") -> dict[int, list]:
    """The error findings of `mha check` on a page, by line. A page the checker refuses (too little to read, exit
    2 in the CLI) has none."""
    from mha.check import check_document
    from mha.inputs import MHAInputError
    try:
        findings = check_document(text, fmt=fmt).findings
    except MHAInputError:
        return {}
    out: dict[int, list] = {}
    for f in findings:
        if f.severity == "error":
            out.setdefault(f.line, []).append(f)
    return out


def error_findings(text: str, fmt: str = "md") -> list:
    """The error findings of `mha check` on a page, in order (none for a page the checker refuses)."""
    return [f for fs in error_lines(text, fmt).values() for f in fs]


def clean_report(text: str, fmt: str = "md"):
    """The report of `mha check` on a page that must hold: asserts it has no error finding, and returns it."""
    from mha.check import check_document
    report = check_document(text, fmt=fmt)
    assert [f for f in report.findings if f.severity == "error"] == [], [f.message() for f in report.findings]
    return report


def error_places(text: str, fmt: str = "md") -> list[tuple[int, str]]:
    """(line, printed) of each error finding of `mha check` on a page, in order."""
    return [(f.line, f.printed) for f in error_findings(text, fmt)]


def code_notebook(cells: list[tuple[str, str | None]]) -> str:
    """A notebook of code cells, each (source, what it displayed or None), as Jupyter saves it."""
    import json
    out = []
    for src, printed in cells:
        cell = {"cell_type": "code", "execution_count": 1, "metadata": {}, "source": src, "outputs": []}
        if printed is not None:
            cell["outputs"] = [{"output_type": "execute_result", "execution_count": 1, "metadata": {},
                                "data": {"text/plain": printed}}]
        out.append(cell)
    return json.dumps({"cells": out, "metadata": {}, "nbformat": 4, "nbformat_minor": 5})


def line_of(text: str, s: str) -> int:
    """The 1-based line of the first occurrence of s."""
    return next(i for i, ln in enumerate(text.splitlines(), start=1) if s in ln)


def md_document(text: str):
    """A Markdown page as the readers hand it on (objects only: no configuration, no judging), for claims that
    work on the document alone (claims/rowsum.py, claims/percentquote.py)."""
    from mha.check.readers import read_document
    return read_document(text, "md")
