"""mha.from_hf on tiny random Hugging Face models built in code: nothing is downloaded.

The oracle is the model itself: the output of the layer's own output projection,
captured during the same forward pass, must equal the trace's Y.  The models are
random (seeded, initializer_range 0.2 so attention is far from uniform) and the
tokenizers are trained here on a few sentences with the `tokenizers` library.
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path
from typing import Any

import numpy as np
import pytest

torch = pytest.importorskip("torch", reason="mha.from_hf needs torch: pip install -e '.[test]'")
transformers = pytest.importorskip("transformers", reason="mha.from_hf needs transformers: pip install -e '.[test]'")

import mha
from mha import hf
from mha.inputs import MHAInputError

ROOT = Path(__file__).resolve().parents[1]

SENTENCES = [
    "the cat sat on the mat",
    "the dog sat by the door and the cat watched",
    "a small bird sang in the tall tree",
    "attention weighs every token against every other token",
    "queries meet keys and the softmax turns scores into weights",
    "values are mixed by those weights into one output per token",
    "rotary embeddings turn each pair of features by an angle",
    "grouped queries share their keys and values",
    "sliding windows let a token see only its recent neighbours",
]
FAMILIES = ("gpt2", "bert", "llama", "qwen2", "mistral", "gemma")
TEXT = "the cat sat on the mat by the door"
BATCH = ["the cat sat", "a small bird sang in the tall tree"]
TOL = {"float32": 1e-5, "float64": 1e-10}


# ---------------------------------------------------------------- tiny tokenizers and models

def byte_level_tokenizer() -> Any:
    """GPT-2-like byte-level BPE (Ġ marks a space)."""
    from tokenizers import Tokenizer, decoders, models, pre_tokenizers, trainers
    tok = Tokenizer(models.BPE())
    tok.pre_tokenizer = pre_tokenizers.ByteLevel(add_prefix_space=False)
    tok.decoder = decoders.ByteLevel()
    tok.train_from_iterator(SENTENCES, trainers.BpeTrainer(
        vocab_size=400, special_tokens=["<|endoftext|>"], initial_alphabet=pre_tokenizers.ByteLevel.alphabet(),
        show_progress=False))
    return transformers.PreTrainedTokenizerFast(tokenizer_object=tok, bos_token="<|endoftext|>",
                                                eos_token="<|endoftext|>", pad_token="<|endoftext|>")


def wordpiece_tokenizer() -> Any:
    """BERT-like WordPiece (## marks a continuation), with [CLS] ... [SEP]."""
    from tokenizers import Tokenizer, decoders, models, normalizers, pre_tokenizers, processors, trainers
    tok = Tokenizer(models.WordPiece(unk_token="[UNK]"))
    tok.normalizer = normalizers.BertNormalizer(lowercase=True)
    tok.pre_tokenizer = pre_tokenizers.BertPreTokenizer()
    tok.decoder = decoders.WordPiece()
    specials = ["[PAD]", "[UNK]", "[CLS]", "[SEP]", "[MASK]"]
    tok.train_from_iterator(SENTENCES, trainers.WordPieceTrainer(vocab_size=150, special_tokens=specials,
                                                                 show_progress=False))
    tok.post_processor = processors.TemplateProcessing(
        single="[CLS] $A [SEP]",
        special_tokens=[("[CLS]", tok.token_to_id("[CLS]")), ("[SEP]", tok.token_to_id("[SEP]"))])
    return transformers.PreTrainedTokenizerFast(tokenizer_object=tok, unk_token="[UNK]", pad_token="[PAD]",
                                                cls_token="[CLS]", sep_token="[SEP]", mask_token="[MASK]")


def tiny_config(family: str, vocab_size: int) -> Any:
    """2 layers, d_model 32 (Gemma 48 with head_dim 16 and one K/V head), 4 heads, 2 K/V heads with GQA."""
    tf = transformers
    common = dict(vocab_size=vocab_size, initializer_range=0.2)
    llama_like = dict(num_hidden_layers=2, hidden_size=32, num_attention_heads=4, num_key_value_heads=2,
                      intermediate_size=64, max_position_embeddings=64, **common)
    if family == "gpt2":
        return tf.GPT2Config(n_layer=2, n_embd=32, n_head=4, n_positions=64, bos_token_id=0, eos_token_id=0,
                             **common)
    if family == "bert":
        return tf.BertConfig(num_hidden_layers=2, hidden_size=32, num_attention_heads=4, intermediate_size=64,
                             max_position_embeddings=64, pad_token_id=0, **common)
    if family == "llama":      # a scaled RoPE, so that inv_freq is not the plain 1 / base^(2i/d)
        return tf.LlamaConfig(**llama_like, rope_parameters={"rope_type": "linear", "factor": 2.0,
                                                             "rope_theta": 500.0})
    if family == "qwen2":      # layer 0 full attention, layer 1 a sliding window of 3
        return tf.Qwen2Config(**llama_like, use_sliding_window=True, sliding_window=3, max_window_layers=1)
    if family == "mistral":
        return tf.MistralConfig(**llama_like, sliding_window=3)
    if family == "gemma":      # head_dim from the config: H * head_dim = 64 != d_model = 48; MQA
        return tf.GemmaConfig(**{**llama_like, "hidden_size": 48, "num_key_value_heads": 1, "head_dim": 16})
    raise ValueError(family)


def tiny_model(family: str, tokenizer: Any, dtype: str = "float32", attn: str = "sdpa") -> Any:
    torch.manual_seed(0)
    model = transformers.AutoModel.from_config(tiny_config(family, len(tokenizer)), attn_implementation=attn)
    return model.to(getattr(torch, dtype)).eval()


@pytest.fixture(scope="module")
def tokenizers() -> dict[str, Any]:
    return {"bpe": byte_level_tokenizer(), "wordpiece": wordpiece_tokenizer()}


def tok_for(family: str, tokenizers: dict[str, Any]) -> Any:
    return tokenizers["wordpiece" if family == "bert" else "bpe"]


def parity(model: Any, layer: int, tokenizer: Any, text: Any) -> tuple[hf.LayerCapture, Any, float]:
    """The capture, the trace, and the largest |trace Y - model Y| over real (not padding) tokens."""
    cap = hf.capture(model, layer, text=text, tokenizer=tokenizer)
    t = mha.from_hf(model, layer, text=text, tokenizer=tokenizer)
    diff = float(np.abs(t.Y - cap.Y_model)[cap.valid].max())
    return cap, t, diff


# ---------------------------------------------------------------- parity with the model

@pytest.mark.parametrize("dtype", ["float32", "float64"])
@pytest.mark.parametrize("family", FAMILIES)
def test_every_layer_matches_the_model(family, dtype, tokenizers):
    tok = tok_for(family, tokenizers)
    model = tiny_model(family, tok, dtype)
    for layer in range(model.config.num_hidden_layers):
        for text in (TEXT, BATCH):
            cap, t, diff = parity(model, layer, tok, text)
            assert diff <= TOL[dtype], (family, dtype, layer, text, diff)
            assert np.abs(cap.Y_model[cap.valid]).max() > 0.1      # a real signal, not near-zero outputs
            assert t.config.n_heads == 4


@pytest.mark.parametrize("family", FAMILIES)
def test_eager_attention_matches_in_float32(family, tokenizers):
    tok = tok_for(family, tokenizers)
    model = tiny_model(family, tok, "float32", attn="eager")
    for layer in (0, 1):
        _, _, diff = parity(model, layer, tok, BATCH)
        assert diff <= 1e-5


def test_what_each_family_reads(tokenizers):
    got = {}
    for family in FAMILIES:
        tok = tok_for(family, tokenizers)
        model = tiny_model(family, tok)
        got[family] = {layer: hf.capture(model, layer, text=TEXT, tokenizer=tok).mapping for layer in (0, 1)}
    gpt2, bert = got["gpt2"][0], got["bert"][0]
    assert gpt2["causal"] is True and gpt2["W_Q"].shape == (32, 32) and gpt2["b_Q"].shape == (32,)
    assert "causal" not in bert and bert["b_O"].shape == (32,)
    llama = got["llama"][0]
    assert llama["n_kv_heads"] == 2 and llama["W_K"].shape == (32, 16) and "b_Q" not in llama
    assert llama["rope"]["style"] == "half" and llama["rope"]["dims"] == 8
    # linear scaling by 2 halves every inverse frequency of base 500
    np.testing.assert_allclose(llama["rope"]["inv_freq"], 0.5 / 500.0 ** (np.arange(0, 8, 2) / 8), rtol=1e-6)
    qwen0, qwen1 = got["qwen2"][0], got["qwen2"][1]
    assert qwen0["b_Q"].shape == (32,) and qwen0["b_K"].shape == (16,) and "b_O" not in qwen0
    assert "window" not in qwen0 and qwen1["window"] == 3
    assert got["mistral"][0]["window"] == 3 and got["mistral"][1]["window"] == 3
    gemma = got["gemma"][0]
    assert gemma["W_Q"].shape == (48, 64) and gemma["W_K"].shape == (48, 16) and gemma["W_O"].shape == (64, 48)
    assert gemma["n_kv_heads"] == 1 and "scale" not in gemma        # 1/sqrt(head_dim = 16), the default


def test_gpt2_scale_by_inverse_layer_index(tokenizers):
    tok = tokenizers["bpe"]
    torch.manual_seed(0)
    cfg = tiny_config("gpt2", len(tok))
    cfg.scale_attn_by_inverse_layer_idx = True
    model = transformers.AutoModel.from_config(cfg).double().eval()
    cap, t, diff = parity(model, 1, tok, TEXT)
    assert cap.mapping["scale"] == pytest.approx(8 ** -0.5 / 2)
    assert diff <= 1e-10


def test_padded_bert_batch(tokenizers):
    tok = tokenizers["wordpiece"]
    model = tiny_model("bert", tok, "float64")
    cap, t, diff = parity(model, 1, tok, BATCH)
    lengths = cap.valid.sum(axis=1)
    assert lengths[0] < lengths[1] == t.config.T
    np.testing.assert_array_equal(cap.mapping["key_lengths"], lengths)
    assert diff <= 1e-10
    A = t.A[0]                                                   # the short sequence: padding keys get 0
    assert (A[:, :, lengths[0]:] == 0).all() and (A[:, :, :lengths[0]] > 0).all()
    np.testing.assert_allclose(A.sum(axis=-1), 1.0, atol=1e-12)
    assert cap.model_visible is not None
    np.testing.assert_array_equal(t.visible[:, 0], cap.model_visible)


@pytest.mark.parametrize("family", ["gpt2", "llama"])
def test_causal_batch(family, tokenizers):
    tok = tokenizers["bpe"]
    model = tiny_model(family, tok, "float64")
    cap, t, diff = parity(model, 0, tok, BATCH)
    assert diff <= 1e-10
    T = t.config.T
    upper = np.triu(np.ones((T, T), dtype=bool), k=1)
    assert (t.A[:, :, upper] == 0).all()
    assert (t.A[1][:, ~upper] > 0).all()                         # the full-length sequence sees its whole past


def test_left_padded_batch_with_positions(tokenizers):
    """A left-padded batch (as for generation): the padding mask is a general mask, not key lengths."""
    tok = tokenizers["bpe"]
    model = tiny_model("llama", tok, "float64")
    short, long = tok("the cat sat")["input_ids"], tok(TEXT)["input_ids"]
    pad = len(long) - len(short)
    ids = [[0] * pad + short, long]
    am = [[0] * pad + [1] * len(short), [1] * len(long)]
    cap = hf.capture(model, 1, input_ids=ids, attention_mask=am)
    assert "mask" in cap.mapping and "key_lengths" not in cap.mapping
    t = mha.from_hf(model, 1, input_ids=ids, attention_mask=am)
    assert float(np.abs(t.Y - cap.Y_model)[cap.valid].max()) <= 1e-10
    assert t.fully_masked[0, :, :pad].all() and not t.fully_masked[0, :, pad:].any()
    # positions that skip the padding (as generation computes them) reach RoPE and still match the model
    pos = [[0] * pad + list(range(len(short))), list(range(len(long)))]
    cap2 = hf.capture(model, 1, input_ids=ids, attention_mask=am, position_ids=pos)
    np.testing.assert_array_equal(cap2.mapping["rope"]["positions"], pos)
    t2 = mha.from_hf(model, 1, input_ids=ids, attention_mask=am, position_ids=pos)
    assert float(np.abs(t2.Y - cap2.Y_model)[cap2.valid].max()) <= 1e-10
    # every rotation moved, but RoPE scores depend only on distances: the real tokens' outputs stay
    assert np.abs(t2.Qh_rope[0, :, pad:] - t.Qh_rope[0, :, pad:]).max() > 1e-2
    np.testing.assert_allclose(t2.Y[0, pad:], t.Y[0, pad:], atol=1e-12, rtol=0)


def test_models_with_heads_use_their_backbone(tokenizers):
    for family, cls in (("gpt2", transformers.GPT2LMHeadModel), ("bert", transformers.BertForMaskedLM)):
        tok = tok_for(family, tokenizers)
        torch.manual_seed(0)
        model = cls(tiny_config(family, len(tok))).double().eval()
        cap, t, diff = parity(model, 1, tok, TEXT)
        assert diff <= 1e-10 and cap.family == family


def test_sliding_window_band(tokenizers):
    tok = tokenizers["bpe"]
    model = tiny_model("mistral", tok, "float64")
    cap, t, diff = parity(model, 1, tok, TEXT)
    assert diff <= 1e-10
    T = t.config.T
    i, j = np.arange(T)[:, None], np.arange(T)[None, :]
    band = (j <= i) & (j > i - 3)
    assert (t.A[0][:, ~band] == 0).all() and (t.A[0][:, band] > 0).all()


def test_float64_rope_table_is_what_makes_1e10(tokenizers):
    """transformers computes cos/sin in float32; capture recomputes them in float64 for a float64 model."""
    tok = tokenizers["bpe"]
    model = tiny_model("llama", tok, "float64")
    seen = {}
    hook = model.layers[0].self_attn.register_forward_pre_hook(
        lambda m, a, kw: seen.update(cos=kw["position_embeddings"][0]), with_kwargs=True)
    try:
        hf.capture(model, 0, text=TEXT, tokenizer=tok)
        exact = seen["cos"]
        model(input_ids=torch.tensor([tok(TEXT)["input_ids"]]), use_cache=False)
        plain = seen["cos"]
    finally:
        hook.remove()
    gap = float((exact - plain).abs().max())
    assert 1e-9 < gap < 1e-5                                     # float32 rounding, now gone


# ---------------------------------------------------------------- token labels

def test_token_labels_are_readable(tokenizers):
    tok = tokenizers["bpe"]
    model = tiny_model("gpt2", tok)
    cap = hf.capture(model, 0, text="the cat sat", tokenizer=tok)
    raw = tok.convert_ids_to_tokens(tok("the cat sat")["input_ids"])
    assert any(r.startswith("Ġ") for r in raw)
    assert cap.tokens[0] == [r.replace("Ġ", "␣") for r in raw]
    t = mha.from_hf(model, 0, text="the cat sat", tokenizer=tok)
    assert t.config.tokens == (tuple(cap.tokens[0]),) == t.config.key_tokens
    batch = mha.from_hf(model, 0, text=BATCH, tokenizer=tok)
    assert [list(row) for row in batch.config.tokens] == hf.capture(model, 0, text=BATCH, tokenizer=tok).tokens
    assert "".join(cap.tokens[0]).replace("␣", " ") == "the cat sat"
    wp = tokenizers["wordpiece"]
    raw = wp.convert_ids_to_tokens(wp("sliding windows")["input_ids"])
    labels = hf.token_labels(wp, wp("sliding windows")["input_ids"])
    assert any(r.startswith("##") for r in raw)
    assert labels == [("·" + r[2:]) if r.startswith("##") else r for r in raw]
    assert hf.token_labels(tok, tok("\nnew line")["input_ids"])[0].startswith("↵")


def test_input_ids_without_tokenizer(tokenizers):
    tok = tokenizers["bpe"]
    model = tiny_model("llama", tok, "float64")
    ids = tok(TEXT)["input_ids"]
    cap = hf.capture(model, 1, input_ids=ids)
    assert cap.tokens is None
    t = mha.from_hf(model, 1, input_ids=torch.tensor([ids]))
    np.testing.assert_allclose(t.Y, cap.Y_model, atol=1e-10, rtol=0)


# ---------------------------------------------------------------- bad input

def test_bad_input(tokenizers):
    tok = tokenizers["bpe"]
    model = tiny_model("llama", tok)
    with pytest.raises(MHAInputError, match=r"layer: 2 is out of range; the model has 2 layers, 0\.\.1"):
        mha.from_hf(model, 2, text=TEXT, tokenizer=tok)
    with pytest.raises(MHAInputError, match="layer: -1 is out of range"):
        mha.from_hf(model, -1, text=TEXT, tokenizer=tok)
    with pytest.raises(MHAInputError, match="do not fit the model's context of 64 tokens"):
        mha.from_hf(model, 0, text=" ".join(SENTENCES), tokenizer=tok)
    with pytest.raises(MHAInputError, match="tokenizer: needed"):
        mha.from_hf(model, 0, text=TEXT)
    with pytest.raises(MHAInputError, match="give exactly one of them"):
        mha.from_hf(model, 0, text=TEXT, input_ids=[1, 2], tokenizer=tok)
    with pytest.raises(MHAInputError, match=r"token id 9999 is outside the vocabulary 0\.\.\d+"):
        mha.from_hf(model, 0, input_ids=[1, 9999])
    torch.manual_seed(0)
    other = transformers.AutoModel.from_config(transformers.GPTNeoXConfig(
        num_hidden_layers=1, hidden_size=32, num_attention_heads=4, intermediate_size=64, vocab_size=len(tok)))
    with pytest.raises(MHAInputError, match="family 'gpt_neox' .* not supported; supported families: gpt2, bert"):
        mha.from_hf(other, 0, text=TEXT, tokenizer=tok)


# ---------------------------------------------------------------- loading (the Hub, offline: tests/test_hub.py)

def test_load_from_a_saved_directory(tmp_path, tokenizers):
    tok = tokenizers["bpe"]
    model = tiny_model("qwen2", tok)
    model.save_pretrained(tmp_path)
    tok.save_pretrained(tmp_path)
    loaded, loaded_tok = hf.load(str(tmp_path), dtype="float64")
    assert next(loaded.parameters()).dtype == torch.float64 and loaded_tok is not None
    t = mha.from_hf(loaded, 1, text=TEXT, tokenizer=loaded_tok)
    cap = hf.capture(loaded, 1, text=TEXT, tokenizer=loaded_tok)
    assert float(np.abs(t.Y - cap.Y_model).max()) <= 1e-10
    # the float32 original and the float64 copy read the same weights
    np.testing.assert_array_equal(cap.mapping["W_Q"], hf.capture(model, 1, text=TEXT, tokenizer=tok).mapping["W_Q"])


def test_importing_mha_does_not_import_transformers():
    code = "import mha, mha.hf, sys; print('transformers' in sys.modules, 'torch' in sys.modules)"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120,
                         env={**__import__("os").environ, "PYTHONPATH": str(ROOT / "src")})
    assert out.stdout.split() == ["False", "False"], out.stderr


