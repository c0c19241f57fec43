"""Validate the check corpus: slips are well placed, clean numbers match an independent computation.

Usage (from the repository root):

    python tests/check_corpus/validate.py                 # every document, one summary line each
    python tests/check_corpus/validate.py -v FILE ...     # list the numbers that matched nothing

Standard library and NumPy only; it does not import mha. It checks:

1. every slip's `find` occurs exactly once in the clean file, on the stated line (and, for a notebook, in the
   stated cell's source or output text on the stated line), `replace` differs, and `step` / `kind` come from the
   contract's vocabulary; a `swapped_digits` slip keeps the digits, a `dropped_sign` slip drops one minus sign
   (`-`, `−` or `&minus;`; or turns it into a space);
2. the document's `config` is computed here with a small float64 attention, and every number printed after an
   `=` or `≈` (and, with -v, every decimal number anywhere) is looked up among the inputs, the intermediates,
   their exponentials, row sums and the single products of a dot product or a weighted sum. A number matches
   when a value rounds to it at its printed precision. Numbers that an author derived from their own rounded
   predecessors do not always match; -v lists them so that each can be checked by hand.

Exit status 1 when a slip is misplaced or malformed (unmatched numbers are reported, not failed).
"""
from __future__ import annotations

import argparse
import json
import math
import re
import sys
from pathlib import Path

import numpy as np

HERE = Path(__file__).resolve().parent
STEPS = {"input", "weights", "projection", "split", "rope", "scores", "scale", "softmax", "weighted_sum",
         "concat", "output", "config"}
KINDS = {"swapped_digits", "neighbour_value", "dropped_sign", "wrong_shape", "rounded_sum", "missing_scale",
         "transposed", "arithmetic", "wrong_head", "wrong_value"}
FORMATS = {"ipynb", "md", "tex", "html", "txt"}
NUMBER = re.compile(r"(?<![\w.])[-−]?\d+(?:\.\d+)?(?:[eE][-+]?\d+)?(?!\w|\.\d)")


# --------------------------------------------------------------------------- attention (float64)

def _a(x):
    return np.asarray(x, dtype=float)


