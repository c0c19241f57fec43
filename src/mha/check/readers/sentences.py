"""Where a statement ends inside a line, and the bold run-in heading before one: "exp(0) = 1. Sum = 3.0281." is two
statements, "scores: [...] weights: [...]" two as well, "**Softmax.** exp(0.7071) ≈ 2.0281" one with its heading
set aside."""

from __future__ import annotations

from .tokens import Tok


def sentence_end(last: Tok, t: Tok) -> bool:
    """A whole number printed with a period after it ("1.") and then, after a space, a capitalised word: the
    period is the end of a sentence, not a decimal point."""
    return last.kind == "NUM" and last.text.endswith(".") and last.text[:-1].isdigit() and capitalised(t)


def run_in(toks: list[Tok]) -> list[Tok]:
    """A bold run-in heading before what a part says ("**Softmax.** exp(0.7071) ≈ 2.0281"): the words in bold
    name the step, the rest is the part."""
    if len(toks) < 6 or toks[0].text != "*" or toks[1].text != "*":
        return toks
    for j in range(3, min(len(toks) - 2, 12)):
        if toks[j].text == "*" and toks[j + 1].text == "*":
            inside = toks[2:j]
            if inside and all(t.kind in ("ID", "TEXT") or (t.kind == "OP" and t.text in ".:-") for t in inside):
                return toks[j + 2:]
            return toks
    return toks


def capitalised(t: Tok) -> bool:
    return t.kind == "ID" and t.space and len(t.text) > 1 and t.text[0].isupper() and t.text[1:].islower()


def name_colon(stmt: list[Tok], i: int) -> bool:
    """`scores: [...] weights: [...]`: a colon right after a name, with a bracketed value after it."""
    return stmt[i].kind == "OP" and stmt[i].text in (":", "：") and i > 0 and stmt[i - 1].kind == "ID" and \
        i + 1 < len(stmt) and stmt[i + 1].kind == "OP" and stmt[i + 1].text == "["
