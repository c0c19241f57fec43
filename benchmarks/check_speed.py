"""How long `mha check` takes on a notebook of about 300 lines with about 400 printed numbers (issue 18's bar: 1 s).

The notebook is made here with NumPy and nbformat (no kernel is run: the outputs are NumPy's own printouts of the
computed arrays), then checked in-process five times; the minimum and the median are printed, with the notebook's
size and what the check made of it.  A benchmark, not a test: run it on a quiet machine.

    PYTHONPATH=src python benchmarks/check_speed.py [--save FILE.ipynb]
"""
from __future__ import annotations

import argparse
import re
import statistics
import time

import nbformat
import numpy as np


def softmax(S: np.ndarray) -> np.ndarray:
    E = np.exp(S - S.max(axis=-1, keepdims=True))
    return E / E.sum(axis=-1, keepdims=True)


def notebook() -> nbformat.NotebookNode:
    rng = np.random.default_rng(7)
    T, d, H = 6, 8, 2
    dk = d // H
    X = np.round(rng.uniform(-1, 1, (T, d)), 2)
    W = {n: np.round(rng.uniform(-1, 1, (d, d)), 2) for n in ("W_q", "W_k", "W_v", "W_o")}
    prose = ("\n\nEach step below is printed by NumPy, rounded to four decimals.  The reader can redo any entry\n"
             "with a calculator: a row of the first factor times a column of the second, summed.  The softmax\n"
             "runs along each row, so every row of the weights sums to one, up to the rounding of the print.\n"
             "Nothing here is trained; the weights were drawn once and rounded to two decimals, so that the\n"
             "inputs are exact and every later number follows from them.\n"
             "The heads see the same tokens through different columns of the projections, which is the\n"
             "whole point of having more than one of them.")
    show = lambda a: np.array2string(np.round(a, 4), precision=4, suppress_small=True, max_line_width=52)
    cells = [nbformat.v4.new_markdown_cell("# Two heads by hand, checked by NumPy\n\nSix tokens, d_model = 8, "
                                           "two heads of width 4, scaled by 1/sqrt(4), no mask.")]

    def code(src: str, out: str) -> None:
        c = nbformat.v4.new_code_cell(src)
        c.outputs = [nbformat.v4.new_output("stream", name="stdout", text=out + "\n")]
        cells.append(c)

    code("import numpy as np\nX = np.array(" + repr(X.tolist()) + ")\nprint(X)", show(X))
    for n, M in W.items():
        cells.append(nbformat.v4.new_markdown_cell(f"The weight matrix {n}, d_model x d_model:" + prose))
        code(f"{n} = np.array({M.tolist()!r})\nprint({n})", show(M))
    Q, K, V = X @ W["W_q"], X @ W["W_k"], X @ W["W_v"]
    for n, M in (("Q", Q), ("K", K), ("V", V)):
        cells.append(nbformat.v4.new_markdown_cell(f"The projection {n} = X W_{n.lower()}:" + prose))
        code(f"{n} = X @ W_{n.lower()}\nprint({n})", show(M))
    heads = []
    for h in range(H):
        sl = slice(h * dk, (h + 1) * dk)
        S = Q[:, sl] @ K[:, sl].T / np.sqrt(dk)
        A = softmax(S)
        O = A @ V[:, sl]
        heads.append(O)
        cells.append(nbformat.v4.new_markdown_cell(f"## Head {h + 1}\n\nScores, weights and the head's output." + prose))
        code(f"S{h + 1} = Q[:, {sl.start}:{sl.stop}] @ K[:, {sl.start}:{sl.stop}].T / np.sqrt(4)\nprint(S{h + 1})",
             show(S))
        code(f"A{h + 1} = np.exp(S{h + 1}) / np.exp(S{h + 1}).sum(axis=1, keepdims=True)\nprint(A{h + 1})", show(A))
        code(f"O{h + 1} = A{h + 1} @ V[:, {sl.start}:{sl.stop}]\nprint(O{h + 1})", show(O))
    C = np.concatenate(heads, axis=1)
    cells.append(nbformat.v4.new_markdown_cell("The heads side by side, then the output projection." + prose))
    code("concat = np.concatenate([O1, O2], axis=1)\nprint(concat)", show(C))
    code("Y = concat @ W_o\nprint(Y)", show(C @ W["W_o"]))
    return nbformat.v4.new_notebook(cells=cells)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--save", help="also write the notebook here")
    args = ap.parse_args()
    from mha.check import check_document
    text = nbformat.writes(notebook())
    if args.save:
        open(args.save, "w", encoding="utf-8").write(text)
    nb = nbformat.reads(text, as_version=4)
    lines = sum(len(c.source.split("\n")) + sum(len(o.get("text", "").split("\n")) for o in c.get("outputs", []))
                for c in nb.cells)
    numbers = sum(len(re.findall(r"-?\d+\.\d+|-?\d+\.(?!\d)", o.get("text", "")))
                  for c in nb.cells for o in c.get("outputs", []))
    times, report = [], None
    for _ in range(5):
        t0 = time.perf_counter()
        report = check_document(text, fmt="ipynb")
        times.append(time.perf_counter() - t0)
    print(f"notebook: {len(nb.cells)} cells, {lines} lines, {numbers} printed numbers in outputs")
    print(f"check: {report.n_claims} claims, {report.n_numbers} numbers checked, {len(report.errors)} errors")
    print(f"time: min {min(times):.3f} s, median {statistics.median(times):.3f} s over 5 runs (bar: 1 s)")


if __name__ == "__main__":
    main()
