"""The HTML view and notebook display (no browser here; see test_browser.py for Chromium)."""

import re
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

import mha

ROOT = Path(__file__).resolve().parents[1]


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_page_is_self_contained_and_small(lang, run_cli, tmp_path):
    out = tmp_path / "page.html"
    code, _, err = run_cli("explain", "--format", "html", "--lang", lang, "-o", str(out))
    assert code == 0 and err == ""
    page = out.read_text(encoding="utf-8")
    assert page.startswith("<!DOCTYPE html>")
    assert len(page.encode()) < 1_000_000
    assert not re.search(r"(src|href)=\"(https?:)?//", page)        # nothing from the network
    assert "<script" not in page and "<link" not in page and "@import" not in page and "url(" not in page
    assert page.count("<math") > 50
    ex = mha.explain(lang=lang)
    for sec in ex.sections:
        assert f'id="s-{sec.key.replace(".", "-")}"' in page


def test_heatmaps_show_every_value_with_token_labels_and_masked_cells():
    ex = mha.explain(mha.DOCUMENT_EXAMPLE, causal=True, lang="en")
    page = ex.to_html()
    grid = page[page.index('id="heatmaps"'):page.index("</section>", page.index('id="heatmaps"'))]
    assert grid.count('data-symbol="A^{(') == 2                      # one heatmap per head
    t = ex.trace
    for h in range(2):
        table = re.search(r'data-symbol="A\^\{\(%d\)\}">(.*?)</table>' % (h + 1), grid).group(1)
        cells = re.findall(r'<td class="v( masked)?" data-i="(\d)" data-j="(\d)"[^>]*>([^<]*)</td>', table)
        assert len(cells) == 9
        for masked, i, j, text in cells:
            i, j = int(i), int(j)
            assert bool(masked) == (t.S[0, h, i, j] == -np.inf)
            assert float(text) == round(float(t.A[0, h, i, j]), 4)
            if not masked:
                assert "background:rgba" in re.search(r'data-i="%d" data-j="%d"[^>]*' % (i, j), table).group(0)
        assert "<th>1</th><th>2</th><th>3</th>" in table               # key labels; query labels per row
        assert re.search(r"<tr( class=\"last\")?><th>3</th>", table)


def test_numbers_in_html_equal_the_trace():
    ex = mha.explain(mha.random_example(T=4, d_model=6, n_heads=3, seed=1), lang="en")
    page = ex.to_html()
    t = ex.trace
    for sym, arr in (("Y", t.Y[0]), ("O_{\\text{concat}}", t.O_concat[0]), ("A^{(2)}", t.A[0, 1])):
        table = re.search(r'data-symbol="%s">(.*?)</table>' % re.escape(sym), page).group(1)
        for i, j, text in re.findall(r'data-i="(\d+)" data-j="(\d+)"[^>]*>([^<]*)</td>', table):
            assert abs(float(text) - arr[int(i), int(j)]) <= 0.5e-4 + 1e-12


def test_one_page_in_two_languages(run_cli, tmp_path):
    """--lang zh,en: both explanations on one page, Chinese shown first, ids unique, the same numbers in each."""
    out = tmp_path / "both.html"
    code, _, err = run_cli("explain", "--format", "html", "--lang", "zh,en", "--causal", "-o", str(out))
    assert code == 0 and err == ""
    page = out.read_text(encoding="utf-8")
    assert '<html lang="zh-CN">' in page and "<script" not in page
    assert re.search(r'id="mha-lang-zh" checked', page) and not re.search(r'id="mha-lang-en" checked', page)
    ids = re.findall(r' id="([^"]+)"', page)
    assert len(ids) == len(set(ids)) and "zh-s-concat" in ids and "en-s-concat" in ids
    assert all(f'href="#{i}"' in page for i in ("zh-heatmaps", "en-s-concat"))   # contents links reach their body
    bodies = re.findall(r'<div class="mha-explanation" lang="[^"]+" data-lang="(\w+)">', page)
    assert bodies == ["zh", "en"]
    zh, en = page.split('data-lang="en">')
    assert "多头注意力" in zh and "Multi-head attention" in en

    def numbers(part):
        return re.findall(r'data-symbol="([^"]+)".*?</table>', part, flags=re.S), \
            re.findall(r'data-i="(\d+)" data-j="(\d+)"[^>]*>([^<]*)</td>', part)

    assert numbers(zh) == numbers(en) and len(numbers(en)[1]) > 100


def test_jupyter_reprs():
    ex = mha.explain(lang="en")
    fragment = ex._repr_html_()
    assert fragment.startswith("<style>") and "<html" not in fragment and "<script" not in fragment
    assert ex._repr_markdown_() == ex.to_markdown()
    assert "Multi-head attention" in str(ex) and repr(ex).startswith("<Explanation lang=en")


def test_quickstart_notebook_executes():
    import nbformat
    pytest.importorskip("nbclient", reason="running a notebook needs nbclient and ipykernel: pip install -e '.[test]'")
    from nbclient import NotebookClient
    nb = nbformat.read(ROOT / "examples" / "quickstart.ipynb", as_version=4)
    NotebookClient(nb, timeout=300, kernel_name="python3", resources={"metadata": {"path": str(ROOT)}}).execute()
    outputs = [o for c in nb.cells if c.cell_type == "code" for o in c.get("outputs", [])]
    assert not [o for o in outputs if o.get("output_type") == "error"]
    htmls = [o["data"]["text/html"] for o in outputs if "text/html" in o.get("data", {})]
    assert len(htmls) == 3 and all("<math" in h for h in htmls)
    assert any("多头注意力" in h for h in htmls)


