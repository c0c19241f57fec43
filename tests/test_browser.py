"""Real-browser tests: Debian's Chromium driven by Playwright, offline page and the live server.

Screenshots are written to test-artifacts/screenshots/ (exported-page.png, two-language-page-zh.png,
served-page.png, served-page-zh.png).
"""

import json
import subprocess
import sys
import urllib.error
import urllib.request

import numpy as np

import mha

from browser_support import ARTIFACTS, require_chromium

require_chromium()


def test_exported_page_works_offline(browser, tmp_path):
    page_file = tmp_path / "page.html"
    subprocess.run([sys.executable, "-m", "mha", "explain", "--format", "html", "--causal", "-o", str(page_file)],
                   check=True)
    seen = []
    context = browser.new_context(viewport={"width": 1100, "height": 900})

    def route(r):
        seen.append(r.request.url)
        return r.continue_() if r.request.url.startswith("file://") else r.abort()

    context.route("**/*", route)
    page = context.new_page()
    page.goto(page_file.as_uri())
    page.wait_for_load_state("load")
    assert seen == [page_file.as_uri()], seen                 # nothing but the file itself was requested
    rendered = page.evaluate("""() => [...document.querySelectorAll('math')]
        .filter(m => m.getBoundingClientRect().height > 5 && m.getBoundingClientRect().width > 5).length""")
    assert rendered > 50
    # MathML really lays out: a fraction is taller than one line of text
    frac = page.evaluate("() => document.querySelector('mfrac').getBoundingClientRect().height")
    body_line = page.evaluate("() => parseFloat(getComputedStyle(document.body).fontSize)")
    assert frac > 1.3 * body_line
    cells = page.evaluate("""() => [...document.querySelectorAll('#heatmaps td.v')].map(td =>
        [td.classList.contains('masked'), getComputedStyle(td).backgroundColor, getComputedStyle(td).backgroundImage])""")
    assert len(cells) == 18
    assert all(bg != "rgba(0, 0, 0, 0)" for masked, bg, img in cells if not masked)
    assert all("linear-gradient" in img for masked, bg, img in cells if masked)
    assert sum(m for m, _, _ in cells) == 6                    # causal: 3 masked cells per head
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(ARTIFACTS / "exported-page.png"), full_page=True)
    context.close()


def test_two_language_page_switches_without_script(browser, tmp_path):
    """--lang en,zh: English shows first; clicking 中文 hides it and shows the Chinese body, offline, no JS."""
    page_file = tmp_path / "both.html"
    subprocess.run([sys.executable, "-m", "mha", "explain", "--format", "html", "--lang", "en,zh", "-o",
                    str(page_file)], check=True)
    context = browser.new_context(viewport={"width": 1100, "height": 900}, java_script_enabled=False)
    page = context.new_page()
    page.goto(page_file.as_uri())

    def shown():
        return {lang: page.locator(f'.mha-explanation[data-lang="{lang}"]').is_visible() for lang in ("en", "zh")}

    assert shown() == {"en": True, "zh": False}
    page.click('label[for="mha-lang-zh"]')
    assert shown() == {"en": False, "zh": True}
    assert page.locator('.mha-explanation[data-lang="zh"] h1').inner_text().startswith("多头注意力")
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(ARTIFACTS / "two-language-page-zh.png"))
    page.click('label[for="mha-lang-en"]')
    assert shown() == {"en": True, "zh": False}
    context.close()


def _open(browser, server):
    """The served page, once it has shown its first explanation; returns the page and that rendering's number."""
    page = browser.new_page(viewport={"width": 1300, "height": 900})
    page.goto(server + "/")
    return page, _wait_rendered(page, 0)


def _screenshot(page, name: str) -> None:
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(ARTIFACTS / name), full_page=False)


def _y_cells(page):
    return page.evaluate("""() => [...document.querySelectorAll('#out table[data-symbol="Y"] td.v')]
        .map(td => [+td.dataset.i, +td.dataset.j, td.textContent])""")


def _wait_rendered(page, after: int) -> int:
    """Wait for the answer to the next edit: a new rendering (its number returned), or the server's refusal."""
    page.wait_for_function(f"() => Math.max(+(document.body.dataset.rendered || 0), "
                           f"+(document.body.dataset.failed || 0)) > {after}", timeout=15000)
    failed = int(page.evaluate("() => +(document.body.dataset.failed || 0)"))
    assert failed <= after, "the server refused the page's input: " + page.inner_text("#error")
    return int(page.evaluate("() => +document.body.dataset.rendered"))


