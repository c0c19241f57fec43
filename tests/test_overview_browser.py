"""The overview page in a real browser: Debian's Chromium driven by Playwright, opened from file://, offline.

A tiny LLaMA-shaped model (GQA, RoPE) is explained with --overview; the page must draw every cell,
show the exact weight under the pointer, open a head's explanation on click, filter layers and heads,
and switch to the query→key lines.  Screenshots: test-artifacts/screenshots/overview*.png.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from browser_support import ARTIFACTS, require_chromium

require_chromium()
torch = pytest.importorskip("torch", reason="the overview of a model needs torch: pip install -e '.[test]'")
pytest.importorskip("transformers", reason="the overview needs transformers")

import mha  # noqa: E402
from mha import overview as ov_mod  # noqa: E402
from mha.cli import main  # noqa: E402
from mha.explanation.numbers import format_number  # noqa: E402
from test_hf import byte_level_tokenizer, tiny_model  # noqa: E402

TEXT = "the cat sat on the mat by the door"


@pytest.fixture(scope="module")
def made(tmp_path_factory):
    """A saved tiny LLaMA, its overview page in both languages, and the overview as data (the oracle)."""
    path = tmp_path_factory.mktemp("llama")
    tok = byte_level_tokenizer()
    tiny_model("llama", tok).save_pretrained(path)
    tok.save_pretrained(path)
    pages = {}
    for lang in ("en", "zh"):
        pages[lang] = path / f"overview-{lang}.html"
        assert main(["explain", "--model", str(path), "--overview", "--text", TEXT, "--format", "html",
                             "--lang", lang, "-o", str(pages[lang])]) == 0
    model, tok = mha.hub.load(str(path))
    return pages, ov_mod.build(model, text=TEXT, tokenizer=tok)


def open_offline(browser, page_file: Path):
    """The page from file://, every other request aborted and recorded; waits until the cells are drawn."""
    seen, errors = [], []
    context = browser.new_context(viewport={"width": 1200, "height": 900})

    def route(r):
        seen.append(r.request.url)
        return r.continue_() if r.request.url.startswith("file://") else r.abort()

    context.route("**/*", route)
    page = context.new_page()
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.goto(page_file.as_uri())
    page.wait_for_selector("body[data-ready='1']", timeout=15000)
    assert seen == [page_file.as_uri()] and errors == [], (seen, errors)
    return context, page, errors


def test_the_page_draws_hovers_and_opens_a_head(browser, made):
    pages, ov = made
    context, page, errors = open_offline(browser, pages["en"])
    figs = page.locator(".ov-cell")
    assert figs.count() == 8
    # every canvas is drawn: its pixels are not all one colour
    spread = page.evaluate("""() => [...document.querySelectorAll('.ov-cell canvas')].map(c => {
        const d = c.getContext('2d').getImageData(0, 0, c.width, c.height).data;
        return new Set(Array.from({length: d.length / 4}, (_, k) => d[4 * k + 2])).size; })""")
    assert len(spread) == 8 and min(spread) > 5

    # hover: layer 1, head 3 (K/V head 2), query 7, key 4 -> exactly the weight mha prints
    fig = page.locator('.ov-cell[data-layer="1"][data-head="3"]')
    canvas = fig.locator("canvas")
    geom = canvas.evaluate("c => ({left: +c.dataset.left, up: +c.dataset.up, w: c.width, h: c.height})")
    box = canvas.bounding_box()
    T = ov.T
    px = (geom["w"] - geom["left"]) / T
    i, j = 6, 3
    page.mouse.move(box["x"] + (geom["left"] + (j + 0.5) * px) * box["width"] / geom["w"],
                    box["y"] + (geom["up"] + (i + 0.5) * px) * box["height"] / geom["h"])
    A = ov.layer_cells(1)[2].A
    p = format_number(A[i, j], 4)
    want = (f"layer 1, head 3 · K/V 2: query 7 {ov.tokens[6]} → key 4 {ov.tokens[3]}: {p.sign}{p.digits}")
    assert page.locator("#ov-tip").text_content() == want
    page.mouse.move(box["x"] + (geom["left"] + 7.5 * px) * box["width"] / geom["w"],
                    box["y"] + (geom["up"] + 2.5 * px) * box["height"] / geom["h"])
    assert page.locator("#ov-tip").text_content().endswith(": 0 (masked)")        # above the causal diagonal
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(ARTIFACTS / "overview-grid.png"))

    # click: the head's own steps appear, the layer's shared steps folded around them
    fig.click()
    page.wait_for_selector("#ov-panel-body > section", timeout=15000)
    assert page.locator("#ov-panel-title").text_content() == "Layer 1, head 3: step by step"
    heads = page.locator("#ov-panel-body > section h2").all_text_contents()
    assert heads and all("Head 3" in h for h in heads)
    body = page.locator("#ov-panel-body").inner_text()
    assert "Head 3: scores" in body and "Head 2: scores" not in body
    assert page.locator("#ov-panel-body > details").count() == 2
    assert page.locator("#ov-panel-body math").count() > 5            # MathML, as the exported page
    p = format_number(ov.layer_cells(1)[2].A[1, 0], 4)                # A^(3) row 2, key 1, in its matrix
    assert p.sign + p.digits in body
    page.screenshot(path=str(ARTIFACTS / "overview-panel.png"))
    assert errors == []
    context.close()


