import json, sys
from pathlib import Path
from mha.check import check_document
from mha.inputs import MHAInputError
D = Path(sys.argv[1]); docs = json.loads((D / "manifest.json").read_text())["documents"]
def chk(text, name):
    try: return check_document(text, name=name)
    except MHAInputError as e: return e
hits = tot = usable = fp = 0
for d in docs:
    text = (D / d["file"]).read_text(encoding="utf-8")
    r = chk(text, d["file"])
    if isinstance(r, Exception):
        print(f"{d['file']}: UNUSABLE {r}"); 
    else:
        usable += 1; fp += len(r.errors)
        print(f"{d['file']}: claims={r.n_claims} errors={len(r.errors)}", [f.describe() for f in r.errors][:4])
    for s in d["slips"]:
        tot += 1
        r2 = chk(text.replace(s["find"], s["replace"]), d["file"])
        ok = not isinstance(r2, Exception) and any(f.line == s["line"] and f.cell == s.get("cell") and f.step == s["step"] and f.severity == "error" for f in r2.findings)
        hits += ok
        if not ok:
            got = [] if isinstance(r2, Exception) else [f.describe() for f in r2.errors][:3]
            print(f"   MISS line {s['line']} cell {s.get('cell')} {s['step']} {s['kind']}: {got}")
print(f"usable {usable}/{len(docs)}; false findings on clean {fp}; slips {hits}/{tot}")
