"""Write the closed-form check documents and their manifest (run: python tests/check_exact/make.py).

Six worked examples that state attention weights and outputs as closed forms (e^{1/√2}/(e^{1/√2} + 2),
e/(1 + 2e), 1/(1 + e^{-3/4})) and as 12-digit decimals, in the styles a teacher writes them: a homework
solution in Markdown, beamer slides, Chinese lecture notes in Markdown and in LaTeX, a plain-text answer key
and a blog page in HTML.  Every claim is written here twice: as the text the document shows and as the
sympy expression it means.  Before anything is written, each expression is proved equal to the exact value
of `mha.exact.exact_layer` (or, for a decimal, to be its correct 12-digit rounding), and each planted slip is
proved to change both the text and the value.  The manifest has the format of tests/check_heldout.
"""

from __future__ import annotations

import json
from pathlib import Path

import sympy as sp

from mha.exact import exact_layer

HERE = Path(__file__).resolve().parent
E, r2, r3 = sp.E, sp.sqrt(2), sp.sqrt(3)


def exp(x):
    return sp.exp(x)


# Each document: its input configuration, a text template with {slots}, and per slot (the text, its meaning,
# the exact value it claims: (array, b, h, i, j) of the exact layer).  A slip replaces one slot's text.
DOCS = [
    dict(
        file="md_homework_solution_seed.md", format="md", lang="en",
        notes="a homework solution: the seed example (two heads, identity weights), closed forms with "
              "e^{1/\\sqrt{2}}, a 12-digit value, the document's 0.7518 explained",
        config={"X": [[1, 0, 1, 0], [0, 1, 0, 1], [1, 1, 0, 0]], "n_heads": 2},
        text="""# Homework 4, problem 2: solution

We use $X$ with rows $x_1 = (1, 0, 1, 0)$, $x_2 = (0, 1, 0, 1)$, $x_3 = (1, 1, 0, 0)$, two heads of width
$d_k = 2$ and identity weights, so head 1 sees the first two features: $Q^{(1)} = K^{(1)} = V^{(1)}$ with rows
$(1, 0)$, $(0, 1)$, $(1, 1)$.

**(a)** The scaled scores of token 3 in head 1 are $\\frac{{1}}{{\\sqrt{{2}}}}, \\frac{{1}}{{\\sqrt{{2}}}}, \\frac{{2}}{{\\sqrt{{2}}}}$.

**(b)** Exponentiate and normalise. Keep the answer exact:

$$A^{{(1)}}_{{31}} = {a31}$$

$$A^{{(1)}}_{{33}} = {a33}$$

For token 1 the scores are $\\frac{{1}}{{\\sqrt{{2}}}}, 0, \\frac{{1}}{{\\sqrt{{2}}}}$, so

$$A^{{(1)}}_{{11}} = {a11}$$

**(c)** The output of token 3 in head 1 mixes the value rows:

$$o^{{(1)}}_{{3,1}} = {o31} = {o31_value}$$

Many solutions hand in 0.7518: that comes from adding the rounded weights 0.2483 + 0.5035. The exact value
rounds to 0.7517.
""",
        slots={
            "a31": (r"\frac{1}{2 + e^{1/\sqrt{2}}}", 1 / (2 + exp(1 / r2)), ("A", 0, 0, 2, 0)),
            "a33": (r"\frac{e^{1/\sqrt{2}}}{e^{1/\sqrt{2}} + 2}", exp(1 / r2) / (exp(1 / r2) + 2), ("A", 0, 0, 2, 2)),
            "a11": (r"\frac{e^{1/\sqrt{2}}}{2e^{1/\sqrt{2}} + 1}", exp(1 / r2) / (2 * exp(1 / r2) + 1),
                    ("A", 0, 0, 0, 0)),
            "o31": (r"\frac{1 + e^{1/\sqrt{2}}}{2 + e^{1/\sqrt{2}}}", (1 + exp(1 / r2)) / (2 + exp(1 / r2)),
                    ("O", 0, 0, 2, 0)),
            "o31_value": ("0.751744921742", None, ("O", 0, 0, 2, 0)),
        },
        slips=[
            ("a33", r"\frac{e^{\sqrt{2}}}{e^{\sqrt{2}} + 2}", "softmax", "wrong_exponent"),
            ("a11", r"\frac{e^{1/\sqrt{2}}}{2e^{1/\sqrt{2}}}", "softmax", "missing_denominator_term"),
            ("o31_value", "0.751744912742", "weighted_sum", "swapped_digits"),
        ]),
    dict(
        file="tex_beamer_qkv_dk3.tex", format="tex", lang="en",
        notes="beamer slides: Q, K, V given, d_k = 3, so every exponent is over \\sqrt{3}",
        config={"Q": [[1, 1, 0], [0, 1, 1]], "K": [[1, 0, 1], [1, 1, 1], [0, 0, 1]], "V": [[1, 0], [0, 1], [1, 1]],
                "n_heads": 1},
        text="""\\documentclass{{beamer}}
\\begin{{document}}
\\begin{{frame}}{{Scores with $d_k = 3$}}
$Q = \\begin{{pmatrix}} 1 & 1 & 0 \\\\ 0 & 1 & 1 \\end{{pmatrix}}$,
$K = \\begin{{pmatrix}} 1 & 0 & 1 \\\\ 1 & 1 & 1 \\\\ 0 & 0 & 1 \\end{{pmatrix}}$,
$V = \\begin{{pmatrix}} 1 & 0 \\\\ 0 & 1 \\\\ 1 & 1 \\end{{pmatrix}}$

\\pause
Query 1 against the keys: $1, 2, 0$; divided by $\\sqrt{{d_k}} = \\sqrt{{3}}$.
\\end{{frame}}
\\begin{{frame}}{{Weights, exactly}}
\\begin{{align*}}
\\alpha_{{11}} &= {a11} \\\\
\\alpha_{{12}} &= {a12} \\\\
\\alpha_{{13}} &= {a13}
\\end{{align*}}
For query 2 the scores are $1, 2, 1$ over $\\sqrt{{3}}$:
\\[ \\alpha_{{22}} = {a22} \\]
\\end{{frame}}
\\begin{{frame}}{{Output}}
\\[ o_{{2,2}} = {o22} \\approx {o22_value} \\]
\\end{{frame}}
\\end{{document}}
""",
        slots={
            "a11": (r"\frac{e^{1/\sqrt{3}}}{e^{1/\sqrt{3}} + e^{2/\sqrt{3}} + 1}",
                    exp(1 / r3) / (exp(1 / r3) + exp(2 / r3) + 1), ("A", 0, 0, 0, 0)),
            "a12": (r"\frac{e^{2/\sqrt{3}}}{e^{1/\sqrt{3}} + e^{2/\sqrt{3}} + 1}",
                    exp(2 / r3) / (exp(1 / r3) + exp(2 / r3) + 1), ("A", 0, 0, 0, 1)),
            "a13": (r"\frac{1}{1 + e^{1/\sqrt{3}} + e^{2/\sqrt{3}}}", 1 / (1 + exp(1 / r3) + exp(2 / r3)),
                    ("A", 0, 0, 0, 2)),
            "a22": (r"\frac{1}{1 + 2e^{-1/\sqrt{3}}}", 1 / (1 + 2 * exp(-1 / r3)), ("A", 0, 0, 1, 1)),
            "o22": (r"\frac{e^{1/\sqrt{3}} + e^{2/\sqrt{3}}}{2e^{1/\sqrt{3}} + e^{2/\sqrt{3}}}",
                    (exp(1 / r3) + exp(2 / r3)) / (2 * exp(1 / r3) + exp(2 / r3)), ("O", 0, 0, 1, 1)),
            "o22_value": ("0.735541538504", None, ("O", 0, 0, 1, 1)),
        },
        slips=[
            ("a12", r"\frac{e^{2/\sqrt{2}}}{e^{1/\sqrt{2}} + e^{2/\sqrt{2}} + 1}", "softmax", "wrong_sqrt_dk"),
            ("a13", r"\frac{1}{e^{1/\sqrt{3}} + e^{2/\sqrt{3}}}", "softmax", "missing_denominator_term"),
            ("o22_value", "0.735541583504", "weighted_sum", "swapped_digits"),
        ]),
    dict(
        file="md_lecture_notes_xxt_zh.md", format="md", lang="zh",
        notes="Chinese lecture notes: softmax(X X^T) X without scaling, forms in e and e^2 (e/(1+2e))",
        config={"X": [[1, 0], [0, 1], [1, 1]], "n_heads": 1, "scale": "none", "W_O": "none"},
        text="""# 第三讲 注意力的精确计算

取 $X$ 的三行为 $(1, 0)$、$(0, 1)$、$(1, 1)$，不做缩放，也没有输出投影，于是分数矩阵就是
$S = XX^\\top$，第一行是 $1, 0, 1$，第三行是 $1, 1, 2$。

例 1：第一行的注意力权重（分子分母都保留 $e$ 的幂，不约分）：

$$\\alpha_{{11}} = {a11}$$

$$\\alpha_{{12}} = {a12}$$

例 2：第三行，最大的分数是 $2$：

$$\\alpha_{{33}} = {a33}$$

$$\\alpha_{{31}} = {a31}$$

练习答案：$y_{{3,1}} = {y31}$，数值约为 ${y31_value}$。
""",
        slots={
            "a11": (r"\frac{e}{1 + 2e}", E / (1 + 2 * E), ("A", 0, 0, 0, 0)),
            "a12": (r"\frac{1}{1 + 2e}", 1 / (1 + 2 * E), ("A", 0, 0, 0, 1)),
            "a33": (r"\frac{e}{e + 2}", E / (E + 2), ("A", 0, 0, 2, 2)),
            "a31": (r"\frac{1}{2 + e}", 1 / (2 + E), ("A", 0, 0, 2, 0)),
            "y31": (r"\frac{1 + e}{2 + e}", (1 + E) / (2 + E), ("Y", 0, None, 2, 0)),
            "y31_value": ("0.788058442383", None, ("Y", 0, None, 2, 0)),
        },
        slips=[
            ("a11", r"\frac{e^{2}}{1 + 2e}", "softmax", "wrong_exponent"),
            ("a33", r"\frac{e}{e + 1}", "softmax", "missing_denominator_term"),
            ("y31_value", "0.788058424383", "output", "swapped_digits"),
        ]),
    dict(
        file="txt_answer_key_causal.txt", format="txt", lang="en",
        notes="a plain-text answer key: causal, one head, d_k = 2, exp(...) and sqrt(...) written in ASCII",
        config={"X": [[1, 0], [0, 1], [1, 1]], "n_heads": 1, "causal": True},
        text="""ANSWER KEY -- Quiz 3 (causal self-attention, one head, d_k = 2, W = I)

X = [[1, 0], [0, 1], [1, 1]]; scores are divided by sqrt(2); token i sees tokens 1..i.

Q1. Row 1 sees only itself: A[1,1] = 1.
Q2. Row 2:
    A[2,1] = {a21}
    A[2,2] = {a22}
Q3. Row 3 (scores 1/sqrt(2), 1/sqrt(2), 2/sqrt(2)):
    A[3,1] = {a31} = {a31_value}
    A[3,3] = {a33}
Q4. Output o_2 (first coordinate): {o21}
""",
        slots={
            "a21": ("1/(1 + exp(1/sqrt(2)))", 1 / (1 + exp(1 / r2)), ("A", 0, 0, 1, 0)),
            "a22": ("exp(1/sqrt(2))/(1 + exp(1/sqrt(2)))", exp(1 / r2) / (1 + exp(1 / r2)), ("A", 0, 0, 1, 1)),
            "a31": ("1/(2 + exp(1/sqrt(2)))", 1 / (2 + exp(1 / r2)), ("A", 0, 0, 2, 0)),
            "a31_value": ("0.248255078258", None, ("A", 0, 0, 2, 0)),
            "a33": ("1/(1 + 2*exp(-1/sqrt(2)))", 1 / (1 + 2 * exp(-1 / r2)), ("A", 0, 0, 2, 2)),
            "o21": ("1/(1 + exp(1/sqrt(2)))", 1 / (1 + exp(1 / r2)), ("O", 0, 0, 1, 0)),
        },
        slips=[
            ("a22", "exp(-1/sqrt(2))/(1 + exp(1/sqrt(2)))", "softmax", "dropped_sign"),
            ("a33", "1/(1 + 2*exp(-1/sqrt(3)))", "softmax", "wrong_sqrt_dk"),
            ("a31_value", "0.248255078285", "softmax", "swapped_digits"),
        ]),
    dict(
        file="tex_lecture_inv_dk_zh.tex", format="tex", lang="zh",
        notes="Chinese LaTeX lecture notes: scores divided by d_k = 2 (not its root), exponents in halves",
        config={"X": [[1, 0], [0, 1], [1, 1]], "n_heads": 1, "scale": "1/d_k"},
        text="""\\documentclass{{ctexart}}
\\begin{{document}}
\\section*{{例题：按 $d_k$ 缩放}}
本例把分数除以 $d_k = 2$（而不是 $\\sqrt{{d_k}}$）。$X$ 的三行为 $(1,0)$、$(0,1)$、$(1,1)$，
权重都是单位矩阵，所以第一行的分数是 $\\tfrac12, 0, \\tfrac12$。
\\begin{{align*}}
A_{{11}} &= {a11} \\\\
A_{{12}} &= {a12} \\\\
A_{{33}} &= {a33}
\\end{{align*}}
第三行第一个元素：$A_{{31}} = {a31} \\approx {a31_value}$。
\\end{{document}}
""",
        slots={
            "a11": (r"\frac{e^{1/2}}{2e^{1/2} + 1}", exp(sp.Rational(1, 2)) / (2 * exp(sp.Rational(1, 2)) + 1),
                    ("A", 0, 0, 0, 0)),
            "a12": (r"\frac{1}{1 + 2\sqrt{e}}", 1 / (1 + 2 * sp.sqrt(E)), ("A", 0, 0, 0, 1)),
            "a33": (r"\frac{e^{1/2}}{2 + e^{1/2}}", exp(sp.Rational(1, 2)) / (2 + exp(sp.Rational(1, 2))),
                    ("A", 0, 0, 2, 2)),
            "a31": (r"\frac{1}{2 + \sqrt{e}}", 1 / (2 + sp.sqrt(E)), ("A", 0, 0, 2, 0)),
            "a31_value": ("0.274068619061", None, ("A", 0, 0, 2, 0)),
        },
        slips=[
            ("a11", r"\frac{e}{2e + 1}", "softmax", "wrong_exponent"),
            ("a33", r"\frac{e^{1/2}}{2 + e^{1/2} + 1}", "softmax", "extra_denominator_term"),
            ("a31_value", "0.274068691061", "softmax", "swapped_digits"),
        ]),
    dict(
        file="html_blog_fractions.html", format="html", lang="en",
        notes="a blog page in HTML with MathJax: inputs with halves, no scaling, forms over the row's "
              "largest exponential (1/(1 + e^{-3/4}))",
        config={"X": [[1, 0.5], [0, 1]], "n_heads": 1, "scale": "none", "W_O": "none"},
        text="""<!DOCTYPE html>
<html><head><meta charset="utf-8"><title>Attention with halves</title></head>
<body>
<h1>Two tokens, exactly</h1>
<p>Take \\(x_1 = (1, \\tfrac12)\\) and \\(x_2 = (0, 1)\\), no scaling and no projections, so
\\(S = XX^\\top\\) has rows \\(\\tfrac54, \\tfrac12\\) and \\(\\tfrac12, 1\\).</p>
<p>Divide each row by its largest exponential:</p>
<p>\\[ a_{{11}} = {a11}, \\qquad a_{{12}} = {a12} \\]</p>
<p>\\[ a_{{21}} = {a21}, \\qquad a_{{22}} = {a22} \\]</p>
<p>The first output coordinate of token 2 is \\( y_{{21}} = {y21} \\), which is {y21_value} to twelve places.</p>
</body></html>
""",
        slots={
            "a11": (r"\frac{1}{1 + e^{-3/4}}", 1 / (1 + exp(sp.Rational(-3, 4))), ("A", 0, 0, 0, 0)),
            "a12": (r"\frac{e^{-3/4}}{1 + e^{-3/4}}", exp(sp.Rational(-3, 4)) / (1 + exp(sp.Rational(-3, 4))),
                    ("A", 0, 0, 0, 1)),
            "a21": (r"\frac{e^{-1/2}}{1 + e^{-1/2}}", exp(sp.Rational(-1, 2)) / (1 + exp(sp.Rational(-1, 2))),
                    ("A", 0, 0, 1, 0)),
            "a22": (r"\frac{1}{1 + e^{-1/2}}", 1 / (1 + exp(sp.Rational(-1, 2))), ("A", 0, 0, 1, 1)),
            "y21": (r"\frac{e^{-1/2}}{1 + e^{-1/2}}", exp(sp.Rational(-1, 2)) / (1 + exp(sp.Rational(-1, 2))),
                    ("Y", 0, None, 1, 0)),
            "y21_value": ("0.377540668798", None, ("Y", 0, None, 1, 0)),
        },
        slips=[
            ("a12", r"\frac{e^{3/4}}{1 + e^{-3/4}}", "softmax", "dropped_sign"),
            ("a22", r"\frac{1}{e^{-1/2}}", "softmax", "missing_denominator_term"),
            ("y21_value", "0.377540668789", "output", "swapped_digits"),
        ]),
]


