"""Matrices drawn in plain text, turned into MATRIX tokens: rows of [ ... ] on consecutive lines (side by
side too), the terminal's ⎡ ⎢ ⎣ matrices, box-drawn ones (┌ │ └), columns of aligned numbers, and nested lists
written side by side.  Everything else is lexed as text."""

from __future__ import annotations

import re

from .. import labels as lb
from .boxes import ascii_boxes, unicode_boxes
from .common import row_letter
from .continued import join_continued
from .drawnproduct import drawn_product, drawn_sum
from .whennamed import named_by_remark
from .sessions import session_printouts
from .tokens import Tok, bracket_weighted_tuples, lex_text
from .worded import worded_roots


_BOX_TOP, _BOX_MID, _BOX_BOT = "⎡", "⎢", "⎣"
_BOX_CHARS = "⎡⎢⎣⎤⎥⎦"


_GROUP = re.compile(r"\[([^\[\]]*)\]")
# one number or ellipsis, then separators (or the end): no two ways to split "1.6243865", so no backtracking
_GROUP_BODY = re.compile(r"^[,\s]*(?:(?:[-+−]?(?:\d+(?:\.\d*)?|\.\d+)(?:[eE][-+]?\d+)?|-?inf|\.\.\.|…)(?:[,\s]+|$))+$")


# a remark in words after a value, behind a left arrow ("= 0.49   ← reasonably high alignment"): no part of it
_ARROW_REMARK = re.compile(r"(?m)(?<=[\d\])])[ \t]+(?:←|⟵|<--|⇐)[ \t][^\n\d]*$")


# arithmetic said in parentheses, "(e.g., √64 = 8)", "(i.e. 2 × 64 = 128)": its left side holds a number, its right
# side is one number
_ASIDE = re.compile(r"\((?P<lead>\s*(?:(?:e\.g\.|i\.e\.|eg|ie|say)\s*,?\s*)?)"
                    r"(?P<body>(?=[^()\n=]*\d)[^()\n=,;'\"\[\]]*?(?:√|\\sqrt|[×*/+^−]|\s-\s)[^()\n=,;'\"\[\]]*"
                    r"(?:=[^()\n=,;'\"\[\]]*)*=\s*[-−]?\d+(?:\.\d+)?\s*)\)"
                    r"(?P<after>[ \t]*[=≈][ \t]*(?:\*\*)?[ \t]*[-−]?\d[\d,.]*(?:\*\*)?)?")


def _aside(m: re.Match) -> str:
    """The aside between statement breaks, every place kept: `; √64 = 8;`.  A relation right after the brackets
    (`+ Wo (512 × 512 = 262,144) = 1,048,576`, a running total) is said of what stands before the aside, which is
    no chain of numbers: it is blanked, so that it does not go on with the aside's own chain."""
    return ";" + " " * len(m.group("lead")) + m.group("body") + ";" + " " * len(m.group("after") or "")


# a remark in parentheses right after a bracketed row, in words, with a number or a relation in it ("（加起来 = 1）",
# "(these sum to 1.0)"): about the row (claims/rowsum.py reads such a sum from the line itself), no part of it
_ROW_REMARK = re.compile(r"(\[[-+−\d.,\s]*\d[-+−\d.,\s]*\])([ \t]*[（(](?=[^()（）\n]*(?:[\u4e00-\u9fff]{2}|[A-Za-z]{3,}))"
                         r"(?=[^()（）\n]*[=≈\d])[^()（）\n]*[）)])")


# `  [0.8, 2.1, 4.0, -∞],   位置2は0,1,2のみ参照`: words a run of spaces after a row of a matrix drawn down the lines, a
# remark on that row (the same in a comment: codecomments.py)
_ROW_LINE_WORDS = re.compile(r"^(\s*\[{1,2}[^\[\]\n]*\d[^\[\]\n]*\](?:,|\]))"
                             r"([ \t]{2,}(?!dtype|grad_fn|device|requires_grad)(?=[^\W\d_])[^\[\]=\n]*)$", re.M)


_PRINTOUT_CALL = re.compile(r"\b(?:tensor|array|Tensor|DeviceArray|Array)\(\s*\[")


