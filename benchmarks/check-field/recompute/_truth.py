"""Bookkeeping shared by the recompute scripts: where a printed number sits, and whether it is right.

The arithmetic lives in each recompute/<id>.py (plain NumPy, the document's givens written in as numbers).  This
module only finds the line of a printed number in the saved document (as score.py and `mha check` count lines),
judges it against the exact value, and writes truth/<id>.json.

    T = Truth("fieldA-02-blueberry-qkv-vectors")
    T.num("0.577", 1 / np.sqrt(3), "s_11 / sqrt(d_k)", at=T.find("`1 / 1.732 = 0.577`"))
    T.slip("= 0.39`", "= 0.93`", "swapped digits in a weight")
    T.write()
"""

from __future__ import annotations

import json
import math
import re
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
DOCS = Path("/work/field-docs")
sys.path.insert(0, str(HERE.parent))
from score import located_lines  # noqa: E402  (one line-numbering rule for score.py and the truth files)


def decimals(printed: str) -> int:
    s = printed.strip().lstrip("+-−")
    mant = re.split(r"[eE]", s)[0]
    return len(mant.split(".")[1]) if "." in mant else 0


def value(printed: str) -> float:
    return float(printed.strip().replace("−", "-"))


def rounds_to(printed: str, x) -> bool:
    """printed equals x rounded at printed's own precision (e-notation: at its mantissa's precision).  Decimal
    arithmetic, so that values below float64's range (e-340 from a float128 printout) are judged too."""
    from decimal import Decimal
    p = Decimal(printed.strip().replace("−", "-"))
    x = Decimal(str(x))
    m = re.split(r"[eE]", printed.strip())
    scale = Decimal(10) ** int(m[1]) if len(m) == 2 else Decimal(1)
    half = Decimal("0.5") * Decimal(10) ** -decimals(printed) * scale
    return abs(p - x) <= half * (1 + Decimal("1e-9")) + Decimal("1e-15") * (scale if scale < 1 else 1)


