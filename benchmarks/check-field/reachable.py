"""Mark what a reader of each field document can recompute: "reachable" on every truth number, own error and slip.

    python benchmarks/check-field/reachable.py            # (re)write the flags into every truth/<id>.json
    python benchmarks/check-field/reachable.py --check    # exit 1 when a truth file's flags are missing or stale

`mha check` never executes code.  A number is REACHABLE when its exact value is determined by numbers the document
prints (inputs, weights, Q/K/V, scores, weights with values, before or after it) together with what the document
states in words (d_k, the scale, the mask, the number of heads): a careful reader with a calculator and only the
document could recompute it (rounded givens carried forward are fine).  A number computed from weights the document
draws at random and never prints (torch.manual_seed + torch.rand / nn.Linear, np.random) is not reachable, even when
the document prints it twice.  An unreachable entry carries `"unreachable": "<reason>"`.

Numbers get their flag from the rules below (the judgments, document by document, with the reasons).  An own error
is reachable when at least one of the wrong numbers on its line is; a slip takes the flag of the number its planting
changes.  The recompute scripts rewrite truth files without these flags: run this script after them.
"""

from __future__ import annotations

import argparse
import json
import re
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent

RAND = "torch.manual_seed(123) + torch.rand"
LIN = "nn.Linear weights drawn after torch.manual_seed(123)"
# the chapter on attention of "Build a Large Language Model (From Scratch)", as its translations and notebooks print
# it: the quantities are named by section (recompute/_rasbt_ch3.py)
CHAPTER = re.compile(r"^(3\.\d|stale |seed 123)")


def _index(what: str) -> tuple[int, int] | None:
    m = re.search(r"\[(\d+),(\d+)\]", what)
    return (int(m.group(1)), int(m.group(2))) if m else None


def chapter_rule(n: dict, weights_printed: bool) -> tuple[bool, str | None]:
    """The chapter prints its six inputs, never W_query / W_key / W_value (torch.rand or nn.Linear after a seed),
    but prints some scores and weights that later numbers follow from."""
    w = n["what"]
    if n["role"] == "input" or w.startswith(("inputs X", "sum of weights", "3.3 ", "3.6.2 ")):
        return True, None                   # no weights (x W = x), or a given tensor
    if w.startswith(("seed 123", "3.5 CausalAttention(seed 123) context")) and weights_printed:
        return True, None                   # the notebook prints these layers' weights (state_dict, 4 decimals)
    if w.startswith("3.4 query_2"):
        return False, f"W_query drawn by {RAND}, never printed"
    if w.startswith("3.4 attn_scores_2"):
        return False, f"the keys (inputs @ W_key, W_key drawn by {RAND}) are never printed"
    if w.startswith("3.4 attn_weights_2"):
        return True, None                   # softmax of the printed attn_scores_2 / sqrt(d_out = 2)
    if w.startswith("3.4 context_vec_2"):
        return False, f"the values (inputs @ W_value, W_value drawn by {RAND}) are never printed"
    if w.startswith("3.4 sa_v1"):
        return False, f"SelfAttention_v1's weights drawn by {RAND}, never printed"
    if w.startswith(("3.4 sa_v2(inputs)", "3.4 sa_v2 scores")):
        return False, "nn.Linear weights drawn after torch.manual_seed(789), never printed"
    if w.startswith("3.4 sa_v2 weights"):
        if (_index(w) or (0, 0))[0] == 6:
            return True, None               # the last row of the printed masked scores is a whole row
        return False, ("needs the whole row of scores; only the masked (lower-triangle) scores are printed, "
                       "from nn.Linear weights (seed 789) never printed")
    if w.startswith(("3.5 masked_simple (weights * tril)", "3.5 masked_simple_norm", "3.5 causal attn_weights",
                     "3.5 row_sums")):
        return True, None                   # the printed weights times the printed tril mask; or the printed
        #                                     masked scores / sqrt(d_out = 2)
    if w.startswith(("3.5 dropout(causal attn_weights)", "stale dropout(unmasked weights)")):
        return True, None                   # the printed dropout(ones) mask (same seed) times the printed weights
    if w.startswith(("3.5 CausalAttention(seed 123)", "stale CausalAttention", "seed 123")):
        return False, f"{LIN}, never printed"
    if w.startswith(("3.6 wrapper", "stale wrapper")):
        return False, f"the heads' {LIN}, never printed"
    if w.startswith("3.6 MultiHeadAttention"):
        return False, f"{LIN} (W_query, W_key, W_value, out_proj), never printed"
    raise SystemExit(f"no reachability rule for the chapter's number {w!r}: add one")


