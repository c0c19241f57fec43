"""The options of an explanation, with one set of rules for the command line and the server.

Both front ends hand their raw values (the CLI from its flags, the server from
its JSON body) to `parse_request`, so each rule is written once: what
"identity" weights mean, the seed and precision ranges, which languages exist,
1-based head and sequence numbers, and the server's size limits, which are
checked on the parsed `Config`.

>>> r = parse_request({"X": [[1, 2], [3, 4]], "n_heads": 1}, weights="identity", lang="zh,en", heads=[1])
>>> r.langs, r.heads, r.input["W_O"]
(('zh', 'en'), (0,), 'identity')
>>> parse_request({}, seed=-5, weights="random")
Traceback (most recent call last):
...
mha.inputs.MHAInputError: seed: expected an integer from 0 to 4294967295, got -5
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Iterable, Mapping, Sequence

import numpy as np

from ..inputs import Config, MHAInputError, as_array
from .catalog import LANGS
from .tokens import first_query, query_rows

WEIGHTS = ("identity", "random", "custom")    # custom: the weights the input gives
WIDTHS = ("d_k", "d_v", "d_out")               # the head and output widths of random weights
MAX_PRECISION = 100      # above 12 decimals the digits come from the exact layer (digits.FLOAT_PRECISION)
MAX_SEED = 2**32 - 1
MAX_DEVICES = 16                               # the ring walk-through: a table per step and head stays readable


@dataclass(frozen=True)
class Options:
    """How one explanation is shown.  heads and batch are 0-based indices here; users see them 1-based."""

    lang: str = "en"
    precision: int = 4
    heads: tuple[int, ...] | None = None     # heads to walk through; None = automatic
    tokens: slice | None = None              # query tokens shown in detail, 0-based along their numbers; None = all
    full: bool = False                       # never elide
    batch: int = 0                           # which sequence of the batch to walk through
    tiled_block: int | None = None           # add the online-softmax walk-through with this key block
    exact: bool = False                      # closed forms beside the decimals (mha.exact; needs sympy)
    devices: int | None = None               # add the ring walk-through on this many devices

    def check(self, cfg: Config) -> None:
        """Refuse options that do not fit the configuration, numbering heads and sequences from 1 as shown."""
        if self.lang not in LANGS:
            raise MHAInputError(f"lang: expected one of {', '.join(LANGS)}, got {self.lang!r}")
        _check_int("precision", self.precision, 0, MAX_PRECISION)
        if not 0 <= self.batch < cfg.B:
            raise MHAInputError(f"batch: sequence {self.batch + 1} does not exist; the batch has B = {cfg.B} "
                                f"(numbered 1 to {cfg.B})")
        bad = [h + 1 for h in self.heads or () if not 0 <= h < cfg.n_heads]
        if bad:
            raise MHAInputError(f"heads: {', '.join(map(str, bad))} out of range; the layer has H = {cfg.n_heads} "
                                f"heads, numbered 1 to {cfg.n_heads}")
        if self.tokens is not None and not query_rows(cfg, self.tokens):
            first = first_query(cfg)
            raise MHAInputError(f"tokens: the range selects no query token (T = {cfg.T}, numbered {first + 1} to "
                                f"{first + cfg.T})")
        if self.tiled_block is not None:
            _check_int("block_size", self.tiled_block, 1, None)
        if self.devices is not None:                          # a device per token at most: none stands idle
            _check_int("devices", self.devices, 1, min(cfg.T, MAX_DEVICES))


@dataclass(frozen=True)
class Limits:
    """The largest layer the server explains (a page with every number must stay small)."""

    tokens: int = 64          # T and S
    d_model: int = 64
    heads: int = 16
    numbers: int = 20_000     # every array of the configuration together

    def check_input(self, data: Mapping[str, Any]) -> None:
        """Before the configuration is parsed: the sizes of the token arrays (X, key, value, or Q, K, V).

        Parsing builds the identity or random weights, d_model × d_model, so a
        too wide X must be refused before that, not after.
        """
        for field, tokens in (("X", "T"), ("key", "S"), ("value", "S"), ("Q", "T"), ("K", "S"), ("V", "S")):
            if data.get(field) is not None:
                shape = as_array(data[field], field, ndims=(2, 3)).shape
                width = "d_model" if field == "X" else "width"
                self._sizes(field, ((tokens, shape[-2], self.tokens), (width, shape[-1], self.d_model)))

    def check_random(self, data: Mapping[str, Any], widths: Mapping[str, Any]) -> None:
        """Before random weights are drawn (d_model × H·d_k and more): the head counts and the widths asked."""
        for field, symbol in (("n_heads", "H"), ("n_kv_heads", "G")):
            if data.get(field) is not None:
                _check_int(field, data[field], 1, None)
                self._sizes(field, ((symbol, data[field], self.heads),))
        for name, value in widths.items():
            if value is not None:
                _check_int(name, value, 1, None)
                self._sizes(name, ((name, value, self.d_model),))

    def check(self, cfg: Config) -> None:
        """Raise `LimitError` naming the first size of the parsed configuration over its limit."""
        self._sizes("input", (("T", cfg.T, self.tokens), ("S", cfg.S, self.tokens),
                              ("H", cfg.n_heads, self.heads)))
        if cfg.d_model is not None:
            self._sizes("X", (("d_model", cfg.d_model, self.d_model),))
        total = sum(a.size for a in vars(cfg).values() if isinstance(a, np.ndarray))
        if total > self.numbers:
            raise LimitError(f"input: {total} numbers, the limit is {self.numbers}")

    @staticmethod
    def _sizes(field: str, sizes: Iterable[tuple[str, int, int]]) -> None:
        for name, value, limit in sizes:
            if value > limit:
                raise LimitError(f"{field}: {name} = {value}, the limit is {name} <= {limit}")


class LimitError(MHAInputError):
    """A configuration larger than the server's limits."""


