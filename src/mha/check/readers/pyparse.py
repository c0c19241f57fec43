"""Parsing a document's Python code without running it, and without warnings about it."""

from __future__ import annotations

import ast
import math
import warnings


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


def function_lines(tree: ast.AST) -> set[int]:
    """The lines of function bodies whose names are not declared global: what they assign is local."""
    out: set[int] = set()
    for node in ast.walk(tree):
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)) and \
                not any(isinstance(n, ast.Global) for n in ast.walk(node)):
            for stmt in node.body:
                out.update(range(stmt.lineno, (stmt.end_lineno or stmt.lineno) + 1))
    return out
