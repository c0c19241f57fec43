"""Every name the package uses is defined: a helper lost in an edit (claims/softmax_more._column, outside trial
t131e) crashed the checker only on the rare page that reached it, and no other test did.  pyflakes reads every
module; a name used and never bound is an error here, whatever page would reach it."""

from pathlib import Path

from pyflakes import api as pyflakes_api          # a test dependency (pip install -e '.[test]')
from pyflakes import reporter as pyflakes_reporter

SRC = Path(__file__).resolve().parent.parent / "src" / "mha"
# forward references written as strings in annotations (`b: "Builder"`), bound only for type checkers
_ANNOTATION_ONLY = ("'Builder'", "'Judge'")


class _Collect(pyflakes_reporter.Reporter):
    def __init__(self):
        self.undefined: list[str] = []

    def unexpectedError(self, filename, msg):          # noqa: N802 (pyflakes' API)
        self.undefined.append(f"{filename}: {msg}")

    def syntaxError(self, filename, msg, lineno, offset, text):   # noqa: N802
        self.undefined.append(f"{filename}:{lineno}: {msg}")

    def flake(self, message):
        text = str(message)
        if "undefined name" in text and not any(name in text for name in _ANNOTATION_ONLY):
            self.undefined.append(text)


def test_no_name_is_used_undefined():
    rep = _Collect()
    files = sorted(SRC.rglob("*.py"))
    assert len(files) > 100
    for f in files:
        pyflakes_api.checkPath(str(f), rep)
    assert rep.undefined == []
