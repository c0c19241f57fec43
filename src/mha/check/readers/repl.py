"""A Python REPL transcript pasted as text: `>>> dA` (or `>>> print(dA)`) and then the array it echoed.  The
prompt's expression names the array printed under it, as an IPython prompt names its Out[n] (text.py).

A session whose every statement parses (session_pieces) is read as code and outputs, piece by piece, like a
notebook's cells: its literals and code-valued inputs are inputs, each echo is labelled by the expression or print
above it, and a printout of random values (`>>> s = torch.randn(4, 4)`, `>>> s`) is judged only where its own
identity holds (a later printout computed from it, claims/printchain.py).  When some statement does not parse, the
transcript is read as text, and then only gradients (and D, the Jacobian, the target: gradients.py) are named by
their prompt (label_echoes): there a forward name would make an array that no configuration explains a finding
rather than "not checked"."""

from __future__ import annotations

import re

from ..gradients import grad_name
from ..objects import Document

_SOFTMAX_ECHO = re.compile(r"^\s*>>>\s*(print\(\s*)?((?:[A-Za-z_][\w.]*\.)?softmax\s*\(.*\[[^\[\]]*\].*\))\s*$")
_ECHO = re.compile(r"^\s*>>>\s*(?:print\(\s*)?([A-Za-z_][\w.]*(?:\[[^\]]*\])?)\s*\)?\s*$")


def label_echoes(doc: Document, text: str) -> None:
    """Give each unlabelled array that starts on the line after `>>> NAME` the label NAME, NAME a gradient's."""
    if doc.format == "ipynb" or ">>>" not in text:
        return
    names = {k + 2: m.group(1) for k, line in enumerate(text.split("\n")) for m in [_ECHO.match(line)]
             if m and grad_name(m.group(1)) is not None}
    # `>>> softmax(np.array([4.0, -1.0, 2.1]))`: a call on its own written argument names its echo (claims/applied.py
    # judges it against that argument, whatever the configuration)
    names.update({k + 2: m.group(2).strip()[:-1] if m.group(1) else m.group(2).strip()
                  for k, line in enumerate(text.split("\n")) for m in [_SOFTMAX_ECHO.match(line[:300])] if m})
    for a in doc.arrays:
        name = names.get(a.place.line) or names.get(a.line)
        if name and not a.label:
            a.label, a.labels = name, [name]


# a prompt and its continuation lines; IPython's "In [3]:" transcripts are text.py's
_PROMPT = re.compile(r"^(\s*)>>>(?: |$)")
_MORE = re.compile(r"^(\s*)\.\.\.(?: |$)")


def session_pieces(lines: list[str]) -> list[tuple[str, list[int], str]] | None:
    """A Python session pasted as it ran: the statements after `>>>` (and their `...` continuation lines), each
    followed by what it echoed or printed.  Its lines as pieces in order: ("code", line indexes, source without
    the prompts) and ("output", line indexes, text); lines before the first prompt are ("prose", ...).  None when
    fewer than two prompts, or when a statement does not parse: then the text is read as it stands."""
    from .pyparse import parse_code
    prompts = [k for k, x in enumerate(lines) if _PROMPT.match(x)]
    if len(prompts) < 2:
        return None
    pieces: list[tuple[str, list[int], str]] = []
    if prompts[0] > 0:
        pieces.append(("prose", list(range(prompts[0])), "\n".join(lines[:prompts[0]])))
    k = prompts[0]
    while k < len(lines):
        code = [k]
        k += 1
        while k < len(lines) and _MORE.match(lines[k]):
            code.append(k)
            k += 1
        src = "\n".join(_MORE.sub("", _PROMPT.sub("", lines[j], count=1), count=1) for j in code)
        try:
            parse_code(src)
        except (SyntaxError, ValueError, RecursionError, MemoryError):
            return None
        if pieces and pieces[-1][0] == "code":         # statements with nothing printed between: one piece
            pieces[-1] = ("code", pieces[-1][1] + code, pieces[-1][2] + "\n" + src)
        else:
            pieces.append(("code", code, src))
        out = []
        while k < len(lines) and not _PROMPT.match(lines[k]) and not (out and _prose_after(lines, k)):
            out.append(k)
            k += 1
        while out and not lines[out[-1]].strip():
            out.pop()
        if out and any(lines[j].strip() for j in out):
            pieces.append(("output", out, "\n".join(lines[j] for j in out)))
        words = []
        while k < len(lines) and not _PROMPT.match(lines[k]):
            words.append(k)
            k += 1
        if words:
            pieces.append(("prose", words, "\n".join(lines[j] for j in words)))
    return pieces


def _prose_after(lines: list[str], k: int) -> bool:
    """A blank line, then a sentence: the echo has ended and the author's words go on."""
    if lines[k].strip() or k + 1 >= len(lines):
        return False
    nxt = lines[k + 1].strip()
    return len(nxt.split()) >= 4 and not re.search(r"[\[\]()]|^[-+.\d]", nxt)