def _split(P, n):  # [B, T, n*d] -> [B, n, T, d]
    B, T, W = P.shape
    return P.reshape(B, T, n, W // n).transpose(0, 2, 1, 3)


_ROPE_TABLE = []  # cos, sin and angles of the last configuration, for the number pool


def _rotate(x, pos, spec):  # x [T, d]
    d = x.shape[-1]
    dims = spec.get("dims", d)
    if "inv_freq" in spec:
        inv = _a(spec["inv_freq"])
    else:
        inv = 1.0 / spec.get("base", 10000.0) ** (np.arange(0, dims, 2) / dims)
    ang = np.outer(_a(pos), inv)
    _ROPE_TABLE.extend([np.cos(ang).ravel(), np.sin(ang).ravel(), ang.ravel(), inv])
    c = np.cos(ang) * spec.get("attention_factor", 1.0)
    s = np.sin(ang) * spec.get("attention_factor", 1.0)
    out = x.copy()
    if spec.get("style", "half") == "half":
        h = dims // 2
        a, b = x[:, :h], x[:, h:dims]
        out[:, :h], out[:, h:dims] = a * c - b * s, b * c + a * s
    else:
        a, b = x[:, 0:dims:2], x[:, 1:dims:2]
        out[:, 0:dims:2], out[:, 1:dims:2] = a * c - b * s, b * c + a * s
    return out


def attention(cfg):
    """Every intermediate of the configuration, batch axis first; a dict of arrays."""
    out = {}
    if "X" in cfg:
        X = _a(cfg["X"])
        X = X if X.ndim == 3 else X[None]
        out["X"] = X
        H = cfg.get("n_heads") or _a(cfg["W_Q"]).shape[0]
        G = cfg.get("n_kv_heads", H)

        def project(name, n):
            W = cfg.get(name, "identity")
            if isinstance(W, str):
                return _split(X, n), X
            W = _a(W)
            out[name] = W
            if W.ndim == 3:
                heads = np.stack([X @ W[h] for h in range(n)], axis=1)
                return heads, np.concatenate(list(heads.transpose(1, 0, 2, 3)), axis=-1)
            P = X @ W
            return _split(P, n), P

        (Qh, Q), (Kh, K), (Vh, V) = project("W_Q", H), project("W_K", G), project("W_V", G)
        W_O = cfg.get("W_O", "identity")
    else:
        Q, K, V = (_a(cfg[k]) for k in "QKV")
        Q, K, V = (a if a.ndim == 3 else a[None] for a in (Q, K, V))
        H = cfg["n_heads"]
        G = cfg.get("n_kv_heads", H)
        Qh, Kh, Vh = _split(Q, H), _split(K, G), _split(V, G)
        W_O = cfg.get("W_O", "none")
    out.update(Q=Q, K=K, V=V, Qh=Qh, Kh=Kh, Vh=Vh)
    B, _, T, d_k = Qh.shape
    S_len = Kh.shape[2]
    _ROPE_TABLE.clear()
    if cfg.get("rope"):
        spec = cfg["rope"] if isinstance(cfg["rope"], dict) else {}
        qpos = spec.get("positions", list(range(S_len - T, S_len)))
        kpos = spec.get("key_positions", list(range(S_len)))
        Qh = np.stack([[_rotate(Qh[b, h], qpos, spec) for h in range(H)] for b in range(B)])
        Kh = np.stack([[_rotate(Kh[b, g], kpos, spec) for g in range(G)] for b in range(B)])
        out.update(Qh_rope=Qh, Kh_rope=Kh)
    scale = cfg.get("scale", "1/sqrt(d_k)")
    scale = {"none": 1.0, "1/d_k": 1.0 / d_k, "1/sqrt(d_k)": 1.0 / math.sqrt(d_k)}.get(scale, scale)
    scale = float(scale)
    group = [h // (H // G) for h in range(H)]
    QKt = np.stack([[Qh[b, h] @ Kh[b, group[h]].T for h in range(H)] for b in range(B)])
    S = QKt * scale
    if cfg.get("causal"):
        S = np.where(np.triu(np.ones((T, S_len), bool), 1), -np.inf, S)
    E = np.exp(S - S.max(-1, keepdims=True))
    A = E / E.sum(-1, keepdims=True)
    O = np.stack([[A[b, h] @ Vh[b, group[h]] for h in range(H)] for b in range(B)])
    Oc = np.concatenate([O[:, h] for h in range(H)], axis=-1)
    Y = Oc if isinstance(W_O, str) else Oc @ _a(W_O)
    if not isinstance(W_O, str):
        out["W_O"] = _a(W_O)
    # products that a hand computation writes out term by term
    qk_terms = np.concatenate([(Qh[b, h][:, None, :] * Kh[b, group[h]][None, :, :]).ravel()
                               for b in range(B) for h in range(H)])
    av_terms = np.concatenate([(A[b, h][:, :, None] * Vh[b, group[h]][None, :, :]).ravel()
                               for b in range(B) for h in range(H)])
    out.update(QKt=QKt, S=S, E=np.exp(S), E_shift=E, row_sum=np.exp(S).sum(-1), A=A, O=O, O_concat=Oc, Y=Y,
               qk_terms=qk_terms, av_terms=av_terms,
               constants=_a([d_k, math.sqrt(d_k), 1 / math.sqrt(d_k), scale, H, G, T, S_len]))
    if _ROPE_TABLE:
        out["rope_table"] = np.concatenate(_ROPE_TABLE)
    if not isinstance(W_O, str):
        out["o_terms"] = np.concatenate([(Oc[b][:, :, None] * _a(W_O)[None]).ravel() for b in range(B)])
    return out


# --------------------------------------------------------------------------- reading documents

def notebook_texts(raw):
    """[(cell index 1-based, 'source'|'output', text)] of a notebook's JSON text."""
    nb = json.loads(raw)
    texts = []
    for i, cell in enumerate(nb["cells"], 1):
        src = cell.get("source", "")
        texts.append((i, "source", "".join(src) if isinstance(src, list) else src))
        parts = []
        for o in cell.get("outputs", []):
            if o.get("output_type") == "stream":
                t = o.get("text", "")
            elif o.get("output_type") in ("execute_result", "display_data"):
                t = o.get("data", {}).get("text/plain", "")
            else:
                continue
            t = "".join(t) if isinstance(t, list) else t
            parts.append(t if t.endswith("\n") else t + "\n")
        if parts:
            texts.append((i, "output", "".join(parts)))
    return texts


def units(path, raw):
    """[(label, text)] pieces of the document whose lines are scanned."""
    if path.suffix == ".ipynb":
        return [(f"cell {c} {w}", t) for c, w, t in notebook_texts(raw)]
    if path.suffix == ".html":
        return [("", re.sub(r"<[^>]*>", " ", raw).replace("&amp;", "&").replace("&lt;", "<")
                 .replace("&gt;", ">").replace("&minus;", "−"))]
    return [("", raw)]


def decimals(tok):
    m = re.match(r"[-−]?\d+(?:\.(\d*))?(?:[eE]([-+]?\d+))?$", tok)
    frac = len(m.group(1) or "")
    exp = int(m.group(2) or 0)
    return frac - exp


def value(tok):
    return float(tok.replace("−", "-"))


class Pool:
    def __init__(self, arrays):
        vals = np.concatenate([np.ravel(a) for a in arrays])
        vals = vals[np.isfinite(vals)]
        self.vals = np.unique(vals)

    def match(self, tok):
        p, d = value(tok), decimals(tok)
        half = 0.5 * 10.0 ** (-d)
        lo, hi = np.searchsorted(self.vals, [p - half * (1 + 1e-9) - 1e-12, p + half * (1 + 1e-9) + 1e-12])
        if hi > lo:
            cand = self.vals[lo:hi]
            best = cand[np.argmin(np.abs(cand - p))]
            return True, 0 < d <= 5 and abs(best - p) > 0.45 * 10.0 ** (-d)  # near a rounding boundary
        return False, False


AFTER_EQ = re.compile(r"(?:=|≈|\\approx|约)")


def scan(path, raw, pool, verbose):
    after_total = after_ok = 0
    unmatched, boundary = [], []
    for label, text in units(path, raw):
        for n, line in enumerate(text.splitlines(), 1):
            m = AFTER_EQ.search(line)
            start = m.end() if m else None
            for t in NUMBER.finditer(line):
                tok = t.group()
                if "inf" in line[t.end():t.end() + 3]:
                    continue
                ok, near = pool.match(tok)
                is_decimal = "." in tok or "e" in tok.lower()
                if start is not None and t.start() >= start:
                    after_total += 1
                    after_ok += ok
                if near:
                    boundary.append((label, n, tok))
                if not ok and (is_decimal or (start is not None and t.start() >= start)):
                    unmatched.append((label, n, tok, line.strip()[:110]))
    return after_ok, after_total, unmatched, boundary


# --------------------------------------------------------------------------- slips

def check_slip(doc, slip, raw, path):
    errs = []
    find, rep = slip.get("find"), slip.get("replace")
    where = f"{doc['file']}: slip {find!r}"
    if not find or rep is None or find == rep:
        return [f"{where}: empty find or replace equal to find"]
    if "\n" in find:
        errs.append(f"{where}: find spans lines")
    if raw.count(find) != 1:
        errs.append(f"{where}: occurs {raw.count(find)} times in the file")
    if slip.get("step") not in STEPS:
        errs.append(f"{where}: step {slip.get('step')!r} not in the vocabulary")
    if slip.get("kind") not in KINDS:
        errs.append(f"{where}: kind {slip.get('kind')!r} not in the vocabulary")
    if path.suffix == ".ipynb":
        hits = [(c, w, t) for c, w, t in notebook_texts(raw) if find in t]
        if len(hits) != 1:
            errs.append(f"{where}: in {len(hits)} cell texts")
        else:
            c, w, t = hits[0]
            line = t[:t.index(find)].count("\n") + 1
            if (c, w, line) != (slip.get("cell"), slip.get("where"), slip.get("line")):
                errs.append(f"{where}: is at cell {c} {w} line {line}, manifest says cell {slip.get('cell')} "
                            f"{slip.get('where')} line {slip.get('line')}")
    elif raw.count(find) == 1:
        line = raw[:raw.index(find)].count("\n") + 1
        if line != slip.get("line"):
            errs.append(f"{where}: is on line {line}, manifest says {slip.get('line')}")
    kind = slip.get("kind")
    if kind == "swapped_digits" and sorted(re.sub(r"\D", "", find)) != sorted(re.sub(r"\D", "", rep)):
        errs.append(f"{where}: swapped_digits changes the digits")
    if kind == "dropped_sign":
        signs = [(m.start(), m.end()) for m in re.finditer(r"-|−|&minus;", find)]
        if not any(rep in (find[:a] + find[b:], find[:a] + " " + find[b:]) for a, b in signs):
            errs.append(f"{where}: dropped_sign is not one minus sign removed")
    if kind != "wrong_shape" and (NUMBER.findall(find.replace("&minus;", "−"))
                                  == NUMBER.findall(rep.replace("&minus;", "−"))):
        errs.append(f"{where}: no number changes")
    return errs


# --------------------------------------------------------------------------- main

def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("files", nargs="*", help="only these documents (file names in the manifest)")
    ap.add_argument("-v", "--verbose", action="store_true", help="list unmatched and near-boundary numbers")
    args = ap.parse_args(argv)
    manifest = json.loads((HERE / "manifest.json").read_text(encoding="utf-8"))
    docs = manifest["documents"]
    errors, n_slips = [], 0
    seen = set()
    for doc in docs:
        if args.files and doc["file"] not in {Path(f).name for f in args.files}:
            continue
        path = HERE / doc["file"]
        if doc["file"] in seen:
            errors.append(f"{doc['file']}: listed twice")
        seen.add(doc["file"])
        if not path.exists():
            errors.append(f"{doc['file']}: missing")
            continue
        if doc.get("format") not in FORMATS or path.suffix != "." + doc.get("format"):
            errors.append(f"{doc['file']}: format {doc.get('format')!r} does not fit the file name")
        if doc.get("lang") not in ("en", "zh"):
            errors.append(f"{doc['file']}: lang {doc.get('lang')!r}")
        raw = path.read_text(encoding="utf-8")
        if path.suffix == ".ipynb":
            json.loads(raw)
        slips = doc.get("slips", [])
        n_slips += len(slips)
        if len(slips) < 3:
            errors.append(f"{doc['file']}: only {len(slips)} slips")
        for s in slips:
            errors += check_slip(doc, s, raw, path)
        tr = attention(doc["config"])
        pool = Pool([a for a in tr.values()])
        ok, total, unmatched, boundary = scan(path, raw, pool, args.verbose)
        print(f"{doc['file']:48s} {doc['format']:5s} {doc['lang']}  slips {len(slips):2d}  "
              f"after =/≈: {ok}/{total} matched  unmatched decimals: {len(unmatched)}  near-boundary: {len(boundary)}")
        if args.verbose:
            for label, n, tok, line in unmatched:
                print(f"    unmatched {label} line {n}: {tok:>12s}   | {line}")
            for label, n, tok in boundary:
                print(f"    near a rounding boundary {label} line {n}: {tok}")
    print(f"{len(seen)} documents, {n_slips} slips")
    for e in errors:
        print("ERROR", e)
    return 1 if errors else 0


if __name__ == "__main__":
    sys.exit(main())
