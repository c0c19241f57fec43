"""Shape and size claims: a stated shape (Q ∈ ℝ^{3×4}, torch.Size([1, 3, 4]), "a 3×4 matrix"), a product of shapes
([3, 2] × [2, 3] = [3, 3]), and a size (T = 3, d_k = 2, H = 2)."""

from __future__ import annotations

import math
import re
from dataclasses import dataclass

from .. import labels as lb
from ..infer import QUERY_SIDE, _family
from ..numbers import Num
from ..objects import Place, ShapeProduct
from ..report import Finding, NotChecked
from .shapeelsewhere import shape_of_another_example
from .shapewords import (
    ALGEBRA, ENCODER_SIDE, OTHER_TENSOR, another_model, before_transpose, printed_with_that_shape,
    random_inputs_before, shape_subject, transposed_in_code)

STEP = lb.STEP


# one token's vector: a lowercase letter with a subscript (x_i, \mathbf{q}_{1}, k_j, h_t)
_TOKEN_VECTOR = re.compile(r"(?:\\(?:mathbf|boldsymbol|vec|bm))?\{?[a-z]\}?_\{?(?:[a-z]|\d{1,2})\}?")


@dataclass
class ShapeClaim:
    ref: lb.Ref
    label: str
    dims: list[int]
    place: Place
    text: str


@dataclass
class ProductShapeClaim:
    part: ShapeProduct
    label: str
    place: Place
    step_hint: str | None


@dataclass
class SizeClaim:
    symbol: str
    value: Num
    place: Place
    text: str


SIZE_SYMBOLS = {"B": "B", "T": "T", "S": "S", "d": "d_model", "d_model": "d_model", "d_{model}": "d_model",
                "dmodel": "d_model", "H": "H", "h": "H", "n_heads": "H", "num_heads": "H", "n_head": "H",
                "d_h": "d_k", "d_k": "d_k", "d_{k}": "d_k", "d_{h}": "d_k", "d_head": "d_k", "head_dim": "d_k",
                "d_v": "d_v", "d_{v}": "d_v", "n_kv_heads": "G", "G": "G"}


def _size_key(text: str) -> str | None:
    key = re.sub(r"[\\{}\s]|mathrm|text", "", text)
    key = key.replace("d_model", "d_model")
    return SIZE_SYMBOLS.get(key) or SIZE_SYMBOLS.get(text.strip())


_BARE_RESULT = re.compile(r"(?i)(?:the\s+|a\s+)?(?:results?|res|product|结果|乘积)")


