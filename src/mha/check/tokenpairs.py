"""A score named by the pair of tokens it joins, as code and prose write it: `score(q1, k2)`, `sim(q_1, k_2)`,
`q1 @ k2`, `q1.dot(k2)`, `np.dot(q1, k2)`, `torch.dot(q_1, k_2)`, `(q1 @ k2) / 3 ** 0.5`, `Q[0] @ K[1]`.

Each is rewritten into the label vocabulary's own spelling of one entry (labels.py reads `q_1 · k_2` as the
unscaled product's entry (1, 2), `e_{1,2}` as a score's, `s_{1,2}` as a scaled score's), so that a scalar printed
under such a name (a REPL's `tensor(0.5774)`, `score(q1, k2) = 0.5774`) is a claim about that one entry.  Code
indexes from 0 (`Q[0]`, `keys[1]`), names from 1 (`q1`, `k_2`, `q₁`)."""

from __future__ import annotations

import re

_SUB = str.maketrans("₀₁₂₃₄₅₆₇₈₉", "0123456789")
_Q = r"(?:q|query|Q\[(?P<qb>\d+)\]|queries\[(?P<qb2>\d+)\])"
_K = r"(?:k|key|K\[(?P<kb>\d+)\]|keys\[(?P<kb2>\d+)\])"
_TOK_Q = rf"(?:{_Q[3:-1]}|(?:q|query)_?\{{?(?P<qi>\d+)\}}?)"
_TOK_K = rf"(?:{_K[3:-1]}|(?:k|key)_?\{{?(?P<kj>\d+)\}}?)"
_SCALE = r"(?:\s*(?:/|\*)\s*(?:\(?\s*(?:np\.|math\.|torch\.)?sqrt\(\s*[\w.\[\]-]+\s*\)\s*\)?|[\d.]+\s*\*\*\s*[\d.]+|"\
         r"[\w.\[\]-]+\s*\*\*\s*0?\.5|√\s*\d+|\d+(?:\.\d+)?|[A-Za-z_][\w.]*))"
_DOT = re.compile(rf"^\(?\s*{_TOK_Q}\s*(?:@|·|\\cdot|⋅)\s*{_TOK_K}(?:\.T)?\s*\)?(?P<scale>{_SCALE})?$")
_METHOD_Q = _TOK_Q.replace("?P<", "?P<x")          # q1.dot(k2): the query's groups under other names
_CALL = re.compile(rf"^(?P<f>(?:np\.|torch\.|numpy\.)?(?:dot|inner|matmul)|{_METHOD_Q}\.dot|score|sim|"
                   rf"similarity|e|s)\(\s*(?:{_TOK_Q}\s*,\s*)?{_TOK_K}(?:\.T)?\s*\)(?P<scale>{_SCALE})?$")


def pair_label(text: str) -> str | None:
    """The canonical label of a score written as a pair of tokens, or None when text is no such pair.

    >>> pair_label("score(q1, k2)"), pair_label("q1 @ k3"), pair_label("(q_2 @ k_1) / 3 ** 0.5")
    ('e_{1,2}', 'q_1 · k_3', 's_{2,1}')
    >>> pair_label("Q[0] @ K[1]"), pair_label("np.dot(q1, k2)"), pair_label("q1.dot(k2)"), pair_label("x1 @ k2")
    ('q_1 · k_2', 'q_1 · k_2', 'q_1 · k_2', None)
    """
    s = text.strip().translate(_SUB)
    if len(s) > 60:
        return None
    m = _DOT.match(s)
    kind = "dot"
    if m is None:
        m = _CALL.match(s)
        if m is None:
            return None
        f = m.group("f")
        kind = "dot" if f.endswith(("dot", "inner", "matmul")) else "score"
    g = m.groupdict()
    i = _index(g, ("qi",), ("qb", "qb2")) or _index(g, ("xqi",), ("xqb", "xqb2"))
    j = _index(g, ("kj",), ("kb", "kb2"))
    if i is None or j is None or i < 1 or j < 1:
        return None
    if g.get("scale"):
        return f"s_{{{i},{j}}}"
    return f"q_{i} · k_{j}" if kind == "dot" else f"e_{{{i},{j}}}"


def _index(g: dict, named: tuple[str, ...], code: tuple[str, ...]) -> int | None:
    for k in named:
        if g.get(k):
            return int(g[k])
    for k in code:
        if g.get(k):
            return int(g[k]) + 1
    return None


# one token's vector named by its role in words and the token's word: Query (it), Key (cat), Value vector ("mat"),
# Key_cat; an adjective in the parentheses says which matrix, not which token: Key (transposed)
_ROLE_WORD = re.compile(r"(?i)(query|key|value)(?:\s*vector)?\s*(?:\(\s*[\"'“‘]?([A-Za-z]{2,12}|I|[^\x00-\x7f()]{1,6})"
                        r"[\"'”’]?\s*\)|_([A-Za-z]{2,12}))")
_NOT_A_TOKEN = {"transposed", "scaled", "raw", "normalized", "normalised", "projected", "matrix", "vector",
                "vectors", "weights", "weight", "head", "heads", "input", "output", "query", "key", "value", "dim",
                "size", "shape", "cache", "cached", "new", "old", "proj", "states", "layer", "padding", "pos", "bias",
                "mask", "len", "seq", "all", "batch", "rotated", "rope", "norm", "tensor", "array", "list", "one",
                "two", "three", "first", "second", "third", "last", "example", "sample", "tokens", "words"}


def role_word_token(text: str) -> tuple[str, str] | None:
    """("Q" | "K" | "V", the token's word) for a vector named like `Query (it)` or `Key_cat`, else None.

    >>> role_word_token("Key (cat)"), role_word_token("Value_mat"), role_word_token("Key (transposed)")
    (('K', 'cat'), ('V', 'mat'), None)
    """
    m = _ROLE_WORD.fullmatch(text.strip())
    if m is None:
        return None
    word = m.group(2) or m.group(3)
    if word.lower() in _NOT_A_TOKEN:
        return None
    return {"query": "Q", "key": "K", "value": "V"}[m.group(1).lower()], word
