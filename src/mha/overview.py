"""`mha explain --model NAME --overview`: every layer and head of a model on one text, at a glance.

One forward pass captures every chosen layer (`mha.hf.from_hf_layers`, which
stops the model after the deepest); each layer is then computed in float64 by
the core, summarised (`mha.explanation.overview`) and dropped before the next,
so memory holds one layer's weights and trace at a time.  The HTML page also needs every head's
step-by-step explanation; `on_trace` lets its renderer read each trace while it
is alive.

Limits, so that a page stays small and a run stays short: at most MAX_CELLS
layer-head cells and MAX_WEIGHTS attention weights in all (cells x T x T); past
them the command asks for --layers / --heads in one line.  The page draws each
cell from at most 128 x 128 weights (`explanation.overview.DOWNSAMPLE_FROM`) (block means past
that, and the page says so); the other formats keep every weight.
"""

from __future__ import annotations

from typing import Any, Callable, Sequence

import numpy as np

from .explanation.overview import HeadView, Overview, summarize
from .inputs import MHAInputError

MAX_CELLS = 256
MAX_WEIGHTS = 2**22          # 4,194,304: GPT-2's 144 heads at T = 170, or 16 heads at T = 512


def pick(chosen: Sequence[int] | None, n: int, flag: str, what: str, base: int) -> tuple[int, ...]:
    """The chosen indices (0-based), all of them by default; out of range is one line counted from `base`.

    >>> pick([0, 2], 3, "--layers", "layers", 0), pick(None, 2, "--heads", "heads per layer", 1)
    ((0, 2), (0, 1))
    """
    if chosen is None:
        return tuple(range(n))
    bad = [i + base for i in chosen if not 0 <= i < n]
    if bad:
        raise MHAInputError(f"{flag}: {', '.join(map(str, bad))} out of range; the model has {n} {what}, "
                            f"{base}..{n - 1 + base}")
    if not chosen:
        raise MHAInputError(f"{flag}: nothing chosen")
    return tuple(sorted(set(chosen)))


def check_size(n_layers: int, n_heads: int, T: int) -> None:
    """Refuse, in one line, an overview past the stated limits."""
    cells = n_layers * n_heads
    hint = "; choose some with --layers (e.g. --layers 0-3) or --heads (e.g. --heads 1-4)"
    if cells > MAX_CELLS:
        raise MHAInputError(f"--overview: {n_layers} layers × {n_heads} heads = {cells} cells is more than "
                            f"{MAX_CELLS}{hint}")
    if cells * T * T > MAX_WEIGHTS:
        raise MHAInputError(f"--overview: {cells} cells × {T}² token pairs = {cells * T * T:,} weights is more "
                            f"than {MAX_WEIGHTS:,}{hint}, or give a shorter text")


