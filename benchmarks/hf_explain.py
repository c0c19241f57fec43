"""Explaining one layer and head of a full-size GPT-2 (12 layers, d_model 768) from a local directory.

    PYTHONPATH=src python benchmarks/hf_explain.py [--dir DIR] [--layer 5] [--head 1] [--dtype float32]

The model is GPT-2's default configuration with random weights (nothing is
downloaded), saved with save_pretrained to DIR (a temporary directory by
default) together with a small byte-level tokenizer trained here.  A fresh
child process then loads it with `mha.hf.load` and times, on a 32-token text,
`mha.from_hf` (one forward pass up to the layer, the float64 trace of every
head) and the explanation of one head in text, Markdown and HTML.

Targets (issue 13): under 5 s after the model has loaded, and peak memory
within the model's size + 200 MiB.  Memory is the process's resident set
(VmHWM) above what it held before loading, so the Python, torch and
transformers libraries themselves are not counted.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import subprocess
import sys
import tempfile
import time

WORDS = ("the cat sat on the mat while the dog slept by the door and a bird sang in the tall tree "
         "as every token looked back at the tokens before it")


def _rss_kib(field: str) -> int:
    return int(re.search(rf"{field}:\s+(\d+)", open("/proc/self/status").read()).group(1))


def _reset_peak() -> None:
    with open("/proc/self/clear_refs", "w") as f:       # Linux: "5" resets VmHWM to the current RSS
        f.write("5")


def build(path: str) -> None:
    """A randomly initialised GPT-2 (default config) and a small tokenizer, saved to `path`."""
    import torch
    import transformers
    from tokenizers import Tokenizer, decoders, models, pre_tokenizers, trainers
    bpe = Tokenizer(models.BPE())
    bpe.pre_tokenizer = pre_tokenizers.ByteLevel(add_prefix_space=False)
    bpe.decoder = decoders.ByteLevel()
    bpe.train_from_iterator([WORDS], trainers.BpeTrainer(
        vocab_size=300, special_tokens=["<|endoftext|>"], initial_alphabet=pre_tokenizers.ByteLevel.alphabet(),
        show_progress=False))
    tok = transformers.PreTrainedTokenizerFast(tokenizer_object=bpe, eos_token="<|endoftext|>")
    torch.manual_seed(0)
    model = transformers.GPT2Model(transformers.GPT2Config())          # 12 layers, 768 wide, 12 heads
    model.save_pretrained(path)
    tok.save_pretrained(path)


def measure(path: str, layer: int, head: int, dtype: str) -> dict:
    """Run in a fresh process: load, then time from_hf and the explanation of one head."""
    import mha
    import mha.hf
    import torch  # noqa: F401  (imported before the baseline so that the library is not counted)
    import transformers  # noqa: F401
    base = _rss_kib("VmRSS")
    t0 = time.perf_counter()
    model, tok = mha.hf.load(path, dtype=dtype)
    load_s = time.perf_counter() - t0
    model_bytes = sum(p.numel() * p.element_size() for p in model.parameters())
    after_load = _rss_kib("VmRSS")
    peak_load = _rss_kib("VmHWM")
    ids = tok(WORDS)["input_ids"][:32]
    text = tok.decode(ids)
    _reset_peak()
    t0 = time.perf_counter()
    t = mha.from_hf(model, layer, text=text, tokenizer=tok)
    t1 = time.perf_counter()
    ex = mha.explain(t, heads=[head - 1], lang="en")
    t2 = time.perf_counter()
    sizes = {"text": len(ex.to_text()), "md": len(ex.to_markdown()), "html": len(ex.to_html())}
    t3 = time.perf_counter()
    peak_explain = _rss_kib("VmHWM")
    return {
        "T": t.config.T, "layer": layer, "head": head, "dtype": dtype,
        "model_MiB": model_bytes / 2**20, "load_s": load_s,
        "from_hf_s": t1 - t0, "explain_s": t2 - t1, "render_s": t3 - t2, "total_after_load_s": t3 - t0,
        "rss_before_load_MiB": base / 1024, "rss_after_load_MiB": after_load / 1024,
        "peak_above_base_during_load_MiB": (peak_load - base) / 1024,
        "peak_above_base_during_explain_MiB": (peak_explain - base) / 1024,
        "explain_increment_MiB": (peak_explain - after_load) / 1024,
        "output_chars": sizes,
    }


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--dir", help="where to save the model (default: a temporary directory)")
    ap.add_argument("--layer", type=int, default=5)
    ap.add_argument("--head", type=int, default=1, help="1-based, as the headings count")
    ap.add_argument("--dtype", choices=("float32", "float64"), default="float32")
    ap.add_argument("--child", action="store_true", help=argparse.SUPPRESS)
    args = ap.parse_args()
    if args.child:
        print(json.dumps(measure(args.dir, args.layer, args.head, args.dtype)))
        return 0
    with tempfile.TemporaryDirectory() as tmp:
        path = args.dir or tmp
        if not os.path.exists(os.path.join(path, "config.json")):
            t0 = time.perf_counter()
            build(path)
            print(f"built and saved a random GPT-2 to {path} in {time.perf_counter() - t0:.1f} s", file=sys.stderr)
        out = subprocess.run([sys.executable, __file__, "--child", "--dir", path, "--layer", str(args.layer),
                              "--head", str(args.head), "--dtype", args.dtype],
                             capture_output=True, text=True, check=False)
        if out.returncode:
            sys.stderr.write(out.stderr)
            return out.returncode
        r = json.loads(out.stdout.strip().splitlines()[-1])
    budget = r["model_MiB"] + 200
    peak = max(r["peak_above_base_during_load_MiB"], r["peak_above_base_during_explain_MiB"])
    print(f"GPT-2 12 x 768 ({r['dtype']}, {r['model_MiB']:.0f} MiB of weights), layer {r['layer']}, head {r['head']}, "
          f"T = {r['T']} tokens")
    print(f"load                 {r['load_s']:.2f} s")
    print(f"from_hf              {r['from_hf_s']:.3f} s   (forward pass to the layer + float64 trace)")
    print(f"explain one head     {r['explain_s']:.3f} s")
    print(f"render text/md/html  {r['render_s']:.3f} s")
    print(f"after load, total    {r['total_after_load_s']:.2f} s   (target < 5 s: "
          f"{'met' if r['total_after_load_s'] < 5 else 'NOT met'})")
    print(f"peak memory above the libraries: {peak:.0f} MiB (load {r['peak_above_base_during_load_MiB']:.0f}, "
          f"explain {r['peak_above_base_during_explain_MiB']:.0f}; explain adds {r['explain_increment_MiB']:.0f}) "
          f"(target <= model + 200 = {budget:.0f} MiB: {'met' if peak <= budget else 'NOT met'})")
    print(json.dumps(r))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
