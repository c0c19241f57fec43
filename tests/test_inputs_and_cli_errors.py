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


@pytest.mark.parametrize("text", [
    '{"X": [[1, 0.1, -2.5e-3], [1e300, 5e-324, -0.0]], "n_heads": 1}',
    '{"a": 1, "a": 2}',                      # a repeated key: the last one wins, as in json
    '[NaN, Infinity, -Infinity]',            # beyond the standard: json reads them, then as_array refuses them
    '[1e400]',                               # json gives inf here
    '[18446744073709551615, -9223372036854775808]',
    '{"s": "\\u00e9\\u4e2d", "t": true, "n": null}',
])
def test_json_is_read_as_the_json_module_reads_it(tmp_path, text):
    from mha.arrays import read_json_file
    f = tmp_path / "in.json"
    f.write_text(text, encoding="utf-8")
    got, want = read_json_file(str(f)), json.loads(text)
    assert json.dumps(got) == json.dumps(want) and type(got) is type(want)


def test_json_that_neither_reader_parses_gets_the_json_modules_line(tmp_path):
    from mha.arrays import read_json_file
    from mha.inputs import UsageError
    f = tmp_path / "in.json"
    for text, where in (('{"X": [[1, 2],\n [3, 4]', "line 2 column 8"), ("[" * 5000 + "]" * 5000, "nests")):
        f.write_text(text)
        with pytest.raises(UsageError, match=where):
            read_json_file(str(f))


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


# ------------------------------------------------------------------ flags that used to crash or be ignored

DEEP = "[" * 100_000 + "1" + "]" * 100_000


@pytest.mark.parametrize("argv,needles", [
    (["--weights", "random", "--seed", "-5"], ["seed", "-5"]),
    (["--weights", "random", "--seed", str(2**32)], ["seed", str(2**32)]),
    (["--seed", "3"], ["seed", "--weights random"]),                  # a seed that would be ignored
    (["--tiled", "--block-size", "-3"], ["block_size", "-3"]),
    (["--tiled", "--block-size", "0"], ["block_size", "0"]),           # used to drop the tiled section
    (["--block-size", "3"], ["--block-size", "--tiled"]),              # ignored without --tiled
    (["--x", "[[1, 2], [3, 4]]"], ["--n-heads", "--x"]),               # used to assume H = 1
    (["--x", "[" * 5000 + "]" * 5000, "--n-heads", "1"], ["--x", "deeply"]),
    (["--plot", "/nonexistent/dir/h.png"], ["--plot", "/nonexistent/dir"]),
    (["--plot", "heads.bmp"], ["--plot", ".png"]),
    (["--heads", "3"], ["heads", "3", "numbered 1 to 2"]),
    (["--heads", "0"], ["heads", "0"]),
    (["--batch", "2"], ["batch", "2", "B = 1"]),
    (["--tokens", "0:2"], ["tokens", "start at 1"]),
    (["--tokens", "5:9"], ["tokens", "T = 3"]),
    (["--precision", "101"], ["precision", "0 to 100"]),
])
def test_bad_explain_flags_get_one_line(run_cli, tmp_path, argv, needles):
    code, out, err = run_cli("explain", "--format", "md", "-o", str(tmp_path / "out.md"), *argv)
    assert code == 2 and out == "", (argv, err)
    assert err.count("\n") == 1 and "Traceback" not in err, err
    for needle in needles:
        assert needle in err, (needle, err)
    assert not (tmp_path / "out.md").exists()


def test_deeply_nested_input_file(run_cli, tmp_path):
    for depth in (100_000, 700):        # json's own limit, and lists json reads but that nest past the stack
        f = tmp_path / "deep.json"
        f.write_text('{"X": ' + "[" * depth + "1" + "]" * depth + ', "n_heads": 1}')
        code, out, err = run_cli("explain", str(f), "--format", "json")
        assert code == 2 and out == "" and err.count("\n") == 1 and "nest" in err and "Traceback" not in err, err


def test_heads_batch_and_tokens_count_from_one(run_cli):
    data = mha.random_example(T=5, d_model=6, n_heads=3, B=2, seed=4)
    code, out, err = run_cli("explain", "--format", "md", "--lang", "en", "--heads", "2", "--batch", "2",
                             "--tokens", "2:4", "--x", json.dumps(data["X"].tolist()), "--n-heads", "3",
                             "--weights", "random", "--seed", "7")
    assert code == 0, err
    ex = mha.explain(mha.inputs.with_random_weights({"X": data["X"], "n_heads": 3}, 7), lang="en", heads=[1],
                     batch=1, tokens=slice(1, 4))
    assert out == ex.to_markdown()
    titles = [s.title for s in ex.sections]
    assert "Head 2" in titles and "Head 1" not in titles and "Head 3" not in titles
    a = next(b for s in ex.sections if s.key == "head2.softmax" for b in s.blocks if getattr(b, "heat", False))
    assert a.rows == (1, 2, 3)                                          # tokens 2 to 4, both included
    assert "Sequence 2 is shown" in out


def test_tiled_block_size_is_used(run_cli):
    code, out, _ = run_cli("explain", "--format", "md", "--lang", "en", "--tiled", "--block-size", "1")
    assert code == 0 and "block size 1" in out and out.count("Block 3: keys 3 to 3") == 2


