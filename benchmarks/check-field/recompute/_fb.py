"""fieldB's bookkeeping for truth files: where each printed number sits, which exact value it is, slips.

Line numbering is score.py's own (`located_lines`), so truth, score and `mha check` count lines alike.  Matching is
by value: each run of printed numbers (a tensor printout across lines, a vector on one line) is matched against the
named exact arrays of the recompute script (a whole array, a row, or a single element), and what matches nothing is
listed for the script to settle by hand.
"""

from __future__ import annotations

import json
import math
import re
import sys
from pathlib import Path

import numpy as np

HERE = Path(__file__).resolve().parent
DOCS = Path("/work/field-docs")
for cand in (HERE.parent,):                                   # score.py sits beside recompute/
    if (cand / "score.py").exists():
        sys.path.insert(0, str(cand))
        break
from score import located_lines  # noqa: E402

NUM = re.compile(r"(?<![\w.])-?\d+\.\d*(?:[eE][-+]?\d+)?")


def decimals(printed: str) -> int:
    mant = re.split(r"[eE]", printed.strip().lstrip("-"))[0]
    return len(mant.split(".")[1]) if "." in mant else 0


def half_unit(printed: str) -> float:
    m = re.split(r"[eE]", printed.strip())
    scale = 10.0 ** int(m[1]) if len(m) == 2 else 1.0
    return 0.5 * 10.0 ** -decimals(printed) * scale


def rounds_to(printed: str, x: float, f32: bool = True) -> bool:
    """printed is x rounded at its own precision; f32 also accepts the last digit a float32 computation gives."""
    p = float(printed)
    slack = 2e-6 * max(1.0, abs(x)) if f32 else 0.0
    return abs(p - x) <= half_unit(printed) * (1 + 1e-9) + 1e-12 + slack


