"""fieldB-09: a Chinese chapter 3 notebook (a later printing of the chapter's code, with outputs).

Givens: the six input embeddings; the seeded weights the code draws (torch.rand after manual_seed(123) for 3.4;
nn.Linear after manual_seed(789) for SelfAttention_v2 and 3.5; nn.Linear after manual_seed(123) for the causal and
multi-head classes); the 0/2 dropout mask the notebook prints for dropout(ones(6, 6)) (torch's dropout draw differs
between versions, so the printed mask is taken as given).
No own errors: every printed number follows from the givens (the wrong-variant arrays match nothing here).
"""
import re
import sys
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent))
import _rasbt_ch3 as R  # noqa: E402
from _fb import Doc, write_source  # noqa: E402

ID = "fieldB-09-zh-ch03-zxw"
D = Doc(ID)
cat = {"sum of weights": np.array([1.0]), "inputs X": R.X}
full = R.catalog()
cat.update(full)
cat.update(R.a4_products())
bad, right = R.variants()
# the dropout mask the notebook prints (cell 97) is given; dropout of the causal weights follows from it
k97 = D.find("print(dropout(example))")
mask_rows = [D.lines[(k97[0], i, True)] for i in range(1, 7)]
mask = np.array([[float(v) for v in re.findall(r"\d+\.", r)] for r in mask_rows])
cat["dropout mask (given)"] = mask
cat["dropout(causal weights)"] = R.dropout_from_mask(mask, full["3.5 causal attn_weights"])
bad["stale dropout(unmasked weights)"] = R.dropout_from_mask(mask, full["3.4 sa_v2 weights"])
right["stale dropout(unmasked weights)"] = cat["dropout(causal weights)"]
cat.update(bad)
D.match(cat, roles={"inputs X": "input", "dropout mask (given)": "input", "3.6.2 a (given)": "input"}, wrong=right)
D.mark_own_errors({})
D.slips = []
D.slip_at(D.find("0.9544, 1.4950", output=True), "1.4754", "1.4574", "swapped digits in a score (first output)")
D.slip_at(D.find("[0.2758, 0.2460, 0.2462, 0.2319", output=True), "0.2319", "0.2391", "swapped digits in a causal weight")
D.slip_at(D.find("0.3190, 0.4858", output=True), "0.4858", "0.4885", "swapped digits in the MultiHeadAttention output")
D.write()
write_source(ID, "zxwhappy/LLMs-from-scratch-CN", "ch03/01_main-chapter-code/ch03.ipynb",
             "5c8e7c4e7e1585733d446f72e790dd3043cc259a", "ipynb", "zh", "X+weights", False,
             "Chinese chapter 3 notebook (a later printing): no-weight attention of x(2), seeded projections, scaled scores, causal mask, dropout, causal and multi-head classes, with outputs",
             {"T": 6, "d_in": 3, "d_out": 2, "H": "1, then 2", "scale": "1/sqrt(d_k) after 3.3", "mask": "causal from 3.5",
              "W_O": "out_proj (seeded) in MultiHeadAttention", "weights": "seeded, never printed"})
