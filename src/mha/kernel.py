"""The tile's softmax as one compiled pass (numba), for the fast path's online softmax.

NumPy's softmax over a tile of scores is four passes (row max, shift, exp, row
sum), and on CPUs without AVX-512 its exp is scalar: 2.3 ns per score on an
AVX2 EPYC, against 3.5 ns for the tile's two matrix products.  Here one
compiled pass per row does it all: the mask (causal, window, padding, an
explicit boolean mask), the bias and ALiBi, the row max, the shift, a
vectorised exponential, the row sum, and the rescale of the running output
and normaliser (Milakov & Gimelshein 2018; FlashAttention, Dao et al. 2022).
The two products stay in BLAS (`mha.fast` calls them).

The pass takes e^x as 2^(x log2 e - m log2 e), the scaling fused into the
shift (one FMA).  `exp2` reduces x = n + f with n = rint(x), |f| <= 1/2,
evaluates 2^f by a polynomial (Chebyshev interpolation on [-1/2, 1/2]: degree 6
in float32, 11 in float64, both within 0.05 ulp before rounding), and puts n
into the exponent bits; where the result is below the smallest normal number
it is built 2^64 (2^512) larger and scaled down by one multiply, so that
denormals are rounded once, and from 2^128 (2^1024) on it is inf.
tests/test_kernel.py measures the error against float64, long double and
mpmath over the whole range: within 1 ulp in float32 and float64.  LLVM turns
the loops into 8-lane (float32) AVX2 code: vfmadd...ps on ymm registers for
the polynomial, vroundps for rint, vmaxps for the row max (a test reads the
assembly).

Signatures for other passes (the backward pass's P = e^(S - lse), say): call
`exp2(x)` (float32 or float64 scalar) from any @njit function; `softmax_tile`,
`finish`, `softmax_rows` (a whole row's exponentials, for items whose keys fit
one tile) and `divide_rows` (its P V divided by the row sums) are documented below.

This module imports numba at the top: `mha.fast.compiled()` imports it only
when the compiled path is wanted, and falls back to NumPy if numba is missing.

Fast-math: reassociation (to vectorise the sums), contraction (FMA), no signed
zeros, reciprocals.  Never "no NaNs" or "no infinities" on values: a NaN or an
infinity in the scores (an input that overflows) must reach the output, where
the caller's check finds it (exp2 turns a NaN into inf).  The row max alone
uses an llvm.maxnum marked "nnan", the only form LLVM vectorises as a
reduction; a NaN score still reaches the row sum through the exponential.
Loops over a row's keys run on unsigned indices in while loops: numba's
range(first, stop) does not vectorise, and a signed index makes numba wrap
negative ones, which turns the loads into gathers.

Dimension legend: a tile is [hg, r, n]: hg query heads, r query rows, n keys;
d_v the value width.  Per row state: m (running max), l (running
sum of e^(s - m)), acc [.., d_v] (running unnormalised output).
"""

from __future__ import annotations

import numpy as np
from llvmlite import ir
from numba import njit, types
from numba.core import cgutils
from numba.extending import intrinsic, overload

_FASTMATH = {"reassoc", "contract", "nsz", "arcp"}
_JIT = dict(nogil=True, cache=True, fastmath=_FASTMATH)
_ONE = np.uint64(1)
LOG2_E = 1.4426950408889634

# 2^f on [-1/2, 1/2]: monomial coefficients of the Chebyshev interpolant at 7 and 12 nodes (mpmath, 50 digits;
# tests/test_kernel.py recomputes them).  Relative error 2.5e-9 (0.04 ulp of float32) and 4.2e-18 (0.04 ulp of
# float64) before the evaluation's own rounding.
EXP2_F32 = (1.0, 0.69314720670283259577, 0.24022650922288758071, 0.055503272266703020589,
            0.0096180566785246380754, 0.001340042817761583794, 0.00015461444698569129083)
EXP2_F64 = (1.0, 0.69314718055994530925, 0.24022650695910159567, 0.055504108664821627039,
            0.0096181291075872566681, 0.0013333558146406470697, 0.00015403530463724354209,
            0.000015252733841556772589, 1.3215432535912376166e-6, 1.0178057087733941105e-7,
            7.0741942972885210056e-9, 4.455817908336064493e-10)


