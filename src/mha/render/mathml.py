"""The explanations' LaTeX as MathML Core (latex2mathml), which Chromium, Firefox and Safari render natively.

No script, no font and no network: the page stays self-contained.  latex2mathml
is imported on first use, so only the HTML view pays for it.

>>> "<msup><mi>Q</mi>" in to_mathml(r"Q^{(1)}")
True
>>> "<mfrac>" in to_mathml(r"\\frac{a}{\\sqrt{2}}") and "<msqrt>" in to_mathml(r"\\sqrt{2}")
True

The explanations write the same formula again and again with other numbers in it (a row of O^(h) per token
and head: 288 formulas of 64 numbers each in GPT-2's overview).  latex2mathml turns a number into one
<mn> element whatever its digits, so each formula is converted once as a template, its numbers replaced
by placeholders, and the numbers are put back into the <mn> elements (a minus sign as latex2mathml writes
it).  A template whose placeholders do not each come back as one plain <mn> is converted directly.

>>> to_mathml("o_{2} = [0.25, -1.5]") == convert_directly("o_{2} = [0.25, -1.5]")
True
"""

from __future__ import annotations

import html
import re
from functools import lru_cache

from .mathread import spans


# A number as latex2mathml's tokenizer reads one (digits, then a fraction), with its sign; not a digit that
# belongs to a name (x2), a script (x_1, x^2: one digit) or a command's argument (\\frac12).
_NUMBER = re.compile(r"(?<![\w\\^_.])(-?)(\d+(?:\.\d+)?)(?![\w.])")
_MARK = 7_300_000                       # placeholder k is the number _MARK + k (digits only, like a number)
_MINUS = "<mo>&#x02212;</mo>"           # latex2mathml's minus sign


@lru_cache(maxsize=4096)
def to_mathml(latex: str, *, display: bool = False) -> str:
    """One formula (without its $ signs) as a <math> element."""
    numbers: list[tuple[str, str]] = []

    def mark(m: re.Match) -> str:
        numbers.append((m.group(1), m.group(2)))
        return str(_MARK + len(numbers) - 1)

    template = _NUMBER.sub(mark, latex)
    cut = _template(template, display, len(numbers)) if numbers else None
    if cut is None:
        return convert_directly(latex, display=display)
    pieces, order = cut
    out = [pieces[0]]
    for k, piece in zip(order, pieces[1:]):
        sign, digits = numbers[k]
        out.append(f"{_MINUS if sign else ''}<mn>{digits}</mn>{piece}")
    return "".join(out)


@lru_cache(maxsize=1024)
def _template(template: str, display: bool, n: int) -> tuple[tuple[str, ...], tuple[int, ...]] | None:
    """The template's MathML cut at its n placeholders, and which number goes into each cut (MathML may
    reorder: o^{(1)}_{2} puts the subscript first); None unless each placeholder is one plain <mn>."""
    mathml = convert_directly(template, display=display)
    at = {}
    for k in range(n):
        mark = f"<mn>{_MARK + k}</mn>"
        if mathml.count(str(_MARK + k)) != 1 or mathml.count(mark) != 1:
            return None
        at[mathml.index(mark)] = k
    pieces, start = [], 0
    for pos in sorted(at):
        pieces.append(mathml[start:pos])
        start = pos + len(f"<mn>{_MARK + at[pos]}</mn>")
    pieces.append(mathml[start:])
    return tuple(pieces), tuple(at[pos] for pos in sorted(at))


def convert_directly(latex: str, *, display: bool = False) -> str:
    """latex2mathml's conversion of one formula."""
    from latex2mathml.converter import convert
    return convert(latex, display="block" if display else "inline")


def prose_html(text: str) -> str:
    """Prose with $...$ spans: the prose escaped, each formula as inline MathML."""
    return "".join(to_mathml(s.source) if s.math else html.escape(s.source, quote=False) for s in spans(text))
