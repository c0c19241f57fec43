"""An entry named the way code indexes it, after a LaTeX name: `dO_{\\text{concat}}[1,1] = 0 \\times 1 + …`.  The
statements read a bracket right after a name as a printed vector (`scores [0.2, 0.8]`); after a subscripted name
and before arithmetic, a pair of small whole numbers is the entry's index, and becomes part of the label."""

from __future__ import annotations

from ..objects import ArrayPart, Document, ExprPart, LabelPart


def index_brackets(doc: Document) -> None:
    """Turn `NAME_{...}` + `[i, j]` + arithmetic into the label `NAME_{...}[i,j]` (the array read there dropped)."""
    dropped = set()
    for c in doc.chains:
        for k in range(1, len(c.parts) - 1):
            name, idx, then = c.parts[k - 1], c.parts[k], c.parts[k + 1]
            if not (isinstance(name, LabelPart) and isinstance(idx, ArrayPart) and isinstance(then, ExprPart)):
                continue
            a = idx.array
            cells = a.rows[0] if a.n_rows == 1 and a.rows[0] else None
            if not name.text.rstrip().endswith(("}", ")")) or cells is None or not 1 <= len(cells) <= 2 or \
                    any(x is None or x.decimals is not None or not 1 <= x.value <= 99 for x in cells):
                continue
            c.parts[k - 1:k + 1] = [LabelPart(name.text + "[" + ",".join(str(int(x.value)) for x in cells) + "]")]
            c.rels[k - 1:k] = []
            dropped.add(id(a))
            break
    if dropped:
        doc.set_arrays([a for a in doc.arrays if id(a) not in dropped])