def number_rule(doc_id: str, n: dict, chapter: bool, weights_printed: bool) -> tuple[bool, str | None]:
    w = n["what"]
    if chapter:
        if w == "dropout(causal weights)" or w.startswith("dropout(causal weights)["):
            return True, None               # the printed dropout(ones) mask (same seed) times the printed weights
        return chapter_rule(n, weights_printed)
    if doc_id.startswith("fieldB-07-"):
        return False, "inputs and weights drawn by torch.manual_seed + randn / xavier_uniform_, never printed"
    if doc_id.startswith("fieldB-16-") and w.startswith(("context (PyTorch)", "context (repeat)")):
        return False, ("values = X @ W_value with W_value from np.random.rand, never printed (the NumPy context "
                       "it repeats is printed, not computable)")
    if doc_id.startswith("fieldE-05-") and w.startswith("P3562"):
        return False, "the sample input is elided ('...') in the document: its output cannot be recomputed"
    if doc_id.startswith("fieldE-09-") and w.startswith("masked_softmax(rand) entry"):
        return False, "scores drawn by torch.rand(2, 2, 4), never printed: only the masked 0s and a lone 1 are determined"
    if doc_id.startswith("fieldE-11-") and w.startswith("(random)"):
        return False, ("nn.Linear layers (seeded or not) and dropout masks drawn at random and never printed; or the "
                       "stale output of an empty cell")
    if doc_id.startswith("fieldE-12-") and w.startswith("(random)"):
        return False, "V drawn by torch.randn after torch.manual_seed(0), never printed"
    if doc_id.startswith("fieldH-08-") and w.startswith("(elsewhere)"):
        return False, ("its inputs (Q, K, V, the logits [4, 2, 1, 0], the counting protocol) are printed in the book's "
                       "chapter, not in this record")
    if doc_id.startswith("fieldH-08-") and w.startswith("(random)"):
        return False, "token ids sampled from a decoder with random weights, never printed"
    if doc_id.startswith("fieldH-07-") and w.startswith("(random)"):
        return False, f"W_query / W_key / W_value drawn by {RAND}, never printed (the scores are printed, the keys not)"
    if doc_id.startswith("fieldI-05-") and w.startswith("(random)"):
        return False, ("embeddings and W_Q / W_K / W_V drawn by random.gauss after random.seed(42), never printed: only "
                       "head 0's raw scores (4 decimals), Q[1], K[0], V[0] and V[1] are printed")
    if doc_id.startswith("fieldA-06-") and re.match(r"A\[[23],", w):
        i, j = _index(w) or (0, 0)
        if j <= i:
            return False, ("d_k is not stated in this document (only in the previous section), so the exact "
                           "weights of rows 2 and 3 are not determined; the printed rows fit no single scale")
    return True, None


_TOKEN = re.compile(r"\d+(?:\.\d*)?(?:[eE][-+]?\d+)?")


def slip_numbers(slip: dict, on_line: list[dict]) -> list[dict]:
    """The truth numbers on the slip's line that its planting changes (by the numeric token under the change)."""
    a, b = slip["find"], slip["replace"]
    i = 0
    while i < min(len(a), len(b)) and a[i] == b[i]:
        i += 1
    j = 0
    while j < min(len(a), len(b)) - i and a[-1 - j] == b[-1 - j]:
        j += 1
    lo, hi = i, len(a) - j
    tokens = [m.group().rstrip(".") for m in _TOKEN.finditer(a) if m.start() <= hi and m.end() >= lo]
    # a token may carry a neighbour's digits (a percent-encoded %20 before 1.83): match on its tail
    return [n for n in on_line if any(t.endswith(n["printed"].lstrip("-").rstrip(".")) for t in tokens)]


def annotate(t: dict) -> list[str]:
    """Set the flags in one truth dict; the problems found (a slip whose changed number cannot be told)."""
    doc_id = t["id"]
    chapter = any(CHAPTER.match(n["what"]) for n in t["numbers"])
    weights_printed = any(n["role"] == "input" and n["what"].startswith("seed 123") for n in t["numbers"])
    at: dict[tuple, list[dict]] = {}
    for n in t["numbers"]:
        _put(n, *number_rule(doc_id, n, chapter, weights_printed))
        at.setdefault((n.get("cell"), n["line"], bool(n.get("output"))), []).append(n)
    problems = []
    for e in t.get("own_errors", []):
        wrong = [n for n in at.get((e.get("cell"), e["line"], bool(e.get("output"))), []) if not n["correct"]]
        if not wrong:
            problems.append(f"own error at {e.get('cell')}, {e['line']}: no wrong number on its line")
            continue
        ok = any(n["reachable"] for n in wrong)
        _put(e, ok, None if ok else wrong[0]["unreachable"])
    for s in t.get("slips", []):
        changed = slip_numbers(s, at.get((s.get("cell"), s["line"], bool(s.get("output"))), []))
        flags = {n["reachable"] for n in changed}
        if len(flags) != 1:
            problems.append(f"slip {s['find']!r}: cannot tell the number it changes ({len(changed)} candidates)")
            continue
        ok = flags.pop()
        _put(s, ok, None if ok else next(n["unreachable"] for n in changed))
    return problems


def _put(entry: dict, ok: bool, why: str | None) -> None:
    entry.pop("reachable", None)
    entry.pop("unreachable", None)
    entry["reachable"] = ok
    if not ok:
        entry["unreachable"] = why


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description="Mark reachable numbers, own errors and slips in the truth files.")
    ap.add_argument("--meta", default=str(HERE), help="folder with truth/ (default: this script's folder)")
    ap.add_argument("--check", action="store_true", help="do not write; exit 1 when a file's flags are missing/stale")
    a = ap.parse_args(argv)
    stale, problems = [], 0
    for path in sorted((Path(a.meta) / "truth").glob("*.json")):
        raw = path.read_text(encoding="utf-8")
        t = json.loads(raw)
        ascii_only = json.dumps(t, ensure_ascii=True, indent=1) + "\n" == raw   # keep each file's own escaping
        for p in annotate(t):
            problems += 1
            print(f"{t['id']}: {p}")
        new = json.dumps(t, ensure_ascii=ascii_only, indent=1) + "\n"
        if new != raw:
            stale.append(t["id"])
            if not a.check:
                path.write_text(new, encoding="utf-8")
    verb = "stale or unflagged" if a.check else "rewritten"
    print(f"{len(stale)} truth file(s) {verb}" + (f": {', '.join(stale)}" if stale else "") +
          (f"; {problems} problem(s)" if problems else ""))
    return 1 if problems or (a.check and stale) else 0


if __name__ == "__main__":
    sys.exit(main())
