"""The explanations' math as plain Unicode for terminals: an emitter over pylatexenc's tree (`mathread`).

>>> to_unicode(r"Q^{(1)} (K^{(1)})^\\top")
'Q⁽¹⁾ (K⁽¹⁾)ᵀ'
>>> to_unicode(r"\\frac{x}{\\sqrt{2}} \\in \\mathbb{R}^{3 \\times 2}")
'x/√2 ∈ ℝ³ˣ²'
>>> to_unicode(r"d_{\\text{model}} = H \\cdot d_h")
'd_model = H · dₕ'
>>> prose_to_unicode(r"scaled by $\\sqrt{d_h}$, as in scaled_dot_product_attention")
'scaled by √dₕ, as in scaled_dot_product_attention'
"""

from __future__ import annotations

import re
from functools import lru_cache
from typing import TYPE_CHECKING

from .mathread import math_tree, spans

if TYPE_CHECKING:
    from pylatexenc.latexwalker import LatexNode

SUP = dict(zip("0123456789+-=()ghijknmTx×", "⁰¹²³⁴⁵⁶⁷⁸⁹⁺⁻⁼⁽⁾ᵍʰⁱʲᵏⁿᵐᵀˣˣ"))
SUB = dict(zip("0123456789+-=()aehijklmnoprstuvx", "₀₁₂₃₄₅₆₇₈₉₊₋₌₍₎ₐₑₕᵢⱼₖₗₘₙₒₚᵣₛₜᵤᵥₓ"))
SYMBOLS = {
    "times": "×", "cdot": "·", "top": "ᵀ", "infty": "∞", "sum": "Σ", "max": "max", "in": "∈",
    "le": "≤", "leq": "≤", "ge": "≥", "approx": "≈", "ldots": "…", "cdots": "⋯", "vdots": "⋮",
    "ddots": "⋱", "quad": "  ", "qquad": "    ", ",": " ", ";": " ", "!": "", " ": " ", "left": "",
    "right": "", "exp": "exp", "log": "log", "to": "→", "ne": "≠", "mid": "|", "lt": "<", "gt": ">",
    "ell": "ℓ", "alpha": "α", "beta": "β", "theta": "θ", "partial": "∂", "delta": "δ", "varepsilon": "ε", "mapsto": "↦", "odot": "⊙", "leftarrow": "←", "textstyle": "",
    "displaystyle": "",
    "{": "{", "}": "}", "%": "%", "_": "_", "&": "&", "#": "#",
}
PLAIN = frozenset("\\^_{}")          # a formula without these characters reads the same in Unicode
TEXT = ("text", "mathrm", "operatorname", "mathbf", "textrm")
BLACKBOARD = {"R": "ℝ", "N": "ℕ"}
ACCENTS = {"tilde": "\u0303", "hat": "\u0302", "bar": "\u0304"}


@lru_cache(maxsize=4096)
def to_unicode(latex: str) -> str:
    """One formula (without its $ signs) in Unicode."""
    if PLAIN.isdisjoint(latex):
        return latex                    # no command, group or script: nothing to convert
    return _Emitter(latex).emit(math_tree(latex))


def prose_to_unicode(text: str) -> str:
    """Prose with $...$ inline math: each formula in Unicode, the prose as written."""
    return "".join(to_unicode(s.source) if s.math else s.source for s in spans(text))


class _Emitter:
    """Walks pylatexenc's nodes of `src`, reading characters by position (see `mathread.math_tree`)."""

    def __init__(self, src: str):
        self.src = src

    def emit(self, nodes: list[LatexNode] | None) -> str:
        return "".join(self.node(n) for n in nodes or () if n is not None)

    def args(self, node: LatexNode) -> list[str]:
        return [self.emit([a]) if a is not None else "" for a in node.nodeargd.argnlist] if node.nodeargd else []

    def node(self, node: LatexNode) -> str:
        from pylatexenc import latexwalker as lw
        if isinstance(node, lw.LatexCharsNode):
            return self.src[node.pos:node.pos + node.len]
        if isinstance(node, (lw.LatexGroupNode, lw.LatexMathNode, lw.LatexEnvironmentNode)):
            return self.emit(node.nodelist)
        if isinstance(node, lw.LatexSpecialsNode):
            if node.specials_chars in ("^", "_"):
                arg = node.nodeargd.argnlist[0]
                if _is_word(arg):          # d_{\text{model}}: a word stays a word, d_model, not a row of small letters
                    return node.specials_chars + self.emit([arg])
                return _script(self.emit([arg]), node.specials_chars)
            return node.specials_chars
        if isinstance(node, lw.LatexMacroNode):
            return _macro(node.macroname, self.args(node), node.macro_post_space)
        return self.src[node.pos:node.pos + node.len]       # a comment: as written


def _is_word(node: LatexNode) -> bool:
    """A script that is one \\text{...} (or \\mathrm{...}) word."""
    from pylatexenc import latexwalker as lw
    inner = node.nodelist if isinstance(node, lw.LatexGroupNode) else [node]
    return len(inner) == 1 and isinstance(inner[0], lw.LatexMacroNode) and inner[0].macroname in TEXT


def _macro(name: str, args: list[str], post_space: str) -> str:
    if name in TEXT:
        return args[0]
    if name == "mathbb":
        return BLACKBOARD.get(args[0], args[0])
    if name == "frac":
        return f"{_wrap(args[0])}/{_wrap(args[1])}"
    if name == "sqrt":
        a = args[-1]
        return "√" + (a if len(a) == 1 or a.replace(".", "").isalnum() else f"({a})")
    if name in ACCENTS:
        return args[0] + ACCENTS[name]
    if name in ("displaystyle", "textstyle"):       # a size, not a symbol: nothing, and no space after it
        return ""
    return SYMBOLS.get(name, name) + post_space


def _wrap(s: str) -> str:
    return s if re.fullmatch(r"[\w.√⁽⁾¹²³⁴⁵⁶⁷⁸⁹⁰ᵀ()]+", s) else f"({s})"


def _script(raw: str, mark: str) -> str:
    """A superscript (^) or subscript (_) in Unicode where every character has one, else ^x / _(x y)."""
    table = SUP if mark == "^" else SUB
    if raw == "ᵀ":
        return raw
    compact = raw.replace(" ", "")
    if compact and all(ch in table for ch in compact):
        return "".join(table[ch] for ch in compact)
    if len(raw) == 1 or raw.replace("_", "").isalnum():
        return mark + raw
    return f"{mark}({raw})"


def superscript(n: int) -> str:
    """An integer as superscript digits: 300 -> ³⁰⁰ (for 10^n in the terminal's numbers)."""
    return "".join(SUP[ch] for ch in str(n))
