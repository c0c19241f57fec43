"""Scopes judged on their own: a document that holds several examples (a lab page with separate exercises, a
post that goes on with "another example", 例2) has one configuration per example.  The document's configuration
is inferred from the objects that most of it explains; a section whose printed objects it does not explain is
another example's.  Such a section is read again on its own (the other lines blanked, so that line numbers stay
those of the document), its configuration inferred from its own objects, and judged under it with the same rules
(identity before verdict, runner-ups, notes).  Its findings and "not checked" objects replace the document's
"not checked" lines there, and the evidence names the scope, where it starts and how it was inferred.

A scope starts at a heading, or at a line that says another example starts ("Another example", "Example 2",
"第二个例子", "例2", "再看一个例子").  A section read on its own that infers nothing, or explains none of the
objects the document's configuration left unchecked there, changes nothing.  A notebook's example starts again
at a code cell that binds an input's or a size's name once more (`L, d_k, d_v = 4, 8, 8` after the same line
earlier, `X = ...` again); the other cells are emptied, so cell numbers stay those of the notebook.
"""

from __future__ import annotations

import re
from typing import Any, Callable

from . import labels as lb

MAX_SCOPES = 4            # sections read again; each is a whole check of a short text

# a line that opens another example: its first words say so
_OPENER = re.compile(r"^\W{0,6}(another example|a second example|example\s*(?:2|two|ii)\b|second example|"
                     # an exercise site's further test cases: "Case 2: single query", "Test case 3"
                     r"(?:test\s*)?case\s*#?\s*[2-9]\s*[:.)]|second (?:test )?case\b|"
                     r"再看一个例子|另一个例子|第二个例子|例\s*[2二](?!\d)|示例\s*[2二](?!\d)|"
                     # an exercise of its own: "7. 手算题。k1 = …", "Exercise 3:", "Problem 2.", "练习 2"
                     r"\d{1,2}\s*[.)、．]\s*(?:\*\*)?(?:手算题|计算题|练习题?|习题|exercise|problem)|"
                     r"(?:exercise|problem|practice problem)\s*\d{1,2}\b|(?:练习|习题|演習|練習|問題|例題|연습|문제)\s*\d{1,2}(?!\d)|"
                     # a solution set's run-in labels in bold: "**E16.** Scores: ...", "**Q3.**", "**P2:**"
                     r"\*\*[EQP]\s?\d{1,3}[.:)]?\*\*|"
                     # a quiz's questions as headings: "### Q12 — Masked forward pass", "## Question 3:"
                     r"(?<=#\s)\s*(?:q|question)\s?\d{1,3}\s*[—–:.)-])"
                     # a Pandoc / Quarto / MyST block of its own: "::: exercise", "::: {.exercise}", "```{exercise}"
                     r"|^(?::::+|```+)\s*\{?\s*\.?(?:exercise|problem|question)\b", re.I)


# a heading over exercises, homework or practice in any of the languages read ("## Bài tập 50 phút", "### Übungen",
# "## 练习与思考"): the sizes and givens stated under it are the exercises', not the example's
_EXERCISES = re.compile(r"^\s{0,3}#{1,6}\s+(?:\d+(?:\.\d+)*[.)]?\s+)?(?:\*\*)?(?:exercises?|homework|assignments?|"
                        r"practice(?:\s+problems?)?|problems?\s+set|bài tập|übung(?:en)?|aufgaben|ejercicios|"
                        r"exerc[ií]cios|exercices|esercizi|ćwiczenia|zadania|упражнения|задачи|alıştırmalar|ödev|"
                        r"latihan|tugas|练习|習題|习题|作业|課題|演習|練習|연습\s*문제|과제)", re.I)


