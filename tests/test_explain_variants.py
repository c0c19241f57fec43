"""The explanation of today's attention: every named example in every view, and the steps of GQA, RoPE, the KV
cache, windows and ALiBi read back against the trace (or against the definitions, written here)."""

import re
import shutil
import subprocess

import numpy as np
import pytest

import mha
from mha.explanation import LANGS, Matrix, Note, Para
from mha.explanation.catalog import catalog
from mha.render.html import render_html
from test_explain import check_numbers, check_sentences, parse_md_matrices, press_slopes


def section(ex, key):
    return next(s for s in ex.sections if s.key == key)


def matrices(ex, key):
    return [b for b in section(ex, key).blocks if isinstance(b, Matrix)]


# ------------------------------------------------------------------ every named example, every view

@pytest.mark.parametrize("lang", LANGS)
@pytest.mark.parametrize("name", sorted(mha.EXAMPLES))
def test_every_named_example_in_every_view(name, lang):
    ex = mha.explain(mha.EXAMPLES[name].data, lang=lang)
    assert check_numbers(ex) > 10 and check_sentences(ex) > 5
    text, md, tex = ex.to_text(), ex.to_markdown(), ex.to_latex()
    html, notebook = ex.to_html(), ex._repr_html_()
    assert not re.search(r"[\\${}]", text), name                     # no LaTeX left in the terminal
    assert tex.startswith("\\documentclass") and tex.rstrip().endswith("\\end{document}")
    assert html.startswith("<!DOCTYPE html>") and not notebook.startswith("<!DOCTYPE")
    assert notebook == render_html(ex, standalone=False) and "<script" not in notebook
    for view in (text, md, tex, html):
        for sec in ex.sections:                                   # every step's heading in every view
            title = re.sub(r"\$[^$]*\$", "", sec.title).strip()
            assert title.split()[0] in view, (name, sec.key, title)
    # every shown number of every matrix appears in the HTML cells, as the Markdown prints it
    cells = re.findall(r'<td class="v[^"]*" data-i="\d+" data-j="\d+"[^>]*>([^<]*)</td>', html)
    shown = [c for _, rows in parse_md_matrices(md) for row in rows for c in row if c not in
             ("\\vdots", "\\cdots", "\\ddots")]
    heat = sum(len(m.cells) * len(m.cols) for m in ex.heatmaps)
    assert len(cells) == len(shown) + heat
    assert [c.replace("−∞", "-\\infty").replace("−", "-") for c in cells[heat:]] == shown


XELATEX = shutil.which("xelatex")


@pytest.mark.skipif(XELATEX is None, reason="xelatex not installed (.ci/run installs it)")
@pytest.mark.parametrize("lang", LANGS)
@pytest.mark.parametrize("name", ["llama-decode", "rope", "per-head"])
def test_latex_of_the_variants_compiles(tmp_path, name, lang):
    (tmp_path / "doc.tex").write_text(mha.explain(mha.EXAMPLES[name].data, lang=lang).to_latex(), encoding="utf-8")
    p = subprocess.run([XELATEX, "-interaction=nonstopmode", "-halt-on-error", "doc.tex"], cwd=tmp_path,
                       capture_output=True, text=True, timeout=300)
    assert p.returncode == 0, p.stdout[-2000:]
    log = (tmp_path / "doc.log").read_text(errors="replace")
    assert "Missing character" not in log and (tmp_path / "doc.pdf").stat().st_size > 10_000
    overfull = re.findall(r"Overfull \\hbox \(([\d.]+)pt too wide\)", log)
    assert not [w for w in overfull if float(w) > 1.0], overfull


# ------------------------------------------------------------------ RoPE

@pytest.mark.parametrize("style", ["half", "interleaved"])
def test_rope_step_shows_angles_a_rotated_pair_and_relative_positions(style):
    data = dict(mha.random_example(T=3, d_model=8, n_heads=2, seed=3), rope={"style": style})
    ex = mha.explain(data, lang="en")
    r = ex.trace.config.rope
    sec = section(ex, "rope")
    rot = next(m for m in matrices(ex, "rope") if m.symbol.startswith("R("))
    p = int(re.match(r"R\((\d+)", rot.symbol).group(1))
    assert p != 0                                               # a token that actually turns
    angle = p * r.inv_freq[0]
    got = np.array([[c.value for c in row] for row in rot.cells])
    np.testing.assert_allclose(got, [[np.cos(angle), -np.sin(angle)], [np.sin(angle), np.cos(angle)]], atol=1e-15)
    paras = " ".join(b.text for b in sec.blocks if isinstance(b, Para))
    assert f"position $p = {p}$" in paras and "(2, 5)" in paras and "(7, 10)" in paras
    # the angles listed for that token are p * theta_i, every pair of a head with d_k = 4
    items = [i for b in sec.blocks if hasattr(b, "items") for i in b.items if i.startswith("$p\\,\\theta")]
    assert len(items) == r.dims // 2
    for k, item in enumerate(items):
        assert item.endswith(f"= {round(p * r.inv_freq[k], 4):.4f}$".replace(".0000$", "$")) or \
            float(item.rsplit("= ", 1)[1].rstrip("$")) == round(p * r.inv_freq[k], 4), item
    assert check_sentences(ex) > 10


