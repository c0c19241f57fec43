"""Chromium renders the closed forms' MathML: the exported --exact page, and the live page's exact toggle."""

import shutil
import socket
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

import pytest

pytest.importorskip("sympy")
sync_api = pytest.importorskip("playwright.sync_api")
CHROMIUM = shutil.which("chromium") or "/usr/bin/chromium"
if not Path(CHROMIUM).exists():
    pytest.skip("Debian's chromium is not installed (.ci/run installs it)", allow_module_level=True)

ARTIFACTS = Path(__file__).resolve().parents[1] / "test-artifacts" / "screenshots"
ARGS = ["--no-sandbox", "--disable-gpu", "--no-first-run", "--disable-background-networking",
        "--disable-component-update", "--disable-sync"]
# the closed forms are list items holding a fraction; measure each item's fraction against a line of text
FRACTIONS = """() => [...document.querySelectorAll('li math')]
    .filter(m => m.querySelector('mfrac') && m.getClientRects().length > 0)
    .map(m => [m.querySelector('mfrac').getBoundingClientRect().height, m.getBoundingClientRect().width])"""


@pytest.fixture(scope="module")
def browser():
    with sync_api.sync_playwright() as p:
        b = p.chromium.launch(executable_path=CHROMIUM, headless=True, args=ARGS)
        yield b
        b.close()


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


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@pytest.fixture(scope="module")
def server():
    port = _free_port()
    proc = subprocess.Popen([sys.executable, "-m", "mha", "serve", "--host", "127.0.0.1", "--port", str(port),
                             "--exit-after", "180"], stdout=subprocess.PIPE, stderr=subprocess.STDOUT)
    base = f"http://127.0.0.1:{port}"
    deadline = time.time() + 30
    while time.time() < deadline:
        try:
            urllib.request.urlopen(base + "/", timeout=1).read()
            break
        except OSError:
            time.sleep(0.2)
    else:
        proc.kill()
        pytest.fail("mha serve did not start: " + proc.stdout.read().decode(errors="replace"))
    yield base
    proc.terminate()
    proc.wait(timeout=10)


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
