"""The printed shape of an attention module's output or weights, in a library demo on tensors of a size the code
states (`torch.Size([2, 5, 10])` after `out, w = mha(query, key, value)`; readers/torchshapes.py works out what they
must be).  The claim carries its own identity: the code names the tensor whose shape is printed."""

from __future__ import annotations

from dataclasses import dataclass

from ..objects import Hint
from ..report import Finding


@dataclass
class ModuleShapeClaim:
    hint: Hint


def module_shape_claims(hints: list[Hint]) -> list[ModuleShapeClaim]:
    return [ModuleShapeClaim(h) for h in hints if h.kind == "module_shape"]


class ModuleShapeJudging:
    """Judge methods for ModuleShapeClaim."""

    def judge_module_shape(self, c: ModuleShapeClaim) -> None:
        label, printed, expected = c.hint.value
        self.n_claims += 1
        self.n_numbers += len(printed)
        if list(printed) == list(expected):
            return
        shown = "[" + ", ".join(str(d) for d in expected) + "]"
        swapped = sorted(printed) == sorted(expected)
        name = label.rsplit(".", 1)[0] if label.endswith((".shape", ".size()")) else label
        self.add(Finding(c.hint.place.line, c.hint.place.cell, f"shape of {name}",
                         "[" + ", ".join(str(d) for d in printed) + "]", shown, shown, "output",
                         f"the tensors the code makes give {shown}" + (": two sizes swapped" if swapped else ""),
                         "wrong_shape"))
