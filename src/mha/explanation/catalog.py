"""The prose of the explanations: one JSON catalog per language, with the same keys and <placeholders>."""

from __future__ import annotations

import json
import os
import re
from functools import lru_cache
from typing import Any, Mapping

LANGS = ("en", "zh")


@lru_cache(maxsize=None)
def catalog(lang: str) -> dict[str, str]:
    """The prose for one language: key -> template with <placeholders>."""
    if lang not in LANGS:
        raise ValueError(f"lang: expected one of {', '.join(LANGS)}, got {lang!r}")
    # a file next to this module (package data); importlib.resources would cost the start-up 10 ms
    with open(os.path.join(os.path.dirname(__file__), "texts", f"{lang}.json"), encoding="utf-8") as f:
        return json.load(f)


def fill(template: str, params: dict[str, Any]) -> str:
    """Replace <name> placeholders; a missing one is a bug in the catalog, so it raises."""
    out = template
    for name, value in params.items():
        out = out.replace(f"<{name}>", str(value))
    if placeholders(out):
        raise KeyError(f"unfilled placeholder in {template!r}")
    return out


def placeholders(text: str) -> list[str]:
    """The <names> a template still expects."""
    return re.findall(r"<([a-z_][a-z0-9_]*)>", text)


def default_lang(env: Mapping[str, str] | None = None) -> str:
    """zh when LC_ALL, LC_MESSAGES or LANG (the first one set) starts with zh, else en."""
    env = os.environ if env is None else env
    for var in ("LC_ALL", "LC_MESSAGES", "LANG"):
        value = env.get(var)
        if value:
            return "zh" if value.lower().startswith("zh") else "en"
    return "en"
