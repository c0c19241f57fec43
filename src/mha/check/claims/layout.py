"""A labelled array whose values are its quantity's in another layout: transposed, another head's or token's row,
a column (split from array.py; the judging of cell values stays there)."""

from __future__ import annotations

import re
from typing import Any

from ..infer import Hit, Obj, _family
from ..report import Finding, NotChecked
from .assumed import split_assumed
from .common import _show_view
from .identity import _short
from .readlayout import layout_question


def _what(o: Obj) -> str:
    """How a finding names the array: its label (or "unlabelled") and its shape."""
    shape = "×".join(map(str, o.a.shape))
    name = o.a.label.strip()[:40] or "unlabelled"
    return f"{name} ({shape})"


class LayoutJudging:
    """Judge methods for an array whose values are its quantity's in another layout."""

    def _judge_layout(self, o: Obj, plan: dict[str, Any]) -> None:
        """The labelled quantity's values in another layout: transposed, another head's, a column."""
        a = o.a
        h = plan["hit"]
        if h.all and h.how == "full" and h.view is not None and any(h.view.node in _family(r) for r in o.refs):
            # one of its names is the quantity it matches, whole (a comment naming two printouts, `Output: [..],
            # Attention: [..]`, read as one): no other layout
            self.n_claims += 1
            self.n_numbers += o.n
            return
        if o.ref is not None and o.ref.row is not None and o.val is not None and o.val.shape[0] > 1 and \
                h.how == "full" and h.view is not None and h.view.node in o.ref.nodes:
            # `K_3 = [3×4]`, all of K: the subscript counts steps (the cache after step 3), it is no row index
            self.not_checked.append(NotChecked(a.line, a.place.cell, _what(o), f"its values are "
                                               f"{_show_view(h)}'s, all its rows: the subscript is no row index"))
            return
        if o.ref is not None and o.ref.row is not None and o.val is not None and o.val.shape[0] == 1 and \
                h.how == "full" and h.view is not None and h.view.M.shape[0] == 1 and \
                (h.view.node in _family(o.ref) or h.view.node in o.ref.nodes) and h.all:
            # `q_3 = [1, 0]` where Q is that one query: the subscript is the token's place in its sentence
            self.n_claims += 1
            self.n_numbers += o.n
            return
        if h.how == "row" and h.all and o.ref is not None and o.ref.row is None and o.val is not None and \
                o.val.shape[0] == 1 and h.view is not None and h.view.node in _family(o.ref) and \
                (o.ref.head is None or h.view.h in (None, o.ref.head)):
            # `\text{out}[1] = ... = [2.3395, 3.3395]`: each token's output worked in turn under a label that keeps
            # no row index (the bracket is read apart): one whole row of the quantity it names, none claimed
            self.n_claims += 1
            self.n_numbers += o.n
            return
        if _primed(o, h):
            # S' is as often "S modified" (masked) as "S transposed": the prime alone is no evidence of a slip
            self.not_checked.append(NotChecked(a.line, a.place.cell, _what(o), "its values are "
                                               f"{_show_view(h)}'s; the prime need not mean a transpose"))
            return
        if h.how == "T" and self._printed_transposed(a, o):
            return
        if h.how == "T" and self._softmax_down_columns(a, o):
            return
        columns = next((x for x in self.doc.hints if x.kind == "columns"), None) if h.how == "T" else None
        if columns is not None:
            self.not_checked.append(NotChecked(a.line, a.place.cell, _what(o), "its values are "
                                               f"{_show_view(h)}'s: the document keeps tokens as columns (line "
                                               f"{columns.place.line}), so the transpose is its layout"))
            return
        if h.how == "col" and h.all and o.ref is not None and o.ref.row is not None:
            # a table headed `q_1 q_2 | k_1 k_2` whose columns are Q's columns: the subscript counts components
            self.not_checked.append(NotChecked(a.line, a.place.cell, _what(o), "its values are all of "
                                               f"{_show_view(h)}: the subscript counts that vector's components "
                                               "(a column), not tokens"))
            return
        question = layout_question(self, o, h)
        if question is not None:
            self.not_checked.append(NotChecked(a.line, a.place.cell, _what(o), question))
            return
        if h.view.h is not None and o.ref.head is not None and h.view.h != o.ref.head and split_assumed(self, o, h, _what(o)):
            return
        self.n_claims += 1
        label = o.ref.show()
        how = {"T": "transposed", "row": "a row of another head or token", "col": "a column"}.get(
            h.how, "the values of " + _show_view(h))
        kind2 = "transposed" if h.how == "T" else ("wrong_head" if h.view.h is not None and o.ref.head is not None
                                                    and h.view.h != o.ref.head else "wrong_value")
        self.add(Finding(a.line, a.place.cell, f"{label}", f"{list(o.val.shape)} {_short(o)}",
                         f"{list(h.view.M.shape)}", None, self.step_of(h.view.node),
                         f"{how}: these are the values of {_show_view(h)}", kind2))

    def _softmax_down_columns(self, a, o: Obj) -> bool:
        """`torch.softmax(scores, dim=0)`: the printout's own code normalises down the columns, and with symmetric
        scores (X Xᵀ) that is the transpose of the row-wise weights.  The axis is the code's, said in the code: the
        layout is not judged (said once, and True)."""
        from .formula import _definition
        rhs = _definition(o, [h for h in self.doc.hints if h.kind == "define"]) if a.place.where == "output" else None
        if rhs is None or not _DOWN_COLUMNS.search(rhs):
            return False
        self.not_checked.append(NotChecked(a.line, a.place.cell, _what(o), "its code takes the softmax down the "
                                           f"columns (`{rhs.strip()[:40]}`): the axis its code chose"))
        return True

    def _printed_transposed(self, a, o: Obj) -> bool:
        """`keys.t()` prints K transposed on purpose: its own code says which layout it shows, so the layout is
        not checked (said once, and True); False when its code does not transpose."""
        if not _prints_transpose(a):
            return False
        self.not_checked.append(NotChecked(a.line, a.place.cell, _what(o), "its code prints the transpose "
                                           f"({(a.source or a.label).strip()[:40]})"))
        return True


_DOWN_COLUMNS = re.compile(r"softmax\([^()]*(?:\([^()]*\)[^()]*)*\b(?:dim|axis)\s*=\s*0\b")
_TRANSPOSING = re.compile(r"(?:\.t\(\)|\.T|\.mT|\.transpose\([^()]*\)|\.permute\([^()]*\))\s*$")


def _prints_transpose(a) -> bool:
    """The printout's code (or the expression echoed) ends in a transpose: `keys.t()`, `K.T`, `x.transpose(0, 1)`."""
    return any(_TRANSPOSING.search(t or "") for t in (a.source, a.label))


def _primed(o: Obj, h: Hit) -> bool:
    """Named with a prime (S') and equal to the quantity itself, untransposed: S' is as often "S modified" as "S
    transposed", so the prime alone is no evidence of a transposed matrix."""
    return bool(o.ref is not None and o.ref.transposed and h.how == "full"
                and any(q in x for x in [o.a.label] + o.a.labels for q in "'′"))
