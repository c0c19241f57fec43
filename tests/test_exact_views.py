"""`mha explain --exact` and `--precision N` above 12: goldens, closed forms read back, digits, refusals, start-up."""

import os
import re
import shutil
import subprocess
import sys
from decimal import ROUND_HALF_EVEN, Decimal, localcontext
from pathlib import Path

import numpy as np
import pytest

sp = pytest.importorskip("sympy")
mpmath = pytest.importorskip("mpmath")

import mha  # noqa: E402
from mha.exact import exact_layer, float_input  # noqa: E402
from mha.explanation import LANGS  # noqa: E402
from mha.explanation.blocks import Items  # noqa: E402

from test_exact import random_config  # noqa: E402

ROOT = Path(__file__).resolve().parents[1]
GOLDEN = ROOT / "tests" / "golden"
UPDATE = os.environ.get("MHA_UPDATE_GOLDEN") == "1"
RENDER = {"txt": lambda ex: ex.to_text(color=False, width=100), "md": lambda ex: ex.to_markdown(),
          "tex": lambda ex: ex.to_latex(), "html": lambda ex: ex.to_html()}


# ------------------------------------------------------------------ goldens

@pytest.mark.parametrize("lang", LANGS)
@pytest.mark.parametrize("ext", sorted(RENDER))
def test_golden_document_exact(lang, ext):
    """Regenerate with: MHA_UPDATE_GOLDEN=1 python -m pytest tests/test_exact_views.py -k golden"""
    text = RENDER[ext](mha.explain(mha.EXAMPLES["document"].data, lang=lang, exact=True))
    path = GOLDEN / f"document-exact.{lang}.{ext}"
    if UPDATE:
        path.write_text(text, encoding="utf-8")
    assert path.exists(), f"missing golden file {path}; run with MHA_UPDATE_GOLDEN=1"
    assert text == path.read_text(encoding="utf-8")


def test_cli_exact_is_the_golden(run_cli):
    code, out, err = run_cli("explain", "--example", "document", "--exact", "--format", "md", "--lang", "en")
    assert code == 0, err
    assert out == (GOLDEN / "document-exact.en.md").read_text(encoding="utf-8")


def test_seed_closed_forms_as_the_readme_writes_them():
    md = mha.explain(exact=True, lang="en").to_markdown()
    for line in (r"$\displaystyle A^{(1)}_{31} = A^{(1)}_{32} = \frac{1}{2 + e^{\sqrt{2}/2}} \approx 0.2483$",
                 r"$\displaystyle A^{(1)}_{33} = \frac{e^{\sqrt{2}/2}}{2 + e^{\sqrt{2}/2}} \approx 0.5035$",
                 r"$\displaystyle O^{(1)}_{31} = O^{(1)}_{32} = \frac{1 + e^{\sqrt{2}/2}}{2 + e^{\sqrt{2}/2}} \approx 0.7517$",
                 r"$\displaystyle A^{(2)}_{31} = A^{(2)}_{32} = A^{(2)}_{33} = \frac{1}{3} \approx 0.3333$"):
        assert line in md, line
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    assert r"\frac{1 + e^{\sqrt{2}/2}}{2 + e^{\sqrt{2}/2}}" in readme


# ------------------------------------------------------------------ every closed form, read back

def closed_form_items(ex):
    """(section key, the entries named, closed form, relation, decimal) of every closed-form line:
    "$A_{31} = A_{32} = FORM \\approx 0.2483$", "$... = FORM = 0.5$" (an exact decimal) or "$... = 1$"."""
    for sec in ex.sections:
        for b in sec.blocks:
            if not isinstance(b, Items):
                continue
            for item in b.items:
                if not (item.startswith("$") and item.endswith("$")) or item.count("$") != 2:
                    continue
                parts = item[1:-1].removeprefix("\\displaystyle ").split(" = ")
                names = [p for p in parts if ENTRY.match(p)]
                rest = parts[len(names):]
                if not names or parts[:len(names)] != names or len(rest) not in (1, 2):
                    continue
                if len(rest) == 2:
                    yield sec.key, names, rest[0], "=", rest[1]
                elif " \\approx " in rest[0]:
                    form, dec = rest[0].split(" \\approx ")
                    yield sec.key, names, form, "\\approx", dec
                else:
                    yield sec.key, names, rest[0], "=", rest[0]


