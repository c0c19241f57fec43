r"""Timings and notations of notes on training and serving cost (outside trials t267a and t267b, a scaling book,
an engineering handbook and a kernel handbook), each read as its author meant it, with a slip of the same form
still found.  My own numbers throughout.

- `5.2e24 / 4.6e14 = 358 years`, `(...) / (16 * 8.2e11) = 2.0 ms`, `$\frac{4.8e13}{6.4e14} \approx 75\ \text{ms}$`,
  `3 * 2 * 60 / 175 = 2 sec`: a time with its unit after it, the quotient taken as seconds and turned into that unit,
  to one unit of the last digit printed;
- `12*10*24 / 2*2 = 720`: everything after the division sign meant as the divisor;
- `2 * 30 * 12e6 * 2,048 * (1 + 2 * 2.5) ~ 4.4e12`: one factor grouped in thousands between two multiplication
  signs is one number;
- `= 0.02 + 0.5 = 0.52 ms`: the line's one unit of time is every term's; `= 80 μs + 25 μs = 105 μs`: a number with
  a sum after it is that sum's first term;
- `\sqrt{2\ln 10^6}`: a function before a bare number takes its power with it, ln(10⁶).
"""

from check_helpers import error_places

_PAGE = r"""# Cost of a run

On one chip the run takes `5.2e24 / 4.6e14 = <years> years`.

One decode step reads the weights and the cache: `(4 * 700e6 + 24e9) / (16 * 8.2e11) = <ms> ms`.

The best case is $$ t \approx \frac{4.8 \times 10^{13}}{6.4 \times 10^{14}} \approx <tex>\ \text{ms}. $$

- comms = `3 * 2 * 60 / 175` = <sec> sec

A pod of `12x10x24` chips with hosts of 2x2x1 has `12*10*24 / 2*2 = <hosts>` hosts.

The activations take `2 * 30 * 12e6 * 2,048 * (1 + 2 * 2.5) ~ <act> = 8.8TB` in all.

$$T = (3-1) \times 10^{-5} + \frac{1}{2} \times \frac{10^8}{10^{11}} = <t1> + 0.5 = 0.52 \text{ ms}$$

$$T_2 = 2 \times 40 \times 10^{-6} + \frac{10^6}{4 \times 10^{10}} = 80 \text{ μs} + 25 \text{ μs} = 105 \text{ μs}$$

The largest weight is about $0.02 \times \sqrt{2\ln 10^6} \approx 0.02 \times <ln> = 0.106$.
"""


def _page(years="358", ms="2.0", tex="75", sec="2", hosts="720", act="8.8e12", t1="0.02", ln="5.3"):
    return _PAGE.replace("<years>", years).replace("<ms>", ms).replace("<tex>", tex).replace("<sec>", sec) \
        .replace("<hosts>", hosts).replace("<act>", act).replace("<t1>", t1).replace("<ln>", ln)


def test_times_and_notations_hold():
    assert error_places(_page()) == []


def test_slips_of_the_same_forms_are_found():
    assert [line for line, _ in error_places(_page(years="458"))] == [3]
    assert [line for line, _ in error_places(_page(ms="3.0"))] == [5]
    assert [line for line, _ in error_places(_page(tex="95"))] == [7]
    assert [line for line, _ in error_places(_page(sec="4"))] == [9]
    assert [line for line, _ in error_places(_page(hosts="820"))] == [11]
    assert [line for line, _ in error_places(_page(act="9.8e12"))] == [13]
    assert [line for line, _ in error_places(_page(t1="0.05"))] == [15]
    assert [line for line, _ in error_places(_page(ln="6.3"))] == [19]
