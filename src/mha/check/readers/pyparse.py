"""Parsing a document's Python code without running it, and without warnings about it."""

from __future__ import annotations

import ast
import math
import warnings

from ..numbers import NEG_INF, Num


def parse_code(code: str, mode: str = "exec") -> ast.AST:
    """ast.parse of a document's code, silent: its invalid escapes (DeprecationWarning on Python 3.11,
    SyntaxWarning later) are the author's, not ours to warn about.  Raises what ast.parse raises."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return ast.parse(code, mode=mode)


def literal_number(node: ast.AST) -> float | None:
    """The value of an expression of a document's code made of numbers only: 8, 2 ** 0.5, np.sqrt(64),
    math.sqrt(2.0), 2 * 4; None for anything else (names, other calls, a complex or infinite result).

    >>> [literal_number(parse_code(e, mode="eval").body) for e in ("np.sqrt(64)", "(-4) ** 0.5", "d_k ** 0.5")]
    [8.0, None, None]
    """
    if isinstance(node, ast.Constant) and isinstance(node.value, (int, float)) and not isinstance(node.value, bool):
        return float(node.value)
    if isinstance(node, ast.BinOp) and isinstance(node.op, (ast.Pow, ast.Mult, ast.Div)):
        a, b = literal_number(node.left), literal_number(node.right)
        if a is None or b is None:
            return None
        try:
            v = a ** b if isinstance(node.op, ast.Pow) else (a * b if isinstance(node.op, ast.Mult) else a / b)
        except (OverflowError, ZeroDivisionError, ValueError):
            return None
        return v if isinstance(v, float) and math.isfinite(v) else None    # (-4) ** 0.5 is complex
    if isinstance(node, ast.Call) and len(node.args) == 1:
        f = node.func
        fname = f.id if isinstance(f, ast.Name) else (f.attr if isinstance(f, ast.Attribute) else "")
        a = literal_number(node.args[0])
        if fname == "sqrt" and a is not None and a >= 0:
            return math.sqrt(a)
        if fname in ("float", "tensor", "array") and a is not None:
            return a
    return None


_ARRAY_LIBS = ("torch", "np", "numpy", "jnp", "tf")


def int_constant(node: ast.AST) -> int | None:
    """An integer written in code, `1` or `-1`; None for anything else."""
    if isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.USub):
        v = int_constant(node.operand)
        return None if v is None else -v
    if isinstance(node, ast.Constant) and isinstance(node.value, int) and not isinstance(node.value, bool):
        return node.value
    return None


def sum_call(node: ast.AST) -> tuple[str, int | None, int | None] | None:
    """(name, row, axis) of `NAME.sum(dim=-1)`, `NAME[i].sum()`, `torch.sum(NAME, dim=1)`, `np.sum(NAME, axis=0)`:
    axis 1 for one sum per row, 0 for one per column, None for a whole sum (or one row's); keepdim changes no
    value.  None for any other expression.

    >>> [sum_call(parse_code(e, mode="eval").body) for e in ("w.sum(dim=-1, keepdim=True)", "torch.sum(w, 0)", "w[2].sum()")]
    [('w', None, 1), ('w', None, 0), ('w', 2, None)]
    """
    if not isinstance(node, ast.Call) or not isinstance(node.func, ast.Attribute) or node.func.attr != "sum":
        return None
    owner = node.func.value
    if isinstance(owner, ast.Name) and owner.id in _ARRAY_LIBS:
        if not node.args:
            return None
        summed, axis_args = node.args[0], node.args[1:]          # torch.sum(X, dim)
    else:
        summed, axis_args = owner, list(node.args)               # X.sum(dim)
    axes = [kw.value for kw in node.keywords if kw.arg in ("dim", "axis")] + axis_args[:1]
    if len(axes) > 1 or any(kw.arg not in ("dim", "axis", "keepdim", "keepdims") for kw in node.keywords):
        return None
    row = None
    if isinstance(summed, ast.Subscript) and isinstance(summed.value, ast.Name):
        row = int_constant(summed.slice)
        if row is None or axes:
            return None
        summed = summed.value
    if not isinstance(summed, ast.Name):
        return None
    if not axes:
        return summed.id, row, None
    a = int_constant(axes[0])
    return (summed.id, None, {-1: 1, 1: 1, 0: 0, -2: 0}[a]) if a in (-1, 1, 0, -2) else None


def function_lines(tree: ast.AST) -> set[int]:
    """The lines of function bodies whose names are not declared global: what they assign is local."""
    out: set[int] = set()
    for node in ast.walk(tree):
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)) and \
                not any(isinstance(n, ast.Global) for n in ast.walk(node)):
            for stmt in node.body:
                out.update(range(stmt.lineno, (stmt.end_lineno or stmt.lineno) + 1))
    return out


def source_of(lines: list[str], node: ast.AST) -> str:
    """The text of a node on its first line (" ..." after it when it runs on).  ast counts columns in UTF-8 bytes,
    so a line with `α` or a Chinese word before the node is cut by its bytes, not its characters."""
    try:
        line = lines[node.lineno - 1]
        raw = line.encode("utf-8") if not line.isascii() else None
        if node.lineno == node.end_lineno:
            return line[node.col_offset:node.end_col_offset] if raw is None else \
                raw[node.col_offset:node.end_col_offset].decode("utf-8", "replace")
        first = line[node.col_offset:] if raw is None else raw[node.col_offset:].decode("utf-8", "replace")
        return first + " ..."
    except (AttributeError, IndexError, TypeError):
        return ""


def call_name(node: ast.AST) -> str:
    if not isinstance(node, ast.Call):
        return ""
    f = node.func
    if isinstance(f, ast.Name):
        return f.id
    if isinstance(f, ast.Attribute):
        return f.attr
    return ""


def mutated_names(tree) -> set[str]:
    """Names the code changes in place after making them: item assignment, augmented assignment, a loop target."""
    out: set[str] = set()
    for node in ast.walk(tree) if tree is not None else ():
        targets = node.targets if isinstance(node, ast.Assign) else \
            [node.target] if isinstance(node, (ast.AugAssign, ast.For)) else []
        for t in targets:
            while isinstance(t, (ast.Subscript, ast.Attribute)):
                t = t.value
            if isinstance(t, ast.Name) and (isinstance(node, (ast.AugAssign, ast.For)) or t is not node.targets[0]
                                            or isinstance(node.targets[0], (ast.Subscript, ast.Attribute))):
                out.add(t.id)
    return out


def nested_numbers(node: ast.AST, lines: list[str], depth: int):
    if depth > 6:
        return None
    if isinstance(node, (ast.List, ast.Tuple)):
        out = []
        elts = list(node.elts)
        # [[0.3, -inf, ...], [0.1, 0.4, ...], ...]: the rows written out, the rest left to the reader (a trailing
        # `...` row is Python's Ellipsis); the rows shown are what the document claims
        while depth == 0 and len(elts) > 2 and isinstance(elts[-1], ast.Constant) and elts[-1].value is Ellipsis \
                and all(isinstance(e, (ast.List, ast.Tuple)) for e in elts[:-1]):
            elts.pop()
        for e in elts:
            sub = nested_numbers(e, lines, depth + 1)
            if sub is None:
                return None
            out.append(sub)
        return out or None
    return number_of(node, lines)


def number_of(node: ast.AST, lines: list[str]) -> Num | None:
    neg = False
    if isinstance(node, ast.UnaryOp) and isinstance(node.op, (ast.USub, ast.UAdd)):
        neg = isinstance(node.op, ast.USub)
        node = node.operand
    if is_minus_inf(node, neg):
        return NEG_INF.with_line(node.lineno)     # -inf, -np.inf, float('-inf'): a masked score
    # np.float64(0.3), as NumPy 2 shows a scalar inside a list (`[np.float64(0.3), np.float64(0.9)]`): the number
    if isinstance(node, ast.Call) and call_name(node) in ("float64", "float32", "float16", "int64", "int32") and \
            len(node.args) == 1 and not node.keywords:
        inner = number_of(node.args[0], lines)
        return None if inner is None else (Num(-inner.value, "-" + inner.text, -inner.hi, -inner.lo, inner.line,
                                                   inner.decimals) if neg else inner)
    if isinstance(node, ast.Constant) and isinstance(node.value, (int, float)) and not isinstance(node.value, bool):
        text = source_of(lines, node) or repr(node.value)
        text = text.replace("_", "")
        try:
            n = Num.parse(text, node.lineno)
        except ValueError:
            return None
        if neg:
            n = Num(-n.value, "-" + n.text, -n.hi, -n.lo, n.line, n.decimals)
        return n
    return None


def is_minus_inf(node: ast.AST, neg: bool) -> bool:
    """-inf, -np.inf, -math.inf, float('-inf'), -float('inf'): minus infinity written in Python."""
    if isinstance(node, ast.Name) and node.id == "inf" or isinstance(node, ast.Attribute) and node.attr == "inf":
        return neg
    if isinstance(node, ast.Call) and call_name(node) == "float" and len(node.args) == 1 and \
            isinstance(node.args[0], ast.Constant) and isinstance(node.args[0].value, str):
        text = node.args[0].value.strip().lower()
        return text in ("-inf", "-infinity") and not neg or text in ("inf", "infinity") and neg
    return False


def tuple_parts(expr: str) -> list[str]:
    """The parts of a tuple expression as written (`mask, weights` → ['mask', 'weights']); [] for anything else.

    >>> tuple_parts("effective_mask, attn_weights"), tuple_parts("w.sum(dim=-1)"), tuple_parts("(a, b[0])")
    (['effective_mask', 'attn_weights'], [], ['a', 'b[0]'])
    """
    try:
        tree = parse_code(expr.strip(), "eval")
    except (SyntaxError, ValueError):
        return []
    if not isinstance(tree, ast.Expression) or not isinstance(tree.body, ast.Tuple):
        return []
    return [ast.get_source_segment(expr.strip(), e) or "" for e in tree.body.elts]