# ------------------------------------------------------------------ two LLVM operations numba does not spell

@intrinsic
def _times_pow2(typingctx, p, n):
    """p 2^n, for p in [2^-1/2, 2^1/2] and a whole number n held as a float, by adding n to p's exponent
    bits; where p 2^n would not be a normal number, p 2^(n + off) is built instead and multiplied by 2^-off,
    so that a denormal result is rounded once.  (Two multiplies by 2^(n/2) would be the textbook way, but
    numba's fast-math flags let LLVM fold them into one by 2^n, which underflows or overflows on its own.)
    n must lie in [-151, 128] (float32) or [-1076, 1024] (float64); 2^128 p is inf for p = 1."""
    if p != n or p not in (types.float32, types.float64):
        return None
    wide = p == types.float64
    ity, fty = (ir.IntType(64), ir.DoubleType()) if wide else (ir.IntType(32), ir.FloatType())
    shift, off = (52, 512) if wide else (23, 64)

    def codegen(context, builder, signature, args):
        k = builder.fptosi(args[1], ity)
        small = builder.icmp_signed("<", k, ir.Constant(ity, -off))
        k = builder.add(k, builder.select(small, ir.Constant(ity, off), ir.Constant(ity, 0)))
        bits = builder.add(builder.bitcast(args[0], ity), builder.shl(k, ir.Constant(ity, shift)))
        scale = builder.select(small, ir.Constant(fty, 2.0 ** -off), ir.Constant(fty, 1.0))
        return builder.fmul(builder.bitcast(bits, fty), scale)
    return p(p, n), codegen


@intrinsic
def _fmax(typingctx, a, b):
    """llvm.maxnum marked nnan: the one max that LLVM vectorises as a reduction (vmaxps)."""
    if not (isinstance(a, types.Float) and a == b):
        return None

    def codegen(context, builder, signature, args):
        lty = args[0].type
        name = "llvm.maxnum.f32" if lty == ir.FloatType() else "llvm.maxnum.f64"
        fn = cgutils.get_or_insert_function(builder.module, ir.FunctionType(lty, [lty, lty]), name)
        return builder.call(fn, args, fastmath=("nnan", "nsz"))
    return a(a, b), codegen


# ------------------------------------------------------------------ the exponential

def exp2(x):
    """2^x for a float32 or float64 scalar, inside compiled code (the pure-Python body is never run)."""
    raise NotImplementedError("exp2 is compiled into numba functions; call it from an @njit function")


@overload(exp2, jit_options=dict(fastmath=_FASTMATH))
def _exp2_overload(x):
    if x == types.float32:
        c0, c1, c2, c3, c4, c5, c6 = (np.float32(c) for c in EXP2_F32)
        lo, hi = np.float32(-151.0), np.float32(128.0)

        def exp2_f32(x):
            # below -151 the result rounds to 0, from 128 on it is inf; written as selects so that a NaN
            # fails the second test and becomes 128, giving inf: the caller's check of the output sees it
            x = lo if x < lo else x
            x = x if x <= hi else hi
            n = np.rint(x)
            f = x - n                                              # exact, |f| <= 1/2
            p = c0 + f * (c1 + f * (c2 + f * (c3 + f * (c4 + f * (c5 + f * c6)))))
            return _times_pow2(p, n)
        return exp2_f32
    if x == types.float64:
        c = tuple(np.float64(v) for v in EXP2_F64)
        c0, c1, c2, c3, c4, c5, c6, c7, c8, c9, c10, c11 = c
        lo, hi = np.float64(-1076.0), np.float64(1024.0)

        def exp2_f64(x):
            x = lo if x < lo else x
            x = x if x <= hi else hi
            n = np.rint(x)
            f = x - n
            p = c0 + f * (c1 + f * (c2 + f * (c3 + f * (c4 + f * (c5 + f * (c6 + f * (c7 + f * (
                c8 + f * (c9 + f * (c10 + f * c11))))))))))
            return _times_pow2(p, n)
        return exp2_f64
    return None


