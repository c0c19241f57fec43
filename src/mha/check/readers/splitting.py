"""Where a token stream breaks into statements, and a statement into its parts: the statement breaks (a new line,
a sentence's end, a semicolon), matrices written side by side on one line, the relations (=, ≈, ∈, :) and the
commas between statements ("Q = [1, 0], K = [0, 1]").  statements.read_tokens types the pieces."""

from __future__ import annotations

import re
from dataclasses import replace

from .. import numbers as nb
from .columns import column_gap, sum_goes_on
from .sentences import capitalised, name_colon, sentence_end
from .tokens import Tok


# words that open a new clause after "= 1.50,": what follows is another statement, not more of the value
_GOES_ON = frozenset({"so", "thus", "hence", "therefore", "giving", "which", "meaning"})


def split_statements(toks: list[Tok], text_mode: bool) -> list[list[Tok]]:
    """Statement breaks: \\\\, \\quad, ';' and (in plain text) newlines outside brackets."""
    out: list[list[Tok]] = [[]]
    depth = 0
    comment = False
    for i, t in enumerate(toks):
        if comment:
            if t.kind == "SEP" and t.text == "\n":
                comment = False
                out.append([])
            continue
        if text_mode and t.kind == "OP" and t.text == "#" and depth == 0 and any(x.kind == "REL" for x in out[-1]):
            comment = True          # "T = 3   # three tokens": the rest of the line is a comment
            continue
        if t.kind == "OP" and t.text in "[(":
            depth += 1
        elif t.kind == "OP" and t.text in "])":
            depth = max(0, depth - 1)
        if depth == 0 and out[-1] and sentence_end(out[-1][-1], t):
            last = out[-1][-1]                # "exp(0) = 1. Sum = 3.0281.": the period ends the first sentence
            out[-1][-1] = replace(last, text=last.text[:-1], num=None if last.num is None else
                                  nb.Num.parse(last.text[:-1], last.num.line))
            out.append([])
        elif text_mode and depth == 0 and len(out[-1]) >= 2 and out[-1][-1].kind == "OP" and \
                out[-1][-1].text == "." and (out[-1][-2].kind == "NUM" or out[-1][-2].kind == "OP" and
                                             out[-1][-2].text in ("]", ")")) and (capitalised(t) or (
                    out[-1][-2].kind == "OP" and t.kind == "ID" and t.space and
                    any(x.kind == "REL" for x in out[-1]))):
            out[-1].pop()                     # "Sum = 3.0281. So the first token ...", "q = [2, 1]. The keys": it ends
            out.append([])                    # (and "`v2 = [0, 20]`. `d_k = 2`": a value closed, a new name)
        elif text_mode and depth == 0 and len(out[-1]) >= 2 and out[-1][-1].kind == "OP" and \
                out[-1][-1].text == "." and _word_ends_sentence(out[-1][-2]) and (capitalised(t) or _hangul(t)):
            out[-1].pop()                     # "... into probabilities. Applying softmax to [...]": a paragraph's
            out.append([])                    # sentences are statements of their own, as its lines are
        elif text_mode and depth == 0 and len(out[-1]) >= 3 and out[-1][-1].kind == "OP" and \
                out[-1][-1].text == "]" and t.kind == "ID" and re.fullmatch(r"[A-Z][a-z]{2,}", t.text) and \
                any(x.kind == "REL" for x in out[-1]):
            out.append([])                    # "V = [[1, 1, 3], [0, 1, 5]] Next we compute scores.": a word after
            #                                   the value that closes an assignment starts the next sentence
        elif text_mode and depth == 0 and len(out[-1]) >= 3 and out[-1][-1].text in (":", "：") and \
                out[-1][-2].kind == "OP" and out[-1][-2].text == "]" and t.kind == "ID" and \
                any(x.kind == "REL" for x in out[-1][:-1]):
            out[-1].pop()                     # "output[0] = [0.39, 1.00]：token 0 mostly takes V[1] = [0, 1]": the
            out.append([])                    # words after a colon that follows a value say something else
        elif text_mode and depth == 0 and len(out[-1]) >= 2 and out[-1][-1].kind == "OP" and \
                out[-1][-1].text == "," and (out[-1][-2].kind == "NUM" or len(out[-1]) >= 3 and
                                             out[-1][-2].kind == "ID" and out[-1][-3].kind == "NUM") and \
                t.kind == "ID" and t.text.lower() in _GOES_ON:
            out[-1].pop()                     # "... = 1.50, so the weights are [...]": the sum ends at its total
            #                                   (or at its unit: "= 131,072 B, so ...")
            out.append([])
        elif text_mode and depth == 0 and _bullet_after_stop(out[-1], t, toks[i + 1:i + 2]):
            out[-1].pop()                     # "= 30.20. - Divide each by the total": a list flattened into one
            out.append([])                    # line, its next item after the full stop
            continue
        if t.kind == "SEP" and (depth == 0 or t.text != "\n") or (t.kind == "OP" and t.text == ";" and depth == 0) \
                or (text_mode and depth == 0 and t.kind == "OP" and t.text in ("，", "。")):
            if t.text == "\n" and depth:
                out[-1].append(t)
                continue
            out.append([])
            continue
        out[-1].append(t)
    out = [s for s in out if s]
    merged: list[list[Tok]] = []
    for s in out:
        k = _aligned_lead(s) if not text_mode else 0
        if merged and k < len(s) and s[k].kind == "REL" and (text_mode or _continues(merged[-1], s[k:])) and \
                not _arrow_item(s[k:]) and not _vector_after_sum(merged[-1], s[k:]):
            merged[-1].extend(s[k:])
        elif merged and text_mode and _vector_after_sum(merged[-1], s[k:]):
            call = next((m for m in reversed(merged[-4:]) if _softmax_call(m)), None)
            if call is not None:
                call.extend(s[k:])    # the softmax written out above the exponentials and their sum: its value
            else:
                merged.append(s)
        elif text_mode and merged and sum_goes_on(merged[-1], s):
            merged[-1].extend(s)        # "+ (0.12 × 0.06)" under "= (0.04 × 0.08)": a sum written down the page
        elif text_mode and merged and len(merged[-1]) >= 2 and merged[-1][-1].kind == "REL" and \
                merged[-1][-1].text == "=" and merged[-1][-2].kind == "ID" and \
                (s[0].kind == "OP" and s[0].text == "[" or s[0].kind == "MATRIX"):
            merged[-1].extend(s)        # "X =" on its own line, the printout under it (Octave's too): its value
        else:
            merged.append(s)
    return merged


