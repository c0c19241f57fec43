"""Shared by fieldJ-04 and fieldJ-05 (two parts of one course, notebooks rendered as Markdown): a causal average of a
printed random tensor x (4 x 8 x 2) with the weights 1/(t+1), its printed tensors read row by row, and the worked
products and sums of batch 0.  Printed averages, products and sums count as right within 1e-4 (1.5e-4 for sums) of
the values recomputed from the 4-decimal x: the notebooks computed them from the unrounded draws."""

from __future__ import annotations

import re

import numpy as np

W = np.array([[1 / (j + 1) if k <= j else 0.0 for k in range(8)] for j in range(8)])
L = lambda n: (None, n, False)  # noqa: E731


def tensor_rows(lines: list[str], start: int) -> list[tuple]:
    """Line numbers, values and printed strings of the rows of a tensor printed from line `start` (1-based)."""
    out, n = [], start
    while True:
        nums = re.findall(r"-?\d+\.\d*", lines[n - 1].split("tensor(")[-1])
        if nums:
            out.append((n, [float(v) for v in nums], nums))
        if lines[n - 1].rstrip().endswith("])"):
            return out
        n += 1


def averages(T, lines: list[str], x_start: int, x0_start: int, avg_starts: tuple, w_starts: tuple) -> None:
    """x (inputs), x[0] (inputs), each printing of the averaged tensor, each printing of the weight matrix."""
    x_rows = tensor_rows(lines, x_start)
    x = np.array([v for _, v, _ in x_rows]).reshape(4, 8, 2)
    xbow = np.einsum("ts,bsc->btc", W, x)
    for n, v, p in x_rows:
        T.nums(p, v, "x", L(n), role="input")
    for n, v, p in tensor_rows(lines, x0_start):
        T.nums(p, v, "x[0]", L(n), role="input")
    for start in avg_starts:
        for k, (n, v, p) in enumerate(tensor_rows(lines, start)):
            b, t = divmod(k, 8)
            for c in range(2):
                T.num(p[c], xbow[b, t, c], f"x_bow[{b},{t},{c}]", L(n), correct=abs(v[c] - xbow[b, t, c]) <= 1e-4)
    for start in w_starts:
        for j, (n, v, p) in enumerate(tensor_rows(lines, start)):
            T.nums(p, W[j], f"weights row {j}", L(n))


def worked_products(T, lines: list[str], after: int) -> None:
    """The output lines "   w * x = p", " + w * x = p" and "   sum = s" after line `after`; a printed 0.1667 is the
    weight 1/6, unrounded in the product."""
    acc: list[float] = []
    for i, s in enumerate(lines, start=1):
        if s.startswith("for feature"):
            acc = []
        m = re.fullmatch(r"\s*\+?\s*(\d\.\d{4}) \* (-?\d+\.\d{4}) = (-?\d+\.\d{4})", s)
        if m and i > after:
            w, xv = 1 / round(1 / float(m.group(1))), float(m.group(2))
            T.nums([m.group(1), m.group(2)], [w, xv], "weight, x value", L(i), role="input")
            T.num(m.group(3), w * xv, "product", L(i), correct=abs(float(m.group(3)) - w * xv) <= 1e-4)
            acc.append(w * xv)
            continue
        m = re.fullmatch(r"\s*sum = (-?\d+\.\d{4})", s)
        if m and acc:
            T.num(m.group(1), sum(acc), "sum of products", L(i), correct=abs(float(m.group(1)) - sum(acc)) <= 1.5e-4)
            acc = []
