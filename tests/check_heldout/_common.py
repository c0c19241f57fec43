"""The helpers the held-out documents are written with (see make.py): exact numbers rounded as a person
would, LaTeX and table builders, and `add`, which records a document and its planted slips."""
import math
from pathlib import Path

import numpy as np

HERE = Path(__file__).resolve().parent
DOCS = []


def softmax(S):
    S = np.asarray(S, float)
    m = np.where(np.isfinite(S), S, -np.inf).max(axis=-1, keepdims=True)
    E = np.exp(S - m)
    return E / E.sum(axis=-1, keepdims=True)


def attn(Q, K, V, scale, causal=False):
    S = (Q @ K.T) * scale
    if causal:
        S = np.where(np.tril(np.ones(S.shape, bool)), S, -np.inf)
    A = softmax(S)
    return Q @ K.T, S, A, A @ V


def f(x, d):
    if math.isinf(x):
        return "-inf" if x < 0 else "inf"
    s = f"{x:.{d}f}"
    return f"{0:.{d}f}" if float(s) == 0 else s


def g(x):
    """A short exact input number: 1, -0.5, 2.25."""
    s = f"{x:.4f}".rstrip("0").rstrip(".")
    return "0" if s == "-0" else s


def swap(s):
    """Swap the last two different adjacent digits (16.9188 -> 16.9818): swapping "88" plants nothing."""
    for i in range(len(s) - 2, -1, -1):
        if s[i].isdigit() and s[i + 1].isdigit() and s[i] != s[i + 1]:
            return s[:i] + s[i + 1] + s[i] + s[i + 2:]
    raise ValueError(s)


def row(v, d, sep=", "):
    return sep.join(f(x, d) for x in v)


def grow(v, sep=", "):
    return sep.join(g(x) for x in v)


def tex(M, d=None, env="bmatrix"):
    body = r" \\ ".join(" & ".join(g(x) if d is None else f(x, d) for x in r) for r in M)
    return rf"\begin{{{env}}} {body} \end{{{env}}}"


def amp(M, d=None):
    return r" \\ ".join(" & ".join(g(x) if d is None else f(x, d) for x in r) for r in M)


def texinf(M, d):
    body = r" \\ ".join(" & ".join(r"-\infty" if math.isinf(x) else f(x, d) for x in r) for r in M)
    return body


def add(file, fmt, lang, config, notes, text, slips, cells=None):
    """slips: (find, replace, step, kind[, cell, where]); the line is found in the text."""
    out = []
    for s in slips:
        find, rep, step, kind = s[:4]
        assert find != rep, (file, find)          # a slip must change the text
        if cells is None:
            assert text.count(find) == 1, (file, find, text.count(find))
            line = text[:text.index(find)].count("\n") + 1
            out.append({"find": find, "replace": rep, "line": line, "step": step, "kind": kind})
        else:
            cell, where = s[4], s[5]
            hits = [(i, w) for i, c in enumerate(cells, 1) for w in ("source", "output") if find in c[w]]
            assert len(hits) == 1 and hits[0] == (cell, where), (file, find, hits)
            t = cells[cell - 1][where]
            line = t[:t.index(find)].count("\n") + 1
            out.append({"find": find, "replace": rep, "line": line, "cell": cell, "where": where,
                        "step": step, "kind": kind})
    DOCS.append({"file": file, "format": fmt, "lang": lang, "config": config, "notes": notes, "slips": out})
    if cells is None:
        (HERE / file).write_text(text, encoding="utf-8")


def notebook(file, cells_src, config, notes, slips, lang="en"):
    import nbformat
    from nbclient import NotebookClient
    nb = nbformat.v4.new_notebook()
    for kind, src in cells_src:
        nb.cells.append(nbformat.v4.new_markdown_cell(src) if kind == "md" else nbformat.v4.new_code_cell(src))
    nb.metadata["kernelspec"] = {"name": "python3", "display_name": "Python 3", "language": "python"}
    NotebookClient(nb, timeout=120, kernel_name="python3").execute()
    for c in nb.cells:
        c.metadata = {}
    cells = []
    for c in nb.cells:
        out = ""
        for o in c.get("outputs", []):
            txt = o.get("text") if o["output_type"] == "stream" else o.get("data", {}).get("text/plain", "")
            out += txt if txt.endswith("\n") else txt + "\n"
        cells.append({"source": c.source, "output": out})
    add(file, "ipynb", lang, config, notes, None, [s for s in slips if s[0] != "?"], cells=cells)
    nbformat.write(nb, str(HERE / file))
    return cells
