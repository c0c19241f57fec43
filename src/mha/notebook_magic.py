"""`%mha_check` in Jupyter: check the running notebook (its saved file) as `mha check` would.

    %load_ext mha
    %mha_check                  # the notebook this kernel runs, found from VS Code or Jupyter Server
    %mha_check other.ipynb      # any document

The running notebook's path is not something a kernel is told for sure: VS Code puts it in the variable
`__vsc_ipynb_file__`, and Jupyter Server (2 and later) in the environment variable `JPY_SESSION_NAME`.  When
neither is there, one line says so and asks for the path.  The file is read as saved, so save before checking.
"""

from __future__ import annotations

import os
from typing import Any

from .inputs import MHAInputError, UsageError

_NO_PATH = ("mha check: cannot tell which notebook this is (no __vsc_ipynb_file__, no JPY_SESSION_NAME); "
            "give its path: %mha_check path/to/notebook.ipynb")


def load_ipython_extension(ipython: Any) -> None:
    """Register %mha_check (IPython calls this on `%load_ext mha`, through mha.load_ipython_extension)."""
    ipython.register_magic_function(lambda line: mha_check(line, ipython), magic_kind="line", magic_name="mha_check")


def notebook_path(line: str, user_ns: dict) -> str | None:
    """The document to check: the path given after the magic, else the running notebook's, else None."""
    given = line.strip().strip("'\"")
    if given:
        return given
    vsc = user_ns.get("__vsc_ipynb_file__")
    if isinstance(vsc, str) and vsc:
        return vsc
    return os.environ.get("JPY_SESSION_NAME") or None


def mha_check(line: str, ipython: Any) -> None:
    """Print the report of the notebook (or of the document named on the line); errors in one line."""
    from .check.command import _check_notebook_size, check_document, read_input
    path = notebook_path(line, getattr(ipython, "user_ns", {}))
    if path is None:
        print(_NO_PATH)
        return
    try:
        text, name = read_input(path)
        if name.endswith(".ipynb"):
            _check_notebook_size(text)
        print(check_document(text, name=name).to_text(), end="")
    except (MHAInputError, UsageError) as e:
        print("mha check: " + " ".join(str(e).split()))
