"""The small LaTeX subset used by the explanations, turned into plain Unicode for terminals.

>>> to_unicode(r"Q^{(1)} (K^{(1)})^\\top")
'Q⁽¹⁾ (K⁽¹⁾)ᵀ'
>>> to_unicode(r"\\frac{x}{\\sqrt{2}} \\in \\mathbb{R}^{3 \\times 2}")
'x/√2 ∈ ℝ³ˣ²'
>>> to_unicode(r"d_{\\text{model}} = H \\cdot d_h")
'd_model = H · dₕ'
"""

from __future__ import annotations

import re

SUP = dict(zip("0123456789+-=()hijknmTx×", "⁰¹²³⁴⁵⁶⁷⁸⁹⁺⁻⁼⁽⁾ʰⁱʲᵏⁿᵐᵀˣˣ"))
SUB = dict(zip("0123456789+-=()aehijklmnopstx", "₀₁₂₃₄₅₆₇₈₉₊₋₌₍₎ₐₑₕᵢⱼₖₗₘₙₒₚₛₜₓ"))
SYMBOLS = {
    "times": "×", "cdot": "·", "top": "ᵀ", "infty": "∞", "sum": "Σ", "max": "max", "in": "∈",
    "le": "≤", "leq": "≤", "ge": "≥", "approx": "≈", "ldots": "…", "cdots": "⋯", "vdots": "⋮",
    "ddots": "⋱", "quad": "  ", "qquad": "    ", ",": " ", ";": " ", "!": "", " ": " ", "left": "",
    "right": "", "exp": "exp", "log": "log", "to": "→", "ne": "≠", "mid": "|", "lt": "<", "gt": ">",
    "ell": "ℓ", "sqrt": "√", "alpha": "α", "odot": "⊙", "leftarrow": "←", "textstyle": "", "{": "{", "}": "}", "%": "%", "_": "_", "&": "&", "#": "#",
}
_TOKEN = re.compile(r"\\[A-Za-z]+|\\.|[{}^_]|[^\\{}^_]")


def _tokens(src: str) -> list[str]:
    return _TOKEN.findall(src)


class TokenStream:
    """The LaTeX subset's tokens with one token of look-ahead; shared by the Unicode and MathML views."""

    def __init__(self, src: str):
        self.toks = _tokens(src)
        self.i = 0

    def peek(self) -> str | None:
        return self.toks[self.i] if self.i < len(self.toks) else None

    def next(self) -> str:
        tok = self.toks[self.i]
        self.i += 1
        return tok


class _Parser(TokenStream):

    def arg(self) -> str:
        """One argument: a {group} or a single token."""
        tok = self.peek()
        if tok is None:
            return ""
        if tok == "{":
            self.next()
            return self.seq(until="}")
        return self.atom()

    def seq(self, until: str | None = None) -> str:
        out = []
        while (tok := self.peek()) is not None:
            if tok == until:
                self.next()
                break
            out.append(self.atom())
        return "".join(out)

    def atom(self) -> str:
        tok = self.next()
        if tok == "{":
            return self.seq(until="}")
        if tok in ("^", "_"):
            raw = self.arg()
            return _script(raw, SUP if tok == "^" else SUB, tok)
        if tok.startswith("\\"):
            name = tok[1:]
            if name in ("text", "mathrm", "operatorname", "mathbf", "textrm"):
                return self.arg()
            if name == "mathbb":
                return {"R": "ℝ", "N": "ℕ"}.get(self.arg(), "")
            if name == "frac":
                a, b = self.arg(), self.arg()
                return f"{_wrap(a)}/{_wrap(b)}"
            if name in ("tilde", "hat", "bar"):
                return self.arg() + {"tilde": "\u0303", "hat": "\u0302", "bar": "\u0304"}[name]
            if name == "sqrt":
                a = self.arg()
                return "√" + (a if len(a) == 1 or a.replace(".", "").isalnum() else f"({a})")
            return SYMBOLS.get(name, name)
        if tok == "}":
            return ""
        return tok


def _wrap(s: str) -> str:
    return s if re.fullmatch(r"[\w.√⁽⁾¹²³⁴⁵⁶⁷⁸⁹⁰ᵀ()]+", s) else f"({s})"


def _script(raw: str, table: dict[str, str], mark: str) -> str:
    if raw == "ᵀ":
        return "ᵀ"
    if raw and all(ch in table for ch in raw.replace(" ", "")):
        return "".join(table.get(ch, "") for ch in raw.replace(" ", ""))
    if len(raw) == 1 or raw.replace("_", "").isalnum():
        return mark + raw if mark == "_" else "^" + raw
    return f"{mark}({raw})"


def to_unicode(latex: str) -> str:
    """Convert one math expression (without the $ signs)."""
    return _Parser(latex).seq()


_INLINE = re.compile(r"\$([^$]+)\$")


def inline_to_unicode(text: str) -> str:
    """Prose with $...$ inline math: convert each math span, keep the prose."""
    return _INLINE.sub(lambda m: to_unicode(m.group(1)), text)
