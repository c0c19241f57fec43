"""Candidate configurations: the dimensions of the search (X or Q/K/V given, the weights shared or per head, the
head count, K/V heads, scale, mask, W_O, RoPE, ALiBi, a KV cache) and the values each may take, read from the
objects and the words of the document; the widths and sizes a choice implies."""

from __future__ import annotations

import re
from dataclasses import dataclass, field, replace
from typing import Any

import numpy as np

from .. import labels as lb
from .. import labelwords as lw
from ..model import Views
from ..numbers import MASK_FILL, plain_number
from ..objects import Document, ExprPart, LabelPart
from .backward import upstream_options
from .prepare import Bases, Obj, _is, _ref_for
from .printed_inputs import fed_by_weights, per_head_bias
from .saididentity import identity_heads, said_identity
from .headwidths import example_numbered, kv_heads, names_other_heads
from .tokenrows import token_rows


@dataclass(frozen=True)
class Choice:
    """One value of one dimension of the search, with the array objects it takes as given."""
    value: Any
    label: str
    uses: frozenset = frozenset()
    cost: float = 0.0
    radius: Any = field(default=None, compare=False)   # the rounding of a printed input, entry by entry
    heads: int | None = None      # the one head count this value holds for (a weight printed for head 1 only)


# The modes that start after X: Q, K and V given; raw scores given; weights with values (infer/starts.py)
GIVEN = ("QKV", "scores", "weights", "heads")
# how the label of X begins when X is a guess: the document's first unlabelled matrix (claims/guessed.py, search.py)
FIRST_MATRIX = "X: the first matrix"


@dataclass
class Candidate:
    dims: dict[str, Choice]

    def mapping(self) -> dict[str, Any] | None:
        d = {k: c.value for k, c in self.dims.items()}
        m: dict[str, Any] = {}
        if d["mode"] in GIVEN:
            m.update(Q=d["Q"], K=d["K"], V=d["V"])
            if d.get("hide"):
                m["_hide"] = tuple(d["hide"])         # what the start invented: never matched (model.compute)
        else:
            m["X"] = d["X"]
            if d.get("Xkv") is not None:           # cross-attention: keys and values from another sequence
                m["key"] = m["value"] = d["Xkv"]
            for w in ("W_Q", "W_K", "W_V"):
                m[w] = d[w]
        m["n_heads"] = d["H"]
        G = d.get("G") or kv_heads(m, d["H"])
        if G and G != d["H"]:
            m["n_kv_heads"] = G
        m["W_O"] = d.get("W_O", "none")
        if d.get("scale") is not None:
            m["scale"] = d["scale"]
        mask = d.get("mask")
        if mask is not None and mask is not False:
            if isinstance(mask, str):
                m["causal"] = mask
            elif isinstance(mask, dict):
                m.update(mask)
        if d.get("rope"):
            m["rope"] = d["rope"]
        if d.get("cache") is not None:
            m["cache"] = d["cache"]
        if d.get("alibi"):
            m["alibi"] = d["alibi"]
        for bname in ("b_Q", "b_K", "b_V", "b_O"):
            if d.get(bname) is not None:
                m[bname] = d[bname]
        if d.get("backward") is not None:
            m["backward"] = d["backward"]
        return m

    @property
    def uses(self) -> frozenset:
        out: frozenset = frozenset()
        for c in self.dims.values():
            out |= c.uses
        return out

    @property
    def cost(self) -> float:
        return sum(c.cost for c in self.dims.values())

    def describe(self) -> dict[str, str]:
        return {k: c.label for k, c in self.dims.items() if k not in ("hide", "heads") and c.label}


@dataclass
class Scored:
    cand: Candidate
    trace: Any
    views: Views | None
    score: float
    explained: int
    total: int


