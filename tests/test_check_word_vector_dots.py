"""Words given vectors, then their dot products by the words' own names, as a slide lists them:

    - "dog" → [0.4, 0.1, 0.9]          \\item ``dog'' → [0.4, 0.1, 0.9]
    - dog · ran = 0.55                  \\item dog · ran = 0.55

A dot product named by two words was no claim (names had to be single letters, `s_t · h_3`), and a LaTeX list item
in text mode was not read as a statement at all, so three wrong products on a course's beamer slide went unfound
(t231a).  Word names bind to the vectors printed under them, quoted or not (claims/nameddot.py), and a `\\item` that
is one short statement is read as one (readers/latex.py).  My own vectors."""

import numpy as np
import pytest

from check_helpers import error_findings

VEC = {"dog": [0.4, 0.1, 0.9], "ran": [0.2, 0.7, 0.5], "far": [0.8, 0.3, 0.1]}
PAIRS = [("dog", "ran"), ("dog", "far"), ("ran", "far")]


def _dots(slip=None):
    out = []
    for a, b in PAIRS:
        v = float(np.dot(VEC[a], VEC[b]))
        out.append((a, b, slip if (a, b) == ("dog", "far") and slip else f"{v:.2f}"))
    return out


def _md(slip=None):
    lines = ["# Full connections", "", "Every word becomes a vector:", ""]
    lines += [f'- "{w}" → [{", ".join(map(str, v))}]' for w, v in VEC.items()]
    lines += ["", "All the dot products:", ""] + [f"- {a} · {b} = {d}" for a, b, d in _dots(slip)]
    return "\n".join(lines) + "\n"


def _tex(slip=None):
    lines = [r"\documentclass{beamer}", r"\begin{document}", r"\begin{frame}", r"\begin{itemize}"]
    lines += [f"\\item ``{w}'' → [{', '.join(map(str, v))}]" for w, v in VEC.items()]
    lines += [r"\end{itemize}", r"\begin{itemize}"] + [f"\\item {a} · {b} = {d}" for a, b, d in _dots(slip)]
    lines += [r"\end{itemize}", r"\end{frame}", r"\end{document}"]
    return "\n".join(lines) + "\n"


@pytest.mark.parametrize("page,fmt", [(_md, "md"), (_tex, "tex")])
def test_the_products_hold_and_a_slip_is_found(page, fmt):
    assert error_findings(page(), fmt) == []
    errs = error_findings(page("0.53"), fmt)
    assert [(f.printed, f.rounded) for f in errs] == [("0.53", "0.44")], [f.describe() for f in errs]
