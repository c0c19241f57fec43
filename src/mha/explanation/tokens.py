"""How the explanation names tokens: by their number in the sequence, or by the input's token texts.

Queries are numbered from 1, keys from 1 (cache rows first).  In a decoding
step with a KV cache the queries are the tokens that follow the cached ones, so
a query is numbered by its position in the sequence: the new token after three
cached ones is "token 4", not "token 1", and "token 4 attends to token 2" reads
as the sequence does.  Without a cache the queries may be another sequence
(cross-attention), so they keep their own numbers and the masks' texts say at
which key position query i sits (i + offset).

>>> from mha.inputs import parse_config
>>> cfg = parse_config({"X": [[1.0, 0.0]], "n_heads": 1, "causal": True,
...                     "cache": {"K": [[[1.0, 0.0], [0.0, 1.0]]], "V": [[[1.0, 1.0], [0.0, 1.0]]]}})
>>> first_query(cfg), token_labels(cfg, "queries"), token_labels(cfg, "keys")
(2, ['3'], ['1', '2', '3'])
"""

from __future__ import annotations

from ..inputs import Config

SIDES = ("queries", "keys", "new_keys", "past_keys")


def first_query(cfg: Config) -> int:
    """How many tokens come before query row 0 in the numbering: the cached ones (cfg.offset, S_past when the
    new tokens follow the cache), else 0."""
    return cfg.offset if cfg.cache_K is not None and cfg.offset > 0 else 0


def token_labels(cfg: Config, side: str, b: int = 0) -> list[str]:
    """Every token's label on one side, as rows and columns are headed.

    side: "queries", "keys" (cache rows first), "new_keys" (this call's keys) or
    "past_keys" (the cache's rows).  The input's token texts when it gave them,
    else the numbers the prose uses.
    """
    if side not in SIDES:
        raise ValueError(f"side: expected one of {', '.join(SIDES)}, got {side!r}")
    names = cfg.tokens if side == "queries" else cfg.key_tokens
    first, n = {"queries": (first_query(cfg), cfg.T), "keys": (0, cfg.S), "new_keys": (cfg.S_past, cfg.S_new),
                "past_keys": (0, cfg.S_past)}[side]
    if names is None:
        return [str(first + i + 1) for i in range(n)]
    if side == "queries":
        return list(names[b])
    return list(names[b][first:first + n])


def query_rows(cfg: Config, tokens: slice | None) -> list[int]:
    """The 0-based query rows that a tokens option selects.  tokens counts 0-based along the numbers shown:
    slice(3, 4) is the token labelled 4, which is row 0 when three cached tokens come first."""
    first = first_query(cfg)
    picked = set(range(first + cfg.T)[tokens or slice(None)])
    return [i for i in range(cfg.T) if first + i in picked]
