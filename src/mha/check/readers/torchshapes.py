"""The shapes a library demo's code fixes, read without running it: tensors made with a literal size
(`torch.randn(2, 5, 128)`), an `nn.MultiheadAttention(embed_dim=128, num_heads=8, batch_first=True)`, and the output
and weights of calling it (`out, w = mha(query, key, value)`).  A document often ends with such a demo on random
tensors; its printed `torch.Size([...])` lines are claims about those shapes, not about the worked example above
it, and PyTorch's documented rules say what they must be:

    query (N, L, E) with batch_first, (L, N, E) without, (L, E) unbatched; key (N, S, E) likewise
    output: the query's shape;  weights: (N, L, S), (N, H, L, S) with average_attn_weights=False, (L, S) unbatched
"""

from __future__ import annotations

import ast

_MAKERS = {"randn", "rand", "zeros", "ones", "empty"}


def _ints(args: list[ast.AST]) -> list[int] | None:
    if len(args) == 1 and isinstance(args[0], (ast.Tuple, ast.List)):
        args = list(args[0].elts)
    out = []
    for a in args:
        if not (isinstance(a, ast.Constant) and isinstance(a.value, int) and not isinstance(a.value, bool)):
            return None
        out.append(a.value)
    return out or None


def _kw(call: ast.Call, name: str, pos: int | None = None):
    for kw in call.keywords:
        if kw.arg == name and isinstance(kw.value, ast.Constant):
            return kw.value.value
    if pos is not None and len(call.args) > pos and isinstance(call.args[pos], ast.Constant):
        return call.args[pos].value
    return None


def _name(f: ast.AST) -> str:
    return f.id if isinstance(f, ast.Name) else (f.attr if isinstance(f, ast.Attribute) else "")


def scan(tree: ast.AST, tensors: dict, modules: dict, results: dict) -> None:
    """Update the tensors' shapes, the attention modules and their results' shapes with one piece of code."""
    nodes = sorted((n for n in ast.walk(tree) if isinstance(n, ast.Assign) and isinstance(n.value, ast.Call)),
                   key=lambda n: n.lineno)
    for node in nodes:
        call, targets = node.value, node.targets
        if len(targets) != 1:
            continue
        t = targets[0]
        fname = _name(call.func)
        if isinstance(t, ast.Name):
            results.pop(t.id, None)
            tensors.pop(t.id, None)
            if fname in _MAKERS and not call.keywords:
                dims = _ints(call.args)
                if dims:
                    tensors[t.id] = dims
            elif fname == "MultiheadAttention":
                E, H, bf = _kw(call, "embed_dim", 0), _kw(call, "num_heads", 1), _kw(call, "batch_first")
                if isinstance(E, int) and isinstance(H, int) and H > 0:
                    modules[t.id] = (E, H, bool(bf))
        elif isinstance(t, ast.Tuple) and len(t.elts) == 2 and all(isinstance(e, ast.Name) for e in t.elts):
            for e in t.elts:
                results.pop(e.id, None)
            got = _apply(call, tensors, modules)
            if got is not None:
                results[t.elts[0].id], results[t.elts[1].id] = got


def _apply(call: ast.Call, tensors: dict, modules: dict) -> tuple[list[int], list[int]] | None:
    """(output shape, weights shape) of `mha(query, key, value)`, or None when the code does not fix them."""
    m = modules.get(_name(call.func)) if isinstance(call.func, ast.Name) else None
    if m is None or len(call.args) < 3 or not all(isinstance(a, ast.Name) for a in call.args[:3]):
        return None
    if any(kw.arg not in ("need_weights", "average_attn_weights") for kw in call.keywords):
        return None                     # a mask or key_padding_mask: the shapes hold, but keep to the plain call
    if _kw(call, "need_weights") is False:
        return None
    E, H, batch_first = m
    q, k = tensors.get(call.args[0].id), tensors.get(call.args[1].id)
    if q is None or k is None or len(q) != len(k) or len(q) not in (2, 3) or q[-1] != E:
        return None
    average = _kw(call, "average_attn_weights") is not False
    if len(q) == 2:
        L, S = q[0], k[0]
        return list(q), ([L, S] if average else [H, L, S])
    if batch_first:
        N, L, S = q[0], q[1], k[1]
    else:
        L, N, S = q[0], q[1], k[0]
    if (k[0] if batch_first else k[1]) != N:
        return None
    return list(q), ([N, L, S] if average else [N, H, L, S])


def product_shape(expr: str, tensors: dict) -> list[int] | None:
    """The shape of `torch.bmm(X, Y)`, `torch.matmul(X, Y)`, `X @ Y` or `torch.mm(X, Y)` of two tensors whose sizes
    the code states, by PyTorch's rules (equal batch sizes only); None when the code does not fix it."""
    try:
        node = ast.parse(expr.strip(), mode="eval").body
    except (SyntaxError, ValueError, RecursionError):
        return None
    if isinstance(node, ast.BinOp) and isinstance(node.op, ast.MatMult):
        kind, args = "matmul", [node.left, node.right]
    elif isinstance(node, ast.Call) and _name(node.func) in ("bmm", "matmul", "mm") and not node.keywords:
        kind, args = _name(node.func), list(node.args)
    else:
        return None
    if len(args) != 2 or not all(isinstance(a, ast.Name) and a.id in tensors for a in args):
        return None
    a, b = tensors[args[0].id], tensors[args[1].id]
    want = {"bmm": 3, "mm": 2}.get(kind)
    if len(a) < 2 or len(b) < 2 or a[-1] != b[-2] or (want is not None and not len(a) == len(b) == want):
        return None
    if a[:-2] != b[:-2] and a[:-2] and b[:-2]:
        return None                     # broadcast batch sizes: keep to the plain case
    return list(a[:-2] or b[:-2]) + [a[-2], b[-1]]
