"""Per-token vectors side by side after a quoted token name, `"the" k₁ = [1, 1]   "dog" k₂ = [0, 1]`, and
exponentials written with raised digits and a raised point, `e⁰·⁷¹ ≈ 2.03`.

Outside trial t139b: the next token's name and label were glued onto the previous vector (`[1,1]"dog"k_{2}`), so
no start was found; once it was, `e¹·⁴¹` was read as e¹ times something (two false findings in the first try).
A quoted name before the next label ends a statement (readers/splitting.py), and a point between raised digits is
part of the exponent (readers/tokens.py).
"""

from mha.check import check_document

PAGE = """# One query by hand

```
query for "ran":            q = [1, 0]
keys:    "the" k₁ = [1, 1]   "dog" k₂ = [0, 1]   "ran" k₃ = [1.5, 0]
values:  "the" v₁ = [1, 0]   "dog" v₂ = [0, 1]   "ran" v₃ = [1, 1]
```

Scores: q·k₁ = 1, q·k₂ = 0, q·k₃ = 1.5. Divided by √2: 0.71, 0, 1.06.

Softmax: e⁰·⁷¹ ≈ 2.03, e⁰ = 1.00, e¹·⁰⁶ ≈ 2.89. Sum ≈ 5.92.

```
0.34·[1,0] + 0.17·[0,1] + 0.49·[1,1] = [0.83, 0.66]
```
"""


def test_the_vectors_start_the_chain_and_the_exponentials_hold():
    r = check_document(PAGE, fmt="md")
    assert not r.errors, [f.describe() for f in r.errors]
    assert "k_i vectors" in r.configuration.get("mode", ""), r.configuration


def test_a_slipped_exponential_is_found():
    r = check_document(PAGE.replace("e¹·⁰⁶ ≈ 2.89", "e¹·⁰⁶ ≈ 2.98"), fmt="md")
    assert [f.line for f in r.errors] == [11], [f.describe() for f in r.findings]


def test_raised_point():
    from mha.check.readers.drawn import text_tokens
    toks = text_tokens("e¹·⁴¹ and x²·y")          # a raised point between raised digits only
    assert [t.text for t in toks if t.kind == "GROUP"] == ["1.41", "2"], [(t.kind, t.text) for t in toks]
