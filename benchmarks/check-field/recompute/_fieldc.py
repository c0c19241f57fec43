"""fieldC's recompute scripts share fieldA's bookkeeping (recompute/_truth.py: where a printed number sits, whether
it is right, writing truth/<id>.json) instead of a second copy of it; the truth files are written under this folder's parent, and sources/<id>.json
is written by source() below."""
from __future__ import annotations

import json
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
import _truth  # noqa: E402

_truth.HERE = HERE          # Truth.write() puts truth/<id>.json under HERE.parent
Truth = _truth.Truth
rounds_to = _truth.rounds_to


def source(doc_id: str, **fields) -> None:
    """Write sources/<id>.json (all of fieldC's documents are dev: the held-out set was complete before fieldC)."""
    data = {"id": doc_id, **fields, "held_out": False}
    out = HERE.parent / "sources" / f"{doc_id}.json"
    out.write_text(json.dumps(data, indent=1, ensure_ascii=False) + "\n", encoding="utf-8")


def softmax(z):
    import numpy as np
    z = np.asarray(z, dtype=float)
    e = np.exp(z - z.max(axis=-1, keepdims=True))
    return e / e.sum(axis=-1, keepdims=True)