def mark_openers(doc: Any, text: str, fmt: str) -> None:
    """A line that says another example starts opens a section as a heading does (claims/scope.py then keeps the
    document's configuration out of it)."""
    if fmt == "ipynb":
        return
    from .objects import Place
    have = {(p.cell, p.line) for p in doc.headings}
    for i, line in enumerate(text.splitlines(), start=1):
        if _OPENER.match(line) or _EXERCISES.match(line):
            doc.openers.append(Place(i, None, "heading"))
            if (None, i) not in have:
                doc.headings.append(Place(i, None, "heading"))
    doc.headings.sort(key=lambda p: (p.cell or 0, p.line))


def scope_starts(doc: Any, text: str) -> list[tuple[int, str]]:
    """Where each scope starts (line, the words that open it): the document's headings, the lines that open
    another example (mark_openers) and the code blocks that bind an input's name again (rebinding_starts), in
    order; the first scope starts at line 1."""
    lines = text.splitlines()
    out = {1: "the start"}
    for p in doc.headings:
        if p.cell is None and 1 <= p.line <= len(lines):
            out.setdefault(p.line, lines[p.line - 1].strip().lstrip("#").strip()[:60] or "a heading")
    for line, words, since in rebinding_starts(text):
        if not any(since < s <= line for s in out):
            out[line] = words                # no heading opened an example since the name was bound before
    return sorted(out.items())


_FENCE = re.compile(r"^\s*(```|~~~)")


def _code_blocks(text: str) -> list[tuple[int, list[str]]]:
    """Each fenced code block of a Markdown text: (line of its first code line, its lines)."""
    out: list[tuple[int, list[str]]] = []
    inside, start, body = False, 0, []
    for i, line in enumerate(text.splitlines(), start=1):
        if _FENCE.match(line):
            if inside:
                out.append((start, body))
            inside, start, body = not inside, i + 1, []
        elif inside:
            body.append(line)
    return out


def _bound(code: str) -> set[str]:
    names = {n.strip() for m in _ASSIGN.finditer(code) for n in m.group(1).split(",")}
    return {n for n in names if _INPUT_NAME.match(n)}


def rebinding_starts(text: str) -> list[tuple[int, str, int]]:
    """A code block that binds an input's name (q, temp_q, X, ...) an earlier block bound: the example starts again
    there, with the other inputs as they were (TensorFlow's tutorial asks four queries of the same keys).  Each as
    (its line, the words for it, the line of the block that bound the name before)."""
    out: list[tuple[int, str, int]] = []
    bound: dict[str, int] = {}
    for line, body in _code_blocks(text):
        names = _bound("\n".join(body))
        again = sorted(n for n in names if n in bound)
        if again:
            out.append((line, f"the code at line {line} binds {', '.join(again)} again", max(bound[n] for n in again)))
        bound.update({n: line for n in names})
    return out


def _kept_inputs(text: str, first: int, last: int) -> set[int]:
    """The lines, before a scope, of the assignments of inputs the scope does not bind again (the keys and values a
    new query is asked of): a scope read on its own keeps them, as a session keeps its variables."""
    import ast
    blocks = _code_blocks(text)
    again = set().union(*[_bound("\n".join(b)) for ln, b in blocks if first <= ln <= last] or [set()])
    keep: set[int] = set()
    for ln, body in blocks:
        if ln >= first:
            break
        try:
            tree = ast.parse("\n".join(body))
        except (SyntaxError, ValueError, RecursionError, MemoryError):
            continue
        for node in tree.body:
            if isinstance(node, ast.Assign) and len(node.targets) == 1 and isinstance(node.targets[0], ast.Name) \
                    and _INPUT_NAME.match(node.targets[0].id) and node.targets[0].id not in again:
                keep |= set(range(ln + node.lineno - 1, ln + (node.end_lineno or node.lineno)))
    return keep


def _blank_outside(lines: list[str], first: int, last: int, keep: set[int] = frozenset()) -> str:
    """The lines first..last (and those in keep, with the fences of their code blocks), the others blank."""
    fences = {i for i, line in enumerate(lines, start=1) if keep and _FENCE.match(line)}
    return "\n".join(line if first <= i <= last or i in keep or i in fences else ""
                     for i, line in enumerate(lines, start=1)) + "\n"


