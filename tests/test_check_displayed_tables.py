"""A notebook that prints a caption and then displays a pandas table of each head's weights in a loop
(`print(f"--- head {h}: attention weights (attn) ---")`, `display(df.round(3))`): the caption names the table,
so each table's rows are claims that they sum to 1.  The notebook is this project's own."""

import json

import numpy as np

from check_helpers import error_findings

HEADS = [np.array([[1.0, 0.0, 0.0], [0.372, 0.628, 0.0], [0.215, 0.409, 0.376]]),
         np.array([[1.0, 0.0, 0.0], [0.544, 0.456, 0.0], [0.301, 0.262, 0.437]])]


def _table(w: np.ndarray) -> str:
    toks = ["the", "dog", "ran"]
    head = "       " + "  ".join(f"K:{t:>4}" for t in toks)
    return "\n".join([head] + [f"Q:{t:<4} " + "  ".join(f"{v:6.3f}" for v in row) for t, row in zip(toks, w)])


def notebook(heads: list) -> str:
    outs = []
    for h, w in enumerate(heads):
        outs.append({"output_type": "stream", "name": "stdout",
                     "text": f"\n--- head {h}: attention weights (attn) ---\n"})
        outs.append({"output_type": "display_data", "metadata": {}, "data": {"text/plain": _table(w)}})
    src = "def show(attn, tokens):\n    for h in range(attn.shape[0]):\n" \
          "        df = pd.DataFrame(attn[h].numpy(), index=tokens, columns=tokens)\n" \
          "        print(f\"\\n--- head {h}: attention weights (attn) ---\")\n        display(df.round(3))\n\n" \
          "show(attn, tokens)"
    cell = {"cell_type": "code", "execution_count": 5, "metadata": {}, "source": src, "outputs": outs}
    return json.dumps({"cells": [cell], "metadata": {}, "nbformat": 4, "nbformat_minor": 5})


def _errors(text: str) -> list:
    return error_findings(text, "ipynb")


def test_each_displayed_table_is_checked_by_its_rows():
    from mha.check import check_document
    assert check_document(notebook(HEADS), fmt="ipynb").n_numbers >= 18 and _errors(notebook(HEADS)) == []
    slipped = [HEADS[0], HEADS[1].copy()]
    slipped[1][2, 1] = 0.272                     # head 1's last row now sums to 1.010
    found = _errors(notebook(slipped))
    assert len(found) == 1 and "a row's sum" in found[0].claim and "1.010" in found[0].printed