# ---------------------------------------------------------------- the example notebook

def test_real_model_notebook_executes():
    import nbformat
    from nbclient import NotebookClient
    nb = nbformat.read(ROOT / "examples" / "real_model.ipynb", as_version=4)
    NotebookClient(nb, timeout=300, kernel_name="python3", resources={"metadata": {"path": str(ROOT)}}).execute()
    outputs = [o for c in nb.cells if c.cell_type == "code" for o in c.get("outputs", [])]
    assert not [o for o in outputs if o.get("output_type") == "error"]
    printed = "".join(o.get("text", "") for o in outputs if o.get("output_type") == "stream")
    diffs = [float(x) for x in __import__("re").findall(r"largest \|Y_mha - Y_model\|: (\S+)", printed)]
    assert len(diffs) == 2 and diffs[0] < 1e-5 and diffs[1] < 1e-10
    htmls = [o["data"]["text/html"] for o in outputs if "text/html" in o.get("data", {})]
    assert len(htmls) == 2 and all("<math" in h for h in htmls) and "多头注意力" in htmls[1]
    assert "␣cat" in htmls[0] and "␣bird" in htmls[1]              # the tokens label the heatmaps


# ---------------------------------------------------------------- mha explain --model

@pytest.fixture(scope="module")
def saved(tmp_path_factory, tokenizers) -> dict[str, Path]:
    """GPT-2- and LLaMA-shaped tiny models saved with save_pretrained, each with its tokenizer."""
    out = {}
    for family in ("gpt2", "llama"):
        path = tmp_path_factory.mktemp(family)
        tok = tokenizers["bpe"]
        tiny_model(family, tok).save_pretrained(path)
        tok.save_pretrained(path)
        out[family] = path
    return out


