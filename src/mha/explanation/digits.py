"""Every printed digit correct at any precision: the trace's numbers as certified Decimals (--precision > 12).

float64 holds 15 to 17 significant digits, and the reference core's results
are a few units in the last place off, so up to FLOAT_PRECISION decimals the
explanation prints the float64 trace (correctly rounded, as everywhere in mha).
Beyond that the numbers come from the exact layer (`mha.exact`): each closed
form is evaluated with mpmath until its digits are certified
(`mha.exact.to_decimal`), and the explanation is built over a trace whose arrays
hold those Decimals, so the same steps print them.  The input's numbers must
then have an exact reading (integers, fractions, short decimals).
"""

from __future__ import annotations

from dataclasses import replace

import numpy as np

from ..inputs import MHAInputError
from ..trace import Trace

FLOAT_PRECISION = 12          # the most decimals printed from float64; more come from the exact layer
MAX_PRECISION = 100
STEP_FIELDS = ("Q", "K", "V", "Qh", "Kh", "Vh", "Qh_rope", "Kh_rope", "K_all", "V_all", "QKt", "position_bias", "S",
               "row_max", "E", "row_sum", "A", "O", "O_concat", "Y")


def refuse_unsupported(trace: Trace, precision: int, tiled: bool) -> None:
    """The walk-throughs that compute their own examples in float64 cannot print more digits than it holds."""
    if trace.config.rope is not None:
        raise MHAInputError(f"precision: {precision} decimals with RoPE is not available (the rotation's worked "
                            f"example is computed in float64); use --precision {FLOAT_PRECISION} or less")
    if tiled:
        raise MHAInputError(f"precision: {precision} decimals with --tiled is not available (the online softmax "
                            f"is walked through in float64); use --precision {FLOAT_PRECISION} or less")


def precise_trace(trace: Trace, steps, precision: int) -> Trace:
    """The trace with every number (inputs included) as a Decimal whose rounding to `precision` (or up to two
    more) decimals is the exact value's (`mha.exact.to_decimal`)."""
    from ..exact import to_decimal
    places = precision + 2            # the rounding note prints an exact value two places further

    def digits(arr: np.ndarray | None) -> np.ndarray | None:
        if arr is None:
            return None
        out = np.empty(arr.shape, dtype=object)
        for idx in np.ndindex(*arr.shape):
            out[idx] = to_decimal(arr[idx], places)
        return out

    x, c = steps.inputs, trace.config
    config = replace(c, X=digits(x.X), key=digits(x.key), value=digits(x.value), Q_in=digits(x.Q_in),
                     K_in=digits(x.K_in), V_in=digits(x.V_in), W_Q=digits(x.W_Q), W_K=digits(x.W_K),
                     W_V=digits(x.W_V), W_O=digits(x.W_O), cache_K=digits(x.cache_K), cache_V=digits(x.cache_V),
                     bias=digits(x.bias), alibi=digits(x.slopes),
                     scale=to_decimal(x.scale, places) if c.scale_rule == "number" else c.scale,
                     **{name: digits(v) for name, v in x.b.items()})
    arrays = {name: digits(getattr(steps, name)) for name in STEP_FIELDS}
    return Trace(config=config, fully_masked=trace.fully_masked, **arrays)

