"""mha.hub: a model from a directory, the Hub cache or the Hub; offline switches; one-line failures; float64.

No test reaches the network.  HF_HUB_OFFLINE=1 is set for the session (conftest.py).  Where a test needs the
Hub online, huggingface_hub's HTTP client gets a transport made here: one that raises a connection error, or
one that answers 404 with the Hub's error codes.  A model "in the cache" is laid out here as the cache lays it
out (models--owner--name/refs/main and snapshots/<commit>/).
"""

from __future__ import annotations

import socket
from pathlib import Path

import pytest

torch = pytest.importorskip("torch", reason="mha.hub needs torch: pip install -e '.[test]'")
transformers = pytest.importorskip("transformers", reason="mha.hub needs transformers: pip install -e '.[test]'")
httpx2 = pytest.importorskip("httpx2", reason="the stand-in Hub uses huggingface_hub's HTTP client (httpx2)")
import huggingface_hub  # noqa: E402
from huggingface_hub import constants  # noqa: E402
from huggingface_hub.utils import _http  # noqa: E402

from mha import hub  # noqa: E402
from mha.inputs import MHAInputError  # noqa: E402
from test_hf import FAMILIES, TEXT, tiny_config, tiny_model, tok_for  # noqa: E402  (the tiny models)

REPO = "mha-test/tiny-gpt2"
COMMIT = "0123456789abcdef0123456789abcdef01234567"


@pytest.fixture(scope="module")
def tokenizers():
    from test_hf import byte_level_tokenizer, wordpiece_tokenizer
    return {"bpe": byte_level_tokenizer(), "wordpiece": wordpiece_tokenizer()}


@pytest.fixture
def cache(tmp_path, monkeypatch) -> Path:
    """An empty Hugging Face cache for this test (huggingface_hub reads the constant at each call)."""
    root = tmp_path / "hub-cache"
    root.mkdir()
    monkeypatch.setattr(constants, "HF_HUB_CACHE", str(root))
    return root


def put_in_cache(cache: Path, repo: str, model, tok) -> Path:
    """Save a model and tokenizer where the cache keeps repo's main branch."""
    folder = cache / ("models--" + repo.replace("/", "--"))
    snap = folder / "snapshots" / COMMIT
    model.save_pretrained(snap)
    tok.save_pretrained(snap)
    (folder / "refs").mkdir(parents=True)
    (folder / "refs" / "main").write_text(COMMIT)
    return snap


@pytest.fixture
def online(monkeypatch):
    """Lift the session's offline switch for one test (the env vars and the constant read at import)."""
    for var in hub.OFFLINE_VARS:
        monkeypatch.delenv(var, raising=False)
    monkeypatch.setattr(constants, "HF_HUB_OFFLINE", False)


@pytest.fixture
def hub_answers(online):
    """Install a transport that answers every request with `handler`; the requests made are recorded."""
    seen: list[str] = []

    def install(handler):
        def record(request):
            seen.append(f"{request.method} {request.url}")
            return handler(request)
        huggingface_hub.set_client_factory(lambda: httpx2.Client(transport=httpx2.MockTransport(record)))
        return seen

    yield install
    huggingface_hub.set_client_factory(_http.default_client_factory)


def no_route(request):
    raise httpx2.ConnectError("[Errno 101] Network is unreachable", request=request)


def error_code(code: str):
    def answer(request):
        return httpx2.Response(404, headers={"X-Error-Code": code}, request=request)
    return answer


# ---------------------------------------------------------------- offline: the cache only, one line when missing

@pytest.mark.parametrize("switch, env", [("--offline", {}), ("HF_HUB_OFFLINE=1", {"HF_HUB_OFFLINE": "1"}),
                                         ("TRANSFORMERS_OFFLINE=1", {"TRANSFORMERS_OFFLINE": "1"})])
def test_offline_and_missing_is_one_line(switch, env, cache, online, monkeypatch, run_cli):
    for var, value in env.items():
        monkeypatch.setenv(var, value)
    argv = ["explain", "--model", "mha-test/no-such-model", "--layer", "0", "--text", "the cat"]
    code, out, err = run_cli(*argv, *(["--offline"] if switch == "--offline" else []))
    assert code == 2 and out == "" and err.count("\n") == 1
    assert err == (f"mha: error: model: 'mha-test/no-such-model' is not in the Hugging Face cache ({cache}) "
                   f"and {switch} forbids downloading it\n")


def test_the_session_is_offline():
    assert hub.offline_switch() == "HF_HUB_OFFLINE=1" and constants.HF_HUB_OFFLINE