def fill(template, values):
    """The template with its {slot} markers filled and its doubled braces {{ }} made single (as str.format,
    but a single brace that is not a slot, as in Q^{(1)}, is left as it is)."""
    import re
    marked = re.sub(r"(?<!\{)\{(\w+)\}(?!\})", lambda m: f"\0{m.group(1)}\0" if m.group(1) in values else m.group(0),
                    template)
    text = marked.replace("{{", "{").replace("}}", "}")
    return re.sub("\0(\\w+)\0", lambda m: values[m.group(1)], text)


def exact_of(steps, ref):
    name, b, h, i, j = ref
    arr = getattr(steps, name)
    return arr[b, i, j] if h is None else arr[b, h, i, j]


def decimal_of(text):
    return sp.Rational(text)


def claims_hold(value_text, meaning, exact):
    """A closed form is the exact value (sympy proves the difference is 0, else 60 digits agree); a decimal
    is its correct rounding to the places it shows."""
    if meaning is None:
        places = len(value_text.split(".")[1])
        return sp.Rational(value_text) == sp.Rational(round(sp.N(exact, 40) * 10 ** places), 10 ** places)
    diff = sp.simplify(meaning - exact)
    return diff == 0 or abs(sp.N(meaning - exact, 60)) < sp.Float(10) ** -55