def _softmax_call(m: list[Tok]) -> bool:
    """A statement that is a softmax call and nothing else (`Row 1: softmax([0.00, 2.83, 1.41])`)."""
    k = next((i for i, t in enumerate(m) if t.kind == "ID" and t.text.lower() == "softmax"), None)
    return k is not None and k + 1 < len(m) and m[k + 1].text == "(" and m[-1].text == ")" and \
        not any(t.kind == "REL" for t in m)


def _vector_after_sum(before: list[Tok], s: list[Tok]) -> bool:
    """"sum = 22.05" over "= [0.05, 0.77, 0.19]": the row of weights that the sum divides goes on from the softmax
    worked above them, not from the sum (a number is no vector): the row is a statement of its own."""
    return len(before) >= 3 and before[0].kind == "ID" and before[0].text.lower() in ("sum", "total", "Σ") and \
        before[-1].kind == "NUM" and len(s) >= 3 and s[1].kind == "OP" and s[1].text == "[" and \
        sum(t.kind == "NUM" for t in s) >= 2


# words that a period follows without ending the sentence
_ABBREVIATIONS = frozenset({"etc", "approx", "resp", "eqs", "fig", "figs", "vol", "pp", "sec", "ref", "refs", "cf"})


def _word_ends_sentence(t: Tok) -> bool:
    """A lowercase word of three letters or more (no abbreviation) before a period, or a Korean word (Korean ends
    its sentences with a period, `가정합니다.`): the end of a sentence."""
    return t.kind == "ID" and (len(t.text) >= 3 and t.text.isalpha() and t.text.islower() and
                               t.text not in _ABBREVIATIONS or _hangul(t))


def _hangul(t: Tok) -> bool:
    return t.kind == "ID" and bool(re.fullmatch(r"[\uac00-\ud7af]+", t.text))


def _arrow_item(s: list[Tok]) -> bool:
    """`  → is:  1.786/4.572 = 0.391`: a line that starts with an arrow, a name and a colon is an item of a list
    (one weight per key), a statement of its own, not the chain of the line above going on."""
    return len(s) >= 4 and s[0].text in ("→", "->", "⟶", "=>", "⇒") and s[1].kind == "ID" and \
        s[2].kind == "OP" and s[2].text in (":", "：")


def _bullet_after_stop(stmt: list[Tok], t: Tok, nxt: list[Tok]) -> bool:
    """A number, a full stop, then a dash with a space before it and a capitalised word after it: the next item
    of a bulleted list that was flattened into the line."""
    return len(stmt) >= 2 and stmt[-1].kind == "OP" and stmt[-1].text == "." and not stmt[-1].space and \
        stmt[-2].kind == "NUM" and t.kind == "OP" and t.text in ("-", "–", "•") and t.space and \
        bool(nxt) and capitalised(nxt[0])


