"""fieldB-19: Chinese notebook on PyTorch buffers (zxwhappy/LLMs-from-scratch-CN): CausalAttention without and with
a registered mask buffer, run on the stacked inputs (CPU and CUDA), and the layers' state_dict.  Givens: the inputs;
torch.manual_seed(123) before the first layer; the second layer is built without re-seeding (the next Linear draws).
The state_dict printouts are the weights themselves (recorded as inputs)."""
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from _chapter import run  # noqa: E402

ID = "fieldB-19-zh-understanding-buffers"
run(ID, dict(repo="zxwhappy/LLMs-from-scratch-CN", path="ch03/03_understanding-buffers/understanding-buffers.ipynb",
             commit="5c8e7c4e7e1585733d446f72e790dd3043cc259a", fmt="ipynb", lang="zh", starts_from="X+weights", held_out=False,
             what="Chinese notebook: causal single-head attention outputs (two seeded layers) on the stacked inputs, mask buffer and state_dict weights",
             config={"T": 6, "d_in": 3, "d_out": 2, "H": 1, "scale": "1/sqrt(d_k)", "mask": "causal", "W_O": None,
                     "weights": "nn.Linear after manual_seed(123); printed only in the state_dict cells, after the outputs"},
             extra={"added_after_draw": True}),
    slips=[("[-0.5874,  0.0058]", "-0.5874", "-0.5784", "swapped digits in the first layer's output", {"output": True}),
           ("[0.6202, 0.3860]", "0.3860", "0.3680", "swapped digits in the second layer's output", {"output": True})])
