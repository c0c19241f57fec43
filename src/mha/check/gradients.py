"""The backward pass's vocabulary: the names people give gradients, the trace nodes they name, their steps, and the
gradient matrices of a trace (`mha.backward.LayerGrads`) as the data of views.

A gradient is named by the quantity it is taken with respect to, in any of the ways people write it:
`dQ`, `dW_Q`, `dS^{(1)}_{12}`, `δA`, `∂L/∂Q`, `\\frac{\\partial L}{\\partial Q}`, `∇_Q L`, `Q.grad`, `grad_Q`,
`Q_grad`, `Q 的梯度`, `梯度 Q`, `上游梯度` (dY); `D`, `D_i` is the softmax backward's row term rowsum(dA ⊙ A),
`T`, `target`, `目标` the target of L = ½‖Y − T‖², and `J_i`, `Jacobian`, `雅可比` the softmax's Jacobian of a row,
diag(a_i) − a_i a_iᵀ (which row, its values say).  labels.py parses the name of the quantity itself, so every
index, head and transposition it knows for Q it knows for dQ.

    dY   upstream (the loss)        dO_concat, dW_O, dO   output       dA, dV   weighted sum
    D, dS   softmax                 dQKt   scale                       dQ, dK   scores
    dW_Q, dW_K, dW_V, biases, dX   projections
"""

from __future__ import annotations

import re
from typing import Any

import numpy as np

# forward node -> the gradient nodes a d in front of it names (the first names a finding)
GRAD_OF = {
    "X": ("dX",), "W_Q": ("dW_Q",), "W_K": ("dW_K",), "W_V": ("dW_V",), "W_O": ("dW_O",),
    "b_Q": ("db_Q",), "b_K": ("db_K",), "b_V": ("db_V",), "b_O": ("db_O",),
    "Q": ("dQ", "dQh"), "K": ("dK", "dKh"), "V": ("dV", "dVh"),
    "Qh": ("dQh", "dQ"), "Kh": ("dKh", "dK"), "Vh": ("dVh", "dV"),
    "S": ("dS", "dQKt"), "QKt": ("dQKt", "dS"), "A": ("dA",),
    "O": ("dO", "dO_concat", "dY"), "O_concat": ("dO_concat", "dY"), "Y": ("dY", "dO_concat"),
}

GRAD_STEP = {
    "dY": "backward_loss", "target": "input",
    "dO_concat": "backward_output", "dW_O": "backward_output", "db_O": "backward_output", "dO": "backward_output",
    "dA": "backward_weighted_sum", "dV": "backward_weighted_sum", "dVh": "backward_weighted_sum",
    "D": "backward_softmax", "dS": "backward_softmax", "dQKt": "backward_scale",
    "dQ": "backward_scores", "dQh": "backward_scores", "dK": "backward_scores", "dKh": "backward_scores",
    "dW_Q": "backward_projection", "dW_K": "backward_projection", "dW_V": "backward_projection",
    "db_Q": "backward_projection", "db_K": "backward_projection", "db_V": "backward_projection",
    "dX": "backward_projection", "J": "backward_softmax",
}
GRAD_SHOWN = {n: n for n in GRAD_STEP} | {"dQh": "dQ", "dKh": "dK", "dVh": "dV", "dQKt": "d(Q Kᵀ)",
                                          "target": "target"}
GRAD_PER_HEAD = {"dO", "dA", "D", "dS", "dQKt", "dQh", "dKh", "dVh"}

_LOSS = r"(?:L|ℓ|\\ell|\\mathcal\s*\{?L\}?|loss|J)"
_PARTIAL = r"(?:∂|\\partial\s*)"
_SYMBOLIC = re.compile(r"[A-Za-zα-ωΑ-Ω\\][\w{}()^_',\\]*")      # one symbol with its indices, no operators
_FORMS = [
    re.compile(r"^(.+?)\.grad(?:\.(?:numpy|detach|data)\(?\)?)*$"),                 # torch: Q.grad
    re.compile(r"^grad_(?!fn\b)([A-Za-z]\w*)$"), re.compile(r"^([A-Za-z]\w*?)_grad$"),    # grad_Q, W_Q_grad
    re.compile(rf"^{_PARTIAL}\s*{_LOSS}\s*/\s*{_PARTIAL}\s*(.+)$"),                 # ∂L/∂Q
    re.compile(rf"^\\[dt]?frac\s*\{{\s*{_PARTIAL}\s*{_LOSS}\s*\}}\s*\{{\s*{_PARTIAL}\s*(.+)\}}$"),
    re.compile(rf"^(?:∇|\\nabla\s*)_\s*\{{?([^{{}}]+?)\}}?\s*{_LOSS}?$"),            # ∇_Q L
    re.compile(r"^(?:对\s*)?(.+?)\s*的\s*梯度$"), re.compile(r"^梯度\s*(.+)$"),          # Q 的梯度, 梯度 Q
]
_D_PREFIX = re.compile(r"^(?:\\mathrm\s*\{d\}|\\delta\s*|δ|d)\s*(?=[A-Z]|\\alpha|α)(.+)$")
_ROW_TERM = re.compile(r"^D(?:_\{?(\w+)\}?)?$")
_JACOBIAN = re.compile(r"^(?:J|Jacobian|雅可比(?:矩阵)?)(?:_\{?\w+\}?)?$", re.I)
_TARGET = re.compile(r"^(?:T|target|targets|tgt|y_?true|Y_?\{?true\}?|Y\^\{?\*\}?|Y_\{?(?:target|tgt)\}?|"
                     r"目标(?:值|矩阵|输出)?)$")
