"""Score an outside trial's pages and planted slips again with another checker:

    python benchmarks/check-field/rescore_trials.py SRC ROOT TRIAL...

SRC is the `src` folder of the checker to run (a frozen snapshot, or this checkout's), ROOT the folder that holds
one folder per trial (`ROOT/t229a/pages/` with the saved pages, `ROOT/t229a/slips/` with each slipped copy named
after its page: `page-a.md`, `page_s1.ipynb`, `page.s2.md`, `page_A.md`).  The pages are other people's text and are
not kept in this repository; the helper that ran a trial keeps them.  A slip is found when an error finding lands
on the line the copy changed (in a notebook, in the cell it changed) that the clean page does not have."""
import json
import os
import re
import subprocess
import sys

SRC, ROOT = sys.argv[1], sys.argv[2]
trials = sys.argv[3:]
PY = sys.executable

def run(path):
    p = subprocess.run([PY, "-m", "mha", "check", "--format", "json", os.path.abspath(path)], capture_output=True,
                       text=True, env={**os.environ, "PYTHONPATH": SRC}, timeout=300)
    try:
        d = json.loads(p.stdout)
    except Exception:
        return None
    return [(f.get("cell"), f["line"], f["printed"]) for f in d.get("findings", []) if f.get("severity") == "error"]

def page_of(slip, pages):
    base = os.path.basename(slip)
    stem, ext = os.path.splitext(base)
    for pat in (r"[-_.](?:a|b|A|B|s\d)$", r"-s\d$"):
        s2 = re.sub(pat, "", stem)
        if s2 + ext in pages:
            return s2 + ext
    return None

def changed(a_path, b_path):
    if a_path.endswith(".ipynb"):
        A, B = json.load(open(a_path)), json.load(open(b_path))
        for k, (x, y) in enumerate(zip(A["cells"], B["cells"]), start=1):
            if json.dumps(x, sort_keys=True) != json.dumps(y, sort_keys=True):
                return (k, None)
        return None
    a, b = open(a_path).read().splitlines(), open(b_path).read().splitlines()
    for k, (x, y) in enumerate(zip(a, b), start=1):
        if x != y:
            return (None, k)
    return None

for t in trials:
    d = os.path.join(ROOT, t)
    pages = set(os.listdir(f"{d}/pages"))
    clean = {p: run(f"{d}/pages/{p}") for p in sorted(pages)}
    n_err = sum(len(v or []) for v in clean.values())
    found = n = 0
    rows = []
    for s in sorted(os.listdir(f"{d}/slips")):
        p = page_of(s, pages)
        if p is None:
            continue
        ch = changed(f"{d}/pages/{p}", f"{d}/slips/{s}")
        if ch is None:
            continue
        errs = run(f"{d}/slips/{s}") or []
        base = set(clean[p] or [])
        new = [e for e in errs if e not in base]
        cell, line = ch
        hit = any((e[0] == cell) if cell is not None else (e[1] == line and e[0] is None) for e in new)
        n += 1; found += hit
        rows.append(f"  {s}: {'FOUND' if hit else 'missed'} ({'cell %s' % cell if cell else 'line %s' % line})")
    print(f"{t}: pages {len(pages)}, clean error findings {n_err}, slips found {found} of {n}")
    for p, v in sorted(clean.items()):
        print(f"  clean {p}: {'refused/none' if v is None else len(v)} errors" + (": " + "; ".join(f"{c or ''}:{l}:{pr}" for c, l, pr in v[:12]) if v else ""))
    print("\n".join(rows))