@njit(**_JIT)
def exp2_array(x, out):
    """out = 2^x elementwise for 1-D float32 or float64 arrays (the tests' and the benchmark's handle)."""
    for j in range(x.shape[0]):
        out[j] = exp2(x[j])


# ------------------------------------------------------------------ the pass

@njit(inline="always")
def _band(i, n, delta, causal, window, stop):
    """The keys [first, stop) of a tile that row i may see: key j is i - j - delta positions before query i."""
    first = 0
    if stop > n:
        stop = n
    if causal and i - delta + 1 < stop:
        stop = i - delta + 1
    if window > 0:
        if i - delta - window + 1 > first:
            first = i - delta - window + 1
        if not causal and i - delta + window < stop:
            stop = i - delta + window
    if first > n:
        first = n
    if stop < first:
        stop = first
    return first, stop


@njit(nogil=True, fastmath=_FASTMATH)
def _row_max(row, first, stop):
    top = row.dtype.type(-np.inf)
    j = first
    while j < stop:
        top = _fmax(top, row[j])
        j += _ONE
    return top


@njit(nogil=True, fastmath=_FASTMATH)
def _row_max_masked(row, visible, first, stop):
    top = minus_inf = row.dtype.type(-np.inf)
    j = first
    while j < stop:
        top = _fmax(top, row[j] if visible[j] else minus_inf)
        j += _ONE
    return top


@njit(nogil=True, fastmath=_FASTMATH)
def _add_row(row, b_row, first, stop):
    """The bias row added to the keys first .. stop."""
    j = first
    while j < stop:
        row[j] += b_row[j]
        j += _ONE


@njit(nogil=True, fastmath=_FASTMATH)
def _alibi_row(row, slope, at, first, stop):
    """ALiBi: slope |at - j| taken off the keys first .. stop (at = the query's position relative to key 0)."""
    j = first
    while j < stop:
        row[j] -= slope * abs(at - row.dtype.type(j))
        j += _ONE


@njit(nogil=True, fastmath=_FASTMATH)
def _zero(row, first, stop):
    """row[first .. stop] = 0: the keys a row does not see."""
    zero = row.dtype.type(0)
    j = first
    while j < stop:
        row[j] = zero
        j += _ONE


@njit(nogil=True, fastmath=_FASTMATH)
def _exp_row(row, first, stop, end, c, base_c):
    """row[j] = 2^(row[j] c - base_c) for the keys first .. stop it sees, 0 before and after; the row's sum."""
    zero = row.dtype.type(0)
    total = zero
    _zero(row, np.uint64(0), first)
    j = first
    while j < stop:
        e = exp2(row[j] * c - base_c)
        row[j] = e
        total += e
        j += _ONE
    _zero(row, stop, end)
    return total


@njit(nogil=True, fastmath=_FASTMATH)
def _exp_row_masked(row, visible, first, stop, end, c, base_c):
    """`_exp_row` with a mask row: 0 where visible[j] is False."""
    zero = row.dtype.type(0)
    total = zero
    _zero(row, np.uint64(0), first)
    j = first
    while j < stop:
        e = exp2(row[j] * c - base_c)
        e = e if visible[j] else zero
        row[j] = e
        total += e
        j += _ONE
    _zero(row, stop, end)
    return total


