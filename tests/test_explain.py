"""The step-by-step explanation: golden files, numbers against the trace, formats, languages."""

import json
import os
import re
import shutil
import subprocess
from pathlib import Path

import numpy as np
import pytest

import mha
from mha.explanation import default_lang
from mha.explanation import LANGS
from mha.explanation.catalog import catalog
from mha.explanation.tokens import first_query

GOLDEN = Path(__file__).parent / "golden"
UPDATE = os.environ.get("MHA_UPDATE_GOLDEN") == "1"
RENDER = {"txt": lambda ex: ex.to_text(color=False, width=100), "md": lambda ex: ex.to_markdown(),
          "tex": lambda ex: ex.to_latex()}


GOLDEN_EXAMPLES = ("document", "llama-decode", "backward", "ring")   # the seed, the LLaMA decoding step, the backward pass, the ring


@pytest.mark.parametrize("example", GOLDEN_EXAMPLES)
@pytest.mark.parametrize("lang", LANGS)
@pytest.mark.parametrize("ext", sorted(RENDER))
def test_golden_examples(example, lang, ext):
    """Regenerate with: MHA_UPDATE_GOLDEN=1 python -m pytest tests/test_explain.py tests/test_html.py -k golden"""
    text = RENDER[ext](mha.explain(mha.EXAMPLES[example].data, lang=lang, **mha.EXAMPLES[example].options))
    path = GOLDEN / f"{example}.{lang}.{ext}"
    if UPDATE:
        path.write_text(text, encoding="utf-8")
    assert path.exists(), f"missing golden file {path}; run with MHA_UPDATE_GOLDEN=1"
    assert text == path.read_text(encoding="utf-8")


def test_cli_text_matches_golden_when_piped(run_cli, monkeypatch):
    monkeypatch.delenv("LC_ALL", raising=False)
    code, out, _ = run_cli("explain", "--lang", "en")
    assert code == 0
    assert out == (GOLDEN / "document.en.txt").read_text(encoding="utf-8")
    assert "\x1b[" not in out


def test_every_required_step_is_there_in_order():
    md = mha.explain(lang="en").to_markdown()
    keys = [s.key for s in mha.explain(lang="en").sections]
    assert keys == ["setup", "projections", "split",
                    "head1", "head1.scores", "head1.scale", "head1.softmax", "head1.av",
                    "head2", "head2.scores", "head2.scale", "head2.softmax", "head2.av",
                    "concat", "output", "dimensions", "closing"]
    for needle in ("[3, 2] \\times [2, 3] = [3, 3]", "token 1 with token 3: score 1",
                   "token 2 attends to token 3 with weight 0.4011",
                   "0.4011 \\times 1 + 0.1978 \\times 0 + 0.4011 \\times 1 = 0.8022",
                   "0.2483 \\times 1 + 0.2483 \\times 0 + 0.5035 \\times 1 = 0.7517",
                   "spreads the weight evenly", "identity", "O_{\\text{concat}}"):
        assert needle in md, needle


# ------------------------------------------------------------------ numbers come from the trace

BMATRIX = re.compile(r"^(?P<lhs>[^\n]+?) (?:=|\\approx) \\begin\{bmatrix\}\n(?P<body>.*?)\n\\end\{bmatrix\}", re.S | re.M)


def parse_md_matrices(md):
    """Every displayed matrix of a Markdown explanation: (left-hand side, rows of strings)."""
    out = []
    for m in BMATRIX.finditer(md):
        rows = [[c.strip() for c in row.split("&")] for row in m.group("body").split("\\\\\n")]
        out.append((m.group("lhs").strip(), rows))
    return out