_UPSTREAM = re.compile(r"^(?:上游梯度|upstream(?:[ _]grad(?:ient)?)?|grad_output)$", re.I)


_ENTRY = re.compile(r"^(.+?)\[\s*(\d+)\s*,\s*(\d+)\s*\]$")             # dW_O[1,1]: an entry, as code writes it


def grad_name(text: str) -> tuple[str, Any, tuple[int | None, int | None]] | None:
    """What a label says when it names a gradient: ("of", the quantity's own label, (row, col)) or ("node", nodes,
    (row, col)) for the row term D, the target and the upstream gradient (indices as written, when they are
    written in brackets or for D_i), or None.

    >>> grad_name("dW_Q"), grad_name(r"\\frac{\\partial L}{\\partial Q}"), grad_name("attn_weights.grad")
    (('of', 'W_Q', (None, None)), ('of', 'Q', (None, None)), ('of', 'attn_weights', (None, None)))
    >>> grad_name("D_3"), grad_name("dW_O[1,2]"), grad_name("d_model"), grad_name("dQ W_Q^T + dK W_K^T")
    (('node', ('D',), (3, None)), ('of', 'W_O', (1, 2)), None, None)
    """
    s = re.sub(r"\\[,;:! ]|\\(?:mathrm|operatorname|text)\s*\{(\w+)\}", lambda m: m.group(1) or "", text.strip())
    s = s.strip().strip("$").strip()
    at: tuple[int | None, int | None] = (None, None)
    m = _ENTRY.match(s)
    if m:
        s, at = m.group(1).strip(), (int(m.group(2)), int(m.group(3)))
    m = _ROW_TERM.match(s)
    if m:
        return ("node", ("D",), (int(m.group(1)) if m.group(1) and m.group(1).isdigit() else at[0], None))
    if _JACOBIAN.match(s):                   # the softmax's Jacobian of one row (J_i: any row's, by its values)
        return ("node", ("J",), (None, None))
    if _TARGET.match(s):
        return ("node", ("target",), at)
    if _UPSTREAM.match(s):
        return ("node", ("dY", "dO_concat"), at)
    for rx in _FORMS:
        m = rx.match(s)
        if m:
            return ("of", m.group(1).strip(), at)
    m = _D_PREFIX.match(s)
    if m and _SYMBOLIC.fullmatch(re.sub(r"\s*([_^{}])\s*", r"\1", m.group(1)).strip()):
        return ("of", m.group(1).strip(), at)
    return None


_MENTION = re.compile(r"(?<![A-Za-z_\\])d[A-Z]|∂|\\partial|\.grad\b|梯度|∇|\\nabla")


def mentions_grad(text: str) -> bool:
    """A formula over gradients (dY V^T, dQ W_Q^T + dK W_K^T) names none of the forward quantities in it."""
    return bool(_MENTION.search(text))


def grad_nodes(nodes: tuple[str, ...]) -> tuple[str, ...]:
    """The gradient nodes of a forward label's nodes, in order, without repeats (empty: none has a gradient)."""
    return tuple(dict.fromkeys(g for n in nodes for g in GRAD_OF.get(n, ())))


Grad = tuple[str, int | None, int | None, np.ndarray, str]       # node, sequence, head, 2-D matrix, variant


def grad_matrices(t: Any) -> list[Grad]:
    """Every gradient of a trace with a backward pass, its target, and the softmax's Jacobian of each row
    (diag(a) − a aᵀ, one view per row: its variant says which), as the data of views."""
    g, c = t.grads, t.config
    if g is None:
        return []
    out: list[Grad] = []
    for b in range(c.B):
        for name in ("dY", "dO_concat", "dQ", "dK", "dV", "dX"):
            if getattr(g, name) is not None:
                out.append((name, b, None, getattr(g, name)[b], ""))
        if g.loss == "target" and c.backward is not None and c.backward.array is not None:
            out.append(("target", b, None, np.asarray(c.backward.array)[b], ""))
        for h in range(c.n_heads):
            k = c.group(h)
            for name, arr in (("dO", g.dO[b, h]), ("dA", g.dA[b, h]), ("dS", g.dS[b, h]), ("dQKt", g.dQKt[b, h]),
                              ("D", g.D[b, h][None, :]), ("dQh", g.dQh[b, h]), ("dKh", g.dKh[b, k]),
                              ("dVh", g.dVh[b, k])):
                out.append((name, b, h, arr, ""))
            for i, a in enumerate(t.A[b, h]):
                out.append(("J", b, h, np.diag(a) - np.outer(a, a), f"row {i + 1}"))
    for name in ("dW_Q", "dW_K", "dW_V", "dW_O"):
        if getattr(g, name) is not None:
            out.append((name, None, None, getattr(g, name), ""))
    for name in ("db_Q", "db_K", "db_V", "db_O"):
        if getattr(g, name) is not None:
            out.append((name, None, None, getattr(g, name)[None, :], ""))
    return out
