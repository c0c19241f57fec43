"""Issue 19 experiment: where T = 128..512 loses against SDPA (2 cores), with the work cut differently.

    python benchmarks/small_t_variants.py     (quiet machine; results/small-t-variants.txt)
"""
import sys, time, statistics, numpy as np, torch
import mha
from mha import fast
rng = np.random.default_rng(0)
H, d = 12, 64

def timeit(f, n):
    f(); f()
    ts = []
    for _ in range(n):
        t = time.perf_counter(); f(); ts.append(time.perf_counter() - t)
    return statistics.median(ts) * 1e3, min(ts) * 1e3

orig_plan = fast.plan
def forced(heads):
    def p(*a, **k):
        r = orig_plan(*a, **k)
        return fast.Plan(heads, r.rows, r.keys, r.workers, r.scan)
    return p

for T in (128, 256, 512):
    n = 300 if T < 512 else 100
    q, k, v = (rng.standard_normal((1, H, T, d)).astype(np.float32) for _ in range(3))
    tq, tk, tv = (torch.from_numpy(x) for x in (q, k, v))
    for causal in (False, True):
        rows = {}
        rows["torch"] = timeit(lambda: torch.nn.functional.scaled_dot_product_attention(tq, tk, tv, is_causal=causal), n)
        rows["mha default"] = timeit(lambda: mha.attention(q, k, v, causal=causal), n)
        rows["heads_default"] = timeit(lambda: fast.attention_heads(q, k, v, scale=0.125, causal=causal), n)
        rows["1 worker"] = timeit(lambda: fast.attention_heads(q, k, v, scale=0.125, causal=causal, workers=1), n)
        for hh in (6, 4, 2):
            fast.plan = forced(hh)
            rows[f"heads/item={hh}"] = timeit(lambda: fast.attention_heads(q, k, v, scale=0.125, causal=causal), n)
            fast.plan = orig_plan
        from threadpoolctl import threadpool_limits
        with threadpool_limits(1, user_api="blas"):
            rows["blas=1 globally"] = timeit(lambda: fast.attention_heads(q, k, v, scale=0.125, causal=causal), n)
        sys.setswitchinterval(1e-4)
        rows["switch 0.1ms"] = timeit(lambda: fast.attention_heads(q, k, v, scale=0.125, causal=causal), n)
        sys.setswitchinterval(5e-3)
        print(f"T={T} causal={causal} plan={orig_plan(1, H, H, T, T, d, d, causal=causal, compiled=True)}")
        for name, (med, mn) in rows.items():
            print(f"   {name:16s} median {med:7.3f} ms  min {mn:7.3f} ms   torch/this {rows['torch'][0] / med:5.2f}")
