"""Attention with the sequence split over P devices: who holds which rows, and one device's step of the ring.

Ring attention (Liu et al., 2023, "Ring Attention with Blockwise Transformers"):
device p keeps its block of queries and, at each of P steps, the key/value block
of device (p - s) mod P; it computes the tile of scores between the two, merges
the tile's softmax state (m, l, acc) into its running one with the fast path's
`merge_tile`, and passes the K/V block on to device p + 1.  After P steps every
device has seen every key, and its rows of O are acc / l.

This module is the NumPy half, shared by the distributed run (`mha.ring`, over
torch.distributed) and by the ring simulated in one process (`simulate`, which
the explanation shows): both call `merge_block`, so their numbers are the same.

Layouts.  Contiguous: device p holds rows [start_p, start_p + n_p), the first
T mod P devices one row more.  Zigzag (for causal attention): the sequence is
cut into 2P chunks, the first T mod 2P of them one row longer, and device p
holds chunks p and 2P - 1 - p, an early one and a late one, so every device
has about the same number of visible (query, key) pairs at every step.

Dimension legend: B batch, H query heads, G key/value heads (G divides H), T the
whole sequence, R a device's rows, n the rows of the K/V block it holds, d_k, d_v.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import cached_property
from typing import Any

import numpy as np

from .fast import Merged, merge_tile
from .inputs import MHAInputError

# A tile is walked in sub-tiles of at most this many scores (B H rows keys), so that a device's memory stays
# O(T/P): its rows, two K/V blocks and its state, never an n x n tile.  4 MiB of float64 scores.
SUB_TILE_SCORES = 1 << 19
SUB_TILE_KEYS = 512


# ------------------------------------------------------------------ who holds which rows

@dataclass(frozen=True)
class Layout:
    """Which rows of a sequence of T tokens each of P devices holds.

    >>> Layout(7, 3).rows()                      # 7 = 3 + 2 + 2: device 1 holds one row more
    [3, 2, 2]
    >>> Layout(8, 2, zigzag=True).chunks(0)      # chunks 1 and 4 of 4: an early block and a late one
    ((0, 2), (6, 8))
    """

    T: int
    P: int
    zigzag: bool = False

    def __post_init__(self) -> None:
        for name, value, low in (("T", self.T, 0), ("P", self.P, 1)):
            if isinstance(value, bool) or not isinstance(value, (int, np.integer)) or value < low:
                raise MHAInputError(f"{name}: expected a whole number >= {low}, got {value!r}")

    @cached_property
    def _chunks(self) -> tuple[tuple[tuple[int, int], ...], ...]:
        pieces = 2 * self.P if self.zigzag else self.P
        sizes = [self.T // pieces + (c < self.T % pieces) for c in range(pieces)]
        starts = np.concatenate([[0], np.cumsum(sizes)]).tolist()
        span = [(starts[c], starts[c + 1]) for c in range(pieces)]
        if not self.zigzag:
            return tuple((span[p],) for p in range(self.P))
        return tuple((span[p], span[2 * self.P - 1 - p]) for p in range(self.P))

    def chunks(self, p: int) -> tuple[tuple[int, int], ...]:
        """Device p's runs of positions [start, stop), in the order its rows are stored."""
        return self._chunks[p]

    def rows(self, p: int | None = None) -> Any:
        """How many rows device p holds (all devices' counts when p is None)."""
        if p is None:
            return [self.rows(q) for q in range(self.P)]
        return sum(b - a for a, b in self.chunks(p))

    def positions(self, p: int) -> np.ndarray:
        """The positions of device p's rows in the whole sequence, in its order."""
        return np.concatenate([np.arange(a, b) for a, b in self.chunks(p)]).astype(np.int64)

    def take(self, x: np.ndarray, p: int, axis: int = -2) -> np.ndarray:
        """Device p's rows of a whole-sequence array (rows along axis)."""
        return np.take(x, self.positions(p), axis=axis)

    def join(self, parts: list[np.ndarray], axis: int = -2) -> np.ndarray:
        """The whole-sequence array from every device's rows: the inverse of `take`."""
        order = np.argsort(np.concatenate([self.positions(p) for p in range(self.P)]), kind="stable")
        return np.take(np.concatenate(parts, axis=axis), order, axis=axis)

    def owner(self, p: int, s: int) -> int:
        """The device whose K/V block device p holds at step s (0-based): blocks travel to p + 1."""
        return (p - s) % self.P


# ------------------------------------------------------------------ one tile and one step

