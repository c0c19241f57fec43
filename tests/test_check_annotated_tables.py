"""Plain-text tables whose rows carry an arrow note (issue 18, own-error recall): blog posts print the masked
scores and the weights as aligned tables under column headers, each row annotated ("← like sees I and itself").
The note is words about the row, not its entries, so the rows are read as a matrix (readers/drawn.py); the weights,
unnamed under their headers, are tied to the scores by the mask pattern alone (0 exactly where a score is -inf,
rows summing to 1) and judged against them (claims/softmax.py).  My own page and numbers:
softmax of the rows [0.7], [0.2, 0.9], [0.5, -0.2, 0.8] is [1], [0.3318, 0.6682], [0.3513, 0.1745, 0.4742]."""

from mha.check import check_document

PAGE = """# Causal weights for three words

```
scores, every word against every word:

          I       like    tea
I         0.70    0.40    -0.30    ← I against all three
like      0.20    0.90    0.60     ← like against all three
"tea"  │  0.50    -0.20   0.80     ← tea against all three
```

Then the causal mask hides the later words:

```
attention scores (with the mask):

          I       like    tea
I         0.70    -inf    -inf     ← I sees only itself
like      0.20    0.90    -inf     ← like sees I and itself
"tea"  │  0.50    -0.20   0.80     ← tea sees all three
```

And the weights, row by row:

```
attention weights (after softmax):

          I       like    tea
I         1.00    0.00    0.00     ← all on itself
like      0.33    0.67    0.00     ← mostly itself
"tea"  │  0.35    0.17    0.47     ← spread over the three
```
"""


def _errors(text):
    return [f for f in check_document(text, fmt="md").findings if f.severity == "error"]


def test_the_annotated_tables_hold():
    assert _errors(PAGE) == []


def test_a_slip_in_an_annotated_row_is_found_on_its_line():
    text = PAGE.replace("0.35    0.17    0.47     ←", "0.35    0.17    0.41     ←")
    errs = _errors(text)
    line = text.splitlines().index('"tea"  │  0.35    0.17    0.41     ← spread over the three') + 1
    assert [(f.line, f.printed, f.rounded) for f in errs] == [(line, "0.41", "0.47")]


def test_a_note_with_numbers_is_not_read_as_entries():
    text = PAGE.replace("← all on itself", "← 100% on itself")
    assert _errors(text) == []


def test_unnamed_weights_are_tied_to_the_masked_scores_by_the_mask_alone():
    from mha.check.claims.softmax import softmax_pairs
    from mha.check.infer import prepare
    from mha.check.readers import read_document
    objs, _ = prepare(read_document(PAGE, "md"))
    lines = PAGE.splitlines()
    weights = lines.index('"tea"  │  0.35    0.17    0.47     ← spread over the three') + 1
    masked = lines.index('"tea"  │  0.50    -0.20   0.80     ← tea sees all three') + 1
    pairs = [(c.x.a.line, c.y.a.line) for c in softmax_pairs(objs) if c.by_mask]
    assert (masked - 2, weights - 2) in pairs          # each table starts at its first row
