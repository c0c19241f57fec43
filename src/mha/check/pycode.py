"""Python source in a code cell or a fenced block: literals, their names, and the numbers in comments.

The code is parsed with `ast` and never run: `W_q = np.array([[1, 0], [0, 1]])` gives an array
labelled `W_q` with the line of every number; `np.eye(4)` says a weight is the identity;
comments are read as text (`# [[0, 1, 1], [4, 4, 0]]`), labelled by the code on their line.
"""

from __future__ import annotations

import ast
import io
import re
import tokenize
from dataclasses import dataclass, field

from .numbers import Num


@dataclass
class Literal:
    name: str                    # the assignment target's source text (targets joined by " = ")
    rows: list[list[Num]]        # 2-D rows (N-D flattened)
    lead: tuple[int, ...]
    line: int                    # 1-based line inside the code
    call: str = ""               # np.array, torch.tensor, ...


@dataclass
class CodeFacts:
    literals: list[Literal] = field(default_factory=list)
    identity: list[tuple[str, int]] = field(default_factory=list)   # (name, line) of np.eye(...) assignments
    comments: list[tuple[int, str, str]] = field(default_factory=list)   # (line, text, label of the code line)
    printed_at: dict[int, str] = field(default_factory=dict)   # line of a print(...) -> what it prints
    prints: list[str] = field(default_factory=list)   # names printed, in order (labels for a cell's outputs)
    last_expr: str | None = None                   # a cell's last bare expression (its execute_result)
    assigned: dict[str, int] = field(default_factory=dict)
    scalars: list[tuple[str, Num]] = field(default_factory=list)   # n_heads = 2, d_k = 3, scale = 0.5
    parsed: bool = True


_MAGIC = re.compile(r"^\s*[%!]")


def read_python(code: str) -> CodeFacts:
    """What a piece of Python source states, without running it."""
    facts = CodeFacts()
    src = "\n".join("" if _MAGIC.match(line) else line for line in code.split("\n"))
    try:
        tree = ast.parse(src)
    except (SyntaxError, ValueError, RecursionError, MemoryError):
        facts.parsed = False
        return facts
    lines = src.split("\n")
    line_label: dict[int, str] = {}
    try:
        for node in ast.walk(tree):
            if isinstance(node, (ast.Assign, ast.AnnAssign)):
                targets = node.targets if isinstance(node, ast.Assign) else [node.target]
                if node.value is None:
                    continue
                name = " = ".join(_src(lines, t) for t in targets)
                rhs = _src(lines, node.value)
                for ln in range(node.lineno, (node.end_lineno or node.lineno) + 1):
                    line_label.setdefault(ln, name + (" = " + rhs if rhs and "[" not in rhs else ""))
                facts.assigned[name] = node.lineno
                _assignment(facts, name, node.value, lines)
            elif isinstance(node, ast.Expr) and not isinstance(node.value, ast.Call):
                line_label.setdefault(node.lineno, _src(lines, node.value))      # out.shape   # (3, 4)
            elif isinstance(node, ast.Call) and _call_name(node) == "print":
                names = [_src(lines, a) for a in node.args if not isinstance(a, ast.Constant)]
                if names:
                    line_label.setdefault(node.lineno, names[-1])
                    facts.printed_at[node.end_lineno or node.lineno] = names[-1]
                texts = [a.value for a in node.args if isinstance(a, ast.Constant) and isinstance(a.value, str)]
                facts.prints.append(" ".join(texts) + (" " if texts else "") + " ".join(names))
        if tree.body and isinstance(tree.body[-1], ast.Expr) and not isinstance(tree.body[-1].value, ast.Call) \
                or (tree.body and isinstance(tree.body[-1], ast.Expr) and _call_name(tree.body[-1].value) != "print"):
            facts.last_expr = _src(lines, tree.body[-1].value)
    except RecursionError:
        facts.parsed = False
        return facts
    facts.literals.sort(key=lambda lit: lit.line)
    # comments, with the code of their line as a label
    try:
        for tok in tokenize.generate_tokens(io.StringIO(src).readline):
            if tok.type == tokenize.COMMENT:
                ln = tok.start[0]
                code_part = lines[ln - 1][:tok.start[1]].strip()
                label = line_label.get(ln, "") if code_part else ""
                if not code_part and ln - 1 in facts.printed_at:
                    label = facts.printed_at[ln - 1]          # print(x)  then  # [[...]] on the next lines
                facts.comments.append((ln, tok.string, label))
    except (tokenize.TokenError, IndentationError, SyntaxError):
        pass
    return facts


