"""Per-document results of `mha check` on a set of planted-slip documents.

    PYTHONPATH=src python tests/check_heldout/measure.py tests/check_heldout
"""
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))   # tests/, for slip_sets
from slip_sets import check, hunt, load  # noqa: E402

folder = Path(sys.argv[1])
docs = load(folder)
usable = fp = 0
for d in docs:
    r = check((folder / d["file"]).read_text(encoding="utf-8"), d)
    if isinstance(r, Exception):
        print(f"{d['file']}: UNUSABLE {r}")
        continue
    usable += 1
    fp += len(r.errors)
    print(f"{d['file']}: claims={r.n_claims} errors={len(r.errors)}", [f.describe() for f in r.errors][:4])
hits, misses = hunt(folder, docs)
for m in misses:
    print("   MISS", m)
print(f"usable {usable}/{len(docs)}; false findings on clean {fp}; slips {hits}/{hits + len(misses)}")
