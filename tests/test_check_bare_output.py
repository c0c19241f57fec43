"""Q, K and V given by name, and the output printed bare under them, with no name of its own.

Outside trial t144e (planted slips missed): one wrong entry of the four made the start "compute nothing", the
printout was taken for X instead, and the slip went unreported (exit 1 with no finding, the summary "all 0 claims
hold").  Four entries or more printed to three decimals or more, all but one matching, do show that the start
computes (infer/search._all_but_one); when nothing can be checked at all, the summary says so.
"""

import subprocess
import sys

from mha.check import check_document

PAGE = """Q = [[1, 0], [0, 1]]
K = [[1, 1], [0, 2]]
V = [[2, 4], [6, 8]]

[[3.3210, 5.3210],
 [4.6790, 6.6790]]
"""


def test_the_bare_output_holds():
    r = check_document(PAGE, fmt="md")
    assert not r.errors and r.n_numbers == 4, ([f.describe() for f in r.findings], r.n_numbers)


def test_one_wrong_entry_is_found():
    r = check_document(PAGE.replace("[[3.3210,", "[[3.3310,"), fmt="md")
    assert [(f.line, f.printed) for f in r.errors] == [(5, "3.3310")], [f.describe() for f in r.findings]


def test_nothing_checked_says_so_and_exits_1(tmp_path):
    f = tmp_path / "page.md"
    f.write_text(PAGE.replace("3.3210, 5.3210", "3.3310, 5.3310"), encoding="utf-8")
    r = subprocess.run([sys.executable, "-m", "mha", "check", str(f)], capture_output=True, text=True, timeout=120)
    assert r.returncode == 1, r
    assert "no claim could be checked, so nothing is verified" in r.stdout.splitlines()[-1], r.stdout
