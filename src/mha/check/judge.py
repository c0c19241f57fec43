"""Judging a worked example's claims against the trace, and the `mha check` command.

A printed value is right when it equals the exact value rounded to the
printed number of decimals; an integer is read as exact.  An arithmetic line
is right when its right side agrees with its left side once every printed
number is read as the interval it was rounded from.
"""

from __future__ import annotations

import json
import re
import sys
from dataclasses import asdict, dataclass, field
from typing import Any, Mapping

import numpy as np

from ..inputs import MHAInputError
from ..trace import Trace
from .extract import Claim, Label, Num, Walker, extract

STEPS = {"X": "input", "Q": "projection", "K": "projection", "V": "projection", "Q^(h)": "split", "K^(h)": "split",
         "V^(h)": "split", "QKt": "scores",
         "S": "scale", "A": "softmax", "E": "softmax", "row_max": "softmax", "row_sum": "softmax",
         "O": "weighted_sum", "O_concat": "concat", "Y": "output"}


@dataclass
class Finding:
    line: int
    claim: str
    printed: str
    exact: float | str | None
    rounded: str | None
    step: str
    cause: str | None = None

    def describe(self) -> str:
        s = f"line {self.line}: {self.claim}: printed {self.printed}"
        if self.exact is not None:
            exact = f"{self.exact:.6g}" if isinstance(self.exact, float) else str(self.exact)
            s += f"; exact {exact}" + (f", rounds to {self.rounded}" if self.rounded is not None else "")
        s += f" [{self.step}]"
        if self.cause:
            s += f"; likely cause: {self.cause}"
        return s


@dataclass
class Report:
    findings: list[Finding]
    n_claims: int
    n_numbers: int
    inferred: list[str]
    unattributed: list[tuple[int, str]] = field(default_factory=list)

    @property
    def ok(self) -> bool:
        return not self.findings

    def summary(self) -> str:
        tail = (f"; {len(self.unattributed)} statement(s) could not be attributed to a step and were not checked"
                if self.unattributed else "")
        if self.ok:
            return f"all {self.n_claims} claims hold ({self.n_numbers} numbers checked){tail}"
        return (f"{len(self.findings)} finding(s) in {self.n_claims} claims "
                f"({self.n_numbers} numbers checked){tail}")

    def to_text(self) -> str:
        lines = ["configuration: " + "; ".join(self.inferred)]
        lines += [f.describe() for f in self.findings]
        lines += [f"not checked, line {n}: {text}" for n, text in self.unattributed]
        lines.append(self.summary())
        return "\n".join(lines) + "\n"


# ------------------------------------------------------------------ usability

def usable_text(raw: bytes, name: str = "document") -> str:
    """Decode and sanity-check a document; raise MHAInputError (exit 2) when it cannot be checked."""
    if not raw.strip():
        raise MHAInputError(f"{name}: the file is empty")
    if b"\x00" in raw:
        raise MHAInputError(f"{name}: looks like binary data (it contains NUL bytes)")
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError as e:
        raise MHAInputError(f"{name}: not UTF-8 text (byte {e.start})") from None
    unbalanced = _unbalanced(text)
    if unbalanced:
        raise MHAInputError(f"{name}: unbalanced LaTeX: {unbalanced}")
    return text


def _unbalanced(text: str) -> str | None:
    s = re.sub(r"\\[{}$]", "", text)
    depth = 0
    for i, ch in enumerate(s):
        depth += (ch == "{") - (ch == "}")
        if depth < 0:
            return f"'}}' without '{{' at line {s[:i].count(chr(10)) + 1}"
    if depth:
        return f"{depth} '{{' never closed"
    stack: list[tuple[str, int]] = []
    for m in re.finditer(r"\\(begin|end)\{([^{}]*)\}", text):
        line = text[:m.start()].count("\n") + 1
        if m.group(1) == "begin":
            stack.append((m.group(2), line))
        elif not stack or stack[-1][0] != m.group(2):
            return f"\\end{{{m.group(2)}}} at line {line} does not close " + (
                f"\\begin{{{stack[-1][0]}}} (line {stack[-1][1]})" if stack else "any \\begin")
        else:
            stack.pop()
    if stack:
        return f"\\begin{{{stack[-1][0]}}} at line {stack[-1][1]} is never closed"
    if s.count("$$") % 2:
        return "an odd number of $$"
    return None