def _src(lines: list[str], node: ast.AST) -> str:
    try:
        if node.lineno == node.end_lineno:
            return lines[node.lineno - 1][node.col_offset:node.end_col_offset]
        first = lines[node.lineno - 1][node.col_offset:]
        return first + " ..."
    except (AttributeError, IndexError, TypeError):
        return ""


def _call_name(node: ast.AST) -> str:
    if not isinstance(node, ast.Call):
        return ""
    f = node.func
    if isinstance(f, ast.Name):
        return f.id
    if isinstance(f, ast.Attribute):
        return f.attr
    return ""


_ARRAY_CALLS = {"array", "asarray", "tensor", "Tensor", "as_tensor", "FloatTensor", "DoubleTensor", "constant",
                "Variable", "Parameter", "matrix", "float32", "float64"}
_EYE = {"eye", "identity"}


def _assignment(facts: CodeFacts, name: str, value: ast.AST, lines: list[str]) -> None:
    transpose = False
    if isinstance(value, ast.Attribute) and value.attr == "T":
        value, transpose = value.value, True
    # np.array([...]).float() / torch.tensor([...]).double()
    while isinstance(value, ast.Call) and isinstance(value.func, ast.Attribute) and \
            value.func.attr in ("float", "double", "astype", "to", "reshape", "numpy", "clone") and \
            isinstance(value.func.value, ast.Call):
        value = value.func.value
    # torch.nn.Parameter(torch.tensor([...])), np.array(np.array([...]).T)
    while isinstance(value, ast.Call) and _call_name(value) in _ARRAY_CALLS and value.args and \
            isinstance(value.args[0], (ast.Call, ast.Attribute)) and not isinstance(value.args[0], ast.List):
        inner = value.args[0]
        if isinstance(inner, ast.Attribute) and inner.attr == "T":
            transpose = not transpose
            inner = inner.value
        if not isinstance(inner, ast.Call):
            break
        value = inner
    call = _call_name(value)
    if call in _EYE:
        facts.identity.append((name, value.lineno))
        return
    lit = None
    if isinstance(value, (ast.List, ast.Tuple)) and value.elts and all(
            isinstance(e, ast.Call) and _call_name(e) in _ARRAY_CALLS and e.args and
            isinstance(e.args[0], (ast.List, ast.Tuple)) for e in value.elts):
        # [np.array([[...]]), np.array([[...]])]: one matrix per head
        value = ast.List(elts=[e.args[0] for e in value.elts], ctx=ast.Load(), lineno=value.lineno)
        lit = value
    elif isinstance(value, (ast.List, ast.Tuple)):
        lit = value
    elif call in _ARRAY_CALLS and isinstance(value, ast.Call) and value.args and \
            isinstance(value.args[0], (ast.List, ast.Tuple)):
        lit = value.args[0]
    elif isinstance(value, (ast.Constant, ast.UnaryOp)):
        n = _number(value, lines)
        if n is not None:
            facts.scalars.append((name, n))
        return
    if lit is None:
        return
    nested = _nested(lit, lines, 0)
    if nested is None:
        return
    from .statements import nested_to_rows
    got = nested_to_rows(nested)
    if got is None:
        return
    rows, lead = got
    if transpose and not lead and rows and all(r is not None for r in rows):
        rows = [list(col) for col in zip(*rows)]
    facts.literals.append(Literal(name, rows, lead, value.lineno, call))


def _nested(node: ast.AST, lines: list[str], depth: int):
    if depth > 6:
        return None
    if isinstance(node, (ast.List, ast.Tuple)):
        out = []
        for e in node.elts:
            sub = _nested(e, lines, depth + 1)
            if sub is None:
                return None
            out.append(sub)
        return out or None
    return _number(node, lines)


def _number(node: ast.AST, lines: list[str]) -> Num | None:
    neg = False
    if isinstance(node, ast.UnaryOp) and isinstance(node.op, (ast.USub, ast.UAdd)):
        neg = isinstance(node.op, ast.USub)
        node = node.operand
    if isinstance(node, ast.Constant) and isinstance(node.value, (int, float)) and not isinstance(node.value, bool):
        text = _src(lines, node) or repr(node.value)
        text = text.replace("_", "")
        try:
            n = Num.parse(text, node.lineno)
        except ValueError:
            return None
        if neg:
            n = Num(-n.value, "-" + n.text, -n.hi, -n.lo, n.line, n.decimals)
        return n
    return None
