"""Dropout, as documents show it: what a printout that passed through dropout is, so that it is not read as the
attention weights (or as what follows from them).

In training mode dropout zeroes entries at random and scales the rest by 1/(1 - p): the rows of dropped weights
no longer sum to 1 and entries can exceed 1, and the context vectors computed from them are not the dropout-free
ones.  Such a printout is not a claim about the configuration.  Two readings say which printouts these are:

* the code: a name assigned from a dropout call (`attn = self.dropout(attn)`, `F.dropout(w, 0.1)`,
  `nn.Dropout(0.5)(w)`), or from a name so assigned, stays "dropped" across cells until it is reassigned from
  clean values; a print of a dropped name or of a dropout call is a dropped printout.  A rate written as 0, or
  `training=False`, drops nothing.
* the words right before a printout that no code explains: "after dropout", "dropout 之后", "经过 dropout".
"""

from __future__ import annotations

import ast
import re
from dataclasses import dataclass, field

from .pyparse import parse_code, source_of

_DROP_CALL = re.compile(r"(?i)dropout|^drop$|^attn_drop$|^drop_\w+$|^\w+_drop$")
_AFTER = re.compile(r"\bafter (?:applying |the |a )?dropout\b|\bdropout (?:is |was |has been )?applied\b|"
                    r"\bwith dropout applied\b|\bdropped[- ]out\b|\bpost-dropout\b|\bappl(?:y|ying|ied) (?:the )?"
                    r"dropout\b|dropout\s*(?:之后|以后|后)|经过\s*dropout|(?:应用|使用|做|进行|施加)\s*dropout|"
                    r"随机失活\s*(?:之后|以后|后)|(?:应用|经过|做)\s*随机失活", re.I)
_NOT = re.compile(r"\b(?:before|without|no|prior to|instead of|disabled?|turn(?:ed)? off)\b[^.。;；]{0,24}dropout|"
                  r"dropout\s*(?:之前|以前|前)|(?:不|没有|未|去掉|关闭)\s*(?:使用|用|做|进行|应用)?\s*(?:dropout|随机失活)|"
                  r"\bdropout\b[^.。;；]{0,24}\b(?:does nothing|is off|disabled|eval(?:uation)? mode)", re.I)


def after_dropout(text: str) -> bool:
    """Whether a line of prose says that what follows passed through dropout.

    >>> after_dropout("The attention weights after dropout:"), after_dropout("Before dropout, the weights:")
    (True, False)
    """
    return bool(_AFTER.search(text)) and not _NOT.search(text)


@dataclass
class DropState:
    """What a reader remembers of the code so far: the names that hold dropped values, the dropout modules that
    drop nothing (`nn.Dropout(0.0)`)."""
    dropped: set[str] = field(default_factory=set)
    inert: set[str] = field(default_factory=set)


@dataclass
class DroppedPrints:
    labels: set[str] = field(default_factory=set)       # what a dropped print prints (its label for the output)
    texts: list[str] = field(default_factory=list)      # the words a dropped print prints before its numbers
    last_expr: bool = False                             # the cell's last bare expression is dropped


def dropped_prints(code: str, state: DropState) -> DroppedPrints:
    """The prints of a piece of code whose values passed through dropout; `state` carries the names across cells.

    >>> s = DropState()
    >>> sorted(dropped_prints("w = softmax(s)\\nprint(w)\\nw = drop(w)\\nprint(w)\\nprint(w @ v)", s).labels)
    ['w', 'w @ v']
    """
    out = DroppedPrints()
    code = "\n".join("" if re.match(r"^\s*[%!]", line) else line for line in code.split("\n"))   # IPython magics
    try:
        tree = parse_code(code)
    except (SyntaxError, ValueError, RecursionError, MemoryError):
        return out
    lines = code.split("\n")
    try:
        _walk(tree.body, state, out, lines)
        last = tree.body[-1] if tree.body else None
        if isinstance(last, ast.Expr) and _print_args(last.value) is None and _is_dropped(last.value, state):
            out.last_expr = True
    except RecursionError:
        pass
    return out