def lookup(t, section, lhs, b=0):
    """The trace array that a matrix of a section shows (the symbol's first part decides for Q = K = V)."""
    if section.startswith("backward"):
        from test_backward_explain import grad_lookup
        return grad_lookup(t, section, lhs, b)
    name = lhs.split(" = ")[0].strip()
    h = re.search(r"\^\{\((\d+)\)\}", name)
    i = int(h.group(1)) - 1 if h else None
    c = t.config
    if section == "rope" and name.startswith("R("):
        return rotation(c, int(re.match(r"R\((\d+)\\,\\theta_1\)", name).group(1)))
    if section == "rope":
        return (t.Qh_rope if "Q^" in name else t.Kh_rope)[b, i]
    if section == "cache" and "_{\\text{cache}}" in name:
        return (c.cache_K if name[0] == "K" else c.cache_V)[b, i]
    if section == "cache":
        return (t.K_all if name[0] == "K" else t.V_all)[b, i]
    if section.startswith("head"):
        if name.startswith("Q^{(") and "(K^" in name:
            return t.QKt[b, i]
        if name[0] == "B":
            return t.position_bias[i]
        return {"S": t.S, "A": t.A, "O": t.O, "V": t.V_all}[name[0]][b, i]
    if section == "split":
        return {"Q": t.Qh, "K": t.Kh, "V": t.Vh}[name[0]][b, i]
    if section == "setup" and c.given_qkv:
        return {"Q": c.Q_in, "K": c.K_in, "V": c.V_in}[name][b]
    simple = {"X": t.X[b] if t.X is not None else None, "Q": t.Q[b], "K": t.K[b], "V": t.V[b], "Y": t.Y[b],
              "O_{\\text{concat}}": t.O_concat[b]}
    simple.update({w: getattr(c, w) for w in ("W_Q", "W_K", "W_V", "W_O")})
    simple.update({w: getattr(c, w)[None] for w in ("b_Q", "b_K", "b_V", "b_O") if getattr(c, w) is not None})
    if c.key is not None:
        simple.update(X_k=c.key[b], X_v=c.value[b])
    return simple[name]


def rotation(cfg, p):
    """The 2x2 RoPE rotation of the first pair at integer position p, from the definition (not from mha)."""
    r = cfg.rope
    angle = p * float(r.inv_freq[0])
    return r.attention_factor * np.array([[np.cos(angle), -np.sin(angle)], [np.sin(angle), np.cos(angle)]])


def check_numbers(ex):
    """Every number of every matrix in the Markdown equals the trace's, correctly rounded; -inf where masked."""
    t, p = ex.trace, ex.options.precision
    mats = parse_md_matrices(ex.to_markdown())
    assert mats, "no matrices found"
    blocks = [(s.key, blk) for s in ex.sections if not s.key.startswith("tiled") for blk in s.blocks
              if isinstance(blk, mha.explanation.Matrix)]
    assert [blk.symbol for _, blk in blocks] == [lhs for lhs, _ in mats]
    n_checked = 0
    for (section, blk), (lhs, rows) in zip(blocks, mats):
        full = lookup(t, section, lhs, ex.options.batch)
        assert full.shape == blk.shape, (section, lhs, full.shape, blk.shape)
        for i, row in zip(blk.rows, rows):
            for j, cell in zip(blk.cols, row):
                if i is None or j is None:
                    assert cell in ("\\vdots", "\\cdots", "\\ddots")
                    continue
                x = full[i, j]
                if cell == "-\\infty":
                    assert x == -np.inf
                else:
                    printed = float(cell)
                    assert printed == round(float(x), p) or (printed == x), (lhs, i, j, cell, x)
                n_checked += 1
    return n_checked


# ------------------------------------------------------------------ numbers in sentences and formulas

NUMBER = r"-?\d+(?:\.\d+)?"
VECTOR = r"\[[^\]]*\]"


def template_regex(template):
    """A catalog sentence as a regex: each <name> becomes a group matching one printed number (or a list)."""
    out, pos = "", 0
    for m in re.finditer(r"<([a-z_]+)>", template):
        out += re.escape(template[pos:m.start()]) + f"(?P<{m.group(1)}>{NUMBER})"
        pos = m.end()
    return re.compile(out + re.escape(template[pos:]))


def md_sections(ex):
    """(section key, lines) of the Markdown, the headings matched to the explanation's sections in order."""
    sections, out = list(ex.sections), []
    for line in ex.to_markdown().splitlines():
        if re.match(r"#{2,3} \d", line):
            sec = sections.pop(0)
            assert line.endswith(sec.title), (line, sec.title)
            out.append((sec.key, []))
        elif out:
            out[-1][1].append(line)
    assert not sections
    return out


def same(printed, x, p):
    """A printed number is x correctly rounded to p decimals (or x itself when x is an integer)."""
    value = float(printed)
    return value == x or value == round(float(x), p)


def vector(text):
    return [float(v) for v in text.strip("[]").split(",")]


