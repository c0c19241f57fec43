"""Judging what a document claims, as a careful reader would, against the inferred configuration.

Each kind of claim is a type in its own module under claims/ (`ArrayClaim`, `ArithClaim`, `VectorArithClaim`,
`ShapeClaim`, `ProductShapeClaim`, `SizeClaim`, `ReadingClaim`) with its judging as a mixin of `Judge`; here the
claims are collected and dispatched by one `match` in `Judge.judge`, and the findings gathered (`Judge.add`).

* A printed number is right when the exact value rounds to it at its own precision, widened by
  what the rounding of printed inputs can move it (model.bands).
* A value that follows from the rounded values printed before it (A printed to 4 decimals, then
  O computed from that A) is accepted with a note, not a finding.
* An arithmetic line is checked against its own printed terms (interval arithmetic) and, when it
  computes an entry of the trace, against the exact value.
* A finding needs evidence: a label, a majority of matching cells, or an arithmetic line whose
  terms disagree.  What cannot be attributed is reported as not checked, with its nearest match.
"""

from __future__ import annotations

import re
from typing import Any

import numpy as np

from ..inputs import MHAInputError
from . import labels as lb
from . import labelwords as lw
from . import numbers as nb
from .claims import (ArithClaim, ArrayClaim, Claim, ProductShapeClaim, ReadingClaim, ShapeClaim, SizeClaim,
                     VectorArithClaim)
from .claims.arith import ArithJudging
from .claims.array import ArrayJudging
from .claims.paramtable import judge_param_tables
from .claims.rates import rated_times
from .claims.sizeunits import glued_sizes
from .claims.elided import ElidedJudging
from .claims.attribute import Attribution
from .claims.backward import BackwardCauses
from .claims.causes import Causes
from .claims.common import printed_unit
from .claims.identity import Identity
from .claims.unscaled import UnscaledJudging
from .claims.maskfill import MaskFills
from .claims.rebind import Rebinding
from .claims.scope import Scopes
from .claims.closed import ClosedClaim, ClosedJudging, closed_claim
from .claims.reading import ReadingJudging
from .claims.concatheads import ConcatClaim, ConcatJudging, concat_claims
from .claims.repeated import RepeatedClaim, RepeatedJudging, repeated_claims
from .claims.rounding import Rounding, ScalarWeights
from .claims.shape import ShapeJudging, _size_key
from .claims.shapewords import split_labels
from .claims.applied import AppliedSoftmaxClaim, AppliedSoftmaxJudging, applied_softmax
from .claims.linesum import ColumnSumClaim, LineSumClaim, LineSumJudging, column_sums, line_sums
from .claims.dropout import DropoutClaim, DropoutJudging, dropout_pairs
from .claims.dropzero import DropZeroClaim, DropZeroJudging, drop_zero_claims
from .claims.stale import StaleJudging
from .claims.truncation import CUT_OFF as _CUT_OFF, truncates, widen
from .claims.termwise import TermwiseClaim, TermwiseJudging, termwise_claims
from .claims.shares import SharesClaim, SharesJudging, share_claims
from .claims.exps import ExpsClaim, ExpsJudging, exps_claims
from .claims.printchain import PrintChainClaim, PrintChainJudging, print_chains
from .claims.rescaled import RescaledClaim, RescaledJudging, rescaled_pairs
from .claims.product import WrittenDotClaim, WrittenProductClaim, WrittenProductJudging, written_products
from .claims.nameddot import NamedDotClaim, NamedDotJudging, named_dots
from .claims.namedproduct import NamedProductClaim, NamedProductJudging, labelled_products, named_products
from .claims.rowproduct import RowProductClaim, RowProductJudging, row_products
from .claims.cellwise import CellwiseClaim, CellwiseJudging, cellwise_claims
from .claims.formula import FormulaClaim, FormulaJudging, formula_claims
from .claims.printedsum import PrintedSumClaim, PrintedSumJudging, printed_sum_claims
from .claims.restated import RestatedClaim, RestatedJudging, restated_claims
from .claims.gathered import GatheredClaim, GatheredJudging, gathered_claims
from .claims.renorm import renorm_ids
from .claims.modshape import ModuleShapeClaim, ModuleShapeJudging, module_shape_claims
from .claims.softmax import SoftmaxJudging, SoftmaxPairClaim, softmax_pairs
from .claims.softmax_more import more_softmax_pairs
from .claims.target import Targets
from .claims.vector import VectorJudging, named_vector_sum, restated_argument, worked_arguments
from .claims.weighted import WeightedJudging
from .infer import QUERY_SIDE, Hit, Inference, alignments
from .infer.prepare import other_layer
from .model import Views, bands, compute, half_units, input_radius
from .objects import ArrayPart, Chain, Document, ExprPart, LabelPart, Place, ShapePart, ShapeProduct
from .report import Finding, NotChecked

