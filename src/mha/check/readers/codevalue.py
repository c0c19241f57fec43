"""Inputs written as code rather than as literals: `torch.arange(1, 13.).reshape(3, 4) / 10`, `np.eye(4)[:, :2]`,
`torch.ones(3, 4)`, `np.full((2, 3), 0.5)`, `torch.tensor([[1, 2], [3, 4]]).T`.

A small, closed grammar is evaluated with NumPy from the parsed code (never eval or exec): number constants and
nested lists; the deterministic makers arange, linspace, ones, zeros, full, eye/identity and their `_like` forms;
reshape/view, .T/.t()/transpose, dtype casts (no-ops); integer slicing; elementwise +, -, *, / and ** (a number
exponent), as `embeddings + positions` makes an input; at least one maker is called.  Names refer only to values
evaluated before (in the same code or an earlier cell).  A matrix product, softmax or any other call is outside the
grammar: what the document computes from its inputs stays for the printouts to show, so an input is
never confused with a step.  Anything random (randn, rand, normal) is outside too: its value is unknown unless
printed.
"""

from __future__ import annotations

import ast
import math
import re

import numpy as np

from .. import labels as lb
from ..numbers import Num

_MAX = 4096                     # entries: a worked example's input, not a model's
_MAKERS = {"arange", "linspace", "ones", "zeros", "full", "eye", "identity", "ones_like", "zeros_like", "full_like"}
_CASTS = {"float", "double", "astype", "to", "numpy", "clone", "detach", "copy", "contiguous", "type",
          "requires_grad_", "cpu"}
_WRAPS = {"array", "asarray", "tensor", "Tensor", "as_tensor", "FloatTensor", "DoubleTensor", "from_numpy",
          "Parameter", "float32", "float64"}


class _Out(Exception):
    """The expression leaves the grammar."""


def code_value(node: ast.AST, env: dict[str, np.ndarray]) -> np.ndarray | None:
    """The value of an assignment's right-hand side when it is made by the grammar above from numbers and the
    names in env, and at least one maker is called (a bare literal is the literal readers' job, and a slice or
    transpose of a name restates what was read); None otherwise.

    >>> import ast
    >>> v = code_value(ast.parse("np.arange(1, 7).reshape(2, 3) / 10", mode="eval").body, {})
    >>> v.tolist()
    [[0.1, 0.2, 0.3], [0.4, 0.5, 0.6]]
    >>> code_value(ast.parse("torch.randn(2, 3)", mode="eval").body, {}) is None
    True
    """
    if isinstance(node, (ast.List, ast.Tuple, ast.Constant)) or not _makes(node):
        return None
    try:
        v = _ev(node, env, 0)
    except (_Out, ValueError, TypeError, IndexError, OverflowError, ZeroDivisionError, MemoryError):
        return None
    if not isinstance(v, np.ndarray) or v.ndim == 0 or v.size > _MAX or v.dtype == bool:
        return None
    v = v.astype(float)
    return v if np.all(np.isfinite(v)) else None


def _makes(node: ast.AST) -> bool:
    """Whether the expression makes numbers of its own (a maker call): `inputs[1]` or `X.T` only restates an
    input already read, and would add evidence for a section without telling anything new."""
    return any(isinstance(n, ast.Call) and (n.func.attr if isinstance(n.func, ast.Attribute) else
                                            getattr(n.func, "id", "")) in _MAKERS for n in ast.walk(node))