def rope_by_definition(cfg, v, p):
    """v rotated to position p, pair by pair from the definition (the test's own RoPE, not mha's)."""
    r, out = cfg.rope, np.array(v, dtype=float)
    half = r.dims // 2
    for i in range(half):
        a, b = (i, i + half) if r.style == "half" else (2 * i, 2 * i + 1)
        angle = p * float(r.inv_freq[i])
        c, s_ = np.cos(angle) * r.attention_factor, np.sin(angle) * r.attention_factor
        out[a], out[b] = v[a] * c - v[b] * s_, v[b] * c + v[a] * s_
    return out


def check_sentences(ex):
    """The numbers that sentences and formulas read out (scores, weights, x_i, m_i, o_i, the RoPE pair and
    demonstration, the ALiBi slopes) equal the trace, rounded; tokens numbered as the labels number them.
    Returns how many numbers were checked."""
    t, c, b, p = ex.trace, ex.trace.config, ex.options.batch, ex.options.precision
    cat = catalog(ex.lang)
    q0 = first_query(c)
    pair, weight, top = (template_regex(cat[k]) for k in ("scores.pair", "softmax.weight", "softmax.top_item"))
    n = 0
    for key, lines in md_sections(ex):
        h = int(re.match(r"head(\d+)", key).group(1)) - 1 if key.startswith("head") else None
        text = "\n".join(lines)
        if key.endswith(".scores"):
            for m in pair.finditer(text):
                i, j = int(m["i"]) - q0 - 1, int(m["j"]) - 1
                assert same(m["value"], t.QKt[b, h, i, j], p), (key, m.group(0))
                n += 1
        if key.endswith(".softmax"):
            for m in [*weight.finditer(text)]:
                i, j = int(m["i"]) - q0 - 1, int(m["j"]) - 1
                assert same(m["w"], t.A[b, h, i, j], p), (key, m.group(0))
                n += 1
            for m in re.finditer(r"\$m_\{(\d+)\} = (" + NUMBER + r")\$", text):
                assert same(m[2], t.row_max[b, h, int(m[1]) - q0 - 1], p), (key, m.group(0))
                n += 1
        if key.endswith(".av"):
            for m in re.finditer(r"^o\^\{\((\d+)\)\}_\{(\d+)\} = (" + VECTOR + ")$", text, re.M):
                assert int(m[1]) == h + 1
                got, want = vector(m[3]), t.O[b, h, int(m[2]) - q0 - 1]
                assert all(same(str(g), w, p) for g, w in zip(got, want)) and len(got) == len(want), m.group(0)
                n += len(got)
        if key == "setup":
            for m in re.finditer(r"\$x_\{(\d+)\} = (" + VECTOR + r")\$", text):
                got, want = vector(m[2]), t.X[b, int(m[1]) - q0 - 1]
                assert all(same(str(g), w, p) for g, w in zip(got, want)) and len(got) == len(want), m.group(0)
                n += len(got)
        if key == "rope":
            n += check_rope_sentences(t, text, q0, p, b)
        if key == "alibi":
            slopes = press_slopes(c.n_heads) if c.alibi_rule == "press" else c.alibi
            found = re.findall(r"\$m\^\{\((\d+)\)\} = (" + NUMBER + r")\$", text)
            assert [int(k) for k, _ in found] == list(range(1, c.n_heads + 1))
            assert all(same(v, slopes[int(k) - 1], p) for k, v in found), found
            n += len(found)
    return n


def press_slopes(H):
    """ALiBi's slopes from Press et al.: 2^(-8i/n) for the n = 2^floor(log2 H) heads, then every other slope of
    2n (written here from the paper, independently of mha.core)."""
    n = 2 ** int(np.floor(np.log2(H)))
    base = [2.0 ** (-8.0 * i / n) for i in range(1, n + 1)]
    extra = [2.0 ** (-8.0 * i / (2 * n)) for i in range(1, 2 * n + 1)][0::2][:H - n]
    return np.array(base + extra)


