"""The square root of a size stated on the same line: "d = 4 (vector length), so √d = 2", "d_k = 64, so
\\sqrt{d_k} = 8".  The line names the size and then its root; a reader checks the root with a pencil, whatever the
configuration.  Identity: the same symbol (d, d_k, d_{k}, dk, d_model, d_head) is given a whole number earlier on
that line; the root is judged at its printed precision, a truncation (√8 = 2.82) allowed.  Only documents read as
text lines (Markdown, LaTeX, HTML, plain text) are scanned."""

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
    found = {f.line for f in findings if f.cell is None and f.severity == "error"}
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
            out.append(Finding(ln, None, f"√{m.group(1)}", m.group(2), root, n.rounded(root), "scale",
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
