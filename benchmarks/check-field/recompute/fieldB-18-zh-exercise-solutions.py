"""fieldB-18: Chinese (machine-translated) exercise solutions of chapter 3.  Exercise 3.1: SelfAttention_v1 given
SelfAttention_v2's weights (both built after torch.manual_seed(123)) prints the same output; exercise 3.2: the
wrapper with d_out=1 (quoted in Markdown).  Own errors: the exercise-3.2 printout is the early printing's (softmax
over the query axis); the chapter's wrapper gives other numbers."""
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from _chapter import run  # noqa: E402

ID = "fieldB-18-zh-exercise-solutions"
run(ID, dict(repo="brianxiadong/LLMs-from-scratch-CN-Plus", path="ch03/01_main-chapter-code/exercise-solutions_zh-CN.ipynb",
             commit="3792ec77ea3c384ea50d0d062d2e3539d50110e4", fmt="ipynb", lang="zh", starts_from="X+weights",
             held_out=False,
             what="Chinese exercise solutions: SelfAttention_v1 with SelfAttention_v2's transposed weights gives the same 6x2 output; wrapper with d_out=1 (2 heads) output",
             config={"T": 6, "d_in": 3, "d_out": "2; then 1 per head", "H": "1; then 2", "scale": "1/sqrt(d_k)",
                     "mask": "none; causal in 3.2", "W_O": None, "weights": "nn.Linear seed 123, not printed"},
             extra={"added_after_draw": True}),
    why={"wrong": "early printing's output (softmax over the query axis); the chapter's wrapper gives other values"},
    slips=[("[-0.5323, -0.1080]", "-0.1080", "-0.1800", "swapped digits in the v1 output", {"output": True}),
           ("[-0.5311, -0.1066]", "-0.5311", "-0.5331", "one digit off in the v1 output", {"output": True})])
