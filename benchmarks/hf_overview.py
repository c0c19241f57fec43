"""The overview of a full-size GPT-2 (12 layers x 12 heads, random weights) on a 32-token text.

    PYTHONPATH=src python benchmarks/hf_overview.py [--dir DIR] [--dtype float32] [--formats html,text,md,json]

The model is built and saved as benchmarks/hf_explain.py does (nothing is
downloaded).  A fresh child process loads it with `mha.hub.load` (timed on its
own), then times `mha.overview` for each format from the loaded model: the 12
forward passes, the float64 traces, the summaries, and for html every head's
explanation and the page.  Target (issue 23): <= 3 s after the model has
loaded; the page under 2 MB.

Wall time and the process's CPU time are both printed: on a shared machine the
wall time includes waiting for a core.  Run with OMP_NUM_THREADS=1
OPENBLAS_NUM_THREADS=1 there, so that the CPU time is one core's work.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
import time

sys.path.insert(0, os.path.dirname(__file__))
from hf_explain import WORDS, _rss_kib, build  # noqa: E402


def measure(path: str, dtype: str, formats: list[str]) -> dict:
    import mha.hub
    import mha.overview as overview
    import torch  # noqa: F401  (the libraries are not counted)
    import transformers  # noqa: F401
    from mha.render.overview import render_overview_json, render_overview_markdown, render_overview_text
    from mha.render.overview_html import layer_fragments, render_overview_html
    base = _rss_kib("VmRSS")
    t0 = time.perf_counter()
    model, tok = mha.hub.load(path, dtype=dtype)
    out = {"dtype": dtype, "load_s": time.perf_counter() - t0, "peak_load_MiB": (_rss_kib("VmHWM") - base) / 1024}
    text = tok.decode(tok(WORDS)["input_ids"][:32])
    overview.build(model, text=text, tokenizer=tok, layers=[0])              # warm-up: first-call costs of torch
    for fmt in formats:
        frags: dict = {}
        on_trace = (lambda layer, t: frags.__setitem__(layer, layer_fragments(
            t, range(12), lang="en", precision=4, layer=layer))) if fmt == "html" else None
        t0, c0 = time.perf_counter(), time.process_time()
        ov = overview.build(model, text=text, tokenizer=tok, name="gpt2-random", on_trace=on_trace)
        t1 = time.perf_counter()
        page = {"html": lambda: render_overview_html(ov, frags), "text": lambda: render_overview_text(ov),
                "md": lambda: render_overview_markdown(ov), "json": lambda: render_overview_json(ov)}[fmt]()
        t2, c2 = time.perf_counter(), time.process_time()
        out[fmt] = {"T": ov.T, "build_s": t1 - t0, "render_s": t2 - t1, "total_s": t2 - t0, "cpu_s": c2 - c0,
                    "bytes": len(page.encode("utf-8"))}
    out["peak_MiB"] = (_rss_kib("VmHWM") - base) / 1024
    return out


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--dir", help="where the model is (or is saved; default: a temporary directory)")
    ap.add_argument("--dtype", choices=("float32", "float64"), default="float32")
    ap.add_argument("--formats", default="html,text,md,json")
    ap.add_argument("--child", action="store_true", help=argparse.SUPPRESS)
    args = ap.parse_args()
    formats = args.formats.split(",")
    if args.child:
        print(json.dumps(measure(args.dir, args.dtype, formats)))
        return 0
    with tempfile.TemporaryDirectory() as tmp:
        path = args.dir or tmp
        if not os.path.exists(os.path.join(path, "config.json")):
            build(path)
        out = subprocess.run([sys.executable, __file__, "--child", "--dir", path, "--dtype", args.dtype,
                              "--formats", args.formats], capture_output=True, text=True, check=False)
        if out.returncode:
            sys.stderr.write(out.stderr)
            return out.returncode
        r = json.loads(out.stdout.strip().splitlines()[-1])
    print(f"GPT-2 12 x 12 heads, d_model 768, random weights ({r['dtype']}); load {r['load_s']:.2f} s "
          f"(peak {r['peak_load_MiB']:.0f} MiB above the libraries)")
    for fmt in formats:
        f = r[fmt]
        print(f"--overview --format {fmt:<5} T = {f['T']}: {f['total_s']:.2f} s after load, {f['cpu_s']:.2f} s of CPU "
              f"(forward pass + traces + summaries{' + explanations' if fmt == 'html' else ''} {f['build_s']:.2f} s, "
              f"render {f['render_s']:.2f} s), {f['bytes'] / 1e6:.2f} MB"
              f"  (target <= 3 s: {'met' if f['total_s'] <= 3 else 'NOT met'})")
    print(json.dumps(r))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
