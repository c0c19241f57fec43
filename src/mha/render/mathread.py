"""Reading the explanations' LaTeX with pylatexenc: prose split into text and `$...$` math, and math as a tree.

pylatexenc 2 keeps `^` and `_` inside its character nodes; declaring them as
specials that take one argument makes its walker return them as nodes with
their script attached, so the views walk a proper tree and never tokenize.
pylatexenc is imported on first use: the Markdown view never needs it.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from pylatexenc.latexwalker import LatexNode


@dataclass(frozen=True)
class Span:
    """A piece of prose: plain text, or the LaTeX of one inline formula (without its $ signs)."""

    math: bool
    source: str


@lru_cache(maxsize=1)
def _contexts() -> tuple[Any, Any]:
    """The walker's vocabulary: none for prose (only `$` matters there), a small one for math.

    Only what the explanations write is declared; an unknown macro takes no
    argument, and few specials keep the walker fast (it tests each for every character).
    """
    from pylatexenc import macrospec

    prose = macrospec.LatexContextDb()
    math = macrospec.LatexContextDb()
    one_arg = macrospec.MacroStandardArgsParser("{")
    math.add_context_category("mha-math", specials=[
        macrospec.SpecialsSpec("^", args_parser=one_arg), macrospec.SpecialsSpec("_", args_parser=one_arg),
    ], macros=[macrospec.MacroSpec(name, "{") for name in ("text", "mathrm", "operatorname", "mathbf",
                                                             "textrm", "mathbb", "tilde", "hat", "bar")]
        + [macrospec.MacroSpec("frac", "{{"), macrospec.MacroSpec("sqrt", "[{")])
    return prose, math


# Digits are plain characters to the walker in prose and in math alike, so a text and its copy with every
# digit made 0 parse into the same tree at the same positions.  The explanations repeat one sentence per
# row and per head with other numbers in it; parsing the digit-free copy once serves all of them.
_ZEROS = str.maketrans("123456789", "000000000")


def math_tree(latex: str) -> list[LatexNode]:
    """The nodes of one formula (pylatexenc's LatexNode objects, `^` / `_` as specials with their argument).

    The nodes may come from a text with other digits: read characters at their positions in `latex`
    (node.pos, node.len), not from node.chars.
    """
    return _math_tree(latex.translate(_ZEROS))


@lru_cache(maxsize=4096)
def _math_tree(latex: str) -> list[LatexNode]:
    from pylatexenc.latexwalker import LatexWalker
    nodes, _, _ = LatexWalker(latex, latex_context=_contexts()[1], tolerant_parsing=True).get_latex_nodes()
    return nodes


def spans(text: str) -> tuple[Span, ...]:
    """Prose cut into text and inline math, as pylatexenc's walker finds the `$...$` pairs.

    The walker reads prose a character at a time, which made the terminal view's
    start-up 30 ms slower.  Where the text between the formulas holds nothing the
    walker treats specially (a backslash, a brace, a comment's %, or $$), its
    answer is the text split at each $, so that answer is taken directly; the
    tests check it against the walker on every catalog sentence.
    """
    pieces = text.split("$")
    if len(pieces) % 2 and not any(_SPECIAL.intersection(p) for p in pieces[0::2]) and all(pieces[1::2]):
        return tuple(Span(k % 2 == 1, p) for k, p in enumerate(pieces) if p)
    return walked_spans(text)


_SPECIAL = frozenset("\\{}%")       # in the prose between formulas, each would make the walker read a node


def walked_spans(text: str) -> tuple[Span, ...]:
    """spans() as pylatexenc's walker reads the text, for any text."""
    return tuple(Span(math, text[a:b]) for math, a, b in _cuts(text.translate(_ZEROS)))


@lru_cache(maxsize=4096)
def _cuts(text: str) -> tuple[tuple[bool, int, int], ...]:
    """(is math, start, end) of each piece of the prose; math without its delimiters."""
    if "$" not in text:
        return ((False, 0, len(text)),)
    from pylatexenc.latexwalker import LatexMathNode, LatexWalker
    nodes, _, _ = LatexWalker(text, latex_context=_contexts()[0], tolerant_parsing=True).get_latex_nodes()
    out: list[tuple[bool, int, int]] = []
    for node in nodes:
        if isinstance(node, LatexMathNode):
            opening, closing = node.delimiters
            out.append((True, node.pos + len(opening), node.pos + node.len - len(closing)))
        elif out and not out[-1][0]:
            out[-1] = (False, out[-1][1], node.pos + node.len)
        else:
            out.append((False, node.pos, node.pos + node.len))
    return tuple(out)
