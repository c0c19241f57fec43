"""Math as a stream of tokens, from LaTeX (walking pylatexenc's node tree) or from plain text.

Both front ends produce the same `Tok` stream, so one statement parser (statements.py)
reads `$$A^{(1)} \\approx \\begin{bmatrix}...\\end{bmatrix}$$`, the terminal's
`A⁽¹⁾ ≈ ⎡ 0.4011 ... ⎤`, a code comment `# scores: [[1, 0], [0, 1]]` and a NumPy printout.
The only hand-written lexing is of a run of characters (a pylatexenc chars node, or a
line of plain text) into numbers, names and operators.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from ..numbers import NEG_INF, POS_INF, Num


@dataclass
class Tok:
    """One token.  kind: NUM ID OP REL SEP ELL INF TRANS GROUP FRAC SQRT MATRIX TEXT."""
    kind: str
    text: str
    pos: int = 0                 # offset in the segment's text (for its line)
    num: Num | None = None
    args: list = field(default_factory=list)   # GROUP: [toks]; FRAC: [num, den]; SQRT: [arg]; MATRIX: rows
    space: bool = False          # whitespace right before it (NumPy rows: "0.1 -0.2" is two numbers)
    end: int = 0

    def __repr__(self) -> str:
        if self.kind in ("GROUP", "FRAC", "SQRT"):
            return f"{self.kind}{self.args!r}"
        if self.kind == "MATRIX":
            return f"MATRIX[{len(self.args)} rows]"
        return f"{self.kind}:{self.text}"


# after a whole number's period, a space and a word (not NumPy's "1.  0." nor "1.  nan"): a new sentence
_SENTENCE_ON = re.compile(r"\s+(?!(?:nan|inf|NaN|Inf|e[-+]?\d)\b)[A-Za-z\u4e00-\u9fff]")

RELATIONS = {"=": "=", "≈": "≈", "≃": "≈", "≅": "≈", "∼": "≈", "~": "≈", "∈": "∈", ":=": "=", "≡": "=",
             "→": "→", "⇒": "→", "=>": "→", "->": "→", "-->": "→", "==>": "→", "⟶": "→", "⟹": "→",
             "约等于": "≈"}                    # Chinese prose writes ≈ as a word: o 约等于 [1.95, 1.34]
_ELLIPSIS = ("...", "…", "⋯", "⋮", "⋱", "⋰", "…")

# unicode super- and subscripts (the terminal's Q⁽¹⁾, xᵢ, ℝ³ˣ⁴)
_SUP = dict(zip("⁰¹²³⁴⁵⁶⁷⁸⁹⁽⁾⁺⁻ⁱʲʰᵏⁿˣᵗ", "0123456789()+-ijhknxt"))
_SUB = dict(zip("₀₁₂₃₄₅₆₇₈₉₍₎₊₋ᵢⱼₕₖₘₙₜₓₒₐₑₚᵥ", "0123456789()+-ijhkmntxoaepv"))

_CHARS = re.compile(r"""
    (?P<num>(?<![\w.])(?:\d+\.\d*|\.\d+|\d+)(?:[eE][-+]?\d+)?(?!(?![⁰¹²³⁴⁵⁶⁷⁸⁹ᵀˣ₀₁₂₃₄₅₆₇₈₉])\w))
  | (?P<coef>(?<![\w.])\d+(?=e(?![\w]|[-+]\d)))      # 2e^{x}, 1 + 2e: a coefficient of Euler's e
  | (?P<ell>\.\.\.|…|⋯|⋮|⋱|⋰)
  | (?P<inf>∞|(?<![\w])inf(?![\w]))
  | (?P<trans>ᵀ|⊤|⊺)
  | (?P<rel>:=|≈|≃|≅|∼|∈|→|⇒|⟶|⟹|-->|==>|=>|->|==|=|约等于)
  | (?P<id>[A-Za-z_α-ωΑ-Ωℓ\u00c0-\u00d6\u00d8-\u00f6\u00f8-\u024f\u1e00-\u1eff]
             [A-Za-z_0-9α-ωΑ-Ωℓ'\u00c0-\u00d6\u00d8-\u00f6\u00f8-\u024f\u1e00-\u1eff]*
        |[\u4e00-\u9fff\u3400-\u4dbf\u3040-\u30ff]+|[\uac00-\ud7af]+|[\u0400-\u04ff]+)
  | (?P<op>[-+*/×·∙⋅÷−√∑Σ^_()\[\]{},;:|<>!?'&%#@"`\\$⎡⎢⎣⎤⎥⎦│，：；（）。、【】←])
""", re.X)
# an integer, e, a plus and one digit (2e+1) on a line that also writes Euler's e alone or exp() (e/(2e+1)): 2e + 1;
# no printout writes 20 so (Python and NumPy print 20.0, 2e+01), and 1e-5 stays a number wherever it stands
_EULER_SUM = re.compile(r"\d+e\+\d")
_EULER = re.compile(r"(?<![\w.])e(?![\w])(?!\s*[-+]?\d)|\bexp\s*\(")
_OPMAP = {"@": "*", "×": "*", "·": "*", "∙": "*", "⋅": "*", "÷": "/", "−": "-", "∑": "Σ", "：": ":", "；": ";",
          "（": "(", "）": ")", "、": ",", "【": "[", "】": "]"}


def lex_chars(s: str, base: int = 0, text_mode: bool = False) -> list[Tok]:
    """Numbers, names, operators and relations of a run of characters."""
    out: list[Tok] = []
    i, n = 0, len(s)
    while i < n:
        ch = s[i]
        if ch.isspace():
            if text_mode and ch == "\n":
                out.append(Tok("SEP", "\n", base + i, end=base + i + 1))
            i += 1
            continue
        if text_mode and (ch in _SUP or ch in _SUB):
            table = _SUP if ch in _SUP else _SUB
            j = i
            while j < n and (s[j] in table or (ch in _SUP and s[j] in "·˙" and j + 1 < n and s[j + 1] in "⁰¹²³⁴⁵⁶⁷⁸⁹"
                                               and j > i and s[j - 1] in "⁰¹²³⁴⁵⁶⁷⁸⁹")):
                j += 1                       # e¹·⁴¹: a decimal point raised with its digits (1.41)
            inner = "".join(table.get(c, ".") for c in s[i:j])
            if ch in _SUP and inner == "x":          # ℝ³ˣ⁴: the ˣ is a times sign
                out.append(Tok("OP", "*", base + i, end=base + j))
            else:
                out.append(Tok("OP", "^" if ch in _SUP else "_", base + i, end=base + i))
                kids = lex_chars(inner.replace("x", "×") if ch in _SUP else inner, base + i)
                for k in kids:
                    k.pos, k.end = base + i, base + j
                out.append(Tok("GROUP", inner, base + i, args=[kids], end=base + j))
            i = j
            continue
        if text_mode and ch == "—" and 0 < i < n - 1 and s[i - 1].isspace() and s[i + 1].isspace():
            out.append(Tok("SEP", "\n", base + i, end=base + i + 1))   # "[0.99, 0.01] — 99% on Frank": a remark
            i += 1                                                         # follows (an em dash is never a minus)
            continue
        if text_mode and ch == "~" and _tilde(s, i, out, base):
            i += 1
            continue
        m = _CHARS.match(s, i)
        space = i == 0 or s[i - 1].isspace()
        if not m:
            out.append(Tok("OP", ch, base + i, space=space, end=base + i + 1))
            i += 1
            continue
        kind = m.lastgroup
        text = m.group(kind)
        if kind == "num" and _EULER_SUM.fullmatch(text) and _EULER.search(s):
            # e/(2e+1) beside exp(1): 2e + 1 with Euler's e, not 2×10¹ (no printout writes 20 as 2e+1)
            kind, text = "coef", text[:text.index("e")]
        pos, end = base + i, base + i + len(text)
        if kind in ("num", "coef"):
            if text_mode and text.endswith(".") and text[:-1].isdigit() and _SENTENCE_ON.match(s, m.end()):
                # "d = 2.  sqrt(2) = 1.4142": the period ends a sentence; what follows is another statement
                out.append(Tok("NUM", text[:-1], pos, num=Num.parse(text[:-1]), space=space, end=end - 1))
                out.append(Tok("SEP", "\n", end - 1, end=end))
                i = m.end()
                continue
            try:
                out.append(Tok("NUM", text, pos, num=Num.parse(text), space=space, end=end))
            except ValueError:
                out.append(Tok("OP", text, pos, space=space, end=end))
        elif kind == "ell":
            out.append(Tok("ELL", text, pos, space=space, end=end))
        elif kind == "inf":
            out.append(Tok("INF", text, pos, num=POS_INF, space=space, end=end))
        elif kind == "trans":
            out.append(Tok("TRANS", "T", pos, space=space, end=end))
        elif kind == "rel":
            if text == "=" and out and out[-1].kind == "OP" and out[-1].text == "!" and out[-1].end == pos:
                out[-1] = Tok("OP", "≠", out[-1].pos, space=out[-1].space, end=end)   # `a != b`: no equality
            elif text == "==":
                out.append(Tok("OP", text, pos, space=space, end=end))
            else:
                out.append(Tok("REL", RELATIONS[text], pos, space=space, end=end))
        elif kind == "id":
            out.append(Tok("ID", text, pos, space=space, end=end))
        elif text == "√":
            out.append(Tok("OP", "√", pos, space=space, end=end))
        else:
            out.append(Tok("OP", _OPMAP.get(text, text), pos, space=space, end=end))
        i = end - base
    _sizes_at(out, s, base)
    _mixed_division(out, s, base)
    return out


def _mixed_division(out: list[Tok], s: str, base: int) -> None:
    """`6 ÷ 6 / 30 ÷ 6 = 1/5`: ÷ and / in one run of arithmetic, the slash a fraction's bar between two quotients.
    Which is meant cannot be told from the signs, so the slash is left a mark no expression reads (that side of the
    line is then no claim)."""
    run: list[Tok] = []
    for t in out + [Tok("SEP", "\n")]:
        if t.kind in ("REL", "SEP") or (t.kind == "OP" and t.text in (",", ";", "，", "；")):
            signs = {s[x.pos - base] for x in run if 0 <= x.pos - base < len(s)}
            if "÷" in signs and "/" in signs:
                for x in run:
                    if s[x.pos - base] == "/":
                        x.text = "⁄"
            run = []
        elif t.kind == "OP" and t.text == "/":
            run.append(t)


def _sizes_at(out: list[Tok], s: str, base: int) -> None:
    """`# 768 @ 768 = 768`: `@` multiplies matrices, never two plain numbers (Python refuses `768 @ 768`), so
    numbers on both sides of it are the operands' sizes, a note on shapes and not arithmetic.  The `@` is kept as
    written there (no expression reads it), not turned into a times sign."""
    for k in range(1, len(out) - 1):
        t = out[k]
        if t.kind == "OP" and t.text == "*" and s[t.pos - base:t.pos - base + 1] == "@" and \
                out[k - 1].kind == "NUM" and out[k + 1].kind == "NUM":
            t.text = "@"


def lex_text(s: str, base: int = 0) -> list[Tok]:
    """Plain text (prose, code output, the terminal's math): newlines are statement breaks."""
    return _times_x(lex_chars(s, base, text_mode=True))


def _times_x(toks: list[Tok]) -> list[Tok]:
    """`1.135 x 0.135`: a spaced letter x between two numbers with decimals is a times sign (`0.3302 x 2`, a weight
    times a count, is left to the words around it); so is each x of a run of three numbers or more, `32 x 4096 x 2`
    (a product of sizes as notes on memory type it)."""
    def spaced_x(k: int) -> bool:
        return 0 < k < len(toks) - 1 and toks[k].kind == "ID" and toks[k].text == "x" and toks[k].space and \
            toks[k + 1].space and toks[k - 1].kind == "NUM" and toks[k + 1].kind == "NUM"

    times = [k for k in range(1, len(toks) - 1) if spaced_x(k) and (
        "." in toks[k - 1].text and "." in toks[k + 1].text or spaced_x(k - 2) or spaced_x(k + 2))]
    for k in times:
        toks[k] = Tok("OP", "*", toks[k].pos, space=True, end=toks[k].end)
    return toks


# ------------------------------------------------------------------ LaTeX through pylatexenc

MATRIX_ENVS = {"bmatrix", "pmatrix", "vmatrix", "Bmatrix", "Vmatrix", "matrix", "smallmatrix", "array",
               "bmatrix*", "pmatrix*", "matrix*", "tabular"}
LAYOUT_ENVS = {"aligned", "align", "align*", "alignat", "alignat*", "gather", "gather*", "gathered", "split",
               "eqnarray", "eqnarray*", "multline", "multline*", "flalign", "flalign*", "cases", "dcases"}
_STYLE = {"mathrm", "text", "textrm", "textbf", "textit", "mathbf", "mathit", "mathsf", "mathtt", "boldsymbol",
          "bm", "mathcal", "mathbb", "operatorname", "mbox", "hbox", "emph", "textsf", "texttt", "mathnormal",
          "vec", "hat", "tilde", "bar", "overline", "underline", "widehat", "widetilde", "mathscr", "mathfrak",
          "pmb", "textup", "textnormal", "operatorname*"}
_SPACES = {"quad", "qquad", ",", ";", ":", "!", " ", "enspace", "thinspace", "medspace", "thickspace",
           "displaystyle", "textstyle", "scriptstyle", "nonumber", "notag", "limits", "nolimits", "big", "Big",
           "bigg", "Bigg", "bigl", "bigr", "Bigl", "Bigr", "biggl", "biggr", "middle", "hline", "cline", "small",
           "footnotesize", "normalsize", "large", "centering", "noindent", "hfill", "vfill", "phantom", "strut",
           "allowbreak", "newline", "par", "relax", "protect", "cr", "left", "right"}
_SEP_MACROS = {"quad", "qquad", "\\", "newline", "cr", "enspace"}
_OPS = {"times": "*", "cdot": "*", "ast": "*", "cdotp": "*", "div": "/", "pm": "±", "mp": "∓",
        "lbrack": "[", "rbrack": "]", "{": "{", "}": "}", "lbrace": "{", "rbrace": "}", "langle": "(",
        "rangle": ")", "vert": "|", "lvert": "|", "rvert": "|", "|": "|", "lparen": "(", "rparen": ")",
        "odot": "*", "otimes": "*", "circ": "*", "leq": "<", "le": "<", "geq": ">", "ge": ">", "lt": "<",
        "gt": ">", "_": "_", "%": "%", "#": "#", "$": "$", "&": "&", "setminus": "\\", "ldots": "...",
        "sum": "Σ", "prod": "Π", "sqrt": "√", "mid": "|", "colon": ":", "neq": "≠", "ne": "≠"}
_RELS = {"approx": "≈", "simeq": "≈", "sim": "≈", "thickapprox": "≈", "cong": "≈", "eq": "=", "equiv": "=",
         "coloneqq": "=", "triangleq": "=", "doteq": "=", "in": "∈", "to": "→", "rightarrow": "→",
         "Rightarrow": "→", "longrightarrow": "→", "mapsto": "→", "implies": "→", "leadsto": "→"}
_ELL = {"cdots", "ldots", "vdots", "ddots", "dots", "dotsc", "dotsb", "dotsm", "iddots", "hdots"}
_GREEK = {"alpha": "α", "beta": "β", "gamma": "γ", "delta": "δ", "epsilon": "ε", "varepsilon": "ε",
          "theta": "θ", "lambda": "λ", "mu": "μ", "sigma": "σ", "tau": "τ", "phi": "φ", "varphi": "φ",
          "omega": "ω", "pi": "π", "rho": "ρ", "eta": "η", "kappa": "κ", "xi": "ξ", "zeta": "ζ", "nu": "ν",
          "psi": "ψ", "chi": "χ", "iota": "ι", "Sigma": "Σ", "Delta": "Δ", "Omega": "Ω", "Phi": "Φ",
          "Theta": "Θ", "Lambda": "Λ", "Psi": "Ψ", "Gamma": "Γ", "ell": "ℓ"}
_ARROWS = {"xrightarrow", "xlongrightarrow", "xmapsto"}
def _tilde(s: str, i: int, out: list[Tok], base: int) -> bool:
    """A tilde in text that means "about": spaced between two values ("2.028 / 3.028 ~ 0.67"), a relation; right
    after `=` before a number ("= ~171 GB"), that `=` made ≈ and the tilde no part of the number.  False for any
    other tilde."""
    if i < len(s) - 1 and s[i + 1].isdigit() and out and out[-1].kind == "REL" and out[-1].text in ("=", "≈"):
        out[-1].text = "≈"
        return True
    if 0 < i < len(s) - 1 and s[i - 1] == " " and s[i + 1] == " ":
        out.append(Tok("REL", "≈", base + i, space=True, end=base + i + 1))
        return True
    return False


ARROW_SOFTMAX = "softmax→"         # the label an arrow marked softmax leaves on what follows it
_NAMED = {"exp", "softmax", "max", "min", "log", "ln", "Softmax", "sum", "concat", "Concat", "head", "mask", "cos", "sin"}


_DB = None


def latex_context():
    """pylatexenc's default context plus the macros worked examples use that it does not know."""
    global _DB
    if _DB is None:
        from pylatexenc.latexwalker import get_default_latex_context_db
        from pylatexenc.macrospec import MacroSpec
        db = get_default_latex_context_db()
        db.add_context_category("mha-check", prepend=True, macros=[
            MacroSpec("dfrac", "{{"), MacroSpec("tfrac", "{{"), MacroSpec("cfrac", "{{"),
            MacroSpec("operatorname", "*{"), MacroSpec("boldsymbol", "{"), MacroSpec("bm", "{"),
            MacroSpec("mathbf", "{"), MacroSpec("textcolor", "{{"), MacroSpec("color", "{"),
            MacroSpec("fitwidth", "{"), MacroSpec("resizebox", "{{{"), MacroSpec("scalebox", "{{"),
            MacroSpec("underbrace", "{"), MacroSpec("overbrace", "{"), MacroSpec("tag", "*{"),
            MacroSpec("label", "{"), MacroSpec("eqref", "{"), MacroSpec("ref", "{"),
            MacroSpec("phantom", "{"), MacroSpec("hphantom", "{"), MacroSpec("vphantom", "{"),
            MacroSpec("mathop", "{"), MacroSpec("mathrel", "{"), MacroSpec("mathbin", "{"), MacroSpec("boxed", "{"),
            MacroSpec("intercal", ""), MacroSpec("Tr", ""),
            MacroSpec("xrightarrow", "[{"), MacroSpec("xlongrightarrow", "[{"), MacroSpec("xmapsto", "[{"),
        ])
        _DB = db
    return _DB


_WT = r"\(\s*[-−]?\d+(?:\.\d+)?(?:\s*,\s*(?:\\[,;:! ]\s*)?[-−]?\d+(?:\.\d+)?)+\s*\)"     # (0.75,\ 0.85)
_THIN = r"(?:\\[,;:!]\s*)?"         # a thin space set by hand, 0.422\,(1,0)
_WTERM = rf"[-−]?\d+(?:\.\d+)?\s*{_THIN}(?:[·*×⋅]|\\cdot|\\times)?\s*{_THIN}{_WT}"
_WEIGHTED_TUPLES = re.compile(rf"(?:(?<=\s)is\s+|[为是]\s*)?{_WTERM}(?:\s*\+\s*{_WTERM}){{1,16}}\s*(?:[=≈]|\\approx)\s*{_WT}")


def _spaced(toks) -> str:
    """The words of tokens, a space kept where the source has one between two words."""
    out = ""
    for t in toks:
        if t.space and out and t.text and out[-1].isalnum() and t.text[0].isalnum():
            out += " "
        out += t.text
    return out


def bracket_weighted_tuples(text: str) -> str:
    """"0.43 · (1.0, 0.0) + 0.35 · (0.0, 1.0) = (0.43, 0.35)": value vectors written as tuples in a weighted sum are
    the bracketed vectors of 0.43 [1.0, 0.0] + ... = [...] (claims/vector.py); the brackets keep every place."""
    if "(" not in text or "+" not in text:
        return text
    def sub(m: re.Match) -> str:          # "… is 0.4 · (1, 0) + …", "输出为 …": the words name the sum ("= ")
        body = re.sub(_WT, lambda t: "[" + t.group(0)[1:-1] + "]", m.group(0))
        return "= " + body[2:] if body.startswith("is") else "=" + body[1:] if body[0] in "为是" else body
    return _WEIGHTED_TUPLES.sub(sub, text)


# "q_1{=}[1,0]\,q_2{=}[0,1]": an equals sign kept tight by braces, and statements set apart by a thin space
_TIGHT_REL = re.compile(r"\{\s*(=|\\approx)\s*\}")
_THIN_BETWEEN = re.compile(r"(?<=[\])])(\s*)\\[,;:](?=\s*(?:\\math\w+\{)?[A-Za-z]\w*(?:_\{?\w+\}?)?\s*(?:\{\s*)?=)")


def tight_statements(tex: str) -> str:
    """Each `{=}` an `=` and each thin space between two statements a row break, every place kept."""
    if "{" in tex:
        tex = _TIGHT_REL.sub(lambda m: " " + m.group(1).center(len(m.group(0)) - 2) + " ", tex)
    if "\\," in tex or "\\;" in tex or "\\:" in tex:
        tex = _THIN_BETWEEN.sub(lambda m: m.group(1) + "\\\\", tex)
    return tex


_ROW_MARK = "\x1e"          # stands for a row break left as one backslash, one character for one (_matrix_tok)


def _single_breaks(tex: str) -> str:
    """A matrix's row breaks left as one backslash at the end of a line (a Markdown renderer ate one of the two):
    inside a matrix environment each becomes a mark of the same length that _matrix_tok reads as a row break, so
    every later character keeps its place."""
    def fix(m: re.Match) -> str:
        return re.sub(r"(?<!\\)\\(?=[ \t]*\n)", _ROW_MARK, m.group(0))
    return re.sub(r"\\begin\{[bpvBV]?matrix\*?\}.*?\\end\{[bpvBV]?matrix\*?\}", fix, tex, flags=re.S)


# a course's own macro for a tuple, `\tuple{0.090, 0.245, 0.665}` (\newcommand{\tuple}[1]{\left(#1\right)})
_TUPLE_MACRO = re.compile(r"\\(?:tuple|tup|Tuple|ntuple|vect)\s*\{")


def tuple_macros(tex: str) -> str:
    """Each `\tuple{a, b, c}` the tuple `(a, b, c)` it stands for, every other character in its place (the macro's
    name and brace become `(` and spaces, its closing brace `)`); a macro whose argument has no comma at its top
    level is left alone."""
    if "\\" not in tex or not _TUPLE_MACRO.search(tex):
        return tex
    out = list(tex)
    for m in _TUPLE_MACRO.finditer(tex):
        depth, k, comma = 1, m.end(), False
        while k < len(tex) and depth:
            depth += (tex[k] == "{") - (tex[k] == "}")
            comma |= depth == 1 and tex[k] == ","
            k += 1
        if depth or not comma:
            continue
        out[m.start():m.end()] = ["("] + [" "] * (m.end() - m.start() - 1)
        out[k - 1] = ")"
    return "".join(out)


def walk_latex(tex: str, base: int = 0) -> list[Tok]:
    """Tokens of a piece of LaTeX math (or a whole LaTeX document's math node contents)."""
    tex = tight_statements(bracket_weighted_tuples(tuple_macros(tex)))
    if "\\\\\\" in tex:
        # `0.6698 & 0.3302 \\\` at the end of a line: a row break escaped once more for a static-site generator;
        # the third backslash before the line break would be read as a control space eating the break
        tex = re.sub(r"(?<!\\)\\\\\\(?=[ \t]*\n)", lambda m: "\\\\ ", tex)
    if "matrix}" in tex and re.search(r"(?<!\\)\\[ \t]*\n", tex):
        tex = _single_breaks(tex)
    from pylatexenc.latexwalker import LatexWalker
    try:
        nodes, _, _ = LatexWalker(tex, latex_context=latex_context(), tolerant_parsing=True).get_latex_nodes()
    except Exception:       # pylatexenc's own errors when tolerant parsing gives up: read as plain text
        return lex_chars(tex, base)
    return nodes_to_toks(nodes, base)


def nodes_to_toks(nodes, base: int = 0) -> list[Tok]:
    out: list[Tok] = []
    nodes = list(nodes or [])
    k = 0
    while k < len(nodes):
        stop = _macro_matrix_end(nodes, k)
        if stop is not None:                       # \bpmat 1 & 2 \\ 3 & 4 \epmat: a matrix written with macros
            out.append(_matrix_tok("pmatrix", nodes[k + 1:stop], base, base + (nodes[k].pos or 0),
                                   base + (nodes[stop].pos or 0) + (nodes[stop].len or 0)))
            k = stop + 1
            continue
        _node(nodes[k], out, base)
        k += 1
    return out


# matrices opened and closed by a course's own macros (\newcommand{\bpmat}{\begin{pmatrix}}): pylatexenc sees two
# unknown macros with the cells between them as siblings
_MATRIX_MACROS = {"bpmat": "epmat", "bmat": "emat", "bbmat": "ebmat", "pmat": "epmat", "bpm": "epm", "bbm": "ebm",
                  "bmatrix": "ebmatrix", "bpmatrix": "epmatrix"}


def _macro_matrix_end(nodes: list, k: int) -> int | None:
    from pylatexenc import latexwalker as lw
    n = nodes[k]
    close = _MATRIX_MACROS.get(n.macroname) if isinstance(n, lw.LatexMacroNode) else None
    if close is None or (getattr(n, "nodeargd", None) and n.nodeargd.argnlist):
        return None
    for j in range(k + 1, len(nodes)):
        m = nodes[j]
        if isinstance(m, lw.LatexMacroNode) and m.macroname == close:
            return j
        if isinstance(m, lw.LatexMacroNode) and m.macroname in _MATRIX_MACROS:
            return None                            # nested or unclosed: read as written
    return None


def _arg_toks(node, base: int, which: int | None = None) -> list[list[Tok]]:
    args = node.nodeargd.argnlist if getattr(node, "nodeargd", None) and node.nodeargd else []
    got = [a for a in args if a is not None]
    return [nodes_to_toks([a], base) for a in got]


def _unwrap(toks: list[Tok]) -> list[Tok]:
    return toks[0].args[0] if len(toks) == 1 and toks[0].kind == "GROUP" else toks


def _node(n, out: list[Tok], base: int) -> None:
    from pylatexenc import latexwalker as lw
    pos = base + (n.pos or 0)
    end = pos + (n.len or 0)
    if isinstance(n, lw.LatexCharsNode):
        out.extend(lex_chars(n.chars, pos))
    elif isinstance(n, lw.LatexGroupNode):
        inner = nodes_to_toks(n.nodelist, base)
        if n.delimiters and n.delimiters[0] == "[":
            out.append(Tok("OP", "[", pos, end=pos + 1))
            out.extend(inner)
            out.append(Tok("OP", "]", end - 1, end=end))
        elif _spaced_operator(n):
            out.extend(inner)       # 4{\cdot}5: braces that only keep an operator's spacing
        else:
            out.append(Tok("GROUP", "", pos, args=[inner], end=end))
    elif isinstance(n, lw.LatexMathNode):
        out.extend(nodes_to_toks(n.nodelist, base))
    elif isinstance(n, lw.LatexCommentNode):
        return
    elif isinstance(n, lw.LatexSpecialsNode):
        c = n.specials_chars
        if c == "&":
            out.append(Tok("OP", "&", pos, end=end))
        elif c in ("~",):
            return
        else:
            out.extend(lex_chars(c, pos))
    elif isinstance(n, lw.LatexEnvironmentNode):
        _env(n, out, base, pos, end)
    elif isinstance(n, lw.LatexMacroNode):
        _macro(n, out, base, pos, end)


def _spaced_operator(n) -> bool:
    r"""{\cdot}, {+}, {-} alone in braces (slides space a dot product 4{\cdot}5 + 6{\cdot}4 so); {\times} stays a
    group: 1.5{\times}10^{14} is how slides write a large count, not a product to check."""
    from pylatexenc import latexwalker as lw
    kids = [c for c in n.nodelist or [] if not (isinstance(c, lw.LatexCharsNode) and not c.chars.strip())]
    if len(kids) != 1:
        return False
    c = kids[0]
    if isinstance(c, lw.LatexMacroNode):
        return c.macroname in ("cdot", "cdotp", "ast")
    return isinstance(c, lw.LatexCharsNode) and c.chars.strip() in ("+", "-", "*")


def _macro(n, out: list[Tok], base: int, pos: int, end: int) -> None:
    name = n.macroname
    args = _arg_toks(n, base)
    if name in ("frac", "dfrac", "tfrac", "cfrac") and len(args) >= 2:
        out.append(Tok("FRAC", name, pos, args=[_unwrap(args[-2]), _unwrap(args[-1])], end=end))
    elif name in ("frac", "dfrac", "tfrac", "cfrac"):
        out.append(Tok("FRAC", name, pos, args=[], end=end))      # arguments follow as groups
    elif name == "sqrt" and len(args) >= 2 and flat_text(_unwrap(args[0])).strip() not in ("", "2"):
        # \sqrt[3]{10000}: a root of another order, which the arithmetic does not evaluate (kept as a name)
        out.append(Tok("ID", "root" + flat_text(_unwrap(args[0])).strip(), pos, end=end))
        out.append(Tok("GROUP", "", pos, args=[_unwrap(args[-1])], end=end))
    elif name == "sqrt":
        out.append(Tok("SQRT", "sqrt", pos, args=[_unwrap(args[-1])] if args else [], end=end))
    elif name in _STYLE:
        inner = _unwrap(args[-1]) if args else []
        if name in ("text", "textrm", "mbox", "textbf", "textit", "textsf", "texttt", "textup", "textnormal",
                    "emph", "hbox"):
            words = _spaced(t for t in inner if t.kind != "GROUP")     # \text{Masked scores}: two words
            out.append(Tok("TEXT", words, pos, args=[inner], end=end))
        elif name == "mathbb" and len(inner) == 1 and inner[0].text == "R":
            out.append(Tok("ID", "ℝ", pos, end=end))
        else:
            out.append(Tok("GROUP", name, pos, args=[inner], end=end))
    elif name in ("textcolor", "color"):
        if args:
            out.extend(_unwrap(args[-1]) if name == "textcolor" else [])
    elif name in ("fitwidth", "resizebox", "scalebox", "underbrace", "overbrace", "mathop", "mathrel",
                  "mathbin", "boxed"):
        if args:
            out.extend(_unwrap(args[-1]))
    elif name in ("label", "tag", "eqref", "ref", "phantom", "hphantom", "vphantom"):
        return
    elif name in _ARROWS:
        # [1.5, 0, 1.0] \xrightarrow{softmax} [0.55, ...]: a step named over an arrow; the words stay as the
        # label of what follows (statements.record ties a softmax to the vector before the arrow)
        out.append(Tok("REL", "→", pos, end=end))
        words = "".join(x.text for a in args for x in _unwrap(a) if x.kind in ("TEXT", "ID")).strip()
        if "softmax" in words.lower():
            out.append(Tok("TEXT", ARROW_SOFTMAX, pos, end=end))
        return
    elif name in _SEP_MACROS:
        out.append(Tok("SEP", "\\\\" if name in ("\\", "newline", "cr") else name, pos, end=end))
    elif name in _SPACES:
        return
    elif name in ("top", "intercal", "T", "transpose", "mathsf{T}"):
        out.append(Tok("TRANS", "T", pos, end=end))
    elif name == "sim" and out and out[-1].kind == "NUM":
        out.append(Tok("SEP", "~", pos, end=end))       # "0.4 \sim 0.5": a range, not "0.4 ≈ 0.5"
    elif name in _RELS:
        out.append(Tok("REL", _RELS[name], pos, end=end))
    elif name in _ELL:
        out.append(Tok("ELL", name, pos, end=end))
    elif name == "infty":
        out.append(Tok("INF", "∞", pos, num=POS_INF, end=end))
    elif name in _OPS:
        out.append(Tok("OP", _OPS[name], pos, end=end))
    elif name in _GREEK:
        out.append(Tok("ID", _GREEK[name], pos, end=end))
    elif name in ("begin", "end"):
        return
    else:
        out.append(Tok("ID", name, pos, end=end))      # \exp, \softmax, \max, unknown commands: a name
    if args and name not in ("frac", "dfrac", "tfrac", "cfrac", "sqrt") and name not in _STYLE \
            and name not in ("textcolor", "color", "fitwidth", "resizebox", "scalebox", "underbrace",
                             "overbrace", "mathop", "mathrel", "mathbin", "boxed", "label", "tag", "eqref",
                             "ref", "phantom", "hphantom", "vphantom"):
        for a in args:
            out.append(Tok("GROUP", "", pos, args=[_unwrap(a)], end=end))


def _env(n, out: list[Tok], base: int, pos: int, end: int) -> None:
    name = n.environmentname
    if name in MATRIX_ENVS:
        out.append(_matrix_tok(name, n.nodelist or [], base, pos, end))
    elif name in LAYOUT_ENVS or name in ("equation", "equation*", "displaymath", "math"):
        for c in n.nodelist or []:
            from pylatexenc import latexwalker as lw
            if isinstance(c, lw.LatexSpecialsNode) and c.specials_chars == "&":
                continue
            _node(c, out, base)
        out.append(Tok("SEP", "\\\\", end, end=end))
    else:
        for c in n.nodelist or []:
            _node(c, out, base)


def _matrix_tok(name: str, nodelist, base: int, pos: int, end: int) -> Tok:
    """The cells of a matrix environment (or of the nodes between two matrix macros), row by row."""
    from pylatexenc import latexwalker as lw
    rows: list[list[list[Tok]]] = [[[]]]
    for c in nodelist:
        if isinstance(c, lw.LatexCharsNode) and _ROW_MARK in c.chars:
            at = base + (c.pos or 0)
            for k, piece in enumerate(c.chars.split(_ROW_MARK)):
                if k:
                    rows.append([[]])
                rows[-1][-1].extend(lex_chars(piece, at))
                at += len(piece) + 1
            continue
        if isinstance(c, lw.LatexSpecialsNode) and c.specials_chars == "&":
            rows[-1].append([])
        elif isinstance(c, lw.LatexMacroNode) and c.macroname in ("\\", "cr", "newline"):
            rows.append([[]])
        elif isinstance(c, lw.LatexMacroNode) and c.macroname in ("hline", "cline", "midrule", "toprule",
                                                                  "bottomrule"):
            continue
        else:
            _node(c, rows[-1][-1], base)
    rows = [r for r in rows if any(cell for cell in r)]
    return Tok("MATRIX", name, pos, args=rows, end=end)


def flat_text(toks: list[Tok]) -> str:
    """A canonical LaTeX-like spelling of a token run, for labels: Q^{(1)}, W_{Q}, \\frac{a}{b}."""
    parts: list[str] = []
    for t in toks:
        if t.kind == "GROUP":
            inner = flat_text(t.args[0])
            parts.append("{" + inner + "}")
        elif t.kind == "FRAC":
            parts.append("\\frac{" + flat_text(t.args[0]) + "}{" + flat_text(t.args[1]) + "}"
                         if len(t.args) == 2 else "\\frac")
        elif t.kind == "SQRT":
            parts.append("\\sqrt{" + flat_text(t.args[0]) + "}" if t.args else "\\sqrt")
        elif t.kind == "TRANS":
            parts.append("^T" if not parts or not parts[-1].endswith("^") else "T")
        elif t.kind == "TEXT":
            parts.append(t.text)
        elif t.kind == "MATRIX":
            parts.append("[matrix]")
        elif t.kind == "ID" and parts and (parts[-1][-1:].isalnum() or parts[-1][-1:] in "}'") and t.space:
            parts.append(" " + t.text)
        else:
            parts.append(t.text)
    return "".join(parts)


NEG_INF_TOKEN = NEG_INF