def tile_state(q: np.ndarray, k: np.ndarray, v: np.ndarray, *, scale: float,
               visible: np.ndarray | None = None) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """The softmax state (m, l, acc) of one tile of scores s = q k^T scale, -inf where not visible.

    q [..., r, d_k], k [..., n, d_k], v [..., n, d_v] (leading axes broadcast);
    visible bool [..., r, n] or None.  m [..., r] is each row's max over the tile
    (-inf for a row that sees none of its keys), l = sum_j e^(s_j - m), acc =
    sum_j e^(s_j - m) v_j: what `merge_tile` adds to a running state.

    >>> m, l, acc = tile_state(np.array([[1.0, 0.0]]), np.eye(2), np.array([[1.0], [0.0]]), scale=1.0)
    >>> m, l.round(4), acc.round(4)
    (array([1.]), array([1.3679]), array([[1.]]))
    """
    s = q @ k.swapaxes(-1, -2)                                           # [..., r, n]
    s *= s.dtype.type(scale)
    if visible is not None:
        s = np.where(visible, s, -np.inf)
    m = s.max(axis=-1)                                                   # [..., r]
    s -= np.where(m == -np.inf, 0, m)[..., None]                         # a row with no key: e^-inf = 0
    np.exp(s, out=s)
    return m, s.sum(axis=-1), s @ v


@dataclass
class State:
    """A device's running softmax state over the keys seen so far: m, l [B, H, R], acc [B, H, R, d_v]."""

    m: np.ndarray
    l: np.ndarray
    acc: np.ndarray

    @classmethod
    def empty(cls, B: int, H: int, R: int, d_v: int, dtype: Any) -> State:
        return cls(np.full((B, H, R), -np.inf, dtype), np.zeros((B, H, R), dtype), np.zeros((B, H, R, d_v), dtype))

    def finish(self, in_place: bool = False) -> tuple[np.ndarray, np.ndarray]:
        """O = acc / l [B, H, R, d_v] and the log-sum-exp m + log l [B, H, R]; a row that saw no key gives 0 and -inf.
        in_place divides acc itself (one array fewer; the state is spent)."""
        seen = self.l > 0
        O = np.divide(self.acc, np.where(seen, self.l, np.inf)[..., None], out=self.acc if in_place else None)
        with np.errstate(divide="ignore"):
            lse = np.where(seen, self.m + np.log(np.where(seen, self.l, 1)), -np.inf)
        return O, lse.astype(self.m.dtype)


@dataclass(frozen=True)
class Merge:
    """One merge of a step: which rows and keys (positions in the sequence), the tile's state and the result."""

    rows: tuple[int, int]          # local rows [r0, r1) of the device
    q_pos: tuple[int, int]         # their positions [i0, i1)
    k_pos: tuple[int, int]         # the keys' positions [j0, j1)
    tile: tuple[np.ndarray, np.ndarray, np.ndarray]    # (m_t, l_t, acc_t)
    old: tuple[np.ndarray, np.ndarray, np.ndarray]     # (m, l, acc) before
    merged: Merged


@dataclass
class Step:
    """What one device did at one step: whose block it held, the scores it computed, and its merges."""

    owner: int
    scores: int = 0                # visible (sequence, query, key) triples of the tile, per head
    computed: int = 0              # scores evaluated (sub-tiles that cross the diagonal include masked ones)
    merges: list[Merge] = field(default_factory=list)