def _ev(node: ast.AST, env: dict, depth: int):
    if depth > 30:
        raise _Out
    d = depth + 1
    if isinstance(node, ast.Constant):
        if isinstance(node.value, bool) or not isinstance(node.value, (int, float)):
            raise _Out
        return node.value
    if isinstance(node, ast.UnaryOp) and isinstance(node.op, (ast.USub, ast.UAdd)):
        v = _ev(node.operand, env, d)
        return -v if isinstance(node.op, ast.USub) else v
    if isinstance(node, (ast.List, ast.Tuple)):
        v = np.array([_ev(e, env, d) for e in node.elts], dtype=float)
        if v.dtype == object:
            raise _Out
        return v
    if isinstance(node, ast.Name):
        if node.id not in env:
            raise _Out
        return env[node.id]
    if isinstance(node, ast.BinOp):
        return _binop(node, env, d)
    if isinstance(node, ast.Attribute):
        if node.attr in ("T", "mT"):
            return _array(_ev(node.value, env, d)).T
        raise _Out
    if isinstance(node, ast.Subscript):
        return _array(_ev(node.value, env, d))[_index(node.slice, env, d)]
    if isinstance(node, ast.Call):
        return _call(node, env, d)
    raise _Out


def _array(v) -> np.ndarray:
    if not isinstance(v, np.ndarray):
        raise _Out
    return v


def _binop(node: ast.BinOp, env: dict, d: int):
    a, b = _ev(node.left, env, d), _ev(node.right, env, d)     # elementwise only: `@` is a step, not an input
    if isinstance(node.op, ast.Add):
        return a + b
    if isinstance(node.op, ast.Sub):
        return a - b
    if isinstance(node.op, ast.Mult):
        return a * b
    if isinstance(node.op, ast.Div):
        return np.asarray(a, dtype=float) / b
    if isinstance(node.op, ast.Pow) and not isinstance(b, np.ndarray):
        return np.asarray(a, dtype=float) ** b
    raise _Out


def _index(node: ast.AST, env: dict, d: int):
    if isinstance(node, ast.Tuple):
        return tuple(_index(e, env, d) for e in node.elts)
    if isinstance(node, ast.Slice):
        parts = [None if p is None else _int(_ev(p, env, d)) for p in (node.lower, node.upper, node.step)]
        return slice(*parts)
    return _int(_ev(node, env, d))


def _int(v) -> int:
    if isinstance(v, bool) or not isinstance(v, (int, float)) or v != int(v):
        raise _Out
    return int(v)


def _shape(args: list, env: dict, d: int) -> tuple[int, ...]:
    vals = [_ev(a, env, d) for a in args]
    if len(vals) == 1 and isinstance(vals[0], np.ndarray):
        vals = list(vals[0])
    shape = tuple(_int(v) for v in vals)
    if not shape or any(n < -1 for n in shape) or math.prod(abs(n) for n in shape) > _MAX:
        raise _Out
    return shape


def _call(node: ast.Call, env: dict, d: int):
    f = node.func
    name = f.id if isinstance(f, ast.Name) else (f.attr if isinstance(f, ast.Attribute) else "")
    kw = {k.arg: k.value for k in node.keywords if k.arg}
    args = list(node.args)
    method = isinstance(f, ast.Attribute) and not (isinstance(f.value, ast.Name) and f.value.id in
                                                    ("np", "numpy", "torch", "jnp", "tf", "math"))
    if method and name in _CASTS:
        return _ev(f.value, env, d)
    if method and name in ("reshape", "view"):
        return _array(_ev(f.value, env, d)).reshape(_shape(args, env, d))
    if method and name in ("t", "transpose") and len(args) in (0, 2):
        v = _array(_ev(f.value, env, d))
        if v.ndim != 2:
            raise _Out
        return v.T
    if method:
        raise _Out
    if name in _WRAPS and len(args) == 1:
        return _array(_ev(args[0], env, d)) if not isinstance(args[0], (ast.List, ast.Tuple)) else \
            _ev(args[0], env, d)
    if name == "sqrt" and len(args) == 1:
        v = _ev(args[0], env, d)
        if isinstance(v, np.ndarray) or v < 0:
            raise _Out
        return math.sqrt(v)
    if name not in _MAKERS:
        raise _Out
    return _maker(name, args, kw, env, d)


