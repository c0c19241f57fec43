"""mha explain --model NAME --overview: every layer and head, in every format, for every family.

The oracle for the weights is the model itself: transformers' eager attention returns each layer's
attention probabilities with output_attentions=True; every cell of the overview must equal them.
The summaries are checked on matrices whose answer is known by construction.
"""

from __future__ import annotations

import base64
import json
import math
import re
import zlib
from pathlib import Path

import numpy as np
import pytest

import mha
from mha import overview as ov_mod
from mha.explanation.overview import HeadView, Overview, downsample, summarize
from mha.inputs import MHAInputError
from mha.render.overview import render_overview_markdown
from mha.render.overview_html import MASKED, ONE, ZERO, fixed_point, render_overview_html

TEXT = "the cat sat on the mat by the door"


# ---------------------------------------------------------------- summaries, on matrices with known answers

def causal_rows(T: int, pick) -> np.ndarray:
    """A causal A whose row i puts 0.9 on key pick(i) and spreads 0.1 over the other visible keys."""
    A = np.zeros((T, T))
    for i in range(T):
        A[i, : i + 1] = 0.1 / i if i else 0.0
        A[i, pick(i)] = 0.9 if i else 1.0
    return A


@pytest.mark.parametrize("pattern, pick", [("previous", lambda i: max(i - 1, 0)), ("first", lambda i: 0),
                                           ("self", lambda i: i)])
def test_a_head_that_does_one_thing_is_named(pattern, pick):
    A = causal_rows(6, pick)
    s = summarize(A)
    assert s.named == (pattern, 1.0) and s.patterns[pattern] == 1.0
    assert s.top == tuple(pick(i) for i in range(6))
    # entropy by hand for row 3 (0-based): 0.9 on one key, 0.1 / 3 on three others
    row3 = -(0.9 * math.log2(0.9) + 3 * (0.1 / 3) * math.log2(0.1 / 3))
    assert s.row_entropy[0] == 0.0 and s.row_entropy[3] == pytest.approx(row3, abs=1e-12)


def test_uniform_attention_is_no_pattern_and_log2_S_bits():
    S = 8
    s = summarize(np.full((5, S), 1 / S))
    assert s.entropy == pytest.approx(3.0, abs=1e-12)
    # every key ties: argmax reports the first, but a tie is no evidence of any pattern
    assert s.top == (0,) * 5 and s.patterns == {"previous": 0.0, "first": 0.0, "self": 0.0} and s.named is None
    mixed = causal_rows(5, lambda i: 0 if i < 3 else i)          # first for rows 2-3, self for rows 4-5: half each
    assert summarize(mixed).named is None and summarize(mixed).patterns["first"] == 0.5
    one = summarize(np.array([[1.0]]))
    assert one.patterns == {"previous": None, "first": None, "self": None} and one.named is None


def test_downsampling_averages_blocks():
    A = np.arange(25.0).reshape(5, 5)
    out, b = downsample(A, 2)                                    # blocks of 3: rows/cols 0-2 and 3-4
    assert b == 3 and out.shape == (2, 2)
    assert out[0, 0] == A[:3, :3].mean() and out[1, 1] == A[3:, 3:].mean() and out[0, 1] == A[:3, 3:].mean()
    same, b1 = downsample(A, 5)
    assert b1 == 1 and same is A


def test_fixed_point_matches_format_number():
    from mha.explanation.numbers import format_number
    rng = np.random.default_rng(0)
    A = np.concatenate([rng.random(2000), np.arange(10001) / 10000 + 0.5e-4, [0.0, 1.0]])
    codes = fixed_point(A)
    for a, c in zip(A, codes):
        p = format_number(a, 4)
        shown = "1" if c == ONE else "0" if c == ZERO else f"{c / 10000:.4f}"
        assert shown == p.sign + p.digits, (a, c)


# ---------------------------------------------------------------- the real models (transformers)

torch = pytest.importorskip("torch", reason="the overview of a model needs torch: pip install -e '.[test]'")
transformers = pytest.importorskip("transformers", reason="the overview needs transformers")
from test_hf import FAMILIES, tiny_model, tok_for  # noqa: E402  (tiny random models, local tokenizers)


@pytest.fixture(scope="module")
def tokenizers():
    from test_hf import byte_level_tokenizer, wordpiece_tokenizer
    return {"bpe": byte_level_tokenizer(), "wordpiece": wordpiece_tokenizer()}