# names a worked example binds to its inputs and sizes; a code cell that binds one again restarts the example
_INPUT_NAME = re.compile(r"(?i)^(?:(?:temp|tmp|toy|sample|example|demo|dummy|my)_)?(x|q|k|v|w_?[qkvo]|d|d_?k|d_?v|"
                         r"d_?model|l|t|n|seq_len|embeddings?|inputs?|queries|keys|values|tokens)$")
_ASSIGN = re.compile(r"^([A-Za-z_][\w ,]*?)\s*=(?!=)", re.M)


def notebook_starts(text: str) -> list[tuple[int, str]]:
    """Where each example of a notebook starts (cell, words): cell 1, and each code cell that binds an input's or a
    size's name (X, q, k, v, d_k, L, ...) that an earlier code cell bound."""
    import json
    try:
        cells = json.loads(text).get("cells") or []
    except (ValueError, AttributeError, RecursionError):
        return []
    out = [(1, "the start")]
    bound: set[str] = set()
    for c, cell in enumerate(cells, start=1):
        if not isinstance(cell, dict) or cell.get("cell_type") != "code":
            continue
        src = cell.get("source")
        src = "".join(x for x in src if isinstance(x, str)) if isinstance(src, list) else str(src or "")
        names = {n.strip() for m in _ASSIGN.finditer(src) for n in m.group(1).split(",")}
        names = {n for n in names if _INPUT_NAME.match(n)}
        again = sorted(names & bound)
        if again and c > 1:
            out.append((c, f"cell {c} binds {', '.join(again)} again"))
        bound |= names
    return out


def _blank_cells(text: str, first: int, last: int) -> str:
    import json
    nb = json.loads(text)
    for c, cell in enumerate(nb["cells"], start=1):
        if not first <= c <= last and isinstance(cell, dict):
            cell["source"] = ""
            if "outputs" in cell:
                cell["outputs"] = []
    return json.dumps(nb)


def _scopes(doc: Any, text: str, fmt: str) -> list[tuple[tuple[int, int], tuple[int, int], str, str]]:
    """Each scope: (first, last) as (cell, line) keys, the words that open it, and where it starts in words."""
    big = 10 ** 9
    if fmt == "ipynb":
        starts = notebook_starts(text)
        return [((c, 0), ((starts[k + 1][0] - 1) if k + 1 < len(starts) else big, big), words, f"cell {c}")
                for k, (c, words) in enumerate(starts)]
    starts = scope_starts(doc, text)
    n = len(text.splitlines())
    return [((0, s), (0, starts[k + 1][0] - 1 if k + 1 < len(starts) else n), words, f"line {s}")
            for k, (s, words) in enumerate(starts)]


def judge_scopes(report: Any, doc: Any, text: str, fmt: str,
                 check: Callable[[str], Any], whole: bool = True) -> None:
    """Read again, on its own, each scope holding objects the document's configuration does not check; where
    its own configuration explains some of them, its verdicts replace the document's "not checked" there.
    check(text) checks a text without splitting it again (command.check_document with scopes off); whole: the
    document has a configuration of its own (False: none was inferred, and only the sections' own count)."""
    if (whole and report.mapping is None) or not (report.not_checked or _assumed(report)):
        return
    scopes = _scopes(doc, text, fmt)
    if len(scopes) < 2:
        return
    # a row of weights that does not sum to 1 is wrong whatever the configuration: it does not make the scope's
    # own reading unneeded (the reading names the entry), so it does not hold a scope back
    errors = {(f.cell or 0, f.line) for f in report.errors if not row_sum_finding(f)}
    todo = []
    for k, (first, last, words, where) in enumerate(scopes):
        unchecked = {(n.cell or 0, n.line) for n in report.not_checked if first <= (n.cell or 0, n.line) <= last}
        erring = any(first <= e <= last for e in errors)
        if erring and fmt != "ipynb" and _assumed(report):
            todo.append((0, k, "overrule", unchecked))
        elif unchecked and not erring:
            # a section that prints an input of its own (a new X) is the likeliest other example: read first
            todo.append((1 if _prints_input(doc, first, last) else 2, k, "adopt", unchecked))
    chosen = sorted(sorted(todo)[:MAX_SCOPES], key=lambda t: t[1])
    for _, k, how, unchecked in chosen:
        first, last, words, where = scopes[k]
        if how == "overrule":
            _overrule(report, _check_quietly(check, _blank_outside(text.splitlines(), first[1], last[1],
                                                                   _x_lines(text, report, first[1]))),
                      first, last, where, words)
            continue
        sub = _check_quietly(check, _blank_cells(text, first[0], last[0]) if fmt == "ipynb" else
                             _blank_outside(text.splitlines(), first[1], last[1],
                                            _kept_inputs(text, first[1], last[1]) if fmt == "md" else set()))
        _adopt(report, doc, sub, first, last, unchecked, f"scope from {where} ({words})")
    if fmt == "md":
        _judge_parent_sections(report, doc, text, check)


