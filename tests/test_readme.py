"""The READMEs stay true: same structure in both languages, the API example runs, CI runs the README's command."""

import re
from pathlib import Path

import numpy as np
import pytest

ROOT = Path(__file__).resolve().parents[1]
EN = (ROOT / "README.md").read_text(encoding="utf-8")
ZH = (ROOT / "README.zh-CN.md").read_text(encoding="utf-8")


def test_same_structure_in_both_languages():
    heads = lambda s: [len(m.group(1)) for m in re.finditer(r"^(#+) ", s, re.M)]   # noqa: E731
    assert heads(EN) == heads(ZH)
    assert re.findall(r"```(\w*)", EN) == re.findall(r"```(\w*)", ZH)


def test_ci_runs_the_readme_test_command():
    blocks = re.findall(r"```sh\n(.*?)```", EN, re.S)
    test_cmd = blocks[1].strip()
    assert test_cmd == "pip install -e '.[test]' && python -m pytest"
    assert (ROOT / ".ci" / "run").read_text().rstrip().splitlines()[-1] == test_cmd
    assert blocks[0].strip().endswith("pip install . && mha explain")


def test_python_api_example_runs():
    code = re.search(r"## Python API\n\n```python\n(.*?)```", EN, re.S).group(1)
    if "import torch" in code:
        pytest.importorskip("torch", reason="the README's API example uses torch: pip install -e '.[test]'")
    g = np.random.default_rng(0)
    env = {"q": g.standard_normal((2, 3, 4)), "k": g.standard_normal((2, 5, 4)), "v": g.standard_normal((2, 5, 4)),
           "print": lambda *a, **k: None}
    exec(compile(code, "README.md", "exec"), env)            # noqa: S102 - our own README, not user input
    assert env["t"].Y.shape == (1, 5, 8)
