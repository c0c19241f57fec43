"""fieldB-03 (held out): Chinese translation, section 3.5 (causal attention: mask after softmax, renormalised,
-inf before softmax, dropout, CausalAttention).  Givens: the inputs, the nn.Linear weights after manual_seed(789)
(SelfAttention_v2, not printed), the dropout mask the notebook prints for dropout(ones(6, 6))."""
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from _chapter import run  # noqa: E402

ID = "fieldB-03-zh-causal-mask"
run(ID, dict(repo="datawhalechina/llms-from-scratch-cn", path="Translated_Book/ch03/3.5.ipynb",
             commit="6ca2631b3d61cde3f067dd8a1426285db9760e59", fmt="ipynb", lang="zh", starts_from="X+weights",
             held_out=True,
             what="Chinese notebook: weights of SelfAttention_v2, tril mask after softmax and renormalised, -inf mask before softmax, dropout of the weights, CausalAttention",
             config={"T": 6, "d_in": 3, "d_out": 2, "H": 1, "scale": "1/sqrt(d_k)", "mask": "causal", "W_O": None,
                     "dropout": "p=0.5, mask printed", "weights": "nn.Linear seed 789; not printed"}),
    slips=[("0.5517, 0.4483", "0.4483", "0.4843", "swapped digits in a causal weight", {"output": True}),
           ("0.3800, 0.3097", "0.3800", "0.3080", "swapped digits in a causal weight", {"output": True, "nth": 1}),
           ("0.2758, 0.2460", "0.2758", "0.2785", "swapped digits in a causal weight", {"output": True})])
