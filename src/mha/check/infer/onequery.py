"""One query against a few keys, found by value: the start of seq2seq (Bahdanau / Luong) attention.

Such a document names its inputs in the words of recurrent networks, not of Q, K and V: a decoder state
(`s`, `s_t`, `dec_hidden_state`, `s_close_to_cat`) scored against encoder states (`h`, `H`, `annotations`,
`encoder_states`), the keys often written as the columns of a matrix (`np.transpose([...])`, `M^T`), and the
encoder states serving as the values as well.  No label says "query" or "key", so the start is proposed from
the shapes alone: a lone vector of d numbers and a matrix with d columns (or d rows).  Such a start is only a
candidate: the search keeps it when it explains printed numbers beyond its own givens (scores, weights, a
context vector) better than every other reading, and every object is still judged with its identity first.
"""

from __future__ import annotations

import numpy as np

from .candidates import Choice
from .prepare import Obj
from .starts import HIDE_OUTPUT, _key_layouts, _layout, _radius, given

# what a decoder state may be labelled: nothing, an input, a query, or s / s_t (the decoder state in Bahdanau's
# notation, which labels.py reads as the scores' letter)
_QUERY_NODES = ("X", "Q")
_KEY_NODES = ("X", "K", "V")
_MAX_MODES = 4
ONE_QUERY = "starts from one query against its keys"


def _plain(o: Obj) -> bool:
    return o.val is not None and o.slices == 1 and not o.a.lead and np.isfinite(o.val).all()


def _decoder_letter(label: str) -> bool:
    """`s`, `s_t`, `s_{t-1}`, `s_i`: the decoder state of seq2seq attention, not a score."""
    s = (label or "").replace("{", "").replace("}", "").replace(" ", "")
    return s in ("s", "s_t", "s_t-1", "s_i", "s_j", "s_0", "s_1")


def _query_like(o: Obj) -> bool:
    if not _plain(o) or o.val.shape[0] != 1 or not 2 <= o.val.shape[1] <= 64:
        return False
    if not o.refs:
        return True
    if _decoder_letter(o.a.label):
        return True
    return all(r.nodes[0] in _QUERY_NODES for r in o.refs)


def _keys_like(o: Obj) -> bool:
    if not _plain(o) or min(o.val.shape) < 2 or max(o.val.shape) > 64:
        return False
    return not o.refs or all(r.nodes[0] in _KEY_NODES for r in o.refs)


def one_query_modes(objs: list[Obj]) -> list[dict[str, Choice]]:
    """Q = one printed vector, K = the rows (or columns) of a printed matrix, V = the keys or a printed V."""
    if given(objs, "Q") and given(objs, "K"):
        return []                       # the document names its query and keys: the Q, K, V start reads them
    queries = [o for o in objs if _query_like(o)]
    matrices = [o for o in objs if _keys_like(o)]
    out: list[dict[str, Choice]] = []
    seen: set[tuple] = set()
    for q in queries:
        d = q.val.shape[1]
        for m in matrices:
            if m is q:
                continue
            for K, how, cost in _key_layouts(m.val, d):
                key = (q.val.tobytes(), K.tobytes(), K.shape)
                if K.shape[0] < 2 or key in seen or any(np.array_equal(q.val[0], k) for k in K) and K.shape[0] < 3:
                    continue
                seen.add(key)
                out.extend(_modes(objs, q, m, K, how, cost))
                if len(out) >= _MAX_MODES:
                    return out[:_MAX_MODES]
    return out


def _modes(objs: list[Obj], q: Obj, m: Obj, K: np.ndarray, how: str, cost: float) -> list[dict[str, Choice]]:
    values = [(V, v_objs, f"V {where}", 0.0) for V, v_objs, where in given(objs, "V")[:1]
              if V.shape[0] == K.shape[0] and not any(o is m for o in v_objs)]
    if not values:
        values = [(K, [], "V = K (the keys are the values)", 0.0),
                  (np.eye(K.shape[0]), None, "no V: the weights are the last step", 0.3)]
    out = []
    for V, v_objs, v_where, v_cost in values:
        used = [q, m] + (v_objs or [])
        label = f"{ONE_QUERY} (query at {q.a.place}; keys at {m.a.place}{how}; {v_where})"
        # a little dearer than Q, K and V named as such: only the values say which vector is the query
        mode = Choice("QKV", label, frozenset(o.a.id for o in used), 0.3 + cost + v_cost)
        dims = {"mode": mode, "Q": Choice(q.val.copy(), "", radius=_radius([q])),
                "K": Choice(K, "", radius=_layout(_radius([m]), how)),
                "V": Choice(V, "", radius=_radius(v_objs) if v_objs else None)}
        if v_objs is None:
            dims["hide"] = Choice(HIDE_OUTPUT, "")
        out.append(dims)
    return out