def check_rope_sentences(t, text, q0, p, b=0):
    """The rotated pair (a', b') and the relative-position demonstration of the RoPE step."""
    c, n = t.config, 0
    m = re.search(r"\$\$\na' = .* = (" + NUMBER + r"), \\quad b' = .* = (" + NUMBER + r")\n\$\$", text)
    a2, b2 = float(m[1]), float(m[2])
    assert any(same(m[1], t.Qh_rope[b, h, i, 0], p) and same(m[2], t.Qh_rope[b, h, i, c.rope.dims // 2
               if c.rope.style == "half" else 1], p) for h in range(c.n_heads) for i in range(c.T)), (a2, b2)
    demo = re.findall(r"\(R_\{(\d+)\}\\,q\^\{\((\d+)\)\}_\{(\d+)\}\) \\cdot "
                      r"\(R_\{(\d+)\}\\,k\^\{\((\d+)\)\}_\{(\d+)\}\) = (" + NUMBER + ")", text)
    assert len(demo) == 2 and demo[0][-1] == demo[1][-1]          # the same score at the same distance
    for pq, h, i, pk, g, j, score in demo:
        q = t.Qh[b, int(h) - 1, int(i) - q0 - 1]
        k = t.Kh[b, int(g) - 1, int(j) - c.S_past - 1]
        want = rope_by_definition(c, q, int(pq)) @ rope_by_definition(c, k, int(pk))
        assert same(score, want, p), (pq, pk, score, want)
        n += 1
    return n + 2


@pytest.mark.parametrize("lang", LANGS)
def test_markdown_numbers_equal_the_trace_document(lang):
    ex = mha.explain(lang=lang)
    assert check_numbers(ex) > 100 and check_sentences(ex) > 30


CONFIGS = {
    "random": dict(mha.random_example(T=5, d_model=6, n_heads=3, seed=2)),
    "causal": dict(mha.DOCUMENT_EXAMPLE, causal=True),
    "bottom_right_cross": dict(mha.random_example(T=2, d_model=4, n_heads=2, seed=5),
                               key=np.arange(12.0).reshape(4, 3) / 10, W_K=np.ones((3, 4)) / 3,
                               W_V=np.eye(3, 4), causal="bottom_right"),
    "padding_batch": dict(mha.random_example(T=4, d_model=4, n_heads=2, B=2, seed=9), key_lengths=[2, 4]),
    "fully_masked": dict(mha.DOCUMENT_EXAMPLE, mask=[[True, False, True], [False, False, False], [True, True, True]]),
    "bias_scale": dict(mha.DOCUMENT_EXAMPLE, bias=[[0, -1, 0], [0.5, 0, 0], [0, 0, -2]], scale=0.25,
                       b_Q=[0.1, 0, 0, 0], b_O=[1, 1, 1, 1]),
    "large": dict(mha.random_example(T=20, d_model=24, n_heads=6, seed=1)),
}


@pytest.mark.parametrize("name", sorted(CONFIGS))
@pytest.mark.parametrize("lang", LANGS)
def test_configurations_render_in_every_format(name, lang):
    ex = mha.explain(CONFIGS[name], lang=lang)
    assert check_numbers(ex) > 0
    text, md, tex, html = ex.to_text(), ex.to_markdown(), ex.to_latex(), ex.to_html()
    for out in (text, md, tex, html):
        assert len(out) > 500
    assert html.count('data-symbol="A^{(') >= ex.trace.config.n_heads   # every head's heatmap
    if name in ("causal", "bottom_right_cross", "padding_batch", "fully_masked", "bias_scale"):
        assert any(s.key == "masks" for s in ex.sections)
        assert "-\\infty" in md or name == "bias_scale"
    if name == "fully_masked":
        assert catalog(lang)["softmax.fully_masked_row"].replace("<i>", "2") in md
    if name == "bottom_right_cross":   # T = 2 queries of their own sequence, S = 4 keys: query i sits at key i + 2
        a = next(b for s in ex.sections if s.key == "head1.softmax" for b in s.blocks
                 if isinstance(b, mha.explanation.Matrix))
        assert a.row_labels == ("1", "2") and a.col_labels == ("1", "2", "3", "4")
        assert "i + 2" in md and catalog(lang)["mask.causal_positions"] not in md
        assert check_sentences(ex) > 10
    if name == "large":
        assert "\\vdots" in md and "--heads" in md


def test_batch_selection_and_heads_tokens():
    data = CONFIGS["padding_batch"]
    ex = mha.explain(data, lang="en", batch=1)
    assert check_numbers(ex) > 0 and "Sequence 2 is shown" in ex.to_markdown()
    ex = mha.explain(CONFIGS["large"], lang="en", heads=[0, 2], tokens=slice(3, 6))
    keys = [s.key for s in ex.sections]
    assert "head1" in keys and "head3" in keys and "head2" not in keys
    a = next(b for s in ex.sections if s.key == "head3.softmax" for b in s.blocks if getattr(b, "heat", False))
    assert a.rows == (3, 4, 5)
    assert check_numbers(ex) > 0