def _groups(line: str) -> list[tuple[int, int]] | None:
    """Column spans of the one-level number groups [ 1 0 2 ] of a line, if the line's brackets are all such."""
    if line.count("[") != line.count("]") or "[[" in line.replace(" ", "") or "]]" in line.replace(" ", ""):
        return None
    if _PRINTOUT_CALL.search(line):
        return None               # tensor([0.14, 0.23]) on each line: a printout each, not the rows of one matrix
    out = []
    for m in _GROUP.finditer(line):
        if m.start() > 0 and re.match(r"[\w\])]", line[m.start() - 1]) and \
                not re.search(r"\d\.\d.*[,\s].*\d\.\d", m.group(1)):
            continue                          # scores[0][1]: an index, not a group of numbers (but `bites[ 0.80,
            #                                   1.09, -0.40]`, a row name glued to its row, is a row)
        if not _GROUP_BODY.match(m.group(1)) or not re.search(r"\d", m.group(1)):
            return None
        out.append((m.start(), m.end()))
    return out or None


def text_tokens(text: str) -> list[Tok]:
    """Tokens of plain text.  Matrices written as rows of [ ... ] on consecutive lines (side by side too,
    as in "Q = [ 1 0 ]   K = [ 2 1 ]") and the terminal's ⎡ ⎢ ⎣ matrices become MATRIX tokens."""
    text = _ARROW_REMARK.sub(lambda m: " " * len(m.group(0)), text)   # "= 0.49   ← reasonably high": a remark
    text = _ASIDE.sub(_aside, text)           # "by √d_k (e.g., √64 = 8) to keep": the aside, a statement of its own
    text = _ROW_REMARK.sub(lambda m: m.group(1) + " " * len(m.group(2)), text)   # "[0.29, 0.38]（加起来 = 1）"
    text = _ROW_LINE_WORDS.sub(lambda m: m.group(1) + " " * len(m.group(2)), text)   # "[1.2, 3.4],   row 1 sees"
    text = join_continued(text)               # "  + 0.3×[...]" and "  = [...]" lines go on with the line above
    text = worded_roots(text)                 # "the square root of 64, which is 8": √64 = 8 (worded.py)
    text = bracket_weighted_tuples(text)      # 0.4 · (1, 0) + 0.6 · (0, 1) = (0.4, 0.6)
    text = session_printouts(text)            # Julia's and R's printouts, named (sessions.py)
    text = indexed_names(text)                # "query 0   1  4  3" under "key 0  key 1  key 2": query_0
    text = named_by_remark(text)              # "after: [0.57, 0.29]  -- weights": the remark names it (whennamed.py)
    has_box = any(c in text for c in _BOX_CHARS)
    lines = text.split("\n")
    if "|" in text:
        lines = ascii_boxes(lines)           # `X = | 1  0 |` over `    | 0  1 |`: bars drawn in ASCII
        text = "\n".join(lines)
    if "│" in text:
        lines, drawn = unicode_boxes(lines)
        has_box = has_box or drawn
    aligned = any(_aligned_run(lines, k) > k for k in range(len(lines)) if _ALIGNED_ROW.match(lines[k]))
    woven = any(len(_WOVEN_HEAD.findall(line)) >= 2 for line in lines)
    if not has_box and not aligned and not woven and not _multi_row(lines):
        return lex_text(text)
    starts = []
    p = 0
    for line in lines:
        starts.append(p)
        p += len(line) + 1
    out: list[Tok] = []
    depths = _depths(lines)
    i = 0
    while i < len(lines):
        line = lines[i]
        if has_box and _BOX_TOP in line:
            j = i
            while j < len(lines) and (_BOX_BOT not in lines[j]) and (j == i or _BOX_MID in lines[j]):
                j += 1
            if j < len(lines) and _BOX_BOT in lines[j]:
                # drop a column-number header line just emitted
                if i > 0 and re.fullmatch(r"\s*(\d+\s+)*\d+\s*", lines[i - 1]):
                    while out and out[-1].pos >= starts[i - 1]:
                        out.pop()
                out.extend(_box(lines, starts, i, j))
                out.append(Tok("SEP", "\n", starts[j] + len(lines[j]), end=starts[j] + len(lines[j])))
                i = j + 1
                continue
        got = (drawn_product(lines, starts, i, _groups) or drawn_sum(lines, starts, i)) \
            if depths[i] == 0 and "[" in line else None
        if got is not None:                  # [..] x [..] = [..] with factors of their own heights
            toks, i = got
            out.extend(toks)
            i += 1
            continue
        if woven:
            got = _woven(lines, starts, i)
            if got is not None:
                toks, j = got
                out.extend(toks)
                i = j + 1
                continue
        run = _aligned_run(lines, i) if depths[i] == 0 else i
        placed = _placed_names(lines[i - 1], lines[i:run + 1]) if run > i and i > 0 else None
        if placed:
            # "W_Q                  W_K" over rows of both: each name over the numbers below it
            while out and out[-1].pos >= starts[i - 1]:
                out.pop()
            out.extend(_grouped(lines, starts, i, run, placed))
            i = run + 1
            continue
        if run > i:
            # a header of column names just emitted ("k1 k2 k3") is not part of the text: dropped, so that the
            # table keeps the label written above it ("Attention weights:")
            if i > 0 and _column_header(lines[i - 1], lines[i]):
                while out and out[-1].pos >= starts[i - 1]:
                    out.pop()
                groups = _named_column_groups(lines[i - 1])
                if groups:
                    out.extend(_grouped(lines, starts, i, run, groups))
                    i = run + 1
                    continue
            out.extend(_aligned(lines, starts, i, run))
            i = run + 1
            continue
        run = _run(lines, i, depths)
        if run > i:
            out.extend(_side_by_side(lines, starts, i, run))
            i = run + 1
            continue
        out.extend(lex_text(line + "\n", starts[i]))
        i += 1
    return out