STEP = lb.STEP


_ALTERNATIVE_SHAPES = re.compile(r"\d\s*[x×]\s*\d+\s*(?:or|或者?|oder|ou|o|или|hoặc|또는|または|/)\s*\d+\s*[x×]\s*\d",
                                 re.I)


class Judge(UnscaledJudging,          # first: an object named unscaled is tried before it is left unchecked
            ArrayJudging, ElidedJudging, ArithJudging, VectorJudging, WeightedJudging, ShapeJudging, ReadingJudging,
            SoftmaxJudging, ClosedJudging,
            PrintChainJudging, AppliedSoftmaxJudging, RescaledJudging, LineSumJudging, Attribution, Targets, Rounding, ScalarWeights,
            Causes,
            BackwardCauses, Identity, Scopes, RepeatedJudging, ConcatJudging, WrittenProductJudging,
            NamedProductJudging,
            NamedDotJudging,
            RowProductJudging, CellwiseJudging,
            FormulaJudging, RestatedJudging, GatheredJudging, ModuleShapeJudging, DropoutJudging, TermwiseJudging,
            SharesJudging, ExpsJudging, DropZeroJudging, StaleJudging, Rebinding, MaskFills, PrintedSumJudging):
    """Judges every claim of a document against the inferred (or given) configuration's trace."""

    def __init__(self, doc: Document, inf: Inference, mapping: dict[str, Any] | None, given: bool):
        self.doc = doc
        self.inf = inf
        self.objs = inf.objs
        self.findings: list[Finding] = []
        self.product_factors: list = []     # (finding key, the printed factors it was worked from)
        self.not_checked: list[NotChecked] = []
        self.doubted: list[int] = []         # objects that most of their own cells do not identify
        self.n_claims = 0
        self.n_numbers = 0
        self.mapping = mapping
        self.mapping_given = given
        self.t = compute(mapping) if mapping is not None else None
        if given and self.t is None:
            raise MHAInputError("--input: the configuration could not be computed")
        self.vs = Views.of(self.t) if self.t is not None else None
        self.uses = frozenset() if given or inf.best is None else inf.best.cand.uses
        if self.vs is not None:
            self._rebase()
            self._rows_of_inputs()
        if self.vs is not None and not given:
            self._bands()
        self._alt: dict[str, Views | None] = {}
        self.printed_at: dict[tuple, list[tuple[tuple, np.ndarray]]] = {}
        self.attributed: dict[int, Hit] = {}
        self._trace_values: list[float] | None = None

    def _rebase(self) -> None:
        """Count rows and heads from 0 or from 1, whichever makes more labelled objects land on their row."""
        from dataclasses import replace as _replace
        # the configuration says how a decoding step numbers its query rows and how GQA numbers its K/V heads
        self.inf.bases = self.inf.bases.with_config(self.t.config)
        for o in self.objs:
            o.refs = [self.inf.bases.resolve(r) for r in o.refs]
            o.ref = o.refs[0] if o.refs else None
        # "A1", "A2" in a one-head document are rows, not heads
        H = self.t.config.n_heads
        over = {r.nodes[0] for o in self.objs for r in o.refs
                if r.raw_head is not None and r.raw_row is None and r.raw_head - self.inf.bases.head >= H
                and not r.nodes[0].startswith("W_")}
        # (a page that counts them from 0, "Head 0", "Head 1", counts the rows they become from 0 as well)
        shift = {n: self.inf.bases.row if any(r.nodes[0] == n and r.raw_head == 0 and r.raw_row is None
                                               for o in self.objs for r in o.refs) else 0 for n in over}
        for o in self.objs:
            o.refs = [self.inf.bases.resolve(_replace(r, raw_row=r.raw_head + shift[r.nodes[0]], raw_head=None))
                      if r.nodes[0] in over and r.raw_head is not None and r.raw_row is None else r for r in o.refs]
            o.ref = o.refs[0] if o.refs else None
        # one query (q_3 = [1, 0] against three keys): its subscript is the token's place in the sentence, and z_3
        # or a_3 are that query's output and weights, not a row past the only one
        T_q = max((v.M.shape[0] for v in self.vs.views if v.node in QUERY_SIDE), default=0)
        if T_q == 1:
            for o in self.objs:
                o.refs = [_replace(r, raw_row=None, row=None) if r.raw_row is not None and set(r.nodes) <= QUERY_SIDE
                          and r.raw_row - self.inf.bases.row >= 1 and r.raw_col is None else r for r in o.refs]
                o.ref = o.refs[0] if o.refs else None
        # names like w_123 in code are names, not rows: drop an index no row or head has
        T = max((v.M.shape[0] for v in self.vs.views), default=0)
        for o in self.objs:
            keep = [r for r in o.refs if not ((r.raw_row is not None and r.raw_row - self.inf.bases.row >= T) or
                                              (r.raw_head is not None and r.raw_head - self.inf.bases.head >= max(H, 1)
                                               and r.nodes[0].startswith("W_") is False and r.raw_row is None))]
            if len(keep) != len(o.refs):
                o.refs = keep
                o.ref = keep[0] if keep else None
        best = None
        now = (self.inf.bases.head, self.inf.bases.row)
        # the document's own numbering (prepare: a label with a 0) first, so that a tie keeps it
        for hb, rb in [now] + [x for x in ((1, 1), (1, 0), (0, 1), (0, 0)) if x != now]:
            bases = _replace(self.inf.bases, head=hb, row=rb)
            score = 0
            for o in self.objs:
                if o.val is None or not o.refs:
                    continue
                raw = [r for r in o.refs if r.raw_row is not None or r.raw_head is not None]
                if not raw:
                    continue
                trial = _replace(o, refs=[bases.resolve(r) for r in o.refs])
                if any(h.all and self.ref_ok(trial, h) for h in alignments(trial, self.vs)):
                    score += 1
            if best is None or score > best[0]:
                best = (score, bases)
        if best is None or best[1] == self.inf.bases:
            return
        bases = best[1]
        self.inf.bases = bases
        for o in self.objs:
            o.refs = [bases.resolve(r) for r in o.refs]
            o.ref = o.refs[0] if o.refs else None

    def _rows_of_inputs(self) -> None:
        """"[1,1] · Wk = [...]": the row of K whose input row is the printed [1,1]."""
        from dataclasses import replace as _replace
        cfg = self.t.config
        if cfg.X is None:
            return
        X = np.asarray(cfg.X[0], dtype=float)
        for o in self.objs:
            new = []
            for r in o.refs:
                if r.of is not None and r.row is None and len(r.of) == X.shape[1]:
                    hits = [i for i in range(X.shape[0]) if np.allclose(X[i], r.of, atol=1e-6)]
                    if len(hits) == 1:
                        r = _replace(r, row=hits[0], raw_row=hits[0] + self.inf.bases.row + self.inf.bases.query)
                new.append(r)
            o.refs = new
            o.ref = new[0] if new else None

    def _bands(self) -> None:
        radii = {}
        by_id = {o.a.id: o for o in self.objs}
        best = self.inf.best
        for key, choice in best.cand.dims.items():
            if key in ("Q", "K", "V") and choice.radius is not None:
                radii[key] = choice.radius          # a given input assembled from its printed rows (infer/starts)
                continue
            if key == "backward" and choice.uses and isinstance(choice.value, dict):
                key = "backward." + next(iter(choice.value))     # a printed dY or target is rounded like X
            elif key not in ("X", "W_Q", "W_K", "W_V", "W_O", "Q", "K", "V", "b_Q", "b_K", "b_V") or not choice.uses:
                continue
            if key in ("Q", "K", "V"):
                ids = sorted(best.cand.dims["mode"].uses)
                src = [by_id[i] for i in ids if i in by_id and lb_is(by_id[i], key)]
            else:
                src = [by_id[i] for i in sorted(choice.uses) if i in by_id]
            arr = np.asarray(self.mapping["backward"][key[9:]] if key.startswith("backward.")
                             else self.mapping.get(key))
            r = input_radius(src, key, arr, self.doc.arrays)
            if r is not None:
                radii[key] = r
        cache = best.cand.dims.get("cache")
        if cache is not None and cache.value is not None and isinstance(self.mapping.get("cache"), dict):
            # a printed cache (K_cache, V_cache of each K/V head) is rounded like any other input
            for name, node in (("K", "Kc"), ("V", "Vc")):
                src = sorted((by_id[i] for i in cache.uses if i in by_id and by_id[i].ref is not None
                              and by_id[i].ref.nodes[0] == node), key=lambda o: o.ref.head or 0)
                rs = [half_units(o.a.rows) for o in src]
                arr = np.asarray(self.mapping["cache"][name])
                if rs and all(r is not None for r in rs) and np.stack(rs).shape == arr.shape:
                    radii["cache." + name] = np.stack(rs)
        if radii:
            bands(self.mapping, radii, self.vs)

    # ---------------------------------------------------------- claims
    def claims(self) -> list[Claim]:
        out: list[Claim] = []
        # judged against their own scores, not the trace
        pairs = softmax_pairs(self.objs, self.doc.softmax_said, [h for h in self.doc.hints if h.kind == "define"])
        self.told_pairs = [c for c in pairs if c.told]              # ... these only where nothing else judges them
        pairs = [c for c in pairs if not c.told]
        pairs += more_softmax_pairs(self.objs, {c.y.a.id for c in pairs} | {c.x.a.id for c in pairs},
                                    self.doc.softmax_said)
        applied = applied_softmax(self.objs)        # softmax([...]) = [...]: against its own written argument
        paired = {c.y.a.id for c in pairs} | {c.y.a.id for c in applied}
        self.paired_ys = paired         # (judged on their own; their values still feed rounded predecessors)
        out.extend(pairs)
        renormed = renorm_ids(self.objs)            # y = m / m.sum(-1): its code says what it is (claims/renorm.py)
        rescaled = rescaled_pairs(self.objs, self.doc.hints, paired, self.doc.lines)     # the scores again, scaled as the text says
        self.rescaled = {c.y.a.id: c for c in rescaled}
        self.worked, self.worked_members = worked_arguments(self.doc.chains)     # softmax([30/√512, …]) = softmax([..])
        out.extend(rescaled)
        renormed |= {c.y.a.id for c in rescaled}
        summed = printed_sum_claims(self.objs, self.doc.hints)    # print(w.sum(dim=-1)) under print(w)
        out.extend(summed)
        renormed |= {c.y.a.id for c in summed}
        for o in self.objs:
            if o.a.id not in self.uses and o.a.id not in paired and o.a.id not in renormed:
                out.append(ArrayClaim(o))
        out.extend(termwise_claims(self.doc.chains))  # a sum written out term by term, before the sums it feeds
        columns = column_sums(self.doc.chains, self.doc.arrays)   # "sum = 1.41" under the lines it adds
        totals = {id(x.chain) for x in columns}
        out.extend(columns)
        for c in self.doc.chains:
            out.extend(x for x in self.chain_claims(c) if not (isinstance(x, ArithClaim) and id(c) in totals))
            out.extend(written_products(c))   # [..] × [..] = [..]: against its own printed factors
            out.extend(cellwise_claims(c))    # [[a·b + c·d, ...]] = [[0.40, ...]]: cell by cell (cellwise.py)
            out.extend(named_products(c, self.doc))   # Q = X W_Q = [..]: against the arrays its names were bound to
            out.extend(named_dots(c, self.doc))       # s_t · h_3 = 0.11: against the vectors its names were bound to
        # Q · K^T = ┌ .. ┐ drawn with its factors drawn above: the same claim from the label
        out.extend(labelled_products(self.doc, {x.result.id for x in out if isinstance(x, NamedProductClaim)}))
        for r in self.doc.readings:
            out.append(ReadingClaim(r))
        out.extend(repeated_claims(self.objs))     # a printout printed again (claims/repeated.py)
        out.extend(concat_claims(self.objs))       # Concat under the printed heads (claims/concatheads.py)
        chained = print_chains(self.objs, paired, self.doc.chains, self.doc.hints)
        out.extend(chained)                           # against the printout just before, after the rest
        # a later cell's formula over an earlier printout (claims/formula.py)
        out.extend(formula_claims(self.objs, self.doc.hints, paired | {c.y.a.id for c in chained}))
        out.extend(applied)
        out.extend(line_sums(self.doc.chains))        # "the three add up to 8.20": against the results before it
        out.extend(restated_claims(self.doc.chains, self.doc.headings, self.doc.hints))   # a worked number quoted again
        out.extend(module_shape_claims(self.doc.hints))   # torch.Size of nn.MultiheadAttention's output (modshape.py)
        out.extend(dropout_pairs(self.doc))           # a printout and its copy after dropout (claims/dropout.py)
        out.extend(drop_zero_claims(self.doc))        # dropout(w) printed: w's zeros stay zero (claims/dropzero.py)
        out.extend(share_claims(self.doc))            # Z = a + b + c, then a/Z, b/Z, c/Z in words (claims/shares.py)
        out.extend(exps_claims(self.doc))             # scores, then their exponentials listed (claims/exps.py)
        out.extend(gathered_claims(self.doc.chains, self.doc.arrays))   # worked lines, then listed (gathered.py)
        out.extend(row_products(self.doc))            # q = [0, 1] × W_Q = [1, 0] (claims/rowproduct.py)
        return out

    def chain_claims(self, c: Chain) -> list[Claim]:
        out: list[Claim] = closed_claim(c)
        if out and not out[0].mixed:
            return out                       # stated exactly: closed forms and long decimals (claims/closed.py)
        parts = c.parts
        labels = [p for p in parts if isinstance(p, LabelPart)]
        exprs = [p for p in parts if isinstance(p, ExprPart)]
        # sizes: T = 3, d_h = 2, d = H·d_h = 2 × 2 = 4
        if labels and exprs:
            key = _size_key(labels[0].text)
            if key == "H" and lw.h_is_head_size(" ".join(x.text for x in self.doc.chains
                                                            if (x.place.cell, x.place.line) == (c.place.cell, c.place.line))):
                key = "d_k"                  # "T = 4, C = 6, H = 3": H is a head's size in that notation
            last = nb.plain_number(exprs[-1].expr)
            if key and last is not None and parts.index(labels[0]) == 0 and last.decimals is None:
                out.append(SizeClaim(key, last, c.place, c.text))
        # shapes: Q, K ∈ ℝ^{3×4} (not of cross-attention, whose queries come from another sequence: unmodelled)
        # (nor of a layer other than attention: the feed-forward network's `W₁[3×6]`, under its own heading)
        # (nor sizes offered as alternatives: "try a 2x2 or 3x3 input", "用 2x2 或 3x3 的小输入")
        cross = bool(lw.CROSS_ATTENTION.search(c.text) or lw.CROSS_ATTENTION.search(c.context.heading)) or \
            bool(_ALTERNATIVE_SHAPES.search(c.text)) or \
            other_layer(c.context.heading or "")
        for k, p in enumerate(parts):
            if isinstance(p, ShapePart) and not cross:
                left = [q for q in parts[:k] if isinstance(q, LabelPart)]
                if left and _SHAPES_MULTIPLIED.search(left[-1].text):
                    continue     # "out = w @ V  (3,3) × (3,2) = (3,2)": the shape of the product, not of w
                # `V = X W_V ∈ ℝ^{6×3}`: equal names, the shape is the chain's subject's (the first), not the last
                # factor's; a misread product must not make it W_V's
                subject = left[0] if len(left) >= 2 and all(r == "=" for r in c.rels[:k - 1]) and \
                    lb.parse_label(left[0].text) is not None else left[-1] if left else None
                for lab in (split_labels(subject.text) if subject is not None else []):
                    for piece in [lab]:
                        ref = lb.parse_label(piece)
                        if ref is not None:
                            place = Place(p.line or c.place.line, c.place.cell, c.place.where)
                            out.append(ShapeClaim(ref, piece, p.dims, place, c.text))
            if isinstance(p, ShapeProduct) and not _dot_of_values(p, parts[k + 1:k + 2]):
                label = next((q.text for q in reversed(parts[:k]) if isinstance(q, LabelPart)), "")
                out.append(ProductShapeClaim(p, label, c.place, c.context.step))
        # a vector of sums and the vector it gives
        for k in range(len(parts) - 1):
            a, b = parts[k], parts[k + 1]
            if isinstance(b, ArrayPart) and (b.array.is_vector or _column_of_terms(a, b)) and (
                    (isinstance(a, ExprPart) and nb.face_vector(a.expr) is not None) or
                    (isinstance(a, ArrayPart) and a.array.is_vector and any(
                        re.search(r"[-+*/×·]", n.text.lstrip("-+")) for n in a.array.numbers))):
                out.append(VectorArithClaim(c, k))
            elif isinstance(b, ArrayPart) and b.array.is_vector and isinstance(a, ExprPart) and nb.has_symbols(a.expr):
                sub = named_vector_sum(a.expr, c, self.doc.arrays, b.array.n_cols)    # 0.731·v1 + 0.269·v2 = [..]
                if sub is not None:
                    out.append(VectorArithClaim(c, k, sub))
            elif restated_argument(parts, k):
                out.append(VectorArithClaim(c, k, to=k + 2))     # softmax([30/√512, …]) = softmax([1.33, …])
        # arithmetic: at least one expression that is more than a number, or a label = number
        if len(exprs) >= 2 or (exprs and labels and not any(isinstance(x, (ShapePart, ShapeProduct))
                                                             for x in parts)):
            if not (out and isinstance(out[0], SizeClaim) and len(exprs) == 1) and not _shapes_mapped(c):
                out.append(ArithClaim(c))
        elif not exprs and (glued_sizes(parts) or rated_times(parts)):
            out.append(ArithClaim(c))    # `536MB × 32 = 17GB`, `140 GB / 3.35 TB/s ≈ 42 ms`: read as words
        return out

    # ---------------------------------------------------------- driver
    def run(self) -> None:
        claims = _without_indices(self.claims())
        # a batch of which the document shows one sequence: "B = 2", then only sequence 1
        self.stated_B = max((int(c.value.value) for c in claims if isinstance(c, SizeClaim) and c.symbol == "B"),
                            default=None)
        arrays = [c for c in claims if isinstance(c, ArrayClaim)]
        # first every array finds what it stands for; the printed values then feed "rounded predecessors"
        plans = {c.obj.a.id: self.attribute(c.obj) for c in arrays}
        if truncates(self.objs, plans):                # 0.211 for 0.21194, throughout (claims/truncation.py)
            widen(self.objs)
            if _CUT_OFF not in self.inf.evidence:
                self.inf.evidence.append(_CUT_OFF)
            plans = {c.obj.a.id: self.attribute(c.obj) for c in arrays}
        self.plans = plans
        self.span = self.example_span(plans)
        self.mark_scopes(plans)
        self.establish(plans)
        self.mark_stale(plans)
        self.by_trace: list[Finding] = []
        self.judge_repairs()
        self.by_trace.extend(self.findings)
        self.collect_printed(plans)
        sizes: list[list[Finding]] = []              # per shape or size claim, the findings it gave
        for c in claims:
            before = len(self.findings)
            self.judge(c, plans)
            if isinstance(c, (ShapeClaim, ProductShapeClaim, SizeClaim)):
                sizes.append(self.findings[before:])
        self._doubt_sizes(sizes)
        self.by_size = [f for fs in sizes for f in fs]
        self._told_pairs(plans)
        self._other_head_counts([c for c in claims if isinstance(c, SizeClaim)])
        self._beside_other_sizes([c for c in claims if isinstance(c, SizeClaim)])
        judge_param_tables(self, self.doc)           # `| W_Q | (8192, 8192) | 67 108 864 |`

    def _told_pairs(self, plans: dict[int, Any]) -> None:
        """Weights a line between calls the softmax of the scores above them (`raw_scores = [...]`, `# after the
        softmax:`, `weights = [...]`), judged as that pair where the configuration left them unjudged (another
        example's, or made up)."""
        for c in getattr(self, "told_pairs", []):
            y = c.y.a
            lines = {y.line} | {n.line for n in y.numbers if n.line}
            if plans.get(y.id, {}).get("kind") == "holds" or \
                    any(f.cell == y.place.cell and f.line in lines for f in self.findings):
                continue
            self.not_checked = [n for n in self.not_checked if not (n.cell == y.place.cell and n.line in lines)]
            self.judge(c, plans)

    def example_span(self, plans: dict[int, Any]) -> tuple[tuple[int, int], tuple[int, int]] | None:
        """(first, last) (cell, line) of the example a start after X describes: its givens and what matched."""
        best = self.inf.best
        if best is None or best.cand.dims["mode"].value == "X":
            return None
        # restating an input (or W_O = I matched by an identity matrix printed as K) spans nothing
        given = {"X", "Q", "K", "V", "Qh", "Kh", "Vh", "W_Q", "W_K", "W_V", "W_O"}
        ids = set(self.uses) | {i for i, p in plans.items() if p["kind"] == "holds" and p.get("hit") is not None
                                and p["hit"].view is not None and p["hit"].view.node not in given}
        keys = [(o.a.place.cell or 0, o.a.line) for o in self.objs if o.a.id in ids]
        return (min(keys), max(keys)) if keys else None

    def judge(self, claim: Claim, plans: dict[int, Any]) -> None:
        match claim:
            case ArrayClaim(obj):
                before = len(self.findings)
                self.judge_array(obj, plans[obj.a.id])
                self.by_trace.extend(self.findings[before:])     # judged against the trace, not its own terms
            case ArithClaim(chain):
                if self.closed_slip(chain):
                    self.n_claims += 1           # its closed form is wrong: one slip, one finding (claims/closed.py)
                else:
                    before = len(self.findings)
                    self.judge_arith(chain)
                    # a result against the trace's entry (not against its own written terms) rests on the guess
                    self.by_trace.extend(f for f in self.findings[before:] if not (f.cause or "").startswith(
                        "arithmetic slip"))
            case ShapeClaim():
                self.judge_shape(claim)
            case ProductShapeClaim():
                self.judge_product(claim)
            case SizeClaim():
                self.judge_size(claim)
            case ReadingClaim(reading):
                self.judge_reading(reading)
            case VectorArithClaim(chain, k, expr, to):
                self.judge_vector_arith(chain, k, plans, expr, to)
            case SoftmaxPairClaim():
                self.judge_softmax_pair(claim)
            case PrintChainClaim():
                self.judge_print_chain(claim)
            case AppliedSoftmaxClaim():
                self.judge_applied_softmax(claim)
            case RescaledClaim():
                self.judge_rescaled(claim)
            case LineSumClaim():
                self.judge_line_sum(claim)
            case ColumnSumClaim():
                self.judge_column_sum(claim)
            case ClosedClaim():
                self.judge_closed(claim)
            case ConcatClaim():
                self.judge_concat(claim)
            case RepeatedClaim():
                self.judge_repeated(claim)
            case WrittenProductClaim():
                self.judge_written_product(claim)
            case CellwiseClaim():
                self.judge_cellwise(claim)
            case RowProductClaim():
                self.judge_row_product(claim)
            case NamedProductClaim():
                self.judge_named_product(claim)
            case NamedDotClaim():
                self.judge_named_dot(claim)
            case WrittenDotClaim():
                self.judge_written_dot(claim)
            case FormulaClaim():
                self.judge_formula(claim)
            case PrintedSumClaim():
                self.judge_printed_sum(claim)
            case GatheredClaim():
                self.judge_gathered(claim)
            case RestatedClaim():
                self.judge_restated(claim)
            case ModuleShapeClaim():
                self.judge_module_shape(claim)
            case DropoutClaim():
                self.judge_dropout(claim)
            case DropZeroClaim():
                self.judge_drop_zero(claim)
            case TermwiseClaim():
                self.judge_termwise(claim)
            case SharesClaim():
                self.judge_shares(claim)
            case ExpsClaim():
                self.judge_exps(claim)

    def judge_repairs(self) -> None:
        """A printed input with a slip: the rest of the document follows from the value before the slip."""
        by_id = {o.a.id: o for o in self.objs}
        for oid, i, j, value, how in getattr(self.inf, "repairs", []) or []:
            o = by_id.get(oid)
            if o is None:
                continue
            num = o.a.rows[i][j]
            node = next((r.nodes[0] for r in o.refs if r.nodes[0] in ("X", "W_Q", "W_K", "W_V", "W_O", "Q", "K", "V",
                                                                         "QKt", "S")), "X")
            step = self.step_of(node) if node not in ("Q", "K", "V", "QKt", "S") else "input"
            name = lb.SHOWN.get(node, node)
            self.n_claims += 1
            self.add(Finding(num.line or o.a.row_line(i), o.a.place.cell, f"{name}[{i + 1},{j + 1}]", num.text,
                             float(value), num.rounded(value), step,
                             f"{how}: every later number of the document follows from {num.rounded(value)}",
                             how.replace(" ", "_").replace("swapped_digits", "swapped_digits")))

    def step_of(self, node: str) -> str:
        """The step of a quantity, as the document's configuration makes it.

        Q^(h), K^(h), V^(h) are the split, unless each head has its own projection (or there is one head).
        With one head its output is the concatenation; without W_O the output is the concatenation.
        """
        if self.t is None:
            return STEP.get(node, "input")
        c = self.t.config
        if node in ("Q", "K", "V") and c.given_qkv:
            return "input"
        if node in ("Qh", "Kh", "Vh"):
            if c.given_qkv and c.n_heads == 1:
                return "input"
            if c.n_heads == 1 or (node[0] == "Q" and "W_Q" in c.weights_per_head) or \
                    (node[0] in "KV" and f"W_{node[0]}" in c.weights_per_head):
                return "projection"
        if node == "O_concat" or (node == "Y" and c.W_O is None):
            return "weighted_sum" if c.n_heads == 1 else "concat"
        return STEP.get(node, "input")

    # ---------------------------------------------------------- findings
    def errors_found(self) -> bool:
        return any(f.severity == "error" for f in self.findings)

    def add(self, f: Finding, merge: bool = False) -> None:
        """merge: f is the end of an arithmetic line; the same number already found as a matrix entry is one
        finding (with the arithmetic's cause)."""
        for g in self.findings:
            if (g.line, g.cell, g.claim, g.printed) == (f.line, f.cell, f.claim, f.printed):
                return
            if merge and (g.line, g.cell, g.printed, g.severity) == (f.line, f.cell, f.printed, f.severity) and \
                    isinstance(g.exact, float) and isinstance(f.exact, float) and \
                    (abs(g.exact - f.exact) <= 1e-9 * max(1.0, abs(g.exact)) or g.rounded == f.rounded or
                     abs(g.exact - f.exact) <= 2 * printed_unit(f.printed)):
                # one number found twice (as an entry of its matrix and as the end of its arithmetic line; the
                # line's own rounded terms may give a slightly other exact value, rounding to the same digits)
                if g.cause is None and f.cause is not None:
                    g.cause, g.kind = f.cause, f.kind
                return
        self.findings.append(f)