def test_served_page_follows_an_edit(browser, server):
    page, n = _open(browser, server)
    X = np.array(mha.DOCUMENT_EXAMPLE["X"], dtype=float)
    before = mha.trace(X, n_heads=2).Y[0]
    assert [float(text) for _, _, text in _y_cells(page)] == [round(float(x), 4) for x in before.ravel()]
    page.get_by_label("X[2,3]").fill("2.5")                    # one cell of X
    _wait_rendered(page, n)
    X[1, 2] = 2.5
    expected = mha.trace(X, n_heads=2).Y[0]
    cells = _y_cells(page)
    assert len(cells) == 12
    for i, j, text in cells:
        assert abs(float(text) - expected[i, j]) <= 0.5e-4 + 1e-12, (i, j, text, expected[i, j])
    _screenshot(page, "served-page.png")
    page.close()


def test_served_page_switches_language(browser, server):
    page, n = _open(browser, server)
    page.select_option("#lang", "zh")
    _wait_rendered(page, n)
    assert "多头注意力" in page.inner_text("#out h1")
    assert page.inner_text("header h1") == "多头注意力演示"
    assert page.is_hidden("#seed-box")
    _screenshot(page, "served-page-zh.png")
    page.close()


def _post(url, body: bytes):
    req = urllib.request.Request(url, data=body, headers={"Content-Type": "application/json"}, method="POST")
    try:
        with urllib.request.urlopen(req, timeout=10) as r:
            return r.status, json.loads(r.read())
    except urllib.error.HTTPError as e:
        return e.code, json.loads(e.read())


def test_live_server_refuses_bad_requests_and_keeps_serving(server):
    for body, status in ((b"{oops", 400), (b"x" * (300 * 1024), 413),
                         (json.dumps({"X": [[1.0] * 8] * 200, "n_heads": 1}).encode(), 413),
                         (json.dumps({"X": [[1, 2]], "n_heads": 5}).encode(), 422)):
        code, data = _post(server + "/api/explain", body)
        assert code == status and data["error"]
    code, data = _post(server + "/api/explain", json.dumps(mha.DOCUMENT_EXAMPLE).encode())
    assert code == 200 and data["config"]["n_heads"] == 2


def _y_matrix(page):
    cells = _y_cells(page)
    Y = np.full((max(i for i, _, _ in cells) + 1, max(j for _, j, _ in cells) + 1), np.nan)
    for i, j, text in cells:
        Y[i, j] = float(text.replace("−", "-"))
    return Y


def _assert_page_shows(page, expected):
    shown = _y_matrix(page)
    assert shown.shape == expected.shape, (shown.shape, expected.shape)
    np.testing.assert_allclose(shown, expected, atol=0.5e-4 + 1e-12, rtol=0)


def test_served_page_head_width_gqa_rope_and_no_w_o(browser, server):
    """Random weights with d_k = 4 (not d_model / H), then GQA (G = 1), RoPE and no W_O, one at a time: Y is the
    Python trace's."""
    page, n = _open(browser, server)
    X = mha.DOCUMENT_EXAMPLE["X"]
    data = {"X": X, "n_heads": 2}

    def expect(**extra):
        data.update(extra)
        return mha.trace(mha.inputs.with_random_weights(data, 0, d_k=4, d_v=4)).Y[0]

    page.check('input[name=weights][value=random]')
    n = _wait_rendered(page, n)
    page.fill("#d-k", "4")
    n = _wait_rendered(page, n)
    _assert_page_shows(page, expect())
    page.select_option("#n-kv-heads", "1")
    n = _wait_rendered(page, n)
    _assert_page_shows(page, expect(n_kv_heads=1))
    assert page.locator("#out #s-gqa").count() == 1
    page.select_option("#rope", "half")
    n = _wait_rendered(page, n)
    _assert_page_shows(page, expect(rope={"style": "half"}))
    assert page.locator("#out #s-rope").count() == 1
    page.check("#no-wo")
    n = _wait_rendered(page, n)
    Y = expect(W_O="none")
    assert Y.shape == (3, 8)                                     # Y = O_concat: H * d_v = 2 * 4 columns
    _assert_page_shows(page, Y)
    assert page.is_hidden("#error")
    _screenshot(page, "served-page-variants.png")
    page.close()


