"""`mha check` on damaged documents written by others: the field trial's texts (dev, set E, set F; never the held-out
sets) mutated at random, and generated text.  Whatever it reads, check answers with a report or one MHAInputError,
never another exception.  The texts are not in the repository (benchmarks/check-field/README.md says where they
are kept); the mutants that fail are written to --keep (outside the repository: they hold the authors' text).

    PYTHONPATH=src python benchmarks/check_fuzz_field.py --docs /work/field-docs --n 3000 --budget-s 2400

One line per failure (the exception and where it was raised), and a result line:
`mutants N (documents D, generated G), reports R, clear errors E, tracebacks T (distinct K), slow S`.
A mutant is an excerpt of a document (a window of lines, or all of it) with one to four kinds of damage.
"""

from __future__ import annotations

import argparse
import json
import random
import signal
import sys
import time
import traceback
from pathlib import Path

SETS = ("dev", "unseen", "unseenF")          # the held-out sets (heldout, unseenG) are never read
SLOW_S = 60

JUNK = ["[", "]", "[[", "]]", "(", ")", "{", "}", "$", "$$", "\\[", "\\]", "\\begin{bmatrix}", "\\end{bmatrix}",
        "\\begin{pmatrix}", "&", "\\\\", "|", "\n|---|---|\n", "```", "```python\n", "<table>", "</td>", "<tr>",
        "\\frac{", "\\sqrt{", "^{", "_", "=", "≈", "×", "·", "/", "…", "⋮", "tensor([", "array([", "])", "\n>>> ",
        "In [3]:", "Out[3]:", "# B=0", "softmax(", "=\n", "\x00", "\ufeff", "\u200b", "\r", "\t", "\\", "%"]
NUMBERS = ["3.4e+388", "1e999", "-1e999", "1e-400", "0e400", "nan", "NaN", "-inf", "inf", "9" * 400, "0.", "-0",
           "1e", "1.2.3", "−0.5", "１.５", "1_000", "0x1F", "4e-324", "1.7976931348623157e308"]


def _span(rng: random.Random, text: str, most: int = 400) -> tuple[int, int]:
    a = rng.randrange(len(text) + 1)
    return a, min(len(text), a + rng.randint(1, most))


def damage(rng: random.Random, text: str) -> str:
    """One kind of damage, chosen at random."""
    kind = rng.choice(("delete", "duplicate", "insert", "number", "truncate", "encoding", "lines", "swap"))
    if not text:
        return rng.choice(JUNK + NUMBERS)
    a, b = _span(rng, text)
    if kind == "delete":
        return text[:a] + text[b:]
    if kind == "duplicate":
        return text[:b] + text[a:b] + text[b:]
    if kind == "insert":
        return text[:a] + rng.choice(JUNK) * rng.choice((1, 1, 2, 50)) + text[a:]
    if kind == "number":
        digits = [i for i, ch in enumerate(text) if ch.isdigit()]
        if not digits:
            return text + rng.choice(NUMBERS)
        i = rng.choice(digits)
        j = i
        while j < len(text) and (text[j].isdigit() or text[j] in ".eE+-"):
            j += 1
        return text[:i] + rng.choice(NUMBERS) + text[j:]
    if kind == "truncate":
        return text[:a]
    if kind == "encoding":                   # a span read in the wrong encoding, or bytes that are no text
        piece = text[a:b]
        how = rng.randrange(3)
        if how == 0:
            piece = piece.encode("utf-8", "surrogatepass").decode("latin-1")   # a lone surrogate from earlier damage stays bytes
        elif how == 1:
            piece = piece.encode("utf-8", "replace").decode("cp1252", "replace")
        else:
            piece = "\udcff" + piece + "\ufffd"
        return text[:a] + piece + text[b:]
    if kind == "lines":                      # lines shuffled in a window
        lines = text.split("\n")
        i = rng.randrange(len(lines))
        window = lines[i:i + rng.randint(2, 12)]
        rng.shuffle(window)
        return "\n".join(lines[:i] + window + lines[i + len(window):])
    c, d = _span(rng, text, 80)              # swap two spans
    if c < a:
        a, b, c, d = c, d, a, b
    if c < b:
        return text
    return text[:a] + text[c:d] + text[b:c] + text[a:b] + text[d:]


def excerpt(rng: random.Random, text: str) -> str:
    """All of a document, or a window of its lines (an ipynb is cut as text: its JSON breaks)."""
    if rng.random() < 0.35:
        return text
    lines = text.split("\n")
    i = rng.randrange(len(lines))
    return "\n".join(lines[i:i + rng.randint(10, 150)])


def broken_notebook(rng: random.Random, text: str) -> str:
    """A notebook damaged inside a cell (JSON stays JSON), or its JSON broken."""
    try:
        nb = json.loads(text)
        cells = nb["cells"]
        cell = rng.choice(cells)
        src = cell["source"] if isinstance(cell["source"], str) else "".join(cell["source"])
        cell["source"] = damage(rng, src) if rng.random() < 0.7 else rng.choice([None, 3, [1, 2], {"a": 1}, ""])
        if rng.random() < 0.2:
            cell["outputs"] = rng.choice([None, "x", [{"output_type": "stream", "text": damage(rng, src)}],
                                          [{"output_type": "execute_result", "data": {"text/plain": 5}}]])
        return json.dumps(nb, ensure_ascii=rng.random() < 0.5)
    except Exception:
        return damage(rng, text)