@dataclass(frozen=True)
class Request:
    """One explain request: the input mapping with its weights settled, and how to show it."""

    input: dict[str, Any]
    langs: tuple[str, ...] = ("en",)
    precision: int = 4
    heads: tuple[int, ...] | None = None     # 0-based
    tokens: slice | None = None
    full: bool = False
    batch: int = 0                           # 0-based
    tiled_block: int | None = None
    exact: bool = False
    devices: int | None = None

    def options(self, lang: str) -> Options:
        return Options(lang=lang, precision=self.precision, heads=self.heads, tokens=self.tokens, full=self.full,
                       batch=self.batch, tiled_block=self.tiled_block, exact=self.exact, devices=self.devices)


def parse_request(data: Mapping[str, Any], *, weights: str | None = None, seed: Any = None,
                  lang: str | Sequence[str] | None = None, precision: Any = 4, heads: Sequence[Any] | None = None,
                  tokens: str | None = None, full: bool = False, batch: Any = None,
                  block_size: Any = None, widths: Mapping[str, Any] | None = None, exact: bool = False,
                  max_precision: int = MAX_PRECISION, backward: Any = None, devices: Any = None) -> Request:
    """Check every option once and settle the weights.

    weights "identity" sets W_Q, W_K, W_V and W_O to the identity (whatever the
    input held, except that "W_O": "none" stays); "random" draws them from
    `seed`, shaped by widths (d_k, d_v, d_out; None entries ignored); "custom"
    or None keeps the input's.  heads, batch and the tokens range "FIRST:LAST"
    are 1-based, as every heading and label reads.  lang is a code or a
    comma-separated list.  backward (the page's toggle, --backward) adds the backward steps: True keeps
    the input's "backward" key or sets L = sum of Y, an upstream mapping ({"dY": ...}, {"target": ...})
    replaces it, False removes it, None leaves the input as it is.
    """
    from ..inputs import with_random_weights
    if not isinstance(data, Mapping):
        raise MHAInputError(f"input: expected a JSON object, got {type(data).__name__}")
    data = dict(data)
    if weights is not None and weights not in WEIGHTS:
        raise MHAInputError(f"weights: expected {', '.join(WEIGHTS)}, got {weights!r}")
    if seed is not None:
        if weights != "random":
            raise MHAInputError("seed: only used with random weights (--weights random)")
        _check_int("seed", seed, 0, MAX_SEED)
    widths = {k: v for k, v in (widths or {}).items() if v is not None}
    for name, value in widths.items():
        if name not in WIDTHS:
            raise MHAInputError(f"widths: expected {', '.join(WIDTHS)}, got {name!r}")
        if weights != "random":
            raise MHAInputError(f"{name}: only used with random weights (it shapes them)")
        _check_int(name, value, 1, None)
    if weights == "random":
        if data.get("n_kv_heads") is not None:      # it shapes W_K and W_V: an integer before they are drawn
            _check_int("n_kv_heads", data["n_kv_heads"], 1, None)
        data = with_random_weights(data, 0 if seed is None else seed, **widths)
    elif weights == "identity":         # "W_O": "none" (no output projection) is a structure, not a weight: it stays
        data.update({k: "identity" for k in ("W_Q", "W_K", "W_V", "W_O")
                     if not (k == "W_O" and isinstance(data.get(k), str) and data[k] == "none")})
    if backward is False:
        data.pop("backward", None)
    elif backward is True:
        data.setdefault("backward", {"loss": "sum"})
    elif isinstance(backward, Mapping):
        data["backward"] = dict(backward)
    elif backward is not None:
        raise MHAInputError(f"backward: expected true, false or an upstream gradient such as {{\"loss\": \"sum\"}}, "
                            f"got {backward!r}")
    _check_int("precision", precision, 0, max_precision)
    if heads is not None:
        for h in heads:
            _check_int("heads", h, 1, None)
    if batch is not None:
        _check_int("batch", batch, 1, None)
    if block_size is not None:
        _check_int("block_size", block_size, 1, None)
    if devices is not None:
        _check_int("devices", devices, 1, None)
    return Request(input=data, langs=parse_langs(lang), precision=precision,
                   heads=None if heads is None else tuple(h - 1 for h in heads), tokens=parse_tokens(tokens),
                   full=bool(full), batch=0 if batch is None else batch - 1, tiled_block=block_size,
                   exact=bool(exact), devices=devices)