@njit(**_JIT)
def softmax_tile(s, m, l, acc, pv, add_pv, row0, key0, delta, causal, window, stops, mask, bias, slopes, shift):
    """One tile of the online softmax, in place: s becomes P, and the running state takes the tile in.

    s [hg, r, n]: the tile's scaled scores Q K^T scale, C-contiguous, for rows row0 .. row0 + r of the
    running state and keys key0 .. key0 + n; on return P = e^(s - m_new), 0 where masked.
    m, l [hg, R]: running max and sum of the item's R rows (start at -inf and 0; m at 0 if not shift).
    acc [hg, R, d_v]: running unnormalised output (zeros at first).
    pv [hg, R, d_v]: the previous tile's P V for these rows, added to acc before the rescale if add_pv.
    Which keys row i sees: key j is i - j - delta positions before the query (delta = k0 - i0 - offset in
    absolute positions); causal hides later keys; window > 0 keeps keys less than window away (before the
    query only, if causal); keys key0 + j >= stops[h] do not exist (padding); mask [hg, r, n] bool or None
    (True = may attend).  bias [hg, r, n] or None is added; slopes [hg] or None (ALiBi) subtract
    slope |i - j - delta|.  shift False: the scores are known to be bounded (no overflow, no row
    underflowing), so there is no row max and nothing to rescale.  e^x is taken as 2^(x log2 e - m log2 e),
    one fused multiply-add: q keeps its exact scale (1/8 for d = 64), and the rounding of m log2 e is the
    same for the whole row, so it cancels in the division by l.
    """
    # The loops over a row's keys are while loops over unsigned indices: numba's range(first, stop) does
    # not vectorise, and a signed index makes numba wrap negative ones, which turns loads into gathers.
    hg, r, n = s.shape
    zero, one, minus_inf = s.dtype.type(0), s.dtype.type(1), s.dtype.type(-np.inf)
    plus_inf, nan = s.dtype.type(np.inf), s.dtype.type(np.nan)
    log2e = s.dtype.type(LOG2_E)
    end = np.uint64(n)
    for h in range(hg):
        for i in range(r):
            lo, hi = _band(i, n, delta, causal, window, stops[h] - key0)
            first, stop = np.uint64(lo), np.uint64(hi)
            row = s[h, i]
            ri = row0 + i
            if bias is not None:
                _add_row(row, bias[h, i], first, stop)
            if slopes is not None:
                _alibi_row(row, slopes[h], s.dtype.type(i - delta), first, stop)
            alpha, base = one, m[h, ri]
            if shift:
                top = _row_max(row, first, stop) if mask is None else _row_max_masked(row, mask[h, i], first, stop)
                old = m[h, ri]
                new = old if old >= top else top
                m[h, ri] = new
                base = zero if new == minus_inf else new       # a row that has seen no key yet
                alpha = exp2((old - base) * log2e)                  # 0 for a row's first keys (old = -inf)
            base_c = base * log2e
            if not base_c < plus_inf:              # the max overflows in base 2: NaN reaches the output, not 0
                base_c = nan
            if mask is None:
                total = _exp_row(row, first, stop, end, log2e, base_c)
            else:
                total = _exp_row_masked(row, mask[h, i], first, stop, end, log2e, base_c)
            l[h, ri] = l[h, ri] * alpha + total
            if add_pv:
                for c in range(acc.shape[2]):
                    acc[h, ri, c] = (acc[h, ri, c] + pv[h, ri, c]) * alpha
            elif alpha != one:
                for c in range(acc.shape[2]):
                    acc[h, ri, c] *= alpha


@njit(**_JIT)
def softmax_rows(s, scale, delta, causal, window, stops, mask, bias, slopes, m, l):
    """The exponentials of rows that hold all their keys, in place, for the short-T path, where one tile
    holds an item's keys: s becomes P = e^(score - m), 0 where hidden, not yet divided by its row sum;
    `divide_rows` divides the product P V by it (d_v values per row rather than the row's n keys).

    s [hg, r, n]: raw products q k^T (not yet scaled), C-contiguous.  The score is s scale + bias - slope
    |i - j - delta|; which keys row i sees is `softmax_tile`'s rule (delta, causal, window, stops [hg],
    mask [hg, r, n] or None).  m, l [hg, r] receive each row's largest visible score (natural units; -inf
    for a row that sees no key) and the sum of its P (0 for such a row, whose P is all 0).  Without bias and
    ALiBi and with scale > 0 the scale rides in the exponential's one fused multiply-add
    (e^(scale (s - max)) = 2^(s c - max c), c = scale log2 e), so the scores are not rewritten first.  A NaN
    or infinite score, or a row maximum whose multiple by scale log2 e overflows, makes the row's m NaN
    and its P and l infinite (the exponential turns NaN into inf), so that `divide_rows` gives NaN, which the
    caller's check finds; the shift used to become inf, every e^x 0, and the row a silent 0.
    """
    hg, r, n = s.shape
    zero, minus_inf = s.dtype.type(0), s.dtype.type(-np.inf)
    plus_inf, nan = s.dtype.type(np.inf), s.dtype.type(np.nan)
    sc = s.dtype.type(scale)
    fused = bias is None and slopes is None and scale > 0
    c = sc * s.dtype.type(LOG2_E) if fused else s.dtype.type(LOG2_E)
    end = np.uint64(n)
    for h in range(hg):
        for i in range(r):
            lo, hi = _band(i, n, delta, causal, window, stops[h])
            first, stop = np.uint64(lo), np.uint64(hi)
            row = s[h, i]
            if not fused:
                j = first
                while j < stop:
                    row[j] *= sc
                    j += _ONE
                if bias is not None:
                    _add_row(row, bias[h, i], first, stop)
                if slopes is not None:
                    _alibi_row(row, slopes[h], s.dtype.type(i - delta), first, stop)
            top = _row_max(row, first, stop) if mask is None else _row_max_masked(row, mask[h, i], first, stop)
            base_c = zero if top == minus_inf else top * c
            if not base_c < plus_inf:              # a score overflowed (or its multiple by c did): NaN, not 0
                base_c = top = nan
            if mask is None:
                l[h, i] = _exp_row(row, first, stop, end, c, base_c)
            else:
                l[h, i] = _exp_row_masked(row, mask[h, i], first, stop, end, c, base_c)
            m[h, i] = top * sc if fused else top