def test_served_page_named_examples_and_the_window_band(browser, server):
    """The menu loads a named example into the controls; the page shows its Y, and a window's band is hatched."""
    page, n = _open(browser, server)
    assert page.locator("#example option").count() == len(mha.EXAMPLES) + 1
    for name in ("llama-decode", "per-head", "window"):
        page.select_option("#example", name)
        n = _wait_rendered(page, n)
        assert page.is_hidden("#error"), page.inner_text("#error")
        t = mha.trace(mha.EXAMPLES[name].data)
        _assert_page_shows(page, t.Y[0])
        assert page.inner_text("#idea") == mha.EXAMPLES[name].idea["en"]
    # the window example: in every heatmap the masked cells are exactly the trace's invisible ones, hatched
    cells = page.evaluate("""() => [...document.querySelectorAll('#out section[id$=heatmaps] table')].map(tb =>
        [...tb.querySelectorAll('td.v')].map(td => [+td.dataset.i, +td.dataset.j, td.classList.contains('masked'),
                                                    getComputedStyle(td).backgroundImage]))""")
    assert len(cells) == t.config.n_heads
    for h, table in enumerate(cells):
        masked = {(i, j) for i, j, m, _ in table if m}
        assert masked == {tuple(ij) for ij in np.argwhere(~t.visible[0, h])}
        assert all("linear-gradient" in img for _, _, m, img in table if m)
    assert len(masked) == 25 - 9                                   # 5 tokens, window 2: 9 visible pairs per head
    _screenshot(page, "served-page-window.png")
    page.close()


def _table(page, symbol):
    """A matrix of the served explanation, by its LaTeX symbol, as numbers (masked cells flagged)."""
    cells = page.evaluate("""(sym) => [...document.querySelectorAll(`#out table[data-symbol="${sym}"] td.v`)]
        .map(td => [+td.dataset.i, +td.dataset.j, td.textContent, td.classList.contains('masked')])""", symbol)
    M = np.full((max(i for i, *_ in cells) + 1, max(j for _, j, *_ in cells) + 1), np.nan)
    masked = set()
    for i, j, text, m in cells:
        M[i, j] = float(text.replace("−", "-"))
        if m:
            masked.add((i, j))
    return M, masked


def test_served_page_backward_toggle(browser, server):
    """The "backward pass" box adds the backward steps with the trace's gradients; a named backward example ticks
    it, its masked scores are hatched in dS; unticking removes the steps."""
    page, n = _open(browser, server)
    assert page.locator("#out #s-backward").count() == 0
    page.check("#backward")
    n = _wait_rendered(page, n)
    t = mha.trace(dict(mha.DOCUMENT_EXAMPLE, backward={"loss": "sum"}))
    assert page.locator("#out #s-backward").count() == 1 and page.locator("#out #s-backward-check").count() == 1
    dW_Q, _ = _table(page, "dW_Q")
    np.testing.assert_allclose(dW_Q, t.grads.dW_Q, atol=0.5e-4 + 1e-12, rtol=0)
    _screenshot(page, "served-page-backward.png")
    page.select_option("#example", "backward-causal")
    n = _wait_rendered(page, n)
    assert page.is_checked("#backward") and "target" in page.input_value("#extra")
    t = mha.trace(mha.EXAMPLES["backward-causal"].data)
    dS, masked = _table(page, "dS^{(1)}")
    np.testing.assert_allclose(dS, t.grads.dS[0, 0], atol=0.5e-4 + 1e-12, rtol=0)
    assert masked == {(0, 1), (0, 2), (1, 2)}
    hatched = page.evaluate("""() => [...document.querySelectorAll('#out table[data-symbol="dS^{(1)}"] td.masked')]
        .map(td => getComputedStyle(td).backgroundImage)""")
    assert len(hatched) == 3
    page.select_option("#lang", "zh")
    n = _wait_rendered(page, n)
    assert "反向传播" in page.inner_text("#out #s-backward h2") and page.inner_text("label:has(#backward)").strip()
    page.uncheck("#backward")
    n = _wait_rendered(page, n)
    assert page.locator("#out #s-backward").count() == 0


def test_served_page_devices_control_adds_the_ring(browser, server):
    """The ring example sets the devices control to 3; another count redraws the ring; clearing it removes it."""
    page, n = _open(browser, server)
    page.select_option("#example", "ring")
    n = _wait_rendered(page, n)
    assert page.input_value("#devices") == "3"
    assert "The same attention on 3 devices" in page.inner_text("#out")
    page.fill("#devices", "2")
    n = _wait_rendered(page, n)
    out = page.inner_text("#out")
    assert "The same attention on 2 devices" in out and "device 1: token(s) 1 to 2" in out
    page.fill("#devices", "")
    _wait_rendered(page, n)
    assert "ring attention" not in page.inner_text("#out")
    _screenshot(page, "served-page-ring.png")
    page.close()
