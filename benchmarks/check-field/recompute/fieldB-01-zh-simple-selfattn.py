"""fieldB-01: Chinese translation, section 3.3 (self-attention without trainable weights).

Givens: the six input embeddings (cell 4).  The query is the second input; scores are its dot products with every
input, weights their softmax, the context vector the weighted sum of the inputs; then the same for all six rows.
The notebook prints each result twice: as the code cell's output and again in the next Markdown cell.
"""
import sys
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent))
import _rasbt_ch3 as R  # noqa: E402
from _fb import Doc, write_source  # noqa: E402

ID = "fieldB-01-zh-simple-selfattn"
D = Doc(ID)
cat = {"sum of weights": np.array([1.0]), "inputs X": R.X}
cat.update({k: v for k, v in R.catalog().items() if k.startswith("3.3")})
D.match(cat, roles={"inputs X": "input"})

# planted slips: a score, a weight, a context value (each in a code cell's output)
D.slip_at(D.find("0.9544, 1.4950", output=True), "1.4950", "1.4590", "swapped digits in a score (first output)")
D.slip_at(D.find("0.1390, 0.2369", output=True), "0.1108", "0.1180", "swapped digits in a weight (row 3 of the softmax output)")
D.slip_at(D.find("0.4304, 0.6298", output=True), "0.5510", "0.5610", "one digit off in a context vector (row 4)")
D.mark_own_errors()
D.write()
write_source(ID, "datawhalechina/llms-from-scratch-cn", "Translated_Book/ch03/3.3.ipynb",
             "6ca2631b3d61cde3f067dd8a1426285db9760e59", "ipynb", "zh", "one-query", True,
             "Chinese notebook: second token's query dotted with all six inputs (no weights), softmax, context vector; then all rows (X X^T, softmax, A X); outputs repeated in Markdown cells",
             {"T": 6, "S": 6, "H": 1, "d": 3, "W_Q": "I (no weights)", "scale": "none", "mask": None, "W_O": None,
              "query": "x^(2) = inputs[1]"})
