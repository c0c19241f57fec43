"""Make docs/overview.png, the README's picture of `mha explain --overview` (a real run, random weights).

    PYTHONPATH=src python docs/overview_screenshot.py

The model is GPT-2-shaped with random weights (4 layers, 6 heads, d_model 96, initializer_range 0.2 so that
the heads attend unevenly), saved with a byte-level tokenizer trained here on a few sentences: nothing is
downloaded.  The page is made by the command line and photographed by Debian's Chromium with one cell open.
"""

from __future__ import annotations

import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
TEXT = "the cat sat on the mat because the mat was warm"


def main() -> int:
    import torch
    import transformers
    from playwright.sync_api import sync_playwright
    from tokenizers import Tokenizer, decoders, models, pre_tokenizers, trainers

    bpe = Tokenizer(models.BPE())
    bpe.pre_tokenizer = pre_tokenizers.ByteLevel(add_prefix_space=False)
    bpe.decoder = decoders.ByteLevel()
    bpe.train_from_iterator([TEXT, "a dog slept by the door", "the warm sun"], trainers.BpeTrainer(
        vocab_size=300, special_tokens=["<|endoftext|>"], initial_alphabet=pre_tokenizers.ByteLevel.alphabet(),
        show_progress=False))
    tok = transformers.PreTrainedTokenizerFast(tokenizer_object=bpe, eos_token="<|endoftext|>")
    torch.manual_seed(3)
    model = transformers.GPT2Model(transformers.GPT2Config(n_layer=4, n_head=6, n_embd=96, vocab_size=len(tok),
                                                           n_positions=64, initializer_range=0.2,
                                                           bos_token_id=0, eos_token_id=0))
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "random-gpt2-4x6"
        model.save_pretrained(path)
        tok.save_pretrained(path)
        page = Path(tmp) / "overview.html"
        subprocess.run([sys.executable, "-m", "mha", "explain", "--model", str(path), "--overview", "--text", TEXT,
                        "--format", "html", "--lang", "en", "-o", str(page)], check=True)
        with sync_playwright() as p:
            b = p.chromium.launch(executable_path="/usr/bin/chromium", headless=True, args=["--no-sandbox"])
            view = b.new_page(viewport={"width": 1180, "height": 1000})
            view.goto(page.as_uri())
            view.wait_for_selector("body[data-ready='1']")
            view.evaluate("() => { document.querySelector('.sub').textContent = document.querySelector('.sub')"
                          ".textContent.replace(/^\\S+/, 'random-gpt2-4x6'); }")   # not the temporary path
            cell = view.locator('.ov-cell[data-layer="1"][data-head="4"]')
            cell.click()
            view.wait_for_selector("#ov-panel-body > section")
            view.evaluate("() => window.scrollTo(0, 0)")
            box = cell.locator("canvas").bounding_box()
            view.mouse.move(box["x"] + box["width"] * 0.55, box["y"] + box["height"] * 0.7)
            view.screenshot(path=str(ROOT / "docs" / "overview.png"))
            b.close()
    print(ROOT / "docs" / "overview.png")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
