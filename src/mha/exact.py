"""Exact attention: every intermediate as a closed form (sympy), for inputs that are exact numbers.

    read       every number of the input as a Fraction: integers, fractions ("p/q"), short decimals
    project    Q = X W_Q + b_Q, K, V                  rational (or Q, K, V given)
    rope       a cos(p θ) - b sin(p θ), ...            cos and sin of exact angles, kept symbolic
    scores     S = Q Kᵀ · scale + bias + ALiBi        rational times the scale (√d_k stays a surd)
    softmax    A_ij = e^{S_ij - m_i} / Σ_k e^{S_ik - m_i}
    weighted   O_ij = Σ_k V_kj e^{S_ik - m_i} / Σ_k e^{S_ik - m_i}   one denominator per row
    output     Y = O_concat W_O + b_O                  a sum of the heads' fractions

A decimal is read from its text, never from a binary float: 0.1 is 1/10.  JSON
numbers keep their text when the file is read with `json_number` as parse_float
(the command line does this for --exact and for --precision above 12); a Python
float is read as its shortest repr, which is the decimal that was typed whenever
it had at most 15 significant digits.  "Short" means at most MAX_DIGITS
significant digits and no digit more than MAX_DIGITS places from the point, so
1e-300 (its digit 300 places after the point) is refused by
name, and so are NaN and infinities.  With at most 15 significant digits the
text and the float give the same number (float64 keeps 15 decimal digits), so
the two readings never disagree on an input that is accepted.

The layer keeps the core's names and shapes (`mha.core.LayerSteps`, arrays of
sympy numbers); masks, the causal alignment and the window come from the core's
own `visible_keys`, so both paths read the configuration the same way.  sympy is
imported when this module is, and only `mha explain --exact` (or --precision
above 12) imports this module.

>>> from fractions import Fraction
>>> read_number("1/3", "X[0][0]"), read_number(0.1, "X[0][1]"), read_number(json_number("2.50"), "s")
(Fraction(1, 3), Fraction(1, 10), Fraction(5, 2))
>>> steps = exact_layer(DOCUMENT)
>>> steps.A[0, 0, 2, 2]                  # A^(1), row 3, column 3: e^{S - m} over the row's sum
1/(2*exp(-sqrt(2)/2) + 1)
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from decimal import Decimal
from fractions import Fraction
from typing import Any, Mapping

import numpy as np
import sympy as sp

from .core import LayerSteps, alibi_slopes, visible_keys
from .inputs import Config, MHAInputError, parse_config

MAX_DIGITS = 15          # a short decimal: this many significant digits at most, within this many places of the point
MAX_SCORES = 512         # B·H·T·S: the size cap (a hand-sized layer)
MAX_NODES = 4000         # the expression-size cap: nodes of the largest closed form (see `closed_form_size`)
_FRACTION = re.compile(r"\s*([+-]?\d+)\s*/\s*(\d+)\s*")
DOCUMENT = {"X": [[1, 0, 1, 0], [0, 1, 0, 1], [1, 1, 0, 0]], "n_heads": 2}


class ExactError(MHAInputError):
    """An input that has no exact reading, or a layer past a cap of the exact computation."""


def json_number(text: str) -> Decimal:
    """The parse_float of `json.loads` that keeps a JSON number's text: '0.1' stays exactly 1/10."""
    return Decimal(text)


# ------------------------------------------------------------------ reading exact numbers