def test_offline_reads_the_cache_and_never_touches_the_network(cache, tokenizers, monkeypatch):
    """The hub client's HTTP entry points and socket connections are patched to record and fail: offline, none
    is called.  The same guard sees the online probe, so it is not blind."""
    tok = tokenizers["bpe"]
    put_in_cache(cache, REPO, tiny_model("gpt2", tok), tok)
    calls: list[str] = []

    def forbidden(name):
        def fail(*args, **kwargs):
            calls.append(name)
            raise AssertionError(f"{name} called")
        return fail

    import huggingface_hub.file_download as fd
    monkeypatch.setattr(fd, "get_hf_file_metadata", forbidden("get_hf_file_metadata"))
    monkeypatch.setattr(huggingface_hub, "get_hf_file_metadata", forbidden("get_hf_file_metadata"))
    monkeypatch.setattr(_http, "get_session", forbidden("get_session"))
    monkeypatch.setattr(fd, "get_session", forbidden("get_session"), raising=False)
    monkeypatch.setattr(httpx2.Client, "send", forbidden("httpx2.Client.send"))
    monkeypatch.setattr(socket.socket, "connect", forbidden("socket.connect"))
    model, loaded_tok = hub.load(REPO)                          # HF_HUB_OFFLINE=1 from the session
    assert calls == [] and loaded_tok is not None and model.config.model_type == "gpt2"
    for var in hub.OFFLINE_VARS:
        monkeypatch.delenv(var, raising=False)
    monkeypatch.setattr(constants, "HF_HUB_OFFLINE", False)
    hub.load(REPO, offline=True)                                # --offline alone
    assert calls == []
    hub.load(REPO)                                              # online: the probe is seen (and the cache used)
    assert calls == ["get_hf_file_metadata"]


# ---------------------------------------------------------------- online: one try, one line

def test_no_network_is_one_line_after_one_try(cache, hub_answers, run_cli):
    seen = hub_answers(no_route)
    code, out, err = run_cli("explain", "--model", "mha-test/not-cached", "--layer", "0", "--text", "the cat")
    assert code == 2 and out == "" and err.count("\n") == 1
    assert err.startswith("mha: error: model: cannot reach the Hugging Face Hub (https://huggingface.co) to "
                          "download 'mha-test/not-cached': ConnectError: [Errno 101] Network is unreachable")
    assert f"(one try, at most {constants.HF_HUB_ETAG_TIMEOUT:g} s: HF_HUB_ETAG_TIMEOUT)" in err
    assert str(cache) in err
    assert len(seen) == 1 and seen[0].startswith("HEAD https://huggingface.co/mha-test/not-cached/resolve/main/"
                                                 "config.json")


def test_no_network_but_cached_loads_from_the_cache(cache, tokenizers, hub_answers):
    tok = tokenizers["bpe"]
    put_in_cache(cache, REPO, tiny_model("llama", tok), tok)
    seen = hub_answers(no_route)
    model, _ = hub.load(REPO)
    assert model.config.model_type == "llama" and len(seen) == 1


@pytest.mark.parametrize("code, argv, message", [
    ("RepoNotFound", [], "model: 'mha-test/nothing' is neither a local directory nor a model on the Hugging Face Hub"),
    ("RevisionNotFound", ["--revision", "v9"], "--revision: 'v9' is not a branch, tag or commit of 'mha-test/nothing'"),
    ("GatedRepo", [], "model: 'mha-test/nothing' is gated on the Hugging Face Hub"),
    ("EntryNotFound", [], "model: 'mha-test/nothing' on the Hugging Face Hub has no config.json"),
])
def test_hub_refusals_are_one_line(code, argv, message, cache, hub_answers, run_cli):
    seen = hub_answers(error_code(code))
    code_, out, err = run_cli("explain", "--model", "mha-test/nothing", "--layer", "0", "--text", "a", *argv)
    assert code_ == 2 and out == "" and err.count("\n") == 1 and message in err, err
    assert len(seen) == 1


def test_revision_reaches_the_hub(cache, hub_answers):
    seen = hub_answers(no_route)
    with pytest.raises(MHAInputError, match=r"'mha-test/x' \(revision 'v1.0'\)"):
        hub.load("mha-test/x", revision="v1.0")
    assert seen == ["HEAD https://huggingface.co/mha-test/x/resolve/v1.0/config.json"]


# ---------------------------------------------------------------- paths, families, remote code