# ------------------------------------------------------------------ configuration

def infer_config(w: Walker) -> tuple[dict[str, Any], list[str]]:
    """The configuration a document describes, and what was inferred from where."""
    said: list[str] = []
    X = None
    for c in w.claims:
        if c.kind == "matrix" and c.label and c.label.name == "X" and not c.label.row and _all_numbers(c.cells):
            X = [[x.value for x in row] for row in c.cells]
            said.append(f"X {len(X)}x{len(X[0])} from line {c.line}")
            break
    if X is None:
        rows = {}
        for c in w.claims:
            if c.kind == "vector" and c.label and c.label.name == "X" and c.label.row and _all_numbers(c.cells):
                rows.setdefault(c.label.row, ([x.value for x in c.cells[0]], c.line))
        if rows and sorted(rows) == list(range(1, len(rows) + 1)):
            X = [rows[i][0] for i in sorted(rows)]
            said.append(f"X {len(X)}x{len(X[0])} from the rows x_i at lines {rows[1][1]}-{rows[len(rows)][1]}")
    if X is None:
        raise MHAInputError("configuration: no input matrix X found in the document; pass --input CASE.json")
    d_model = len(X[0])
    if w.hints["n_heads"]:
        H, line = w.hints["n_heads"]
        said.append(f"H = {H} from line {line}")
    elif w.hints["d_head"] and d_model % w.hints["d_head"][0] == 0:
        H = d_model // w.hints["d_head"][0]
        said.append(f"H = {H} from d_head = {w.hints['d_head'][0]} at line {w.hints['d_head'][1]}")
    else:
        raise MHAInputError("configuration: the number of heads is not stated (e.g. 'H = 2'); pass --input CASE.json")
    data: dict[str, Any] = {"X": X, "n_heads": H}
    for name in ("W_Q", "W_K", "W_V", "W_O"):
        printed = next((c for c in w.claims if c.kind == "matrix" and c.label and c.label.name == name
                        and _all_numbers(c.cells)), None)
        if printed is not None:
            data[name] = [[x.value for x in row] for row in printed.cells]
            said.append(f"{name} printed at line {printed.line}")
        elif name in w.hints["identity"]:
            data[name] = "identity"
            said.append(f"{name} = I from line {w.hints['identity'][name]}")
        else:
            data[name] = "identity"
            said.append(f"{name} = I assumed (not stated)")
    if w.hints.get("causal"):
        data["causal"], line = w.hints["causal"]
        said.append(f"causal mask ({data['causal']}) from line {line}")
    return data, said


def _all_numbers(cells: Any) -> bool:
    return bool(cells) and all(isinstance(x, Num) for row in cells for x in row)


# ------------------------------------------------------------------ the judge

