"""The explanations' LaTeX as MathML Core (latex2mathml), which Chromium, Firefox and Safari render natively.

No script, no font and no network: the page stays self-contained.  latex2mathml
is imported on first use, so only the HTML view pays for it.

>>> "<msup><mi>Q</mi>" in to_mathml(r"Q^{(1)}")
True
>>> "<mfrac>" in to_mathml(r"\\frac{a}{\\sqrt{2}}") and "<msqrt>" in to_mathml(r"\\sqrt{2}")
True
"""

from __future__ import annotations

import html
from functools import lru_cache

from .mathread import spans


@lru_cache(maxsize=4096)
def to_mathml(latex: str, *, display: bool = False) -> str:
    """One formula (without its $ signs) as a <math> element."""
    from latex2mathml.converter import convert
    return convert(latex, display="block" if display else "inline")


def prose_html(text: str) -> str:
    """Prose with $...$ spans: the prose escaped, each formula as inline MathML."""
    return "".join(to_mathml(s.source) if s.math else html.escape(s.source, quote=False) for s in spans(text))
