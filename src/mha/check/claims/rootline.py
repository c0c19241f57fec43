"""The square root of a size stated on the same line: "d = 4 (vector length), so √d = 2", "d_k = 64, so
\\sqrt{d_k} = 8".  The line names the size and then its root; a reader checks the root with a pencil, whatever the
configuration.  Identity: the same symbol (d, d_k, d_{k}, dk, d_model, d_head) is given a whole number earlier on
that line; the root is judged at its printed precision, a truncation (√8 = 2.82) allowed.  Documents read as text
lines (Markdown, LaTeX, HTML, plain text) are scanned line by line; a notebook cell by cell (notebook_root_lines)."""

from __future__ import annotations

import math
import re

from ..numbers import Num
from ..report import Finding

_SYM = r"d(?:_?\{?(?:k|model|head|h)\}?)?"
_ASSIGN = re.compile(rf"(?<![\w\\])({_SYM})\s*=\s*(\d+)(?!\d|\.\d)")
_ROOT = re.compile(rf"(?:√|\\sqrt|sqrt)\s*[{{(]?\s*({_SYM})\s*[}})]?\s*(?:=|≈|\\approx)\s*(\d+(?:\.\d+)?)(?!\d|\.\d)")


def _norm(symbol: str) -> str:
    return re.sub(r"[_{}]", "", symbol)


def root_lines(findings: list[Finding], text: str) -> list[Finding]:
    """Error findings for roots of a size given on their own line that are not that root."""
    return _scan(findings, text, None)


def notebook_root_lines(findings: list[Finding], text: str) -> list[Finding]:
    """The same in a notebook: in each markdown cell, and in each code cell's text outputs (`d_k = 3,  sqrt(d_k) =
    1.732` printed by an f-string), located as the notebook reader locates them (outputs one after the other)."""
    from ..readers.notebook import _text_of
    from .cellprose import notebook_cells
    out: list[Finding] = []
    for k, cell in notebook_cells(text):
        if cell.get("cell_type") == "markdown":
            body = _text_of(cell.get("source", ""))
        elif cell.get("cell_type") == "code" and isinstance(cell.get("outputs"), list):
            parts = []
            for o in cell["outputs"]:
                if not isinstance(o, dict):
                    continue
                data = o.get("data") if isinstance(o.get("data"), dict) else {}
                part = _text_of(o.get("text", "")) if o.get("output_type") == "stream" else \
                    _text_of(data.get("text/plain", ""))
                if part:
                    parts.append(part if part.endswith("\n") else part + "\n")
            body = "".join(parts)
        else:
            continue
        if "sqrt" in body or "√" in body:
            out.extend(_scan(findings + out, body, k))
    return out


def _scan(findings: list[Finding], text: str, cell: int | None) -> list[Finding]:
    found = {f.line for f in findings if f.cell == cell and f.severity == "error"}
    out: list[Finding] = []
    for ln, line in enumerate(text.splitlines(), start=1):
        if ln in found or not ("√" in line or "sqrt" in line):
            continue
        for m in _ROOT.finditer(line):
            given = [a for a in _ASSIGN.finditer(line[:m.start()]) if _norm(a.group(1)) == _norm(m.group(1))]
            if not given or not _starts_its_equation(line[:m.start()]):
                continue
            d = int(given[-1].group(2))
            root, n = math.sqrt(d), Num.parse(m.group(2))
            cut = math.floor(root * 10 ** (n.decimals or 0)) / 10 ** (n.decimals or 0)
            if n.contains(root) or abs(n.value - cut) < 1e-9:
                continue
            out.append(Finding(ln, cell, f"√{m.group(1)}", m.group(2), root, n.rounded(root), "scale",
                               f"{m.group(1)} = {d} on this line: its square root is {root:.6g}", "wrong_value"))
            found.add(ln)
            break
    return out


# what may stand just before the root that an equation starts with: a break, a connective, a column gap after a value
_OPENS = re.compile(r"(?:^|[,;:(\[→⇒=$]|\b(?:so|thus|hence|then|and|where|i\.e\.)|所以|因此|则|即|故)\s*$", re.I)


def _starts_its_equation(before: str) -> bool:
    """Is the root the subject of its own equation ("d = 4, so √d = 2", "d = 4   √d = 2"), not an operand of the
    words before it ("std sau khi chia √d = 1.00": the spread after dividing by √d is 1.00)?"""
    return bool(_OPENS.search(before)) or bool(re.search(r"[\d)]\s{2,}$", before))