_SHAPES_MULTIPLIED = re.compile(r"[(\[]\s*\d+\s*,\s*\d+\s*[)\]]\s*[*×@·]\s*[(\[]\s*\d+\s*,\s*\d+\s*[)\]]\s*$")


def _without_indices(claims: list[Claim]) -> list[Claim]:
    """Indices are not sizes: "# T=0", "# T=1" labelling the rows of a literal, "B=0" over a batch's first
    sequence.  A size of 0, or one symbol given several values in the comments of one cell, is an index."""
    seen: dict[tuple, set[float]] = {}
    for c in claims:
        if isinstance(c, SizeClaim) and c.place.where == "comment":
            seen.setdefault((c.symbol, c.place.cell), set()).add(c.value.value)
    return [c for c in claims if not (isinstance(c, SizeClaim) and (
        c.value.value == 0 or (c.place.where == "comment" and len(seen.get((c.symbol, c.place.cell), ())) > 1)))]


def lb_is(o: Any, role: str) -> bool:
    return o.ref is not None and role in o.ref.nodes


def _column_of_terms(a, b) -> bool:
    """`0.2 [1.0; 0.5] + 0.8 [2.0; 1.5] = [1.8; 1.3]` in LaTeX columns: a result written as a column, after a sum of
    vector terms (expr.py reads one-column matrices as vectors), is that sum's vector."""
    arr = b.array
    return isinstance(a, ExprPart) and not arr.lead and arr.n_rows >= 2 and \
        all(r is not None and len(r) == 1 for r in arr.rows) and nb.face_vector(a.expr) is not None


def _shapes_mapped(c) -> bool:
    """`$2 \\times 3 \\to 3 \\times 3$` after "(3 × 2 with": shapes of a product, an arrow between a × b and c × d
    (each two whole numbers), not arithmetic claiming 2·3 = 3·3."""
    def pair(p) -> bool:
        e = getattr(p, "expr", None)
        return isinstance(e, nb.Op) and e.op == "*" and len(e.args) == 2 and \
            all(isinstance(x, nb.Lit) and x.num.decimals is None and x.num.value >= 1 for x in e.args)
    return "→" in c.rels and sum(1 for p in c.parts if pair(p)) >= 2


def _dot_of_values(p: ShapeProduct, after: list) -> bool:
    """`[2,1]·[1,2] = 4`: two vectors of a dot product and the number it gives (right or not), not two shapes
    multiplied (whose product is a shape)."""
    if not after or not isinstance(after[0], ExprPart) or len(p.left) != len(p.right):
        return False
    return nb.plain_number(after[0].expr) is not None