def _aligned_lead(s: list[Tok]) -> int:
    """Where an aligned row's own content starts: after the row break's spacing ([2pt], read as a group) and
    the alignment mark, so that "\\\\[2pt] &= [...]" goes on with the chain of the row above."""
    k = 0
    while k < len(s) and ((s[k].kind == "OP" and s[k].text == "&") or _is_spacing_group(s[k])):
        k += 1
    return k


def _is_spacing_group(t: Tok) -> bool:
    inner = (t.args or [[]])[0] if t.kind == "GROUP" and not t.text else []
    return len(inner) >= 3 and inner[0].text == "[" and inner[-1].text == "]" and \
        all(x.kind in ("NUM", "ID") or x.text.replace(".", "").isdigit() for x in inner[1:-1])


def _continues(prev: list[Tok], s: list[Tok]) -> bool:
    """&= [1.74, 1.31] + [0.05, 0.03] on the next line of an aligned derivation: the chain goes on, when both lines
    are arithmetic over brackets (a vector sum written step by step)."""
    return s[0].text in ("=", "≈") and any(x.kind == "REL" for x in prev) and \
        any(_bracket(x) for x in prev) and any(_bracket(x) for x in s)


def _bracket(t: Tok) -> bool:
    return (t.kind == "OP" and t.text == "[") or t.kind == "MATRIX"


def split_juxtaposed(stmt: list[Tok], text: str = "") -> list[list[Tok]]:
    """q₁ = [1, 0.5]    k₁ = [1, 1]    v₁ = [-0.5, 0.5]: assignments side by side on one line.

    After a relation, a bracketed value that closes at the top level and is followed by a short name and a
    relation (no brackets or numbers in between, subscripts aside) ends one statement; the name starts the
    next one."""
    out: list[list[Tok]] = [[]]
    depth = 0
    seen_rel = False
    n = len(stmt)
    skip = -1
    for i, t in enumerate(stmt):
        if i == skip:
            continue
        if seen_rel and depth == 0 and i and column_gap(stmt, i, text):
            out.append([])
            seen_rel = False
        out[-1].append(t)
        if depth == 0 and (t.kind == "REL" or name_colon(stmt, i)):
            seen_rel = True
        if t.kind == "OP" and t.text in "[(":
            depth += 1
        elif t.kind == "OP" and t.text in "])":
            depth = max(0, depth - 1)
            if depth == 0 and seen_rel and t.text == "]" and i + 3 < n and stmt[i + 1].kind == "OP" and \
                    stmt[i + 1].text in (",", ";") and stmt[i + 2].kind == "ID" and name_colon(stmt, i + 3):
                # `Output: [[10. 0.]], Attention: [[0. 1. 0. 0.]]`: the comma ends the first statement
                out.append([])
                seen_rel = False
                skip = i + 1
                continue
            start = i + 1
            if depth == 0 and seen_rel and t.text == "]" and i + 4 < n and stmt[i + 1].text in ('"', "“") and \
                    stmt[i + 2].kind == "ID" and stmt[i + 3].text in ('"', "”") and stmt[i + 4].kind == "ID":
                start = i + 4           # `"the" k₁ = [0, 1]   "cat" k₂ = [2, 0]`: a quoted token's name first
            if depth == 0 and seen_rel and t.text == "]" and start < n and stmt[start].kind == "ID":
                j = start
                while j < n and j <= start + 4 and stmt[j].kind != "REL" and not (
                        stmt[j].kind == "OP" and stmt[j].text not in ("_", "^", "{", "}")) and not (
                        stmt[j].kind == "NUM" and not (stmt[j - 1].kind == "OP" and stmt[j - 1].text in "_^")):
                    j += 1
                if j < n and j > start and (stmt[j].kind == "REL" or name_colon(stmt, j)):
                    out.append([])
                    seen_rel = False
    return [s for s in out if s]


def split_relations(toks: list[Tok]) -> tuple[list[list[Tok]], list[str]]:
    parts: list[list[Tok]] = [[]]
    rels: list[str] = []
    depth = 0
    # parentheses count only when they balance: (K^{(1)}{)}^T hides its ')' in a group
    opens = "[(" if sum(t.text == "(" for t in toks if t.kind == "OP") == \
        sum(t.text == ")" for t in toks if t.kind == "OP") else "["
    closes = "])" if opens == "[(" else "]"
    for t in toks:
        if t.kind == "OP" and t.text in opens:
            depth += 1
        elif t.kind == "OP" and t.text in closes:
            depth = max(0, depth - 1)
        if depth == 0 and (t.kind == "REL" or (t.kind == "OP" and t.text == ":" and parts[-1]
                                               and not _is_time_colon(parts[-1]))):
            rels.append(t.text if t.kind == "REL" else ":")
            parts.append([])
            continue
        parts[-1].append(t)
    return parts, rels