def _walk(body: list[ast.stmt], state: DropState, out: DroppedPrints, lines: list[str]) -> None:
    for node in body:
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            # a body runs when called, with names of its own: what it prints after its own dropout is dropped
            # (print(attn_weights) inside forward), and nothing it assigns outlives it
            _walk(node.body, DropState(set(state.dropped), set(state.inert)), out, lines)
            continue
        if isinstance(node, (ast.Assign, ast.AnnAssign, ast.AugAssign)) and node.value is not None:
            targets = node.targets if isinstance(node, ast.Assign) else [node.target]
            names = [t.id for tg in targets for t in ast.walk(tg) if isinstance(t, ast.Name)]
            if isinstance(node.value, ast.Call) and _is_module(node.value):
                for n in names:                          # dropout = nn.Dropout(0.0): a module that drops nothing
                    (state.inert.add if _inert(node.value) else state.inert.discard)(n)
                continue
            dropped = _is_dropped(node.value, state) or (isinstance(node, ast.AugAssign) and
                                                         any(n in state.dropped for n in names))
            for n in names:
                (state.dropped.add if dropped else state.dropped.discard)(n)
        elif isinstance(node, ast.Expr):
            args = _print_args(node.value)
            if args is not None and any(_is_dropped(a, state) for a in args):
                names = [source_of(lines, a) for a in args if not isinstance(a, ast.Constant)]
                if names:
                    out.labels.add(names[-1])
                words = " ".join(a.value for a in args if isinstance(a, ast.Constant) and isinstance(a.value, str))
                if words.strip():
                    out.texts.append(words.strip())
        for attr in ("body", "orelse", "finalbody"):       # for, while, if, with, try: in their order
            inner = getattr(node, attr, None)
            if isinstance(inner, list) and inner and isinstance(inner[0], ast.stmt):
                _walk(inner, state, out, lines)


def _print_args(node: ast.AST) -> list[ast.expr] | None:
    if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id in ("print", "display"):
        return list(node.args)
    return None


def _name(f: ast.AST) -> str:
    return f.id if isinstance(f, ast.Name) else f.attr if isinstance(f, ast.Attribute) else ""


def _is_module(call: ast.Call) -> bool:
    return _name(call.func) in ("Dropout", "Dropout1d", "Dropout2d", "AlphaDropout")


def _inert(call: ast.Call) -> bool:
    """A dropout written with rate 0 or with training=False drops nothing."""
    for kw in call.keywords:
        if kw.arg == "training" and isinstance(kw.value, ast.Constant) and kw.value.value is False:
            return True
        if kw.arg == "p" and isinstance(kw.value, ast.Constant) and kw.value.value == 0:
            return True
    if _is_module(call):
        return bool(call.args) and isinstance(call.args[0], ast.Constant) and call.args[0].value == 0
    return len(call.args) >= 2 and isinstance(call.args[1], ast.Constant) and call.args[1].value == 0


def _is_dropped(node: ast.AST, state: DropState) -> bool:
    """A dropout call, or a dropped name, anywhere in the expression."""
    for sub in ast.walk(node):
        if isinstance(sub, ast.Name) and sub.id in state.dropped and isinstance(sub.ctx, ast.Load):
            return True
        if isinstance(sub, ast.Call):
            f = sub.func
            if isinstance(f, ast.Call) and _is_module(f):            # nn.Dropout(0.5)(w)
                if not _inert(f):
                    return True
                continue
            name = _name(f)
            if _is_module(sub) or not _DROP_CALL.search(name):
                continue
            held = f.id if isinstance(f, ast.Name) else None
            if (held is not None and held in state.inert) or _inert(sub) or not sub.args:
                continue
            return True
    return False
