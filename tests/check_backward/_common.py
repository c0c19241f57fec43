"""What the backward-pass documents are written with (see make.py): the trace with its gradients, numbers
rounded as a person would, the planted slips and the line each lands on, and the configurations."""
import re
from pathlib import Path

import mha

HERE = Path(__file__).resolve().parent
P = 4                                                # decimals printed everywhere


def compute(cfg):
    """The trace with its gradients, and the same layer without its mask (for the masked-entry slip)."""
    t = mha.trace(cfg)
    unmasked = mha.trace({k: v for k, v in cfg.items() if k != "causal"}) if cfg.get("causal") else None
    return t, unmasked


def grads(t):
    """The numbers a hand-worked backward pass of one head prints, as 2-D arrays (row vectors)."""
    g = t.grads
    return {"X": t.config.X[0], "W_Q": t.config.W_Q, "W_K": t.config.W_K, "W_V": t.config.W_V,
            "Q": t.Q[0], "K": t.K[0], "V": t.V[0], "S": t.S[0, 0], "A": t.A[0, 0], "O": t.O[0, 0], "dY": g.dY[0],
            "dA": g.dA[0, 0], "D": g.D[0, 0][:, None], "dS": g.dS[0, 0], "dQ": g.dQ[0], "dK": g.dK[0],
            "dV": g.dV[0], "dW_Q": g.dW_Q, "dW_K": g.dW_K, "dW_V": g.dW_V, "dX": g.dX[0]}


def num(x):
    s = f"{x:.{P}f}"
    return f"{0:.{P}f}" if float(s) == 0 else s


def respell(text, values):
    """text with its numbers replaced by values, each right-aligned in the old number's field (its leading
    spaces included, keeping one where there was one) and in its notation (torch prints a whole tensor in
    e-notation when one entry is tiny)."""
    it = iter(values)

    def one(m):
        spaces, old = m.group(1), m.group(2)
        x = float(next(it))
        new = f"{x:.{P}e}" if "e" in old else num(x)
        after_bracket = m.start() > 0 and text[m.start() - 1] == "["      # torch's "[-0.1945": no space needed
        pad = max(len(spaces) + len(old) - len(new), 1 if spaces and not after_bracket else 0)
        return " " * pad + new
    return re.sub(NUMBER, one, text)


NUMBER = r"( *)(-?\d+\.\d+(?:e[+-]\d+)?)"


def wrong(name, M, t, unmasked):
    """The slip's version of a matrix: what a person gets who drops D, transposes dK, forgets the scale, or
    lets a masked entry through."""
    g = t.grads
    if name == "missing_D":
        return t.A[0, 0] * g.dA[0, 0]
    if name == "transposed_dK":
        return g.dK[0].T
    if name == "missing_scale":
        return g.dQ[0] / t.config.effective_scale
    if name == "masked_gradient":
        return unmasked.grads.dS[0, 0]
    raise KeyError(name)


# ------------------------------------------------------------------ finding the lines

def line_of(text, needle):
    assert text.count(needle) == 1, (needle, text.count(needle))
    return text[:text.index(needle)].count("\n") + 1


def changed(M, W):
    """The rows whose printed numbers the slip changes."""
    rows = [i for i in range(M.shape[0]) if any(num(a) != num(b) for a, b in zip(M[i], W[i]))]
    assert rows, "the slip changes nothing that is printed"
    return rows


# ------------------------------------------------------------------ LaTeX-like styles (md, tex, html)

def bmatrix(M, env="bmatrix"):
    rows = [" & ".join(num(x) for x in r) + (r" \\" if i < len(M) - 1 else "") for i, r in enumerate(M)]
    return "\\begin{" + env + "}\n" + "\n".join(rows) + "\n\\end{" + env + "}"


def exact(M):
    return "\\begin{bmatrix}\n" + " \\\\\n".join(" & ".join(f"{x:g}" for x in r) for r in M) + "\n\\end{bmatrix}"


