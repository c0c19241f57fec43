"""Five ways pages write sizes and rough values that were taken for slips (outside trials t265a and t265b, notes on
inference memory and an AI-written textbook in LaTeX), each now read as its author meant it, with a real slip of
the same form still found:

- `α = 0.01 ~ 0.1`: a tilde between two numbers far apart is a range of typical values, no approximation;
- `grad ≈ 2 × 12 × 0.9998` over `= 24`: an `=` after the line's `≈` carries the approximation on;
- `50000 × 2048 = 97.65625 M`: a page that counts parameters in powers of 1024 (M = 2²⁰);
- `= 1.04 PFLOPs`: a result in the unit written, petaflops included (it was judged by the unit and reported even
  when right);
- `≈ 6.3 MB` in one display, then `Total: ≈ 130 MB` in the next: a loose total under its parts, two sizes side by
  side, not 6.3 MB rounded to 130 MB in another unit.

My own numbers throughout."""

from check_helpers import error_findings

_MD = """# Notes on a small model

Typical values for the auxiliary weight: α = 0.01 ~ 0.1

```
when the largest logit is 12:
  grad ≈ 2 × 12 × 0.9998
       = {grad}
```

Embedding parameters = vocab × width = 50000 × 2048 = {emb} M

Prefill and decode together: 2 × 13 × 10^9 × 40000 = {flops} PFLOPs
"""

_TEX = r"""\documentclass{article}
\begin{document}
\section{Memory}
\begin{equation}
\text{Weights:} \quad 60\text{M} \times 2 = 120\text{ MB}
\end{equation}
\begin{equation}
\text{Cache:} \quad 2 \times 6 \times 8 \times 512 \times 64 \times 2 = {cache}\text{ MB}
\end{equation}
\begin{equation}
\text{Total:} \quad \approx 130\text{ MB}
\end{equation}
\end{document}
"""


def _md(grad="24", emb="97.65625", flops="1.04"):
    return _MD.replace("{grad}", grad).replace("{emb}", emb).replace("{flops}", flops)


def test_loosely_written_values_hold():
    assert error_findings(_md()) == []
    assert error_findings(_TEX.replace("{cache}", "6.3"), "tex") == []


def test_slips_of_the_same_forms_are_found():
    assert [(f.line, f.printed) for f in error_findings(_md(grad="28"))] == [(8, "28")]
    assert [(f.line, f.printed) for f in error_findings(_md(emb="107.65625"))] == [(11, "107.65625 M")]
    assert [(f.line, f.printed) for f in error_findings(_md(flops="1.64"))] == [(13, "1.64")]
    assert [(f.line, f.printed) for f in error_findings(_TEX.replace("{cache}", "8.3"), "tex")] == [(8, "8.3")]


_OUTSIDE = r"""# Memory of a run

- **Memory:** 16 bytes/param × $2.05 \times 10^9 \approx 32.8$ GB.
- Logits: $1024 \times 32000 \approx 33 \times 10^6$ elements.
- Total per batch $\,\approx 2.41 \times 10^9$ floats.
"""


def test_a_factor_outside_the_formula_and_a_value_after_a_thin_space_are_no_slips():
    # "16 bytes/param ×" stands outside the formula, which then reads 2.05e9 ≈ 32.8: a number and what it leads
    # to, nothing worked between them; "Total per batch $\,≈ ...$" is the value of its own words, not the end of
    # the formula on the line above
    assert error_findings(_OUTSIDE) == []