def test_rope_with_an_attention_factor_says_so_and_scales_the_matrix():
    data = dict(mha.DOCUMENT_EXAMPLE, rope={"attention_factor": 0.5})
    for lang in LANGS:
        ex = mha.explain(data, lang=lang)
        rot = next(m for m in matrices(ex, "rope") if m.symbol.startswith("R("))
        a = np.array([[c.value for c in row] for row in rot.cells])
        assert np.isclose(abs(np.linalg.det(a)), 0.25)
        assert any(isinstance(b, Note) and "0.5" in b.text for b in section(ex, "rope").blocks)
        assert check_sentences(ex) > 10


# ------------------------------------------------------------------ the KV cache and query numbering

@pytest.mark.parametrize("name", ["kv-cache", "llama-decode"])
def test_cache_step_shows_before_after_and_the_cost(name):
    data = mha.EXAMPLES[name].data
    S_past = len(data["cache"]["K"][0])
    for lang in LANGS:
        ex = mha.explain(data, lang=lang)
        t, c = ex.trace, ex.trace.config
        mats = matrices(ex, "cache")
        before = [m for m in mats if "cache" in m.symbol]
        after = [m for m in mats if "cache" not in m.symbol]
        assert [m.shape for m in before] == [(S_past, c.d_k), (S_past, c.d_v)] * len({t.group(h) for h in range(c.n_heads)})
        assert [m.shape for m in after] == [(c.S, c.d_k), (c.S, c.d_v)] * len({t.group(h) for h in range(c.n_heads)})
        assert before[0].row_labels == tuple(str(i + 1) for i in range(S_past))
        assert after[0].row_labels == tuple(str(i + 1) for i in range(c.S))
        items = " ".join(i for b in section(ex, "cache").blocks if hasattr(b, "items") for i in b.items)
        assert f"{c.T} \\times {c.S} = {c.T * c.S}" in items and f"{c.S} \\times {c.S} = {c.S * c.S}" in items
        reused = c.G * S_past * (c.d_k + c.d_v)
        assert str(reused) in items
        # the new token is token S_past + 1, in labels and in words
        a = next(m for m in matrices(ex, "head1.softmax") if m.heat)
        assert a.row_labels == (str(S_past + 1),)
        weight = catalog(lang)["softmax.weight"].replace("<i>", str(S_past + 1)).replace("<j>", "1")
        assert weight.split("<w>")[0] in ex.to_markdown()
        assert check_sentences(ex) > 10


def test_token_texts_still_label_a_decoding_step():
    data = dict(mha.EXAMPLES["kv-cache"].data, tokens=["sat"], key_tokens=["The", "cat", "has", "sat"])
    ex = mha.explain(data, lang="en")
    a = next(m for m in matrices(ex, "head1.softmax") if m.heat)
    assert a.row_labels == ("sat",) and a.col_labels == ("The", "cat", "has", "sat")
    cached = matrices(ex, "cache")[0]
    assert cached.row_labels == ("The", "cat", "has")
    assert check_numbers(ex) > 10 and check_sentences(ex) > 5


def test_tokens_option_counts_as_the_labels_do(run_cli):
    code, out, _ = run_cli("explain", "--example", "llama-decode", "--tokens", "4:4", "--format", "md", "--lang", "en")
    assert code == 0 and "token 4 attends to token 1" in out
    code, _, err = run_cli("explain", "--example", "llama-decode", "--tokens", "1:2", "--lang", "en")
    assert code == 2 and "numbered 4 to 4" in err and err.count("\n") == 1


# ------------------------------------------------------------------ GQA

