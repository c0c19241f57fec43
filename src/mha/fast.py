"""Exact attention at speed: the numbers of `mha.core` without keeping any T x S matrix.

One kernel serves every size.  The work is cut into items (one sequence, a
group of query heads, a block of queries); each item walks its keys block by
block with an online softmax (running max m, running sum l, rescaled partial
output), as in Milakov & Gimelshein (2018), "Online normalizer calculation for
softmax", and FlashAttention (Dao et al., 2022).  A small problem is a single
item per worker whose one tile holds all its heads, queries and keys: a few
batched products over [heads, T, d] arrays and one softmax, no Python loop.

* Each tile is two BLAS products with one compiled pass between them
  (`mha.kernel.softmax_tile`, numba): masks, bias, ALiBi, row max, a
  vectorised exponential, row sums and the rescale of the running output in
  one sweep.  Below COMPILED_WORK multiply-adds, or where numba cannot be
  imported, NumPy's tiles (`mha.tiles`) do the softmax as NumPy passes.
* An item whose keys fit one tile (short T, no scan) is four calls on the
  compiled path (`_one_pass`): S by BLAS, `kernel.softmax_rows` (the
  exponentials and row sums), P V by BLAS into the output, `kernel.divide_rows`
  (the division by the row sums, and the check that the output is finite); no
  running state (ONE_PASS switches it off, for benchmarks/short_t.py).
* The items run on a team (`mha.team`): the calling thread plus one parked
  thread per further core, BLAS held to one thread meanwhile (two thread pools
  on two cores fight); the compiled pass releases the GIL.  numba's prange is
  not used: it can call BLAS only through SciPy.
* When the scores provably cannot overflow (|q_i| |k_j| scale + |bias| below a
  bound, by Cauchy-Schwarz), the max-shift is skipped: no row max and no
  rescale, the same softmax.
* A causal mask skips the key blocks above the diagonal and sweeps the
  triangle along it in thinner row slices; key lengths end the key walk.

Interfaces other modules rely on: `attention_heads(..., lse=)` and
`tiled_attention(..., return_lse=True)` give each row's log-sum-exp (natural
log, -inf for a row that sees no key); `kernel.softmax_tile` and
`kernel.exp2` are the compiled pass and its exponential (see mha.kernel);
`merge_tile`, `online_softmax_steps` and `check_block_size` live in
mha.online and are re-exported here.

How the items and tiles are sized (`plan`) was measured: benchmarks/cutover.py,
results in benchmarks/results/cutover-*.txt.

Dimension legend: B batch, H query heads, G key/value heads, T queries, S keys,
d query/key width per head, d_v value width per head; a tile is [heads, rows, keys].
"""

from __future__ import annotations

import math
import os
import sys
import threading
from dataclasses import dataclass
from functools import lru_cache
from typing import Any

import numpy as np

from .attention_args import surely_finite
from .online import Merged, check_block_size, merge_tile, online_softmax_steps  # noqa: F401  (re-exported)
from .team import Team, cores, team  # noqa: F401  (re-exported: mha.fast.team is the public handle)
from .tiles import NumpyTiles, _product, _scratch

_LOG2_E = 1.4426950408889634             # log2(e): e^s = 2^(s log2 e)

# Largest |score| (natural units) for which the exponentials can be summed without the max-shift: exp
# cannot overflow, and no row's largest term can underflow.  The key count and the values' size are
# taken off it at run time (l <= S e^bound, |acc| <= S e^bound max|v|, and e^-bound max|v| stays a
# normal number, so the products keep their precision relative to max|v|).
_NO_SHIFT_BOUND = {np.dtype(np.float32): 80.0, np.dtype(np.float64): 700.0}


def _headroom(dtype: np.dtype, n_keys: int, v_max: float) -> float:
    """How far scores may spread (natural units) for the exponentials of a row to be summed safely."""
    return _NO_SHIFT_BOUND[dtype] - math.log(max(n_keys, 1)) - (abs(math.log(v_max)) if v_max > 0 else 0.0)


# ------------------------------------------------------------------ the exponential

