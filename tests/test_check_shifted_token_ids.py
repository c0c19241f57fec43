"""Two notebook printouts that are no attention at all: a chatbot's answer as token ids padded with zeros, and the
same ids shifted by one place, the decoder's input and its target (an outside trial's Korean notebook, t253a).  The
first was taken for X with every projection assumed, the second for the output Y of one query (Y = X), and the
shifted ids became six findings on one line: the 30 padded zeros agreed, no other cell did.  Zeros are what
padding, masks and one-hot rows put everywhere; the counts that identify an object must hold over its cells that
are not 0 too.  And a vector a constructor makes in code (`torch.ones_like(v) / 10`, no printout) is a value the
author sets, never the softmax of the vector before it.  My own numbers."""

import numpy as np
from check_helpers import code_notebook, error_findings

from mha.check import check_document
from mha.check.claims.identity import AGREE_MIN, evidence, identified, identifies
from mha.check.infer import Hit, Obj


_TOKENS = [5120, 2711, 93, 6402, 7, 5121] + [0] * 32


def test_shifted_token_ids_padded_with_zeros_are_not_identified():
    # the ids shifted by one against the ids: every padded zero agrees, no id does (the trial's Y, 33 of 39 cells)
    exact = np.array([_TOKENS[:-1]], dtype=float)
    printed = np.array([_TOKENS[1:]], dtype=float)
    hit = Hit(view=None, how="full", index=None, ok=printed == exact, exact=exact)
    o = Obj(a=None, ref=None, lo=printed, hi=printed, val=printed)
    assert identified(hit.n_ok, printed.size) and evidence(printed, hit.ok) >= AGREE_MIN    # the old counts held
    assert not identifies(o, hit)


def test_padded_ids_with_one_slip_are_still_identified():
    exact = np.array([_TOKENS], dtype=float)
    printed = exact.copy()
    printed[0, 2] = 39.0
    hit = Hit(view=None, how="full", index=None, ok=printed == exact, exact=exact)
    assert identifies(Obj(a=None, ref=None, lo=printed, hi=printed, val=printed), hit)


_LOOKUP = """temp_k = np.array([[10, 0, 0], [0, 10, 0], [0, 0, 10], [0, 0, 10]], dtype=np.float32)
temp_v = np.array([[1, 0], [10, 0], [100, 5], [1000, 6]], dtype=np.float32)
temp_q = np.array([[0, 0, 10]], dtype=np.float32)
temp_out, temp_attn = scaled_dot_product_attention(temp_q, temp_k, temp_v, None)
print(temp_attn)
print(temp_out)"""

_LOOKUP_OUT = """[[0.  0.  0.5 0.5]]
[[550.    5.5]]"""

_MADE = """vector_1 = torch.arange(0, 1, 0.1)
vector_2 = torch.ones_like(vector_1) / 10
vector_3 = vector_1 - 0.1
plt.plot(vector_1, label="vector_1")
plt.plot(vector_2, label="vector_2")"""


def test_a_vector_made_by_a_constructor_is_not_the_softmax_of_the_one_before():
    report = check_document(code_notebook([(_LOOKUP, _LOOKUP_OUT), (_MADE, "")]), fmt="ipynb")
    assert [f for f in report.findings if f.severity == "error"] == []


def test_padded_weights_with_a_slip_are_still_judged():
    # a causal 3×3 of weights: zeros above the diagonal, one weight off on the last row
    src = ("X = np.array([[1.0, 0.0], [0.0, 1.0], [1.0, 1.0]])\n"
           "S = X @ X.T / np.sqrt(2)\nS[np.triu_indices(3, 1)] = -np.inf\nA = softmax(S)\nprint(A)")
    out = ("[[1.     0.     0.    ]\n [0.3302 0.6698 0.    ]\n [0.2483 0.2483 0.{w}]]")
    assert error_findings(code_notebook([(src, out.format(w="5035"))]), fmt="ipynb") == []
    found = error_findings(code_notebook([(src, out.format(w="5053"))]), fmt="ipynb")
    assert [f.printed for f in found] == ["0.5053"]