def test_filters_and_the_lines_view(browser, made):
    pages, ov = made
    context, page, errors = open_offline(browser, pages["en"])
    page.fill("#ov-f-layers", "1")
    assert page.locator('.ov-row[data-layer="0"]').is_hidden() and page.locator('.ov-row[data-layer="1"]').is_visible()
    page.fill("#ov-f-heads", "2-3")
    visible = page.evaluate("() => [...document.querySelectorAll('.ov-cell')].filter(f => f.offsetParent)"
                            ".map(f => f.dataset.layer + ':' + f.dataset.head)")
    assert visible == ["1:2", "1:3"]
    page.fill("#ov-f-heads", "x")
    assert "bad" in page.locator("#ov-f-heads").get_attribute("class")
    page.fill("#ov-f-heads", "")
    page.fill("#ov-f-layers", "")
    page.check("input[name=ov-view][value=lines]")
    assert page.locator("#ov-grid").is_hidden() and page.locator("#ov-lines").is_visible()
    page.select_option("#ov-lines-layer", "0")
    n_lines = page.locator("#ov-lines-svg line").count()
    # one line per weight of at least 0.02 over the 4 heads of layer 0 (masked keys draw none)
    want = sum(int(((c.A >= 0.02) & ~ov.masked[0]).sum()) for c in ov.layer_cells(0))
    assert abs(n_lines - want) <= 4                              # the page compares 4-decimal values to 0.02
    labels = page.locator("#ov-lines-svg text").all_text_contents()
    assert labels[:2] == [ov.tokens[0]] * 2 and len(labels) == 2 * ov.T
    page.locator("#ov-lines-svg text[data-q='5']").hover()
    shown = page.evaluate("() => [...document.querySelectorAll('#ov-lines-svg line')]"
                          ".filter(l => l.style.display !== 'none').map(l => +l.dataset.i)")
    assert shown and set(shown) == {5}
    page.screenshot(path=str(ARTIFACTS / "overview-lines.png"))
    assert errors == []
    context.close()


def test_the_chinese_page(browser, made):
    pages, ov = made
    context, page, errors = open_offline(browser, pages["zh"])
    assert "注意力一览" in page.locator("h1").text_content()
    page.locator('.ov-cell[data-layer="0"][data-head="1"]').click()
    page.wait_for_selector("#ov-panel-body > section", timeout=15000)
    assert page.locator("#ov-panel-title").text_content() == "第 0 层，第 1 个头：逐步讲解"
    assert page.locator("#ov-panel-body > section h2").first.text_content().endswith("第 1 个头")
    page.screenshot(path=str(ARTIFACTS / "overview-zh.png"))
    assert errors == []
    context.close()


def test_a_downsampled_page_names_blocks(browser, tmp_path):
    """T = 300: each drawn cell is a 3 × 3 block; the hover names the block's tokens and shows its mean."""
    from mha.render.overview_html import render_overview_html
    from test_overview import fake_overview
    ov = fake_overview(300)
    page_file = tmp_path / "big.html"
    page_file.write_text(render_overview_html(ov, {}), encoding="utf-8")     # no explanations embedded
    context, page, errors = open_offline(browser, page_file)
    assert "more than 128" in page.locator(".ov-downsampled").text_content()
    canvas = page.locator('.ov-cell[data-head="2"] canvas')
    geom = canvas.evaluate("c => ({left: +c.dataset.left, up: +c.dataset.up, w: c.width, h: c.height})")
    assert geom["left"] == 0 and geom["up"] == 0 and geom["w"] % 100 == 0      # no labels; 100 drawn rows
    box = canvas.bounding_box()
    px = geom["w"] / 100
    page.mouse.move(box["x"] + 0.5 * px * box["width"] / geom["w"], box["y"] + 1.5 * px * box["height"] / geom["h"])
    p = format_number(ov.cells[1].A[3:6, 0:3].mean(), 4)
    assert page.locator("#ov-tip").text_content() == (f"layer 0, head 2: query 4–6 t3 … t5 → key 1–3 t0 … t2: "
                                                      f"{p.sign}{p.digits}")
    page.locator('.ov-cell[data-head="1"]').click()
    assert "made without the heads' explanations" in page.locator("#ov-panel-body").text_content()
    assert errors == []
    context.close()
