"""Writes the backward-pass worked examples of tests/check_backward and their manifest.

Eight documents that work the backward pass of one attention head out by hand, in the styles people publish
them in: two notebooks with printouts (torch `.grad`, NumPy by hand), two Markdown posts, two LaTeX handouts,
a plain-text forum post and an HTML course page, four of them in Chinese.  Every sentence was written for this
project; every number is computed by `mha` (float64, `mha.trace(..., backward=...)`) and rounded to 4 decimals
as a person would.  The notebooks are executed for real with nbclient.  Each document has planted slips of the
kinds the backward pass invites: a missing D term in the softmax's backward, a transposed dK, a forgotten scale,
a masked entry given a gradient, and an arithmetic slip in a written-out sum.

    PYTHONPATH=src python tests/check_backward/make.py      (needs nbclient and a python3 kernel with torch)

The output files are committed; this script is the record of how they were made.  No test runs `mha check` on
them yet: the checker does not read gradients (the backward vocabulary is the next step of issue 20).
"""
import json
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from _common import HERE  # noqa: E402
from docs_notebooks import notebook  # noqa: E402
from docs_text import html_zh, md_en, md_zh, tex, txt_en  # noqa: E402

DOCS = []


def main():
    files = [md_en(), md_zh(), tex("en"), tex("zh"), html_zh(), txt_en(), notebook("en"), notebook("zh")]
    for name, text, doc in files:
        (HERE / name).write_text(text, encoding="utf-8")
        for s in doc["slips"]:
            assert text.count(s["find"]) >= 1 and s["find"] != s["replace"], (name, s)
        DOCS.append(doc)
    manifest = {"documents": DOCS}
    (HERE / "manifest.json").write_text(json.dumps(manifest, indent=1, ensure_ascii=False,
                                                   default=lambda a: a.tolist()) + "\n", encoding="utf-8")
    print(f"{len(DOCS)} documents, {sum(len(d['slips']) for d in DOCS)} slips")


if __name__ == "__main__":
    main()
