"""fieldB-08: Chinese-annotated chapter 3 code notebook (an early printing of the chapter's code, with outputs).

Givens: the six input embeddings; the seeded weights the code draws (torch.rand after manual_seed(123) for 3.4;
nn.Linear after manual_seed(789) for SelfAttention_v2 and 3.5; nn.Linear after manual_seed(123) for the causal and
multi-head classes); the 0/2 dropout mask the notebook prints for dropout(ones(6, 6)) (torch's dropout draw differs
between versions, so the printed mask is taken as given).
Own errors: the outputs of CausalAttention and of both MultiHeadAttentionWrapper calls were computed with the softmax
over the query axis (dim=1 of the batch), while the code shown says dim=-1 (every row of those printouts is wrong);
dropout(attn_weights) in cell 98 shows the unmasked weights, though cell 92 just made attn_weights the causal ones.
"""
import re
import sys
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent))
import _rasbt_ch3 as R  # noqa: E402
from _fb import Doc, write_source  # noqa: E402

ID = "fieldB-08-zh-ch03-code-notebook"
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
c98, c102 = D.find("print(dropout(attn_weights))")[0], D.find("ca = CausalAttention(")[0]
for e in D.own_errors:
    if e["cell"] == c98:
        e["why"] = "dropout of the unmasked weights shown; attn_weights was just made the causal weights (cell 92)"
    elif e["cell"] >= c102:
        e["why"] = "output computed with the softmax over the query axis (dim=1 of the batch); the code shown says dim=-1"
D.slip_at(D.find("0.9544, 1.4950", output=True), "1.4950", "1.4590", "swapped digits in a score (first output)")
D.slip_at(D.find("[0.2758, 0.2460, 0.2462, 0.2319", output=True, cell=D.find("masked / keys.shape")[0]), "0.2460", "0.2640", "swapped digits in a causal weight")
D.slip_at(D.find("0.3061, 0.8210", output=True), "0.8210", "0.8120", "swapped digits in the trainable-weights context vector")
D.write()
write_source(ID, "datawhalechina/llms-from-scratch-cn", "Codes/ch03/01_main-chapter-code/ch03.ipynb",
             "6ca2631b3d61cde3f067dd8a1426285db9760e59", "ipynb", "zh", "X+weights", False,
             "Chinese-annotated chapter 3 notebook: no-weight attention of x(2), then seeded W_q/W_k/W_v (not printed), scaled scores, causal mask, dropout, CausalAttention, multi-head wrapper and MultiHeadAttention with outputs",
             {"T": 6, "d_in": 3, "d_out": 2, "H": "1, then 2 (wrapper: concatenated; MultiHeadAttention: head_dim 1 with out_proj)",
              "scale": "1/sqrt(d_k) after 3.3 (none in 3.3)", "mask": "causal from 3.5", "W_O": "out_proj (seeded, not printed) in 3.6.2",
              "weights": "seeded (torch.rand seed 123; nn.Linear seeds 789 and 123), never printed"})
