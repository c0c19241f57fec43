"""fieldB-04: Chinese translation, section 3.6 (multi-head attention: the wrapper, the 4-d example tensor a and
a @ a^T per head, MultiHeadAttention with out_proj).  Givens: the inputs, the example tensor a, the seeds."""
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from _chapter import run  # noqa: E402

ID = "fieldB-04-zh-multihead-book"
run(ID, dict(repo="datawhalechina/llms-from-scratch-cn", path="Translated_Book/ch03/3.6.ipynb",
             commit="6ca2631b3d61cde3f067dd8a1426285db9760e59", fmt="ipynb", lang="zh", starts_from="X+weights",
             held_out=False,
             what="Chinese notebook: multi-head wrapper outputs (seeded causal heads), a given 2-head 3x4 tensor and a @ a^T per head, MultiHeadAttention output",
             config={"T": 6, "d_in": 3, "H": 2, "d_out": "2 per head (wrapper), 2 total (MultiHeadAttention)",
                     "scale": "1/sqrt(d_k)", "mask": "causal", "W_O": "out_proj, seeded, not printed"}),
    slips=[("[-0.5874,  0.0058,  0.5891,  0.3257]", "0.5891", "0.5981", "swapped digits in the wrapper output (first sample)", {}),
           ("[1.1631, 2.2150, 1.8424]", "2.2150", "2.2510", "swapped digits in a @ a^T", {"output": True}),
           ("0.3190, 0.4858", "0.3190", "0.3910", "swapped digits in the MultiHeadAttention output (Markdown)", {})])