MAX_PARENTS = 2           # sections with subsections read again whole, after their subsections one by one


_INPUT_NODES = {"X", "Q", "K", "V"}


def _prints_input(doc: Any, first: tuple[int, int], last: tuple[int, int]) -> bool:
    """Does the scope print a matrix named as an input (X, Q, K or V) of its own?"""
    for a in doc.arrays:
        if first <= (a.place.cell or 0, a.place.line) <= last and a.label and len(a.numbers) >= 4:
            ref = lb.parse_label(a.label)
            if ref is not None and set(ref.nodes) & _INPUT_NODES:
                return True
    return False


def _parent_sections(text: str) -> list[tuple[int, int, str]]:
    """Markdown sections that hold subsections ("## 9. A full example" over "### 9.1", "### 9.2", ...): (first
    line, last line, heading).  An example worked over several subsections is one scope; each subsection alone
    lacks the inputs given in another."""
    lines = text.splitlines()
    heads = [(i, len(m.group(1)), lines[i - 1].lstrip("#").strip()[:60]) for i in range(1, len(lines) + 1)
             if (m := re.match(r"^(#{1,6})\s+\S", lines[i - 1]))]
    out = []
    for k, (line, level, words) in enumerate(heads):
        end = next((ln - 1 for ln, lv, _ in heads[k + 1:] if lv <= level), len(lines))
        if sum(1 for ln, lv, _ in heads[k + 1:] if line < ln <= end and lv > level) >= 2:
            out.append((line, end, words))
    return out


def _judge_parent_sections(report: Any, doc: Any, text: str, check: Callable[[str], Any]) -> None:
    """A section with subsections, still holding objects nothing checked and no finding: read whole on its own
    (the same rules as a scope), its verdicts in place of its "not checked" lines."""
    given = {int(x) for v in report.configuration.values() for x in re.findall(r"\bline (\d+)", str(v))}
    todo = []
    for first_line, last_line, words in _parent_sections(text):
        first, last = (0, first_line), (0, last_line)
        unchecked = {(n.cell or 0, n.line) for n in report.not_checked if first <= (n.cell or 0, n.line) <= last}
        # the document's own example (its inputs inside) is no other one; a section with a finding is judged
        if len(unchecked) >= 2 and not any(first_line <= g <= last_line for g in given) and \
                not any(first <= (f.cell or 0, f.line) <= last for f in report.errors):
            todo.append((len(unchecked), first_line, last_line, words, unchecked))
    for _, first_line, last_line, words, unchecked in sorted(todo, key=lambda t: -t[0])[:MAX_PARENTS]:
        first, last = (0, first_line), (0, last_line)
        sub = _check_quietly(check, _blank_outside(text.splitlines(), first_line, last_line))
        # its own inputs printed or stated (a configuration resting on weights assumed I is a guess there)
        if sub is not None and not _assumed(sub):
            _adopt(report, doc, sub, first, last, unchecked,
                   f"scope from line {first_line} ({words}), with its subsections")