@njit(inline="always")
def _log_sum(m, li):
    """A row's log-sum-exp from its max and its sum of e^(score - max); -inf for a row that saw no key."""
    return m + np.log(li) if li != 0 else -np.inf


@njit(nogil=True, fastmath=_FASTMATH)
def _divide_row(row, inv, largest):
    """row *= inv in place; whether a value is not finite (NaN and inf fail |x| <= largest).  One array, so
    that LLVM vectorises it without a run-time test for overlap (which fails, in place, and runs it scalar)."""
    bad = False
    for c in range(row.shape[0]):
        x = row[c] * inv
        row[c] = x
        bad |= not abs(x) <= largest
    return bad


@njit(nogil=True, fastmath=_FASTMATH)
def _bad_row(row, largest):
    """Whether a value of row is not finite (NaN and inf fail |x| <= largest)."""
    bad = False
    for c in range(row.shape[0]):
        bad |= not abs(row[c]) <= largest
    return bad


@njit(**_JIT)
def finite_rows(x, h0, h1, r0, r1):
    """Whether every value of x[h0:h1, r0:r1] is finite, for x [H, T, d] (q, k or v of one sequence): the
    fast path's check of an item's inputs, one vectorised sweep over rows that are usually in cache."""
    largest = x.dtype.type(np.finfo(x.dtype).max)
    bad = False
    for h in range(h0, h1):
        for i in range(r0, r1):
            bad |= _bad_row(x[h, i], largest)
    return not bad


@njit(**_JIT)
def finish(acc, pv, add_pv, l, m, out, lse):
    """out = (acc + pv if add_pv else acc) / l per row, 0 for a row that saw no key; lse (or None) = ln of
    the row's sum of e^score, that is m + ln l, -inf for a row that saw no key.  acc, pv
    [hg, r, d_v]; l, m [hg, r]; out [hg, r, d_v] and lse [hg, r] of any strides, not overlapping acc
    (`divide_rows` works in place).  Returns whether every value written to out is finite, so that the
    caller needs no pass of its own over the output to find an overflow.  (A comparison: NaN and inf fail
    |x| <= the largest float.  A sum of x - x, NaN for any NaN or inf, does not survive the fast-math
    flags, which let LLVM cancel it.)"""
    hg, r, d_v = out.shape
    one = l.dtype.type(1)
    largest = l.dtype.type(np.finfo(l.dtype).max)
    bad = False
    for h in range(hg):
        for i in range(r):
            li = l[h, i]
            if li != 0:                             # l >= 0; a NaN (an overflow) goes on to the output
                inv = one / li
                if add_pv:
                    for c in range(d_v):
                        x = (acc[h, i, c] + pv[h, i, c]) * inv
                        out[h, i, c] = x
                        bad |= not abs(x) <= largest
                else:
                    for c in range(d_v):
                        x = acc[h, i, c] * inv
                        out[h, i, c] = x
                        bad |= not abs(x) <= largest
            else:
                for c in range(d_v):
                    out[h, i, c] = 0
            if lse is not None:
                lse[h, i] = _log_sum(m[h, i], li)
    return not bad


