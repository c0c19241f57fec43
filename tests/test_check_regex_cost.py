"""Readers' patterns on inputs that once made them backtrack without end: a row of many numbers with wide gaps
that is never closed (readers/rowtable.py), and a notebook cell of a shell command, many blank lines and code
(readers/notebook.py).  Each must answer at once; an alarm turns a hang into a failure."""

import signal

import pytest

from mha.check.readers.notebook import _shell_cell
from mha.check.readers.rowtable import _ROW


@pytest.fixture
def alarm():
    def fail(signum, frame):
        raise TimeoutError("the pattern backtracked")
    old = signal.signal(signal.SIGALRM, fail)
    signal.alarm(10)
    yield
    signal.alarm(0)
    signal.signal(signal.SIGALRM, old)


def test_an_unclosed_row_of_numbers_with_wide_gaps_is_refused_at_once(alarm):
    assert _ROW.match("tok [" + "1.5      " * 60 + "x") is None
    assert _ROW.match("  <BOS> [     -0.0126        0.0213       -0.0152]  sum=1.0") is not None


def test_a_shell_cell_with_many_blank_lines_then_code_is_told_at_once(alarm):
    assert not _shell_cell("!pip install numpy\n" + " \n \n" * 5000 + "print(1)")
    assert _shell_cell("!pip install numpy\n\n%pip install -q torch\n# done")
