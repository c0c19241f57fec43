"""Exact attention (mha.exact): closed forms against the float64 trace, the seed's closed forms, the caps."""

import json
from decimal import Decimal
from fractions import Fraction

import numpy as np
import pytest

sp = pytest.importorskip("sympy")
mpmath = pytest.importorskip("mpmath")

import mha  # noqa: E402
from mha.exact import MAX_SCORES, ExactError, exact_layer, float_input, json_number, read_number, to_decimal  # noqa: E402

ARRAYS = ("Q", "K", "V", "QKt", "S", "row_max", "E", "row_sum", "A", "O", "O_concat", "Y")
LARGEST_RELATIVE: list[float] = []


def mp50(x):
    """A closed form evaluated with mpmath at 50 digits."""
    if x == sp.S.NegativeInfinity:
        return -mpmath.inf
    with mpmath.workdps(50):
        return mpmath.mpf(x.evalf(50)._mpf_) if x != 0 else mpmath.mpf(0)


def compare(data, *, tol=1e-15):
    """Every entry of every intermediate: the closed form at 50 digits against the float64 trace.

    The difference is measured relative to the largest magnitude of that array (a sum that cancels to
    almost 0 keeps the absolute error of its terms)."""
    steps, t = exact_layer(data), mha.trace(float_input(data))
    worst = 0.0
    for name in ARRAYS + tuple(n for n in ("Qh_rope", "Kh_rope", "position_bias") if getattr(t, n) is not None):
        ex, fl = getattr(steps, name), getattr(t, name)
        assert ex.shape == fl.shape, name
        finite = np.isfinite(fl)
        scale = max(1.0, float(np.abs(fl[finite]).max())) if finite.any() else 1.0
        for idx in np.ndindex(*fl.shape):
            v = mp50(ex[idx])
            if not finite[idx]:
                assert v == -mpmath.inf and fl[idx] == -np.inf, (name, idx)
                continue
            rel = float(abs(v - mpmath.mpf(float(fl[idx])))) / scale
            assert rel <= tol, (name, idx, ex[idx], fl[idx], rel)
            worst = max(worst, rel)
    np.testing.assert_array_equal(steps.fully_masked, t.fully_masked)
    LARGEST_RELATIVE.append(worst)
    return steps, t


# ------------------------------------------------------------------ random small rational configurations

def small_number(rng):
    """An integer, a one- or two-place decimal (kept as its JSON text) or a fraction "p/q", all in [-1, 1]:
    small scores, so that float64's own error (a few ulps times the scores' size) stays under 1e-15."""
    kind = rng.integers(4)
    if kind == 0:
        return int(rng.integers(-1, 2))
    if kind == 1:
        return json_number(f"{rng.integers(-10, 11) / 10:.1f}")
    if kind == 2:
        return json_number(f"{rng.integers(-100, 101) / 100:.2f}")
    q = int(rng.integers(1, 5))
    return f"{int(rng.integers(-q, q + 1))}/{q}"


def matrix(rng, *shape):
    return np.array([small_number(rng) for _ in range(int(np.prod(shape)))], dtype=object).reshape(shape).tolist()