def _is_time_colon(before: list[Tok]) -> bool:
    return False


def split_commas(stmt: list[Tok]) -> list[list[Tok]]:
    """d=4, H=2, d_h=2: top-level commas between pieces that each hold a relation (and `d_model=3 → d_k=2`: an arrow
    between two sizes each set by its own name)."""
    arrowed = _arrowed_settings(stmt)
    if arrowed is not None:
        return [q for p in arrowed for q in split_commas(p)]
    paired = _parallel_lists(stmt)
    if paired is not None:
        return paired
    joined = _named_lists(stmt)
    if joined is not None:
        return joined
    # (seps: the comma or "and" before each piece)
    pieces, seps = _top_level(stmt, lambda t: (t.kind == "OP" and t.text == ",") or
                              (t.kind == "ID" and t.text in ("and", "以及")))
    seps = [sp for sp, p in zip(seps, pieces) if p]
    pieces = [p for p in pieces if p]
    if len(pieces) > 1 and all(any(x.kind == "REL" for x in p) for p in pieces):
        return pieces
    if len(pieces) > 2 and sum(any(x.kind == "REL" for x in p) for p in pieces) >= 2:
        # "exp(2.121) = 8.342, so the weights are 8.342 / 10.370 = 0.804 and 0.196": a piece without a
        # relation belongs to the one before it; each relation keeps its own piece
        out: list[list[Tok]] = []
        lead: list[Tok] = []                    # words before the first relation: the first statement's preamble
        for sp, p in zip(seps, pieces):
            if not out and not any(x.kind == "REL" for x in p):
                lead = lead + ([sp] if sp is not None and lead else []) + p
            elif out and not any(x.kind == "REL" for x in p):
                out[-1] = out[-1] + ([sp] if sp is not None else []) + p
            else:
                out.append((lead + ([sp] if sp is not None else []) + p) if lead and not out else p)
        if len(out) > 1 and all(any(x.kind == "REL" for x in p) for p in out):
            return out
    return [stmt]


# words that join two named values in one sentence ("weights [..] and output [..]", "가중치 [..]과 출력 [..]")
_JOINS = frozenset({"and", "以及", "和", "与", "과", "와", "및", "と"})


def _named_lists(stmt: list[Tok]) -> list[list[Tok]] | None:
    """"the weights are about [0.67, 0.33] and the output about [1.34, 1.32]": values each named by the words before
    them, joined by a conjunction and no relation anywhere: one statement each (the words after the first value
    are no remark on it).  None for any other statement."""
    if any(t.kind == "REL" for t in stmt):
        return None
    pieces, _ = _top_level(stmt, lambda t: t.kind == "ID" and t.text in _JOINS)
    if len(pieces) < 2 or not all(_named_list(p) for p in pieces):
        return None
    return pieces


def _named_list(piece: list[Tok]) -> bool:
    """Words, then one bracketed list of numbers (a backtick or words after it aside)."""
    k = next((i for i, t in enumerate(piece) if t.kind == "OP" and t.text == "["), None)
    if k is None or not any(t.kind == "ID" for t in piece[:k]):
        return False
    depth, end = 0, None
    for i in range(k, len(piece)):
        depth += (piece[i].text == "[") - (piece[i].text == "]")
        if depth == 0:
            end = i
            break
    return end is not None and any(t.kind == "NUM" for t in piece[k:end]) and \
        not any(t.text == "[" for t in piece[end + 1:])


_ARROWS = ("→", "->", "=>", "⟶", "⇒")