@dataclass
class Inference:
    best: Scored | None
    evidence: list[str] = field(default_factory=list)
    alternatives: dict[str, list[tuple[str, int]]] = field(default_factory=dict)
    looked_for: str = ""
    unexplained: str = ""          # a start found whose trace gives none of the printed results ("starts from Q, ...")
    objs: list[Obj] = field(default_factory=list)
    repairs: list[tuple[int, int, int, float, str]] = field(default_factory=list)   # (obj id, i, j, value, how)
    bases: Bases = field(default_factory=Bases)


def _arr(o: Obj) -> np.ndarray:
    if o.slices > 1:
        return o.val.reshape(tuple(o.a.lead) + o.slice_shape)
    return o.val


def _masked_weights(o: Obj) -> bool:
    """A square matrix that reads as causal attention weights: zeros above the diagonal, entries in [0, 1], each
    row summing to 1 within its rounding, not all whole numbers (an identity X is all of these but the last).  It is
    what comes out of the attention, never the input X."""
    if o.lo is None or o.slices != 1 or o.val.shape[0] != o.val.shape[1] or o.a.all_integers():
        return False
    upper = np.triu(np.ones(o.val.shape, dtype=bool), 1)
    return bool((o.val[upper] == 0).all() and (o.hi >= 0).all() and (o.lo <= 1).all()
                and (o.lo.sum(1) <= 1 + 1e-9).all() and (o.hi.sum(1) >= 1 - 1e-9).all())