def test_zh_and_en_catalogs_have_the_same_keys_and_placeholders():
    en, zh = catalog("en"), catalog("zh")
    assert set(en) == set(zh)
    ph = re.compile(r"<([a-z_][a-z0-9_]*)>")
    for key in en:
        assert sorted(set(ph.findall(en[key]))) == sorted(set(ph.findall(zh[key]))), key
        assert en[key].count("$") % 2 == 0 and zh[key].count("$") % 2 == 0, key


@pytest.mark.parametrize("name", ["document", "causal"])
def test_zh_and_en_have_the_same_sections_and_numbers(name):
    data = mha.DOCUMENT_EXAMPLE if name == "document" else CONFIGS["causal"]
    en, zh = mha.explain(data, lang="en"), mha.explain(data, lang="zh")
    assert [s.key for s in en.sections] == [s.key for s in zh.sections]
    assert [type(b).__name__ for s in en.sections for b in s.blocks] == \
        [type(b).__name__ for s in zh.sections for b in s.blocks]
    assert parse_md_matrices(en.to_markdown()) == parse_md_matrices(zh.to_markdown())


def test_zh_uses_standard_terms_with_english_on_first_use():
    md = mha.explain(lang="zh").to_markdown()
    for term in ("多头注意力（multi-head attention, MHA）", "查询（query", "键（key", "值（value",
                 "注意力权重（attention weights）", "缩放点积注意力（scaled dot-product attention）", "拼接"):
        assert term in md, term


def test_precision_flag_and_correct_rounding(run_cli):
    code, out, _ = run_cli("explain", "--format", "md", "--precision", "6", "--lang", "en")
    assert code == 0 and "0.751745" in out and "0.401112" in out
    code, out, _ = run_cli("explain", "--format", "md", "--lang", "en")
    assert "0.7517 & 0.7517" in out and "0.7518 & 0.7518" not in out


def test_default_language_follows_locale():
    assert default_lang({"LANG": "zh_CN.UTF-8"}) == "zh"
    assert default_lang({"LANG": "en_US.UTF-8"}) == "en"
    assert default_lang({"LC_ALL": "zh_TW.UTF-8", "LANG": "en_US.UTF-8"}) == "zh"
    assert default_lang({"LC_ALL": "C", "LANG": "zh_CN"}) == "en"
    assert default_lang({}) == "en"


def test_cli_language_from_environment(monkeypatch, run_cli):
    monkeypatch.setenv("LANG", "zh_CN.UTF-8")
    monkeypatch.delenv("LC_ALL", raising=False)
    monkeypatch.delenv("LC_MESSAGES", raising=False)
    code, out, _ = run_cli("explain")
    assert code == 0 and "多头注意力" in out


def test_inline_flags(run_cli):
    code, out, _ = run_cli("explain", "--x", "[[1,2],[3,4],[5,6]]", "--n-heads", "2", "--weights", "random",
                           "--seed", "3", "--causal", "--format", "json")
    assert code == 0
    d = json.loads(out)
    assert d["config"]["causal"] == "top_left" and d["heads"][0]["A"][0][1] == 0.0
    t = mha.trace([[1, 2], [3, 4], [5, 6]], n_heads=2, causal=True,
                  **mha.inputs.random_weights(2, seed=3))
    np.testing.assert_array_equal(np.array(d["Y"]), t.Y[0])
    code, out, _ = run_cli("explain", "--x", "[[[1,2]],[[3,4]]]", "--n-heads", "1", "--key-lengths", "1,1",
                           "--format", "json")
    assert code == 0 and json.loads(out)["config"]["B"] == 2


def test_output_file(tmp_path, run_cli):
    f = tmp_path / "out.md"
    code, out, _ = run_cli("explain", "--format", "md", "-o", str(f), "--lang", "en")
    assert code == 0 and out == "" and f.read_text().startswith("# Multi-head attention")


