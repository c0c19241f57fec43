"""A printout captioned by its print call, `print("\\nAttention Weights (After Softmax):\\n", attention_weights)`, is
read with the caption as torch printed it, and its spaces need not be those of the string (fieldI-08: "Weights
(After Softmax)" read as "Weights(After Softmax)").  The caption then did not match the print call, so the printout
was not known as `attention_weights`, and a later cell's `torch.matmul(attention_weights, V)` had no operand to be
judged against (readers/printnames.py `printed_name`, claims/formula.py `_names`).  My own numbers; V and the
weights come from layers the notebook never prints, so their printouts are the only operands there are."""

import numpy as np

from check_helpers import code_notebook


def _t(m):
    return "tensor([" + ",\n        ".join("[" + ", ".join(f"{v:7.4f}" for v in r) + "]" for r in m) + "])"


A = np.array([[0.2, 0.5, 0.3], [0.6, 0.1, 0.3]])
V = np.array([[1.0, -0.5], [0.25, 2.0], [-1.5, 0.75]])


def _notebook(out=None):
    shown = _t(out if out is not None else A @ V)
    return code_notebook([
        ("V = W_v(token_embeddings)\nprint(\"\\nValue (V):\\n\", V)", None),
        ("attention_weights = F.softmax(scaled_scores, dim=-1)\n"
         "print(\"\\nAttention Weights (After Softmax):\\n\", attention_weights)", None),
        ("attention_output = torch.matmul(attention_weights, V)\nprint(\"\\nFinal Output:\\n\", attention_output)",
         None),
    ]).replace('"outputs": []', '"outputs": [{"output_type": "stream", "name": "stdout", "text": "OUT"}]', 3) \
        .replace("OUT", "\\nValue (V):\\n " + _t(V).replace("\n", "\\n"), 1) \
        .replace("OUT", "\\nAttention Weights (After Softmax):\\n " + _t(A).replace("\n", "\\n"), 1) \
        .replace("OUT", "\\nFinal Output:\\n " + shown.replace("\n", "\\n"), 1)


def _errors(text):
    from mha.check import check_document
    return [f for f in check_document(text, fmt="ipynb").findings if f.severity == "error"]


def test_the_printout_is_named_by_its_code():
    from mha.check.command import slim_notebook
    from mha.check.readers import read_document
    text, _ = slim_notebook(_notebook())
    doc = read_document(text, "ipynb")
    assert any("attention_weights" in a.labels for a in doc.arrays)


def test_the_clean_notebook_checks_clean():
    assert _errors(_notebook()) == []


def test_a_slipped_output_is_found_against_its_operands():
    out = A @ V
    out[1, 0] += 0.2
    errs = _errors(_notebook(out))
    assert [(f.cell, f.printed) for f in errs] == [(3, f"{out[1, 0]:.4f}")]
