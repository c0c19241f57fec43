"""Captions over code blocks as labs write them (outside trial t161d, two course READMEs): a word and then the
symbol in parentheses ("**Query (Q)**:"), a bold symbol with its shape after it ("**K (Keys)** - shape (3, 2):"),
and a symbol with an equals sign on a line of its own ("V =").  None of them named the block under it, so Q, K and
V were unlabelled; one page was refused as "inputs only" and the other was read as a guessed X.  They name the
block now (readers/headings.py), when the word and the symbol agree ("Key (Q)" names nothing).  My own page; the
numbers are from plain NumPy."""

import numpy as np
import pytest

from mha.check import check_document
from mha.check.readers import read_document

PAGE = """# Atenção com três tokens

**Query (Q)**:
```
[[1. 0.]
 [0. 1.]
 [1. 1.]]
```

**K (Keys)** - shape (3, 2):
```
[[1. 1.]
 [0. 2.]
 [1. 0.]]
```

V =
```
[[2. 0.]
 [0. 2.]
 [1. 1.]]
```

Pesos de atenção (softmax de Q Kᵀ / √2):
```
[[0.4011 0.1978 0.4011]
 [0.2840 0.5760 0.1400]
 [0.4011 0.4011 0.1978]]
```

Saída:
```
[[1.2033 0.7967]
 [0.7080 1.2920]
 [1.0000 1.0000]]
```
"""


def test_the_printed_numbers_are_numpy_s():
    Q = np.array([[1., 0], [0, 1], [1, 1]])
    K = np.array([[1., 1], [0, 2], [1, 0]])
    V = np.array([[2., 0], [0, 2], [1, 1]])
    s = Q @ K.T / np.sqrt(2)
    a = np.exp(s - s.max(1, keepdims=True))
    a /= a.sum(1, keepdims=True)
    assert np.round(a, 4)[1].tolist() == [0.284, 0.576, 0.14]
    assert np.round(a @ V, 4)[0].tolist() == [1.2033, 0.7967]


def test_each_caption_names_its_block():
    labels = [a.label for a in read_document(PAGE, "md").arrays]
    assert labels[:3] == ["Q", "K (Keys)", "V"], labels


@pytest.mark.parametrize("caption", ["**Key (Q)**:", "Query (K):"])
def test_a_word_and_a_symbol_that_disagree_name_nothing(caption):
    labels = [a.label for a in read_document(PAGE.replace("**Query (Q)**:", caption), "md").arrays]
    assert labels[0] == "", labels


def test_the_page_starts_from_q_k_v_and_holds():
    r = check_document(PAGE, fmt="md")
    assert r.configuration["mode"].startswith("starts from Q, K, V given"), r.configuration
    assert not r.errors and r.n_numbers >= 15, [f.describe() for f in r.findings]


@pytest.mark.parametrize("slip, line", [("0.5760", 27), ("1.2920", 34)])
def test_a_slipped_number_is_found_on_its_line(slip, line):
    wrong = slip[:-2] + str((int(slip[-2]) + 1) % 10) + slip[-1]
    r = check_document(PAGE.replace(slip, wrong), fmt="md")
    assert [(f.line, f.printed) for f in r.errors] == [(line, wrong)], [f.describe() for f in r.findings]
