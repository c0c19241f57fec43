"""`mha explain --example ring` / `--devices P`: the ring walk-through's numbers, languages, formats and refusals."""

from __future__ import annotations

import re
import shutil
import subprocess

import numpy as np
import pytest

import mha
from mha.explanation import LANGS, Table
from mha.explanation.catalog import catalog


def tables(ex, key):
    section = next(s for s in ex.sections if s.key == key)
    return [b for b in section.blocks if isinstance(b, Table)]


def numbers(cell):
    """The numbers a table cell prints: "$[0.5, -\\infty]$" -> [0.5, -inf]."""
    return [-np.inf if x == "-\\infty" else float(x)
            for x in re.findall(r"-\\infty|-?\d+(?:\.\d+)?", cell.replace("$", ""))]


@pytest.mark.parametrize("P", [1, 2, 3])
@pytest.mark.parametrize("causal", [False, True])
def test_each_step_ends_on_the_trace_and_the_final_rows_are_its_O(P, causal):
    """After the last step every row's m and l are the row's max and sum of exponentials that the plain softmax
    computed (trace.row_max, trace.row_sum), and the ring's O rows are the trace's O, rounded alike."""
    data = dict(mha.DOCUMENT_EXAMPLE, causal=causal)
    ex = mha.explain(data, lang="en", devices=P)
    t, p = ex.trace, ex.options.precision
    keys = [s.key for s in ex.sections]
    assert keys.index("ring") < keys.index("concat")
    assert ("ring.balance" in keys) == ("ring.memory" in keys) == (P > 1)
    for h in range(t.config.n_heads):
        steps = tables(ex, f"ring.head{h + 1}")
        assert len(steps) == P + 1                                   # one table per step, then the final rows
        last = {int(row[1]): row for row in steps[P - 1].rows}
        for i in range(3):
            m, l, o = (numbers(c) for c in last[i + 1][4:])
            assert m == [round(float(t.row_max[0, h, i]), p)] and l == [round(float(t.row_sum[0, h, i]), p)]
            np.testing.assert_allclose(np.array(o) / l[0], t.O[0, h, i], atol=2 * 10 ** -p)
        for row in steps[-1].rows:
            i = int(row[1]) - 1
            assert numbers(row[2]) == numbers(row[3]) == [round(float(x), p) for x in t.O[0, h, i]]
        # the step tables read the scores of the head's S for the keys the device holds
        for s, table in enumerate(steps[:P]):
            for row in table.rows:
                if "skipped" not in row[3]:
                    i, held = int(row[1]) - 1, [int(k) - 1 for k in re.findall(r"\d+", row[2])]
                    keys_held = list(range(held[0], held[-1] + 1))
                    assert numbers(row[3]) == [round(float(x), p) if np.isfinite(x) else x
                                               for x in t.S[0, h, i, keys_held]]


def test_the_rescale_is_written_out_with_the_merged_numbers():
    ex = mha.explain(lang="en", devices=3)
    text = ex.to_markdown()
    # device 2 at step 2, token 2 of head 1: the old state (0.7071, 1, [0, 1]) meets key 1's score 0
    assert "One merge written out: device 2 at step 2, query token 2" in text
    assert "\\beta = e^{0 - 0.7071} = 0.4931" in text
    assert "\\ell = 1 \\cdot 1 + 0.4931 \\cdot 1 = 1.4931" in text


def test_memory_and_balance_sentences_carry_their_numbers():
    ex = mha.explain(lang="en", devices=3)
    md = ex.to_markdown()
    # per row: Q 2·2, two K/V blocks 2·2·(2+2), the state 2·(2+2): 4 + 16 + 8
    assert "= 2 \\cdot 2 + 2 \\cdot 2 \\cdot (2 + 2) + 2 \\cdot (2 + 2) = 28" in md
    assert "each device holds 21,846 rows" in md
    balance = tables(ex, "ring.balance")[0]
    n = 2048
    assert balance.rows[1][1] == f"0, {n * n:,}, {n * n:,}" and balance.rows[1][4] == f"{n * n // 2:,}"
    assert balance.rows[-1][4] == f"{6144 * 6145 // 2 // 3:,}"           # zigzag reaches the ideal share
    assert "takes 1.67 times as long" in md


