"""Numbers written with a magnitude after them: `4 · 768² = 2.36 M`, `2 · 768 · 3072 = 4.72M`, `≈ 1.2 billion`,
`= 590 K`, `= 2.36 百万`.  The reader's arithmetic takes the letter for a symbol (2.36 times M), and the line was
judged as if 2.36 were its value; a part that is nothing but a number and such a word is that number scaled, its
interval scaled with it (2.36 M stands for [2.355, 2.365] million)."""

from __future__ import annotations

from .. import numbers as nb
from ..objects import Chain, ExprPart



def scaled(e) -> nb.Lit | None:
    """`2.36 M` read as 2.36 × M: the number 2.36e6 (to the precision printed), else None."""
    if not (isinstance(e, nb.Op) and e.op == "*" and len(e.args) == 2):
        return None
    num, word = e.args
    if not (isinstance(num, nb.Lit) and isinstance(word, nb.Sym)):
        return None
    name = word.text.replace("\\text", "").replace("\\mathrm", "").strip("{}\\ ")
    factor = nb.MAGNITUDE.get(name)
    if factor is None:
        return None
    n = num.num
    if name == "B" and abs(n.value) >= 1000:
        return num                  # `= 131,072 B`: bytes (7B, 175B count billions; no page writes 131,072 billion)
    if n.decimals is None:          # `786 k`: a whole count of thousands stands for 785.5 k to 786.5 k
        return nb.Lit(nb.Num(n.value * factor, f"{n.text} {name}", (n.value - 0.5) * factor,
                             (n.value + 0.5) * factor, n.line, 0))
    return nb.Lit(nb.Num(n.value * factor, f"{n.text} {name}", n.lo * factor, n.hi * factor, n.line,
                         n.decimals))


def magnitudes(c: Chain) -> None:
    """Each part of the chain that is a number with a magnitude word, as that number (in place).  Only where
    another part of the chain is arithmetic that evaluates to a number: `M` after a lone number could be a matrix
    (2 M), but not beside 4 · 768² = 2,359,296."""
    parts = [p for p in c.parts if isinstance(p, ExprPart)]
    if len(parts) < 2:
        return
    plain = []
    for p in parts:
        try:
            plain.append(not nb.has_symbols(p.expr) and nb.face(p.expr) is not None)
        except (ArithmeticError, OverflowError, ValueError, TypeError):
            plain.append(False)
    if not any(plain):
        return
    for p in parts:
        got = scaled(p.expr)
        if got is not None:
            p.expr = got