def main() -> None:
    manifest = []
    for doc in DOCS:
        steps = exact_layer(doc["config"])
        for name, (text, meaning, ref) in doc["slots"].items():
            assert claims_hold(text, meaning, exact_of(steps, ref)), (doc["file"], name, text)
        body = fill(doc["text"], {k: v[0] for k, v in doc["slots"].items()})
        slips = []
        for slot, wrong, step, kind in doc["slips"]:
            right, meaning, ref = doc["slots"][slot]
            assert body.count(right) >= 1 and wrong != right
            # the slip is wrong: parse nothing, evaluate the slip's own meaning by replacing in the sympy form
            slipped = wrong_meaning(doc, slot, wrong)
            assert not claims_hold(wrong, slipped, exact_of(steps, ref)), (doc["file"], slot, wrong)
            line = next(n for n, text in enumerate(body.splitlines(), 1) if right in text)
            slips.append({"find": right, "replace": wrong, "line": line, "step": step, "kind": kind})
        for s in slips:
            assert body.count(s["find"]) == 1 or s["find"] in body.splitlines()[s["line"] - 1], s
        (HERE / doc["file"]).write_text(body, encoding="utf-8")
        manifest.append({"file": doc["file"], "format": doc["format"], "lang": doc["lang"],
                         "config": doc["config"], "notes": doc["notes"], "slips": slips})
    (HERE / "manifest.json").write_text(json.dumps({"documents": manifest}, ensure_ascii=False, indent=1) + "\n",
                                        encoding="utf-8")
    print(f"{len(manifest)} documents, {sum(len(d['slips']) for d in manifest)} slips")


