import json
import subprocess
import sys

import pytest

from mha.cli import main


@pytest.fixture
def run_cli(capsys):
    """Run the CLI in-process; returns (exit code, stdout, stderr)."""
    def run(*argv):
        code = main(list(argv))
        out, err = capsys.readouterr()
        return code, out, err
    return run


def run_subprocess(*argv, input=None, env=None):
    """Run `python -m mha` in a child process (for what in-process runs cannot show)."""
    return subprocess.run([sys.executable, "-m", "mha", *argv], capture_output=True, text=True,
                          input=input, env=env, timeout=120)


def pytest_terminal_summary(terminalreporter):
    try:
        from test_torch_parity import PARITY_ERRORS
    except ImportError:
        return
    if PARITY_ERRORS:
        terminalreporter.section("torch parity (float64)")
        for kind, errs in PARITY_ERRORS.items():
            terminalreporter.write_line(f"{kind}: {len(errs)} configurations, largest |difference| {max(errs):.3e}")
