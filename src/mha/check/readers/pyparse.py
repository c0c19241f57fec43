"""Parsing a document's Python code without running it, and without warnings about it."""

from __future__ import annotations

import ast
import warnings


def parse_code(code: str, mode: str = "exec") -> ast.AST:
    """ast.parse of a document's code, silent: its invalid escapes (DeprecationWarning on Python 3.11,
    SyntaxWarning later) are the author's, not ours to warn about.  Raises what ast.parse raises."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return ast.parse(code, mode=mode)