@njit(**_JIT)
def divide_rows(out, h0, r0, l, m, lse):
    """`finish` in place for the one-tile pass: the rows r0 .. r0 + r of heads h0 .. h0 + hg of out
    [H, T, d_v] (P V) divided by their sums l [hg, r] (rows with l = 0, which saw no key, set to 0); lse
    [hg, r] or None = m + ln l.  Returns whether every value written is finite.  out is the whole
    sequence's output rather than the item's slice of it: a query block's slice is not contiguous, and
    numba then compiles the row loop without vector instructions (35 us instead of 6 for 128 rows of 8
    heads)."""
    hg, r = l.shape
    one = l.dtype.type(1)
    largest = l.dtype.type(np.finfo(l.dtype).max)
    bad = False
    for h in range(hg):
        for i in range(r):
            li = l[h, i]
            if li != 0:                             # l >= 0; a NaN (an overflow) goes on to the output
                bad |= _divide_row(out[h0 + h, r0 + i], one / li, largest)
            else:
                out[h0 + h, r0 + i] = 0
            if lse is not None:
                lse[h, i] = _log_sum(m[h, i], li)
    return not bad


# ------------------------------------------------------------------ the backward pass's tile

@njit(**_JIT)
def backward_tile(s, dp, lse, D, delta, causal, window, stop, mask, bias, slope):
    """FlashAttention-2's step between the products of one tile of the backward pass, in place, one sweep.

    s [r, n]: the tile's scaled scores Q K^T scale; on return P = e^(s + bias - slope |i - j - delta| - lse_i),
    0 where hidden.  dp [r, n]: dO V^T; on return dS = P (dP - D_i).  lse [r] each row's natural log-sum-exp
    from the forward (-inf for a row that sees no key: P = 0), D [r] = rowsum(dO O).  Which keys row i sees
    is `softmax_tile`'s rule (delta, causal, window; keys j >= stop do not exist); mask [r, n] bool or None
    (True = may attend); bias [r, n] or None; slope (ALiBi) a number, 0 for none.  e^x is taken as
    2^(x log2 e - lse log2 e), one fused multiply-add, and (dP - D) P a second: the row constants lse and D
    are subtracted here, so the products stay d wide.
    """
    r, n = s.shape
    zero, minus_inf = s.dtype.type(0), s.dtype.type(-np.inf)
    log2e = s.dtype.type(LOG2_E)
    end = np.uint64(n)
    for i in range(r):
        lo, hi = _band(i, n, delta, causal, window, stop)
        first, stop_i = np.uint64(lo), np.uint64(hi)
        row, grad = s[i], dp[i]
        if lse[i] == minus_inf:                            # the row sees no key: no weight, no gradient
            first = stop_i = np.uint64(0)
        if bias is not None:
            b_row = bias[i]
            j = first
            while j < stop_i:
                row[j] += b_row[j]
                j += _ONE
        if slope != 0:
            sl, at = s.dtype.type(slope), s.dtype.type(i - delta)
            j = first
            while j < stop_i:
                row[j] -= sl * abs(at - s.dtype.type(j))
                j += _ONE
        base_c, d_i = lse[i] * log2e, D[i]
        j = np.uint64(0)
        while j < first:
            row[j] = zero
            grad[j] = zero
            j += _ONE
        if mask is None:
            while j < stop_i:
                e = exp2(row[j] * log2e - base_c)
                row[j] = e
                grad[j] = e * (grad[j] - d_i)
                j += _ONE
        else:
            visible = mask[i]
            while j < stop_i:
                e = exp2(row[j] * log2e - base_c)
                e = e if visible[j] else zero
                row[j] = e
                grad[j] = e * (grad[j] - d_i)
                j += _ONE
        while j < end:
            row[j] = zero
            grad[j] = zero
            j += _ONE