class Doc:
    def __init__(self, doc_id: str):
        self.id = doc_id
        found = [p for part in ("dev", "heldout") for p in (DOCS / part).glob(doc_id + ".*")]
        if len(found) != 1:
            raise SystemExit(f"{doc_id}: document not found under {DOCS}")
        self.path = found[0]
        self.fmt = self.path.suffix.lstrip(".")
        self.text = self.path.read_text(encoding="utf-8")
        self.lines = located_lines(self.text, self.fmt)
        self.order = sorted(self.lines, key=lambda k: (k[0] or 0, k[2], k[1]) if len(k) == 3 else (0, False, k[1]))
        self.numbers: list[dict] = []
        self.own_errors: list[dict] = []
        self.slips: list[dict] = []
        self.unmatched: list[tuple] = []
        self.done: set[tuple] = set()       # (key, column) already in numbers

    @staticmethod
    def place(k) -> dict:
        d = {"cell": k[0], "line": k[1]}
        if len(k) == 3 and k[2]:
            d["output"] = True
        return d

    def add(self, k, col: int, printed: str, exact: float, what: str, role="derived", correct=None):
        if (k, col) in self.done:
            return
        if printed.lstrip("-") not in self.lines[k]:
            raise SystemExit(f"{self.id}: {printed} not on {k}")
        if correct is None:
            correct = rounds_to(printed, exact)
        self.numbers.append({**self.place(k), "printed": printed, "exact": float(exact), "correct": bool(correct),
                             "role": role, "what": what})
        self.done.add((k, col))

    # ---- automatic matching of printed runs against named arrays
    def runs(self, keep=lambda k, s: True):
        """Runs of consecutive lines holding printed numbers: [(key, column, printed)], one run per printout."""
        out, cur, prev = [], [], None
        for k in self.order:
            s = self.lines[k]
            nums = [(m.start(), m.group()) for m in NUM.finditer(s)] if keep(k, s) else []
            contiguous = prev is not None and len(k) == len(prev) and k[0] == prev[0] and \
                (len(k) == 2 or k[2] == prev[2]) and k[1] == prev[1] + 1
            if nums and contiguous and cur and s.lstrip().startswith(("[", "-", "0", "1", "2", "3", "4", "5", "6", "7", "8", "9", "tensor([[")) \
                    and not re.match(r"\s*[A-Za-z_\u4e00-\u9fff]", s.replace("tensor", "")):
                cur.extend((k, i, p) for i, (_, p) in enumerate(nums))
            else:
                if cur:
                    out.append(cur)
                cur = [(k, i, p) for i, (_, p) in enumerate(nums)]
            prev = k
        if cur:
            out.append(cur)
        return out

    def match(self, cat: dict[str, np.ndarray], roles: dict[str, str] | None = None, keep=lambda k, s: True,
              skip_values=(), coarse=("sum of weights",), wrong: dict | None = None, min_dec=3,
              low_ok=("inputs X", "3.6.2 a (given)")):
        """Assign exact values to printed runs.  A lone number with fewer than 2 decimals is matched only against the
        arrays named in coarse (a printed "1." is a sum of weights, a "0." in code is not a claim)."""
        roles = roles or {}
        wrong = {k: np.atleast_1d(np.asarray(v, dtype=float)) for k, v in (wrong or {}).items()}
        flat = {name: np.atleast_1d(np.asarray(v, dtype=float)) for name, v in cat.items()}
        for run in self.runs(keep):
            run = [r for r in run if (r[0], r[1]) not in self.done]
            i = 0
            while i < len(run):
                best = None
                for name, arr in flat.items():
                    pieces = [(name, arr.ravel(), None)]
                    if arr.ndim == 2:
                        pieces += [(f"{name}[{r + 1}]", arr[r], r) for r in range(arr.shape[0])]
                    for pname, vec, _ in pieces:
                        n = len(vec)
                        if i + n > len(run) or (best and n <= best[2]):
                            continue
                        if name not in low_ok and name not in coarse and \
                                any(decimals(run[i + j][2]) < min_dec for j in range(n)):
                            continue
                        if all(rounds_to(run[i + j][2], vec[j]) for j in range(n)):
                            best = (pname, vec, n, name)
                if best:
                    pname, vec, n, name = best
                    shape = flat[name].shape
                    for j in range(n):
                        k, col, p = run[i + j]
                        idx = j if pname != name or len(shape) == 1 else divmod(j, shape[1])
                        label = f"{pname}[{idx + 1}]" if isinstance(idx, int) else f"{name}[{idx[0] + 1},{idx[1] + 1}]"
                        if name in wrong:      # a printout of a wrong computation: judged against the right one
                            right = wrong[name].ravel() if pname == name else wrong[name][int(pname.rsplit("[", 1)[1][:-1]) - 1]
                            self.add(k, col, p, right[j], label, correct=rounds_to(p, right[j]))
                        else:
                            self.add(k, col, p, vec[j], label, role=roles.get(name, "derived"))
                    i += n
                    continue
                # a single element anywhere in a named array
                k, col, p = run[i]
                hit = None
                for name, arr in flat.items():
                    if (decimals(p) < 2 and name not in coarse) or \
                            (decimals(p) < min_dec and name not in coarse and name not in low_ok):
                        continue
                    for idx, v in np.ndenumerate(arr):
                        if rounds_to(p, v):
                            hit = (name, idx, v)
                            break
                    if hit:
                        break
                if hit and float(p) not in skip_values:
                    name, idx, v = hit
                    self.add(k, col, p, v, f"{name}[{','.join(str(t + 1) for t in idx)}]", role=roles.get(name, "derived"))
                else:
                    self.unmatched.append((k, col, p, self.lines[k].strip()[:110]))
                i += 1

    def find(self, needle: str, nth: int = 0, output=None, cell=None):
        hits = [k for k in self.order if needle in self.lines[k] and (cell is None or k[0] == cell)
                and (output is None or (len(k) == 3 and k[2] == output))]
        if len(hits) <= nth:
            raise SystemExit(f"{self.id}: {needle!r} not found")
        return hits[nth]

    def own_error(self, k, why: str):
        self.own_errors.append({**self.place(k), "why": why})

    def mark_own_errors(self, why: dict | None = None):
        why = why or {}
        listed = {(e["cell"], e["line"], e.get("output", False)) for e in self.own_errors}
        bad: dict[tuple, list[str]] = {}
        for n in self.numbers:
            if not n["correct"] and n["role"] == "derived":
                bad.setdefault((n["cell"], n["line"], n.get("output", False)), []).append(
                    f"{n['what']} printed {n['printed']}, exact {n['exact']:.6g}")
        for key, wrong in bad.items():
            if key not in listed:
                d = {"cell": key[0], "line": key[1]}
                if key[2]:
                    d["output"] = True
                self.own_errors.append({**d, "why": why.get(key, "wrong: " + "; ".join(wrong))})

    def slip(self, find: str, replace: str, what: str):
        n = self.text.count(find)
        if n != 1:
            raise SystemExit(f"{self.id}: slip {find!r} occurs {n} times")
        planted = located_lines(self.text.replace(find, replace, 1), self.fmt)
        changed = [k for k, v in planted.items() if self.lines.get(k) != v]
        if len(changed) != 1:
            raise SystemExit(f"{self.id}: slip {find!r} changes {changed}")
        k = changed[0]
        if any((e["cell"], e["line"]) == (k[0], k[1]) for e in self.own_errors):
            raise SystemExit(f"{self.id}: slip {find!r} on an own-error line")
        if not any(n["cell"] == k[0] and n["line"] == k[1] and n.get("output", False) == (len(k) == 3 and k[2])
                   and n["role"] == "derived" for n in self.numbers):
            raise SystemExit(f"{self.id}: slip {find!r} is not on a line with a derived number")
        self.slips.append({**self.place(k), "find": find, "replace": replace, "what": what})

    def slip_at(self, k, old: str, new: str, what: str, nth: int = 0):
        """Plant old -> new on the located line k (the nth occurrence of old there): the find string is old with as
        much of the raw text around it as makes it unique."""
        t = self.text
        starts = [i for i in range(len(t)) if t.startswith(old, i)]
        mine = []
        for i in starts:
            planted = located_lines(t[:i] + new + t[i + len(old):], self.fmt)
            if planted.get(k) != self.lines.get(k) and all(planted.get(j) == v for j, v in self.lines.items() if j != k):
                mine.append(i)
        if len(mine) <= nth:
            raise SystemExit(f"{self.id}: {old!r} not on {k}")
        i = mine[nth]
        a, b = i, i + len(old)
        while t.count(t[a:b]) > 1:
            a, b = max(0, a - 4), min(len(t), b + 4)
        self.slip(t[a:b], t[a:i] + new + t[i + len(old):b], what)

    def write(self):
        out = HERE.parent / "truth" / f"{self.id}.json"
        data = {"id": self.id, "numbers": self.numbers, "own_errors": self.own_errors, "slips": self.slips}
        out.write_text(json.dumps(data, indent=1, ensure_ascii=False) + "\n", encoding="utf-8")
        bad = [n for n in self.numbers if not n["correct"]]
        print(f"{self.id}: {len(self.numbers)} numbers ({sum(n['role'] == 'derived' for n in self.numbers)} derived),"
              f" {len(bad)} not correct, {len(self.own_errors)} own error line(s), {len(self.slips)} slips,"
              f" {len(self.unmatched)} unmatched")
        for n in bad:
            print(f"  not correct: cell {n['cell']} line {n['line']}{' out' if n.get('output') else ''}: {n['what']}"
                  f" printed {n['printed']} exact {n['exact']:.6g}")
        for u in self.unmatched:
            print(f"  unmatched: {u[0]} col {u[1]}: {u[2]}   | {u[3]}")


def write_source(doc_id, repo, path, commit, fmt, lang, starts_from, held_out, what, config, extra=None):
    d = {"id": doc_id, "source": {"repo": repo, "path": path, "commit": commit}, "format": fmt, "lang": lang,
         "starts_from": starts_from, "held_out": held_out, "what": what, "config": config}
    d["draw"] = {"seed": "fieldB", "file": "candidates.json"}
    if extra:
        d.update(extra)
    (HERE.parent / "sources" / f"{doc_id}.json").write_text(json.dumps(d, indent=1, ensure_ascii=False) + "\n",
                                                           encoding="utf-8")