def _parallel_lists(stmt: list[Tok]) -> list[list[Tok]] | None:
    """`≈ 0.21*0.79, 0.39*0.61 → 0.17, 0.24`: two lists of one length on either side of an arrow, each item on the
    left worked into the number at its place on the right (not the last left item into the first right number).
    The pairs, each `item → number`; None for any other statement."""
    at = next((k for k, t in enumerate(stmt) if t.kind == "REL" and t.text in _ARROWS), None)
    if at is None:
        return None
    right: list[Tok] = []
    k = at + 1
    while k < len(stmt) and stmt[k].kind == "NUM":
        right.append(stmt[k])
        if k + 1 < len(stmt) and stmt[k + 1].kind == "OP" and stmt[k + 1].text == ",":
            k += 2
        else:
            k += 1
            break
    if len(right) < 2 or (k < len(stmt) and stmt[k].kind == "OP" and stmt[k].text in "*/+-^×·÷"):
        return None                            # the last number on the right is part of more arithmetic
    left, _ = _top_level(stmt[:at], lambda t: t.kind == "OP" and t.text == ",")
    if len(left) < len(right):
        return None
    items = left[-len(right):]
    first = items[0]
    cut = max((j for j, t in enumerate(first) if t.kind == "REL"), default=-1)
    items[0] = first[cut + 1:]                 # "梯度 ≈ 0.21*0.79": the item is what follows its relation
    if any(not it or any(t.kind == "REL" for t in it) or not any(t.kind == "OP" for t in it) for it in items):
        return None                            # each left item is arithmetic of its own
    arrow = stmt[at]
    return [it + [arrow, num] for it, num in zip(items, right)]


def _top_level(stmt: list[Tok], cut) -> tuple[list[list[Tok]], list[Tok | None]]:
    """The statement's pieces between the tokens `cut` accepts outside brackets, and the token before each piece."""
    pieces: list[list[Tok]] = [[]]
    seps: list[Tok | None] = [None]
    depth = 0
    for t in stmt:
        if t.kind == "OP" and t.text in "[(":
            depth += 1
        elif t.kind == "OP" and t.text in "])":
            depth = max(0, depth - 1)
        if depth == 0 and cut(t):
            pieces.append([])
            seps.append(t)
            continue
        pieces[-1].append(t)
    return pieces, seps


def _arrowed_settings(stmt: list[Tok]) -> list[list[Tok]] | None:
    """`d_model=3 → d_k=2` (a projection from one width to another): the pieces between top-level arrows, when each
    opens with a name set by "=" to a number; None otherwise (`[1, 0] → softmax → [..]` stays one chain)."""
    pieces, _ = _top_level(stmt, lambda t: t.kind == "REL" and t.text in ("→", "->", "⟶", "=>"))
    if len(pieces) < 2:
        return None
    for p in pieces:
        q = [x for x in p if x.kind != "SEP"]
        if len(q) != 3 or q[0].kind != "ID" or q[1].kind != "REL" or q[1].text != "=" or q[2].kind != "NUM":
            return None
    return pieces


def elided_tails(raw_parts: list[list[Tok]], rels: list[str]) -> tuple[list[list[Tok]], list[str]]:
    """`x = 0.4×0.5 + 0.9×0.8 + ... = 0.20 + 0.72 + ... = 3.4`: a sum written out term by term but cut short (`+ ...`)
    on two or more sides in a row.  Those sides are equal term for term, and only they are kept, without their tails:
    what comes before them names the whole sum, and what comes after is its value, neither the value of the terms
    shown.  Any other statement as it is."""
    def cut(p: list[Tok]) -> list[Tok] | None:
        t = [x for x in p if x.kind != "SEP"]
        return t[:-2] if len(t) >= 5 and t[-1].kind == "ELL" and t[-2].text in ("+", "-", "−") else None
    cuts = [cut(p) for p in raw_parts]
    run = [k for k, c in enumerate(cuts) if c is not None]
    if len(run) < 2 or run != list(range(run[0], run[0] + len(run))) or \
            any(rels[k - 1] not in ("=", "≈") for k in run[1:]):
        return raw_parts, rels
    return [cuts[k] for k in run], [rels[k - 1] for k in run[1:]]


def without_quoted_remarks(toks: list[Tok]) -> list[Tok]:
    """The tokens without a quoted word in parentheses after a vector or a number (`0.303 × [0.5, 1.0]  ("sat")`):
    a remark that names the token a term belongs to, no factor of the term."""
    if not any(t.text == '"' or t.text == "'" for t in toks):
        return toks
    out: list[Tok] = []
    k = 0
    while k < len(toks):
        t = toks[k]
        if t.kind == "OP" and t.text == "(" and out and (out[-1].text == "]" or out[-1].kind == "NUM") and \
                k + 4 <= len(toks) and toks[k + 1].text in ('"', "'"):
            end = next((m for m in range(k + 2, min(len(toks), k + 8)) if toks[m].text == toks[k + 1].text), None)
            if end is not None and end + 1 < len(toks) and toks[end + 1].text == ")" and \
                    all(x.kind == "ID" for x in toks[k + 2:end]) and end > k + 2:
                k = end + 2
                continue
        out.append(t)
        k += 1
    return out
