#!/bin/sh
# The final benchmark runs, into benchmarks/results/ (see benchmarks/README.md). Run on a quiet machine,
# from the repository root, with mha installed (pip install -e '.[test]').
set -e
out=benchmarks/results
mkdir -p "$out"
uptime
mha bench --long --json "$out/full-env-as-is.json" --plot "$out/gflops-vs-T.png" > "$out/full-env-as-is.txt"
env -u OPENBLAS_CORETYPE -u OPENBLAS_L2_SIZE mha bench --json "$out/full-openblas-own-kernel.json" \
    > "$out/full-openblas-own-kernel.txt"
python benchmarks/cutover.py --label final
python benchmarks/profile_tile.py > "$out/profile-tile.txt"
python benchmarks/startup.py > "$out/startup.txt"
uptime