def test_uneven_split_names_the_devices_with_one_row_more():
    data = mha.random_example(T=7, d_model=4, n_heads=2, seed=2)
    ex = mha.explain(data, lang="en", devices=3)
    md = ex.to_markdown()
    assert "the first 1 one token more than the others (3 rather than 2), as $7$ is not a multiple of $3$" in md
    assert "- device 1: token(s) 1 to 3\n- device 2: token(s) 4 to 5\n- device 3: token(s) 6 to 7" in md


@pytest.mark.parametrize("lang", LANGS)
def test_every_format_and_both_languages(lang, run_cli):
    code, out, err = run_cli("explain", "--example", "ring", "--lang", lang, "--format", "md")
    assert code == 0 and err == ""
    assert catalog(lang)["ring.title"].replace("<P>", "3") in out
    for fmt in ("text", "tex", "html"):
        code, out, _ = run_cli("explain", "--example", "ring", "--devices", "2", "--lang", lang, "--format", fmt)
        assert code == 0 and catalog(lang)["ring.title"].replace("<P>", "2") in out.replace("\n", " ")
    en, zh = mha.explain(lang="en", devices=3), mha.explain(lang="zh", devices=3)
    assert [s.key for s in en.sections] == [s.key for s in zh.sections]
    assert [[b.rows for b in tables(en, s.key)] for s in en.sections if s.key.startswith("ring.head")] == \
        [[tuple(tuple(c.replace("设备", "device") for c in row) for row in b.rows) for b in tables(zh, s.key)]
         for s in zh.sections if s.key.startswith("ring.head")]


@pytest.mark.parametrize("argv, needles", [
    (["--devices", "0"], ["devices", ">= 1", "0"]),
    (["--devices", "4"], ["devices", "1 to 3", "4"]),
    (["--devices", "2", "--window", "2"], ["devices", "sliding window"]),
    (["--devices", "2", "--alibi"], ["devices", "ALiBi"]),
    (["--example", "kv-cache", "--devices", "1"], ["devices", "KV cache"]),
])
def test_configurations_the_ring_does_not_split_are_refused_in_one_line(argv, needles, run_cli):
    code, out, err = run_cli("explain", *argv)
    assert code == 2 and out == "" and err.count("\n") == 1, err
    for needle in needles:
        assert needle in err, (needle, err)


def test_the_server_takes_devices(run_cli):
    pytest.importorskip("starlette")
    from starlette.testclient import TestClient
    from mha.serve import create_app
    client = TestClient(create_app())
    r = client.post("/api/render", json={"input": mha.DOCUMENT_EXAMPLE, "devices": 2})
    assert r.status_code == 200 and "The same attention on 2 devices" in r.json()["html"]
    r = client.post("/api/render", json={"input": mha.DOCUMENT_EXAMPLE, "devices": 9})
    assert r.status_code == 422 and "devices" in r.json()["error"]
    served = {e["name"]: e for e in client.get("/api/examples").json()}
    assert served["ring"]["options"] == {"devices": 3}


@pytest.mark.skipif(shutil.which("xelatex") is None, reason="xelatex not installed (.ci/run installs it)")
@pytest.mark.parametrize("lang", LANGS)
def test_ring_latex_compiles(tmp_path, lang):
    (tmp_path / "doc.tex").write_text(mha.explain(lang=lang, devices=3, causal=True).to_latex(), encoding="utf-8")
    p = subprocess.run(["xelatex", "-interaction=nonstopmode", "-halt-on-error", "doc.tex"], cwd=tmp_path,
                       capture_output=True, text=True, timeout=300)
    assert p.returncode == 0, p.stdout[-2000:]
    assert "Missing character" not in (tmp_path / "doc.log").read_text(errors="replace")


def test_at_most_sixteen_devices_are_walked_through():
    data = mha.random_example(T=20, d_model=4, n_heads=1, seed=1)
    assert [s.key for s in mha.explain(data, lang="en", devices=16).sections].count("ring.balance") == 1
    with pytest.raises(mha.inputs.MHAInputError, match=r"^devices: expected an integer from 1 to 16, got 17"):
        mha.explain(data, lang="en", devices=17)
