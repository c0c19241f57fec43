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

import re

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
    return s in ("s", "s_t", "s_t-1", "s_i", "s_j") or bool(re.fullmatch(r"s_\d", s))


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
    # `encoder_outputs`, `encoder_states`: the states a decoder attends to, whatever "outputs" reads as elsewhere
    return not o.refs or all(r.nodes[0] in _KEY_NODES for r in o.refs) or bool(_ENCODER.search(o.a.label or ""))


_ENCODER = re.compile(r"encoder[_ ]?(?:outputs?|states?|hidden)|编码器(?:输出|状态)", re.I)


# an encoder state written one per token, `h_1 = [1, 0]`, `h_2 = [0, 1]` (labels.py reads h_i as a head's output)
_STATE = re.compile(r"([a-zA-Z])_?\{?(\d)\}?")


def _states(objs: list[Obj]) -> list[list[Obj]]:
    """Per-token states named by one letter and an index, h_1, h_2, h_3 (not q, k, v: those are Q, K, V's own),
    of one width, numbered from 0 or 1 without a gap: the keys of a decoder state, one row each."""
    groups: dict[str, dict[int, Obj]] = {}
    for o in objs:
        m = _STATE.fullmatch((o.a.label or "").replace(" ", ""))
        if m is None or m.group(1).lower() in "qkvs" or not _plain(o) or o.val.shape[0] != 1:
            continue
        if o.refs and not all(r.nodes[0] in ("O", "X", "K", "V") for r in o.refs):
            continue
        groups.setdefault(m.group(1), {}).setdefault(int(m.group(2)), o)
    out = []
    for by in groups.values():
        keys = sorted(by)
        if len(keys) >= 2 and keys == list(range(keys[0], keys[0] + len(keys))) and keys[0] in (0, 1) and \
                len({by[k].val.shape for k in keys}) == 1:
            out.append([by[k] for k in keys])
    return out


def one_query_modes(objs: list[Obj]) -> list[dict[str, Choice]]:
    """Q = one printed vector, K = the rows (or columns) of a printed matrix, or the states h_1, h_2, ... printed
    one by one; V = the keys or a printed V."""
    if given(objs, "Q") and given(objs, "K"):
        return []                       # the document names its query and keys: the Q, K, V start reads them
    # (the input of a softmax shown by example, "输入：[..]" over its "输出：[..]", is that example's, no query)
    queries = [o for o in objs if _query_like(o) and not o.a.example]
    matrices = [[o] for o in objs if _keys_like(o)] + _states(objs)
    out: list[dict[str, Choice]] = []
    seen: set[tuple] = set()
    for q in queries:
        d = q.val.shape[1]
        for ms in matrices:
            if any(m is q for m in ms):
                continue
            val = np.concatenate([m.val for m in ms], axis=0)
            for K, how, cost in _key_layouts(val, d):
                key = (q.val.tobytes(), K.tobytes(), K.shape)
                if K.shape[0] < 2 or key in seen or any(np.array_equal(q.val[0], k) for k in K) and K.shape[0] < 3:
                    continue
                seen.add(key)
                out.extend(_modes(objs, q, ms, K, how, cost))
                if len(out) >= _MAX_MODES:
                    return out[:_MAX_MODES]
    return out


def _modes(objs: list[Obj], q: Obj, ms: list[Obj], K: np.ndarray, how: str, cost: float) -> list[dict[str, Choice]]:
    values = [(V, v_objs, f"V {where}", 0.0) for V, v_objs, where in given(objs, "V")[:1]
              if V.shape[0] == K.shape[0] and not any(o is m for o in v_objs for m in ms)]
    if not values:
        values = [(K, [], "V = K (the keys are the values)", 0.0),
                  (np.eye(K.shape[0]), None, "no V: the weights are the last step", 0.3)]
    out = []
    for V, v_objs, v_where, v_cost in values:
        used = [q, *ms] + (v_objs or [])
        label = f"{ONE_QUERY} (query at {q.a.place}; keys at {ms[0].a.place}{how}; {v_where})"
        # a little dearer than Q, K and V named as such: only the values say which vector is the query
        mode = Choice("QKV", label, frozenset(o.a.id for o in used), 0.3 + cost + v_cost)
        dims = {"mode": mode, "Q": Choice(q.val.copy(), "", radius=_radius([q])),
                "K": Choice(K, "", radius=_layout(_radius(ms), how)),
                "V": Choice(V, "", radius=_radius(v_objs) if v_objs else None)}
        if _decoder_letter(q.a.label) or len(ms) > 1:
            # a decoder state `s_t` or encoder states `h_1, h_2, ...`: seq2seq attention, whose dot-product score is
            # not scaled; the climb starts there and moves to 1/√d only where that explains more
            dims["scale"] = Choice("none", "none (unscaled)", frozenset(), 0.0)
        if v_objs is None:
            dims["hide"] = Choice(HIDE_OUTPUT, "")
        out.append(dims)
    return out