# What each planted slip means, written as sympy (the slips are few; each is spelled out by hand).
SLIP_MEANINGS = {
    r"\frac{e^{\sqrt{2}}}{e^{\sqrt{2}} + 2}": exp(r2) / (exp(r2) + 2),
    r"\frac{e^{1/\sqrt{2}}}{2e^{1/\sqrt{2}}}": sp.Rational(1, 2),
    r"\frac{e^{2/\sqrt{2}}}{e^{1/\sqrt{2}} + e^{2/\sqrt{2}} + 1}": exp(2 / r2) / (exp(1 / r2) + exp(2 / r2) + 1),
    r"\frac{1}{e^{1/\sqrt{3}} + e^{2/\sqrt{3}}}": 1 / (exp(1 / r3) + exp(2 / r3)),
    r"\frac{e^{2}}{1 + 2e}": E ** 2 / (1 + 2 * E),
    r"\frac{e}{e + 1}": E / (E + 1),
    "exp(-1/sqrt(2))/(1 + exp(1/sqrt(2)))": exp(-1 / r2) / (1 + exp(1 / r2)),
    "1/(1 + 2*exp(-1/sqrt(3)))": 1 / (1 + 2 * exp(-1 / r3)),
    r"\frac{e}{2e + 1}": E / (2 * E + 1),
    r"\frac{e^{1/2}}{2 + e^{1/2} + 1}": exp(sp.Rational(1, 2)) / (3 + exp(sp.Rational(1, 2))),
    r"\frac{e^{3/4}}{1 + e^{-3/4}}": exp(sp.Rational(3, 4)) / (1 + exp(sp.Rational(-3, 4))),
    r"\frac{1}{e^{-1/2}}": exp(sp.Rational(1, 2)),
}


def wrong_meaning(doc, slot, wrong):
    if doc["slots"][slot][1] is None:
        return None                            # a decimal: its text is its meaning
    return SLIP_MEANINGS[wrong]


if __name__ == "__main__":
    main()