class Options:
    """The values each dimension of the search may take, read from the document."""

    def __init__(self, doc: Document, objs: list[Obj]):
        self.doc = doc
        self.objs = [o for o in objs if o.val is not None]
        self.all_objs = objs
        self.cache: dict[str, Scored] = {}
        self.hints = {h.kind: h for h in doc.hints}
        self.hint_list = doc.hints
        self.sizes = self._sizes()

    # ---------------------------------------------------------- what the text states
    def _sizes(self) -> dict[str, int]:
        out: dict[str, int] = {}
        names = {"h": "H", "H": "H", "n_heads": "H", "num_heads": "H", "n_head": "H", "nhead": "H",
                 "num_attention_heads": "H", "heads": "H", "d_k": "d_k", "d_h": "d_k", "d_head": "d_k",
                 "head_dim": "d_k", "d_{k}": "d_k", "d_{h}": "d_k", "T": "T", "d": "d_model", "d_model": "d_model",
                 "d_{model}": "d_model", "n_kv_heads": "G", "num_key_value_heads": "G", "d_v": "d_v"}
        on_line: dict[tuple, list[str]] = {}
        for c in self.doc.chains:
            on_line.setdefault((c.place.cell, c.place.line), []).append(c.text)
        for c in self.doc.chains:
            if lw.index_header(" ".join(on_line[(c.place.cell, c.place.line)])):
                continue                     # "d_k=0  d_k=1  ...  d_k=63" over a drawn matrix: indices, no size
            for k in range(len(c.parts) - 1):
                a, b = c.parts[k], c.parts[k + 1]
                if isinstance(a, LabelPart) and isinstance(b, ExprPart):
                    n = plain_number(b.expr)
                    if n is None or n.decimals is not None or not 0 < n.value < 10000:
                        continue
                    j = k                    # d_k = d_v = 4: every name of the run of labels before the number
                    while j >= 0 and isinstance(c.parts[j], LabelPart):
                        key = re.sub(r"[\\{}\s]|mathrm|text", "", c.parts[j].text)
                        if key == "H" and lw.h_is_head_size(" ".join(on_line[(c.place.cell, c.place.line)])):
                            key = "d_k"      # "T = 4, C = 6, H = 3": H is a head's size there
                        if key in names:
                            out.setdefault(names[key], int(n.value))
                        j -= 1
        for h in self.hint_list:
            if h.kind == "assign":
                name, num = h.value
                key = name.split(".")[-1]
                if key in names and num.decimals is None and 0 < num.value < 10000:
                    out.setdefault(names[key], int(num.value))
            if h.kind == "head_dim" and "d_k" not in out:
                out["d_k"] = int(h.value)
            if h.kind == "heads" and "H" not in out:
                v = h.value
                zh = {"一": 1, "二": 2, "两": 2, "三": 3, "四": 4, "五": 5, "六": 6, "七": 7, "八": 8}
                try:
                    out["H_text"] = zh.get(v) or int(v)
                except (TypeError, ValueError):
                    pass
        return out

    # ---------------------------------------------------------- inputs
    def x_options(self) -> list[Choice]:
        out: list[Choice] = []
        seen: list[np.ndarray] = []

        def add(arr: np.ndarray, label: str, uses: frozenset, cost: float) -> None:
            for s in seen:
                if s.shape == arr.shape and np.array_equal(s, arr):
                    return
            seen.append(arr)
            out.append(Choice(arr, label, uses, cost))
        labelled = [o for o in self.objs if _is(o, "X") and _ref_for(o, "X").row is None]
        batches = [o for o in labelled if o.slices == 1 and o.batch_hint is not None]
        for o in labelled:
            if o.val.shape[0] >= 1 and o.n >= 2:
                add(_arr(o), f"X from {o.a.place}", frozenset([o.a.id]), 0.0)
        if len(batches) >= 2 and len({o.val.shape for o in batches}) == 1:
            stack = np.stack([o.val for o in sorted(batches, key=lambda o: o.batch_hint)])
            add(stack, f"X batch of {len(batches)} from {batches[0].a.place}", frozenset(o.a.id for o in batches), 0.0)
        rows = [o for o in self.objs if _is(o, "X") and _ref_for(o, "X").row is not None and o.val.shape[0] == 1]
        if rows:
            by = {}
            for o in rows:
                by.setdefault(_ref_for(o, "X").row, o)
            if sorted(by) == list(range(len(by))) and len({by[k].val.shape for k in by}) == 1:
                arr = np.concatenate([by[k].val for k in sorted(by)], axis=0)
                add(arr, f"X from its rows at {by[0].a.place}", frozenset(o.a.id for o in by.values()), 0.2)
        else:
            got = token_rows(self.objs, "X")         # x_the, x_cat, x_sleeps: rows named by their tokens
            if got is not None and len(got[1]) >= 2:
                add(got[0], f"X from its rows at {got[1][0].a.place}", frozenset(o.a.id for o in got[1]), 0.2)
        if not out:
            fed = fed_by_weights(self.objs)
            if fed is not None:
                add(_arr(fed), f"X: the matrix the printed W_Q takes, at {fed.a.place}", frozenset([fed.a.id]), 0.5)
        if not out:
            for o in self.objs[:6]:
                if o.ref is None and o.val.shape[0] >= 2 and o.val.shape[1] >= 2 and np.isfinite(o.val).all() \
                        and not _masked_weights(o) and not np.all(o.val == o.val.flat[0]) \
                        and not (o.val <= MASK_FILL).any():    # torch.ones, or scores masked with -1e9: no input
                    add(_arr(o), f"{FIRST_MATRIX}, at {o.a.place}", frozenset([o.a.id]), 1.0)
                    break
        return out

    def weight_options(self, role: str, d_in: int | None) -> list[Choice]:
        out: list[Choice] = []
        printed = [o for o in self.objs if _is(o, role) and _ref_for(o, role).head is None and o.slices == 1
                   and _ref_for(o, role).row is None]
        per_head = [o for o in self.objs if _is(o, role) and _ref_for(o, role).head is not None and o.slices == 1
                    and not example_numbered(o, self.objs)]
        three_d = [o for o in self.objs if _is(o, role) and o.slices > 1 and len(o.a.lead) == 1]
        for o in printed[:2]:
            W = o.val
            mine = []
            if d_in is None or W.shape[0] == d_in:
                mine.append(Choice(W, f"{role} printed at {o.a.place}", frozenset([o.a.id])))
            if (d_in is None or W.shape[1] == d_in) and (W.shape[0] != W.shape[1] or d_in is None or True):
                mine.append(Choice(W.T.copy(), f"{role} printed at {o.a.place}, used as W x (transposed)",
                                   frozenset([o.a.id]), 0.5))
            loaded = {h.value for h in self.hint_list if h.kind == "torch_weight"}
            if (o.a.label.strip().endswith(".weight") or loaded & {n.strip() for n in o.a.labels}) and len(mine) == 2:
                # a torch parameter (q_proj.weight, a state_dict's): nn.Linear keeps [out, in] and computes x Wᵀ
                mine = [replace(mine[1], label=f"{role} printed at {o.a.place} as torch's nn.Linear weight "
                                "(x Wᵀ)", cost=0.0), replace(mine[0], cost=0.5)]
            elif len(mine) == 2 and any(h.kind == "w_left" for h in self.hint_list):
                # `q_i = W_Q x_i` said: the weights act on columns, the transposed reading first on a tie
                mine = [replace(mine[1], cost=0.0), replace(mine[0], cost=0.5)]
            out += mine
        ident_heads = self._identity_heads(role)
        if per_head or len(ident_heads) > 1:
            by = {}
            for o in per_head:
                by.setdefault(_ref_for(o, role).head, o)
            if by and 0 not in by and printed and all(printed[0].val.shape == v.val.shape for v in by.values()) \
                    and sorted(by) == list(range(1, len(by) + 1)):
                by[0] = printed[0]     # W_Q, then "Head 2: W_Q^2 = ...": the weights without a head are head 1's
            shapes = {by[k].val.shape for k in by}
            if len(shapes) <= 1:
                shape = shapes.pop() if shapes else ((d_in, d_in) if d_in else None)
                if shape is not None and shape[0] == shape[1]:
                    for h in ident_heads:
                        if h not in by:
                            by[h] = None
            if list(by) == [0] and by[0] is not None and not names_other_heads(by[0], role):
                # only head 1's weight printed ("the first head uses W_K^(1) = ..."): one head's, not one weight
                # every head shares (that is said: W_V^(1) = W_V^(2) = ...); with more heads it splits like any W
                o = by.pop(0)
                if d_in is None or o.val.shape[0] == d_in:
                    out.append(Choice(o.val, f"{role} printed at {o.a.place} (head 1's)", frozenset([o.a.id]), 0.1,
                                      heads=1))
            if by and sorted(by) == list(range(len(by))) and len({by[k].val.shape for k in by if by[k] is not None}) <= 1 \
                    and any(by[k] is not None for k in by) or (by and all(v is None for v in by.values()) and d_in
                                                               and sorted(by) == list(range(len(by))) and len(by) > 1):
                some = next((by[k].val for k in by if by[k] is not None), None)
                eye = np.eye(some.shape[0] if some is not None else d_in)
                stack = np.stack([by[k].val if by[k] is not None else eye for k in sorted(by)])
                by = {k: v for k, v in by.items() if v is not None}
                if d_in is None or stack.shape[1] == d_in:
                    where = next(iter(by.values())).a.place if by else "the text (identity per head)"
                    out.append(Choice(stack, f"{role} per head, printed at {where}",
                                      frozenset(o.a.id for o in by.values())))
                if d_in is None or stack.shape[2] == d_in:
                    out.append(Choice(stack.transpose(0, 2, 1).copy(), f"{role} per head (transposed)",
                                      frozenset(o.a.id for o in by.values()), 0.5))
        for o in three_d:
            arr = _arr(o)
            out.append(Choice(arr, f"{role} per head, printed at {o.a.place}", frozenset([o.a.id])))
        out.extend(self._rectangular_identity(role, d_in))
        for h in self.hint_list:
            if h.kind == "scaled_identity" and h.value[0] == role and d_in and not self.doc.in_opened_section(h.place):
                out.insert(0, Choice(h.value[1] * np.eye(d_in), f"{role} = {h.value[1]:g}·I (stated)", frozenset(),
                                     0.0))
                break
        ident_cost = 0.0 if self._said_identity(role) else (0.3 if not out else 2.0)
        out.append(Choice("identity", f"{role} = I" + (" (stated)" if self._said_identity(role) else " (assumed)"),
                          frozenset(), ident_cost))
        return out

    def _rectangular_identity(self, role: str, d_in: int | None) -> list[Choice]:
        """`W^V = I_{4×2}`: the first columns of the identity (V keeps X's first two features), as a weight."""
        for c in self.doc.chains:
            if self.doc.in_opened_section(c.place):
                continue
            labs = [p.text.replace(" ", "") for p in c.parts if isinstance(p, LabelPart)]
            if len(labs) < 2:
                continue
            r = lb.parse_label(labs[0])
            m = re.fullmatch(r"\\?(?:mathbf\{)?I\}?_\{?(\d+)(?:\*|×|\\times|x)(\d+)\}?", labs[-1])
            if r is None or role not in r.nodes or m is None:
                continue
            rows, cols = int(m.group(1)), int(m.group(2))
            if cols < rows and (d_in is None or rows == d_in):
                return [Choice(np.eye(rows, cols), f"{role} = I_{{{rows}×{cols}}} (stated at {c.place})", frozenset())]
        return []

    def bias_options(self, role: str, width: int | None, heads: tuple[int, int] | None = None) -> list[Choice]:
        """No bias, or a vector the document names as that bias (b_Q = (0.1, 0)) of the projection's width.  With
        weights printed per head (`heads` = (H, d_h)), one bias per head (b_K^{(1)}, b_K^{(2)}) is joined in head
        order into the bias of the whole projection."""
        out = [Choice(None, f"no {role}")]
        vectors = [o for o in self.objs if _is(o, role) and o.slices == 1 and 1 in o.val.shape]
        if heads is not None:
            joined = per_head_bias(vectors, role, *heads)
            if joined is not None:
                out.append(Choice(*joined))
            width = heads[0] * heads[1]
        for o in vectors:
            if width is None or o.val.size == width:
                out.append(Choice(o.val.reshape(-1).copy(), f"{role} printed at {o.a.place}", frozenset([o.a.id])))
        return out[:3]

    def biases_printed(self) -> list[str]:
        """The projections whose bias the document prints: only those are searched."""
        return [r for r in BIASES if any(_is(o, r) for o in self.objs)]

    def _identity_heads(self, role: str) -> set[int]:
        return identity_heads(self.doc, role)

    def _said_identity(self, role: str) -> bool:
        return said_identity(self.doc, self.hint_list, self.objs, role)

    def qkv_options(self) -> list[Choice]:
        got = {}
        for role in ("Q", "K", "V"):
            full = [o for o in self.objs if _is(o, role) and _ref_for(o, role).head is None
                    and _ref_for(o, role).row is None and o.val.shape[0] >= 1]
            if full:
                o = full[0]
                got[role] = (_arr(o), frozenset([o.a.id]), str(o.a.place))
                continue
            heads = [o for o in self.objs if _is(o, role) and _ref_for(o, role).head is not None
                     and _ref_for(o, role).row is None and o.slices == 1]
            by = {}
            for o in heads:
                by.setdefault(_ref_for(o, role).head, o)
            if by and sorted(by) == list(range(len(by))) and len({by[k].val.shape for k in by}) == 1:
                got[role] = (np.concatenate([by[k].val for k in sorted(by)], axis=1),
                             frozenset(o.a.id for o in by.values()), str(by[0].a.place))
        if len(got) < 3:
            return []
        return [Choice({"Q": got["Q"][0], "K": got["K"][0], "V": got["V"][0]},
                       f"Q, K, V given (from {got['Q'][2]}, {got['K'][2]}, {got['V'][2]})",
                       got["Q"][1] | got["K"][1] | got["V"][1])]

    def head_options(self, width: int) -> list[Choice]:
        out = []
        stated = self.sizes.get("H") or self.sizes.get("H_text")
        labelled = [o.ref.head for o in self.objs if o.ref is not None and o.ref.head is not None]
        from_labels = max(labelled) + 1 if labelled else None
        dk = self.sizes.get("d_k")
        if stated and dk and width % dk == 0 and width != stated * dk and not from_labels:
            # "num_heads=2", "head_dim=2", and Q printed 2 wide: the heads are the model's, the matrices at hand
            # one head's (width d_k), which one head computes
            stated = None
        # "Head1 Output" printed 2×2 for a model of width 2 (X as wide): each head has projections of its own as wide
        # as the model (not a split of it), which no H > 1 here computes
        x_widths = {o.val.shape[1] for o in self.objs if o.ref is not None and o.ref.nodes[0] == "X" and
                    o.val is not None and o.val.ndim == 2}
        full = width in x_widths and any(
            o.ref is not None and o.ref.nodes == ("O",) and o.ref.head is not None and o.val is not None and
            o.slices == 1 and o.val.ndim == 2 and o.val.shape[0] > 1 and o.val.shape[1] == width > 1 for o in self.objs)
        cands = []
        # a page that names no head anywhere works one: more heads would only be a better fit to other numbers
        # (head slices of a second example's matrices), never what the page computes
        worded = stated or from_labels or any(h.kind in ("head_word", "heads") for h in self.hint_list)
        # "d_k = 4" beside Q four wide, no head count stated: one head as wide as the model; more heads would make
        # d_k smaller than the text says (a fit to a table of round numbers, not what the page computes)
        whole = dk == width and not stated and not from_labels
        for h in (stated, from_labels, (width // dk if dk and width % dk == 0 else None), 1, 2, 3, 4, 6, 8):
            if h and h > 1 and (not worded or whole):
                continue
            if h and width % h == 0 and h not in cands and h <= width:
                if h > 1 and width // h == 1 and h not in (stated, from_labels):
                    continue        # heads one number wide that nothing states: a fit to small integers, not a model
                if h > 1 and full:
                    continue        # a head's own output printed as wide as the model: heads not split from it
                cands.append(h)
        for k, h in enumerate(cands[:6]):
            cost = 0.0 if h in (stated, from_labels) else (0.2 if h == 1 else 0.4 + 0.05 * h)
            out.append(Choice(h, f"H = {h}" + (" (stated)" if h == stated else ""), frozenset(), cost))
        return out

    def scale_options(self) -> list[Choice]:
        unscaled = "unscaled" in self.hints
        out = [Choice(None, "1/√d_k", frozenset(), 0.3 if unscaled else 0.0),
               Choice("none", "none (unscaled)", frozenset(), 0.0 if unscaled else 0.5),
               Choice("1/d_k", "1/d_k", frozenset(), 0.6)]
        from .written_scale import stated_scale, written_scales      # scores / 2 written beside the scaled scores
        for h in self.hint_list:
            v = stated_scale(h)
            if v is not None:
                out.append(Choice(v, f"{v:.6g} (stated at {h.place})", frozenset(), 0.4))
        return out + [Choice(v, label, frozenset(), 0.05) for v, label in written_scales(self.objs)]

    def cache_options(self) -> list[Choice]:
        """A decoding step's KV cache: the printed K_cache and V_cache of every K/V head (labelled as such)."""
        out = [Choice(None, "no KV cache")]
        per: dict[str, dict[int | None, Obj]] = {"Kc": {}, "Vc": {}}
        for o in self.objs:
            if o.ref is not None and o.ref.nodes[0] in per and o.slices == 1 and np.isfinite(o.val).all():
                per[o.ref.nodes[0]].setdefault(o.ref.head, o)
        K, V = per["Kc"], per["Vc"]
        if not K or set(K) != set(V):
            return out
        heads = sorted(K, key=lambda h: -1 if h is None else h)
        if heads != [None] and heads != list(range(len(heads))):
            return out
        ks, vs = [K[h].val for h in heads], [V[h].val for h in heads]
        if len({k.shape for k in ks}) != 1 or len({v.shape for v in vs}) != 1 or ks[0].shape[0] != vs[0].shape[0]:
            return out
        uses = frozenset(o.a.id for o in list(K.values()) + list(V.values()))
        cost = 0.0 if len(uses) == 2 * len(heads) else 0.5
        out.insert(0, Choice({"K": np.stack(ks), "V": np.stack(vs)},
                             f"KV cache of {ks[0].shape[0]} tokens from {K[heads[0]].a.place}", uses, cost))
        return out

    def wo_options(self, width_in: int | None) -> list[Choice]:
        out = [o for o in self.weight_options("W_O", width_in) if not isinstance(o.value, str)]
        said_none = "no_wo" in self.hints
        out.append(Choice("none", "no W_O" + (" (stated)" if said_none else ""), frozenset(),
                          0.0 if said_none else 0.1))
        out.append(Choice("identity", "W_O = I" + (" (stated)" if self._said_identity("W_O") else ""), frozenset(),
                          0.0 if self._said_identity("W_O") else 0.2))
        return out


    # (the mode's Q, K, V live in one Choice; a slip there is judged as a wrong value of that input)

    def options(self, dims: dict[str, Choice], name: str) -> list[Choice]:
        x = dims.get("X")
        if dims["mode"].value == "heads" and name in FIXED_AFTER_SCORES and name != "W_O":
            # the heads' outputs given: as many heads as printed, W_O still to find (printed, I or none)
            return [dims["heads"]] if name == "H" else [Choice("none", "no scale (the heads given)")] \
                if name == "scale" else [FIXED_AFTER_SCORES[name]]
        if dims["mode"].value in ("scores", "weights") and name in FIXED_AFTER_SCORES:
            if name == "scale" and dims["mode"].value == "scores":
                return self.scores_scale_options(dims["mode"].uses)
            return [FIXED_AFTER_SCORES[name]]
        if name in ("W_Q", "W_K", "W_V"):
            if name != "W_Q" and dims.get("Xkv") is not None:
                x = dims["Xkv"]
            return self.weight_options(name, x.value.shape[-1] if x is not None else None)
        if name == "X":
            return self.x_options()[:4]
        if name == "backward":
            return [Choice(*o) for o in upstream_options(self.objs, self._y_shape(dims))]
        width = self._qk_width(dims)
        if name == "H":
            return self.head_options(width) if width else [Choice(1, "H = 1")]
        if name == "G":
            H = dims["H"].value
            kw = self._qk_width(dims, "K")
            out = [Choice(None, "G = H")]
            if kw and width and kw < width and (width // H) and kw % (width // H) == 0:
                g = kw // (width // H)
                if g >= 1 and H % g == 0:
                    out.insert(0, Choice(g, f"n_kv_heads = {g} (K is narrower than Q)"))
            return out
        if name in BIASES:
            W = dims.get("W" + name[1:])
            W = W.value if W is not None and isinstance(W.value, np.ndarray) else None
            if W is not None and W.ndim == 3:
                return self.bias_options(name, None, (W.shape[0], W.shape[2]))
            return self.bias_options(name, W.shape[-1] if W is not None else None)
        if name == "scale":
            return self.scale_options()
        if name == "mask":
            T, S = self._ts(dims)
            opts = self.mask_options(T, S) if T else [Choice(None, "no mask")]
            if T == 1 and dims["mode"].value != "X":
                opts = [o for o in opts if not isinstance(o.value, str)]     # one query row: causal means nothing
            if dims["mode"].value in ("weights", "heads"):
                # weights given are already masked or not: a mask laid over them would change the given numbers
                # (row 1 of [[0.67, 0.33], ...] made [1, 0] because an identity Q and K look like a causal mask)
                opts = [o for o in opts if o.value is None] or [Choice(None, "no mask")]
            return opts
        if name == "W_O":
            H = dims["H"].value
            v_width = self._v_width(dims)
            return self.wo_options(v_width)
        if name == "cache":
            return self.cache_options()
        if name == "alibi":
            # only where the text names it: with one head its slope is 1/256 a position, small enough to pass for
            # the rounding of scores worked from rounded terms (an unnamed ALiBi won 57 to 55 on an outside page)
            if "alibi" not in self.hints:
                return [Choice(None, "no ALiBi", frozenset(), 0.0)]
            return [Choice(None, "no ALiBi", frozenset(), 0.5),
                    Choice(True, "ALiBi (Press et al.'s slopes)", frozenset(), 0.0)]
        if name == "rope":
            said = "rope" in self.hints
            if not said:
                # like ALiBi, only where the text names it: an unnamed rotation fitted the slipped scores of an
                # outside page whose every projection was wrong, and no author applies RoPE without saying so
                return [Choice(None, "no RoPE", frozenset(), 0.0)]
            return [Choice(None, "no RoPE", frozenset(), 0.5), Choice(True, "RoPE (rotate-half)", frozenset(), 0.0),
                    Choice({"style": "interleaved"}, "RoPE (interleaved pairs)", frozenset(), 0.2)]
        return [dims[name]]

    def _y_shape(self, dims) -> tuple[int, ...] | None:
        """Y's shape ([B,] T, d_out) under a candidate (for an upstream gradient stated only in words)."""
        T, _ = self._ts(dims)
        W = dims["W_O"].value if "W_O" in dims else "none"
        d_out = W.shape[1] if isinstance(W, np.ndarray) and W.ndim == 2 else self._v_width(dims)
        if not T or not d_out:
            return None
        x = dims["X"].value if dims["mode"].value == "X" else dims["Q"].value
        return (x.shape[0], T, d_out) if x.ndim == 3 else (T, d_out)

    def _qk_width(self, dims, name: str = "Q") -> int | None:
        """The width of Q (name "Q") or K (name "K") over all heads, from the inputs or the projection."""
        if dims["mode"].value in GIVEN:
            return dims[name].value.shape[-1]
        W = dims[f"W_{name}"].value
        if isinstance(W, str):
            return dims["X"].value.shape[-1]
        return W.shape[0] * W.shape[2] if W.ndim == 3 else W.shape[1]

    def _v_width(self, dims) -> int | None:
        if dims["mode"].value in GIVEN:
            H = dims["H"].value
            return dims["V"].value.shape[-1] * (H // (dims.get("G").value or H) if dims.get("G") else 1)
        W = dims["W_V"].value
        H = dims["H"].value
        G = dims.get("G").value if dims.get("G") else None
        rep = H // G if G else 1
        if isinstance(W, str):
            return dims["X"].value.shape[-1] * rep
        if W.ndim == 3:          # per head (one weight shared by every head: `W_V^{(1)} = W_V^{(2)} = ...`)
            return W.shape[2] * (W.shape[0] * rep if W.shape[0] > 1 else H)
        return W.shape[1] * rep

    def _ts(self, dims) -> tuple[int | None, int | None]:
        if dims["mode"].value in GIVEN:
            return dims["Q"].value.shape[-2], dims["K"].value.shape[-2]
        x = dims["X"].value
        if dims.get("Xkv") is not None:
            return x.shape[-2], dims["Xkv"].value.shape[-2]
        cache = dims.get("cache").value if dims.get("cache") is not None else None
        return x.shape[-2], x.shape[-2] + (0 if cache is None else cache["K"].shape[-2])


# After printed scores or weights there is one head and nothing to project: these dimensions are fixed.
BIASES = ("b_Q", "b_K", "b_V")
FIXED_AFTER_SCORES = {"H": Choice(1, "H = 1"), "G": Choice(None, "G = H"), "W_O": Choice("none", "no W_O"),
                      "rope": Choice(None, "no RoPE"), "alibi": Choice(None, "no ALiBi"),
                      "cache": Choice(None, "no KV cache"), "scale": Choice("none", "none (the weights as printed)")}
