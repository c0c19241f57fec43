"""Table cells holding a vector in a code span and a remark after a dash:
`| 2 | `[0.3100, 0.6900, 0]` — tokens 1–2 only |`.

Outside trial t188e (a causal-mask lesson): such a table was passed over without a word, so a slip in it was
missed; the same table without the remarks was judged.  A remark after a spaced dash, in words, is no part of the
cell's value (readers/tables.py `_REMARK`).
"""

from check_helpers import error_places

PAGE = """# A causal mask on three tokens

$$
S_{masked} = \\begin{bmatrix}
0.8 & -\\infty & -\\infty \\\\
0.3 & 1.1 & -\\infty \\\\
0.2 & 0.6 & 0.9
\\end{bmatrix}
$$

| Row (token) | softmax(masked row) |
|---|---|
| 1 | `[1.0000, 0, 0]` — only itself |
| 2 | `[0.3100, 0.6900, 0]` — tokens 1–2 only |
| 3 | `[0.2219, 0.3311, 0.4469]` — every token so far |
"""



def test_the_remarked_table_holds():
    assert error_places(PAGE) == []


def test_a_slip_in_a_remarked_cell_is_found():
    assert error_places(PAGE.replace("0.3311", "0.3411")) == [(15, "0.3411")]
