"""Vectors drawn inside a box frame in a code block: `│ K₁: [0.5, 0.1, 0.3]        │ ← key 1`.

Outside trial t139a: the frame's left rule ran into each label (`│K_{1}`), so the query and the keys were
unlabelled and nothing was started from.  A frame line around a named bracket list has its rules blanked before
reading (readers/__init__.py); the sides of a matrix drawn with box characters (no brackets inside) are kept.
"""

from mha.check import check_document

PAGE = """# One query, three keys

```
┌──────────────────────────────────┐
│ q: [0.4, 0.2, 0.6]               │ ← the query
└──────────────────────────────────┘
┌──────────────────────────────────┐
│ k₁: [0.5, 0.1, 0.3]              │ ← key 1
│ k₂: [0.2, 0.8, 0.1]              │ ← key 2
│ k₃: [0.1, 0.4, 0.7]              │ ← key 3
└──────────────────────────────────┘
```

```
scores = [0.40, 0.30, 0.54]
scores / √3 = [0.231, 0.173, 0.312]
weights = [0.330, 0.312, 0.358]
```
"""


def test_the_framed_vectors_are_read_and_the_page_holds():
    r = check_document(PAGE, fmt="md")
    assert not r.errors, [f.describe() for f in r.errors]
    assert "vectors" in r.configuration.get("mode", "") or "given" in r.configuration.get("mode", ""), r.configuration
    assert r.n_numbers >= 9, r.n_numbers


def test_a_slipped_score_is_found():
    r = check_document(PAGE.replace("[0.40, 0.30, 0.54]", "[0.40, 0.36, 0.54]"), fmt="md")
    assert [f.line for f in r.errors] == [15], [f.describe() for f in r.findings]


def test_a_matrix_drawn_with_box_sides_is_untouched():
    from mha.check.readers import read_document
    drawn = "```\n  Q = ┌                ┐\n      │  0.2  0.7  0.1 │\n      │  0.5  0.3  0.9 │\n      └                ┘\n```\n"
    doc = read_document(drawn, "md")
    assert any(a.label == "Q" and len(a.rows) == 2 for a in doc.arrays), doc.arrays