_WOVEN_ROW = r"\[\s*[-+−\d.eE,\s]*\]"
_WOVEN_HEAD = re.compile(r"[A-Za-z_][\w^{}()]*\s*=\s*\[\s*" + _WOVEN_ROW + r"\s*,?")   # ("Q = [ [1, 0],": spaced)
_WOVEN_PIECE = re.compile(_WOVEN_ROW + r"\s*\]?\s*,?")


def _woven(lines: list[str], starts: list[int], i: int) -> tuple[list[Tok], int] | None:
    """Nested lists written side by side and continued row by row:
        Wq = [[1, 0], Wk = [[1, 1], Wv = [[1, 0],
        [0, 1]] [0, 1]] [0, 1]]
    read as one matrix after the other (each piece keeps its place)."""
    heads = list(_WOVEN_HEAD.finditer(lines[i]))
    if len(heads) < 2 or _WOVEN_HEAD.sub("", lines[i]).strip():
        return None
    pieces: list[list[tuple[int, str]]] = [[(starts[i] + h.start(), h.group())] for h in heads]
    open_ = [True] * len(heads)
    j = i
    while any(open_):
        j += 1
        if j >= len(lines):
            return None
        found = list(_WOVEN_PIECE.finditer(lines[j]))
        which = [k for k in range(len(heads)) if open_[k]]
        if len(found) != len(which) or _WOVEN_PIECE.sub("", lines[j]).strip():
            return None
        for k, g in zip(which, found):
            pieces[k].append((starts[j] + g.start(), g.group()))
            if re.search(r"\]\s*\]", g.group()):
                open_[k] = False
    out: list[Tok] = []
    for k, ps in enumerate(pieces):
        for pos, piece in ps:
            out.extend(lex_text(piece.rstrip().rstrip(",") if piece is ps[-1][1] else piece, pos))
        end = ps[-1][0] + len(ps[-1][1])
        out.append(Tok("SEP", "\n", end, end=end))
    return out, j


_NUMBER_TOKEN = r"(?:[-+−]?(?:\d+\.\d*|\.\d+|\d+)(?:[eE][-+]?\d+)?|[-−]?inf|[-−]∞)"
# a row's name may be quoted and set off by a rule ("love"  │ 0.45 ...); a note may follow the row's numbers
# ("0.46  0.54  0.00   ← split between I and itself", "<- sees itself", "# comment", "(sum: 1.0)"): words about the
# row, not entries;
# a token of a sentence can be its punctuation or a special token (".", "?", "<eos>"); pandas index labels may say
# which side the token is on ("q:Paris", "k:alt"); an arrow may part the name from its numbers ("study → 2 4 5")
_ALIGNED_ROW = re.compile(r"^\s*(?P<name>(?:(?:[A-Za-z]{1,3}:)?[\"']?[A-Za-z_\u4e00-\u9fff][\w\u4e00-\u9fff]{0,15}[\"']?|[.,!?]|"
                          r"</?\w{1,6}>)"
                          r"(?:\s*[│┃|→]\s*|\s+->\s+|\s+))?"
                          r"(?P<nums>" + _NUMBER_TOKEN + r"(?:[ \t]+" + _NUMBER_TOKEN + r")+)\s*(?P<note>(?:←|<-+|#)\s.*|[(（][^()（）]*[)）])?$")