class Truth:
    def __init__(self, doc_id: str):
        self.id = doc_id
        found = [p for part in ("dev", "heldout", "unseen", "unseenF", "unseenG", "unseenH", "unseenI", "unseenJ", "unseenK") for p in (DOCS / part).glob(doc_id + ".*")]
        if len(found) != 1:
            raise SystemExit(f"{doc_id}: document not found under {DOCS}")
        self.path = found[0]
        self.fmt = self.path.suffix.lstrip(".")
        self.text = self.path.read_text(encoding="utf-8")
        self.lines = located_lines(self.text, self.fmt)
        self.numbers: list[dict] = []
        self.own_errors: list[dict] = []
        self.slips: list[dict] = []

    # ---- places
    def find(self, needle: str, cell: int | None = None, output: bool | None = None, nth: int = 0) -> tuple:
        """The (cell, line, output) of the nth line containing needle (restricted to a cell / to outputs)."""
        hits = []
        for k, s in self.lines.items():
            c, ln, out = (k if len(k) == 3 else (None, k[1], False))
            if needle in s and (cell is None or c == cell) and (output is None or out == output):
                hits.append((c, ln, out))
        hits.sort(key=lambda h: (h[0] or 0, h[2], h[1]))
        if len(hits) <= nth:
            raise SystemExit(f"{self.id}: {needle!r} not found (cell {cell}, output {output}, nth {nth})")
        return hits[nth]

    def _line(self, at: tuple) -> str:
        c, ln, out = at
        return self.lines[(c, ln, out)] if self.fmt == "ipynb" else self.lines[(None, ln)]

    @staticmethod
    def _place(at: tuple) -> dict:
        c, ln, out = at
        d = {"cell": c, "line": ln}
        if out:
            d["output"] = True
        return d

    # ---- numbers
    def num(self, printed: str, exact: float, what: str, at: tuple, role: str = "derived",
            carried: float | None = None, correct: bool | None = None) -> None:
        """One printed number.  correct: rounds to exact, or to `carried` (the value from the rounded numbers the
        document printed before it), unless given explicitly."""
        if printed.lstrip("-−") not in self._line(at):
            raise SystemExit(f"{self.id}: {printed!r} ({what}) is not on {at}: {self._line(at)!r}")
        if correct is None:
            correct = rounds_to(printed, exact) or (carried is not None and rounds_to(printed, carried))
        ex = float(exact)
        if ex == 0.0 and str(exact) not in ("0", "0.0", "-0.0"):   # below float64's range: keep the digits
            ex = str(exact)
        self.numbers.append({**self._place(at), "printed": printed, "exact": ex, "correct": bool(correct),
                             "role": role, "what": what})

    def nums(self, printed: list[str], exact, what: str, at: tuple, carried=None, **kw) -> None:
        """Several numbers printed on one line, in order (a row of a matrix, a vector); carried: one per number."""
        for k, (p, x) in enumerate(zip(printed, list(exact))):
            c = None if carried is None else float(list(carried)[k])
            self.num(p, float(x), f"{what}[{k + 1}]", at, carried=c, **kw)

    def row(self, exact, what: str, at: tuple, last: bool = True, carried=None, **kw) -> None:
        """The numbers of one printed line, read from the line itself (in order), against exact values; a
        printout's trailing shape=/dtype=/grad_fn= and a trailing # comment are not read.  carried: per number."""
        text = re.split(r"shape=|dtype=|grad_fn=|device=", self._line(at))[0]
        if "#" in text and not text.lstrip().startswith("#"):
            text = text.split("#")[0]
        printed = re.findall(r"-?\d+\.\d*(?:[eE][-+]?\d+)?|-?\d+(?:[eE][-+]?\d+)?", text)
        printed = [p.rstrip(".") if p.endswith(".") else p for p in printed]
        exact = list(exact)
        if len(printed) < len(exact):
            raise SystemExit(f"{self.id}: {at} has {len(printed)} numbers, {len(exact)} expected: {text!r}")
        printed = printed[-len(exact):] if last else printed[:len(exact)]
        for k, (p, x) in enumerate(zip(printed, exact)):
            c = None if carried is None else float(list(carried)[k])
            self.num(p, float(x), f"{what}[{k + 1}]", at, carried=c, **kw)

    def own_error(self, at: tuple, why: str) -> None:
        self.own_errors.append({**self._place(at), "why": why})

    def mark_own_errors(self, why: dict | None = None) -> None:
        """Every line holding a derived number that is not correct is a line with an own error of the author's;
        why[(cell, line)] says what happened there (default: the wrong numbers, printed against exact)."""
        why = why or {}
        listed = {(e["cell"], e["line"]) for e in self.own_errors}
        by_line: dict[tuple, list[str]] = {}
        for n in self.numbers:
            if not n["correct"] and n["role"] == "derived":
                by_line.setdefault((n["cell"], n["line"]), []).append(f"{n['what']} {n['printed']} (exact {_g(n['exact'])})")
        for (c, ln), wrong in sorted(by_line.items(), key=lambda kv: (kv[0][0] or 0, kv[0][1])):
            if (c, ln) not in listed:
                self.own_errors.append({"cell": c, "line": ln, "why": why.get((c, ln), why.get(ln, "wrong: " + "; ".join(wrong)))})

    # ---- slips
    def slip(self, find: str, replace: str, what: str) -> None:
        """A planted slip; its place is the line its planting changes (find must occur once; for a notebook it is
        matched in the raw JSON text)."""
        n = self.text.count(find)
        if n != 1:
            raise SystemExit(f"{self.id}: slip find {find!r} occurs {n} times")
        planted = located_lines(self.text.replace(find, replace, 1), self.fmt)
        changed = [k for k, v in planted.items() if self.lines.get(k) != v]
        if len(changed) != 1:
            raise SystemExit(f"{self.id}: slip {find!r} changes {changed}")
        k = changed[0]
        at = (k[0], k[1], k[2]) if len(k) == 3 else (None, k[1], False)
        if any((e["cell"], e["line"]) == (at[0], at[1]) for e in self.own_errors):
            raise SystemExit(f"{self.id}: slip {find!r} is on a line with an own error")
        self.slips.append({**self._place(at), "find": find, "replace": replace, "what": what})

    # ---- out
    def write(self) -> None:
        out = HERE.parent / "truth" / f"{self.id}.json"
        data = {"id": self.id, "numbers": self.numbers, "own_errors": self.own_errors, "slips": self.slips}
        out.write_text(json.dumps(data, indent=1, ensure_ascii=False) + "\n", encoding="utf-8")
        bad = [n for n in self.numbers if not n["correct"]]
        print(f"{self.id}: {len(self.numbers)} numbers ({sum(n['role'] == 'derived' for n in self.numbers)} derived), "
              f"{len(bad)} not correct, {len(self.own_errors)} own error line(s), {len(self.slips)} slips -> {out.name}")
        for n in bad:
            where = f"cell {n['cell']}, " if n["cell"] is not None else ""
            print(f"  not correct: {where}line {n['line']}: {n['what']} printed {n['printed']}, exact {_g(n['exact'])}")


def close(a: float, b: float) -> bool:
    return math.isclose(a, b, rel_tol=1e-9, abs_tol=1e-12)


def _g(x) -> str:
    return f"{x:.6g}" if isinstance(x, float) else str(x)