@lru_cache(maxsize=None)
def exponential(dtype: np.dtype) -> tuple[np.ufunc, float]:
    """The exponential to use and the factor that turns natural-log scores into its argument.

    NumPy's AVX-512 build (SVML) has an exp2 twice as fast as its exp; its AVX2
    build has a vectorised exp but a scalar exp2 (measured on an EPYC without
    AVX-512: exp 1.3 ns, exp2 2.5 ns per float32).  Both are within 1 ulp.
    """
    try:
        from numpy._core._multiarray_umath import __cpu_features__ as features
    except ImportError:  # pragma: no cover - NumPy 1.x
        try:
            from numpy.core._multiarray_umath import __cpu_features__ as features
        except ImportError:
            features = {}
    if features.get("AVX512_SKX") or features.get("X86_V4"):
        return np.exp2, _LOG2_E
    return np.exp, 1.0


# ------------------------------------------------------------------ the compiled pass

# Multiply-adds (B H T S (d + d_v), as ONE_THREAD_WORK) from which a call takes the compiled pass
# (`mha.kernel`, numba): below, the NumPy tiles are as fast and numba is not even imported, so the worked
# example, `mha explain` and `mha check` never load it (benchmarks/cutover.py).
COMPILED_WORK = 1 << 20
# An item whose keys fit one tile (no scan) takes `_Problem._one_pass` (S, one compiled softmax, P V) rather than
# the online state of `_compiled`; False restores the latter (benchmarks/short_t.py compares both)
ONE_PASS = True
_KERNEL: dict[str, Any] = {}


def numba_cache_dir() -> str:
    """Where numba keeps the compiled pass between runs: $NUMBA_CACHE_DIR if set, else mha/numba in the
    user's cache directory ($XDG_CACHE_HOME or ~/.cache; ~/Library/Caches on macOS; %LOCALAPPDATA% on
    Windows)."""
    if os.environ.get("NUMBA_CACHE_DIR"):
        return os.environ["NUMBA_CACHE_DIR"]
    if sys.platform == "win32":
        root = os.environ.get("LOCALAPPDATA") or os.path.join(os.path.expanduser("~"), "AppData", "Local")
    elif sys.platform == "darwin":
        root = os.path.join(os.path.expanduser("~"), "Library", "Caches")
    else:
        root = os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
    return os.path.join(root, "mha", "numba")


def compiled() -> Any:
    """The module of the compiled pass (`mha.kernel`), importing numba on first use, or None where numba
    cannot be imported (`compiled_missing()` says why); the NumPy tiles then do the work."""
    if "module" not in _KERNEL:
        with _KERNEL_LOCK:
            if "module" not in _KERNEL:
                # numba reads its cache directory once, when it is first imported; a user's setting wins
                if "numba" not in sys.modules and not os.environ.get("NUMBA_CACHE_DIR"):
                    os.environ["NUMBA_CACHE_DIR"] = numba_cache_dir()
                try:
                    from . import kernel
                except Exception as e:          # not installed, or an llvmlite that does not fit
                    _KERNEL.update(module=None, why=f"{e.__class__.__name__}: {e}")
                else:
                    _KERNEL.update(module=kernel, why="")
    return _KERNEL["module"]


def compiled_missing() -> str:
    """Why the compiled pass is not available ("" when it is)."""
    compiled()
    return _KERNEL["why"]


_KERNEL_LOCK = threading.Lock()


# ------------------------------------------------------------------ sizing the work

# Measured on 2 cores, one thread's CPU time per score (benchmarks/cutover.py, benchmarks/results/cutover-*.txt):
TILE_BYTES = 1 << 20         # a tile of scores: per-score costs are flat from ~256 KiB to ~2 MiB and rise beyond
KEY_BLOCK = 512              # keys per tile when a query block's keys do not fit one tile
SCAN_KEYS = 256              # from this many keys per query (on average) on, the inputs are scanned for the
                             # no-shift bound; below, each item takes its keys in one tile with one shift
SCAN_KEYS_COMPILED = 1024    # the same for the compiled pass, whose running max costs only ~0.15 ns per score:
                             # the scan's reads of q, k, v cost 0.23 ns per score at T = 256, 0.1 at 512, 0.05
                             # at 1024 (H = 12, d = 64, one core)
DIAGONAL_ROWS = 128          # causal / window: row slices for the band's edges