_INDEXED_HEAD = re.compile(r"^\s*(?:[A-Za-z]{1,8} \d{1,2}\s+){1,}[A-Za-z]{1,8} \d{1,2}\s*$")
_INDEXED_ROW = re.compile(r"^(\s*[A-Za-z]{1,8}) (\d{1,2}\s+" + _NUMBER_TOKEN + r"(?:[ \t]+" + _NUMBER_TOKEN + r")+\s*)$")


def indexed_names(text: str) -> str:
    """A plain-text table whose columns are named "key 0  key 1  key 2" and whose rows start "query 0": each such
    name joined by an underscore (one character for one, so columns keep their places), so the row's index is read
    as part of its name, not as its first number."""
    if " 0" not in text and " 1" not in text:
        return text
    lines = text.split("\n")
    for k, head in enumerate(lines[:-1]):
        if not _INDEXED_HEAD.match(head):
            continue
        n = len(re.findall(r"[A-Za-z]{1,8} \d{1,2}", head))
        rows = []
        for j in range(k + 1, len(lines)):
            m = _INDEXED_ROW.match(lines[j])
            if m is None or len(m.group(2).split()) != n + 1:
                break
            rows.append(j)
        if len(rows) >= 2:
            lines[k] = re.sub(r"([A-Za-z]{1,8}) (\d{1,2})", r"\1_\2", head)
            for j in rows:
                lines[j] = re.sub(r"^(\s*[A-Za-z]{1,8}) (\d)", r"\1_\2", lines[j])
    return "\n".join(lines)


def _aligned_run(lines: list[str], i: int) -> int:
    """The last line of a block of rows like "q2   0.4172   0.0849    -inf" (plain-text tables)."""
    m = _ALIGNED_ROW.match(lines[i])
    if not m:
        return i
    n = len(m.group("nums").split())
    j = i
    while j + 1 < len(lines):
        m2 = _ALIGNED_ROW.match(lines[j + 1])
        if not m2 or len(m2.group("nums").split()) != n:
            break
        j += 1
    return j


def _column_header(head: str, row: str) -> bool:
    """Is this line the column names of the aligned row under it ("  I   love   dogs", "k1 k2 k3"): one word per
    column, none of them a number?"""
    words = head.split()
    m = _ALIGNED_ROW.match(row)
    return bool(m) and len(words) == len(m.group("nums").split()) and \
        all(re.fullmatch(r"(?:[A-Za-z]{1,3}:)?[\"“]?[^\W\d][\w'’-]{0,11}[\"”]?", w) for w in words)


def _named_column_groups(head: str) -> list[tuple[str, list[int]]] | None:
    """Column names that number the columns of several quantities side by side ("Q1 Q2 K1 K2 V1 V2", a pandas
    printout of np.hstack([Q, K, V])): each name's columns, when there are two names or more, each over two
    consecutive columns or more numbered from 0 or 1 in order.  None for any other header."""
    groups: list[tuple[str, list[int], list[int]]] = []      # (name, its numbers, its columns)
    for k, w in enumerate(head.split()):
        m = re.fullmatch(r"([A-Za-z][A-Za-z]?)_?(\d{1,2})", w)
        if not m:
            return None
        if groups and groups[-1][0] == m.group(1):
            groups[-1][1].append(int(m.group(2)))
            groups[-1][2].append(k)
        elif any(g[0] == m.group(1) for g in groups):
            return None
        else:
            groups.append((m.group(1), [int(m.group(2))], [k]))
    if len(groups) < 2 or any(len(ns) < 2 or ns != list(range(ns[0], ns[0] + len(ns))) or ns[0] not in (0, 1)
                              for _, ns, _ in groups):
        return None
    return [(name, ks) for name, _, ks in groups]


