"""Jupyter notebooks with nbformat: markdown cells, code cells, and their text outputs."""

from __future__ import annotations

import re
import warnings

from ...inputs import MHAInputError
from .. import labels as lb
from ..numbers import Num
from ..objects import Hint, Place
from .common import Segment, need
from .frames import unwrap_frames
from .html import read_html
from .calls import name_call_arguments
from .markdown import read_markdown
from .namedterms import name_vectors_in_terms
from .python import read_output
from .text import read_text


def read_notebook(text: str, b: "Builder") -> None:
    nbformat = need("nbformat", "nbformat")
    try:
        with warnings.catch_warnings():          # (nbformat's notes on the file's form, cells with no id: not ours)
            warnings.simplefilter("ignore")
            nb = nbformat.reads(text, as_version=4)
    except Exception as e:                     # nbformat's own errors name what is wrong with the file
        raise MHAInputError(f"doc: not a readable notebook ({type(e).__name__}: {str(e)[:120]})") from None
    for k, cell in enumerate(nb.cells, start=1):
        if not isinstance(cell, dict):
            continue
        src = _text_of(cell.get("source", ""))
        kind = cell.get("cell_type")
        if kind == "markdown":
            b.doc.cell_lines[k] = src.split("\n")
            read_markdown(name_vectors_in_terms(name_call_arguments(src)), b, 1, k)
        elif kind == "code":
            b.segment(Segment(src, 1, "code", k))
            n_src = src.count("\n") + 1
            outs = cell.get("outputs", []) if not _shell_cell(src) else []
            shown = 0                          # lines of the cell's output area above this output
            caption = None                     # what the cell printed last, when it names the weights
            for out in outs if isinstance(outs, list) else []:
                if not isinstance(out, dict):
                    continue
                body = None
                result = False
                display = None                 # display(x): the next display call of the cell's code shows x
                if out.get("output_type") == "display_data":
                    display = b.pending_displays.pop(0) if b.pending_displays else ""
                    if caption and lb.parse_label(display) is None:
                        display = caption      # print("=== Head 0 | attn_weights ===") then display(df.round(3))
                if out.get("output_type") == "stream":
                    body = _text_of(out.get("text", ""))
                elif out.get("output_type") in ("execute_result", "display_data"):
                    data = out.get("data", {})
                    data = data if isinstance(data, dict) else {}
                    body = _text_of(data["text/plain"]) if "text/plain" in data else None
                    result = out.get("output_type") == "execute_result"
                    if body is None and "text/html" in data:
                        read_html(_text_of(data["text/html"]), b, 1, k)
                        continue
                caption = _caption_name(body) if out.get("output_type") == "stream" else None
                if not body:
                    continue
                body = unwrap_frames(_PROGRESS.sub(lambda m: " " * len(m.group(0)), body))    # pandas' blocks (frames.py)
                _echoed_size(b, src, body, result, k)
                seg = Segment(body, OUTPUT_LINE(n_src) + shown, "output", k)
                shown += body.count("\n") + (not body.endswith("\n"))
                seg.result = result
                if display is not None:
                    seg.display = display
                read_output(b, seg)
        else:
            read_text(src, b, 1, k)


# a cell of shell commands and installer magics (`!pip install numpy`, `%pip install -q torch`): what it prints
# (download progress, versions, sizes) says nothing about the example
_SHELL_LINE = re.compile(r"(?:!|%%?(?:pip|conda|bash|sh|capture|system|load_ext|matplotlib|env|cd)\b)")


def _shell_cell(src: str) -> bool:
    """Every line of the cell is a shell command, an installer magic, a comment or blank (line by line: a single
    pattern over the whole cell backtracked for ever on blank lines)."""
    lines = [x.strip() for x in src.split("\n")]
    return any(lines) and all(not x or x.startswith("#") or _SHELL_LINE.match(x) for x in lines)
# a line of a progress bar in any output: pip's and rich's (`12.5/12.5 MB 2.1 MB/s eta 0:00:05`), tqdm's
# (`3/3 [00:01<00:00, 2.50it/s]`), Keras's (`1/1 [====] - 0s 20ms/step`), an installer's log
_PROGRESS = re.compile(r"^.*(?:\beta\s+(?:\d+:)?\d+:\d\d|\d\s*(?:it/s|s/it)\]|\b\d+(?:\.\d+)?\s*[kMG]i?B/s\b|"
                       r"\d+/\d+\s*\[[=>.\s]*\]|\bm?s/step\b).*$|"
                       r"^\s*(?:Collecting|Downloading|Installing collected|Requirement already|Successfully "
                       r"installed|Using cached|Defaulting to user installation)\b.*$", re.M)


def _caption_name(body: str) -> str | None:
    """The weights' name in the last line a cell printed, when that line is a caption of words alone
    (`=== Head 0 | Matriz de atenção (attn_weights) ===`): the table displayed next is those weights."""
    lines = [x.strip() for x in body.split("\n") if x.strip()]
    if not lines or re.search(r"\d\.\d|[\[\]]", lines[-1]):
        return None
    for piece in re.split(r"[|()=:]+", lines[-1]):
        r = lb.parse_label(piece.strip()) if piece.strip() else None
        if r is not None and r.nodes == ("A",):
            return piece.strip()
    return None


def _text_of(x) -> str:
    """A notebook string field: a string or a list of strings (anything else reads as nothing)."""
    if isinstance(x, str):
        return x
    if isinstance(x, list):
        return "".join(s for s in x if isinstance(s, str))
    return ""


def OUTPUT_LINE(n_src: int) -> int:
    """Outputs are located by the line inside the cell's output area (1-based, the outputs one after the other,
    as the notebook shows them), in the code cell's number."""
    return 1


_ECHO = re.compile(r"\s*([A-Za-z_]\w*)\s*")
_WHOLE = re.compile(r"\s*(\d{1,5})\s*")


def _echoed_size(b: "Builder", src: str, body: str, result: bool, cell: int) -> None:
    """A cell that only echoes a name (`d_k`) and shows a whole number (`2`): that name's value, as an assignment
    `d_k = 2` states it (the scale `scores / torch.sqrt(d_k)` then has its d_k)."""
    m, n = _ECHO.fullmatch(src), _WHOLE.fullmatch(body)
    if result and m and n:
        num = Num.parse(n.group(1), OUTPUT_LINE(src.count("\n") + 1))
        b.doc.hints.append(Hint("assign", (m.group(1), num), Place(1, cell, "output"), m.group(1)))
