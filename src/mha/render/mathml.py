"""The explanations' LaTeX subset as MathML Core, which Chromium, Firefox and Safari render natively.

No script, no font and no network: the page stays self-contained.

>>> to_mathml(r"Q^{(1)}")
'<math><msup><mi>Q</mi><mrow><mo>(</mo><mn>1</mn><mo>)</mo></mrow></msup></math>'
>>> "<mfrac>" in to_mathml(r"\\frac{a}{\\sqrt{2}}") and "<msqrt>" in to_mathml(r"\\sqrt{2}")
True
"""

from __future__ import annotations

import html
import re

from .unimath import TokenStream

_OPS = {"times": "×", "cdot": "·", "in": "∈", "le": "≤", "leq": "≤", "ge": "≥", "approx": "≈", "ne": "≠",
        "leftarrow": "←", "to": "→", "odot": "⊙", "mid": "|", "lt": "<", "gt": ">"}
_IDENT = {"infty": "∞", "ell": "ℓ", "alpha": "α", "top": "⊤", "ldots": "…", "cdots": "⋯", "vdots": "⋮",
          "ddots": "⋱"}
_BIG = {"sum": "∑", "max": "max", "exp": "exp", "log": "log"}
_SPACE = {"quad": "1em", "qquad": "2em", ",": "0.17em", ";": "0.28em", " ": "0.25em"}
_ACCENT = {"tilde": "~", "hat": "^", "bar": "¯"}


def _e(s: str) -> str:
    return html.escape(s, quote=False)


class _Parser(TokenStream):

    def group(self) -> str:
        """One argument as a single MathML element."""
        t = self.peek()
        if t is None:
            return "<mrow></mrow>"
        if t == "{":
            self.next()
            return "<mrow>" + self.seq("}") + "</mrow>"
        return self.atom(scripts=False)

    def raw_group(self) -> str:
        t = self.peek()
        if t == "{":
            self.next()
            out = []
            depth = 1
            while self.peek() is not None:
                tok = self.next()
                depth += (tok == "{") - (tok == "}")
                if depth == 0:
                    break
                out.append(tok)
            return "".join(out)
        return self.next() if t is not None else ""

    def seq(self, until: str | None = None) -> str:
        out = []
        while (t := self.peek()) is not None:
            if t == until:
                self.next()
                break
            if t.isspace():
                self.next()
                continue
            out.append(self.atom())
        return "".join(out)

    def atom(self, scripts: bool = True) -> str:
        t = self.next()
        if t == "{":
            base = "<mrow>" + self.seq("}") + "</mrow>"
        elif t.startswith("\\"):
            base = self.command(t[1:])
        elif re.fullmatch(r"\d", t):
            num = t
            while (p := self.peek()) is not None and re.fullmatch(r"[\d.]", p):
                num += self.next()
            base = f"<mn>{num}</mn>"
        elif re.fullmatch(r"[A-Za-z]", t):
            base = f"<mi>{t}</mi>"
        elif t in "+-=<>,:;!/|[]()":
            base = f"<mo>{_e('−' if t == '-' else t)}</mo>"
        elif t in ("^", "_"):
            return ""
        else:
            base = f"<mi>{_e(t)}</mi>" if not t.isspace() else ""
        if not scripts:
            return base
        sub = sup = None
        while self.peek() in ("^", "_"):
            kind = self.next()
            arg = self.group()
            if kind == "^":
                sup = arg
            else:
                sub = arg
        if sub and sup:
            return f"<msubsup>{base}{sub}{sup}</msubsup>"
        if sup:
            return f"<msup>{base}{sup}</msup>"
        if sub:
            return f"<msub>{base}{sub}</msub>"
        return base

    def command(self, name: str) -> str:
        if name in ("text", "mathrm", "operatorname", "textrm"):
            return f"<mtext>{_e(self.raw_group())}</mtext>" if name != "mathrm" else \
                f"<mi mathvariant=\"normal\">{_e(self.raw_group())}</mi>"
        if name == "mathbb":
            return {"R": "<mi>ℝ</mi>", "N": "<mi>ℕ</mi>"}.get(self.raw_group(), "<mi>?</mi>")
        if name == "frac":
            a, b = self.group(), self.group()
            return f"<mfrac>{a}{b}</mfrac>"
        if name == "sqrt":
            return f"<msqrt>{self.group()}</msqrt>"
        if name in _ACCENT:
            return f"<mover accent=\"true\">{self.group()}<mo>{_ACCENT[name]}</mo></mover>"
        if name in ("left", "right", "textstyle", "displaystyle", "!"):
            return ""
        if name in _OPS:
            return f"<mo>{_OPS[name]}</mo>"
        if name in _IDENT:
            return f"<mi>{_IDENT[name]}</mi>"
        if name in _BIG:
            return f"<mo>{_BIG[name]}</mo>"
        if name in _SPACE:
            return f"<mspace width=\"{_SPACE[name]}\"></mspace>"
        if name in ("{", "}", "%", "_", "&", "#"):
            return f"<mo>{_e(name)}</mo>"
        if name == "\\":
            return ""
        return f"<mi>{_e(name)}</mi>"


def to_mathml(latex: str, *, display: bool = False) -> str:
    body = _Parser(latex).seq()
    attr = ' display="block"' if display else ""
    return f"<math{attr}>{body}</math>"


_INLINE = re.compile(r"\$([^$]+)\$")


def inline_html(text: str) -> str:
    """Prose with $...$ spans: escape the prose, turn each span into inline MathML."""
    parts = _INLINE.split(text)
    return "".join(to_mathml(p) if i % 2 else _e(p) for i, p in enumerate(parts))