class FormReader:
    """A small recursive-descent reader of the closed forms' LaTeX, written for these tests (sympy's own
    LaTeX parser is an ambiguous Earley grammar that takes minutes on a long denominator):

        sum     := term (("+" | "-") term)*
        term    := ["-"] product ["/" factor]          2 \\sqrt{3}/3 is (2√3)/3, as it reads
        product := factor factor*                      juxtaposition multiplies
        factor  := number | e^{sum} | \\frac{sum}{sum} | \\sqrt{sum} | \\cos[^{n}]{\\left(sum \\right)} | \\sin…
                 | {sum} | (sum) | \\left(sum\\right)
    A decimal is read as the fraction it writes."""

    TOKEN = re.compile(r"\s*(\\frac|\\sqrt|\\cos|\\sin|\\left\(|\\right\)|\d+(?:\.\d+)?|[-+/^{}()e])")

    def __init__(self, text):
        self.tokens, pos = [], 0
        while pos < len(text.rstrip()):
            m = self.TOKEN.match(text, pos)
            assert m, f"cannot read {text[pos:]!r} in {text!r}"
            self.tokens.append(m.group(1))
            pos = m.end()
        self.i = 0

    def peek(self):
        return self.tokens[self.i] if self.i < len(self.tokens) else None

    def take(self, want=None):
        tok = self.peek()
        assert want is None or tok == want, (want, tok, self.tokens)
        self.i += 1
        return tok

    def read(self):
        value = self.sum()
        assert self.peek() is None, self.tokens[self.i:]
        return value

    def sum(self):
        value = self.term()
        while self.peek() in ("+", "-"):
            value = value + self.term() if self.take() == "+" else value - self.term()
        return value

    def term(self):
        sign = -1 if self.peek() == "-" and self.take() else 1
        value = self.factor()
        while self.peek() not in (None, "+", "-", "/", "}", ")", "\\right)"):
            value = value * self.factor()
        if self.peek() == "/":
            self.take()
            value = value / self.factor()
        return sign * value

    def group(self, open_="{", close="}"):
        self.take(open_)
        value = self.sum()
        self.take(close)
        return value

    def factor(self):
        tok = self.take()
        if re.fullmatch(r"\d+(?:\.\d+)?", tok):
            return sp.Rational(tok)
        if tok == "e":
            self.take("^")
            return sp.exp(self.group())
        if tok == "\\frac":
            return self.group() / self.group()
        if tok == "\\sqrt":
            return sp.sqrt(self.group())
        if tok in ("\\cos", "\\sin"):                  # \\cos{\\left(1 \\right)}, \\cos^{2}{\\left(1 \\right)}
            power = self.take("^") and self.group() if self.peek() == "^" else 1
            self.take("{")
            arg = self.group("\\left(", "\\right)")
            self.take("}")
            return (sp.cos if tok == "\\cos" else sp.sin)(arg) ** power
        if tok in ("{", "(", "\\left("):
            self.i -= 1
            return self.group(tok, {"{": "}", "(": ")", "\\left(": "\\right)"}[tok])
        raise AssertionError(f"unexpected {tok!r} in {self.tokens}")


def read_latex(form):
    return FormReader(form).read()


ENTRY = re.compile(r"^(?:\\left\()?(?P<sym>[^=]+?)(?:\\right\))?_\{(?P<i>\d),?(?P<j>\d)\}$")


def exact_value(steps, key, sym, i, j, b=0):
    """The exact value of entry (i, j) of the matrix named sym in section key (independent of the view)."""
    h = int(key[4:key.index(".")]) - 1 if key.startswith("head") and "." in key else None
    if sym.startswith("A^"):
        return steps.A[b, h, i, j]
    if sym.startswith("O^"):
        return steps.O[b, h, i, j]
    if sym.startswith("S^"):
        return steps.S[b, h, i, j]
    if sym == "Y":
        return steps.Y[b, i, j]
    if key.endswith(".scores"):
        return steps.QKt[b, h, i, j]
    return None


@pytest.mark.parametrize("seed", range(0, 120, 4))
def test_every_closed_form_shown_is_the_exact_value(seed):
    """The LaTeX of each line, parsed back by sympy, is the exact value at 50 digits, and its decimal is the
    trace's; the lines name each shown entry of A, O (and S, Y) once."""
    data = random_config(seed)
    steps = exact_layer(data)
    ex = mha.explain(data, exact=True, lang="en", full=True)
    checked = 0
    for key, lhs, form, rel, dec in closed_form_items(ex):
        entries = [(name, ENTRY.match(name)) for name in lhs]
        value = read_latex(form)
        for name, m in entries:
            want = exact_value(steps, key, m.group("sym"), int(m.group("i")) - 1, int(m.group("j")) - 1)
            if want is None:
                continue
            assert abs(sp.N(value - want, 50)) < 1e-45, (key, name, form, want)
            checked += 1
            assert abs(float(dec) - float(sp.N(want, 30))) <= 0.5e-4 + 1e-12, (name, dec, want)
            assert (rel == "=") == (want.is_Rational and Decimal(dec) == Decimal(int(want.p)) / int(want.q))
    assert checked > 0