def _placed_names(head: str, rows: list[str]) -> list[tuple[str, list[int]]] | None:
    """Names written over matrices typed side by side ("W_Q", a run of spaces, "W_K", rows of eight numbers below):
    each name's columns, the numbers that start at or after its place and before the next name's.  Two names or
    more, each a quantity's name, each over two numbers or more of every row, a gap of three spaces or more
    between the groups; None otherwise."""
    names = [(m.start(), m.group(0).strip()) for m in re.finditer(r"\S+(?: \S+)*", head)]
    if len(names) < 2 or any(lb.parse_label(n) is None or re.search(r"\d", n[:1]) for _, n in names) or \
            any(b - (a + len(x)) < 3 for (a, x), (b, _) in zip(names, names[1:])):
        return None
    cols: list[list[int]] | None = None
    for row in rows:
        m = _ALIGNED_ROW.match(row)
        if m is None or m.group("name"):
            return None
        at = [m.start("nums") + t.start() for t in re.finditer(r"\S+", m.group("nums"))]
        ends = [m.start("nums") + t.end() for t in re.finditer(r"\S+", m.group("nums"))]
        # a number belongs to the name whose place it reaches (a sign or a digit may stand a little left of it)
        own = [max((k for k, (a, _) in enumerate(names) if e > a), default=0) for e in ends]
        got = [[c for c, k in enumerate(own) if k == g] for g in range(len(names))]
        if any(len(g) < 2 for g in got) or any(at[g[0]] - ends[g[0] - 1] < 3 for g in got[1:]) or \
                (cols is not None and got != cols):
            return None
        cols = got
    return [(n, ks) for (_, n), ks in zip(names, cols)] if cols else None


def _grouped(lines: list[str], starts: list[int], i: int, j: int, groups) -> list[Tok]:
    """One matrix per group of named columns, each after its name: `Q = MATRIX`, `K = MATRIX`, ..."""
    whole = _aligned(lines, starts, i, j)[0]
    out: list[Tok] = []
    for name, ks in groups:
        out.extend(lex_text(f"{name} = ", whole.pos))
        out.append(Tok("MATRIX", "aligned", whole.pos, args=[[row[k] for k in ks] for row in whole.args],
                       end=whole.end))
        out.append(Tok("SEP", "\n", whole.end, end=whole.end))
    return out


def _aligned(lines: list[str], starts: list[int], i: int, j: int) -> list[Tok]:
    rows = []
    for k in range(i, j + 1):
        m = _ALIGNED_ROW.match(lines[k])
        a = m.start("nums")
        cells = [lex_text(t.group(0), starts[k] + a + t.start()) for t in re.finditer(r"\S+", m.group("nums"))]
        rows.append(cells)
    return [Tok("MATRIX", "aligned", starts[i] + _ALIGNED_ROW.match(lines[i]).start("nums"), args=rows,
                end=starts[j] + len(lines[j])), Tok("SEP", "\n", starts[j] + len(lines[j]), end=starts[j] + len(lines[j]))]


def _depths(lines: list[str]) -> list[int]:
    """The bracket depth at the start of each line: rows inside an open [[ ... belong to that list."""
    out, d = [], 0
    for line in lines:
        out.append(d)
        d = max(0, d + line.count("[") - line.count("]") + line.count("(") - line.count(")"))
    return out


def _multi_row(lines: list[str]) -> bool:
    prev = False
    for line, d in zip(lines, _depths(lines)):
        g = "[" in line and d == 0 and _groups(line)
        if g and prev:
            return True
        prev = bool(g)
    return False


