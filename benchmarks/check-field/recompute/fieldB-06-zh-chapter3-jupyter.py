"""fieldB-06 (held out): Chinese Jupyter version of the attention chapter, run by its author (outputs kept).
Givens: the inputs, the seeds, the 4-d example tensor a; the dropout mask as the notebook prints it.  Not in the
truth: the translator's illustrative weight table (not computed), and the exercise-3.3 output of a GPT-2-size layer
run on torch.Tensor(4, 1024, 768) (uninitialised memory: no givens to recompute it from)."""
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from _chapter import run  # noqa: E402

ID = "fieldB-06-zh-chapter3-jupyter"
run(ID, dict(repo="NoyeArk/Build-A-Large-Language-Model-CN-Jupyter", path="notebook/3.实现注意力机制.ipynb",
             commit="11a6d761dce426b67737e84a324457f98b9d2d25", fmt="ipynb", lang="zh", starts_from="X+weights", held_out=True,
             what="Chinese notebook of the whole chapter with the author's outputs: no-weight attention, seeded projections, causal mask, dropout, causal and multi-head classes",
             config={"T": 6, "d_in": 3, "d_out": 2, "H": "1, then 2", "scale": "none in 3.3, 1/sqrt(d_k) after",
                     "mask": "causal from 3.5", "W_O": "out_proj (seeded) in MultiHeadAttention", "weights": "seeded, never printed"}),
    slips=[("0.9544, 1.4950", "1.4950", "1.4590", "swapped digits in a score (first output)", {"output": True}),
           ("0.3061, 0.8210", "0.3061", "0.3016", "swapped digits in the context vector", {"output": True}),
           ("0.2758, 0.2460", "0.2460", "0.2640", "swapped digits in a causal weight", {"output": True}),
           ("0.3190, 0.4858", "0.3190", "0.3910", "swapped digits in the MultiHeadAttention output", {"output": True})])
