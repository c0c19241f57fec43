"""Helpers shared by the benchmark scripts in this folder (run them as `python benchmarks/NAME.py`)."""

from __future__ import annotations

import sys
import time
from pathlib import Path
from typing import Any, Callable

RESULTS = Path(__file__).resolve().parent / "results"


def fastest(fns: list[Callable[[], Any]], reps: int, clock: Callable[[], float] = time.perf_counter) -> list[float]:
    """The fastest of reps alternating runs of each function, in seconds (the least disturbed run on a
    shared machine); each function runs once first, untimed."""
    best = [float("inf")] * len(fns)
    for f in fns:
        f()
    for _ in range(reps):
        for i, f in enumerate(fns):
            t0 = clock()
            f()
            best[i] = min(best[i], clock() - t0)
    return best


class Report:
    """Lines printed as they come and written to benchmarks/results/NAME.txt at the end."""

    def __init__(self, name: str):
        self.path = RESULTS / f"{name}.txt"
        self.lines: list[str] = []

    def __call__(self, line: str) -> None:
        print(line, flush=True)
        self.lines.append(line)

    def save(self) -> None:
        RESULTS.mkdir(exist_ok=True)
        self.path.write_text("\n".join(self.lines) + "\n", encoding="utf-8")
        print(f"written: {self.path}", file=sys.stderr)
