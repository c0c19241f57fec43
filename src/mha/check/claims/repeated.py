"""The same printout, printed again: notebooks re-run a cell (after moving a model to the GPU, after adding a
buffer), and a batch built with `torch.stack((x, x))` prints one block per copy.  Blocks that agree digit for
digit everywhere but one entry are one quantity printed several times; where at least two copies agree on that
entry and one differs, the one that differs is a slip, whatever the configuration (seeded weights that are never
printed included).

Identity comes from the other entries, not from the one judged: every other entry of the block must be the same
text in every copy, at least eight entries with three or more decimals (random tensors and masks do not agree so),
and the copies that outvote it must agree with each other on every entry.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from ..infer.prepare import Obj
from ..labels import STEP
from ..report import Finding

MIN_ENTRIES = 8          # a block this small could repeat by chance (0/1 masks, one-hot rows)
MIN_DECIMALS = 3


@dataclass
class RepeatedClaim:
    obj: Obj             # the object holding the differing block
    block: int           # which block of its rows (one per batch entry or slice)
    i: int               # the row within the block
    j: int               # the column
    agree: int           # how many other copies outvote it
    num: object          # the entry as printed here
    want: object         # the entry as the other copies print it


def _blocks(o: Obj) -> list[list[list]]:
    """The printed rows of an object cut into its 2-D blocks (one per slice), each a list of rows of Nums."""
    rows = o.a.rows
    if o.val is None or any(r is None for r in rows) or len(rows) != o.val.shape[0] or o.slices < 1:
        return []
    n = len(rows) // o.slices
    if n * o.slices != len(rows) or len({len(r) for r in rows}) != 1:
        return []
    return [rows[k * n:(k + 1) * n] for k in range(o.slices)]


def _texts(block: list[list]) -> tuple[tuple[str, ...], ...]:
    """The entries as printed, a sign before them dropped where it changes nothing (`+0.5`; `-0.` is 0.)."""
    return tuple(tuple(c.text.lstrip("+-−" if c.value == 0 else "+") for c in r) for r in block)


def _fine(block: list[list]) -> bool:
    nums = [c for r in block for c in r]
    return len(nums) >= MIN_ENTRIES and \
        sum((c.decimals or 0) >= MIN_DECIMALS and math.isfinite(c.value) and c.value != round(c.value)
            for c in nums) >= MIN_ENTRIES


def repeated_claims(objs: list[Obj]) -> list[RepeatedClaim]:
    blocks = [(o, k, b, _texts(b)) for o in objs for k, b in enumerate(_blocks(o)) if _fine(b)]
    out = []
    for o, k, b, t in blocks:
        shape = (len(t), len(t[0]))
        others = [(v, u) for p, m, v, u in blocks if (p is not o or m != k) and (len(u), len(u[0])) == shape]
        diffs = [[(i, j) for i in range(shape[0]) for j in range(shape[1]) if u[i][j] != t[i][j]] for _, u in others]
        near = [(v, u, d) for (v, u), d in zip(others, diffs) if len(d) == 1]
        if not near or any(len(d) == 0 for d in diffs):
            continue        # the same as another copy, or alone: nothing to say
        i, j = near[0][2][0]
        voters = [(v, u) for v, u, d in near if d[0] == (i, j)]
        # the copies that outvote it agree with each other on every entry
        if len(voters) >= 2 and all(u == voters[0][1] for _, u in voters):
            out.append(RepeatedClaim(o, k, i, j, len(voters), b[i][j], voters[0][0][i][j]))
    return out


class RepeatedJudging:
    """Mixin for Judge: a copy of a printout that differs from the others in one entry."""

    def judge_repeated(self, c: RepeatedClaim) -> None:
        self.n_claims += 1
        num, want = c.num, c.want
        row = c.block * (len(c.obj.a.rows) // c.obj.slices) + c.i
        # the step its label names (out, context_vecs, attn_weights); a printout that names nothing is an output
        nodes = c.obj.ref.nodes if c.obj.ref is not None and c.obj.ref.nodes else ("Y",)
        step = STEP.get(nodes[0], "output")
        self.add(Finding(num.line or c.obj.a.row_line(row), c.obj.a.place.cell,
                         f"[{c.i + 1},{c.j + 1}] of a printout repeated {c.agree + 1} times", num.text,
                         want.value, want.text, step,
                         f"the {c.agree} other copies of the same printout read {want.text}", "wrong_value", "error"))
