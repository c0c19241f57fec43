"""Formulas drawn as images: the TeX inside the address of a rendering service.

Blog posts and READMEs often show a matrix as `![..](https://latex.codecogs.com/svg.latex?<url-encoded TeX>)`
(or Google Charts' `chl=`, GitHub's `render/math?math=`).  The TeX is decoded and read as math, like `$$ ... $$`.
"""

from __future__ import annotations

import re
from urllib.parse import parse_qs, unquote, urlsplit

_SERVICES = re.compile(r"(?:latex\.codecogs\.com|chart\.googleapis\.com/chart|render\.githubusercontent\.com/"
                       r"render/math|i\.upmath\.me|latex\.vercel\.app|math\.now\.sh)", re.I)
# rendering options written before the formula: \bg_white, \dpi{120}, \fn_cm, \large, \inline
_OPTIONS = re.compile(r"\\(?:bg_\w+|bg\{\w+\}|dpi\{\d+\}|fn_\w+|inline|large|Large|LARGE|huge|small|tiny|normalsize)\b")
MAX_TEX = 20_000


def tex_of_image(url: str) -> str | None:
    """The TeX a formula image's address carries, or None when the address is not a TeX rendering service."""
    if not url or not _SERVICES.search(url) or len(url) > 4 * MAX_TEX:
        return None
    parts = urlsplit(url)
    query = parse_qs(parts.query, keep_blank_values=True)
    for key in ("chl", "math", "tex", "formula"):
        if query.get(key):
            tex = query[key][0]
            break
    else:
        tex = unquote(parts.query) if parts.query else unquote(parts.path.rsplit("/", 1)[-1])
        tex = re.sub(r"^(?:\w+\.latex|png|svg|gif)\?", "", tex)
    tex = _OPTIONS.sub(" ", tex).strip()
    if "%" in tex[:200] and re.search(r"%[0-9A-Fa-f]{2}", tex):
        tex = unquote(tex)                    # encoded twice
    return tex[:MAX_TEX] if re.search(r"\d", tex) else None