def test_paths_and_directories(tmp_path, run_cli):
    code, _, err = run_cli("explain", "--model", str(tmp_path / "nowhere"), "--layer", "0", "--text", "a")
    assert code == 2 and err == f"mha: error: model: no such directory: {tmp_path / 'nowhere'} (and it is not a " \
                                "model name on the Hugging Face Hub)\n"
    (tmp_path / "empty").mkdir()
    with pytest.raises(MHAInputError, match="holds no readable Hugging Face model"):
        hub.load(str(tmp_path / "empty"))
    code, _, err = run_cli("explain", "--model", str(tmp_path / "empty"), "--revision", "main", "--layer", "0",
                           "--text", "a")
    assert code == 2 and "--revision: " in err and "is a local directory" in err


def test_unsupported_family_is_refused_before_its_weights(tmp_path, cache, monkeypatch):
    """Only a config.json: the refusal cannot have read weights, and no model class was asked for."""
    cfg = transformers.GPTNeoXConfig(num_hidden_layers=1, hidden_size=32, num_attention_heads=4,
                                     intermediate_size=64, vocab_size=100)
    cfg.save_pretrained(tmp_path / "neox")
    built = []
    monkeypatch.setattr(transformers.AutoModel, "from_pretrained", lambda *a, **k: built.append(a))
    with pytest.raises(MHAInputError, match="family 'gpt_neox' is not supported; supported families: gpt2, bert"):
        hub.load(str(tmp_path / "neox"))
    snap = cache / "models--mha-test--neox" / "snapshots" / COMMIT
    cfg.save_pretrained(snap)
    (cache / "models--mha-test--neox" / "refs").mkdir()
    (cache / "models--mha-test--neox" / "refs" / "main").write_text(COMMIT)
    with pytest.raises(MHAInputError, match="family 'gpt_neox' is not supported"):
        hub.load("mha-test/neox")
    assert built == []


def test_remote_code_is_never_trusted(tmp_path, tokenizers, monkeypatch):
    tok = tokenizers["bpe"]
    tiny_model("gpt2", tok).save_pretrained(tmp_path)
    seen = []
    real = transformers.AutoModel.from_pretrained

    def spy(*args, **kwargs):
        seen.append(kwargs.get("trust_remote_code"))
        return real(*args, **kwargs)
    monkeypatch.setattr(transformers.AutoModel, "from_pretrained", spy)
    hub.load(str(tmp_path))
    assert seen == [False]


# ---------------------------------------------------------------- float64, tensor by tensor

@pytest.mark.parametrize("family", FAMILIES)
def test_float64_reads_the_checkpoint_tensor_by_tensor(family, tmp_path, tokenizers, monkeypatch):
    tok = tok_for(family, tokenizers)
    tiny_model(family, tok).save_pretrained(tmp_path)
    used = []
    real = hub.widen
    monkeypatch.setattr(hub, "widen", lambda model, files: used.append(real(model, files)) or used[-1])
    model, _ = hub.load(str(tmp_path), dtype="float64")
    assert used == [True]                                       # the files were read, not the mapped float32 copy
    ref, _ = hub.load(str(tmp_path), dtype="float32")
    got = dict(model.named_parameters())
    for name, p in ref.named_parameters():
        assert got[name].dtype == torch.float64
        assert torch.equal(got[name], p.double()), name
    assert all(b.dtype == torch.float64 for b in model.buffers() if b.is_floating_point())


def test_float64_falls_back_when_a_tensor_cannot_be_matched(tmp_path, tokenizers):
    tok = tokenizers["bpe"]
    torch.manual_seed(0)
    model = transformers.AutoModel.from_config(tiny_config("gpt2", len(tok)))
    model.save_pretrained(tmp_path)
    ref = {n: p.detach().double().clone() for n, p in model.named_parameters()}
    files = [str(tmp_path / "model.safetensors")]
    # a name the file does not hold: nothing is read from the files, everything widened in memory
    model.register_parameter("extra", torch.nn.Parameter(torch.ones(3)))
    assert hub.widen(model, files) is False
    assert all(torch.equal(p, ref[n]) for n, p in model.named_parameters() if n != "extra")
    assert model.extra.dtype == torch.float64
    # a file whose values differ from the loaded ones (the wrong tensor under the right name): not used
    other = transformers.AutoModel.from_config(tiny_config("gpt2", len(tok)))
    with torch.no_grad():
        for p in other.parameters():
            p.add_(1.0)
    assert hub.widen(other, files) is False


def test_model_input_passes_revision_and_offline(monkeypatch):
    from mha import hf
    seen = {}

    def fake_load(name, **kwargs):
        seen.update(kwargs, name=name)
        raise MHAInputError("stop")
    monkeypatch.setattr(hf, "load", fake_load)
    with pytest.raises(MHAInputError, match="stop"):
        hf.model_input("x/y", 0, text=TEXT, revision="abc", offline=True)
    assert seen == {"name": "x/y", "dtype": "float32", "revision": "abc", "offline": True}
