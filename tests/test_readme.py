"""The READMEs stay true: same structure in both languages, the API example runs, CI runs the README's command."""

import contextlib
import io
import json
import re
from pathlib import Path

import numpy as np
import pytest

import mha

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


def _json_objects(text):
    """Every JSON object of a block that holds several, one after another."""
    decoder, pos, out = json.JSONDecoder(), 0, []
    while True:
        while pos < len(text) and text[pos].isspace():
            pos += 1
        if pos >= len(text):
            return out
        obj, pos = decoder.raw_decode(text, pos)
        out.append(obj)


def test_input_examples_of_the_readme_run_and_agree_in_both_languages():
    blocks = {lang: re.findall(r"```json\n(.*?)```", text, re.S) for lang, text in (("en", EN), ("zh", ZH))}
    assert blocks["en"] == blocks["zh"]
    inputs = [obj for block in blocks["en"] if "[...]" not in block for obj in _json_objects(block)
              if "n_heads" in obj]
    assert len(inputs) >= 10
    for data in inputs:
        t = mha.trace(data)
        assert np.isfinite(t.Y).all()
    keys = {k for data in inputs for k in data}
    for key in ("W_O", "Q", "scale", "n_kv_heads", "rope", "alibi", "window", "cache", "tokens", "key_tokens"):
        assert key in keys, key


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_check_examples_of_the_readme_show_the_real_output(lang, monkeypatch):
    """The notebook and blog examples of `mha check` print, today, exactly what the README shows (run from the
    repository's root, as the README's paths are)."""
    from mha.cli import main
    monkeypatch.chdir(ROOT)

    text = EN if lang == "en" else ZH
    shown = re.findall(r"```text\n\$ mha check (\S+)\n(.*?)```", text, re.S)
    assert [doc for doc, _ in shown] == ["examples/check/attention_by_hand.ipynb",
                                          "examples/check/causal_attention_post.md"]
    for doc, output in shown:
        buf = io.StringIO()
        with contextlib.redirect_stdout(buf):
            status = main(["check", doc])
        assert status == 1, doc                     # each example holds two slips
        assert buf.getvalue() == output, doc
        assert output.count("likely cause:") == 2, doc
