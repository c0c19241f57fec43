"""Size and count arithmetic as notes on kernels and memory write it (outside trials t266a-d, breadth scans of
inference notes, blogs and LaTeX chapters), each read as its author meant it, with a slip of the same form still
found.  My own numbers throughout.

- `≈ 99.8 × 10^6` for 99.88 million, `≈ 302,500,000` for 302,565,000: under ≈, a value of three significant digits
  or more may be cut down rather than rounded (one unit of its last digit), and so may a two-digit share (`≅ 66%`
  for 2/3);
- `1.23 × 4.56 → 1 FLOP`: what a line costs in operations, after an arrow, is no value of it;
- `1024 floats = 4 KB`: a count of numbers whose size the line does not say is not turned into bytes;
- `m_1 = max(-∞, 3) = 3`: the running maximum of an online softmax, no row maximum of the configuration;
- `S = 96 KiB = 98304` bytes (the unit in words after the formula): a size written in bytes, no equation of 96 and
  98304;
- `= 250.5$B parameters`: a magnitude letter right after the closing dollar;
- `49152/(64×20) = 38 个 warp`: a whole count by a quotient, floored.
"""

from check_helpers import error_places

_PAGE = r"""# Notes on a kernel

- Parameters: $2 \times 48000 \times 1024 + 1024 \times 1536 \approx {params} \times 10^6$
- Time: $\frac{6.0513 \times 10^{21}}{2.0 \times 10^{13}} \approx {time} \text{ seconds}$
- Share: $\frac{8nh^2}{12nh^2} = 2/3 \cong {share}\%$

> 1.23 × 4.56 → 1 FLOP

Tile in shared memory: 32×32 = 1024 floats = {kb} KB

Online maximum: $m_1 = \max(-\infty, 3) = 3$, then $m_2 = \max(3, 5) = 5$.

- $S = 96\text{KiB} = 98304$ 字节

Throughput: $\approx 2.004\times 10^{12} / 8 = 250.5$B elements per second.

则最多有 $49152/(64*20) = {warps}$ 个warp 同时活跃。
"""


def _page(params="99.8", time="302500000", share="66", kb="4", warps="38"):
    return _PAGE.replace("{params}", params).replace("{time}", time).replace("{share}", share) \
        .replace("{kb}", kb).replace("{warps}", warps)


def test_counts_sizes_and_cut_down_values_hold():
    assert error_places(_page()) == []


def test_slips_of_the_same_forms_are_found():
    assert [line for line, _ in error_places(_page(params="93.8"))] == [3]
    assert [line for line, _ in error_places(_page(time="352500000"))] == [4]
    assert [line for line, _ in error_places(_page(share="56"))] == [5]
    assert [line for line, _ in error_places(_page(warps="48"))] == [17]
