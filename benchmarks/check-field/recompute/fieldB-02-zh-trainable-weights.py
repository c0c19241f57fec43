"""fieldB-02 (held out): Chinese translation, section 3.4 (self-attention with trainable weights).  Givens: the
inputs and torch.rand weights after manual_seed(123) (not printed), nn.Linear weights after manual_seed(789)."""
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from _chapter import run  # noqa: E402

ID = "fieldB-02-zh-trainable-weights"
run(ID, dict(repo="datawhalechina/llms-from-scratch-cn", path="Translated_Book/ch03/3.4.ipynb",
             commit="6ca2631b3d61cde3f067dd8a1426285db9760e59", fmt="ipynb", lang="zh", starts_from="X+weights",
             held_out=True,
             what="Chinese notebook: query_2 = x2 W_q with seeded weights, scores against all keys, softmax(scores/sqrt(2)), context vector; SelfAttention_v1 and v2 outputs",
             config={"T": 6, "d_in": 3, "d_out": 2, "H": 1, "scale": "1/sqrt(d_k)", "mask": None, "W_O": None,
                     "weights": "torch.rand seed 123; nn.Linear seed 789; not printed"}),
    slips=[("1.2705, 1.8524", "1.8111", "1.8811", "one digit off in a score", {"output": True}),
           ("0.1500, 0.2264", "0.2199", "0.2919", "one digit off in a weight", {}),
           ("0.3061, 0.8210", "0.8210", "0.8120", "swapped digits in the context vector", {"output": True})])