def test_ties_share_a_line_and_are_said_once():
    ex = mha.explain(exact=True, lang="en")
    lines = [(key, lhs) for key, lhs, *_ in closed_form_items(ex) if key == "head2.softmax"]
    assert ["A^{(2)}_{31}", "A^{(2)}_{32}", "A^{(2)}_{33}"] in [lhs for _, lhs in lines]
    md = ex.to_markdown()
    assert md.count("equal exactly, not just to the digits shown") == 1


def test_row_form_is_the_shortest():
    from mha.explanation.closed import Row, row_shift
    S = [sp.sqrt(2) / 2, sp.sqrt(2) / 2, sp.sqrt(2)]
    lengths = {d: sum(len(Row(tuple(S), d).weight(j)) for j in range(3)) for d in (sp.sqrt(2), sp.sqrt(2) / 2, 0)}
    assert lengths[row_shift(S)] == min(lengths.values())
    assert Row(tuple(S), sp.sqrt(2)).weight(2) == r"\frac{1}{1 + 2 e^{-\sqrt{2}/2}}"     # over the largest


# ------------------------------------------------------------------ digits beyond float64

def md_matrix(md, symbol):
    m = re.search(re.escape(symbol) + r" (?:=|\\approx) \\begin\{bmatrix\}\n(.*?)\n\\end\{bmatrix\}", md, re.S)
    return [[c.strip() for c in row.split("&")] for row in m.group(1).split("\\\\\n")]


@pytest.mark.parametrize("digits", [30, 50])
def test_precision_beyond_float64_against_the_closed_forms(run_cli, digits):
    code, md, err = run_cli("explain", "--format", "md", "--precision", str(digits), "--lang", "en")
    assert code == 0, err
    steps = exact_layer(mha.DOCUMENT_EXAMPLE)
    quantum = Decimal(1).scaleb(-digits)
    for h in range(2):
        for name, arr in ((f"A^{{({h + 1})}}", steps.A[0, h]), (f"O^{{({h + 1})}}", steps.O[0, h])):
            shown = md_matrix(md, name)
            for i, j in np.ndindex(*arr.shape):
                with mpmath.workdps(digits + 30):
                    exact = Decimal(mpmath.nstr(mpmath.mpf(arr[i, j].evalf(digits + 30)._mpf_), digits + 25))
                with localcontext() as ctx:
                    ctx.prec = 200
                    want = exact.quantize(quantum, rounding=ROUND_HALF_EVEN)
                assert shown[i][j] == str(want), (name, i, j, shown[i][j], want)
    assert "0.751744921742276930306813310450" in md            # the seed's 0.7518, correctly rounded at 30
    assert md.count("0.7518") == 0


def test_precision_beyond_float64_with_masks_gqa_and_alibi(run_cli, tmp_path):
    f = tmp_path / "in.json"
    f.write_text('{"X": [[1, 0.5, 0, 1], [0, 1, "1/3", 0], [1, 1, 0, 0.25]], "n_heads": 2, "n_kv_heads": 1, '
                 '"W_Q": "identity", "W_K": [[1, 0], [0, 1], [1, 0], [0, 1]], "W_V": [[1, 0], [0, 1], [0, 0], '
                 '[1, 1]], "W_O": "none", "causal": true, "alibi": true}')
    code, md, err = run_cli("explain", str(f), "--format", "md", "--precision", "20", "--lang", "en")
    assert code == 0, err
    steps = exact_layer(float_input({}) or __import__("json").loads(f.read_text(), parse_float=Decimal))
    shown = md_matrix(md, "A^{(2)}")
    for i, j in np.ndindex(3, 3):
        if steps.S[0, 1, i, j] == sp.S.NegativeInfinity:
            continue
        want = f"{mha.exact.to_decimal(steps.A[0, 1, i, j], 20):.20f}"
        assert shown[i][j] in (want, want.rstrip("0").rstrip(".")), (i, j)