def _run(lines: list[str], i: int, depths: list[int] | None = None) -> int:
    """The last line of a block of consecutive lines made of [ ... ] groups in the same columns (≥ 2 lines)."""
    if depths is not None and depths[i]:
        return i
    g0 = _groups(lines[i]) if "[" in lines[i] else None
    if not g0:
        return i
    cols = [a for a, _ in g0]
    j = i
    while j + 1 < len(lines):
        if depths is not None and depths[j + 1]:
            break
        g = _groups(lines[j + 1]) if "[" in lines[j + 1] else None
        if not g or not all(any(abs(a - c) <= 3 for c in cols) for a, _ in g):
            break
        first = _groups(lines[i]) or []
        # ") =" and ")   =" are the same operator between the groups: compare with spaces squeezed
        gaps0 = [re.sub(r"\s+", " ", lines[i][b:a].strip()) for (_, b), (a, _) in zip(first, first[1:])]
        gaps1 = [re.sub(r"\s+", " ", lines[j + 1][b:a].strip()) for (_, b), (a, _) in zip(g, g[1:])]
        if any(x and x == y for x, y in zip(gaps0, gaps1)):
            break                  # "[1,0] · [0,1] = ..." on every line: statements, not matrix rows
        if any(_PRODUCT_GAP.fullmatch(x) for x in gaps0 + gaps1):
            break                  # "scores: [1,1]·[0,1] = 1" over "softmax: [0.33, 0.67]": a product's factors
            #                        on one of the lines, no row of a matrix drawn down them
        if _own_label_other_width(lines[j], lines[j + 1], _groups(lines[j]) or [], g):
            break                  # "weights [6 numbers]" over "output [4 numbers]": two printouts, each named
        if lines[j + 1][:g[0][0]].strip() in ("=", "->", "→", "⇒", "≈"):
            break                  # "    = [3, 3]" under "    = [3, 4] @ [4, 3]": the next step of a derivation
        if _opened(lines[j + 1][:g[0][0]]) or _opened(lines[i][:cols[0]]):
            break                  # "α = softmax([2.0, 0.8]) = [..]": a call's argument, no row of a drawn matrix
        if any(re.search(r"[A-Za-z\u4e00-\u9fff]", lines[j + 1][b:a]) for (_, b), (a, _) in zip(g, g[1:])) and not (
                not any(gaps0) and all(re.fullmatch(r"\s*(?:[A-Za-z_][\w^{}]{0,8}\s*=\s*)?", lines[j + 1][b:a])
                                       for (_, b), (a, _) in zip(g, g[1:]))):
            # (side-by-side matrices named on a later row, "W_Q = [..]   W_K = [..]", under blank gaps, go on)
            break                  # "ant: [2,1] · Wk = [1, 3]" on each line: statements, not matrix rows
        j += 1
    return j if j > i else i


# what stands between two groups that are factors of one product: `[1,1]·[0,1]`, `[1, 0] @ [0, 1]`, `\cdot`
_PRODUCT_GAP = re.compile(r"[·⋅∙*×@]|\\cdot|\\times")


def _opened(prefix: str) -> bool:
    """Does the text before a line's first bracket leave a parenthesis open (`softmax(`)?"""
    return prefix.count("(") > prefix.count(")")


def _own_label_other_width(line: str, nxt: str, g: list[tuple[int, int]], h: list[tuple[int, int]]) -> bool:
    """Does the next line name its own group with a word, and hold another count of numbers or name another
    quantity?  `print("weights", w)` then `print("output", o)` give one labelled printout per line; rows of one
    matrix share a width (a matrix with a word on each row, "The [0.1 0.2]", keeps one)."""
    if len(g) != 1 or len(h) != 1 or not re.search(r"[A-Za-z\u4e00-\u9fff]", nxt[:h[0][0]]):
        return False
    if len(_NUMS.findall(line[g[0][0]:g[0][1]])) != len(_NUMS.findall(nxt[h[0][0]:h[0][1]])):
        return True
    # "scores [..]" over "weights [..]": each line names another quantity (token names, "The [..]" over "cat [..]",
    # and per-token vectors, "q1 [..]" over "q2 [..]", name rows of one matrix)
    here, there = lb.parse_label(line[:g[0][0]].strip(" :=")), lb.parse_label(nxt[:h[0][0]].strip(" :="))
    if _same_row_named(line[:g[0][0]], nxt[:h[0][0]]):
        return True                # "unscaled softmax row 0: [..]" over "scaled softmax row 0: [..]": one row each
    return here is not None and there is not None and not set(here.nodes) & set(there.nodes)


_ROW_INDEX = re.compile(r"\brow\s*#?\s*(\d+)\b", re.I)


def _same_row_named(a: str, b: str) -> bool:
    """Both labels name the same row by its index: two rows of one matrix never do."""
    x, y = _ROW_INDEX.findall(a), _ROW_INDEX.findall(b)
    return len(x) == 1 and x == y


_NUMS = re.compile(r"[-+−]?(?:\d+(?:\.\d*)?|\.\d+)(?:[eE][-+]?\d+)?")