def _maker(name: str, args: list, kw: dict, env: dict, d: int) -> np.ndarray:
    if name == "arange":
        nums = [_ev(a, env, d) for a in args]
        if not 1 <= len(nums) <= 3 or any(isinstance(n, np.ndarray) for n in nums):
            raise _Out
        start, stop, step = (0, nums[0], 1) if len(nums) == 1 else (nums + [1] if len(nums) == 2 else nums)
        if step == 0 or math.ceil((stop - start) / step) > _MAX:
            raise _Out
        return np.arange(start, stop, step).astype(float)
    if name == "linspace":
        nums = [_ev(a, env, d) for a in args[:3]] + ([_ev(kw["num"], env, d)] if "num" in kw else [])
        if len(nums) != 3:
            raise _Out
        return np.linspace(nums[0], nums[1], _int(nums[2]))
    if name in ("ones", "zeros"):
        return (np.ones if name == "ones" else np.zeros)(_shape(args, env, d))
    if name == "full" and len(args) == 2:
        fill = _ev(args[1], env, d)
        if isinstance(fill, np.ndarray):
            raise _Out
        return np.full(_shape(args[:1], env, d), float(fill))
    if name in ("eye", "identity") and 1 <= len(args) <= 2:
        sizes = [_int(_ev(a, env, d)) for a in args]
        if not all(0 < n <= 64 for n in sizes):
            raise _Out
        return np.eye(*sizes)
    if name in ("ones_like", "zeros_like") and len(args) == 1:
        v = _array(_ev(args[0], env, d))
        return np.ones_like(v, dtype=float) if name == "ones_like" else np.zeros_like(v, dtype=float)
    if name == "full_like" and len(args) == 2:
        v, fill = _array(_ev(args[0], env, d)), _ev(args[1], env, d)
        if isinstance(fill, np.ndarray):
            raise _Out
        return np.full(v.shape, float(fill))
    raise _Out


def code_literal(name: str, node: ast.AST, env: dict[str, np.ndarray], line: int):
    """An assignment `name = <code>` as a literal's rows of numbers (at the assignment's line) and its leading
    shape, remembered in env for the code after it; None when the right-hand side is outside the grammar."""
    v = code_value(node, env)
    if v is None or not v.any() and not _projection_weight(name):
        return None                 # zeros: a running total or a buffer the code fills in, not an input (a
        #                             projection's weight set to zeros, `pesos_consulta = np.zeros((2, 2))`, is one)
    if name.isidentifier():
        env[name] = v
    rows = v.reshape(1, -1) if v.ndim == 1 else v.reshape(-1, v.shape[-1])
    return [[Num.parse(f"{x:.12g}", line) for x in r] for r in rows], tuple(v.shape[:-2])


def remember(name: str, rows: list, lead: tuple, env: dict[str, np.ndarray]) -> None:
    """A literal typed in (`base = np.array([...])`), kept so that code after it can transform it."""
    if not name.isidentifier() or lead or not rows or any(r is None or None in r for r in rows):
        return
    try:
        env[name] = np.array([[c.value for c in r] for r in rows], dtype=float)
    except ValueError:
        return


def expand_sums(source: str, calls: dict[str, str]) -> str:
    """`m / row_sums` after `row_sums = m.sum(dim=-1, keepdim=True)`: `m / (m.sum(dim=-1, keepdim=True))`, so that
    the printout's code says what it divides by (claims/renorm.py)."""
    for name, call in calls.items():
        if ".sum(" in call and name.isidentifier() and re.search(r"\b" + re.escape(name) + r"\b", source):
            source = re.sub(r"\b" + re.escape(name) + r"\b", lambda m: "(" + call + ")", source)
    return source


def _projection_weight(name: str) -> bool:
    """Does the name say a projection's weight (W_Q, `mecanismo.pesos_chave`, `w_value`)?"""
    ref = lb.parse_label(name)
    return ref is not None and len(ref.nodes) == 1 and ref.nodes[0] in ("W_Q", "W_K", "W_V", "W_O")