def _adopt(report: Any, doc: Any, sub: Any, first: tuple[int, int], last: tuple[int, int], unchecked: set,
           where: str) -> None:
    """A scope read on its own: its verdicts in place of the document's "not checked" lines there, when its own
    configuration decides something and explains more of what was left unchecked."""
    if sub is None or sub.mapping is None or sub.n_claims == 0 or sub.n_numbers == 0 or not _decided(sub):
        return
    if not (unchecked - {(n.cell or 0, n.line) for n in sub.not_checked}):
        return                               # its own configuration explains nothing more there
    _merge(report, sub, first, last, _lines_of(doc, unchecked))
    report.evidence.append(f"{where}, judged on its own: " + "; ".join(
        v for k, v in sub.configuration.items() if k != "mode" or v.startswith("starts from")))


_WEIGHT_NAMES = ("W_Q", "W_K", "W_V")
_PRINTED_AT = re.compile(r"printed at line (\d+)")


def _x_lines(text: str, report: Any, first: int) -> set[int]:
    """The lines of the document's X when it stands before the scope (a one-head demo with weights of its own reads
    the X given at the top): the scope read on its own keeps it, its math delimiters included."""
    m = re.search(r"X from line (\d+)$", report.configuration.get("X", ""))
    if m is None or int(m.group(1)) >= first:
        return set()
    lines = text.splitlines()
    n = int(m.group(1))
    start = next((k for k in range(n, max(0, n - 4), -1) if lines[k - 1].strip().startswith(("$$", "\\["))), n)
    end = next((k for k in range(n, min(len(lines), n + 12) + 1)
                if re.search(r"\\end\{[bpvBV]?matrix\}|\$\$\s*$|\\\]", lines[k - 1]) and k >= n), n)
    if end < len(lines) and lines[end].strip() in ("$$", "\\]") and not re.search(r"\$\$|\\\]", lines[end - 1]):
        end += 1
    return set(range(start, end + 1)) if end - start <= 14 else set()


def _assumed(report: Any) -> list[str]:
    """The projections the document's configuration assumes (W_K = I (assumed)) rather than takes as printed."""
    return [w for w in _WEIGHT_NAMES if "(assumed)" in report.configuration.get(w, "")]


def _overrule(report: Any, sub: Any, first: tuple[int, int], last: tuple[int, int], where: str, words: str) -> None:
    """A section whose errors come from a projection the document's configuration assumes, while the section prints
    that projection and, read on its own, takes it with fewer errors (a first example with its W^K, a later one that
    says Q = K = V = X): the section is another example, and its own verdicts replace the document's there."""
    if sub is None or sub.mapping is None or sub.n_numbers == 0:
        return
    taken = [w for w in _assumed(report) if (m := _PRINTED_AT.search(sub.configuration.get(w, "")))
             and first[1] <= int(m.group(1)) <= last[1]]
    key = lambda x: (x.cell or 0, x.line)  # noqa: E731
    inside = lambda x: first <= key(x) <= last  # noqa: E731
    if not taken or len([f for f in sub.errors if inside(f)]) >= len([f for f in report.errors if inside(f)]):
        return                               # read on its own, the section is no better explained
    report.findings = [f for f in report.findings if not inside(f)] + [f for f in sub.findings if inside(f)]
    report.not_checked = [n for n in report.not_checked if not inside(n)] + [n for n in sub.not_checked if inside(n)]
    report.n_claims += sub.n_claims
    report.n_numbers += sub.n_numbers
    report.evidence.append(f"scope from {where} ({words}), judged on its own: it prints "
                           f"{', '.join(taken)}, which the document's configuration assumes; there: "
                           + "; ".join(v for k, v in sub.configuration.items() if k != "mode"))