def read_number(x: Any, where: str) -> Fraction:
    """One input number as the fraction it is, or an ExactError naming where it sits."""
    if isinstance(x, bool) or x is None:
        raise ExactError(f"{where}: expected a number, got {x!r}")
    if isinstance(x, (int, np.integer)):
        return Fraction(int(x))
    if isinstance(x, Fraction):
        return _short_fraction(x, where)
    if isinstance(x, str):
        m = _FRACTION.fullmatch(x)
        if not m:
            raise ExactError(f"{where}: {x!r} is not a number; a fraction is written \"p/q\"")
        if int(m.group(2)) == 0:
            raise ExactError(f"{where}: {x!r} divides by zero")
        return _short_fraction(Fraction(int(m.group(1)), int(m.group(2))), where)
    if isinstance(x, (float, np.floating)):
        x = Decimal(repr(float(x))) if np.isfinite(x) else Decimal(str(float(x)))
    if not isinstance(x, Decimal):
        raise ExactError(f"{where}: expected a number, got {type(x).__name__}")
    if not x.is_finite():
        raise ExactError(f"{where}: {x} has no exact value; --exact reads integers, fractions and short decimals")
    sign, digits, exponent = x.as_tuple()
    while len(digits) > 1 and digits[-1] == 0:                # 2.50 is 2.5
        digits, exponent = digits[:-1], exponent + 1
    after, before = max(0, -exponent), max(0, len(digits) + exponent)
    if len(digits) > MAX_DIGITS or after > MAX_DIGITS or before > MAX_DIGITS:
        n, what = max((len(digits), "significant digits"), (after, "digits after the point"),
                      (before, "digits before the point"))
        raise ExactError(f"{where}: {x} is not a short decimal ({n} {what}; --exact reads decimals of at most "
                         f"{MAX_DIGITS} significant digits within {MAX_DIGITS} places of the point, integers, and "
                         f"fractions \"p/q\")")
    return Fraction(x)


def _short_fraction(f: Fraction, where: str) -> Fraction:
    if max(abs(f.numerator), f.denominator) >= 10 ** (2 * MAX_DIGITS):
        raise ExactError(f"{where}: {f} has more than {2 * MAX_DIGITS} digits in its numerator or denominator")
    return f


def exact_array(value: Any, field: str, *, masks: bool = False) -> np.ndarray:
    """Nested lists (or an array) of numbers -> an object array of sympy Rationals; with masks (a bias),
    null and -inf are -oo."""
    def walk(v: Any, path: str) -> Any:
        if isinstance(v, (list, tuple, np.ndarray)):
            return [walk(item, f"{path}[{i}]") for i, item in enumerate(v)]
        if masks and (v is None or (isinstance(v, (float, np.floating)) and v == -np.inf)):
            return sp.S.NegativeInfinity
        f = read_number(v, path)
        return sp.Rational(f.numerator, f.denominator)

    return _to_object(walk(value, field), np.shape(value) if isinstance(value, np.ndarray) else _shape(value))


def _shape(v: Any) -> tuple[int, ...]:
    return (len(v),) + _shape(v[0]) if isinstance(v, (list, tuple)) else ()


def _to_object(nested: Any, shape: tuple[int, ...]) -> np.ndarray:
    """Nested lists of sympy numbers into an object array of exactly that shape (no ragged guessing)."""
    out = np.empty(shape, dtype=object)
    for idx in np.ndindex(*shape):
        v = nested
        for i in idx:
            v = v[i]
        out[idx] = v
    return out


def float_input(data: Mapping[str, Any]) -> Any:
    """The same mapping with every exact leaf (Decimal, Fraction, "p/q") as a float: what the float64 trace reads."""
    if isinstance(data, Mapping):
        return {k: (v if k in ("tokens", "key_tokens") else float_input(v)) for k, v in data.items()}
    if isinstance(data, (list, tuple)):
        return [float_input(v) for v in data]
    if isinstance(data, (Decimal, Fraction)):
        return float(data)
    if isinstance(data, str) and _FRACTION.fullmatch(data) and int(_FRACTION.fullmatch(data).group(2)):
        return float(read_number(data, "input"))
    return data


_NUMBERS = ("X", "key", "value", "Q", "K", "V", "W_Q", "W_K", "W_V", "W_O", "b_Q", "b_K", "b_V", "b_O", "bias",
            "alibi", "scale")
_WORDS = ("identity", "none", "1/d_k", "1/sqrt(d_k)")