def build(model: Any, *, text: str | None = None, input_ids: Sequence[int] | None = None, tokenizer: Any = None,
          layers: Sequence[int] | None = None, heads: Sequence[int] | None = None, name: str = "",
          on_trace: Callable[[int, Any], None] | None = None) -> Overview:
    """The overview of `model` on one text (or token ids): chosen layers (0-based) and heads (0-based).

    on_trace(layer, trace) is called with each layer's trace before it is dropped.
    """
    from .hf import SUPPORTED, from_hf_layers
    config = model.config
    family = getattr(config, "model_type", None)
    if family not in SUPPORTED:
        raise MHAInputError(f"model: family {family!r} is not supported; supported families: {', '.join(SUPPORTED)}")
    H = int(config.num_attention_heads)
    G = int(getattr(config, "num_key_value_heads", None) or H)
    chosen_layers = pick(layers, int(config.num_hidden_layers), "--layers", "layers", 0)
    chosen_heads = pick(heads, H, "--heads", "heads per layer", 1)
    if text is not None and not isinstance(text, str):
        raise MHAInputError("text: the overview reads one text (a string)")
    if text is not None and tokenizer is None:
        raise MHAInputError("tokenizer: needed to turn text into tokens; pass tokenizer= or input_ids=")
    shape = None if text is not None else np.shape(input_ids)
    if shape is not None and not (len(shape) == 1 or (len(shape) == 2 and shape[0] == 1)):
        raise MHAInputError(f"input_ids: the overview reads one sequence of token ids [T] or [1, T], got shape "
                            f"{list(shape)}")
    T = len(tokenizer(text)["input_ids"]) if text is not None else np.asarray(input_ids).size
    check_size(len(chosen_layers), len(chosen_heads), T)
    cells: list[HeadView] = []
    masked: dict[int, np.ndarray] = {}
    tokens: tuple[str, ...] = ()
    for layer, t in zip(chosen_layers, from_hf_layers(model, chosen_layers, text=text, input_ids=input_ids,
                                                     tokenizer=tokenizer)):
        labels = t.config.tokens
        tokens = tuple(labels[0]) if labels else tuple(str(i + 1) for i in range(t.config.T))
        masked[layer] = t.S[0, 0] == -np.inf                     # [T, S]; the same for every head
        for h in chosen_heads:
            A = np.array(t.A[0, h])                              # a copy: the trace is dropped below
            cells.append(HeadView(layer=layer, head=h, kv_head=int(t.group(h)), A=A, summary=summarize(A)))
        if on_trace is not None:
            on_trace(layer, t)
        del t
    return Overview(model=name, family=family, tokens=tokens, n_layers=int(config.num_hidden_layers), n_heads=H,
                    n_kv_heads=G, layers=chosen_layers, heads=chosen_heads, cells=tuple(cells), masked=masked)


def from_model_name(name: str, *, text: str | None = None, input_ids: Sequence[int] | None = None,
                    layers: Sequence[int] | None = None, heads: Sequence[int] | None = None, dtype: str = "float32",
                    revision: str | None = None, offline: bool = False,
                    on_trace: Callable[[int, Any], None] | None = None) -> Overview:
    """Load a model as `mha.hub.load` does and build its overview; every problem is one MHAInputError line."""
    from .hub import load
    model, tokenizer = load(name, dtype=dtype, revision=revision, offline=offline)
    if text is not None and tokenizer is None:
        raise MHAInputError(f"--text: {name} has no tokenizer saved with it; give --input-ids")
    return build(model, text=text, input_ids=input_ids, tokenizer=tokenizer, layers=layers, heads=heads, name=name,
                 on_trace=on_trace)


def run(name: str, *, fmt: str, lang: str = "en", precision: int = 4, text: str | None = None,
        input_ids: Sequence[int] | None = None, layers: Sequence[int] | None = None,
        heads: Sequence[int] | None = None, dtype: str = "float32", revision: str | None = None,
        offline: bool = False, plot: str | None = None) -> str:
    """What `mha explain --model NAME --overview` prints: the overview in text, md, json or html (and --plot)."""
    fragments: dict[int, dict[str, Any]] = {}       # layer -> its explanation, cut by head (the page's)
    on_trace = None
    if fmt == "html":
        from .render.overview_html import layer_fragments

        def on_trace(layer: int, t: Any) -> None:
            chosen = pick(heads, t.config.n_heads, "--heads", "heads per layer", 1)
            fragments[layer] = layer_fragments(t, chosen, lang=lang, precision=precision, layer=layer)

    ov = from_model_name(name, text=text, input_ids=input_ids, layers=layers, heads=heads, dtype=dtype,
                         revision=revision, offline=offline, on_trace=on_trace)
    if plot:
        from .render.overview_plot import save_overview
        save_overview(ov, plot, lang)
    if fmt == "html":
        from .render.overview_html import render_overview_html
        return render_overview_html(ov, fragments, lang=lang, precision=precision)
    if fmt == "json":
        from .render.overview import render_overview_json
        return render_overview_json(ov)
    if fmt == "md":
        from .render.overview import render_overview_markdown
        return render_overview_markdown(ov, lang)
    from .render.overview import render_overview_text
    return render_overview_text(ov, lang)