_SHOWN = {"tensor", "array", "Parameter", "matrix"}
_SCALAR = re.compile(r"^\s*(?:(?:tensor|array|np\.float64|np\.float32|float64|float32)\()?\s*"
                     r"(-?\d+(?:\.\d*)?(?:e[-+]?\d+)?)\s*(?:,\s*(?:dtype|grad_fn|device)=[^)]*)?\)?\s*$")


def _named_scalar(text: str, expr: str | None) -> str:
    """`>>> q1 @ k2` echoing `tensor(1.5000)`: the one number is the score of that pair, written as the label
    vocabulary names it (`q_1 · k_2 = 1.5000`, tokenpairs.py); any other echo stays as it was."""
    from ..tokenpairs import pair_label
    if expr and re.fullmatch(r"[A-Za-z_][\w.]*\.shape", expr.strip()) and \
            re.fullmatch(r"\s*(?:\((?:\d+,\s*)+\d*\)|torch\.Size\(\[[\d,\s]*\]\))\s*", text):
        return f"{expr.strip()} = {text.strip()}"       # `>>> Qh.shape` and then `(2, 3, 2)`: that shape, stated
    m = _SCALAR.match(text) if expr and "\n" not in text.strip() else None
    name = pair_label(expr) if m else None
    if name is None:
        return text
    return f"{name} = {m.group(1)}"


def _is_printout(stmt) -> bool:
    """`tensor([[...]], dtype=torch.float64)` or `array([...])` standing alone: what Python showed, not code."""
    import ast
    v = stmt.value if isinstance(stmt, ast.Expr) else None
    return isinstance(v, ast.Call) and isinstance(v.func, ast.Name) and v.func.id in _SHOWN and len(v.args) == 1 \
        and isinstance(v.args[0], (ast.List, ast.Tuple))


def printed_pieces(code: str) -> list[tuple[str, list[int], str]] | None:
    """Code with its printouts pasted under the statements that printed them (`print(w)` and then
    `tensor([[...]])`), as pieces like session_pieces'.  None when no printout stands after a print or a bare
    expression, or when the code does not parse."""
    import ast
    from .pyparse import parse_code
    try:
        body = parse_code(code).body
    except (SyntaxError, ValueError, RecursionError, MemoryError):
        return None
    lines = code.split("\n")
    shown = [_is_printout(st) for st in body]
    if not any(shown[k] and k and not shown[k - 1] and isinstance(body[k - 1], ast.Expr) for k in range(len(body))):
        return None
    pieces: list[tuple[str, list[int], str]] = []
    start = 0
    for k, st in enumerate(body):
        kind = "output" if shown[k] else "code"
        end = (body[k + 1].lineno - 1) if k + 1 < len(body) else len(lines)
        ks = list(range(start, end))
        start = end
        if pieces and pieces[-1][0] == kind:
            ks = pieces.pop()[1] + ks
        pieces.append((kind, ks, "\n".join(lines[j] for j in ks)))
    return pieces


def read_session(b, seg) -> bool:
    """Read a code segment that is a Python session: each statement as code, each echo as that code's output
    (labelled by the expression or print above it, as a notebook cell's output is).  False when it is none."""
    from .common import Segment
    if ">>>" not in seg.text and not re.search(r"^\s*(?:tensor|array)\(", seg.text, re.M):
        return False
    lines = seg.text.split("\n")
    pieces = session_pieces(lines) if ">>>" in seg.text else printed_pieces(seg.text)
    if pieces is None:
        return False
    at = (lambda j: seg.line_map[j] if seg.line_map and j < len(seg.line_map) else seg.line + j)
    for kind, ks, body in pieces:
        sub = Segment(body, at(ks[0]), "code" if kind == "code" else ("output" if kind == "output" else "prose"),
                      seg.cell, [at(j) for j in ks])
        if kind == "output":
            sub.result = b.last_expr is not None and not b.pending_output_labels
            sub.text = _named_scalar(sub.text, b.last_expr if sub.result else None)
        b.segment(sub)
    return True


def session_start(text: str) -> int | None:
    """The index of a text's first `>>>` line when the text from there is a Python session; None otherwise."""
    if ">>>" not in text:
        return None
    lines = text.split("\n")
    pieces = session_pieces(lines)
    return None if pieces is None else next(k for k, x in enumerate(lines) if _PROMPT.match(x))


def only_printouts(code: str) -> bool:
    """Every statement of the block is a printout standing alone (`tensor([...], dtype=torch.float64)`)."""
    from .pyparse import parse_code
    try:
        body = parse_code(code).body
    except (SyntaxError, ValueError, RecursionError, MemoryError):
        return False
    return bool(body) and all(_is_printout(st) for st in body)