def random_config(seed):
    rng = np.random.default_rng(seed)
    H = int(rng.choice([1, 2, 2, 4]))
    G = int(rng.choice([g for g in (1, 2, H) if H % g == 0]))
    T = int(rng.integers(1, 5))
    d_k, d_v = int(rng.integers(1, 4)), int(rng.integers(1, 4))
    given = rng.random() < 0.25
    if given:
        S = int(rng.integers(1, 5))
        data = {"Q": matrix(rng, T, H * d_k), "K": matrix(rng, S, G * d_k), "V": matrix(rng, S, G * d_v),
                "n_heads": H}
    else:
        d_model = int(rng.integers(1, 4))
        data = {"X": matrix(rng, T, d_model), "n_heads": H, "W_Q": matrix(rng, d_model, H * d_k),
                "W_K": matrix(rng, d_model, G * d_k), "W_V": matrix(rng, d_model, G * d_v)}
        S = T
        if rng.random() < 0.3:
            data["W_O"] = "none"
        elif rng.random() < 0.5:
            data["W_O"] = matrix(rng, H * d_v, int(rng.integers(1, 4)))
            if rng.random() < 0.3:
                data["b_O"] = matrix(rng, len(data["W_O"][0]))
        if rng.random() < 0.2:
            data["b_Q"] = matrix(rng, H * d_k)
    if G != H:
        data["n_kv_heads"] = G
    data["scale"] = [None, "none", "1/d_k", "1/sqrt(d_k)", json_number("0.5"), "2/3"][int(rng.integers(6))]
    if data["scale"] is None:
        del data["scale"]
    mask_kind = int(rng.integers(5))
    if mask_kind == 1:
        data["causal"] = bool(rng.random() < 0.5) or "bottom_right"
    elif mask_kind == 2:
        data["mask"] = (rng.random((T, S)) < 0.7).tolist()
    elif mask_kind == 3:
        data["bias"] = [[None if rng.random() < 0.2 else small_number(rng) for _ in range(S)] for _ in range(T)]
    elif mask_kind == 4:
        data["window"] = int(rng.integers(1, 3))
        data["causal"] = bool(rng.random() < 0.5)
    if rng.random() < 0.2:
        data["alibi"] = True if rng.random() < 0.5 else matrix(rng, H)
    if rng.random() < 0.2 and d_k % 2 == 0:
        data["rope"] = {"inv_freq": [1] * (d_k // 2)} if rng.random() < 0.5 else True
    return data


@pytest.mark.parametrize("seed", range(120))
def test_closed_forms_match_the_float64_trace(seed):
    """>= 100 random small rational configurations: every closed form at 50 digits within 1e-15 of float64."""
    compare(random_config(seed))


def test_the_random_configurations_cover_every_variant():
    """The 120 configurations above are not all alike: each variant occurs (else the test would be hollow)."""
    keys = [set(random_config(s)) for s in range(120)]
    for key in ("Q", "X", "n_kv_heads", "causal", "mask", "bias", "window", "alibi", "rope", "scale", "W_O", "b_O"):
        assert sum(key in k for k in keys) >= 3, key


@pytest.mark.parametrize("name", ["document", "single-head", "per-head", "qkv", "xxt", "batch", "gqa", "rope",
                                  "alibi", "window"])
def test_named_examples_exactly(name):
    compare(mha.EXAMPLES[name].data)


def test_cache_and_cross_attention():
    compare({"X": [[0, 1, 1, 0]], "n_heads": 2, "causal": True,
             "cache": {"K": [[[1, 0], [0, 1], [1, 1]], [[1, 0], [0, 1], [0, 0]]],
                       "V": [[[1, 0], [0, 1], [1, 1]], [[1, 0], [0, 1], [0, 0]]]}})
    compare({"X": [[1, 0], [0, 1]], "key": [[1, 1], [0, 2], [1, 0]], "value": [[2, 0], ["1/2", 1], [0, 0]],
             "n_heads": 1, "W_O": "none", "key_lengths": [2]})
    compare({"X": [[[1, 0], [0, 1]], [[1, 1], [0, 0]]], "n_heads": 2, "key_lengths": [1, 2]})


# ------------------------------------------------------------------ the seed, exactly

def test_seed_closed_forms_are_the_float64_trace_to_one_ulp():
    steps, t = compare(mha.DOCUMENT_EXAMPLE)
    for name in ARRAYS:
        ex, fl = getattr(steps, name), getattr(t, name)
        for idx in np.ndindex(*fl.shape):
            assert abs(float(mp50(ex[idx])) - fl[idx]) <= np.spacing(abs(fl[idx])), (name, idx)


def test_seed_row_3_has_the_closed_forms_the_readme_shows():
    """A^(1) row 3 and O^(1) row 3, as README.md writes them, are the exact values (sympy proves it)."""
    steps = exact_layer(mha.DOCUMENT_EXAMPLE)
    r = sp.exp(sp.sqrt(2) / 2)
    readme_A = [1 / (2 + r), 1 / (2 + r), r / (2 + r)]
    readme_O = [(1 + r) / (2 + r), (1 + r) / (2 + r)]
    for got, want in zip(steps.A[0, 0, 2], readme_A):
        assert sp.simplify(got - want) == 0
    for got, want in zip(steps.O[0, 0, 2], readme_O):
        assert sp.simplify(got - want) == 0
    # the seed's 0.7518 is 0.75174..., correctly rounded at 30 digits
    # (the expected digits are mpmath's, computed from the README's form at 60 digits, independently)
    with mpmath.workdps(60):
        r60 = mpmath.exp(mpmath.sqrt(2) / 2)
        assert mpmath.nstr((1 + r60) / (2 + r60), 45) == "0.751744921742276930306813310450295759018354113"
    assert f"{to_decimal(steps.O[0, 0, 2, 0], 30):.30f}" == "0.751744921742276930306813310450"
    assert f"{to_decimal(steps.O[0, 0, 2, 0], 4):.4f}" == "0.7517"


def test_seed_head_2_ties_are_equal_expressions():
    steps = exact_layer(mha.DOCUMENT_EXAMPLE)
    A2 = steps.A[0, 1]
    assert A2[0, 1] == A2[0, 2] and A2[0, 0] != A2[0, 1]
    assert A2[2, 0] == A2[2, 1] == A2[2, 2] == sp.Rational(1, 3)


# ------------------------------------------------------------------ reading numbers

def test_numbers_are_read_from_their_text():
    assert read_number(json_number("0.1"), "X") == Fraction(1, 10)
    assert read_number(0.1, "X") == Fraction(1, 10)                 # a float by its shortest repr
    assert read_number("-3/6", "X") == Fraction(-1, 2)
    assert read_number(json_number("123456789012345"), "X") == 123456789012345
    assert read_number(json_number("2.500000000000000000000"), "X") == Fraction(5, 2)
    data = json.loads('{"X": [[0.1, 0.25]], "n_heads": 1}', parse_float=json_number)
    assert exact_layer(data).Q[0, 0, 0] == sp.Rational(1, 10)


@pytest.mark.parametrize("value,needles", [
    (json_number("1e-300"), ["X[0][1]", "1E-300", "not a short decimal", "300 digits after the point"]),
    (float("nan"), ["X[0][1]", "NaN", "no exact value"]),
    (float("inf"), ["X[0][1]", "no exact value"]),
    (json_number("0.12345678901234567"), ["X[0][1]", "17 significant digits"]),
    (0.30000000000000004, ["X[0][1]", "17 significant digits"]),
    ("1/0", ["X[0][1]", "divides by zero"]),
    ("one", ["X[0][1]", "not a number"]),
])
def test_inputs_without_an_exact_reading_are_refused_by_name(value, needles):
    with pytest.raises(ExactError) as e:
        exact_layer({"X": [[1, value]], "n_heads": 1})
    for needle in needles:
        assert needle in str(e.value), (needle, str(e.value))


def test_the_size_cap():
    data = {"X": np.ones((23, 2), dtype=int).tolist(), "n_heads": 1}          # 23·23 = 529 scores
    with pytest.raises(ExactError, match=f"B·H·T·S = 1·1·23·23 = 529 scores, past the cap of {MAX_SCORES}"):
        exact_layer(data)
    exact_layer({"X": np.ones((22, 2), dtype=int).tolist(), "n_heads": 1})    # 484: under the cap


def test_the_expression_size_cap(monkeypatch):
    import mha.exact as exact
    data = {"X": [[1, 0], [0, 1], ["1/3", "2/7"], [1, 1]], "n_heads": 1, "W_O": [[1, 2], [3, 4]]}
    exact_layer(data)
    monkeypatch.setattr(exact, "MAX_NODES", 20)
    with pytest.raises(ExactError, match=r"exact: Y\[0, 0, 0\] has a closed form of \d+ nodes, past the cap of 20"):
        exact_layer(data)


# ------------------------------------------------------------------ digits

@pytest.mark.parametrize("decimals", [30, 50])
def test_digits_are_correctly_rounded(decimals):
    steps = exact_layer(mha.DOCUMENT_EXAMPLE)
    with mpmath.workdps(decimals + 40):
        for idx in np.ndindex(*steps.A.shape):
            x = steps.A[idx]
            want = mpmath.nstr(mpmath.mpf(x.evalf(decimals + 40)._mpf_), decimals + 2, strip_zeros=False) \
                if x != 0 else None
            got = f"{to_decimal(x, decimals):.{decimals}f}"
            if want is not None:
                assert got == f"{Decimal(want):.{decimals}f}", idx


def test_digits_on_a_rounding_tie_and_near_one():
    assert f"{to_decimal(sp.Rational(1, 8), 2):.2f}" == "0.12"           # exactly a tie: half to even, as floats
    assert f"{to_decimal(sp.Rational(3, 8), 2):.2f}" == "0.38"
    assert f"{to_decimal(1 - sp.Rational(1, 10**40), 30):.30f}" == "1.000000000000000000000000000000"
    assert f"{to_decimal(sp.Rational(1, 10**40) - 1, 30):.30f}" == "-1.000000000000000000000000000000"
    assert to_decimal(sp.S.NegativeInfinity, 5) == Decimal("-Infinity")


def test_largest_difference_is_reported():
    """Runs last in this module: the largest relative difference seen, printed with -s."""
    assert LARGEST_RELATIVE and max(LARGEST_RELATIVE) <= 1e-15
    print(f"\nclosed forms vs float64 on {len(LARGEST_RELATIVE)} configurations: largest relative difference "
          f"{max(LARGEST_RELATIVE):.2e}")


def test_to_decimal_at_a_place_left_of_the_point():
    """A number printed as 1e+300 has its last digit 290 places left of the point (decimals = -290): the
    truncation is integer arithmetic there too (it raised ValueError on a float from 10 ** -289, found by fuzzing
    a field document)."""
    x = sp.Rational(10 ** 300 + 7, 3)
    d = to_decimal(x, -290)
    assert d.quantize(Decimal("1e290")) == Decimal(int(x) // 10 ** 290).scaleb(290).quantize(Decimal("1e290"))
    assert abs(d - Decimal(x.p) / Decimal(x.q)) < Decimal("1e289")