class ShapeJudging:
    """Judge methods for ShapeClaim, ProductShapeClaim and SizeClaim."""

    def _other_head_counts(self, sizes: list[SizeClaim]) -> None:
        """A section that states another head count than the configuration's ("we reuse the input, but with h = 2
        heads" after a one-head example) works another example: what the trace says is wrong there (its scores,
        shapes, sizes) is not checked; what a line's own terms say stays."""
        if self.t is None:
            return
        H = self.t.config.n_heads
        stated = [c for c in sizes if c.symbol == "H" and c.value.exact and math.isfinite(c.value.value)]
        other: dict = {}              # section -> where its other head count is first stated
        for c in stated:
            if int(c.value.value) != H:
                sec = self.section_of(c.place)
                other[sec] = min(other.get(sec, c.place.order), c.place.order)
        # a section that states the configuration's H before another ("H = 2" for the worked example, then
        # "Llama-2-7B: H = 32" for a cache size) works the example up to that other count
        since = {sec: at if any(int(c.value.value) == H and self.section_of(c.place) == sec and c.place.order < at
                                for c in stated) else (-1, -1) for sec, at in other.items()}
        if not other:
            return
        traced = [f for f in self.findings if f.severity == "error" and self.section_of(Place(f.line, f.cell)) in other
                  and Place(f.line, f.cell).order >= since[self.section_of(Place(f.line, f.cell))]
                  and (any(f is g for g in self.by_trace) or f.step == "config" or f.kind == "wrong_shape")]
        self.findings = [f for f in self.findings if not any(f is g for g in traced)]
        for f in traced:
            self.not_checked.append(NotChecked(f.line, f.cell, f"{f.claim}: printed {f.printed}",
                                               f"its section states another head count than the configuration's "
                                               f"H = {H}: another example"))

    def _beside_other_sizes(self, sizes: list[SizeClaim]) -> None:
        """A shape stated just after sizes the configuration does not have ("so with d_model = 8 and H = 2 each
        head has d_k = 4, and Z_1, Z_2 ∈ ℝ^{3×4}"): the shape of that setup, not of the worked example."""
        if self.t is None:
            return
        c = self.t.config
        have = {"T": c.T, "d_model": c.d_model, "H": c.n_heads, "d_k": c.d_k, "d_v": c.d_v}
        other = [(s.place.cell, s.place.line, s.text) for s in sizes if have.get(s.symbol) is not None
                 and s.value.exact and math.isfinite(s.value.value) and int(s.value.value) != have[s.symbol]]
        if not other:
            return
        keep = []
        for f in self.findings:
            near = next((t for cell, line, t in other if f.kind == "wrong_shape" and f.severity == "error"
                         and cell == f.cell and f.line - 3 <= line <= f.line), None)
            if near is None:
                keep.append(f)
                continue
            self.not_checked.append(NotChecked(f.line, f.cell, f"{f.claim}: printed {f.printed}",
                                               f"stated just after sizes the configuration does not have "
                                               f"({near.strip()[:30]}): the shape of that other setup"))
        self.findings = keep

    def _doubt_sizes(self, sizes: list[list[Finding]]) -> None:
        """The stated shapes and sizes disagree with the configuration more often than they agree (at least three
        times): the configuration's sizes are the guess in doubt (one token where the text has three, another
        example's heads), not the author's; each such finding becomes a line not checked."""
        bad = [f for fs in sizes for f in fs if f.severity == "error"]
        if len([fs for fs in sizes if any(f.severity == "error" for f in fs)]) < 3 or \
                2 * sum(1 for fs in sizes if any(f.severity == "error" for f in fs)) <= len(sizes):
            return
        self.findings = [f for f in self.findings if not any(f is g for g in bad)]
        for f in bad:
            self.not_checked.append(NotChecked(f.line, f.cell, f"{f.claim}: printed {f.printed}",
                                               "most stated shapes and sizes disagree with the inferred configuration: "
                                               "its sizes are in doubt, not the document's"))

    def shape_of(self, ref: lb.Ref) -> tuple[list[list[int]], str] | None:
        c = self.t.config
        node = ref.nodes[0]
        shapes: list[list[int]] = []
        for n in sorted(_family(ref)):          # a set: sorted, or the shape named would vary with the hash seed
            for v in self.vs.by_node.get(n, []):
                if ref.head is not None and v.h is not None and v.h != ref.head:
                    continue
                if n in ("row_max", "row_sum", "b_Q", "b_K", "b_V", "b_O"):
                    continue
                s = list(v.M.shape)
                if ref.transposed:
                    s = s[::-1]
                if c.batched and v.b is not None and n in ("X", "Q", "K", "V", "O_concat", "Y"):
                    shapes.append([c.B] + s)
                if c.batched and v.b is not None and n in lb.PER_HEAD | {"Qh", "Kh", "Vh"}:
                    shapes.append([c.B, c.n_heads] + s)
                    shapes.append([c.B] + s)
                if n in lb.PER_HEAD | {"Qh", "Kh", "Vh"}:
                    shapes.append([c.n_heads] + s)
                shapes.append(s)
        if not shapes:
            return None
        best = self.inf.best
        for n in ref.nodes:
            ch = best.cand.dims.get(n) if best is not None and n in ("W_Q", "W_K", "W_V") else None
            if ch is not None and "(transposed)" in ch.label:
                # read in the column convention (q = W_Q x): the document's W_Q is d_k×d_model as it says
                shapes += [x[::-1] for x in shapes if len(x) == 2]
        step = self.step_of(node)
        B = getattr(self, "stated_B", None)
        if B and B > 1 and c.B == 1:
            shapes += [[B] + x for x in shapes]
        return shapes, step

    def _width_assumed(self, ref) -> bool:
        """Is the shape of this quantity set by a projection the configuration assumes rather than takes as printed
        or stated (`context_vecs.shape` after random nn.Linear layers, with W = I assumed)?"""
        best = self.inf.best
        if best is None or set(ref.nodes) <= {"X", "W_Q", "W_K", "W_V", "W_O", "mask", "QKt", "S", "E", "A"}:
            return False     # X and the weights are printed; the scores' shape is T × T whatever the width
        return any("(assumed)" in getattr(best.cand.dims.get(w), "label", "") for w in ("W_Q", "W_K", "W_V"))

    def _weight_assumed(self, ref) -> bool:
        """Is this a projection the configuration assumes to be I, rather than takes as printed or stated?"""
        best = self.inf.best
        return best is not None and any("(assumed)" in getattr(best.cand.dims.get(w), "label", "")
                                        for w in set(ref.nodes) & {"W_Q", "W_K", "W_V"})

    def judge_shape(self, s: ShapeClaim) -> None:
        if self.vs is None:
            return
        got = self.shape_of(s.ref)
        if got is None or not self.in_span(s.place):
            return
        shapes, step = got
        if s.ref.row is not None or another_model(s.dims, self.example_sizes()):
            return
        if s.ref.raw_head is not None and self.t is not None and self.t.config.n_heads == 1:
            return           # "K1 (3×2)", "→ O2 (3×2)" under a one-head reading: a head's slice, which the reading
            #                  does not have (the page splits into heads the configuration does not)
        if "mask" in s.ref.nodes:
            return           # a mask comes in many layouts: (T, T), (B, T) for padding, (B, 1, 1, T) to broadcast
        if OTHER_TENSOR.search(s.label) or not s.ref.strong and (OTHER_TENSOR.search(s.text) or (
                s.place.where == "output" and any(d > 1 and d not in self.example_sizes() for d in s.dims))):
            return           # "Logits shape: (4, 20)" over a vocabulary, "after attention + residual + norm": words
            #                  that name another tensor of the model, or a program's shape of a size the example
            #                  has nowhere (a batch of token ids for training)
        if self.t is not None and set(s.ref.nodes) & {"A", "S", "QKt", "E"} and len(s.dims) >= 2 and \
                not {s.dims[-2], s.dims[-1]} & {self.t.config.T, self.t.config.S}:
            return           # `a shape: torch.Size([1, 2, 3, 4])` of a demo tensor: weights have a row per query and
            #                  a column per key, and neither of its last two sizes is either count
        if _BARE_RESULT.fullmatch(s.label.strip()):
            return           # "Q (3×4) by Kᵀ (4×3) = result (3×3)": the result of that product, not the output
        if self._width_assumed(s.ref) or self._weight_assumed(s.ref):
            return           # the widths after a projection the configuration assumes (W = I, no text says so), or
            #                  that projection's own shape (a later example's torch.rand(3, 2) against the I assumed)
        if random_inputs_before(self.doc, s.place, shape_subject(s)):
            return           # `Q = np.random.randn(3, 4)` in the code above: the shapes of that code's own example
        if printed_with_that_shape(self.doc, s):
            self.n_claims += 1
            self.n_numbers += 1
            return           # `print(a); print(a.shape)`: the shape of the `a` just printed (it holds), a scratch tensor
        if transposed_in_code(self.doc, s):
            swapped = list(s.dims[:-2]) + [s.dims[-1], s.dims[-2]] if len(s.dims) >= 2 else None
            if swapped in shapes:
                self.n_claims += 1
                self.n_numbers += 1
            return           # `k_t = k.transpose(-2, -1)`: the shape of K transposed (held, or left to the reader)
        if ALGEBRA.search(s.text or ""):
            return           # "multiply matrix A (2×3) by matrix B (3×2)": a refresher on matrices, no attention
        if self.t is not None and self.t.config.key is not None and ENCODER_SIDE.search(s.label):
            return           # cross-attention: "the encoder's output (3×4)" is what the keys come from, not Y
        if self.t is not None and self.t.config.T == 1 and len(s.dims) >= 2 and s.dims[-2] > 1 and \
                set(s.ref.nodes) & QUERY_SIDE:
            return           # the example works one query; "Q Kᵀ ... (here 2×2)" speaks of every word stacked
        if len(s.dims) == 1 and _TOKEN_VECTOR.fullmatch(s.label.replace(" ", "")):
            # "each x_i ∈ ℝ⁴": one token's vector, a row of X; its length is the row's, not X's shape
            if any(len(x) >= 2 and x[-1] == s.dims[0] for x in shapes):
                self.n_claims += 1
                self.n_numbers += 1
            return
        self.n_claims += 1
        self.n_numbers += 1
        if s.dims in shapes or (set(s.ref.nodes) <= {"Q", "K", "V", "Qh", "Kh", "Vh"} and
                                before_transpose(s.dims, shapes)):
            return               # (a projection split into heads, not yet transposed; scores and outputs have one
                                 # layout, and a head axis swapped with the tokens there is a slip)
        if len(s.dims) == 2 and s.dims[0] == 1 and set(s.ref.nodes) & {"X", "Q", "K", "V"} and not s.ref.strong and \
                any(len(x) == 2 and x[0] > 1 and x[1] == s.dims[1] for x in shapes):
            return           # "输入 [1 x 4]" (words, not the symbol X): a word vector going in, one row of the 3×4 X
        c = self.t.config
        dims = list(s.dims)
        while len(dims) > 2 and dims[0] == 1 and (not c.batched or c.B == 1):
            dims = dims[1:]               # a batch of one: torch.Size([1, 3, 4]) is X's 3×4, (1, H, T, d_k) the split Q
            if dims in shapes:
                return
        if len(s.dims) == 3 and not c.batched and [s.dims[0] * s.dims[1], s.dims[2]] in shapes:
            return                        # X ∈ ℝ^{2×4×8} over an 8×8 display: a batch of two, its rows stacked
        if len(s.dims) >= 3 and not c.batched and s.dims[0] > 1 and c.T is not None and s.dims[-2] == c.T:
            self.n_claims -= 1
            self.n_numbers -= 1
            return           # torch.Size([2, 6, 4]) where the example has one sequence of 6: a batch stacked from it
            #                  (`torch.stack((inputs, inputs))`) run through modules the configuration does not hold
        if self.outside(s.place, s.text[:60] or f"shape of {s.ref.show()}", list(s.dims)):
            self.n_claims -= 1
            self.n_numbers -= 1
            return
        if self._shape_of_its_weight_or_heads(s):
            return
        if shape_of_another_example(self, s):
            self.n_claims -= 1
            self.n_numbers -= 1
            return           # "V had shape (4 x 1)" under the cross-attention example printed just above it
        want = shapes[-1] if len(s.dims) == len(shapes[-1]) else next((x for x in shapes if len(x) == len(s.dims)),
                                                                      shapes[-1])
        if s.ref.nodes[0] in ("W_Q", "W_K", "W_V", "W_O") and len(want) == 2 and want[0] == 1 and s.dims[0] > 1:
            self.n_claims -= 1
            self.n_numbers -= 1
            return           # a weight read as one row (its rows given one by one in prose): the reading, not the
            #                  stated "Wq (4x4)", is what is in doubt
        if step in ("projection",) and s.ref.head is not None:
            step = "split"
        if s.ref.nodes[0] == "W_O" and re.search(r"\btimes\b|\bconcat|@|乘", s.text):
            step = "output"               # "concat (3×4) times W^O (4×2)": a statement about the output product
        self.add(Finding(s.place.line, s.place.cell, f"shape of {s.ref.show()}", "×".join(map(str, s.dims)),
                         "×".join(map(str, want)), None, step, f"wrong shape: {s.ref.show()} is "
                         f"{'×'.join(map(str, want))}", "wrong_shape"))

    def _shape_of_its_weight_or_heads(self, s: ShapeClaim) -> bool:
        """"the weight matrices for Q, K, V (each 4×2)": the shape of the projection W_V, said beside its name;
        "Concat(head_1, head_2) is 2×4" where the text states h = 2 but works one head: the stated heads' width."""
        c = self.t.config
        nodes = set(s.ref.nodes)
        for role in nodes & {"Q", "K", "V"}:
            W = getattr(c, "W_" + role, None)
            if W is not None and getattr(W, "ndim", 0) >= 2 and list(W.shape[-2:]) == list(s.dims):
                return True
        if nodes & {"O", "O_concat", "Y"} and len(s.dims) == 2 and c.T is not None and s.dims[0] == c.T and \
                c.n_heads == 1:
            stated = {int(h.value) for h in self.doc.hints if h.kind == "heads" and str(h.value).isdigit()}
            return any(s.dims[1] == k * c.d_v for k in stated if k >= 2)
        return False

    def judge_product(self, p: ProductShapeClaim) -> None:
        sp = p.part
        if not self.in_span(p.place):
            return
        if sp.result is None and len(sp.left) == len(sp.right) >= 2 and sp.left[-1] != sp.right[-2]:
            return           # [1, 2, 3] · [1, 2, 3] = 14: two vectors' dot product, not two shapes
        self.n_claims += 1
        self.n_numbers += 1
        a, b = sp.left, sp.right
        step = p.step_hint or "scores"
        ref = lb.parse_label(p.label) if p.label else None
        if ref is not None and ref.nodes[0] in STEP:
            step = self.step_of(ref.nodes[0])
        known: list[tuple[str, list[int], list[int]]] = []
        if self.t is not None:
            c = self.t.config
            known = [("scores", [c.T, c.d_k], [c.d_k, c.S]), ("weighted_sum", [c.T, c.S], [c.S, c.d_v]),
                     ("output", [c.T, c.n_heads * c.d_v], [c.n_heads * c.d_v, c.d_out])]
            if c.d_model is not None:
                known.append(("projection", [c.T, c.d_model], [c.d_model, c.n_heads * c.d_k]))
                known.append(("projection", [c.T, c.d_model], [c.d_model, c.d_k]))
            if c.B > 1 or getattr(self, "stated_B", None):
                B = c.B if c.B > 1 else self.stated_B
                known += [(st, [B] + x, [B] + y) for st, x, y in known]
                known += [(st, [B, c.n_heads] + x, [B, c.n_heads] + y) for st, x, y in known if len(x) == 2]
        unknown = self.unknown_sizes()
        known = [k for k in known if not ({"scores": "d_k", "projection": "d_k", "weighted_sum": "d_v",
                                           "output": "d_v"}.get(k[0]) in unknown)]
        best = self.inf.best
        if best is not None and any("(assumed)" in getattr(best.cand.dims.get(w), "label", "")
                                    for w in ("W_Q", "W_K", "W_V")):
            # `inputs @ W_key  # (6,3) @ (3,2)` where W = I is assumed, not printed: the projection's width is the
            # page's (torch.rand(d_in, d_out)), not the identity's
            known = [k for k in known if k[0] != "projection"]
        match = [st for st, x, y in known if (x, y) == (a, b)]
        if match:
            step = match[0]
        elif ref is None and p.step_hint is None:
            near = [st for st, x, y in known if x == a or y == b]
            step = near[0] if near else step
        if len(a) >= 2 and len(b) >= 2 and a[-1] != b[-2]:
            self.add(Finding(p.place.line, p.place.cell, sp.text, f"{a} × {b}", None, None, step,
                             "wrong shape: the inner sizes differ", "wrong_shape"))
            return
        want_result = a[:-1] + b[-1:] if len(a) >= 2 and len(b) >= 2 else None
        if sp.result is not None and want_result is not None and sp.result != want_result:
            self.add(Finding(p.place.line, p.place.cell, sp.text, str(sp.result), str(want_result), None, step,
                             f"wrong shape: {a} × {b} gives {want_result}", "wrong_shape"))
            return
        if match or not known or ref is None or (not self.in_scope(p.place) and (
                not set(a + b) <= self.example_sizes() or self.section_of(p.place) in self.foreign_sections)):
            return
        want = next(((x, y) for st, x, y in known if st == step and len(x) == len(a)), None)
        if want is not None and (a, b) != want:
            self.add(Finding(p.place.line, p.place.cell, sp.text, f"{a} × {b}", f"{want[0]} × {want[1]}", None,
                             step, "wrong shape", "wrong_shape"))

    def unknown_sizes(self) -> set[str]:
        """The sizes a start after X leaves unknown: after printed scores nothing was projected (d_k, H), and
        without printed values, or with one number per key, there is no d_v (infer/starts.py)."""
        hidden = getattr(self.t, "hidden", frozenset())
        best = getattr(getattr(self, "inf", None), "best", None)
        # (V read as one number per key gives d_v = 1 by construction, no size the page states)
        scalar_v = best is not None and "one value per key" in best.cand.dims["mode"].label
        return ({"d_k", "H", "G", "d_model"} if "Q" in hidden else set()) | \
            ({"d_v"} if "V" in hidden or scalar_v else set())

    def in_span(self, place: Place) -> bool:
        """A size or shape stated where the inferred example is (from its first given to its last matched object).
        Only a start after X has a span (infer/starts.py): its givens are vectors and matrices anywhere in the
        text, and a size stated pages away is about another example."""
        span = getattr(self, "span", None)
        if span is None:
            return True
        key = (place.cell or 0, place.line)
        return span[0] <= key <= span[1]

    def in_section(self, place: Place, o=None) -> bool:
        """In the example's span, or, for a result (not an input the configuration may have assumed: V = K), after
        its last matched object with no heading between (the output printed after the weights it is worked from,
        still in the example's section)."""
        if self.in_span(place):
            return True
        if o is None or not o.refs or any(set(r.nodes) & {"X", "Q", "K", "V", "W_Q", "W_K", "W_V", "W_O"}
                                           for r in o.refs):
            return False
        return self.after_span(place)

    def after_span(self, place: Place) -> bool:
        """After the example's last matched object with no heading between: still its section."""
        span = self.span
        key = (place.cell or 0, place.line)
        return key > span[1] and not any(span[1] < (h.cell or 0, h.line) <= key for h in self.doc.headings)

    def sections_before(self, place: Place) -> bool:
        """Printed before the first given of a start after X, with a heading between them: in a section of its own
        that comes before the example (`Scores = [1, 2, 3]` to show why one scales, two sections before the
        vectors the example starts from), whatever of it agrees by chance."""
        span = getattr(self, "span", None)
        key = (place.cell or 0, place.line)
        return span is not None and key < span[0] and any(key < (h.cell or 0, h.line) <= span[0]
                                                          for h in self.doc.headings)

    def far_after(self, place: Place) -> bool:
        """Printed long after the example (more than 100 lines and twice its length), two headings or more between:
        a later section's numbers (a residual sum in an exercise on ResNets, 900 lines on), whatever of it agrees."""
        span = getattr(self, "span", None)
        if span is None or place.cell is not None or span[0][0] or span[1][0]:
            return False
        gap = place.line - span[1][1]
        heads = sum(span[1][1] < h.line <= place.line for h in self.doc.headings if h.cell is None)
        return gap > max(100, 2 * (span[1][1] - span[0][1])) and heads >= 2

    def _swapped_pair(self, s: SizeClaim, c) -> bool:
        """The same line states the other size swapped too ("T = 3, d = 4" of an X read as 4×3): one swapped size
        alone ("T = 4" where T is 3 and d is 4) is a slip, not a convention."""
        other = (r"\bd(?:_?model)?\s*=\s*", c.T) if s.symbol == "T" else (r"\bT\s*=\s*", c.d_model)
        for ch in self.doc.chains:
            if (ch.place.cell, ch.place.line) == (s.place.cell, s.place.line):
                m = re.search(other[0] + r"(\d+)\b", ch.text)
                if m and int(m.group(1)) == other[1]:
                    return True
        return False

    def _with_layers(self, s: SizeClaim) -> bool:
        """"With h = 8 heads and N = 6 stacked blocks": a count of layers on the same line says the sizes are a
        whole model's (the paper's, production's), not the worked example's."""
        return any((ch.place.cell, ch.place.line) == (s.place.cell, s.place.line) and
                   re.match(r"\s*(?:N|L|n_?layers|num_?layers|layers|blocks)\s*=\s*\d+", ch.text)
                   for ch in self.doc.chains)

    def _stated_elsewhere(self, s: SizeClaim, want: int) -> bool:
        """Another size statement of the same symbol gives the configuration's value ("h = 2" before "h = 3")."""
        for ch in self.doc.chains:
            if (ch.place.cell, ch.place.line) == (s.place.cell, s.place.line):
                continue
            label = next((p.text for p in ch.parts if type(p).__name__ == "LabelPart"), None)
            if label is None or _size_key(label) != s.symbol:
                continue
            m = re.search(r"=\s*(\d+)\b", ch.text)
            if m and int(m.group(1)) == want:
                return True
        return False

    def judge_size(self, s: SizeClaim) -> None:
        if self.t is None:
            return
        c = self.t.config
        sizes = {"B": c.B, "T": c.T, "S": c.S, "d_model": c.d_model, "H": c.n_heads, "d_k": c.d_k,
                 "d_v": c.d_v, "G": c.G}
        want = sizes.get(s.symbol)
        if want is None or s.symbol in self.unknown_sizes() or not self.in_span(s.place):
            return
        if any(re.sub(r"[\s$]", "", t or "") == s.symbol and o.n >= 2 for o in self.objs for t in [o.a.label, *o.a.labels]):
            return       # "column 3 of $S=2$" where S names a printed matrix (the scores): an entry, not a size
        if any((a.place.cell, a.line) == (s.place.cell, s.place.line) and 1 in (a.n_rows, a.n_cols) and
               a.n_rows * a.n_cols == s.value.value for a in self.doc.arrays):
            return       # "x_cat = [1, 2, 3, 4] (dimension d = 4)": the length of the vector beside it
        if s.symbol == "B" and c.B == 1 and s.value.value > 1:
            self.not_checked.append(NotChecked(s.place.line, s.place.cell, s.text,
                                               "the document shows one sequence of its batch"))
            return
        if s.value.contains(float(want)) or (s.symbol == "d_model" and re.fullmatch(r"\s*d\s*", s.text.split("=")[0])
                                             and any(s.value.contains(float(x)) for x in (c.d_k, c.d_v) if x)):
            # a bare d is the model's width in some texts and the head's in others ("projected to d = 2")
            self.n_claims += 1
            self.n_numbers += 1
        elif s.symbol in ("T", "d_model") and c.T is not None and c.d_model is not None and c.T != c.d_model and \
                s.value.contains(float(c.d_model if s.symbol == "T" else c.T)) and self._swapped_pair(s, c):
            # T = 3 and d = 4 said of an X read as 4×3: the document writes tokens as columns (X ∈ ℝ^{d×T},
            # q_i = W_Q x_i), which the configuration did not read; its sizes are not judged against the rows
            self.not_checked.append(NotChecked(s.place.line, s.place.cell, s.text, "T and d are swapped against the "
                                               "inferred X: the document may write tokens as columns (X is d×T)"))
        elif s.symbol in ("H", "d_k", "d_v") and (not self._stated_elsewhere(s, want) or self._with_layers(s)):
            # "h = 2" where the configuration has one head (or "with h = 8 heads and N = 6 blocks" beside a toy of
            # two): the head count of a part the configuration did not read, or of another model; a slip in it is
            # found when the document states the configuration's count too
            self.not_checked.append(NotChecked(s.place.line, s.place.cell, s.text,
                                               f"{s.symbol} is {want} in the inferred configuration, which no statement "
                                               "of the document gives: another example's or another model's size?"))
        elif s.symbol in ("d_k", "d_v", "H") and _other_width(s.text, c.d_model):
            self.not_checked.append(NotChecked(s.place.line, s.place.cell, s.text,
                                               f"worked from a width of {_other_width(s.text, c.d_model)}, not this "
                                               f"example's d_model = {c.d_model}: another model's size"))
        elif s.place.where in ("code", "output", "comment") and self.before_the_example(s.place):
            # "d_k=4" under each half of an 8-wide query drawn in an earlier section: that drawing's own size, stated
            # before the example's inputs are given (that 4 is also the example's d_model identifies nothing)
            self.not_checked.append(NotChecked(s.place.line, s.place.cell, s.text, "stated in a section before the "
                                               "one that gives the example's inputs: another illustration's size?"))
        elif not self.outside(s.place, s.text[:60], [int(s.value.value)] if s.value.exact and math.isfinite(s.value.value) else None):
            self.n_claims += 1
            self.n_numbers += 1
            self.add(Finding(s.place.line, s.place.cell, s.text, s.value.text, float(want), str(want), "config",
                             f"wrong size: {s.symbol} is {want}", "wrong_value"))


def _other_width(text: str, d_model: int | None) -> int | None:
    """`d_k = 8/8 = 1` where the example's d_model is 4: a head size worked, correctly, from another model's width
    (an exercise's "with n_heads = 8"); the width it divides, or None when the line is no such division."""
    m = re.search(r"=\s*\$?\s*(\d+)\s*(?:/|÷|\\div)\s*(\d+)\s*\$?\s*=\s*\$?\s*(\d+)\b", text)
    if m is None or d_model is None:
        return None
    a, b, v = (int(g) for g in m.groups())
    return a if b and a == b * v and a != d_model else None
