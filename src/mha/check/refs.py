"""What a label names: the trace nodes a document can print (their steps and how they are shown), and `Ref`,
a label read as one of them with the head, row or entry it picks out (labels.py reads labels into Refs)."""

from __future__ import annotations

from dataclasses import dataclass, replace

from .gradients import GRAD_PER_HEAD, GRAD_SHOWN, GRAD_STEP


# The trace nodes a document can print, with the pipeline step each belongs to.
STEP = {"X": "input", "W_Q": "weights", "W_K": "weights", "W_V": "weights", "W_O": "weights",
        "b_Q": "weights", "b_K": "weights", "b_V": "weights", "b_O": "weights",
        "Q": "projection", "K": "projection", "V": "projection",
        "Qh": "split", "Kh": "split", "Vh": "split", "Qr": "rope", "Kr": "rope", "Vr": "split",
        "Kc": "input", "Vc": "input",
        "QKt": "scores", "S": "scale", "E": "softmax", "row_max": "softmax", "row_sum": "softmax",
        "A": "softmax", "mask": "scale", "O": "weighted_sum", "O_concat": "concat", "Y": "output", **GRAD_STEP}
ORDER = list(STEP)
PER_HEAD = {"Qh", "Kh", "Vh", "Qr", "Kr", "Vr", "Kc", "Vc", "QKt", "S", "E", "A", "O", "row_max", "row_sum",
            "mask"} | GRAD_PER_HEAD
SHOWN = {"X": "X", "W_Q": "W_Q", "W_K": "W_K", "W_V": "W_V", "W_O": "W_O", "Q": "Q", "K": "K", "V": "V",
         "Qh": "Q", "Kh": "K", "Vh": "V", "Qr": "Q (rotated)", "Kr": "K (rotated)", "Vr": "V",
         "Kc": "K (cache)", "Vc": "V (cache)", "QKt": "Q Kᵀ",
         "S": "S", "E": "exp", "row_max": "row max", "row_sum": "row sum", "A": "A", "mask": "mask",
         "O": "O", "O_concat": "O_concat", "Y": "Y", "pre_bias": "a projection before its bias", "b_Q": "b_Q", "b_K": "b_K", "b_V": "b_V", "b_O": "b_O",
         **GRAD_SHOWN}


@dataclass(frozen=True)
class Ref:
    """What a label names: candidate nodes, and which head / row / entry of them (0-based)."""
    nodes: tuple[str, ...]
    head: int | None = None
    row: int | None = None
    col: int | None = None
    transposed: bool = False
    batch: int | None = None
    strong: bool = True           # a symbol or a variable name (attributes a wrong value); False: prose words
    raw_head: int | None = None   # the index as written, before the document's base is known
    raw_row: int | None = None
    raw_col: int | None = None
    of: tuple[float, ...] | None = None   # "[1,0] · Wq": the printed input row it is computed from
    token: str | None = None      # k_she, q_{cat}: the token a vector belongs to, named by its word

    def _with_col(self, col_1based: int) -> "Ref":
        return replace(self, col=None, raw_col=col_1based)

    def show(self) -> str:
        n = self.nodes[0]
        s = SHOWN.get(n, n)
        if self.head is not None and n in PER_HEAD | {"Qh", "Kh", "Vh"}:
            s = f"{s}^({self.head + 1})" if n != "QKt" else f"Q^({self.head + 1}) K^({self.head + 1})ᵀ"
        if self.row is not None:
            s = f"{s} row {self.row + 1}"
        if self.col is not None:
            s = f"{s}[{self.col + 1}]"
        if self.transposed:
            s += "ᵀ"
        return s