@pytest.mark.parametrize("family", FAMILIES)
def test_every_heatmap_is_the_models_own_attention(family, tokenizers):
    """output_attentions=True with eager attention, float32: every layer and head within 1e-6."""
    tok = tok_for(family, tokenizers)
    model = tiny_model(family, tok, "float32", attn="eager")
    ov = ov_mod.build(model, text=TEXT, tokenizer=tok)
    ids = torch.tensor([tok(TEXT)["input_ids"]])
    with torch.no_grad():
        theirs = model(input_ids=ids, output_attentions=True).attentions
    assert len(ov.cells) == 2 * 4 and ov.layers == (0, 1) and ov.heads == (0, 1, 2, 3)
    for c in ov.cells:
        ref = theirs[c.layer][0, c.head].double().numpy()
        assert np.abs(c.A - ref).max() <= 1e-6, (family, c.layer, c.head)
    gqa = {"llama": 2, "qwen2": 2, "mistral": 2, "gemma": 1}.get(family, 4)
    assert ov.n_kv_heads == gqa
    assert [c.kv_head for c in ov.layer_cells(0)] == [h * gqa // 4 for h in range(4)]
    assert ov.tokens == tuple(mha.hf.token_labels(tok, tok(TEXT)["input_ids"]))


def test_chosen_layers_and_heads_and_one_forward_pass(tokenizers):
    tok = tokenizers["bpe"]
    model = tiny_model("llama", tok)
    calls = []
    hook = model.register_forward_pre_hook(lambda *a: calls.append(1))
    ov = ov_mod.build(model, text=TEXT, tokenizer=tok, layers=[1], heads=[0, 3])
    hook.remove()
    assert calls == [1] and [(c.layer, c.head) for c in ov.cells] == [(1, 0), (1, 3)]
    full = ov_mod.build(model, text=TEXT, tokenizer=tok)
    np.testing.assert_array_equal(ov.cells[1].A, full.layer_cells(1)[3].A)


# ---------------------------------------------------------------- every format, every family, through the CLI

@pytest.fixture(scope="module")
def saved(tmp_path_factory, tokenizers) -> dict[str, Path]:
    out = {}
    for family in FAMILIES:
        path = tmp_path_factory.mktemp(f"ov-{family}")
        tok = tok_for(family, tokenizers)
        tiny_model(family, tok).save_pretrained(path)
        tok.save_pretrained(path)
        out[family] = path
    return out


def unpack(b64: str) -> bytes:
    return zlib.decompress(base64.b64decode(b64))


@pytest.mark.parametrize("family", FAMILIES)
def test_every_format(family, saved, run_cli, tmp_path):
    model, tok = mha.hub.load(str(saved[family]))
    ov = ov_mod.build(model, text=TEXT, tokenizer=tok)
    gqa = ov.n_kv_heads < ov.n_heads
    T = ov.T
    args = ["explain", "--model", str(saved[family]), "--overview", "--text", TEXT, "--lang", "en"]

    code, _, err = run_cli(*args, "--format", "json", "-o", str(tmp_path / "o.json"))
    assert code == 0, err
    data = json.loads((tmp_path / "o.json").read_text())
    assert data["family"] == family and data["tokens"] == list(ov.tokens) and len(data["layers"]) == 2
    for c in ov.cells:
        got = data["layers"][c.layer]["heads"][c.head]
        assert got["head"] == c.head + 1 and got["kv_head"] == c.kv_head + 1
        np.testing.assert_array_equal(np.array(got["A"]), c.A)
        assert got["entropy_bits"] == c.summary.entropy and got["most_attended"] == [j + 1 for j in c.summary.top]

    code, out, err = run_cli(*args)                              # text, to the terminal
    assert code == 0 and err == ""
    assert "Layer 0" in out and "Layer 1" in out and ("K/V head" in out) == gqa
    assert "1 " + ov.tokens[0] + " · 2 " + ov.tokens[1] in out
    for c in ov.layer_cells(1):
        assert re.search(rf"^\s+{c.head + 1}\s.*{' '.join(str(j + 1) for j in c.summary.top)}\s*$", out, re.M)

    code, out, _ = run_cli(*args, "--format", "md")
    rows = [line for line in out.splitlines() if re.match(r"\| \d", line)]
    assert code == 0 and len(rows) == 8 and out.count("## Layer") == 2
    assert rows[0].split(" | ")[1 + gqa] == f"{ov.cells[0].summary.entropy:.2f}"

    page = tmp_path / "o.html"
    code, _, err = run_cli(*args, "--format", "html", "-o", str(page), "--plot", str(tmp_path / "o.png"))
    assert code == 0, err
    html = page.read_text(encoding="utf-8")
    assert "http://" not in html.replace("http://www.w3.org/2000/svg", "") and "https://" not in html  # SVG's name
    data = json.loads(re.search(r'<script type="application/json" id="ov-data">(.*?)</script>', html).group(1))
    codes = np.frombuffer(unpack(data["weights"]), dtype="<u2").reshape(len(ov.cells), T, T)
    for k, c in enumerate(ov.cells):
        want = fixed_point(c.A)
        want[ov.masked[c.layer]] = MASKED
        np.testing.assert_array_equal(codes[k], want)
    blobs = re.findall(r'class="ov-ex" data-layer="(\d)">([^<]+)</script>', html)
    assert [b[0] for b in blobs] == ["0", "1"]
    ex = json.loads(unpack(blobs[1][1]))
    assert set(ex["heads"]) == {"1", "2", "3", "4"} and "Head 3: scores" in ex["heads"]["3"]
    assert "Head 2" not in ex["heads"]["3"] and "The setup" in ex["before"] and "Output projection" in ex["after"]
    assert (tmp_path / "o.png").read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"


def test_chinese_and_svg(saved, run_cli, tmp_path):
    args = ["explain", "--model", str(saved["qwen2"]), "--overview", "--text", TEXT, "--lang", "zh"]
    code, out, _ = run_cli(*args, "--format", "md", "--plot", str(tmp_path / "o.svg"))
    assert code == 0 and "# 注意力一览" in out and "## 第 0 层" in out and "键/值头" in out
    assert (tmp_path / "o.svg").read_text().lstrip().startswith("<?xml")
    code, _, _ = run_cli(*args, "--format", "html", "-o", str(tmp_path / "zh.html"))
    page = (tmp_path / "zh.html").read_text(encoding="utf-8")
    assert code == 0 and '<html lang="zh-CN">' in page and "第 1 层" in page and "网格" in page


@pytest.mark.parametrize("argv, message", [
    (["--layers", "2"], "--layers: 2 out of range; the model has 2 layers, 0..1"),
    (["--heads", "0,5"], "--heads: 0, 5 out of range; the model has 4 heads per layer, 1..4"),
    (["--layers", "a"], "--layers: expected numbers and ranges such as 0-3,7"),
    (["--layer", "0"], "--overview: shows every layer and head of --model; drop --layer"),
    (["--format", "tex"], "--overview: --format tex is not available"),
    (["--lang", "en,zh"], "--lang en,zh: the overview is in one language"),
    (["--plot", "x.gif"], "--plot: expected a .png, .svg or .pdf file name"),
])
def test_cli_refusals_are_one_line(argv, message, saved, run_cli):
    code, out, err = run_cli("explain", "--model", str(saved["gpt2"]), "--overview", "--text", TEXT, *argv)
    assert code == 2 and out == "" and err.count("\n") == 1 and message in err, err


def test_layers_needs_overview_and_overview_needs_text(saved, run_cli):
    code, _, err = run_cli("explain", "--model", str(saved["gpt2"]), "--layer", "0", "--layers", "0", "--text", "a")
    assert code == 2 and "--layers: only with --overview" in err
    code, _, err = run_cli("explain", "--model", str(saved["gpt2"]), "--overview")
    assert code == 2 and "--overview: needs --model NAME_OR_PATH and one of --text" in err


def test_past_the_limits_it_asks_for_layers_or_heads(saved, run_cli, monkeypatch):
    with pytest.raises(MHAInputError, match=r"32 layers × 32 heads = 1024 cells is more than 256; choose some "
                                            r"with --layers \(e.g. --layers 0-3\) or --heads"):
        ov_mod.check_size(32, 32, 10)
    ov_mod.check_size(12, 12, 170)                               # GPT-2 small up to T = 170
    with pytest.raises(MHAInputError, match="144 cells × 171² token pairs = 4,210,704 weights is more than 4,194,304"):
        ov_mod.check_size(12, 12, 171)
    monkeypatch.setattr(ov_mod, "MAX_CELLS", 4)                  # the tiny models are 2 × 4
    args = ["explain", "--model", str(saved["gpt2"]), "--overview", "--text", TEXT]
    code, _, err = run_cli(*args)
    assert code == 2 and err.count("\n") == 1 and "2 layers × 4 heads = 8 cells is more than 4" in err
    code, out, _ = run_cli(*args, "--layers", "1")
    assert code == 0 and "Layer 1" in out and "Layer 0" not in out


# ---------------------------------------------------------------- the page: downsampled past T = 128, size

def fake_overview(T: int, n_heads: int = 2) -> Overview:
    rng = np.random.default_rng(1)
    causal = np.triu(np.ones((T, T), dtype=bool), k=1)
    cells = []
    for h in range(n_heads):
        A = np.where(causal, 0.0, rng.random((T, T)))
        A /= A.sum(axis=1, keepdims=True)
        cells.append(HeadView(layer=0, head=h, kv_head=h, A=A, summary=summarize(A)))
    return Overview(model="fake", family="gpt2", tokens=tuple(f"t{i}" for i in range(T)), n_layers=1,
                    n_heads=n_heads, n_kv_heads=n_heads, layers=(0,), heads=tuple(range(n_heads)),
                    cells=tuple(cells), masked={0: causal})


def test_past_128_tokens_cells_are_block_means_and_the_page_says_so():
    ov = fake_overview(300)
    page = render_overview_html(ov, {})
    assert "T = 300 is more than 128: each cell is drawn from the means of 3 × 3 blocks" in page
    data = json.loads(re.search(r'id="ov-data">(.*?)</script>', page).group(1))
    assert data["block"] == 3
    codes = np.frombuffer(unpack(data["weights"]), dtype="<u2").reshape(2, 100, 100)
    block = ov.cells[1].A[3:6, 0:3].mean()
    assert codes[1, 1, 0] == fixed_point(np.array([block]))[0]
    assert codes[0, 0, 5] == MASKED                              # a block above the diagonal: all keys masked
    assert "more than 128" not in render_overview_html(fake_overview(128), {})
    md = render_overview_markdown(fake_overview(130))            # the tables keep every position
    row = next(line for line in md.splitlines() if line.startswith("| 1 |"))
    assert len(row.rstrip(" |").split(" | ")[-1].split()) == 130


def test_gpt2_small_page_at_32_tokens_is_under_2_MB():
    """12 layers × 12 heads of GPT-2 small's shape (random weights, no torch), T = 32, every explanation embedded."""
    from mha.render.overview_html import layer_fragments
    rng = np.random.default_rng(0)
    d, H, T = 768, 12, 32
    cells, masked, fragments = [], {}, {}
    for layer in range(12):
        W = {k: rng.normal(scale=0.05, size=(d, d)) for k in ("W_Q", "W_K", "W_V", "W_O")}
        t = mha.trace({"X": rng.normal(size=(T, d)), "n_heads": H, "causal": True, **W,
                       "tokens": [f"tok{i}" for i in range(T)]})
        fragments[layer] = layer_fragments(t, range(H), lang="en", precision=4, layer=layer)
        masked[layer] = t.S[0, 0] == -np.inf
        cells += [HeadView(layer, h, h, t.A[0, h], summarize(t.A[0, h])) for h in range(H)]
    ov = Overview(model="gpt2-shaped", family="gpt2", tokens=tuple(f"tok{i}" for i in range(T)), n_layers=12,
                  n_heads=H, n_kv_heads=H, layers=tuple(range(12)), heads=tuple(range(H)), cells=tuple(cells),
                  masked=masked)
    size = len(render_overview_html(ov, fragments).encode("utf-8"))
    print(f"GPT-2 small shape, T = 32: page {size / 1e6:.2f} MB")
    assert 0.5e6 < size < 2e6


def test_token_ids_instead_of_text(saved, run_cli, tokenizers):
    tok = tokenizers["bpe"]
    ids = tok(TEXT)["input_ids"]
    code, out, err = run_cli("explain", "--model", str(saved["mistral"]), "--overview", "--format", "json",
                             "--input-ids", ",".join(map(str, ids)), "--layers", "1")
    assert code == 0, err
    data = json.loads(out)
    model, _ = mha.hub.load(str(saved["mistral"]))
    ref = ov_mod.build(model, text=TEXT, tokenizer=tok, layers=[1])
    assert data["tokens"] == list(ref.tokens) and [x["layer"] for x in data["layers"]] == [1]
    np.testing.assert_array_equal(np.array(data["layers"][0]["heads"][2]["A"]), ref.cells[2].A)
    with pytest.raises(MHAInputError, match=r"input_ids: the overview reads one sequence of token ids \[T\] or "
                                            r"\[1, T\], got shape \[2, 3\]"):
        ov_mod.build(model, input_ids=[[1, 2, 3], [4, 5, 6]])
    assert len(ov_mod.build(model, input_ids=[[5]]).tokens) == 1