@pytest.mark.parametrize("ext", ["png", "svg"])
def test_plot_heatmaps(tmp_path, run_cli, ext):
    pytest.importorskip("matplotlib", reason="--plot needs matplotlib: pip install -e '.[test]'")
    out = tmp_path / f"heads.{ext}"
    code, _, err = run_cli("explain", "--causal", "--plot", str(out), "--format", "json", "-o", str(tmp_path / "t.json"))
    assert code == 0, err
    data = out.read_bytes()
    assert data[:4] == b"\x89PNG" if ext == "png" else b"<svg" in data[:400]
    assert len(data) > 5000
    code, _, err = run_cli("explain", "--plot", str(tmp_path / "heads.bmp"), "--format", "json")
    assert code == 2 and "--plot" in err


def test_cli_start_up_stays_light():
    """`mha explain --format md` imports no torch, matplotlib, web framework, rich or LaTeX reader; text no MathML."""
    heavy = ("torch", "matplotlib", "starlette", "uvicorn", "rich", "pylatexenc", "latex2mathml")
    for fmt, allowed in (("md", ()), ("text", ("rich", "pylatexenc"))):
        code = (f"import sys, mha.cli; mha.cli.main(['explain', '--format', '{fmt}', '-o', '/dev/null']); "
                f"print(sorted(m for m in {heavy!r} if m in sys.modules))")
        out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
        assert out.strip() == str(sorted(allowed)), fmt
    code = "import sys, mha.core; print([m for m in sys.modules if m.split('.')[0] in ('torch', 'rich', 'matplotlib')])"
    assert subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout.strip() == "[]"


# ------------------------------------------------------------------ golden pages

GOLDEN = ROOT / "tests" / "golden"
UPDATE = __import__("os").environ.get("MHA_UPDATE_GOLDEN") == "1"


def normalise_ids(page: str) -> str:
    """Number the page's ids in order of appearance (and the links and labels that point at them)."""
    names: dict[str, str] = {}
    for name in re.findall(r' id="([^"]+)"', page):
        names.setdefault(name, f"id{len(names) + 1}")
    return re.sub(r'( id="| for="| href="#)([^"]+)"', lambda m: f'{m.group(1)}{names.get(m.group(2), m.group(2))}"',
                  page)


def test_normalise_ids_renames_consistently():
    page = '<a href="#s-x">x</a><section id="s-x"></section><section id="heat"><label for="heat">'
    assert normalise_ids(page) == '<a href="#id1">x</a><section id="id1"></section><section id="id2"><label for="id2">'


@pytest.mark.parametrize("example", ["document", "llama-decode", "backward", "ring"])
@pytest.mark.parametrize("lang", ["en", "zh"])
def test_golden_html_examples(example, lang):
    """Regenerate with: MHA_UPDATE_GOLDEN=1 python -m pytest tests/test_explain.py tests/test_html.py -k golden"""
    ex = mha.EXAMPLES[example]
    page = normalise_ids(mha.explain(ex.data, lang=lang, **ex.options).to_html())
    path = GOLDEN / f"{example}.{lang}.html"
    if UPDATE:
        path.write_text(page, encoding="utf-8")
    assert path.exists(), f"missing golden file {path}; run with MHA_UPDATE_GOLDEN=1"
    assert page == path.read_text(encoding="utf-8")


# ------------------------------------------------------------------ cells are drawn from numbers and flags

def test_masked_scores_and_huge_numbers_in_html():
    ex = mha.explain({"X": [[2e10, 0], [0, 1]], "n_heads": 1, "causal": True}, lang="en")
    page = ex.to_html()
    s1 = re.search(r'data-symbol="S\^\{\(1\)\}">(.*?)</table>', page).group(1)
    assert re.search(r'<td class="v masked" data-i="0" data-j="1" title="masked">−∞</td>', s1)
    assert "2.8284×10<sup>20</sup>" in s1                       # (2e10)² / √2, not 21 digits of fixed point
    assert "\\" not in re.sub(r"<math.*?</math>|data-symbol=\"[^\"]*\"", "", page)   # no LaTeX outside MathML


def test_heatmap_panels_do_not_overlap():
    """Head 2's axis label stays clear of head 1's panel (the PNG's old overlap)."""
    pytest.importorskip("matplotlib")
    from mha.render.plot import heatmap_figure
    fig = heatmap_figure(mha.trace(mha.random_example(T=5, d_model=8, n_heads=4, seed=0)), precision=2)
    fig.canvas.draw()
    renderer = fig.canvas.get_renderer()
    axes = [ax for ax in fig.axes if ax.get_label() != "<colorbar>"][:4]
    for left, right in zip(axes, axes[1:]):
        label = right.yaxis.label.get_window_extent(renderer)
        assert not label.overlaps(left.get_tightbbox(renderer)), (left.get_title(), right.get_title())
        assert label.x0 > left.get_window_extent(renderer).x1
    import matplotlib.pyplot as plt
    plt.close(fig)