_EVIDENCE = re.compile(r"^(\w+): .* explains (\d+) of \d+ printed numbers; with .*: (\d+)$")
_CHOICES = ("scale", "mask", "H", "G", "W_O", "rope", "alibi")
_STATED_SCALE = re.compile(r"; with [\d.]+ \(stated at line \d+\): \d+$")


def _decided(sub: Any) -> bool:
    """Do the scope's printed numbers decide a choice after its start (the scale, the mask, the heads, W_O)?  When
    every choice explains as many numbers as its runner-up (shapes printed as lists, a single token whose output is
    its input), the scope's objects say nothing about attention, and its configuration is not trusted."""
    for e in sub.evidence:
        m = _EVIDENCE.match(e)
        if m and m.group(1) in _CHOICES and int(m.group(2)) > int(m.group(3)):
            return True
        if m and m.group(1) == "scale" and int(m.group(2)) == int(m.group(3)) and int(m.group(2)) > 0 and \
                _STATED_SCALE.search(e):
            return True          # 1/√d_k, or the 0.707107 the scope states (√2 ≈ 1.414): the same scale, said
    return False


def _lines_of(doc: Any, unchecked: set[tuple[int, int]]) -> set[tuple[int, int]]:
    """The (cell, line) of every number of the objects left unchecked (an object's key is where it starts)."""
    out = set(unchecked)
    for a in doc.arrays:
        c = a.place.cell or 0
        if (c, a.place.line) in unchecked or (c, a.line) in unchecked:
            out |= {(c, n.line or a.place.line) for n in a.numbers}
    return out


def _own_example(sub: Any, first: tuple[int, int], last: tuple[int, int]) -> bool:
    """Are all of a scope's given objects inside it (its configuration names no line before or after it)?"""
    if first[0] or last[0]:
        return False                         # a notebook's lines are counted per cell
    lines = [int(x) for v in sub.configuration.values() for x in re.findall(r"\bline (\d+)", str(v))]
    return bool(lines) and all(first[1] <= n <= last[1] for n in lines)


def _check_quietly(check: Callable[[str], Any], text: str) -> Any:
    from ..inputs import MHAInputError
    try:
        return check(text)
    except MHAInputError:                    # nothing to check there: the scope is left as it was
        return None


def row_sum_finding(f: Any) -> bool:
    """Is the finding a row of weights found not to sum to 1 (claims/rowsum.py)?"""
    return bool(re.search(r"(?:a row's|its) sum$", f.claim or ""))


def _merge(report: Any, sub: Any, first: tuple[int, int], last: tuple[int, int], unchecked: set) -> None:
    """The scope's verdicts in place of the document's "not checked" lines there.  A finding of the scope stands
    only on a line the document's configuration left unchecked: a line it judged to hold is not overruled."""
    key = lambda x: (x.cell or 0, x.line)  # noqa: E731
    report.not_checked = [n for n in report.not_checked if not first <= key(n) <= last] + \
        [n for n in sub.not_checked if first <= key(n) <= last]
    seen = {(key(f), f.printed) for f in report.findings}
    named = [f for f in sub.findings if first <= key(f) <= last and key(f) in unchecked
             and (key(f), f.printed) not in seen]
    # the entry the scope names in place of the row's sum the document found wrong on that line: one slip, one finding
    report.findings = [f for f in report.findings if not (row_sum_finding(f) and any(
        key(g) == key(f) and g.severity == "error" for g in named))] + named
    if _own_example(sub, first, last):
        # its own inputs inside it: the document's notes on rounding there came from the other example's numbers
        inside = lambda x: first <= key(x) <= last  # noqa: E731
        rounding = lambda f: f.severity == "note" and not (f.cause or "").startswith("follows from line")  # noqa
        report.findings = [f for f in report.findings if not (inside(f) and rounding(f))] + \
            [f for f in sub.findings if inside(f) and rounding(f) and f not in named]
    report.n_claims += sub.n_claims
    report.n_numbers += sub.n_numbers