def merge_block(state: State, q: np.ndarray, q_chunks: tuple[tuple[int, int], ...], k: np.ndarray, v: np.ndarray,
                k_chunks: tuple[tuple[int, int], ...], *, scale: float, causal: bool = False,
                key_lengths: np.ndarray | None = None, block: tuple[int, int] | None = None,
                record: bool = False) -> Step:
    """Merge the tile of a device's queries against one K/V block into its state, sub-tile by sub-tile.

    q [B, H, R, d_k] holds the rows at q_chunks' positions, k [B, G, n, d_k] and
    v [B, G, n, d_v] those at k_chunks'.  causal: query i sees keys j <= i; key
    j of sequence b is seen only if j < key_lengths[b].  Chunk pairs that no query
    sees (above the diagonal, or past every key length) are skipped.  block
    (rows, keys) overrides the sub-tile size; record keeps every merge.
    """
    B, H, R, _ = q.shape
    G = k.shape[1]
    rep = H // G
    longest = None if key_lengths is None else int(np.max(key_lengths))
    step = Step(owner=-1)
    keys_per = block[1] if block else SUB_TILE_KEYS
    local = 0
    q_runs = []
    for a, b in q_chunks:
        q_runs.append((local, a, b))
        local += b - a
    k_local = 0
    for ka, kb in k_chunks:
        for r_local, qa, qb in q_runs:
            if qb == qa or kb == ka:
                continue
            k_end = kb if not causal else min(kb, qb)               # keys past the last query: none visible
            if longest is not None:
                k_end = min(k_end, longest)
            if k_end <= ka:
                continue                                            # the whole chunk pair is masked: skipped
            n_keys = min(keys_per, k_end - ka)
            rows_per = block[0] if block else max(1, SUB_TILE_SCORES // (B * H * n_keys))
            for j0 in range(ka, k_end, n_keys):
                j1 = min(j0 + n_keys, k_end)
                for i0 in range(max(qa, j0) if causal else qa, qb, rows_per):   # rows before j0 see no key
                    i1 = min(i0 + rows_per, qb)
                    _merge_sub_tile(state, step, q, k, v, rep, scale, causal, key_lengths, record,
                                    rows=(r_local + i0 - qa, r_local + i1 - qa), q_pos=(i0, i1),
                                    keys=(k_local + j0 - ka, k_local + j1 - ka), k_pos=(j0, j1))
        k_local += kb - ka
    return step


def _merge_sub_tile(state: State, step: Step, q: np.ndarray, k: np.ndarray, v: np.ndarray, rep: int, scale: float,
                    causal: bool, key_lengths: np.ndarray | None, record: bool, *, rows: tuple[int, int],
                    q_pos: tuple[int, int], keys: tuple[int, int], k_pos: tuple[int, int]) -> None:
    B, H = q.shape[:2]
    G = k.shape[1]
    (r0, r1), (i0, i1), (c0, c1), (j0, j1) = rows, q_pos, keys, k_pos
    visible = None
    if causal and j1 - 1 > i0:                                        # the sub-tile crosses the diagonal
        visible = (np.arange(j0, j1)[None, :] <= np.arange(i0, i1)[:, None])[None, None, None]
    if key_lengths is not None and int(np.min(key_lengths)) < j1:    # padding inside this sub-tile
        pad = (np.arange(j0, j1) < np.asarray(key_lengths)[:, None])[:, None, None, None, :]   # [B, 1, 1, 1, n]
        visible = pad if visible is None else visible & pad
    qs = q[:, :, r0:r1].reshape(B, G, rep, r1 - r0, -1)                 # query heads grouped by K/V head
    ks, vs = k[:, :, None, c0:c1], v[:, :, None, c0:c1]                 # [B, G, 1, n, d]
    m_t, l_t, acc_t = (x.reshape((B, H) + x.shape[3:]) for x in tile_state(qs, ks, vs, scale=scale, visible=visible))
    old = (state.m[:, :, r0:r1], state.l[:, :, r0:r1], state.acc[:, :, r0:r1])
    merged = merge_tile(*old, m_t, l_t, acc_t)
    if record:
        step.merges.append(Merge((r0, r1), q_pos, k_pos, (m_t, l_t, acc_t), tuple(x.copy() for x in old), merged))
    state.m[:, :, r0:r1], state.l[:, :, r0:r1], state.acc[:, :, r0:r1] = merged.m, merged.l, merged.acc
    tile = B * (i1 - i0) * (j1 - j0)                                     # (sequence, query, key) triples, per head
    step.scores += tile if visible is None else int(np.broadcast_to(visible, (B, 1, 1, i1 - i0, j1 - j0)).sum())
    step.computed += tile


# ------------------------------------------------------------------ the ring in one process

@dataclass(frozen=True)
class Ring:
    """A ring run: the layout, steps[s][p] (what device p did at step s), and each device's O and log-sum-exp."""

    layout: Layout
    steps: list[list[Step]]
    O: list[np.ndarray]            # per device [B, H, R_p, d_v]
    lse: list[np.ndarray]          # per device [B, H, R_p]


def check_qkv(q: Any, k: Any, v: Any, rows: str = "T") -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """q [B, H, n, d_k], k [B, G, n, d_k], v [B, G, n, d_v] (3-D: one sequence) as float arrays of one dtype, G
    dividing H; an MHAInputError names the argument and the shapes otherwise."""
    arrays = []
    for name, x in (("q", q), ("k", k), ("v", v)):
        x = np.asarray(x)
        if x.ndim == 3:
            x = x[None]
        if x.ndim != 4 or x.dtype.kind not in "fiu":
            raise MHAInputError(f"{name}: expected a real array [B, heads, {rows}, width] or [heads, {rows}, width], "
                                f"got shape {list(np.shape(x))} of {x.dtype}")
        arrays.append(x)
    q, k, v = arrays
    dtype = np.result_type(q, k, v, np.float32)
    if dtype not in (np.float32, np.float64):
        dtype = np.dtype(np.float64)
    q, k, v = (x.astype(dtype, copy=False) for x in (q, k, v))
    (B, H, n, d_k), (Bk, G, nk, dk2), (Bv, Gv, nv, _) = q.shape, k.shape, v.shape
    if (Bk, G, nk, dk2) != (B, k.shape[1], n, d_k) or (Bv, Gv, nv) != (B, G, n):
        raise MHAInputError(f"q, k, v: expected q [B, H, {rows}, d_k], k [B, G, {rows}, d_k], v [B, G, {rows}, d_v] "
                            f"with the same B, {rows} and d_k, got {list(q.shape)}, {list(k.shape)}, {list(v.shape)}")
    if G == 0 or H % G:
        raise MHAInputError(f"k: its {G} key/value heads must divide the {H} query heads of q "
                            f"(q {list(q.shape)}, k {list(k.shape)})")
    return q, k, v


def check_key_lengths(key_lengths: Any, B: int, T: int) -> np.ndarray | None:
    """None, or [B] whole numbers from 0 to T (padding: key j of sequence b is seen only if j < key_lengths[b])."""
    if key_lengths is None:
        return None
    kl = np.asarray(key_lengths)
    if kl.ndim == 0:
        kl = np.full(B, kl)
    if kl.shape != (B,) or kl.dtype.kind not in "iu" or (kl < 0).any() or (kl > T).any():
        raise MHAInputError(f"key_lengths: expected {B} whole numbers from 0 to T = {T}, got {kl.tolist()}")
    return kl.astype(np.int64)


def simulate(q: Any, k: Any, v: Any, P: int, *, causal: bool = False, zigzag: bool = False,
             scale: float | None = None, key_lengths: Any = None, block: tuple[int, int] | None = None,
             record: bool = True) -> Ring:
    """The ring of P devices run in one process, with the same steps and merges as `mha.ring`.

    q [B, H, T, d_k], k [B, G, T, d_k], v [B, G, T, d_v] are whole sequences
    (3-D: one sequence); each device takes its rows with the layout.  scale
    defaults to 1/sqrt(d_k).

    >>> x = np.array([[[1., 0.], [0., 1.], [1., 1.]]])   # head 1 of the worked example: Q = K = V
    >>> ring = simulate(x, x, x, 3)
    >>> np.concatenate(ring.O, axis=-2)[0, 0].round(4)
    array([[0.8022, 0.5989],
           [0.5989, 0.8022],
           [0.7517, 0.7517]])
    """
    q, k, v = check_qkv(q, k, v)
    B, H, T, d_k = q.shape
    lay = Layout(T, P, zigzag)
    kl = check_key_lengths(key_lengths, B, T)
    scale = 1 / np.sqrt(d_k) if scale is None else float(scale)
    Q = [lay.take(q, p) for p in range(P)]
    K = [lay.take(k, p) for p in range(P)]
    V = [lay.take(v, p) for p in range(P)]
    states = [State.empty(B, H, lay.rows(p), v.shape[3], q.dtype) for p in range(P)]
    steps = []
    for s in range(P):
        row = []
        for p in range(P):
            o = lay.owner(p, s)
            st = merge_block(states[p], Q[p], lay.chunks(p), K[o], V[o], lay.chunks(o), scale=scale, causal=causal,
                             key_lengths=kl, block=block, record=record)
            st.owner = o
            row.append(st)
        steps.append(row)
    done = [st.finish() for st in states]
    return Ring(lay, steps, [O for O, _ in done], [lse for _, lse in done])


@dataclass(frozen=True)
class Message:
    """One transfer: after step `step` (0-based) device `sender` passes the K/V block of `owner` to `receiver`."""

    step: int
    sender: int
    receiver: int
    owner: int
    rows: int
    bytes: int


def messages(lay: Layout, B: int, G: int, d_k: int, d_v: int, itemsize: int) -> list[Message]:
    """Every transfer of the ring: P - 1 rounds, each device sending the block it holds to the next one."""
    out = []
    for s in range(lay.P - 1):
        for p in range(lay.P):
            o = lay.owner(p, s)
            n = lay.rows(o)
            out.append(Message(s, p, (p + 1) % lay.P, o, n, n * B * G * (d_k + d_v) * itemsize))
    return out


def visible_pairs(lay: Layout, causal: bool) -> np.ndarray:
    """[P steps, P devices]: the (query, key) pairs device p's tile holds at step s that a query sees (per head and
    sequence).  Counted from the positions alone: the work of each step, for the load-balance argument.

    >>> visible_pairs(Layout(8, 2), causal=True).tolist()      # step 2: device 2 sees all of block 1, device 1 none
    [[10, 10], [0, 16]]
    >>> visible_pairs(Layout(8, 2, zigzag=True), causal=True).tolist()     # zigzag: 8 and 8
    [[10, 10], [8, 8]]
    """
    out = np.zeros((lay.P, lay.P), dtype=np.int64)
    for s in range(lay.P):
        for p in range(lay.P):
            for qa, qb in lay.chunks(p):
                i = np.arange(qa, qb)
                for ka, kb in lay.chunks(lay.owner(p, s)):
                    out[s, p] += (np.clip(np.minimum(kb, i + 1) - ka, 0, None).sum() if causal
                                  else (qb - qa) * (kb - ka))
    return out
