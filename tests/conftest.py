import importlib.util
import json
import os
import re
import subprocess
import sys

import pytest

# The tests never reach the network: loading from the Hub is forbidden for the whole session (set before
# huggingface_hub is imported, which reads it once); tests/test_hub.py simulates the Hub where it needs one.
os.environ["HF_HUB_OFFLINE"] = "1"

from mha.cli import main  # noqa: E402

# the real-browser tests' fixtures (browser, server): tests/browser_support.py
pytest_plugins = ["browser_support"]

# scripts that build and measure the held-out check set: they run when imported (make.py executes notebooks and
# needs pandas), so doctest collection must not import them; tests/test_check_heldout.py is their test
collect_ignore = ["check_heldout/make.py", "check_heldout/measure.py", "check_heldout/_common.py",
                  "check_heldout/docs_text_a.py", "check_heldout/docs_text_b.py", "check_heldout/docs_notebooks.py",
                  "check_backward/make.py", "check_backward/_common.py", "check_backward/docs_text.py",
                  "check_backward/docs_notebooks.py",
                  "check_exact/make.py"]          # writes the closed-form documents; needs sympy


@pytest.fixture
def run_cli(capsys):
    """Run the CLI in-process; returns (exit code, stdout, stderr)."""
    def run(*argv):
        code = main(list(argv))
        out, err = capsys.readouterr()
        return code, out, err
    return run


@pytest.fixture
def refused_input(tmp_path, run_cli):
    """`mha explain` on an input file: refused with one line (exit 2, no traceback) that names every needle."""
    def refuse(data, needles):
        f = tmp_path / "in.json"
        f.write_text(json.dumps(data))
        code, out, err = run_cli("explain", str(f), "--format", "json")
        assert code == 2 and out == "" and err.count("\n") == 1 and "Traceback" not in err, err
        for needle in needles:
            assert needle in err, (needle, err)
    return refuse


def run_subprocess(*argv, input=None, env=None):
    """Run `python -m mha` in a child process (for what in-process runs cannot show)."""
    return subprocess.run([sys.executable, "-m", "mha", *argv], capture_output=True, text=True,
                          input=input, env=env, timeout=120)


def pytest_terminal_summary(terminalreporter):
    # read the parity module only if pytest imported it: importing it here would run its importorskip,
    # whose Skipped (not an ImportError) aborts the session when torch is missing
    parity = sys.modules.get("test_torch_parity")
    PARITY_ERRORS = getattr(parity, "PARITY_ERRORS", None)
    if PARITY_ERRORS:
        terminalreporter.section("torch parity (float64)")
        for kind, errs in PARITY_ERRORS.items():
            terminalreporter.write_line(f"{kind}: {len(errs)} configurations, largest |difference| {max(errs):.3e}")


def pytest_collection_modifyitems(config, items):
    """A doctest whose example imports an optional package that is not installed (torch for
    `mha.from_torch`, say) is skipped with that reason: a doctest cannot call importorskip itself."""
    for item in items:
        dtest = getattr(item, "dtest", None)
        for example in getattr(dtest, "examples", ()):
            found = re.match(r"\s*(?:import|from)\s+([A-Za-z_]\w*)", example.source)
            if found and importlib.util.find_spec(found.group(1)) is None:
                item.add_marker(pytest.mark.skip(reason=f"the example imports {found.group(1)}, which is not installed"))
                break
