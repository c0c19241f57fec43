"""A token's query, key and value named by the token's word (`q_cat`, `k_{the}`, `v_\\text{sat}`): one row of Q, K
or V each, the keys and values in the order the page names them.  "cat" in `q_cat` is a token, not the
concatenation of heads."""

import pytest

from mha.check import check_document
from mha.check import labels as lb

DOC = """<h3>Attention for "cat" in "the cat sat"</h3>
<pre>q_cat = [1, 0, 1, 0]
k_the = [0, 1, 1, 0]   v_the = [0.5, 0.0]
k_cat = [1, 1, 0, 0]   v_cat = [0.0, 1.0]
k_sat = [1, 0, 1, 1]   v_sat = [1.0, 1.0]</pre>
<p>Dot products: 1, 1 and 2. Divided by the square root of d_k = 4: 0.5, 0.5 and 1.0.</p>
<pre>weights = [0.274, 0.274, 0.452]
output  = [0.589, 0.726]</pre>
"""


@pytest.mark.parametrize("label, node, token", [("q_cat", "Q", "cat"), ("k_{she}", "K", "she"),
                                                ("v_\\text{drank}", "V", "drank"), ("x_chat", "X", "chat")])
def test_a_vector_named_by_its_token_word(label, node, token):
    r = lb.parse_label(label)
    assert r.nodes == (node,) and r.token == token


@pytest.mark.parametrize("label, nodes", [("k_proj", ("W_K",)), ("q_total", ("Q",)), ("k_1", ("K",))])
def test_names_that_are_not_tokens_keep_their_meaning(label, nodes):
    r = lb.parse_label(label)
    assert r.nodes == nodes and r.token is None


def test_the_page_starts_from_the_tokens_vectors_and_holds():
    r = check_document(DOC, fmt="html")
    assert not r.errors, [f.describe() for f in r.errors]
    assert "K as k_i vectors" in r.configuration["mode"] and "V as v_i vectors" in r.configuration["mode"]
    assert r.n_numbers >= 5


@pytest.mark.parametrize("find, replace, printed", [("0.274, 0.452]", "0.247, 0.452]", "0.247"),
                                                    ("0.589, 0.726", "0.589, 0.762", "0.762")])
def test_a_slip_after_the_tokens_vectors_is_found(find, replace, printed):
    r = check_document(DOC.replace(find, replace), fmt="html")
    assert [f.printed for f in r.errors] == [printed], [f.describe() for f in r.errors]


VOCAB = r"""# Attention, then the vocabulary

Let $X = \begin{bmatrix}1 & 0 \\ 0 & 1 \\ 1 & 1\end{bmatrix}$ and $W^Q = W^K = W^V = I$, so $Q = K = V = X$.

With no scaling, the first row of weights is $[0.4223, 0.1554, 0.4223]$.

## Projecting onto the vocabulary

The word vectors of a tiny vocabulary:

- $v_{\text{dog}} = [0.8, 0.3]$
- $v_{\text{car}} = [0.1, 0.9]$
- $v_{\text{pear}} = [0.0, 0.8]$
"""


def test_vectors_named_by_words_in_another_section_are_not_rows_of_v():
    """v_pear = [0.0, 0.8] shares one entry with a row of V = X: its word says which vector, not which row."""
    r = check_document(VOCAB, fmt="md")
    assert not r.errors, [f.describe() for f in r.errors]