def test_bad_explain_flags(run_cli):
    for argv in (["explain", "--heads", "5"], ["explain", "--tokens", "7:9"], ["explain", "--lang", "fr"],
                 ["explain", "--precision", "101"], ["explain", "-o", "/nonexistent/dir/x.md", "--format", "md"]):
        code, out, err = run_cli(*argv)
        assert code == 2 and err.count("\n") == 1 and "Traceback" not in err, (argv, err)


@pytest.mark.parametrize("name", sorted(mha.EXAMPLES))
def test_every_named_example_is_explained_with_the_traces_numbers(name):
    """Shapes, GQA, RoPE, ALiBi, windows, the cache: each view renders, every number is the trace's."""
    data = mha.EXAMPLES[name].data
    for lang in LANGS:
        ex = mha.explain(data, lang=lang)
        assert check_numbers(ex) > 10 and check_sentences(ex) > 5
        text = ex.to_text()
        assert "\\" not in text and "$" not in text and "{" not in text, name
        assert len(ex.to_html()) > 5000 and "\\begin{document}" in ex.to_latex()
    keys = [s.key for s in mha.explain(data, lang="en").sections]
    c = mha.trace(data).config
    assert ("rope" in keys) == (c.rope is not None) and ("cache" in keys) == (c.cache_K is not None)
    assert ("gqa" in keys) == (c.G < c.n_heads) and ("projections" in keys) == (not c.given_qkv)
    assert ("head1.alibi" in keys) == (c.alibi_rule is not None)


def test_bert_base_sized_layer_stays_readable():
    """T = 512, d_model = 768, H = 12 with random weights: default output is elided (speed is in the bench)."""
    data = mha.random_example(T=512, d_model=768, n_heads=12, seed=0)
    ex = mha.explain(data, lang="en")
    text = ex.to_text()
    assert len(text.splitlines()) < 400
    assert "⋮" in text and "…" in text
    assert [s.key for s in ex.sections].count("head1") == 1 and "head3" not in [s.key for s in ex.sections]


def test_explain_a_torch_module():
    torch = pytest.importorskip("torch")
    m = torch.nn.MultiheadAttention(4, 2, batch_first=True, dtype=torch.float64).eval()
    x = torch.randn(1, 3, 4, dtype=torch.float64)
    ex = mha.explain(m, x, lang="en")
    with torch.no_grad():
        y, _ = m(x, x, x)
    np.testing.assert_allclose(ex.trace.Y, y.numpy(), atol=1e-12)
    assert check_numbers(ex) > 0


@pytest.mark.skipif(shutil.which("xelatex") is None, reason="xelatex not installed (.ci/run installs it)")
@pytest.mark.parametrize("lang", LANGS)
@pytest.mark.parametrize("name", ["document", "causal"])
def test_latex_compiles(tmp_path, lang, name):
    data = mha.DOCUMENT_EXAMPLE if name == "document" else CONFIGS["causal"]
    (tmp_path / "doc.tex").write_text(mha.explain(data, lang=lang).to_latex(), encoding="utf-8")
    p = subprocess.run(["xelatex", "-interaction=nonstopmode", "-halt-on-error", "doc.tex"], cwd=tmp_path,
                       capture_output=True, text=True, timeout=300)
    assert p.returncode == 0, p.stdout[-2000:]
    assert (tmp_path / "doc.pdf").stat().st_size > 10_000
    log = (tmp_path / "doc.log").read_text(errors="replace")
    assert "Missing character" not in log


@pytest.mark.skipif(shutil.which("xelatex") is None, reason="xelatex not installed (.ci/run installs it)")
def test_latex_full_wide_matrices_fit_the_page(tmp_path):
    """--full on d_model = 24: every matrix is printed whole, and none runs off the page."""
    ex = mha.explain(mha.random_example(T=5, d_model=24, n_heads=2, seed=4), lang="en", full=True)
    tex = ex.to_latex()
    assert tex.count("\\fitwidth{") > 10 and "\\cdots" not in tex
    (tmp_path / "doc.tex").write_text(tex, encoding="utf-8")
    p = subprocess.run(["xelatex", "-interaction=nonstopmode", "-halt-on-error", "doc.tex"], cwd=tmp_path,
                       capture_output=True, text=True, timeout=300)
    assert p.returncode == 0, p.stdout[-2000:]
    log = (tmp_path / "doc.log").read_text(errors="replace")
    overfull = re.findall(r"Overfull \\hbox \(([\d.]+)pt too wide\)", log)
    assert not [w for w in overfull if float(w) > 1.0], overfull