def test_identity_weights_replace_the_inputs_weights(tmp_path, run_cli):
    """--weights identity means the identity, here and in the server (it used to fill only missing ones there)."""
    f = tmp_path / "in.json"
    f.write_text(json.dumps(dict(BASE, W_Q=(2 * np.eye(4)).tolist())))
    code, out, _ = run_cli("explain", str(f), "--weights", "identity", "--format", "json")
    assert code == 0
    d = json.loads(out)
    assert d["config"]["identity_weights"] == ["W_Q", "W_K", "W_V", "W_O"]
    np.testing.assert_array_equal(d["Y"], mha.trace(BASE).Y[0])


def test_named_examples_from_the_command_line(run_cli):
    code, out, _ = run_cli("explain", "--examples", "--lang", "en")
    assert code == 0
    names = [line.split()[0] for line in out.splitlines()]
    assert names == list(mha.EXAMPLES)
    assert mha.EXAMPLES["gqa"].idea["en"] in out
    code, out, _ = run_cli("explain", "--example", "llama-decode", "--format", "md", "--lang", "zh")
    assert code == 0 and out == mha.explain(mha.EXAMPLES["llama-decode"].data, lang="zh").to_markdown()
    code, out, err = run_cli("explain", "--example", "nope")
    assert code == 2 and "--example" in err and "llama-decode" in err and err.count("\n") == 1


def _big(value_at=None, rounded=True):
    """A 64 x 96 X of numbers as nested lists (rounded, so exact 0.0 and 1.0 occur), one entry replaced."""
    X = np.random.default_rng(0).standard_normal((64, 96))
    X = (X.round(1) if rounded else X).tolist()
    if value_at is not None:
        (i, j), v = value_at
        X[i][j] = v
    return X


@pytest.mark.parametrize("bad, needle", [(True, "True"), (False, "False"), ("1.5", "'1.5'"), (None, "None"),
                                         ([1.0], "ragged")])
def test_large_lists_are_checked_leaf_by_leaf(bad, needle):
    """NumPy converts the nested lists in C; what it would convert silently (a boolean among numbers, a
    number written as a string) or cannot (None, a ragged row) is still refused, naming the field."""
    with pytest.raises(mha.MHAInputError, match=rf"^X(\[40\])?: .*{needle}"):
        mha.inputs.as_array(_big(((40, 7), bad)), "X")


def test_large_lists_convert_to_the_same_array():
    for rounded in (True, False):
        X = _big(rounded=rounded)
        np.testing.assert_array_equal(mha.inputs.as_array(X, "X"), np.array(X))
    bias = _big(((3, 4), None))                                    # null in a bias: a masked entry
    got = mha.inputs.as_array(bias, "bias", allow_neg_inf=True)
    assert got[3, 4] == -np.inf and np.isfinite(np.delete(got.ravel(), 3 * 96 + 4)).all()
    mask = (np.random.default_rng(1).random((64, 96)) < 0.5).tolist()
    np.testing.assert_array_equal(mha.inputs.as_array(mask, "mask", kind="bool"), np.array(mask))
    with pytest.raises(mha.MHAInputError, match="^mask: expected true/false"):
        mha.inputs.as_array([[1, 0] * 40] * 30, "mask", kind="bool")
    assert mha.inputs.as_array([[3, 4]] * 50, "lengths", kind="int").dtype == np.int64
    with pytest.raises(mha.MHAInputError, match="^lengths: expected integers, found True"):
        mha.inputs.as_array([[3, 4]] * 50 + [[True, 4]], "lengths", kind="int")


def test_a_fault_of_mhas_own_is_one_line_with_status_3_and_the_other_documents_are_still_checked(
        tmp_path, monkeypatch, capsys):
    """An exception no reader meant to raise is no traceback: `mha check` says in one line that it is a bug of
    mha's own, goes on with the next document, and exits 3; MHA_DEBUG=1 keeps the traceback for a report."""
    from mha import cli
    from mha.check import command
    good = tmp_path / "good.md"
    good.write_text("X = [[1, 0], [0, 1]], W_Q = W_K = W_V = I, one head.\n\n"
                    "QK^T = [[1, 0], [0, 1]]\n", encoding="utf-8")
    bad = tmp_path / "bad.md"
    bad.write_text("anything\n", encoding="utf-8")
    real = command._check_one

    def faulty(path, config, args):
        if path.endswith("bad.md"):
            raise IndexError("list index out of range")
        return real(path, config, args)
    monkeypatch.setattr(command, "_check_one", faulty)
    monkeypatch.delenv("MHA_DEBUG", raising=False)
    assert cli.main(["check", str(bad), str(good)]) == 3
    out, err = capsys.readouterr()
    lines = err.strip().splitlines()
    assert len(lines) == 1 and "bad.md" in lines[0] and "internal error (IndexError: list index out of range)" in lines[0]
    assert "Traceback" not in err and "claims hold" in out      # the second document was still checked
    assert cli.main(["check", str(bad)]) == 3                   # one document alone: the same line, no traceback
    assert "internal error" in capsys.readouterr().err
    monkeypatch.setenv("MHA_DEBUG", "1")
    with pytest.raises(IndexError):
        cli.main(["check", str(bad)])


def test_any_command_turns_a_fault_of_its_own_into_one_line(monkeypatch, capsys):
    from mha import cli
    monkeypatch.delenv("MHA_DEBUG", raising=False)

    def broken(args):
        raise KeyError("W_Q")
    monkeypatch.setattr(cli, "cmd_explain", broken)
    parser = cli.make_parser
    monkeypatch.setattr(cli, "make_parser", lambda: _with_func(parser(), broken))
    assert cli.main(["explain"]) == 3
    err = capsys.readouterr().err
    assert err.startswith("mha: internal error (KeyError: 'W_Q')") and err.count("\n") == 1


def _with_func(parser, func):
    parser.set_defaults(func=func)
    return parser
