"""A Japanese page: the tokens' vectors in a Markdown table whose cells are inline math `\\([1, 0, 1]\\)`, the
columns named クエリ / キー / バリュー, and the weights said to be the identity in words around inline math
("重み \\( W^Q = W^K = W^V \\) は単位行列").  The page is this project's own."""

from check_helpers import error_lines

PAGE = r"""# 自己注意の計算例

入力 \( X \) の各行:

| トークン | 埋め込み (\( X \)) |
|---|---|
| 猫 | \([1, 0, 1]\) |
| が | \([0, 1, 1]\) |
| 走る | \([1, 1, 0]\) |

重み \( W^Q = W^K = W^V \) は単位行列とします（\( d_k = 3 \)）。

| トークン | クエリ (\( Q \)) | キー (\( K \)) | バリュー (\( V \)) |
|---|---|---|---|
| 猫 | \([1, 0, 1]\) | \([1, 0, 1]\) | \([1, 0, 1]\) |
| が | \([0, 1, 1]\) | \([0, 1, 1]\) | \([0, 1, 1]\) |
| 走る | \([1, 1, 0]\) | \(KEY3\) | \([1, 1, 0]\) |

スコア \( QK^T \):

\[
QK^T = \begin{bmatrix} 2 & 1 & 1 \\ 1 & 2 & 1 \\ 1 & 1 & 2 \end{bmatrix}
\]
"""


def test_the_vectors_in_inline_math_cells_are_read_and_hold():
    from mha.check import check_document
    r = check_document(PAGE.replace("KEY3", "[1, 1, 0]"), fmt="md")
    assert [f for f in r.findings if f.severity == "error"] == [] and r.n_numbers >= 18


def test_a_slip_in_the_key_column_is_found_on_its_row():
    found = error_lines(PAGE.replace("KEY3", "[1, 2, 0]"))
    assert list(found) == [17] and [f.claim for f in found[17]] == ["K[3,2]"]


def test_the_words_around_inline_math_state_the_identity():
    from mha.check.readers import read_document
    doc = read_document(PAGE.replace("KEY3", "[1, 1, 0]"), "md")
    assert sorted({h.value for h in doc.hints if h.kind == "identity"}) == ["W_K", "W_Q", "W_V"]
