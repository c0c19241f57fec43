"""Start-up: `import mha` and `mha explain` in fresh processes, and whether they loaded numba.

    python benchmarks/startup.py [--against OTHER/src] [--runs N]

Each command runs N times in a new Python process (wall time, median).  With
--against, the same commands run from another source tree too (say main's
src/), alternating with this one, and the table gives both: the compiled pass
must leave everyday start-up unchanged.
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import time
from pathlib import Path

SRC = Path(__file__).resolve().parents[1] / "src"
COMMANDS = {
    "import mha": "import mha",
    "mha explain (worked example)": "import mha.cli; mha.cli.main(['explain', '-o', os.devnull])",
    "mha explain --format md": "import mha.cli; mha.cli.main(['explain', '--format', 'md', '-o', os.devnull])",
}


def once(code: str, src: Path) -> tuple[float, bool]:
    probe = f"import os, sys\n{code}\nprint('numba' in sys.modules)"
    env = dict(os.environ, PYTHONPATH=str(src))
    t0 = time.perf_counter()
    done = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, env=env, check=True)
    return time.perf_counter() - t0, done.stdout.strip().splitlines()[-1] == "True"


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--against", type=Path, help="another source tree to compare with (its src/ folder)")
    p.add_argument("--runs", type=int, default=9)
    args = p.parse_args(argv)
    trees = {"this tree": SRC} | ({"other": args.against} if args.against else {})
    print(f"{'command':<30} " + " ".join(f"{name + ' (ms)':>16}" for name in trees) + "  numba loaded")
    for label, code in COMMANDS.items():
        times: dict[str, list[float]] = {name: [] for name in trees}
        loaded = False
        for _ in range(args.runs):
            for name, src in trees.items():                  # alternate, so that a busy spell hits both
                t, numba = once(code, src)
                times[name].append(t)
                loaded |= numba and name == "this tree"
        print(f"{label:<30} " + " ".join(f"{statistics.median(ts) * 1e3:>16.0f}" for ts in times.values())
              + f"  {'yes' if loaded else 'no'}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