def check_numbers(data: Mapping[str, Any]) -> None:
    """Read every number of the input once, so that the first one without an exact reading is refused by
    name before anything is computed (the float path would refuse NaN, but not 1e-300)."""
    def walk(v: Any, path: str, masks: bool = False) -> None:
        if isinstance(v, (list, tuple, np.ndarray)):
            for i, item in enumerate(v):
                walk(item, f"{path}[{i}]", masks)
        elif not (masks and v is None) and not isinstance(v, bool):
            read_number(v, path)

    if not isinstance(data, Mapping):
        return
    for key in _NUMBERS:
        v = data.get(key)
        if v is not None and not (isinstance(v, str) and v in _WORDS):
            walk(v, key, masks=key == "bias")
    for key in ("K", "V"):
        if isinstance(data.get("cache"), Mapping) and data["cache"].get(key) is not None:
            walk(data["cache"][key], f"cache.{key}")
    if isinstance(data.get("rope"), Mapping):
        for key in ("base", "inv_freq", "attention_factor"):
            if data["rope"].get(key) is not None:
                walk(data["rope"][key], f"rope.{key}")


# ------------------------------------------------------------------ the inputs, shaped as the Config holds them

@dataclass(frozen=True)
class ExactInputs:
    """The configuration's numbers as sympy Rationals, with the batch axis and the shapes of `Config`."""

    X: np.ndarray | None
    key: np.ndarray | None
    value: np.ndarray | None
    Q_in: np.ndarray | None
    K_in: np.ndarray | None
    V_in: np.ndarray | None
    W_Q: np.ndarray | None
    W_K: np.ndarray | None
    W_V: np.ndarray | None
    W_O: np.ndarray | None
    b: dict[str, np.ndarray | None]
    cache_K: np.ndarray | None
    cache_V: np.ndarray | None
    bias: np.ndarray | None          # [B|1, H|1, T, S], -oo where masked
    scale: sp.Expr
    slopes: np.ndarray | None        # [H] ALiBi slopes (powers of 2 for Press et al.'s)
    inv_freq: np.ndarray | None      # [dims/2] RoPE frequencies
    rope_factor: sp.Expr


