"""The explanation model: a trace turned into the worked example's ordered steps, as plain data.

The views (text, Markdown, LaTeX, HTML) live one layer up, in `mha.render`,
and take an `Explanation` as their argument; nothing here imports them.

>>> ex = explain(lang="en")
>>> [s.key for s in ex.sections][:3]
['setup', 'projections', 'split']
>>> concat = next(s for s in ex.sections if s.key == "concat")
>>> m = concat.blocks[-1]                     # O_concat: numbers and flags, not strings
>>> m.symbol, m.approx, m.cells[2][0]  # doctest: +ELLIPSIS
('O_{\\\\text{concat}}', True, Cell(value=0.75174..., masked=False))
"""

from __future__ import annotations

import decimal
from dataclasses import dataclass
from typing import Any

from ..trace import Trace
from .backward import BackwardSteps
from .blocks import Cell, Display, Items, Matrix, Note, Para, Section, Table
from .catalog import LANGS, catalog, default_lang
from .model import Builder
from .options import Options
from .tiled import Tiled

__all__ = ["explain", "build", "Explanation", "Options", "default_lang", "LANGS", "Section", "Para", "Note",
           "Items", "Display", "Matrix", "Cell", "Table"]


@dataclass(frozen=True)
class Explanation:
    """The steps of one configuration, in one language: sections of blocks, and a heatmap per head."""

    title: str
    subtitle: str
    sections: tuple[Section, ...]
    lang: str
    trace: Trace
    options: Options
    heatmaps: tuple[Matrix, ...] = ()      # A^(h) for every head: the HTML grid

    def __repr__(self) -> str:
        c = self.trace.config
        return (f"<Explanation lang={self.lang} T={c.T} S={c.S} d_model={c.d_model} "
                f"H={c.n_heads} sections={len(self.sections)}>")


def build(trace: Trace, opts: Options, exact_steps: Any = None) -> Explanation:
    """The explanation of a computed trace with these options.

    With opts.exact, closed forms follow the matrices (`closed.ExactBuilder`); above FLOAT_PRECISION decimals
    the numbers are certified digits of the exact values (`digits.precise_trace`).  exact_steps are the
    trace's `mha.exact.exact_layer`, computed here from the trace's configuration when not given."""
    from .digits import FLOAT_PRECISION
    precise = opts.precision > FLOAT_PRECISION
    steps = exact_steps
    if (opts.exact or precise) and steps is None:
        from ..exact import exact_layer
        steps = exact_layer(trace.config.to_input(), trace.config)
    shown = trace
    if precise:
        from .digits import precise_trace, refuse_unsupported
        refuse_unsupported(trace, opts.precision, bool(opts.tiled_block))
        shown = precise_trace(trace, steps, opts.precision)
    with decimal.localcontext() as ctx:
        ctx.prec = opts.precision + 60        # derived numbers (row sums, √d_k, 1/k) keep every printed digit
        if opts.exact:
            from .closed import ExactBuilder
            builder: Builder = ExactBuilder(shown, opts, steps)
        else:
            builder = Builder(shown, opts)
        appendix = Tiled(trace, opts).sections() if opts.tiled_block else []
        if opts.devices:
            from .ring import RingWalk
            appendix += RingWalk(trace, opts).sections()
        sections = tuple(builder.build(appendix))
        heatmaps = builder.heatmaps()
    cat = catalog(opts.lang)
    backward = BackwardSteps(trace, opts).sections()           # empty unless the trace has its gradients
    return Explanation(title=cat["title"], subtitle=cat["subtitle"].replace("<precision>", str(opts.precision)),
                       sections=sections + tuple(backward), lang=opts.lang, trace=trace, options=opts,
                       heatmaps=heatmaps)


def explain(source: Any = None, query: Any = None, key: Any = None, value: Any = None, *,
            lang: str | None = None, precision: int = 4, heads: Any = None, tokens: slice | None = None,
            full: bool = False, batch: int = 0, tiled_block: int | None = None, exact: bool = False,
            devices: int | None = None,
            key_padding_mask: Any = None, attn_mask: Any = None, is_causal: bool = False,
            **params: Any) -> Explanation:
    """Explain one configuration step by step.

    source is a `Trace`, an input mapping, an X array (with n_heads=... and other
    parameters as keywords), a ``torch.nn.MultiheadAttention`` (then query, key,
    value and torch's masks follow), or None for the worked example.  heads
    (0-based indices), tokens (a slice of query rows) and batch (0-based) choose
    what is shown in detail.  exact adds every entry's closed form (sympy; the
    input's numbers must be integers, fractions or short decimals); tiled_block adds the
    online-softmax walk-through, devices the ring over that many devices.
    """
    from ..trace import trace as compute
    from ..examples import DOCUMENT_EXAMPLE
    from ..inputs import MHAInputError

    steps = None
    if isinstance(source, Trace):
        t = source
    elif type(source).__name__ == "MultiheadAttention":
        from ..interop import from_torch
        if query is None:
            raise MHAInputError("query: explaining a torch module needs an input tensor")
        t = compute(from_torch(source, query, key, value, key_padding_mask=key_padding_mask,
                               attn_mask=attn_mask, is_causal=is_causal), **params)
    elif exact and (source is None or isinstance(source, dict)):
        from ..exact import exact_layer, float_input           # the numbers as written, not as floats
        data = dict(DOCUMENT_EXAMPLE if source is None else source, **params)
        steps = exact_layer(data)
        t = compute(float_input(data))
    else:
        t = compute(DOCUMENT_EXAMPLE if source is None else source, **params)
    opts = Options(lang=lang or default_lang(), precision=precision,
                   heads=None if heads is None else tuple(int(h) for h in heads), tokens=tokens, full=full,
                   batch=batch, tiled_block=tiled_block, exact=exact, devices=devices)
    return build(t, opts, steps)