def parse_langs(lang: str | Sequence[str] | None) -> tuple[str, ...]:
    """"zh", "zh,en" or ["zh", "en"] -> ("zh", "en"); None -> the locale's language."""
    if lang is None:
        from .catalog import default_lang
        return (default_lang(),)
    parts = [p.strip() for p in lang.split(",")] if isinstance(lang, str) else list(lang)
    if not parts or any(p not in LANGS for p in parts) or len(set(parts)) != len(parts):
        raise MHAInputError(f"lang: expected one of {', '.join(LANGS)} or a comma-separated list of them, "
                            f"got {lang!r}")
    return tuple(parts)


def parse_tokens(text: str | None) -> slice | None:
    """"4:6" (1-based, both ends included, as the row labels read) -> slice(3, 6); an open end runs to the edge."""
    if text is None:
        return None
    parts = text.split(":")
    try:
        if len(parts) != 2:
            raise ValueError
        first, last = (int(p) if p.strip() else None for p in parts)
    except ValueError:
        raise MHAInputError(f"tokens: expected FIRST:LAST (1-based, e.g. 2:5), got {text!r}") from None
    if (first is not None and first < 1) or (last is not None and last < 1):
        raise MHAInputError(f"tokens: token numbers start at 1, got {text!r}")
    return slice(None if first is None else first - 1, last)


def _check_int(name: str, value: Any, low: int, high: int | None) -> None:
    ok = isinstance(value, int) and not isinstance(value, bool) and low <= value and (high is None or value <= high)
    if not ok:
        want = f"from {low} to {high}" if high is not None else f">= {low}"
        raise MHAInputError(f"{name}: expected an integer {want}, got {value!r}")
