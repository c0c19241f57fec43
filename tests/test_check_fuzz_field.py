"""Damage found by the field fuzz campaign (benchmarks/check_fuzz_field.py), each kept as the smallest text that
raised it, and a quick run of the campaign's own generator.  Whatever a document holds, check answers with a
report or one MHAInputError, never another exception."""

import importlib.util
import random
from pathlib import Path

import pytest

from mha.check import check_document
from mha.inputs import MHAInputError

# each: the smallest text found (by deleting lines) that raised, and what it raised
FOUND = {
    # a size written as -inf beside a table: judge_size took int() of an infinite size (OverflowError)
    "size -inf": "d_k = -inf\n| nan | 0 | １.５ | 1_000 | 8 |\n| -0 | 1e | -5.7 | 4e-324 | 1 |",
}


def _answer(text: str, name: str = "x.md"):
    try:
        return check_document(text, name=name)
    except MHAInputError as e:
        assert str(e) and "\n" not in str(e).strip()
        return None


@pytest.mark.parametrize("case", sorted(FOUND))
def test_found_damage_gives_a_report_or_one_clear_error(case):
    r = _answer(FOUND[case])
    if r is not None:
        assert r.exit_code in (0, 1)
        r.to_text()
        r.to_json()


def _campaign():
    path = Path(__file__).resolve().parents[1] / "benchmarks" / "check_fuzz_field.py"
    spec = importlib.util.spec_from_file_location("check_fuzz_field", path)
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def test_the_campaigns_generated_texts_and_damage():
    fuzz = _campaign()
    rng = random.Random(7)
    outcomes = set()
    for i in range(12):
        text = fuzz.generated(rng)
        for _ in range(rng.randint(0, 2)):
            text = fuzz.damage(rng, text)
        got = fuzz.run_one(check_document, MHAInputError, text, f"g{i}.md")
        assert got in ("report", "error", "slow"), got
        outcomes.add(got)
    assert outcomes >= {"report", "error"}          # the generator reaches the judging, not only the refusals


def test_half_a_surrogate_pair_in_a_notebook_is_no_traceback():
    """A notebook's JSON may escape half a surrogate pair ("\\udcff"): json reads it as a lone surrogate, which
    UTF-8 cannot encode (slim_notebook raised UnicodeEncodeError)."""
    import json
    cells = [{"cell_type": "code", "id": "a", "metadata": {}, "execution_count": 1, "outputs": [
        {"output_type": "stream", "name": "stdout", "text": "[[0.46 0.32 0.22]\n [0.18 0.3  0.52]]\n"}],
        "source": "A = softmax(S)  # \udcff weights\nprint(A.round(2))"}]
    text = json.dumps({"cells": cells, "metadata": {}, "nbformat": 4, "nbformat_minor": 5})
    assert "\\udcff" in text
    for t in (text, json.loads(json.dumps(text))):
        r = _answer(t, "x.ipynb")
        if r is not None:
            r.to_text().encode("utf-8")