@pytest.mark.parametrize("argv,needles", [
    (["--precision", "30", "--rope"], ["precision", "RoPE", "12 or less"]),
    (["--precision", "30", "--tiled"], ["precision", "--tiled"]),
    (["--precision", "30", "--weights", "random"], ["--precision 30", "random weights"]),
    (["--exact", "--weights", "random"], ["--exact", "random weights"]),
    (["--exact", "--dtype", "float32"], ["--exact", "float32"]),
    (["--exact", "--format", "json"], ["--exact", "json"]),
    (["--exact", "--x", "[[1, 1e-300]]", "--n-heads", "1"], ["X[0][1]", "1E-300", "not a short decimal"]),
    (["--exact", "--x", "[[0.1000000000000000055511]]", "--n-heads", "1"], ["X[0][0]", "22 significant digits"]),
    (["--exact", "--x", str(np.ones((23, 2), int).tolist()), "--n-heads", "1"], ["B·H·T·S", "529", "cap of 512"]),
])
def test_exact_refusals_are_one_line(run_cli, argv, needles):
    code, out, err = run_cli("explain", *argv)
    assert code == 2 and out == "" and err.count("\n") == 1 and "Traceback" not in err, err
    for needle in needles:
        assert needle in err, (needle, err)


def test_expression_cap_through_the_cli(run_cli, monkeypatch):
    import mha.exact
    monkeypatch.setattr(mha.exact, "MAX_NODES", 10)
    code, out, err = run_cli("explain", "--exact", "--format", "md")
    assert code == 2 and "past the cap of 10" in err and err.count("\n") == 1


# ------------------------------------------------------------------ start-up and other views

def test_explain_does_not_import_sympy():
    code = ("import sys; from mha.cli import main; main(['explain', '--format', 'md', '-o', '/dev/null']); "
            "main(['explain', '--format', 'text', '-o', '/dev/null']); "
            "print(sorted(m for m in ('sympy', 'mpmath') if m in sys.modules))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert out.strip() == "[]"
    code = code.replace("'md',", "'md', '--exact',")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert out.strip() == "['mpmath', 'sympy']"                 # the same check sees them when they are used


@pytest.mark.skipif(shutil.which("xelatex") is None, reason="xelatex not installed (.ci/run installs it)")
@pytest.mark.parametrize("lang", LANGS)
def test_exact_latex_compiles(tmp_path, lang):
    (tmp_path / "doc.tex").write_text((GOLDEN / f"document-exact.{lang}.tex").read_text(encoding="utf-8"),
                                      encoding="utf-8")
    p = subprocess.run(["xelatex", "-interaction=nonstopmode", "-halt-on-error", "doc.tex"], cwd=tmp_path,
                       capture_output=True, text=True, timeout=300)
    assert p.returncode == 0, p.stdout[-2000:]
    log = (tmp_path / "doc.log").read_text(errors="replace")
    assert "Missing character" not in log


def test_exact_terminal_text_is_plain_unicode():
    text = mha.explain(exact=True, lang="zh").to_text()
    assert "\\" not in text and "$" not in text
    assert "A⁽¹⁾₃₃ = (e^(√2/2))/(2 + e^(√2/2)) ≈ 0.5035" in text


def test_python_api_exact_from_a_trace_and_fractions():
    from fractions import Fraction
    t = mha.trace({"X": [[1, 0.5], [0.25, 1]], "n_heads": 1})
    md = mha.explain(t, exact=True, lang="en").to_markdown()          # the trace's floats, read by their repr
    assert "Closed forms" in md and "\\frac" in md
    md = mha.explain({"X": [[Fraction(1, 3), 1], [1, 0]], "n_heads": 1}, exact=True, lang="en").to_markdown()
    assert r"$\displaystyle X_{11} = \frac{1}{3} \approx 0.3333$" in md


@pytest.mark.parametrize("readme", ["README.md", "README.zh-CN.md"])
def test_readme_shows_what_explain_exact_prints(readme):
    """The closed forms the README quotes are lines of today's `mha explain --exact --format md`."""
    text = (ROOT / readme).read_text(encoding="utf-8")
    section = text[text.index("mha explain --exact"):]
    block = re.search(r"```text\n(.*?)```", section, re.S).group(1)
    md = mha.explain(exact=True, lang="en").to_markdown()
    lines = block.strip().splitlines()
    assert len(lines) == 4
    for line in lines:
        assert f"- {line}\n".replace("- $", "- $\\displaystyle ") in md, line
    assert "0.751744921742276930306813310450" in section
