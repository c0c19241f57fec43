"""Shared by the check tests: the seed document beside the checkout (../shared, in this workplace and in its CI;
the tests that read it skip with the reason where it is absent) and how numbers are printed in the small documents
written for the tests."""

from pathlib import Path

import pytest

SEED = Path(__file__).resolve().parents[2] / "shared" / "seeds" / "000_54b22f0c3b2dd9eb.txt"
DOC = SEED.read_text(encoding="utf-8") if SEED.exists() else None
needs_seed = pytest.mark.skipif(DOC is None, reason=f"the seed document is not at {SEED}")


def r4(x):
    return f"{x:.4f}"


def numpy_rows(M, decimals=4):
    """A matrix as numpy prints it: [[a b] / [c d]]."""
    return "\n".join((" [" if i else "[[") + " ".join(f"{x:.{decimals}f}" for x in row) + "]"
                     for i, row in enumerate(M)) + "]"
