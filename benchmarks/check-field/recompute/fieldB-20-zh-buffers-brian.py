"""fieldB-20: another Chinese translation of the buffers notebook (brianxiadong/LLMs-from-scratch-CN-Plus): CausalAttention without and with
a registered mask buffer, run on the stacked inputs (CPU and CUDA), and the layers' state_dict.  Givens: the inputs;
torch.manual_seed(123) before the first layer; the second layer is built without re-seeding (the next Linear draws).
The state_dict printouts are the weights themselves (recorded as inputs)."""
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from _chapter import run  # noqa: E402

ID = "fieldB-20-zh-buffers-brian"
run(ID, dict(repo="brianxiadong/LLMs-from-scratch-CN-Plus", path="ch03/03_understanding-buffers/understanding-buffers_zh-CN.ipynb",
             commit="3792ec77ea3c384ea50d0d062d2e3539d50110e4", fmt="ipynb", lang="zh", starts_from="X+weights", held_out=False,
             what="Chinese notebook: causal single-head attention outputs (two seeded layers) on the stacked inputs, mask buffer and state_dict weights",
             config={"T": 6, "d_in": 3, "d_out": 2, "H": 1, "scale": "1/sqrt(d_k)", "mask": "causal", "W_O": None,
                     "weights": "nn.Linear after manual_seed(123); printed only in the state_dict cells, after the outputs"},
             extra={"added_after_draw": True}),
    slips=[("[-0.5874,  0.0058]", "-0.5874", "-0.5784", "swapped digits in the first layer's output", {"output": True}),
           ("[0.6202, 0.3860]", "0.3860", "0.3680", "swapped digits in the second layer's output", {"output": True})])
