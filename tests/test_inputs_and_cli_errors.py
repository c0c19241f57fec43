"""Bad input: each case through the CLI gives exit 2, one line naming the field, no traceback."""

import json

import numpy as np
import pytest

import mha
from conftest import run_subprocess

BASE = {"X": [[1, 0, 1, 0], [0, 1, 0, 1], [1, 1, 0, 0]], "n_heads": 2}

BAD = [
    ("ragged", {"X": [[1, 2], [3]], "n_heads": 1}, ["X", "ragged", "[2]", "[1]"]),
    ("non-number", {"X": [[1, "a"], [3, 4]], "n_heads": 1}, ["X", "'a'"]),
    ("bool in X", {"X": [[1, True]], "n_heads": 1}, ["X", "True"]),
    ("empty", {"X": [], "n_heads": 1}, ["X", "empty"]),
    ("empty row", {"X": [[]], "n_heads": 1}, ["X", "empty"]),
    ("NaN", {"X": [[1, float("nan")]], "n_heads": 1}, ["X", "non-finite", "[0, 1]"]),
    ("Inf", {"X": [[1, float("inf")]], "n_heads": 1}, ["X", "non-finite"]),
    ("heads", dict(BASE, n_heads=3), ["n_heads", "3", "d_model = 4", "[3, 4]"]),
    ("heads zero", dict(BASE, n_heads=0), ["n_heads", "positive"]),
    ("weight shape", dict(BASE, W_Q=[[1, 0], [0, 1]]), ["W_Q", "[4, 4]", "[2, 2]"]),
    ("identity impossible", dict(BASE, key=[[1, 2, 3]]), ["W_K", "identity", "[3, 4]"]),
    ("weight string", dict(BASE, W_O="eye"), ["W_O", "identity", "'eye'"]),
    ("bias shape", dict(BASE, b_Q=[1, 2]), ["b_Q", "[4]", "[2]"]),
    ("mask shape", dict(BASE, mask=[[True, False], [True, True]]), ["mask", "[1, 1, 2, 2]", "[1, 2, 3, 3]"]),
    ("mask type", dict(BASE, mask=[[1, 0, 0]] * 3), ["mask", "true/false"]),
    ("attn bias shape", dict(BASE, bias=[[0.0] * 4] * 3), ["bias", "[1, 1, 3, 4]", "axis S"]),
    ("key lengths", dict(BASE, key_lengths=[5]), ["key_lengths", "S = 3", "[5]"]),
    ("key lengths count", dict(BASE, key_lengths=[1, 2]), ["key_lengths", "[1]", "[2]"]),
    ("causal", dict(BASE, causal="sideways"), ["causal", "'sideways'"]),
    ("unknown key", dict(BASE, W_q="identity"), ["unknown key", "'W_q'"]),
    ("scale", dict(BASE, scale="big"), ["scale", "'big'"]),
    ("value without key", dict(BASE, value=[[1, 2]]), ["value", "key"]),
    ("batch mismatch", {"X": [[[1, 0]]], "n_heads": 1, "key": [[[1, 0]], [[0, 1]]]}, ["key", "batch size 2", "1"]),
    ("not an object", [1, 2, 3], ["input", "object"]),
]


@pytest.mark.parametrize("name,data,needles", BAD, ids=[b[0] for b in BAD])
def test_bad_input_through_cli(tmp_path, run_cli, name, data, needles):
    f = tmp_path / "in.json"
    f.write_text(json.dumps(data))        # json.dumps writes NaN/Infinity, which Python's reader accepts
    code, out, err = run_cli("explain", str(f), "--format", "json")
    assert code == 2
    assert out == ""
    assert err.count("\n") == 1 and "Traceback" not in err, err
    for needle in needles:
        assert needle in err, (needle, err)


def test_not_json_and_missing_file(tmp_path, run_cli):
    f = tmp_path / "in.json"
    f.write_text("{X: [[1]]")
    code, _, err = run_cli("explain", str(f))
    assert code == 2 and "not valid JSON" in err and err.count("\n") == 1
    code, _, err = run_cli("explain", str(tmp_path / "nope.json"))
    assert code == 2 and "no such file" in err and err.count("\n") == 1


def test_bad_flags_are_one_line(run_cli):
    for argv in (["explain", "--format", "pdf"], ["explain", "--precision", "x"], ["frobnicate"],
                 ["explain", "--x", "[[1,2]"], ["explain", "--tokens", "a:b"], ["explain", "--heads", "x"],
                 ["explain", "--lang", "fr"], ["explain", "--lang", "en,en"], ["explain", "--lang", "en,zh"],
                 ["explain", "--lang", "zh,en", "--format", "md"]):
        code, out, err = run_cli(*argv)
        assert code == 2 and err.count("\n") == 1 and "Traceback" not in err, (argv, err)


def test_error_in_a_real_process_has_no_traceback(tmp_path):
    f = tmp_path / "in.json"
    f.write_text(json.dumps(dict(BASE, n_heads=3)))
    p = run_subprocess("explain", str(f), "--format", "json")
    assert p.returncode == 2 and p.stdout == ""
    assert p.stderr.strip().splitlines() == [p.stderr.strip()] and "n_heads" in p.stderr


def test_python_api_raises_the_same_error():
    with pytest.raises(mha.MHAInputError, match=r"W_V: expected 4 rows \(X has 4 features\), got shape \[3, 4\]"):
        mha.trace(BASE["X"], n_heads=2, W_V=np.ones((3, 4)))
    with pytest.raises(mha.MHAInputError, match=r"k: last axis 3 must equal q's d_head 2"):
        mha.attention(np.ones((2, 2)), np.ones((2, 3)), np.ones((2, 3)))
    with pytest.raises(mha.MHAInputError, match=r"mask: shape \[3, 3\] does not broadcast"):
        mha.attention(np.ones((2, 2)), np.ones((4, 2)), np.ones((4, 2)), mask=np.ones((3, 3), bool))


def test_input_is_never_evaluated(tmp_path, run_cli):
    f = tmp_path / "in.json"
    f.write_text(json.dumps({"X": "__import__('os').system('touch pwned')", "n_heads": 1}))
    code, _, err = run_cli("explain", str(f), "--format", "json")
    assert code == 2 and "X: expected a nested list" in err
    code, _, err = run_cli("explain", "--x", "__import__('os')", "--format", "json")
    assert code == 2 and "--x" in err