@pytest.mark.parametrize("fmt", ["text", "md", "html"])
@pytest.mark.parametrize("family", ["gpt2", "llama"])
def test_cli_explains_a_saved_model(family, fmt, saved, run_cli, tmp_path, tokenizers):
    out = tmp_path / f"layer.{fmt}"
    code, _, err = run_cli("explain", "--model", str(saved[family]), "--layer", "1", "--head", "2",
                           "--text", "the cat sat", "--format", fmt, "--lang", "en", "-o", str(out))
    assert code == 0, err
    page = out.read_text(encoding="utf-8")
    # the numbers are the model's: the trace the CLI explained is the one from_hf gives
    model, tok = hf.load(str(saved[family]))
    t = mha.from_hf(model, 1, text="the cat sat", tokenizer=tok)
    A = t.head(1)["A"]                                            # head 2, 0-based 1
    shown = f"{A[1, 0]:.4f}"
    assert shown in page, (shown, fmt)
    if fmt != "md":                  # Markdown's matrices carry no row or column labels
        assert "␣cat" in page and "␣sat" in page                  # the tokens label the rows and columns
    assert "Head 2: scores" in page and "Head 1: scores" not in page and "Head 3: scores" not in page


def test_cli_json_and_float64(saved, run_cli, tmp_path):
    out = tmp_path / "t.json"
    code, _, err = run_cli("explain", "--model", str(saved["llama"]), "--layer", "0", "--input-ids", "5,6,7,8",
                           "--dtype", "float64", "--format", "json", "-o", str(out))
    assert code == 0, err
    back = mha.Trace.from_json(out.read_text())
    model, _ = hf.load(str(saved["llama"]), dtype="float64")
    cap = hf.capture(model, 0, input_ids=[5, 6, 7, 8])
    np.testing.assert_allclose(back.Y[0], cap.Y_model[0], atol=1e-10, rtol=0)
    assert back.config.n_kv_heads == 2 and back.config.rope is not None


