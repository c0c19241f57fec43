"""A lesson that gives one query's scores as a two-column table (| Key word | Score |, one key per row), its
softmax as a second table under "After softmax:", and later a worked example from vectors named by their words
(`q_tea`, `k_I`, `k_like`, `v_tea`), after a section that shows raw scores only to say why one scales.

Each of these was missed or misread on a public page: the table was read as a 3×1 matrix named by its corner
("Key word" reads as K), so its softmax was never paired with it and a wrong weight went unreported; `k_I` (the
pronoun) was not taken for a token's key, so the keys never assembled and nothing was inferred; and, once they
were, the illustrative `Scores = [2, 4, 6]` two sections before the vectors was judged as their scores."""

import pytest

from mha.check import check_document

PAGE = """# One word's attention

## 5. Why scale

Raw scores such as `Scores = [2, 4, 6]` grow with the width of the vectors, and the softmax gets sharper.

## 6. The softmax of one query's row

For the query word `tea`, take these scores against the keys:

| Key word | Score |
|---|---:|
| I | 0.3 |
| like | 1.5 |
| tea | 0.9 |

After softmax:

| Key word | Attention weight |
|---|---:|
| I | 0.16 |
| like | 0.54 |
| tea | 0.30 |

## 7. From vectors

```text
q_tea = [1, 0]
```

Keys:

```text
k_I    = [1, 1]
k_like = [0, 1]
k_tea  = [2, 0]
```

Values:

```text
v_I    = [1, 0]
v_like = [0, 2]
v_tea  = [1, 1]
```

The scores, unscaled: `[1, 0, 2]`. Their softmax: `[0.24, 0.09, 0.67]`. The output: `[0.91, 0.85]`.
"""


def test_the_tables_and_the_word_vectors_check_clean():
    r = check_document(PAGE, fmt="md")
    assert not r.errors, [f.describe() for f in r.errors]
    assert "k_i vectors" in r.configuration["mode"] and "v_i vectors" in r.configuration["mode"], r.configuration


@pytest.mark.parametrize("old, new, line", [
    ("| like | 0.54 |", "| like | 0.56 |", 22),      # a weight of the table pair
    ("`[0.24, 0.09, 0.67]`", "`[0.24, 0.09, 0.69]`", 47),   # a weight of the vectors' example
    ("`[0.91, 0.85]`", "`[0.91, 0.87]`", 47),
])
def test_a_slip_is_found_on_its_line(old, new, line):
    assert old in PAGE
    r = check_document(PAGE.replace(old, new), fmt="md")
    assert line in [f.line for f in r.errors], [f.describe() for f in r.findings]
    assert all(f.line == line for f in r.errors), [f.describe() for f in r.errors]


CELLS = """# The score table

| Token | Q | K |
|---|---|---|
| a | [1, 0] | [0.2, 0.4] |
| b | [0.5, 0.5] | [0.6, 0.1] |
| c | [0, 1] | [0.3, 0.3] |

Each cell is one query against one key:

| | a (K₁) | b (K₂) | c (K₃) |
|---|---:|---:|---:|
| **a (Q₁)** | Q₁·K₁ = 0.20 | Q₁·K₂ = 0.60 | Q₁·K₃ = 0.30 |
| **b (Q₂)** | Q₂·K₁ = 0.30 | Q₂·K₂ = 0.35 | Q₂·K₃ = 0.30 |
| **c (Q₃)** | Q₃·K₁ = 0.40 | Q₃·K₂ = 0.10 | Q₃·K₃ = 0.30 |
"""


def test_table_cells_that_name_their_entry_are_read():
    """`Q₂·K₃ = 0.30` in a cell names the entry its place in the table already says: the number is the cell's value
    (such a table was skipped whole, 9 scores unread)."""
    r = check_document(CELLS, fmt="md")
    assert not r.errors and r.n_numbers >= 9, ([f.describe() for f in r.errors], r.n_numbers)
    r = check_document(CELLS.replace("Q₂·K₂ = 0.35", "Q₂·K₂ = 0.53"), fmt="md")
    assert [(f.line, f.printed) for f in r.errors] == [(14, "0.53")], [f.describe() for f in r.findings]