def generated(rng: random.Random) -> str:
    """Text from a small grammar of what worked examples print."""
    def num() -> str:
        return rng.choice([f"{rng.uniform(-9, 9):.{rng.randint(0, 4)}f}", rng.choice(NUMBERS), str(rng.randint(0, 9))])

    def matrix() -> str:
        r, c = rng.randint(0, 5), rng.randint(0, 5)
        rows = [[num() for _ in range(c)] for _ in range(r)]
        style = rng.randrange(4)
        if style == 0:
            return "[" + ", ".join("[" + ", ".join(x) + "]" for x in rows) + "]"
        if style == 1:
            return "\\begin{bmatrix}" + " \\\\ ".join(" & ".join(x) for x in rows) + "\\end{bmatrix}"
        if style == 2:
            return "tensor([" + ",\n        ".join("[" + ", ".join(x) + "]" for x in rows) + "])"
        return "\n".join("| " + " | ".join(x) + " |" for x in rows)

    names = ["X", "Q", "K", "V", "W_Q", "S", "A", "O", "Y", "scores", "weights", "q1", "k_2", "注意力权重", "softmax"]
    parts = []
    for _ in range(rng.randint(1, 25)):
        parts.append(rng.choice([f"{rng.choice(names)} = {matrix()}", f"$$ {rng.choice(names)} = {matrix()} $$",
                                 f"{num()} {rng.choice(['+', '×', '/', '='])} {num()} = {num()}",
                                 f"# {rng.choice(names)}", f"d_k = {num()}", rng.choice(JUNK), matrix()]))
    return "\n".join(parts)


class Slow(Exception):
    pass


def _alarm(signum, frame):
    raise Slow()


def run_one(check, err_type, text: str, name: str) -> str:
    """'report', 'error' (one clear MHAInputError), 'slow', or the traceback's signature."""
    signal.alarm(SLOW_S)
    try:
        r = check(text, name=name)
        r.to_text()
        r.to_json()
        return "report"
    except err_type as e:
        msg = str(e).strip()
        return "error" if msg and "\n" not in msg else f"MHAInputError not one line: {msg[:80]!r}"
    except Slow:
        return "slow"
    except Exception as e:                   # noqa: BLE001 - the point is to see every one
        tb = traceback.extract_tb(e.__traceback__)[-1]
        return f"{type(e).__name__} at {Path(tb.filename).name}:{tb.lineno} ({tb.name}): {str(e)[:80]}"
    finally:
        signal.alarm(0)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--docs", default="/work/field-docs")
    ap.add_argument("--n", type=int, default=3000)
    ap.add_argument("--seed", type=int, default=18)
    ap.add_argument("--budget-s", type=float, default=3600)
    ap.add_argument("--generated", type=float, default=0.15, help="share of generated texts")
    ap.add_argument("--keep", default="/tmp/check-fuzz-failures")
    args = ap.parse_args(argv)
    from mha.check import check_document
    from mha.inputs import MHAInputError
    signal.signal(signal.SIGALRM, _alarm)
    docs = sorted(p for s in SETS for p in (Path(args.docs) / s).glob("*") if p.is_file())
    docs = [p for p in docs if not p.name.startswith("fieldG")]
    if not docs:
        print(f"no documents under {args.docs}/{{{','.join(SETS)}}}", file=sys.stderr)
        return 2
    texts = {p.name: p.read_text(encoding="utf-8", errors="replace") for p in docs}
    rng = random.Random(args.seed)
    keep = Path(args.keep)
    counts = {"report": 0, "error": 0, "slow": 0}
    failures: dict[str, int] = {}
    n_docs = n_gen = 0
    t0 = time.monotonic()
    for i in range(args.n):
        if time.monotonic() - t0 > args.budget_s:
            break
        if rng.random() < args.generated:
            name, text = f"generated-{i}.md", generated(rng)
            n_gen += 1
        else:
            name = rng.choice(sorted(texts))
            text = texts[name]
            if name.endswith(".ipynb") and rng.random() < 0.6:
                text = broken_notebook(rng, text)
            else:
                text = excerpt(rng, text)
            for _ in range(rng.randint(1, 4)):
                text = damage(rng, text)
            n_docs += 1
        got = run_one(check_document, MHAInputError, text, name)
        if got in counts:
            counts[got] += 1
            continue
        failures[got] = failures.get(got, 0) + 1
        if failures[got] == 1:
            keep.mkdir(parents=True, exist_ok=True)
            (keep / f"{i}-{name}").write_text(text, encoding="utf-8", errors="surrogatepass")
            print(f"mutant {i} ({name}): {got}", flush=True)
    n = n_docs + n_gen
    print(f"mutants {n} (documents {n_docs}, generated {n_gen}), reports {counts['report']}, clear errors "
          f"{counts['error']}, tracebacks {sum(failures.values())} (distinct {len(failures)}), slow {counts['slow']}"
          f" (over {SLOW_S} s); {time.monotonic() - t0:.0f} s")
    return 1 if failures else 0


if __name__ == "__main__":
    raise SystemExit(main())
