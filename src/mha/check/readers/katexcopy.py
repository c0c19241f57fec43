"""Text copied from rendered math (KaTeX, MathJax): each formula comes twice, first as the flattened glyphs, then as
its TeX source, glued together: `Q=[2, 1]Q=[2,\\,1]`, `e2=7.389e^{2}=7.389`, `s=2⋅1+1⋅32=51.414≈3.54s=\\frac{2\\cdot1+
1\\cdot3}{\\sqrt2}=...`.  The flattened copy runs a fraction's numerator into its denominator (`2⋅1+1⋅32` for
(2·1+1·3)/√2, `51.414` for 5/1.414) and an exponent into its base (`e2`): read as arithmetic it is wrong.  The
flattened copy is dropped and the TeX source is read as math, as if it had been written between dollars (it ends
at the first CJK character or punctuation, a bracketed link, or the end of the line)."""

from __future__ import annotations

import re

_HEAD = re.compile(r"(?<![\w\\^_{])([A-Za-z][A-Za-z0-9]{0,3})\s*=")            # e2=, Q=, s=, dk=
_TEX_HEAD = re.compile(r"[A-Za-z](?:[_^]\{[A-Za-z0-9]+\}|[_^][A-Za-z0-9]|[A-Za-z0-9])*\s*=")   # e^{2}=, d_k=
_TEX_MARK = re.compile(r"\\[A-Za-z]+|\\[,;!]|[_^]\{|[_^][A-Za-z0-9]")
_TEX_END = re.compile(r"[，。；、：（]|\((?=\[)|[\u4e00-\u9fff]|$", re.M)


def _flat(head: str) -> str:
    return re.sub(r"[\s_^{}=]", "", head)


def rendered_copies(text: str) -> tuple[str, list[tuple[int, str]]]:
    """The text with each flattened copy and the TeX source after it blanked (same length: every column keeps its
    place), and the TeX sources, each with the index of its line in the text."""
    if not _TEX_MARK.search(text):
        return text, []
    out, tex, at = [], [], 0
    for m in _HEAD.finditer(text):
        if m.start() < at:
            continue
        eol = text.find("\n", m.end())
        eol = len(text) if eol < 0 else eol
        start = None
        for t in _TEX_HEAD.finditer(text, m.end(), eol):
            between = text[m.end():t.start()]
            if re.search(r"[\\$`]", between):
                break
            if _flat(t.group()) == _flat(m.group()) and _TEX_MARK.search(text, t.start(), eol) and \
                    _TEX_MARK.search(text[t.start():_TEX_END.search(text, t.start()).start()]):
                start = t.start()
                break
        if start is None:
            continue
        end = _TEX_END.search(text, start).start()
        source = text[start:end].rstrip()
        out.append(text[at:m.start()] + " " * (start - m.start() + len(source)))
        tex.append((text.count("\n", 0, start), source))
        at = start + len(source)
    return "".join(out) + text[at:], tex
