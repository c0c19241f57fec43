"""Chromium renders the closed forms' MathML: the exported --exact page, and the live page's exact toggle."""

import subprocess
import sys

import pytest

pytest.importorskip("sympy")
from browser_support import ARTIFACTS, require_chromium  # noqa: E402

require_chromium()

# the closed forms are list items holding a fraction; measure each item's fraction against a line of text
FRACTIONS = """() => [...document.querySelectorAll('li math')]
    .filter(m => m.querySelector('mfrac') && m.getClientRects().length > 0)
    .map(m => [m.querySelector('mfrac').getBoundingClientRect().height, m.getBoundingClientRect().width])"""


def test_exported_exact_page_renders_its_closed_forms(browser, tmp_path):
    page_file = tmp_path / "exact.html"
    subprocess.run([sys.executable, "-m", "mha", "explain", "--exact", "--format", "html", "--lang", "zh,en",
                    "-o", str(page_file)], check=True)
    context = browser.new_context(viewport={"width": 1100, "height": 900})
    context.route("**/*", lambda r: r.continue_() if r.request.url.startswith("file://") else r.abort())
    page = context.new_page()
    page.goto(page_file.as_uri())
    page.wait_for_load_state("load")
    line = page.evaluate("() => parseFloat(getComputedStyle(document.body).fontSize)")
    fractions = page.evaluate(FRACTIONS)                       # the Chinese body, shown first
    assert len(fractions) >= 12
    # a stacked fraction is taller than a line (1/3 inline: 1.24 lines); unrendered MathML would be one line
    assert all(h > 1.2 * line and w > 3 * line for h, w in fractions), (line, fractions)
    assert "闭式表达式" in page.inner_text("body")
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(ARTIFACTS / "exact-page-zh.png"), full_page=False)
    context.close()


def _rendered(page, after: int) -> int:
    page.wait_for_function(f"() => Math.max(+(document.body.dataset.rendered || 0), "
                           f"+(document.body.dataset.failed || 0)) > {after}", timeout=60000)
    assert int(page.evaluate("() => +(document.body.dataset.failed || 0)")) <= after, page.inner_text("#error")
    return int(page.evaluate("() => +document.body.dataset.rendered"))


def test_served_page_exact_toggle(browser, server):
    page = browser.new_page(viewport={"width": 1300, "height": 900})
    page.goto(server + "/")
    n = _rendered(page, 0)
    assert page.evaluate(FRACTIONS) == []                       # off by default: decimals only
    page.check("#exact")
    n = _rendered(page, n)
    fractions = page.evaluate(FRACTIONS)
    assert len(fractions) >= 12 and "Closed forms" in page.inner_text("#out")
    page.get_by_label("X[2,3]").fill("0.5")                      # an edit keeps the closed forms, exactly
    n = _rendered(page, n)
    assert "Closed forms" in page.inner_text("#out")
    page.screenshot(path=str(ARTIFACTS / "served-page-exact.png"), full_page=False)
    page.check("input[name=weights][value=random]")             # random weights have no closed form
    _rendered(page, n)
    assert page.is_disabled("#exact") and page.is_visible("#exact-off")
    assert "Closed forms" not in page.inner_text("#out")
    page.close()
