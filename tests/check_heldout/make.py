"""Writes the held-out documents of tests/check_heldout and their manifest.

Every sentence below was written for this project; the numbers are computed here with NumPy (float64) and
rounded as a person would.  The notebooks are executed for real with nbclient.  Run once; the output files are
committed, this script is kept as the record of how they were made (it does not import mha).

    python tests/check_heldout/make.py      (needs pandas, nbclient and a python3 kernel)
"""
import json
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from _common import DOCS, HERE  # noqa: E402
import docs_text_a  # noqa: E402,F401  (each part writes its documents when imported, in the manifest's order)
import docs_text_b  # noqa: E402,F401
import docs_notebooks  # noqa: E402,F401

(HERE / "manifest.json").write_text(json.dumps({"documents": DOCS}, ensure_ascii=False, indent=1) + "\n", encoding="utf-8")