class Judge:
    def __init__(self, t: Trace):
        self.t = t
        self.findings: list[Finding] = []
        self.unattributed: list[tuple[int, str]] = []
        self.n_claims = 0
        self.n_numbers = 0
        self._alternatives()

    def _alternatives(self) -> None:
        """What a forgotten scale would have produced (rounded-term sums are built on demand)."""
        t = self.t
        from ..core import head_attention
        self.unscaled = head_attention(t.Qh, t.Kh, t.Vh, scale=1.0,
                                       allowed=t.S > -np.inf, bias=None)
        self._naive: dict[int, tuple[np.ndarray, np.ndarray, np.ndarray]] = {}

    def naive_outputs(self, p: int) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """O^(h), O_concat and Y as a hand calculation gets them: A and V rounded to p decimals first."""
        if p not in self._naive:
            from ..core import merge_heads, project
            t = self.t
            Or = np.einsum("bhts,bhsd->bhtd", np.round(t.A, p), np.round(t.Vh, p))
            Oc = merge_heads(Or)
            self._naive[p] = (Or, Oc, project(Oc, t.config.W_O, t.config.b_O))
        return self._naive[p]

    # -------------------------------------------------------------- resolving labels

    def resolve(self, lab: Label, head: int | None) -> np.ndarray | None:
        t, c = self.t, self.t.config
        h = lab.head if lab.head else None
        per_head = {"Q": t.Qh, "K": t.Kh, "V": t.Vh, "QKt": t.QKt, "S": t.S, "A": t.A, "O": t.O, "E": t.E}
        if lab.name in ("row_max", "row_sum"):
            h = h or head
            if not h or h > c.n_heads:
                return None
            arr = (t.row_max if lab.name == "row_max" else t.row_sum)[0, h - 1]
            return arr[None]
        if lab.head == 0:
            return None
        if lab.name in per_head and (h is not None or lab.name in ("QKt", "S", "A", "E")):
            h = h or head
            if h is None or h > c.n_heads:
                return None
            arr = per_head[lab.name][0, h - 1]
        elif lab.name in ("X", "Q", "K", "V", "O_concat", "Y"):
            arr = {"X": c.X, "Q": t.Q, "K": t.K, "V": t.V, "O_concat": t.O_concat, "Y": t.Y}[lab.name][0]
        elif lab.name in ("O",):
            arr = t.O_concat[0]
        elif lab.name.startswith(("W_", "b_")):
            arr = getattr(c, lab.name, None)
            if arr is None:
                return None
            arr = arr if arr.ndim == 2 else arr[None]
        else:
            return None
        if lab.transposed:
            arr = arr.T
        if lab.row:
            if lab.row > arr.shape[0]:
                return None
            arr = arr[lab.row - 1][None]
        return arr

    # -------------------------------------------------------------- one value

    def same(self, printed: Any, exact: float) -> bool:
        if isinstance(printed, str):
            return printed == "-inf" and exact == -np.inf
        if not np.isfinite(exact):
            return False
        half = 0.5 * 10.0 ** -printed.decimals if printed.decimals else 0.0
        if printed.lo != printed.hi and printed.decimals == 0:        # an expression like 1/3
            return printed.lo - 1e-12 <= exact <= printed.hi + 1e-12 or abs(printed.value - exact) < 1e-9
        return abs(printed.value - exact) <= half * (1 + 1e-9) + 1e-12

    def add(self, line: int, claim: str, printed: Any, exact: float | str | None, step: str, cause: str | None,
            decimals: int = 4) -> None:
        shown = printed.text if isinstance(printed, Num) else str(printed)
        if isinstance(exact, str):          # a shape or another non-number
            self.findings.append(Finding(line, claim, shown, exact, exact, step, cause))
            return
        rounded = None
        if exact is not None and np.isfinite(exact):
            rounded = f"{exact:.{decimals}f}" if decimals else (str(int(exact)) if float(exact).is_integer()
                                                                 else f"{exact:.4f}")
        self.findings.append(Finding(line, claim, shown.replace("-inf", "-∞"),
                                     float(exact) if exact is not None and np.isfinite(exact) else
                                     (None if exact is None else "-inf"), rounded, step, cause))

    # -------------------------------------------------------------- matrices and vectors

    def grid(self, cells: list[list[Any]], shape: tuple[int, int]) -> list[tuple[int, int, int, Any]] | None:
        """(printed row, i, j, value) for every printed number, placing elided rows/columns from the end."""
        out = []
        rows = _positions([r[0] is None and all(c is None for c in r) for r in cells], shape[0])
        if rows is None:
            return None
        for pr, (row, i) in enumerate(zip(cells, rows)):
            if i is None:
                continue
            cols = _positions([c is None for c in row], shape[1])
            if cols is None:
                return None
            for j, val in zip(cols, row):
                if j is not None:
                    out.append((pr, i, j, val))
        return out

    def matrix(self, c: Claim, lab: Label, arr: np.ndarray) -> None:
        self.n_claims += 1
        cells = c.cells
        printed_shape = (len(cells), len(cells[0]))
        elided = any(x is None for row in cells for x in row)
        step = step_of(lab)
        if (not elided and printed_shape != arr.shape) or any(len(r) != len(cells[0]) for r in cells):
            self.add(c.line, f"{lab} shape", f"{list(printed_shape)}", None, step,
                     f"wrong shape: the trace has {list(arr.shape)}")
            return
        placed = self.grid(cells, arr.shape)
        if placed is None:
            self.add(c.line, f"{lab} shape", f"{list(printed_shape)}", None, step,
                     f"wrong shape: the trace has {list(arr.shape)}")
            return
        wrong_rows: dict[int, list] = {}
        for pr, i, j, val in placed:
            self.n_numbers += 1
            if not self.same(val, arr[i, j]):
                wrong_rows.setdefault(pr, []).append((i, j, val))
        # A cause that explains every wrong number of the matrix beats one that fits a single cell.
        overall = self._matrix_cause(lab, c, arr, [b for bad in wrong_rows.values() for b in bad]) \
            if sum(map(len, wrong_rows.values())) > 1 else None
        for pr, bad in wrong_rows.items():
            line = c.lines[pr] if c.lines and pr < len(c.lines) else c.line
            whole = overall or (self._row_swap(cells[pr], arr, bad[0][0]) if len(bad) > 1 else None)
            for i, j, val in bad:
                cause = whole or self.cause(lab, c, arr, i, j, val)
                dec = val.decimals if isinstance(val, Num) else 4
                self.add(line, f"{lab}[{i + 1},{j + 1}]" if not lab.row else f"{lab}[{j + 1}]", val,
                         float(arr[i, j]), step, cause, dec)

    def _matrix_cause(self, lab: Label, c: Claim, arr: np.ndarray, bad: list) -> str | None:
        causes = [self.cause(lab, c, arr, i, j, val) for i, j, val in bad]
        for kind in ("wrong head", "missing scale", "sum of rounded terms", "transposed indices"):
            if all(x and x.startswith(kind) for x in causes):
                return causes[0] if len(set(causes)) == 1 else kind
        # every wrong cell is some single other-cause, e.g. head: try each alternative on its own
        for kind in ("wrong head", "missing scale"):
            if all(self._fits(kind, lab, c, i, j, val) for i, j, val in bad):
                return kind
        return None

    def _fits(self, kind: str, lab: Label, c: Claim, i: int, j: int, val: Any) -> bool:
        t, h = self.t, (lab.head or c.context.get("head"))
        r = (lab.row - 1) if lab.row else i
        if not h or not isinstance(val, Num):
            return False
        if kind == "missing scale" and lab.name in ("S", "A", "O"):
            alt = {"S": self.unscaled.S, "A": self.unscaled.A, "O": self.unscaled.O}[lab.name][0, h - 1]
            return self.same(val, alt[r, j])
        per_head = {"Q": t.Qh, "K": t.Kh, "V": t.Vh, "QKt": t.QKt, "S": t.S, "A": t.A, "O": t.O}
        if kind == "wrong head" and lab.name in per_head:
            for g in range(t.config.n_heads):
                other = per_head[lab.name][0, g]
                other = other.T if lab.transposed else other
                if g != h - 1 and r < other.shape[0] and j < other.shape[1] and self.same(val, other[r, j]):
                    return True
        return False

    def _row_swap(self, row: list[Any], arr: np.ndarray, i: int) -> str | None:
        for k in range(arr.shape[0]):
            if k != i and len(row) == arr.shape[1] and all(
                    v is None or self.same(v, arr[k, j]) for j, v in enumerate(row)):
                return f"rows swapped: this is row {k + 1}"
        return None

    def cause(self, lab: Label, c: Claim, arr: np.ndarray, i: int, j: int, val: Any) -> str | None:
        t = self.t
        if not isinstance(val, Num):
            return None
        name, h = lab.name, (lab.head or c.context.get("head"))
        p = val.decimals
        # sum of rounded terms (the document's 0.7518)
        if name in ("O", "O_concat", "Y") and p <= 12:
            Or, Oc, Yn = self.naive_outputs(p)
            if name == "O" and h:
                naive = Or[0, h - 1][(lab.row - 1) if lab.row else i, j]
            elif name == "O":
                naive = Oc[0][(lab.row - 1) if lab.row else i, j]
            else:
                naive = (Oc if name == "O_concat" else Yn)[0][(lab.row - 1) if lab.row else i, j]
            if self.same(val, naive):
                return f"sum of rounded terms: adding the rounded weights gives {naive:.{p}f}"
        # transposed indices
        if arr.shape[0] == arr.shape[1] and i != j and self.same(val, arr[j, i]):
            return f"transposed indices: this is entry [{j + 1},{i + 1}]"
        # wrong head
        per_head = {"Q": t.Qh, "K": t.Kh, "V": t.Vh, "QKt": t.QKt, "S": t.S, "A": t.A, "O": t.O}
        if name in per_head and h:
            for g in range(t.config.n_heads):
                if g != h - 1:
                    other = per_head[name][0, g]
                    other = other.T if lab.transposed else other
                    r = (lab.row - 1) if lab.row else i
                    if r < other.shape[0] and j < other.shape[1] and self.same(val, other[r, j]):
                        return f"wrong head: this is head {g + 1}'s value"
        # missing scale
        if h and name in ("S", "A", "O"):
            alt = {"S": self.unscaled.S, "A": self.unscaled.A, "O": self.unscaled.O}[name][0, h - 1]
            r = (lab.row - 1) if lab.row else i
            if self.same(val, alt[r, j]):
                return "missing scale: computed without dividing by √d_head"
        return None

    def vector(self, c: Claim) -> None:
        if c.label is None:
            self.n_claims += 1
            if not self._found_anywhere(c.cells[0]):
                self.n_claims -= 1
                self.unattributed.append((c.line, c.text))
            else:
                self.n_numbers += len(c.cells[0])
            return
        arr = self.resolve(c.label, c.context.get("head"))
        if arr is None:
            self.unattributed.append((c.line, c.text))
            return
        self.matrix(c, c.label, arr)

    def _found_anywhere(self, vec: list[Any]) -> bool:
        t, c = self.t, self.t.config
        if any(not isinstance(v, Num) and v != "-inf" for v in vec):
            return False
        candidates = [c.X[0], t.Q[0], t.K[0], t.V[0], t.O_concat[0], t.Y[0]]
        for h in range(c.n_heads):
            candidates += [t.Qh[0, h], t.Kh[0, h], t.Vh[0, h], t.QKt[0, h], t.S[0, h], t.A[0, h], t.E[0, h],
                           t.O[0, h], t.Kh[0, h].T, t.Vh[0, h].T]
        for M in candidates:
            for row in M:
                if len(row) == len(vec) and all(self.same(v, x) for v, x in zip(vec, row)):
                    return True
        return False

    # -------------------------------------------------------------- the other claim kinds

    def arith(self, c: Claim) -> None:
        self.n_claims += 1
        lhs, rhs = c.arith.result, c.rhs
        self.n_numbers += 1
        if not (lhs.lo <= rhs.hi + 1e-12 and rhs.lo <= lhs.hi + 1e-12):
            self.add(c.line, c.text, rhs, lhs.value, "arithmetic",
                     "arithmetic slip: the left side gives " + f"{lhs.value:.{max(rhs.decimals, 4)}g}",
                     rhs.decimals)
            return
        o = c.context.get("o")
        if not o:
            return
        h, r = o
        k = c.context.get("component", 0)
        t = self.t
        if not h or h > t.config.n_heads or r > t.config.T or k >= t.config.d_head:
            return
        exact = t.O[0, h - 1, r - 1, k]
        if not self.same(rhs, exact):
            # the right side is exactly what the printed (rounded) terms add up to
            cause = ("sum of rounded terms: the printed terms add up to this, the exact terms do not"
                     if abs(rhs.value - lhs.value) <= 1e-9 else None)
            self.add(c.line, f"o^({h}) row {r}, component {k + 1}: {c.text}", rhs, float(exact), "weighted_sum",
                     cause, rhs.decimals)
        # each product w x v against A and V
        A, V = t.A[0, h - 1, r - 1], t.Vh[0, h - 1, :, k]
        terms = c.arith.terms
        if len(terms) == len(A):
            for j, factors in enumerate(terms):
                if len(factors) == 2:
                    w, x = factors
                    self.n_numbers += 2
                    if not self.same(w, A[j]):
                        self.add(c.line, f"A^({h})[{r},{j + 1}] in {c.text}", w, float(A[j]), "weighted_sum",
                                 None, w.decimals)
                    if not self.same(x, V[j]):
                        self.add(c.line, f"V^({h})[{j + 1},{k + 1}] in {c.text}", x, float(V[j]), "weighted_sum",
                                 None, x.decimals)

    def weighted_sum(self, c: Claim) -> None:
        t = self.t
        h, r = (c.label.head or c.context.get("head")), c.label.row
        if not h or h > t.config.n_heads or r > t.config.T:
            self.unattributed.append((c.line, c.text))
            return
        self.n_claims += 1
        A, V = t.A[0, h - 1, r - 1], t.Vh[0, h - 1]
        for pos, (w, vec) in enumerate(c.terms):
            if w is None:
                continue
            j = (vec - 1) if isinstance(vec, int) else pos
            if j >= len(A):
                self.add(c.line, f"o^({h}) row {r}: term {pos + 1}", w, None, "weighted_sum",
                         f"wrong shape: only {len(A)} keys")
                continue
            self.n_numbers += 1
            if not self.same(w, A[j]):
                self.add(c.line, f"A^({h})[{r},{j + 1}] in o^({h}) row {r}", w, float(A[j]), "weighted_sum",
                         "transposed indices" if self.same(w, t.A[0, h - 1, j, r - 1]) else None, w.decimals)
            if isinstance(vec, list):
                for d, x in enumerate(vec):
                    self.n_numbers += 1
                    if d >= V.shape[1] or not self.same(x, V[j, d]):
                        self.add(c.line, f"v^({h}) row {j + 1} in o^({h}) row {r}", x,
                                 float(V[j, d]) if d < V.shape[1] else None, "weighted_sum", None)

    def shape(self, c: Claim) -> None:
        self.n_claims += 1
        cfg = self.t.config
        if c.operands:
            a, b = c.operands
            self.n_numbers += 1
            if a[1] != b[0] or c.shape != [a[0], b[1]]:
                self.add(c.line, c.text, str(c.shape), None, "shape",
                         f"wrong shape: {a} × {b} gives {[a[0], b[1]] if a[1] == b[0] else 'no product'}")
                return
            want = {"scores": ([cfg.T, cfg.d_head], [cfg.d_head, cfg.S]),
                    "weighted_sum": ([cfg.T, cfg.S], [cfg.S, cfg.d_head])}.get(c.context.get("step"))
            if want and (a, b) != want:
                self.add(c.line, c.text, f"{a} × {b}", f"{want[0]} × {want[1]}", c.context["step"],
                         "wrong shape")
            return
        for lab in c.labels:
            probe = Label(lab.name, 1 if lab.head == 0 else lab.head, lab.row, lab.transposed)
            arr = self.resolve(probe, c.context.get("head") or 1)
            if arr is None:
                continue
            self.n_numbers += 1
            if list(arr.shape) != c.shape:
                self.add(c.line, f"shape of {lab}", str(c.shape), str(list(arr.shape)),
                         step_of(lab), "wrong shape")

    def config_claim(self, c: Claim) -> None:
        cfg = self.t.config
        exact = {"B": cfg.B, "T": cfg.T, "S": cfg.S, "d_model": cfg.d_model, "n_heads": cfg.n_heads,
                 "d_head": cfg.d_head}[c.context["symbol"]]
        self.n_claims += 1
        self.n_numbers += 1
        if not self.same(c.rhs, exact):
            self.add(c.line, c.text, c.rhs, float(exact), "config", "wrong size", 0)

    def reading(self, c: Claim) -> None:
        lab = c.label
        i, j = c.context.get("i"), c.context.get("j")
        if lab is None or i is None:
            self.unattributed.append((c.line, c.text))
            return
        arr = self.resolve(Label(lab.name, lab.head or c.context.get("head")), c.context.get("head"))
        if arr is None or i > arr.shape[0] or j > arr.shape[1]:
            self.unattributed.append((c.line, c.text))
            return
        self.n_claims += 1
        self.n_numbers += 1
        if not self.same(c.rhs, arr[i - 1, j - 1]):
            self.add(c.line, f"{lab}[{i},{j}] ({c.text})", c.rhs, float(arr[i - 1, j - 1]), STEPS[lab.name],
                     self.cause(lab, Claim("matrix", c.line, c.text), arr, i - 1, j - 1, c.rhs), c.rhs.decimals)

    def scalar(self, c: Claim) -> None:
        arr = self.resolve(c.label, c.context.get("head"))
        if arr is None or arr.size != 1:
            return
        self.n_claims += 1
        self.n_numbers += 1
        exact = float(arr.reshape(-1)[0])
        if not self.same(c.rhs, exact):
            self.add(c.line, c.text, c.rhs, exact, STEPS.get(c.label.name, "softmax"), None, c.rhs.decimals)

    def matrix_claim(self, c: Claim) -> None:
        if c.label is None:
            self._lone_matrix(c)
            return
        arr = self.resolve(c.label, c.context.get("head"))
        if arr is None:
            self.unattributed.append((c.line, c.text[:80]))
        else:
            self.matrix(c, c.label, arr)

    def judge(self, claims: list[Claim]) -> None:
        handlers = {"matrix": self.matrix_claim, "vector": self.vector, "arith": self.arith,
                    "weighted_sum": self.weighted_sum, "shape": self.shape, "config": self.config_claim,
                    "reading": self.reading, "scalar": self.scalar}
        for c in claims:
            handlers[c.kind](c)

    def _lone_matrix(self, c: Claim) -> None:
        rows = c.cells
        if all(self._found_anywhere(r) for r in rows if all(x is not None for x in r)):
            self.n_claims += 1
            self.n_numbers += sum(len(r) for r in rows)
        else:
            self.unattributed.append((c.line, "unlabelled matrix"))


