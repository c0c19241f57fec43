"""One thin view per format over the explanation model; views never compute numbers.

`explain` is the library's entry point: it builds the `Explanation` (the data,
one layer down) and returns it as an `Explained`, which adds the views as
methods.  Each view is imported only when it is asked for, so the Markdown
view never loads rich, pylatexenc or latex2mathml.
"""

from __future__ import annotations

from dataclasses import fields
from functools import wraps
from typing import IO, Any

from ..explanation import Explanation
from ..explanation import explain as _build


class Explained(Explanation):
    """An explanation with its views: text, Markdown, LaTeX, HTML, and Jupyter's rich display."""

    @classmethod
    def of(cls, ex: Explanation) -> "Explained":
        return cls(**{f.name: getattr(ex, f.name) for f in fields(ex)})

    def to_text(self, *, color: bool = False, width: int = 100) -> str:
        from .text import render_text
        return render_text(self, color=color, width=width)

    def print(self, file: IO[str] | None = None) -> None:
        """Print to a terminal with colour (plain when piped or NO_COLOR is set)."""
        from .text import print_text
        print_text(self, file=file)

    def to_markdown(self) -> str:
        from .markdown import render_markdown
        return render_markdown(self)

    def to_latex(self) -> str:
        from .latex import render_latex
        return render_latex(self)

    def to_html(self, *, standalone: bool = True) -> str:
        from .html import render_html
        return render_html(self, standalone=standalone)

    # Jupyter picks the richest of these; no JavaScript is involved.
    def _repr_html_(self) -> str:
        return self.to_html(standalone=False)

    def _repr_markdown_(self) -> str:
        return self.to_markdown()

    def __str__(self) -> str:
        return self.to_text()


@wraps(_build)
def explain(*args: Any, **kwargs: Any) -> Explained:
    return Explained.of(_build(*args, **kwargs))