def test_gqa_sharing_and_cache_saving_in_both_languages(tmp_path):
    data = mha.EXAMPLES["gqa"].data
    c = mha.trace(data).config
    for lang in LANGS:
        ex = mha.explain(data, lang=lang)
        sec = section(ex, "gqa")
        items = next(b for b in sec.blocks if hasattr(b, "items")).items
        cat = catalog(lang)
        sep = cat["list.sep"]
        want = [cat["gqa.group"].replace("<g>", str(g + 1)).replace(
            "<heads>", sep.join(str(h + 1) for h in range(c.n_heads) if h * c.G // c.n_heads == g)) for g in range(c.G)]
        assert list(items) == want                                   # heads 1, 2 read K/V 1; heads 3, 4 read K/V 2
        saving = next(b.text for b in sec.blocks if isinstance(b, Para))
        per_token, full = c.G * (c.d_k + c.d_v), c.n_heads * (c.d_k + c.d_v)
        assert f" {per_token} " in saving and f" {full}" in saving and "2" in saving
        assert len(ex.heatmaps) == c.n_heads


def test_gqa_plot_draws_every_query_head(tmp_path):
    pytest.importorskip("matplotlib", reason="--plot needs matplotlib: pip install -e '.[test]'")
    from mha.render.plot import save_heatmaps
    save_heatmaps(mha.trace(mha.EXAMPLES["gqa"].data), str(tmp_path / "gqa.png"))
    assert (tmp_path / "gqa.png").stat().st_size > 5_000


# ------------------------------------------------------------------ windows

def test_window_band_in_s_and_a_and_hatched_in_the_plot():
    pytest.importorskip("matplotlib")
    from matplotlib.patches import Rectangle

    from mha.render.plot import heatmap_figure
    data = mha.EXAMPLES["window"].data
    t = mha.trace(data)
    for lang in LANGS:
        ex = mha.explain(t, lang=lang)
        assert any(isinstance(b, Note) and b.text == catalog(lang)["mask.window_band"].replace("<W>", "2")
                   for b in section(ex, "masks").blocks)
        for h in range(t.config.n_heads):
            for key in (f"head{h + 1}.scale", f"head{h + 1}.softmax"):
                m = next(b for b in matrices(ex, key) if b.symbol[0] in "SA")
                masked = np.array([[c.masked for c in row] for row in m.cells])
                np.testing.assert_array_equal(masked, ~t.visible[0, h])
    fig = heatmap_figure(t, max_cells=0)             # no numbers printed in the cells: only shades and hatching
    fig.canvas.draw()
    pixels = np.asarray(fig.canvas.buffer_rgba())[..., :3].astype(int)
    height = pixels.shape[0]
    for h, ax in enumerate(fig.axes[:t.config.n_heads]):
        hatched = {(round(p.get_y() + 0.5), round(p.get_x() + 0.5)) for p in ax.patches
                   if isinstance(p, Rectangle) and p.get_hatch()}
        assert hatched == {tuple(ij) for ij in np.argwhere(~t.visible[0, h])}
        for (i, j), want_hatch in (((0, 4), True), ((0, 0), False)):
            x0, y0 = ax.transData.transform((j - 0.4, i - 0.4))
            x1, y1 = ax.transData.transform((j + 0.4, i + 0.4))
            cell = pixels[height - int(max(y0, y1)):height - int(min(y0, y1)), int(x0):int(x1)]
            colours = {tuple(px) for px in cell.reshape(-1, 3)}
            assert (len(colours) > 2) == want_hatch, ((i, j), len(colours))     # lines over a background, or a shade
    import matplotlib.pyplot as plt
    plt.close(fig)


# ------------------------------------------------------------------ ALiBi

@pytest.mark.parametrize("H", [2, 3, 6])
def test_alibi_prints_every_slope_and_each_heads_bias(H):
    data = dict(mha.random_example(T=4, d_model=6 if H != 4 else 8, n_heads=H, seed=1), alibi=True, causal=True)
    for lang in LANGS:
        ex = mha.explain(data, lang=lang, full=True)
        t = ex.trace
        assert check_sentences(ex) >= H                               # the slopes, from Press et al.'s rule
        for h in range(H):
            bias = matrices(ex, f"head{h + 1}.alibi")[0]
            got = np.array([[c.value for c in row] for row in bias.cells])
            distance = np.abs(np.arange(4)[:, None] - np.arange(4)[None, :])
            np.testing.assert_allclose(got, -press_slopes(H)[h] * distance, rtol=0, atol=1e-15)
            np.testing.assert_array_equal(got, t.position_bias[h])


def test_a_batched_decoding_step_is_read_for_the_chosen_sequence():
    """GQA + RoPE (interleaved, partial) + ALiBi + a window + a cache, batch of 2, sequence 2 shown."""
    rng = np.random.default_rng(5)
    W = mha.inputs.random_weights(8, seed=2, n_heads=4, n_kv_heads=2, d_k=4, d_v=4)
    data = {"X": rng.standard_normal((2, 2, 8)).round(2), "n_heads": 4, "n_kv_heads": 2, **W,
            "rope": {"style": "interleaved", "dims": 2}, "alibi": True, "window": 3, "causal": True,
            "cache": {"K": rng.standard_normal((2, 2, 3, 4)).round(2), "V": rng.standard_normal((2, 2, 3, 4)).round(2)}}
    for lang in LANGS:
        ex = mha.explain(data, lang=lang, batch=1)
        assert check_numbers(ex) > 100 and check_sentences(ex) > 20
        a = next(m for m in matrices(ex, "head1.softmax") if m.heat)
        assert a.row_labels == ("4", "5") and a.col_labels == ("1", "2", "3", "4", "5")
