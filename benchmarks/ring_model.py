"""On paper: when does a ring step's transfer hide behind its compute?  Writes benchmarks/results/ring-model.txt.

    python benchmarks/ring_model.py

One step of the ring, per device, for one sequence: n = T/P query rows against
a K/V block of n rows, H query heads and G key/value heads of width d.

    compute   W = c * 4 n^2 H d   FLOP      (Q K^T and A V: 2 n^2 H d each; c = 1 without a mask,
                                             c = 1/2 causal with the zigzag layout, every device alike)
    transfer  M = 2 n G d b       bytes     (the K and V blocks; b bytes per number; 2 (T/P) d b per head)
    hidden    W / F >= M / B_w  <=>  n >= n* = (G / H) b F / (2 c B_w)  <=>  P <= T / n*

F is the FLOP rate a device sustains in attention, B_w the bandwidth of one
device's link to the next.  n* does not depend on d or T: the compute grows as
n^2, the transfer as n, so a long enough block always hides its transfer.  The
latency of a message (microseconds) is left out: at these sizes a step lasts
milliseconds.
"""

from __future__ import annotations

from pathlib import Path

# Assumptions, stated: an H100 SXM GPU, bf16.  Peak dense bf16 is 989 TFLOP/s; attention kernels sustain about
# 60 % of it (FlashAttention-3 reports 600-740 TFLOP/s forward), so F = 600 TFLOP/s.  NVLink 4 gives 900 GB/s per
# GPU, 450 GB/s each way; a ring sends one way to one neighbour.  25 Gb/s Ethernet: 3.125 GB/s.
F = 600e12
LINKS = {"8-GPU node (NVLink 4, 450 GB/s each way)": 450e9, "25 Gb/s network (3.125 GB/s)": 25e9 / 8}
B = 2                                   # bytes per number (bf16)
CASES = [("MHA, H = G = 32, d = 128", 32, 32, 128), ("GQA, H = 32, G = 8, d = 128", 32, 8, 128)]
T_LONG = 65_536


def n_star(H: int, G: int, c: float, bw: float) -> float:
    return (G / H) * B * F / (2 * c * bw)


def main() -> int:
    lines = [__doc__.split("\n\n", 1)[1].strip(), "",
             f"F = {F / 1e12:.0f} TFLOP/s (assumed: an H100 SXM in bf16, 989 TFLOP/s peak, of which attention kernels "
             f"sustain about 60 %), b = {B} bytes (bf16)", ""]
    for link, bw in LINKS.items():
        lines.append(link)
        for name, H, G, d in CASES:
            for c, mask in ((1.0, "no mask"), (0.5, "causal, zigzag")):
                ns = n_star(H, G, c, bw)
                P_max = T_LONG / ns
                n = T_LONG // 8
                W, M = c * 4 * n * n * H * d, 2 * n * G * d * B
                hides = (f"up to P = {int(P_max)}" if P_max >= 2 else     # P = 1 moves nothing
                         f"at no P >= 2 (P = 2 needs T >= {2 * ns:,.0f})")
                lines.append(f"  {name}, {mask}: n* = {ns:,.0f} tokens per device; at T = {T_LONG:,} the transfer "
                             f"hides {hides}; P = 8 needs T >= {8 * ns:,.0f}; at T = {T_LONG:,}, P = 8 a step "
                             f"computes {W / 1e12:.2f} TFLOP ({W / F * 1e3:.2f} ms) and moves {M / 1e6:.1f} MB "
                             f"({M / bw * 1e3:.2f} ms)")
        lines.append("")
    text = "\n".join(lines)
    out = Path(__file__).resolve().parent / "results" / "ring-model.txt"
    out.write_text(text + "\n")
    print(text)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