def _side_by_side(lines: list[str], starts: list[int], i: int, j: int) -> list[Tok]:
    clusters: list[dict] = []
    for k in range(i, j + 1):
        for a, b in _groups(lines[k]):
            cl = next((c for c in clusters if abs(c["col"] - a) <= 3), None)
            if cl is None:
                cl = {"col": a, "rows": [], "label": "", "label_pos": starts[k] + a}
                clusters.append(cl)
            cl["rows"].append((k, a, b))
    clusters.sort(key=lambda c: c["col"])
    out: list[Tok] = []
    for n, cl in enumerate(clusters):
        k0, a0, _ = cl["rows"][0]

        def prefix(k: int, a: int) -> str:
            left = max((b for (kk, aa, b) in (r for c in clusters[:n] for r in c["rows"]) if kk == k), default=0)
            return lines[k][left:a]
        label = prefix(k0, a0)
        names = [re.sub(r"\s*(?:=|->|→|:|~|≈)\s*$", "", prefix(k, a)).strip() for (k, a, _) in cl["rows"]]
        left_end = max((b for (kk, aa, b) in (r for c in clusters[:n] for r in c["rows"]) if kk == k0), default=0)
        if not label.strip() and k0 > 0 and lines[k0 - 1].strip() and not _groups(lines[k0 - 1]):
            # the name written above the column: "W_Q (3×2)        W_K (3×2)"
            above = lines[k0 - 1]
            # (to the end of the line when no column follows: "O = AV" keeps its last letter)
            nxt = min((c["col"] for c in clusters if c["col"] > cl["col"]), default=len(above) + 1)
            words = above[max(0, a0 - 2):max(a0, nxt - 1)].strip()
            words = re.sub(r"\s*[\(（][^)）]*[\)）]?\s*$|[:：]\s*$", "", words).strip()
            if words and lb.parse_label(words) is not None:
                label = words + " = "
                left_end = a0
        label_at = starts[k0] + left_end
        named = [(k, a) for (k, a, _) in cl["rows"] if re.sub(r"\s*(?:=|->|→|:|~|≈)\s*$", "", prefix(k, a)).strip()]
        if not label.strip() and len(named) == 1 and len(cl["rows"]) > 1 and \
                re.search(r"(?:=|:)\s*$", prefix(*named[0])) and lb.parse_label(names[[k for k, *_ in cl["rows"]].index(
                    named[0][0])]) is not None:
            # the name on a later row: "W_Q  =  [ 0  1  0 ]" under "        [ 1  0  0.5 ]"
            k, a = named[0]
            label = prefix(k, a)
            label_at = starts[k] + max((b for (kk, aa, b) in (r for c in clusters[:n] for r in c["rows"]) if kk == k),
                                       default=0)
            names = [""] * len(names)
        # (a line of names over the columns; a line of its own bracketed values states them, it heads nothing)
        header_axis = k0 > 0 and len(re.findall(r"\b[A-Za-z]_?\d+\b", lines[k0 - 1])) >= 2 and \
            not ("[" in lines[k0 - 1] and _groups(lines[k0 - 1]))
        words_only = all(re.fullmatch(r"[A-Za-z\u4e00-\u9fff\"']+|[.,!?;]", x) for x in names if x)   # "." a token too
        if sum(bool(x) for x in names) > 1 and not row_letter(names) and not header_axis and \
                (not words_only or _steps_named(names)) and \
                len(set(names)) == len(names) and not all(re.fullmatch(r"(?:token|row|query|q|k|x|行|词)\s*_?\d+", x, re.I)
                                                          for x in names if x):
            # rows with names of their own ("row 0: [...]", "scores: [...]"): one vector each
            for (k, a, b) in cl["rows"]:
                pre = prefix(k, a)
                left = max((bb for (kk, aa, bb) in (r for c in clusters[:n] for r in c["rows"]) if kk == k), default=0)
                out.extend(lex_text(pre, starts[k] + left))
                cells = [lex_text(m.group(0), starts[k] + a + 1 + m.start()) for m in re.finditer(r"[^\s,]+",
                                                                                              lines[k][a + 1:b - 1])]
                out.append(Tok("MATRIX", "row", starts[k] + a, args=[cells], end=starts[k] + b))
                rest = lines[k][b:]
                if re.match(r"\s*;", rest) and not _groups(rest):
                    # statements of their own after the row (`[0.59, -0.21];  0.84/1.414 = 0.59;  ...`, the
                    # items of a worked list, workedlists.py)
                    out.extend(lex_text(rest, starts[k] + b))
                out.append(Tok("SEP", "\n", starts[k] + len(lines[k]), end=starts[k] + len(lines[k])))
            continue
        caption = _caption(lines[k0 - 1]) if k0 > 0 and words_only else None
        if sum(bool(x) for x in names) > 1 and caption is not None:
            label = caption + " = "           # "please → [1, 0]" under "Query vectors:"
        elif sum(bool(x) for x in names) > 1 and words_only and k0 > 0 and re.search(
                r"embedding|input|token|输入|词向量|嵌入", lines[k0 - 1], re.I):
            label = "X = "                    # "please → [1, 0]" under "each token has an embedding"
        elif sum(bool(x) for x in names) > 1:
            label = (row_letter(names) + " = ") if row_letter(names) and not header_axis else ""
            if not label:
                out.extend(lex_text(prefix(k0, a0), starts[k0] + left_end))
                out.append(Tok("SEP", "\n", starts[k0] + a0, end=starts[k0] + a0))
        rows = []
        for (k, a, b) in cl["rows"]:
            body = lines[k][a + 1:b - 1]
            cells = []
            for m in re.finditer(r"[^\s,]+", body):
                cells.append(lex_text(m.group(0), starts[k] + a + 1 + m.start()))
            rows.append(cells)
        if label.strip():
            toks = lex_text(label, label_at)
            for t in toks:
                t.pos = max(t.pos, starts[k0])
            out.extend(toks)
        out.append(Tok("MATRIX", "rows", starts[k0] + a0, args=rows, end=starts[cl["rows"][-1][0]]))
        out.append(Tok("SEP", "\n", starts[k0] + a0, end=starts[k0] + a0))
    # what follows the groups on the block's lines (rarely anything) is dropped
    return out


