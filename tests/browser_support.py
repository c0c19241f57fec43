"""What the real-browser tests share: Debian's Chromium (or the module is skipped), its flags, one browser
per test module, and a live `mha serve` on 127.0.0.1 that stops by itself.

A test module calls `sync_api = require_chromium()` before anything else, then imports the fixtures it uses
(`from browser_support import browser, server`).
"""

import shutil
import socket
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
ARTIFACTS = ROOT / "test-artifacts" / "screenshots"
CHROMIUM = shutil.which("chromium") or "/usr/bin/chromium"
ARGS = ["--no-sandbox", "--disable-gpu", "--no-first-run", "--disable-background-networking",
        "--disable-component-update", "--disable-sync"]
SERVER_LIFETIME_S = 240          # `mha serve --exit-after`: a server a test run forgets still stops


def require_chromium():
    """Playwright's sync API; the calling test module is skipped where Playwright or Chromium is missing."""
    sync_api = pytest.importorskip("playwright.sync_api")
    if not Path(CHROMIUM).exists():
        pytest.skip("Debian's chromium is not installed (.ci/run installs it)", allow_module_level=True)
    return sync_api


@pytest.fixture(scope="module")
def browser():
    from playwright.sync_api import sync_playwright
    with sync_playwright() as p:
        b = p.chromium.launch(executable_path=CHROMIUM, headless=True, args=ARGS)
        yield b
        b.close()


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@pytest.fixture(scope="module")
def server():
    """The base URL of `mha serve` in a child process, up within 30 s, terminated after the module."""
    port = free_port()
    proc = subprocess.Popen([sys.executable, "-m", "mha", "serve", "--host", "127.0.0.1", "--port", str(port),
                             "--exit-after", str(SERVER_LIFETIME_S)], stdout=subprocess.PIPE,
                            stderr=subprocess.STDOUT)
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