def latex_slips(doc, text, t, unmasked, kinds):
    """Plant each kind of slip on the row it changes, in a document whose matrices are bmatrix rows."""
    v = grads(t)
    steps = {"missing_D": ("dS", "backward_softmax"), "transposed_dK": ("dK", "backward_scores"),
             "missing_scale": ("dQ", "backward_scores"), "masked_gradient": ("dS", "backward_softmax")}
    for kind in kinds:
        name, step = steps[kind]
        M, W = v[name], wrong(kind, v[name], t, unmasked)
        # from the line where the matrix begins (its label is there) through the first row the slip changes:
        # unique even where a row of numbers recurs elsewhere (a row of zeros)
        i = changed(M, W)[0]
        block = bmatrix(M)
        assert text.count(block) == 1, (doc["file"], name)
        start = text.index(block)
        row_end = start + len("\n".join(block.split("\n")[:i + 2]))
        find = text[text.rfind("\n", 0, start) + 1:row_end]
        last = find.rsplit("\n", 1)
        replace = last[0] + "\n" + respell(last[1], W[i])
        doc["slips"].append({"find": find, "replace": replace, "line": line_of(text, find) + find.count("\n"),
                             "step": step, "kind": kind})


def arithmetic_slip(doc, text, needle, value, step):
    """A written-out sum whose result is off in its third decimal."""
    bad = num(float(value) + 0.01)
    doc["slips"].append({"find": needle, "replace": needle.replace(num(value), bad), "line": line_of(text, needle),
                         "step": step, "kind": "arithmetic"})


def D_sum(v, i):
    """D_i written out: the row of A times the row of dA, term by term, and the result."""
    terms = " + ".join(f"{num(a)} \\cdot {'(' + num(b) + ')' if b < 0 else num(b)}"
                       for a, b in zip(v["A"][i], v["dA"][i]) if a != 0)
    return f"{terms} = {num(v['D'][i, 0])}"


# ------------------------------------------------------------------ the documents

CFG = {
    "md_en": {"X": [[1, 0, 1], [0, 2, 1], [1, 1, 0]], "n_heads": 1,
              "W_Q": [[1, 0, 0.5], [0, 1, 0], [0.5, 0, 1]], "W_K": [[0, 1, 0], [1, 0, 0], [0, 0.5, 1]],
              "W_V": [[1, 0, 0], [0, 0, 1], [0, 1, 0]], "W_O": "none", "causal": True, "backward": {"loss": "sum"}},
    "md_zh": {"X": [[0, 1, 1], [1, 0, 2], [2, 1, 0]], "n_heads": 1,
              "W_Q": [[1, 1, 0], [0, 1, 0], [0, 0, 1]], "W_K": [[1, 0, 0], [0, 1, 1], [0, 0, 1]],
              "W_V": [[0, 1, 0], [1, 0, 0], [0, 0, 2]], "W_O": "none",
              "backward": {"target": [[0, 1, 1], [1, 0, 1], [1, 1, 0]]}},
    "tex_en": {"X": [[1, 1, 0], [0, 1, 1], [1, 0, 1]], "n_heads": 1,
               "W_Q": [[0.5, 0, 1], [0, 1, 0], [1, 0, 0]], "W_K": [[1, 0, 0], [0.5, 1, 0], [0, 0, 1]],
               "W_V": [[1, 0, 1], [0, 1, 0], [0, 0, 1]], "W_O": "none", "backward": {"loss": "sum"}},
    "tex_zh": {"X": [[2, 0, 1], [1, 1, 0], [0, 1, 1]], "n_heads": 1,
               "W_Q": [[1, 0, 0], [0, 0.5, 0], [0, 0, 1]], "W_K": [[0, 1, 0], [1, 0, 0.5], [0, 0, 1]],
               "W_V": [[1, 0, 0], [1, 1, 0], [0, 0, 1]], "W_O": "none", "causal": True,
               "backward": {"target": [[1, 0, 0], [0, 1, 0], [0, 0, 1]]}},
    "html_zh": {"X": [[1, 2, 0], [0, 1, 1], [1, 0, 1]], "n_heads": 1,
                "W_Q": [[1, 0, 0], [0, 1, 0], [0.5, 0, 1]], "W_K": [[1, 0, 0.5], [0, 1, 0], [0, 0, 1]],
                "W_V": [[0, 0, 1], [0, 1, 0], [1, 0, 0]], "W_O": "none", "backward": {"loss": "sum"}},
}