def causal_rows(T: int) -> int:
    """Causal query rows per item on the compiled one-tile pass: each computes its block's triangle in full
    (short blocks waste less at short T, long ones make larger products at long T).  Against 128 rows at
    every T, one core: T = 128 +22%, 256 +11%, 512 even, 1024 +5% (benchmarks/results/kernel6-busy.txt)."""
    return max(64, min(256, T // 4))
ONE_THREAD_WORK = 1 << 23    # multiply-adds below which one thread beats handing work to a second


@dataclass(frozen=True)
class Plan:
    """How a problem is cut: query heads per item, queries per item, keys per tile, threads."""

    heads: int
    rows: int
    keys: int
    workers: int
    scan: bool = True        # scan the inputs for the no-shift bound (else the max-shift everywhere)


def plan(B: int, H: int, G: int, T: int, S: int, d: int, d_v: int, *, causal: bool, window: int | None = None,
         itemsize: int = 4, block: int | tuple[int, int] | None = None, workers: int | None = None,
         compiled: bool = False) -> Plan:
    """Cut a problem into items of about TILE_BYTES of scores, enough of them to keep every worker busy.
    block (keys, or (queries, keys)) and workers override the measured choices; compiled: for the
    compiled pass (rather than NumPy's tiles)."""
    if window is None:
        seen = S // 2 if causal else S           # keys per query, on average
    else:
        seen = min(S, window if causal else 2 * window - 1)
    work = B * H * T * seen * (d + d_v)
    n = max(1, workers or (1 if work < ONE_THREAD_WORK else cores()))
    rep = H // G
    tile = max(1, TILE_BYTES // itemsize)
    if isinstance(block, tuple):
        return Plan(1, block[0], block[1], n)
    scan = block is not None or seen >= (SCAN_KEYS_COMPILED if compiled else SCAN_KEYS)
    keys = block or (S if S <= KEY_BLOCK else KEY_BLOCK)
    rows = max(1, min(T, tile // min(keys, S)))
    if (causal or window is not None) and not scan:
        # one tile per query block: short blocks skip more keys
        rows = min(rows, causal_rows(T) if compiled and window is None else DIAGONAL_ROWS)
    # heads per item: fill the tile, but leave at least two items per worker when there are enough heads
    heads = max(1, min(H, tile // (rows * min(keys, S))))
    blocks = -(-T // rows)
    while n > 1 and heads > 1 and B * -(-H // heads) * blocks < 2 * n:
        heads -= 1
    if n > 1:                                    # the same number of head groups, of even sizes (11 + 1 -> 6 + 6)
        heads = -(-H // -(-H // heads))
    if rep > 1:
        heads = math.gcd(heads, rep)             # a group of query heads shares one K/V head (GQA)
    return Plan(heads, rows, keys, n, scan)


# ------------------------------------------------------------------ the kernel

def attention_heads(q: np.ndarray, k: np.ndarray, v: np.ndarray, *, scale: float, causal: bool = False,
                    offset: int = 0, window: int | None = None, alibi: np.ndarray | None = None,
                    mask: np.ndarray | None = None, bias: np.ndarray | None = None,
                    key_lengths: np.ndarray | None = None, block: int | tuple[int, int] | None = None,
                    workers: int | None = None, out: np.ndarray | None = None, lse: np.ndarray | None = None,
                    pool: Team | None = None, force_shift: bool = False, check_inputs: bool = False) -> np.ndarray:
    """softmax(q k^T * scale + bias + ALiBi, masked) v per head, for validated arrays.

    q [B, H, T, d], k [B, G, S, d], v [B, G, S, d_v] with G dividing H: query
    head h reads key/value head h // (H // G) (grouped-query attention, without
    a copy of K or V; G = H is ordinary multi-head attention).  Any strides,
    broadcast axes included.  Query i sits at position p_i = i + offset among
    the keys: causal shows keys j <= p_i; window W shows p_i - W < j (and, without
    causal, j < p_i + W); alibi [H] adds -slope_h |p_i - j|.  Key blocks outside
    every row's band are skipped.  mask (bool, True = may attend) and bias
    broadcast to [B, H, T, S]; key_lengths [B] or [B, H].  out [B, H, T, d_v] is
    written in place if given (a view into the heads' concat, say); lse [B, H, T],
    if given, receives each row's log-sum-exp: ln sum_j e^(s_ij) over its visible
    scaled, biased scores, -inf for a row that sees no key.  Callers
    validate shapes (`mha.attention` does); the kernel raises NonFinite if an
    input it reads holds NaN or infinity, or if the output is not finite, so a
    return without force_shift is a finite output.  force_shift takes the
    max-shift everywhere (finite inputs too large for the no-shift bound) and
    leaves the check of the result to the caller.  check_inputs: q, k, v are
    unchecked for NaN and infinity (`mha.attention`): the items check their
    shares on every worker, in cache (`_inputs_finite`); NonFinite if not.
    """
    B, H, T, d = q.shape
    G, S, d_v = k.shape[1], k.shape[2], v.shape[3]
    dtype = np.result_type(q, k, v)
    if out is None:
        out = np.empty((B, H, T, d_v), dtype=dtype)
    kernel = compiled() if B * H * T * S * (d + d_v) >= COMPILED_WORK else None
    p = plan(B, H, G, T, S, d, d_v, causal=causal, window=window, itemsize=out.dtype.itemsize, block=block,
             workers=pool.n if pool is not None and workers is None else workers, compiled=kernel is not None)
    problem = _Problem(q, k, v, out, scale=scale, causal=causal, offset=offset, window=window, alibi=alibi,
                       mask=mask, bias=bias, key_lengths=key_lengths, plan=p, force_shift=force_shift, lse=lse,
                       kernel=kernel, check_inputs=check_inputs)
    (pool or team(p.workers)).run(problem.item, problem.items())
    if problem.nonfinite:                    # an item's output that its worker found not finite
        raise NonFinite
    return out


def tiled_attention(q: np.ndarray, k: np.ndarray, v: np.ndarray, *, scale: float, mask: np.ndarray | None = None,
                    causal: str = "none", key_lengths: np.ndarray | None = None, bias: np.ndarray | None = None,
                    window: int | None = None, alibi: np.ndarray | None = None, groups: int = 1,
                    block_size: int | tuple[int, int] | None = None, workers: int | None = None,
                    force_shift: bool = False, return_lse: bool = False, check_inputs: bool = False) -> Any:
    """`attention_heads` for validated q [..., T, d], k [..., S, d], v [..., S, d_v] with broadcasting
    leading axes, as `mha.attention` takes them; with return_lse, (out, lse [..., T]).

    The leading axes are brought to the kernel's [B, H] (the last leading axis
    is the heads' one) as views where NumPy can.  causal is "none", "top_left"
    or "bottom_right"; the query positions are offset by S - T unless top-left.
    groups > 1: k and v have H / groups heads on axis -3 (grouped-query
    attention).  alibi holds one slope per head of that axis.
    """
    T, S, d_v = q.shape[-2], k.shape[-2], v.shape[-1]
    kv_lead = k.shape[:-3] + (k.shape[-3] * groups,) if groups > 1 else k.shape[:-2]
    L = np.broadcast_shapes(q.shape[:-2], kv_lead, v.shape[:-3] + (v.shape[-3] * groups,) if groups > 1
                            else v.shape[:-2])
    B, H = (math.prod(L[:-1]), L[-1]) if L else (1, 1)
    G = H // groups

    def heads(x: np.ndarray | None, lead: tuple[int, ...], n: int, tail: tuple[int, ...]) -> np.ndarray | None:
        if x is None or x.shape == (B, n) + tail:
            return x
        return np.broadcast_to(x, lead + tail).reshape((B, n) + tail)

    kv_lead = (L[:-1] + (G,)) if L else ()
    lengths = None
    if key_lengths is not None:
        kl = np.asarray(key_lengths)
        lengths = np.broadcast_to(kl.reshape(kl.shape + (1,) * (len(L) - kl.ndim)), L).reshape(B, H)
    lse = np.empty((B, H, T), dtype=np.result_type(q, k, v)) if return_lse else None
    out = attention_heads(heads(q, L, H, q.shape[-2:]), heads(k, kv_lead, G, k.shape[-2:]),
                          heads(v, kv_lead, G, v.shape[-2:]), scale=scale, causal=causal != "none",
                          offset=0 if causal == "top_left" else S - T, window=window, alibi=alibi,
                          mask=heads(mask, L, H, (T, S)), bias=heads(bias, L, H, (T, S)), key_lengths=lengths,
                          block=block_size, workers=workers, force_shift=force_shift, lse=lse,
                          check_inputs=check_inputs)
    if return_lse:
        return out.reshape(L + (T, d_v)), lse.reshape(L + (T,))
    return out.reshape(L + (T, d_v))


class NonFinite(ArithmeticError):
    """An input holds NaN or infinity (or a value so large that its square overflows): the caller
    validates the inputs to say which, or reruns with force_shift=True if they were only large."""


_FAR = 1 << 62               # a key position no band reaches


class _Problem(NumpyTiles):
    """One call's arrays and settings; `item` computes one (sequence, head group, query block)."""

    def __init__(self, q, k, v, out, *, scale, causal, offset, window, alibi, mask, bias, key_lengths,
                 plan: Plan, force_shift: bool = False, lse: np.ndarray | None = None, kernel: Any = None,
                 check_inputs: bool = False):
        self.q, self.k, self.v, self.out, self.lse = q, k, v, out, lse
        B, H, T, d = q.shape
        self.B, self.H, self.T, self.S, self.d_v = B, H, T, k.shape[2], v.shape[3]
        self.rep = H // k.shape[1]
        self.dtype = out.dtype
        # the compiled pass takes scores in natural units (it folds log2 e into its shift); the NumPy tiles take
        # NumPy's fastest exponential, log2 e folded into the query scale where that is exp2
        self.kernel = kernel
        self.exp, factor = (np.exp, 1.0) if kernel is not None else exponential(self.dtype)
        self.log = np.log2 if self.exp is np.exp2 else np.log
        self.factor = self.dtype.type(factor)
        self.q_scale = self.dtype.type(scale * factor)     # scale and the exponential's base, folded into q
        self.scale = scale
        self.causal, self.offset, self.window = causal, offset, window
        # ALiBi slopes in the exponential's units
        self.slopes = None if alibi is None else (np.asarray(alibi, dtype=np.float64) * factor).astype(self.dtype)
        self.mask = None if mask is None else np.broadcast_to(mask, (B, H, T, self.S))
        self.bias = None if bias is None else np.broadcast_to(bias, (B, H, T, self.S))
        self.lengths = None                                                     # [B, H] keys per row, if padded
        if key_lengths is not None:
            kl = np.asarray(key_lengths)
            kl = np.broadcast_to(kl.reshape(kl.shape + (1,) * (2 - kl.ndim)), (B, H))   # [B] or [B, H]
            self.lengths = np.minimum(np.maximum(kl, 0), self.S)
        self.plan = plan
        # Without the scan every tile takes the max-shift (an item then usually holds all its keys in one
        # tile).  With it, heads whose scores are provably bounded skip the online max.  ALiBi's distances
        # make a row's largest score depend on the positions, so ALiBi always takes the max-shift.
        self.inputs_scanned = plan.scan and not force_shift
        self.out_finite = False      # proven by the scan (no score can overflow), else the output is checked
        self.nonfinite = False       # set by a worker whose item's output is not finite
        if self.inputs_scanned:
            self.shift = self._needs_shift(scale, bias)
            if self.slopes is not None:
                self.shift = np.ones((B, H), dtype=bool)
        else:
            self.shift = np.ones((B, H), dtype=bool)
        self.check_out = not force_shift and not self.out_finite
        # the scan (`_needs_shift`) read every input and raised NonFinite for NaN or infinity
        self.check_inputs = check_inputs and not self.inputs_scanned
        if kernel is not None:
            # keys j < stops[b, h] exist (padding), for the compiled pass
            self.stops = np.full((B, H), self.S, dtype=np.int64) if self.lengths is None else \
                np.ascontiguousarray(self.lengths, dtype=np.int64)
        elif not self.inputs_scanned:
            # for one tile's common shift: how far its scores may spread (in the exponential's units)
            v_max = max(float(v.max(initial=0)), -float(v.min(initial=0))) if v.size else 0.0
            self.spread = _headroom(self.dtype, self.S, v_max) * factor if math.isfinite(v_max) else -1.0

    def _needs_shift(self, scale: float, bias: np.ndarray | None) -> np.ndarray:
        """[B, H]: whether a head's scores might overflow exp or underflow a whole row, so that the
        max-shift is needed.  |s_ij| <= |scale| |q_i| |k_j| + max |bias| (Cauchy-Schwarz), with 1% for the
        norms' own rounding.  The norms read every input once, so they also reveal NaN and infinity."""
        q, k, v = self.q, self.k, self.v
        q2 = np.einsum("bhtd,bhtd->bht", q, q).max(axis=-1, initial=0)          # [B, H] largest |q_i|^2
        k2 = np.einsum("bgsd,bgsd->bgs", k, k).max(axis=-1, initial=0)          # [B, G]
        v2 = np.einsum("bgsd,bgsd->bgs", v, v).max(axis=-1, initial=0)          # [B, G] >= max |v_jc|^2
        if not (np.isfinite(q2).all() and np.isfinite(k2).all() and np.isfinite(v2).all()):
            raise NonFinite
        k2 = np.repeat(k2, self.rep, axis=1) if k2.shape[1] > 1 else k2
        bound = 1.01 * abs(scale) * np.sqrt(q2.astype(np.float64) * k2)          # [B, H]
        if bias is not None:                                                     # [..., T, S], before broadcasting
            largest = np.where(np.isfinite(bias), np.abs(bias), 0.0).max(axis=(-1, -2), initial=0.0)
            bound = bound + largest.reshape((1,) * (2 - largest.ndim) + largest.shape)
        limit = _headroom(self.dtype, self.S, math.sqrt(float(v2.max(initial=0))))
        # finite q, k, v and scores below half the largest float (the exponential's factor log2 e fits in
        # the margin): every P is finite, each output a weighted mean of finite values
        self.out_finite = bool((bound < 0.5 * float(np.finfo(self.dtype).max)).all())
        return np.broadcast_to(~(bound <= limit), (self.B, self.H))

    # the band of keys a query may see, from its position p_i = i + offset: [lo(i), hi(i)]
    def lo(self, i: int) -> int:
        return -_FAR if self.window is None else i + self.offset - self.window + 1

    def hi(self, i: int) -> int:
        if self.causal:
            return i + self.offset
        return _FAR if self.window is None else i + self.offset + self.window - 1

    def items(self) -> list[tuple]:
        """(cost, b, h0, h1, q0, q1, start, end) for every item, largest first; keys [start, end) are walked."""
        p, T = self.plan, self.T
        items = []
        for b in range(self.B):
            for h0 in range(0, self.H, p.heads):
                h1 = min(h0 + p.heads, self.H)
                longest = self.S if self.lengths is None else int(self.lengths[b, h0:h1].max())
                for q0 in range(0, T, p.rows):
                    q1 = min(q0 + p.rows, T)
                    start, end = max(0, self.lo(q0)), min(longest, self.hi(q1 - 1) + 1)
                    end = max(start, end)
                    items.append(((h1 - h0) * (end - start) * (q1 - q0), b, h0, h1, q0, q1, start, end))
        items.sort(reverse=True)
        return items

    def item(self, it: tuple) -> None:
        # inputs that overflow come back as NaN or infinity, which the caller turns into an error;
        # NumPy's floating-point state is per thread, so each worker sets it
        with np.errstate(over="ignore", invalid="ignore", divide="ignore"):
            if self.check_inputs and not self._inputs_finite(*it[1:6]):
                self.nonfinite = True
                return
            finite = self._item(*it[1:])
            # the item's output is checked by its worker while it is in cache, unless the scan proved it finite
            # (or the caller checks it, with force_shift): a pass over the whole output afterwards cost ~4% of
            # the call at T = 256 (one core, benchmarks/short_t.py).  The compiled path's last pass checks
            # what it writes (finite is then a bool), which spares even that pass.
            if self.check_out:
                if finite is None:
                    b, h0, h1, q0, q1 = it[1:6]
                    target = self.out[b, h0:h1, q0:q1]
                    finite = surely_finite(target) or bool(np.isfinite(target).all())
                if not finite:
                    self.nonfinite = True

    def _inputs_finite(self, b: int, h0: int, h1: int, q0: int, q1: int) -> bool:
        """Whether the item's query rows and, for the first item of each key/value head, all that head's keys
        and values are finite: each input value checked once, padding and masked keys included.  Three
        passes over the inputs before the work cost 9.6% of a one-core call at T = 128, 2.6% at 512."""
        ok = self._finite(self.q[b], h0, h1, q0, q1)
        if ok and q0 == 0 and h0 % self.rep == 0:
            g0, g1 = (h0 // self.rep, h0 // self.rep + 1) if self.rep > 1 else (h0, h1)
            ok = self._finite(self.k[b], g0, g1, 0, self.S) and self._finite(self.v[b], g0, g1, 0, self.S)
        return ok

    def _finite(self, x: np.ndarray, h0: int, h1: int, r0: int, r1: int) -> bool:
        if self.kernel is not None:
            return self.kernel.finite_rows(x, h0, h1, r0, r1)
        part = x[h0:h1, r0:r1]
        return surely_finite(part) or bool(np.isfinite(part).all())

    def _item(self, b: int, h0: int, h1: int, q0: int, q1: int, start: int, end: int) -> bool | None:
        """Compute one item into self.out; whether its output is finite where the path checked it, else None."""
        target = self.out[b, h0:h1, q0:q1]                               # [hg, R, d_v]
        lse = None if self.lse is None else self.lse[b, h0:h1, q0:q1]   # [hg, R]
        banded = self.causal or self.window is not None
        if end <= start:                                                 # no query of the item sees a key
            target[...] = 0
            if lse is not None:
                lse[...] = -np.inf
        elif self.kernel is not None and ONE_PASS and not self.plan.scan and \
                (not banded or q1 - q0 <= max(DIAGONAL_ROWS, causal_rows(self.T))):
            return self._one_pass(b, h0, h1, q0, q1, start, end, target, lse)
        elif self.kernel is not None:
            return self._compiled(b, h0, h1, q0, q1, start, end, target, lse)
        elif not self.plan.scan and end - start <= self.plan.keys and (not banded or q1 - q0 <= DIAGONAL_ROWS):
            self._one_tile(b, h0, h1, q0, q1, start, end, target, lse)
        else:
            self._walk(b, h0, h1, q0, q1, start, end, target, lse)

    def _tiles(self, q0: int, q1: int, start: int, end: int, bk: int) -> list[tuple[int, int, int, int]]:
        """The tiles (r0, r1, k0, k1) of an item, rows relative to q0, in walking order.  Keys every row of
        the item sees are swept with all its rows; the edges of the band (the causal diagonal, the window's
        far edge) in row slices, so that little is computed only to be masked.  Ending one key early on
        the causal diagonal keeps key blocks aligned with query blocks: one block per slice crosses it."""
        R = q1 - q0
        tiles = []

        def sweep(r0: int, r1: int, k_from: int, k_to: int) -> None:
            tiles.extend((r0, r1, k0, min(k0 + bk, k_to)) for k0 in range(k_from, k_to, bk))

        c0 = max(start, self.lo(q1 - 1))
        c1 = min(end, self.hi(q0) if self.causal else self.hi(q0) + 1)
        if c0 < c1:
            sweep(0, R, c0, c1)
        else:
            c0 = c1 = end
        step = DIAGONAL_ROWS if c0 > start or c1 < end else R        # thin slices only where there are edges
        for r0 in range(0, R, step):
            r1 = min(r0 + step, R)
            lo, hi = max(start, self.lo(q0 + r0)), min(end, self.hi(q0 + r1 - 1) + 1)
            if lo < min(c0, hi):
                sweep(r0, r1, lo, min(c0, hi))
            if max(c1, lo) < hi:
                sweep(r0, r1, max(c1, lo), hi)
        return tiles

    def _one_pass(self, b, h0, h1, q0, q1, start, end, target, lse) -> bool:
        """The item's keys in one tile on the compiled pass, four calls: S = Q K^T by BLAS, then
        `kernel.softmax_rows` (scale, masks, bias, ALiBi, row max, exponential, row sum, in place), then
        P V by BLAS into the output, then `kernel.divide_rows` (the division by the row sums, d_v values per
        row rather than P's n, and the check that the output is finite, returned).  At short T the
        running state of `_compiled` cost passes as large as the scores when T is close to d."""
        hg, R, n = h1 - h0, q1 - q0, end - start
        K, V = (self.k[b, h0 // self.rep], self.v[b, h0 // self.rep]) if self.rep > 1 else \
            (self.k[b, h0:h1], self.v[b, h0:h1])
        s = _scratch("s", hg * R * n, self.dtype).reshape(hg, R, n)
        m = _scratch("m", hg * R, self.dtype).reshape(hg, R)
        l = _scratch("l", hg * R, self.dtype).reshape(hg, R)
        _product(self.q[b, h0:h1, q0:q1], K[..., start:end, :].swapaxes(-1, -2), s)      # [hg, R, n]
        self.kernel.softmax_rows(
            s, self.scale, start - q0 - self.offset, self.causal, self.window or 0, self.stops[b, h0:h1] - start,
            None if self.mask is None else self.mask[b, h0:h1, q0:q1, start:end],
            None if self.bias is None else self.bias[b, h0:h1, q0:q1, start:end],
            None if self.slopes is None else self.slopes[h0:h1], m, l)
        _product(s, V[..., start:end, :], target)                                          # [hg, R, d_v]
        return self.kernel.divide_rows(self.out[b], h0, q0, l, m, lse)

    def _compiled(self, b, h0, h1, q0, q1, start, end, target, lse) -> bool:
        """The item on the compiled pass: per tile, Q K^T by BLAS, then `kernel.softmax_tile` (masks, bias,
        ALiBi, row max, exponential, row sums, the rescale of the running output), then P V by BLAS; the
        P V of a tile is added to the running output by the next tile's pass, or by `kernel.finish`, which
        also says whether the output is finite."""
        kern, dt, d_v = self.kernel, self.dtype, self.d_v
        hg, R = h1 - h0, q1 - q0
        shift = bool(self.shift[b, h0:h1].any())
        bk = min(self.plan.keys, end - start)
        if self.plan.scan is False and (not (self.causal or self.window is not None) or R <= DIAGONAL_ROWS):
            bk = end - start                                        # one tile of all its keys per item
        tiles = self._tiles(q0, q1, start, end, bk)
        Qs = np.multiply(self.q[b, h0:h1, q0:q1], self.q_scale,
                         out=_scratch("q", hg * R * self.q.shape[3], dt).reshape(hg, R, -1))
        K, V = (self.k[b, h0 // self.rep], self.v[b, h0 // self.rep]) if self.rep > 1 else \
            (self.k[b, h0:h1], self.v[b, h0:h1])
        m = _scratch("m", hg * R, dt).reshape(hg, R)
        m.fill(-np.inf if shift else 0)
        l = _scratch("l", hg * R, dt).reshape(hg, R)
        l.fill(0)
        pv = _scratch("pv", hg * R * d_v, dt).reshape(hg, R, d_v)
        acc = _scratch("acc", hg * R * d_v, dt).reshape(hg, R, d_v)
        acc.fill(0)
        s_flat = _scratch("s", hg * max((r1 - r0) * (k1 - k0) for r0, r1, k0, k1 in tiles), dt)
        stops = self.stops[b, h0:h1]
        slopes = None if self.slopes is None else self.slopes[h0:h1]
        window = self.window or 0
        pending = None                          # (r0, r1): rows whose P V sits in pv, not yet in acc
        for r0, r1, k0, k1 in tiles:
            s = s_flat[:hg * (r1 - r0) * (k1 - k0)].reshape(hg, r1 - r0, k1 - k0)
            _product(Qs[:, r0:r1], K[..., k0:k1, :].swapaxes(-1, -2), s)          # [hg, r, n]
            if pending is not None and pending != (r0, r1):
                acc[:, pending[0]:pending[1]] += pv[:, pending[0]:pending[1]]
                pending = None
            i0, i1 = q0 + r0, q0 + r1
            kern.softmax_tile(s, m, l, acc, pv, pending is not None, r0, k0, k0 - i0 - self.offset,
                              self.causal, window, stops,
                              None if self.mask is None else self.mask[b, h0:h1, i0:i1, k0:k1],
                              None if self.bias is None else self.bias[b, h0:h1, i0:i1, k0:k1], slopes, shift)
            _product(s, V[..., k0:k1, :], pv[:, r0:r1])                             # [hg, r, d_v]
            pending = (r0, r1)
        if pending is not None and pending != (0, R):
            acc[:, pending[0]:pending[1]] += pv[:, pending[0]:pending[1]]
            pending = None
        return kern.finish(acc, pv, pending is not None, l, m, target, lse)

# ------------------------------------------------------------------ counting

def layer_flops(B: int, T: int, S: int, d_model: int, H: int) -> int:
    """A layer's FLOPs as the benchmark counts them: 4 B H T S d_head for attention, 8 B T d_model^2 for
    the four projections (taken as T rows each)."""
    return 4 * B * H * T * S * (d_model // H) + 8 * B * T * d_model ** 2
