"""fieldB-05 (held out): Chinese Markdown translation of the attention chapter (outputs as fenced code blocks).
Givens: the inputs, the seeds, the 4-d example tensor a; the dropout mask as the page prints it.  Not in the truth:
the translator's illustrative weight table for "it" (0.1, 0.3, 0.05, ...: not computed from anything) and section
numbers."""
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from _chapter import run  # noqa: E402

ID = "fieldB-05-zh-chapter3-md"
run(ID, dict(repo="puboop/build-a-large-language-model-cn", path="cn-Book/3.实现注意力机制.md",
             commit="883875869b8634e7dc254d9370b3c55dd7a9a950", fmt="md", lang="zh", starts_from="X+weights", held_out=True,
             what="Chinese Markdown chapter: no-weight attention of x(2) and of all rows, seeded projections, scaled scores, causal mask, dropout, causal/multi-head classes; outputs in fenced blocks",
             config={"T": 6, "d_in": 3, "d_out": 2, "H": "1, then 2", "scale": "none in 3.3, 1/sqrt(d_k) after",
                     "mask": "causal from 3.5", "W_O": "out_proj (seeded) in MultiHeadAttention", "weights": "seeded, never printed"}),
    slips=[("0.9544, 1.4950", "1.4950", "1.4590", "swapped digits in a score", {}),
           ("0.4419, 0.6515", "0.6515", "0.6155", "swapped digits in the context vector", {}),
           ("0.2758, 0.2460", "0.2758", "0.2785", "swapped digits in a causal weight", {}),
           ("0.3190, 0.4858", "0.4858", "0.4588", "swapped digits in the MultiHeadAttention output", {})])