def step_of(lab: Label) -> str:
    if lab.name in ("Q", "K", "V") and lab.head:
        return "split"
    return STEPS.get(lab.name, "weights" if lab.name[:2] in ("W_", "b_") else "input")


def _positions(is_gap: list[bool], n: int) -> list[int | None] | None:
    """Indices of printed rows (or columns), counting those after an ellipsis from the end."""
    if True not in is_gap:
        return list(range(len(is_gap))) if len(is_gap) == n else None
    g = is_gap.index(True)
    after = len(is_gap) - g - 1
    if g + after > n:
        return None
    return list(range(g)) + [None] + list(range(n - after, n))


# ------------------------------------------------------------------ entry points

def check_document(text: str, config: Mapping[str, Any] | None = None) -> Report:
    """Check every numeric claim of a worked example; config is the input mapping, or None to infer it.

    >>> import mha
    >>> check_document(mha.explain(lang="en").to_markdown()).ok
    True
    """
    from ..trace import trace
    w = extract(text)
    if not any(c.kind == "matrix" for c in w.claims):
        raise MHAInputError("document: no matrices found, so there is nothing to check")
    if config is None:
        data, said = infer_config(w)
        said = ["inferred " + ", ".join(said)]
    else:
        data, said = dict(config), ["from --input"]
    t = trace(data)
    j = Judge(t)
    j.judge(w.claims)
    return Report(j.findings, j.n_claims, j.n_numbers, said, j.unattributed)


def main_from_args(args: Any) -> int:
    from ..inputs import UsageError, read_json_file
    try:
        with open(args.doc, "rb") as f:
            raw = f.read()
    except FileNotFoundError:
        raise UsageError(f"doc: no such file: {args.doc}") from None
    except OSError as e:
        raise UsageError(f"doc: cannot read {args.doc}: {e.strerror}") from None
    text = usable_text(raw, "doc")
    config = read_json_file(args.input) if args.input else None
    if config is not None and not isinstance(config, dict):
        raise UsageError("--input: the JSON file must hold an object")
    report = check_document(text, config)
    if args.format == "json":
        sys.stdout.write(json.dumps([asdict(f) for f in report.findings], ensure_ascii=False, indent=1) + "\n")
        print(report.summary(), file=sys.stderr)
    else:
        sys.stdout.write(report.to_text())
    return 0 if report.ok else 1
