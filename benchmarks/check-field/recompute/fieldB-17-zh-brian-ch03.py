"""fieldB-17: a Chinese-annotated chapter 3 notebook (brianxiadong/LLMs-from-scratch-CN-Plus) with outputs.
Givens: the inputs, the seeds, the 4-d example tensor a; the dropout mask as the notebook prints it."""
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from _chapter import run  # noqa: E402

ID = "fieldB-17-zh-brian-ch03"
run(ID, dict(repo="brianxiadong/LLMs-from-scratch-CN-Plus", path="ch03/01_main-chapter-code/ch03.ipynb",
             commit="a1cbc8e1f16d61578653b6bc48af1e30f0718e2a", fmt="ipynb", lang="zh", starts_from="X+weights",
             held_out=False,
             what="Chinese-annotated chapter 3 notebook: no-weight attention of x(2), seeded projections, causal mask, dropout, causal and multi-head classes, with outputs",
             config={"T": 6, "d_in": 3, "d_out": 2, "H": "1, then 2", "scale": "none in 3.3, 1/sqrt(d_k) after",
                     "mask": "causal from 3.5", "W_O": "out_proj (seeded) in MultiHeadAttention", "weights": "seeded, never printed"},
             extra={"added_after_draw": True}),
    slips=[("0.9544, 1.4950", "0.8434", "0.8443", "swapped digits in a score (first output)", {"output": True}),
           ("[0.4421, 0.5931, 0.5790]", "0.5931", "0.5913", "swapped digits in a context vector", {"output": True}),
           ("0.2758, 0.2460", "0.2462", "0.2642", "swapped digits in a causal weight", {"output": True})])