@pytest.mark.parametrize("argv, message", [
    (["--layer", "2", "--text", "the cat"], "layer: 2 is out of range; the model has 2 layers, 0..1"),
    (["--layer", "0", "--head", "5", "--text", "the cat"], "--head: 5 is out of range; layer 0 has 4 heads, 1..4"),
    (["--layer", "0", "--text", " ".join(SENTENCES)], "do not fit the model's context of 64 tokens"),
    (["--layer", "0", "--input-ids", "1,99999"], "token id 99999 is outside the vocabulary"),
    (["--layer", "0"], "--model: needs --layer L and one of --text"),
    (["--layer", "0", "--text", "a", "--weights", "random"], "--model: the layer comes from the model; drop --weights"),
])
def test_cli_bad_model_input(argv, message, saved, run_cli):
    code, out, err = run_cli("explain", "--model", str(saved["gpt2"]), *argv)
    assert code == 2 and out == ""
    assert message in err and err.count("\n") == 1 and err.startswith("mha: error: ")


def test_cli_unsupported_family_and_missing_model(tmp_path, run_cli, capsys):
    torch.manual_seed(0)
    transformers.AutoModel.from_config(transformers.GPTNeoXConfig(
        num_hidden_layers=1, hidden_size=32, num_attention_heads=4, intermediate_size=64,
        vocab_size=400)).save_pretrained(tmp_path / "neox")
    capsys.readouterr()                                          # save_pretrained's progress bar
    code, _, err = run_cli("explain", "--model", str(tmp_path / "neox"), "--layer", "0", "--input-ids", "1,2")
    assert code == 2 and "family 'gpt_neox' is not supported; supported families: gpt2, bert, llama" in err
    assert err.count("\n") == 1
    code, _, err = run_cli("explain", "--model", str(tmp_path / "nowhere"), "--layer", "0", "--text", "a")
    assert code == 2 and "no such directory" in err                # more in tests/test_hub.py
    code, _, err = run_cli("explain", "--layer", "0", "--text", "a")
    assert code == 2 and "only with --model" in err
