"""fieldC-10: the same blog's KV-cache page (afei2333/ai-notes, posts/kv-cache.html), a different page from fieldC-02
that reuses its example: the K-cache (3x4) and V-cache (= I) of 猫很累 are given in the page's JavaScript; at the
third step the new query q_累 (not printed on this page: "from the previous post") scores [3, 0, 2] against the three
cached keys, / sqrt(d_k) = 2, softmax [0.55, 0.12, 0.33], one KaTeX line plus a bar chart.  So the page starts from
the raw scores.  It also sizes the cache for Llama-2-7B (32 layers, d_model = 4096, fp16): 2 x 32 x 4096 x 2 bytes =
0.5 MB per token, 2 GB for 4096 tokens, and a table for 512 / 2K / 4K / 8K tokens.  All numbers hold."""
import numpy as np
from _fieldc import Truth, softmax, source

ID = "fieldC-10-afei-zh-html-kv-cache"
Kc = np.array([[1, 0, 1, 0], [0, 1, 0, 1], [0, 0, 1, 1]], float)
Vc = np.eye(3)
s = np.array([3.0, 0.0, 2.0])
z = s / 2
a = softmax(z)
per_token = 2 * 32 * 4096 * 2                     # bytes: K and V, 32 layers, d_model 4096, fp16
mib = per_token / 2**20
gib = lambda n: per_token * n / 2**30             # noqa: E731
print("weights", a, "per token MiB", mib, "GiB at 512/2K/4K/8K", [gib(n) for n in (512, 2048, 4096, 8192)])

T = Truth(ID)
f = lambda m: [f"{x:g}" for x in np.ravel(m)]  # noqa: E731
T.nums(f(Kc), Kc.ravel(), "K-cache", T.find("const Kc=[["), role="input")
T.nums(f(Vc), Vc.ravel(), "V-cache", T.find("const Vc=[["), role="input")
at = T.find("\\[ [\\,3,\\;0,\\;2\\,]")
T.nums(["3", "0", "2"], s, "scores of q_累", at, role="input")
T.num("1.5", z[0], "scores / 2 [1]", at)
T.num("1.0", z[2], "scores / 2 [3]", at)
T.nums(["0.55", "0.12", "0.33"], a, "weights", T.find("\\ [\\,0.55,\\;0.12,\\;0.33\\,] \\]"))
for k, tok in enumerate(("猫", "很", "累")):
    T.num(["0.55", "0.12", "0.33"][k], a[k], f"weight bar {tok}", T.find(f"→ {tok}</span><span class=\"bar\">"))
T.nums(["0.55", "0.12", "0.33"], a, "weights (animation)", T.find("    const vals=[0.55"))
T.nums(["0.55", "0.12", "0.33"], a, "weights (animation, final)", T.find("      const vals=[0.55"))
T.num("0.5", mib, "KV cache per token (MB)", T.find("<div><b>0.5 MB</b>"))
at = T.find("算一笔真账")
T.nums(["32", "4096", "0.5", "4096", "2"], [32, 4096, mib, 4096, gib(4096)], "Llama-2-7B cache size", at)
T.num("0.5", mib, "per token (fact box)", T.find("data-to=\"0.5\""))
T.num("2", gib(4096), "4K context (fact box)", T.find("data-to=\"2\" data-suf=\" GB\""))
for n, lab, out in ((512, "512 token", "0.25"), (2048, "2K token", "1"), (4096, "4K token", "2"), (8192, "8K token", "4")):
    T.num(out, gib(n), f"cache at {lab} (GB)", T.find(f"<span class=\"t\">{lab}</span>"))
T.mark_own_errors()
T.slip("\\text{softmax}\\ }\\ [\\,0.55,\\;0.12,\\;0.33\\,]", "\\text{softmax}\\ }\\ [\\,0.55,\\;0.21,\\;0.33\\,]",
       "swapped digits in a weight")
T.slip("\\ [\\,1.5,\\;0,\\;1.0\\,]", "\\ [\\,1.5,\\;0,\\;2.0\\,]", "one entry not divided")
T.slip("<span class=\"pct\">0.25G</span>", "<span class=\"pct\">0.5G</span>", "cache at 512 tokens doubled")
T.write()

source(ID, source={"repo": "afei2333/ai-notes", "path": "posts/kv-cache.html",
                   "commit": "cec8f37ab82d7b5d1c157d66ee22221c0d26b505"},
       format="html", lang="zh", starts_from="scores",
       what="Chinese blog page on the KV cache (same blog and example as fieldC-02): cached K and V in script arrays, "
            "the new query's raw scores [3, 0, 2] scaled and softmaxed in one KaTeX line and a bar chart, and the "
            "cache size of a 7B model per token and per context length",
       config={"T": 1, "S": 3, "H": 1, "d_k": 4, "scale": "1/sqrt(d_k) = 1/2", "mask": "causal (decode step)",
               "W_O": None, "givens": "raw scores of the new query; K-cache, V-cache in <script>"})