_UBAR = "│┃|"


def _box(lines: list[str], starts: list[int], i: int, j: int) -> list[Tok]:
    if any(not any(ch in "⎡⎢⎣" for ch in lines[k]) or not any(ch in "⎤⎥⎦" for ch in lines[k]) for k in range(i, j + 1)):
        return [t for k in range(i, j + 1) for t in lex_text(lines[k] + "\n", starts[k])]   # not a whole box
    rows, label, suffix = [], "", ""
    label_line, suffix_line = i, i
    for k in range(i, j + 1):
        line = lines[k]
        a = next(p for p, ch in enumerate(line) if ch in "⎡⎢⎣")
        b = max(p for p, ch in enumerate(line) if ch in "⎤⎥⎦")
        before = re.sub(r"^\s*\d+\s", " ", line[:a]).strip()
        if before:
            label, label_line = before, k
        after = line[b + 1:].strip()
        if after:
            suffix, suffix_line = after, k
        cells = []
        for m in re.finditer(r"\S+", line[a + 1:b]):
            cells.append(lex_text(m.group(0), starts[k] + a + 1 + m.start()))
        rows.append(cells)
    toks = lex_text(label, starts[label_line]) if label else []
    for t in toks:
        t.pos = starts[label_line] + (lines[label_line].find(label) if label else 0)
    toks.append(Tok("MATRIX", "box", starts[i], args=rows, end=starts[j] + len(lines[j])))
    if suffix:
        toks.extend(lex_text(suffix, starts[suffix_line] + lines[suffix_line].find(suffix)))
    return toks


def _caption(line: str) -> str | None:
    """A line of its own that names a quantity and ends in a colon ("Query vectors:", "Q 矩阵："): the caption of the
    rows under it, named by their tokens."""
    t = line.strip()
    if not re.search(r"[:：]$", t) or "[" in t or len(t) > 40:
        return None
    words = t.rstrip(":： ")
    return words if words and lb.parse_label(words) is not None else None


_STEP_WORDS = re.compile(r"^(?:raw|scores?|logits?|scaled|softmax|weights?|probs?|probabilities|exp|masked|output|"
                         r"分数|权重|缩放后?|输出)$", re.I)


def _steps_named(names: list[str]) -> bool:
    """Rows named by the steps they are ("raw: [...]" over "softmax: [...]"), not by tokens: each is a vector of
    its own, not a row of one matrix."""
    named = [x for x in names if x]
    return len(named) >= 2 and all(_STEP_WORDS.match(x) for x in named) and len(set(named)) == len(named)
