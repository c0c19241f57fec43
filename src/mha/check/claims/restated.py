"""A named number stated again: slides and notes work a score out once (`q_2·k_1 = 4·5 + 6·4 + 2·6 = 56`) and
then quote it in a figure, a box or the next slide (`q_2·k_1 = 56`, `s_21 = 56`).  The worked line is checked by
its own terms; a quote of the same name with another value contradicts it, whatever the configuration (a
document of scattered vectors often has none).

Identity before verdict:
* the worked line holds (its arithmetic gives its result at face value), and its name is worked out with one
  value only (a second example that works the same name out again makes the name ambiguous: nothing is said);
* a quote under the very same name (spaces, braces and `\\!` aside) is that quantity;
* a quote under another letter with the same two indices (`s_{22}` for `q_2·k_2`) is that quantity only when the
  document's other quotes of that letter agree with their worked lines (at least one, none disagreeing but the
  one judged): the reader has seen that the letter names the unscaled dot products, not the scaled ones;
* the quote stands in the worked line's section or the one after it (a later section may be another example);
* the name has an index: "Sum" or "total" worked out for one row and stated for the next names no one quantity;
* the sentence does not say the quote is what a slip gives ("Without the √2 the logits are ±1, giving α₁₁ = 0.88",
  "the trap is ...", "如果忘了除以 √d_k"): a hint `whatif` on its line or the two before it (readers/builder.py).
"""

from __future__ import annotations

import bisect
import re
from dataclasses import dataclass

from .. import numbers as nb
from ..numbers import Num
from ..objects import Chain, ExprPart, LabelPart
from ..report import Finding
from .common import _simple_kind

_DOT = re.compile(r"q_\{?(\d)\}?\*k_\{?(\d)\}?")
_NAMED = re.compile(r"([a-zA-Z])_\{?(\d)(\d)\}?")


@dataclass
class RestatedClaim:
    chain: Chain            # name = number
    num: Num                # the number quoted
    source: Chain           # the worked line it contradicts
    value: Num              # the worked line's result
    via: str = ""           # the letter's other quotes that agree ("s_{21} = 56"), for a renamed quote


def _key(text: str) -> str:
    return re.sub(r"\\[!,;:]|\s|\\cdot|·|⋅", lambda m: "*" if m.group(0) in ("\\cdot", "·", "⋅") else "", text)


def _quote(c: Chain) -> tuple[str, Num] | None:
    """name = number, nothing else."""
    if len(c.parts) != 2 or not isinstance(c.parts[0], LabelPart) or not isinstance(c.parts[1], ExprPart):
        return None
    n = nb.plain_number(c.parts[1].expr)
    return (_key(c.parts[0].text), n) if n is not None and c.rels == ["="] else None


def _worked(c: Chain) -> tuple[str, Num] | None:
    """name = arithmetic = number, the arithmetic giving the number at face value."""
    p = c.parts
    if len(p) != 3 or not isinstance(p[0], LabelPart) or not all(isinstance(x, ExprPart) for x in p[1:]):
        return None
    e, n = p[1].expr, nb.plain_number(p[2].expr)
    if n is None or nb.has_symbols(e) or nb.is_plain_number(e):
        return None
    try:
        got = nb.evaluate(e)
    except (ArithmeticError, OverflowError, ValueError):
        return None
    if not (got.lo <= n.hi + 1e-9 and n.lo <= got.hi + 1e-9):
        return None
    return _key(p[0].text), n


WHATIF_SPAN = 2         # lines from a "without the √2" sentence's start to the number it gives


def restated_claims(chains: list[Chain], headings: list, hints: list = ()) -> list[RestatedClaim]:
    worked: dict[str, list[tuple[Chain, Num]]] = {}
    quotes: list[tuple[Chain, str, Num]] = []
    for c in chains:
        if (w := _worked(c)) is not None:
            worked.setdefault(w[0], []).append((c, w[1]))
        elif (q := _quote(c)) is not None:
            quotes.append((c, *q))
    # one value per worked name: a name worked out twice with two values is two examples
    sure = {k: v[0] for k, v in worked.items() if len({n.text for _, n in v}) == 1}
    keys = sorted((p.cell or 0, p.line) for p in headings)

    def section(c: Chain) -> int:
        return bisect.bisect_right(keys, (c.place.cell or 0, c.place.line))

    def target(name: str) -> str | None:
        if name in sure:
            return name
        m = _NAMED.fullmatch(name)
        return next((k for k in sure if (d := _DOT.fullmatch(k)) and m and d.groups() == m.groups()[1:]), None)

    whatif = [h.place for h in hints if h.kind == "whatif"]

    def said_wrong(c: Chain) -> bool:
        return any(p.cell == c.place.cell and 0 <= c.place.line - p.line <= WHATIF_SPAN for p in whatif)

    out = []
    for c, name, n in quotes:
        key = target(name)
        if key is None or not re.search(r"\d", name):
            continue                          # "Sum = 3.641" under the next row: a name with no index names none
        src, value = sure[key]
        if n.contains(value.value) or value.contains(n.value) or abs(section(c) - section(src)) > 1 or \
                _scaled(value, n) or said_wrong(c):
            continue
        via = ""
        if key != name:                      # renamed: the letter's other quotes must agree with their lines
            letter = _NAMED.fullmatch(name).group(1)
            others = [(q, nm, v) for q, nm, v in quotes if q is not c and (m := _NAMED.fullmatch(nm))
                      and m.group(1) == letter and target(nm) not in (None, nm)]
            agree = [q for q, nm, v in others if sure[target(nm)][1].contains(v.value)]
            if not agree or len(agree) != len(others):
                continue
            via = agree[0].text.strip()
        if sum(1 for q, nm, v in quotes if target(nm) == key and v.text == n.text) > 1:
            continue                          # the same other value quoted twice: the document means it
        out.append(RestatedClaim(c, n, src, value, via))
    return out


def _scaled(value: Num, n: Num) -> bool:
    """The quote is the worked value divided by √d or d (the scaled score under the same name): not a slip."""
    for d in range(2, 1025):
        for s in (d ** 0.5, float(d)):
            if n.contains(value.value / s, slack=value.half / s):
                return True
    return False


class RestatedJudging:
    """Judge methods for RestatedClaim."""

    def judge_restated(self, c: RestatedClaim) -> None:
        self.n_claims += 1
        self.n_numbers += 1
        exact = c.value.value
        line = c.source.place.line
        why = f"worked out as {c.value.text} at line {line}" + (f" (and {c.via} agrees with its own line)"
                                                                   if c.via else "")
        self._add_once(Finding(c.num.line or c.chain.place.line, c.chain.place.cell,
                               f"{c.chain.parts[0].text} (stated again)", c.num.text, exact, c.num.rounded(exact),
                               "scores", why, _simple_kind(c.num, exact)))
