"""Measuring the notation matrix (tests/notation_matrix.py): what `mha check` reads and judges in each variant.

    python tests/notation_measure.py [N] [SEED]      # recall per axis over N variants, and the clean findings
"""
from __future__ import annotations

import random
import sys
import zlib

from notation_matrix import Variant, Writer, _printout, _slip, build, fmt_num, render, render_session


def variants(n: int, seed: int = 0) -> list[Variant]:
    return [build(seed * 100_003 + i) for i in range(n)]


def slips(var: Variant, rng: random.Random, per: int = 2) -> list[tuple[dict, tuple]]:
    """Up to `per` one-number slips in derived numbers: ({(item, entry): text}, (cell, line))."""
    _, places = render(var)
    keys = sorted(places)
    rng.shuffle(keys)
    out = []
    for it, j in keys[:per]:
        item = var.items[it]
        text = fmt_num(item.values[j], item.prec, item.pct)
        if var.fmt == "notebook":
            text = _notebook_text(var, it, j)
        out.append(({(it, j): _slip(text)}, places[(it, j)]))
    return out


def _notebook_text(var: Variant, it: int, j: int) -> str:
    w = Writer({})
    s = _printout(var, w, it, var.items[it])
    import re
    return re.findall(r"-?\d+\.?\d*(?:e[-+]?\d+)?", s)[j]


def measure(n: int, seed: int = 0, per: int = 2, only: dict | None = None):
    """Per variant: its axes, the clean report's errors (should be none), whether it was read, each slip found."""
    from mha.check import check_document
    from mha.inputs import MHAInputError
    rows = []
    for var in variants(n, seed):
        if only and any(var.axes()[k] != v for k, v in only.items()):
            continue
        rng = random.Random(zlib.crc32(var.name.encode()))
        text, _ = render(var)
        try:
            r = check_document(text, name=var.name)
        except MHAInputError:
            rows.append({**var.axes(), "name": var.name, "usable": False, "clean_errors": [],
                         "found": [False] * len(slips(var, rng, per))})
            continue
        row = {**var.axes(), "name": var.name, "usable": True, "claims": r.n_claims,
               "clean_errors": [f.describe() for f in r.errors], "found": []}
        for over, (cell, line) in slips(var, rng, per):
            t, _ = render(var, over)
            try:
                rs = check_document(t, name=var.name)
                hit = any(f.line == line and f.cell == cell and f.severity == "error" for f in rs.findings)
            except MHAInputError:
                hit = False
            row["found"].append(hit)
        rows.append(row)
    return rows


def measure_sessions(n: int, seed: int = 0, per: int = 2) -> list[dict]:
    """The notebook variants among the first n, each pasted as a `>>>` session in plain text (format "session"):
    rows as measure() gives them, the slips planted in the same numbers as the notebook's."""
    from mha.check import check_document
    from mha.inputs import MHAInputError
    rows = []
    for var in variants(n, seed):
        if var.fmt != "notebook":
            continue
        rng = random.Random(zlib.crc32(var.name.encode()))
        text, places = render_session(var)
        planted = [(over, places[next(iter(over))]) for over, _ in slips(var, rng, per)]
        name = var.name.replace(".ipynb", ".txt")
        row = {**var.axes(), "format": "session", "name": name, "usable": True, "clean_errors": [], "found": []}
        try:
            r = check_document(text, name=name)
            row.update(claims=r.n_claims, clean_errors=[f.describe() for f in r.errors])
        except MHAInputError:
            row["usable"] = False
        for over, (_, line) in planted:
            t, _ = render_session(var, over)
            try:
                rs = check_document(t, name=name)
                hit = any(f.line == line and f.severity == "error" for f in rs.findings)
            except MHAInputError:
                hit = False
            row["found"].append(hit)
        rows.append(row)
    return rows


def recall_by_axis(rows: list) -> dict:
    """{axis: {value: (found, planted)}}."""
    out: dict = {}
    for row in rows:
        for axis in ("start", "format", "lang", "present", "scale", "spell"):
            f, t = out.setdefault(axis, {}).get(row[axis], (0, 0))
            out[axis][row[axis]] = (f + sum(row["found"]), t + len(row["found"]))
    return out


def main(argv: list[str]) -> int:
    only = dict(a.split("=", 1) for a in argv if "=" in a)     # start=weights format=html: those variants only
    argv = [a for a in argv if "=" not in a]
    n = int(argv[0]) if argv else 120
    seed = int(argv[1]) if len(argv) > 1 else 0
    rows = measure(n, seed, only=only)
    found = sum(sum(r["found"]) for r in rows)
    planted = sum(len(r["found"]) for r in rows)
    print(f"{n} variants: usable {sum(r['usable'] for r in rows)}, clean with errors "
          f"{sum(bool(r['clean_errors']) for r in rows)}, slips found {found}/{planted}")
    for axis, vals in recall_by_axis(rows).items():
        print(f"  {axis:8s} " + "  ".join(f"{k}:{f}/{t}" for k, (f, t) in sorted(vals.items())))
    print("unusable:", " ".join(f"{i}:{r['name']}" for i, r in enumerate(rows) if not r["usable"]))
    print("missed:", " ".join(f"{i}:{r['name']}" for i, r in enumerate(rows) if r["usable"] and not all(r["found"])))
    for r in rows:
        if r["clean_errors"]:
            print("CLEAN ERRORS", r["name"], r["clean_errors"][:2])
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