def exact_inputs(cfg: Config, data: Mapping[str, Any]) -> ExactInputs:
    """Read data's numbers exactly; cfg (parsed from the same data) has already checked every shape."""
    def batched(name: str, value: Any, extra: int = 0) -> np.ndarray | None:
        if value is None:
            return None
        a = exact_array(value, name)
        return a if a.ndim == 3 + extra else a[None]

    def weight(name: str, heads: int) -> np.ndarray | None:
        W = getattr(cfg, name)
        if W is None:
            return None
        if name in cfg.weights_identity:
            return _eye(W.shape[0], W.shape[1])
        a = exact_array(data[name], name)
        return a.transpose(1, 0, 2).reshape(a.shape[1], -1) if a.ndim == 3 else a

    def vector(name: str) -> np.ndarray | None:
        return None if getattr(cfg, name) is None else exact_array(data[name], name).reshape(-1)

    cache = data.get("cache") or {}
    bias = None
    if cfg.bias is not None:
        bias = exact_array(data["bias"], "bias", masks=True)
        bias = bias[None, None] if bias.ndim == 2 else bias[:, None] if bias.ndim == 3 else bias
    slopes = None
    if cfg.alibi_rule == "press":
        slopes = _press_slopes(cfg.n_heads)
    elif cfg.alibi_rule is not None:
        slopes = exact_array(data["alibi"], "alibi")
    inv_freq, factor = None, sp.Integer(1)
    if cfg.rope is not None:
        spec = data["rope"] if isinstance(data["rope"], Mapping) else {}
        dims = cfg.rope.dims
        if spec.get("inv_freq") is not None:
            inv_freq = exact_array(spec["inv_freq"], "rope.inv_freq")
        else:
            base = _rational(spec.get("base", 10000), "rope.base")
            inv_freq = _to_object([base ** sp.Rational(-i, dims) for i in range(0, dims, 2)], (dims // 2,))
        if spec.get("attention_factor") is not None:
            factor = _rational(spec["attention_factor"], "rope.attention_factor")
    return ExactInputs(
        X=batched("X", data.get("X")) if not cfg.given_qkv else None, key=batched("key", data.get("key")),
        value=batched("value", data.get("value", data.get("key"))),
        Q_in=batched("Q", data.get("Q")), K_in=batched("K", data.get("K")), V_in=batched("V", data.get("V")),
        W_Q=weight("W_Q", cfg.n_heads), W_K=weight("W_K", cfg.G), W_V=weight("W_V", cfg.G),
        W_O=weight("W_O", 1), b={n: vector(n) for n in ("b_Q", "b_K", "b_V", "b_O")},
        cache_K=batched("cache.K", cache.get("K"), 1), cache_V=batched("cache.V", cache.get("V"), 1), bias=bias,
        scale=_scale(cfg, data.get("scale")), slopes=slopes, inv_freq=inv_freq, rope_factor=factor)


def _rational(x: Any, where: str) -> sp.Rational:
    f = read_number(x, where)
    return sp.Rational(f.numerator, f.denominator)


def _eye(n: int, m: int) -> np.ndarray:
    out = np.full((n, m), sp.S.Zero, dtype=object)
    for i in range(min(n, m)):
        out[i, i] = sp.S.One
    return out


def _scale(cfg: Config, given: Any) -> sp.Expr:
    rule = cfg.scale_rule
    if rule == "1/sqrt(d_k)":
        return 1 / sp.sqrt(cfg.d_k)
    if rule == "none":
        return sp.S.One
    if rule == "1/d_k":
        return sp.Rational(1, cfg.d_k)
    return _rational(given, "scale")


def _press_slopes(n_heads: int) -> np.ndarray:
    """Press et al.'s slopes as exact powers of 2 (the same rule as `mha.core.alibi_slopes`)."""
    def powers(n: int) -> list[sp.Expr]:
        return [sp.Integer(2) ** sp.Rational(-8 * i, n) for i in range(1, n + 1)]

    n = 1 << (n_heads.bit_length() - 1)
    slopes = powers(n) if n == n_heads else powers(n) + powers(2 * n)[0::2][:n_heads - n]
    assert np.allclose([float(s) for s in slopes], alibi_slopes(n_heads))
    return _to_object(slopes, (n_heads,))


# ------------------------------------------------------------------ the layer

@dataclass(frozen=True)
class ExactSteps(LayerSteps):
    """`mha.core.LayerSteps` with sympy numbers: every intermediate of the layer, exactly."""

    inputs: ExactInputs | None = None


def exact_layer(data: Mapping[str, Any], cfg: Config | None = None) -> ExactSteps:
    """Every intermediate of the layer described by data, exact; cfg is `parse_config(float_input(data))`.

    Refuses (ExactError) a number without an exact reading and a layer past MAX_SCORES or MAX_NODES.
    """
    check_numbers(data)
    cfg = parse_config(float_input(data)) if cfg is None else cfg
    check_size(cfg)
    x = exact_inputs(cfg, data)
    B, H, G, T, S = cfg.B, cfg.n_heads, cfg.G, cfg.T, cfg.S
    # project (rational)
    if cfg.given_qkv:
        Q, K, V = x.Q_in, x.K_in, x.V_in
    else:
        Q = _project(x.X, x.W_Q, x.b["b_Q"])
        K = _project(x.X if x.key is None else x.key, x.W_K, x.b["b_K"])
        V = _project(x.X if x.value is None else x.value, x.W_V, x.b["b_V"])
    # split heads: [B, T, n*d] -> [B, n, T, d]
    Qh, Kh, Vh = _split(Q, H), _split(K, G), _split(V, G)
    # rotary position embedding: cos and sin of exact angles
    Qh_rope = Kh_rope = None
    if cfg.rope is not None:
        Qh_rope = _rope(Qh, cfg.rope.positions, x, cfg)
        Kh_rope = _rope(Kh, cfg.rope.key_positions, x, cfg)
    K_new = Kh if Kh_rope is None else Kh_rope
    K_all = K_new if x.cache_K is None else np.concatenate([x.cache_K, K_new], axis=2)
    V_all = Vh if x.cache_V is None else np.concatenate([x.cache_V, Vh], axis=2)
    # masks (the core's own rule) and the position bias
    allowed = visible_keys(T, S, mask=cfg.mask, causal=cfg.causal, key_lengths=cfg.key_lengths, window=cfg.window,
                           offset=cfg.offset, batch_shape=(B, H))
    allowed = np.ones((B, H, T, S), bool) if allowed is None else np.broadcast_to(allowed, (B, H, T, S))
    position_bias = None
    if x.slopes is not None:
        distance = np.abs(np.arange(T)[:, None] + cfg.offset - np.arange(S)[None, :])
        position_bias = np.empty((H, T, S), dtype=object)
        for h, i, j in np.ndindex(H, T, S):
            position_bias[h, i, j] = -x.slopes[h] * int(distance[i, j])
    shape = (B, H, T, S)
    QKt, Sc, E, A = (np.empty(shape, dtype=object) for _ in range(4))
    row_max, row_sum = np.empty(shape[:3], dtype=object), np.empty(shape[:3], dtype=object)
    O = np.empty((B, H, T, cfg.d_v), dtype=object)
    fully_masked = np.zeros(shape[:3], bool)
    for b, h in np.ndindex(B, H):
        g = cfg.group(h)
        q = Qh[b, h] if Qh_rope is None else Qh_rope[b, h]
        QKt[b, h] = _matmul(q, K_all[b, g].T, expand=Qh_rope is not None)
        for i in range(T):
            row = [_score(QKt[b, h, i, j], x, cfg, position_bias, b, h, i, j) if allowed[b, h, i, j]
                   else sp.S.NegativeInfinity for j in range(S)]
            Sc[b, h, i] = row
            steps = softmax_row(row, V_all[b, g])
            row_max[b, h, i], E[b, h, i], row_sum[b, h, i], A[b, h, i], O[b, h, i] = steps
            fully_masked[b, h, i] = steps[0] == sp.S.NegativeInfinity
    O_concat = O.transpose(0, 2, 1, 3).reshape(B, T, H * cfg.d_v)
    Y = _output(O, row_sum, E, V_all, x, cfg)
    return ExactSteps(config=cfg, Q=Q, K=K, V=V, Qh=Qh, Kh=Kh, Vh=Vh, Qh_rope=Qh_rope, Kh_rope=Kh_rope, K_all=K_all,
                      V_all=V_all, QKt=QKt, position_bias=position_bias, S=Sc, row_max=row_max, E=E,
                      row_sum=row_sum, A=A, O=O, fully_masked=fully_masked, O_concat=O_concat, Y=Y, inputs=x)


def check_size(cfg: Config) -> None:
    """The size cap: at most MAX_SCORES scores in all (a closed form per score is for hand-sized layers)."""
    scores = cfg.B * cfg.n_heads * cfg.T * cfg.S
    if scores > MAX_SCORES:
        raise ExactError(f"exact: B·H·T·S = {cfg.B}·{cfg.n_heads}·{cfg.T}·{cfg.S} = {scores} scores, past the cap "
                         f"of {MAX_SCORES}; use fewer tokens, heads or sequences for closed forms")


def _project(X: np.ndarray, W: np.ndarray, b: np.ndarray | None) -> np.ndarray:
    out = np.stack([_matmul(x, W) for x in X])                       # [B, T, d_out]
    return out if b is None else out + b


def _matmul(a: np.ndarray, b: np.ndarray, expand: bool = False) -> np.ndarray:
    """An exact matrix product; zero terms are left out, so identity weights add nothing to an expression."""
    out = np.empty((a.shape[0], b.shape[1]), dtype=object)
    for i, j in np.ndindex(*out.shape):
        terms = [a[i, k] * b[k, j] for k in range(a.shape[1]) if a[i, k] != 0 and b[k, j] != 0]
        total = sp.Add(*terms) if terms else sp.S.Zero
        out[i, j] = _fold_squares(sp.expand(total)) if expand else total
    return out


def _fold_squares(x: sp.Expr) -> sp.Expr:
    """Under RoPE a score is a sum of products of cos and sin; cos² = 1 - sin² folds cos² + sin² back to 1
    (trigsimp would, too, but into forms such as cos(π/4 + 2) that no hand-written solution uses)."""
    w = sp.Wild("w")
    return sp.expand(x.replace(sp.cos(w) ** 2, 1 - sp.sin(w) ** 2))


def _split(M: np.ndarray, n: int) -> np.ndarray:
    B, T, width = M.shape
    return M.reshape(B, T, n, width // n).transpose(0, 2, 1, 3)


def _rope(x: np.ndarray, positions: np.ndarray, e: ExactInputs, cfg: Config) -> np.ndarray:
    """Pairs (a, b) -> factor·(a cos pθ - b sin pθ, b cos pθ + a sin pθ), as `mha.core.apply_rope`, exactly."""
    r = cfg.rope
    half = r.dims // 2
    out = x.copy()
    first, second = (list(range(half)), list(range(half, r.dims))) if r.style == "half" else \
        (list(range(0, r.dims, 2)), list(range(1, r.dims, 2)))
    for b, n, t in np.ndindex(*x.shape[:3]):
        p = int(positions[b, t])
        for k, (f1, f2) in enumerate(zip(first, second)):
            angle = p * e.inv_freq[k]
            c, s = e.rope_factor * sp.cos(angle), e.rope_factor * sp.sin(angle)
            a, bb = x[b, n, t, f1], x[b, n, t, f2]
            out[b, n, t, f1] = sp.expand(a * c - bb * s)
            out[b, n, t, f2] = sp.expand(bb * c + a * s)
    return out


def _score(qk: sp.Expr, x: ExactInputs, cfg: Config, position_bias: np.ndarray | None, b: int, h: int, i: int,
           j: int) -> sp.Expr:
    """S_ij = QKᵀ_ij · scale + bias_ij + ALiBi_ij; -oo where the bias masks."""
    s = qk * x.scale
    if x.bias is not None:
        s = s + x.bias[b if x.bias.shape[0] > 1 else 0, h if x.bias.shape[1] > 1 else 0, i, j]
    if position_bias is not None:
        s = s + position_bias[h, i, j]
    return s


def softmax_row(row: list[sp.Expr], V: np.ndarray) -> tuple[sp.Expr, list, sp.Expr, list, list]:
    """row_max, e^{S - m}, their sum, the weights and the weighted sum of V's rows, for one row of scores.

    O_j keeps one denominator, Σ_k V_kj e^{S_k - m} / Σ_k e^{S_k - m}, rather than a sum of weights."""
    visible = [k for k, s in enumerate(row) if s != sp.S.NegativeInfinity]
    zero = sp.S.Zero
    if not visible:                       # a row that sees no key: weights 0 and output 0, as the core
        return sp.S.NegativeInfinity, [zero] * len(row), zero, [zero] * len(row), [zero] * V.shape[1]
    m = row[max(visible, key=lambda k: sp.N(row[k], 30))]
    E = [sp.exp(s - m) if k in visible else zero for k, s in enumerate(row)]
    total = sp.Add(*E)
    inv = 1 / total
    A = [e * inv for e in E]
    O = [sp.Add(*(V[k, j] * E[k] for k in visible if V[k, j] != 0)) * inv for j in range(V.shape[1])]
    return m, E, total, A, O


def _output(O: np.ndarray, row_sum: np.ndarray, E: np.ndarray, V_all: np.ndarray, x: ExactInputs,
            cfg: Config) -> np.ndarray:
    """Y = O_concat W_O + b_O, each head's part over its own denominator (no W_O: Y = O_concat)."""
    B, H, T, d_v = O.shape
    if x.W_O is None:
        return O.transpose(0, 2, 1, 3).reshape(B, T, H * d_v)
    Y = np.empty((B, T, x.W_O.shape[1]), dtype=object)
    for b, i, j in np.ndindex(*Y.shape):
        parts = []
        for h in range(H):
            w = [x.W_O[h * d_v + c, j] for c in range(d_v)]
            if all(wc == 0 for wc in w) or row_sum[b, h, i] == 0:
                continue
            g = cfg.group(h)
            numer = sp.Add(*(w[c] * V_all[b, g, k, c] * E[b, h, i, k] for c in range(d_v) if w[c] != 0
                             for k in range(V_all.shape[2]) if V_all[b, g, k, c] != 0))
            parts.append(numer / row_sum[b, h, i])
        if x.b["b_O"] is not None:
            parts.append(x.b["b_O"][j])
        Y[b, i, j] = sp.Add(*parts) if parts else sp.S.Zero
    check_nodes(Y, "Y")
    return Y


def check_nodes(arr: np.ndarray, name: str) -> None:
    """The expression-size cap: no entry larger than MAX_NODES nodes (sympy's preorder traversal)."""
    for idx in np.ndindex(*arr.shape):
        n = closed_form_size(arr[idx])
        if n > MAX_NODES:
            raise ExactError(f"exact: {name}{list(idx)} has a closed form of {n} nodes, past the cap of {MAX_NODES}; "
                             f"use fewer keys or heads, or inputs with fewer distinct values")


def closed_form_size(expr: sp.Expr) -> int:
    """The size of an expression: the nodes of its tree (numbers, symbols, sums, products, powers, functions)."""
    return sum(1 for _ in sp.preorder_traversal(expr))


# ------------------------------------------------------------------ correct digits (mpmath, through sympy's evalf)

def to_decimal(x: sp.Expr, decimals: int) -> Decimal:
    """x as a Decimal that rounds like x itself at `decimals` decimals or fewer (every printed digit correct).

    A terminating decimal comes back exactly.  Any other value comes back truncated to decimals + 1 places
    with a sticky digit 1 after them ("round to odd"): it then lies strictly between the same two grid points
    as x, so rounding it to any coarser place rounds x.  The truncation is certified by evaluating x with
    mpmath (sympy's evalf, strict) until its error interval holds no grid point, doubling the working
    precision each time.

    >>> to_decimal(sp.Rational(1, 8), 1), to_decimal(sp.Rational(1, 3), 2), to_decimal(-sp.sqrt(2), 3)
    (Decimal('0.125'), Decimal('0.3331'), Decimal('-1.41421'))
    >>> f"{to_decimal(sp.Rational(5, 8), 2):.2f}", f"{to_decimal(sp.exp(1), 30):.30f}"
    ('0.62', '2.718281828459045235360287471353')
    """
    if x == sp.S.NegativeInfinity:
        return Decimal("-Infinity")
    place = decimals + 1
    if x.is_Rational:
        p, q = int(x.p), int(x.q)
        if _terminates(q):
            return _exact_quotient(p, q)
        # not a terminating decimal: never on the grid (a place left of the point, 1e+300 printed: integers too)
        t = abs(p) * 10 ** place // q if place >= 0 else abs(p) // (q * 10 ** -place)
        return _sticky(p < 0, t, place)
    import mpmath
    work = place + 20
    for _ in range(8):
        digits = work + max(0, int(abs(sp.N(x, 15))).bit_length() // 3 + 1)
        with mpmath.workdps(digits + 10):
            a = mpmath.mpf(x.evalf(digits, strict=True)._mpf_)
            err = abs(a) * mpmath.mpf(10) ** (2 - digits) + mpmath.mpf(10) ** (-digits)
            scale = mpmath.mpf(10) ** place
            lo, hi = int(mpmath.floor((abs(a) - err) * scale)), int(mpmath.floor((abs(a) + err) * scale))
            nearest = int(mpmath.nint(abs(a) * scale))
        if lo == hi:
            return _sticky(a < 0, lo, place)
        work *= 2
    # still on a grid point after 8 doublings: x is (to 2^8 times the digits asked) that decimal itself
    return _sticky(a < 0, nearest, place, exact=True)


def _terminates(q: int) -> bool:
    for f in (2, 5):
        while q % f == 0:
            q //= f
    return q == 1


def _exact_quotient(p: int, q: int) -> Decimal:
    n = 0
    while (p * 10 ** n) % q:
        n += 1
    return _decimal(p * 10 ** n // q, -n)


def _sticky(negative: bool, t: int, place: int, exact: bool = False) -> Decimal:
    """±t·10^-place, followed by a digit 1 unless exact (round to odd)."""
    d = _decimal(t, -place) if exact else _decimal(t * 10 + 1, -place - 1)
    return -d if negative else d


def _decimal(n: int, exponent: int) -> Decimal:
    """n·10^exponent exactly, whatever the decimal context's precision (scaleb would round to it)."""
    return Decimal((0 if n >= 0 else 1, tuple(int(c) for c in str(abs(n))), exponent))
