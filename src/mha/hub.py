"""Where a Hugging Face model comes from: a saved directory, the Hub cache, or the Hub, as transformers does.

    load("gpt2")                        the cache, else a download into it (as from_pretrained does)
    load("gpt2", offline=True)          the cache only, like HF_HUB_OFFLINE=1 for this one call
    load("./my-llama")                  a directory written by save_pretrained
    load("gpt2", revision="<commit>")   a branch, tag or commit of the repository

Every failure is one `MHAInputError` line that names the model; a model not in
the cache while offline also names the cache directory and the switch that
forbade the download (--offline, HF_HUB_OFFLINE, TRANSFORMERS_OFFLINE).  Before
anything is downloaded, one HEAD request for config.json asks the Hub whether
it can be reached: it waits at most HF_HUB_ETAG_TIMEOUT seconds (10 unless set)
and is not retried, so no network means one line within that time, not the
hub client's own retries with back-off.  A model in the cache still loads with
no network.  The config is read before the weights, so an unsupported family
is refused before anything large is read or downloaded, and code from a model
repository never runs: `trust_remote_code` is always False.

torch, transformers and huggingface_hub are imported inside the functions.
"""

from __future__ import annotations

import json
import os
from contextlib import contextmanager
from dataclasses import dataclass
from typing import Any, Iterator

from .inputs import MHAInputError

SUPPORTED = ("gpt2", "bert", "llama", "qwen2", "mistral", "gemma")
OFFLINE_VARS = ("HF_HUB_OFFLINE", "TRANSFORMERS_OFFLINE")
_TRUE = ("1", "on", "yes", "true")


@dataclass(frozen=True)
class Source:
    """A model found: what from_pretrained reads, and whether it may go online to read it."""

    where: str                   # a directory, or a repository id on the Hub
    local_only: bool             # local_files_only for every from_pretrained call
    revision: str | None


# ---------------------------------------------------------------- finding the model

def offline_switch(offline: bool = False) -> str | None:
    """The switch that forbids the network for this call ("--offline", "HF_HUB_OFFLINE=1", ...), or None.

    >>> offline_switch(True)
    '--offline'
    """
    if offline:
        return "--offline"
    for var in OFFLINE_VARS:
        value = os.environ.get(var, "")
        if value.strip().lower() in _TRUE:
            return f"{var}={value}"
    from huggingface_hub import constants
    return "HF_HUB_OFFLINE" if constants.HF_HUB_OFFLINE else None   # read when huggingface_hub was imported


def cache_dir() -> str:
    """The Hugging Face hub cache in effect (HF_HUB_CACHE, HF_HOME/hub, or ~/.cache/huggingface/hub)."""
    from huggingface_hub import constants
    return constants.HF_HUB_CACHE


def etag_timeout() -> float:
    """How long one request to the Hub may wait for an answer, in seconds (HF_HUB_ETAG_TIMEOUT, default 10)."""
    from huggingface_hub import constants
    return float(constants.HF_HUB_ETAG_TIMEOUT)


def _looks_like_a_path(name: str) -> bool:
    from huggingface_hub.utils import HFValidationError, validate_repo_id
    if name.startswith((".", "~", os.sep)) or (os.altsep and os.altsep in name):
        return True
    try:
        validate_repo_id(name)
    except HFValidationError:
        return True
    return False


def _named(name: str, revision: str | None) -> str:
    return repr(name) + (f" (revision {revision!r})" if revision else "")


def locate(name: str, *, revision: str | None = None, offline: bool = False) -> Source:
    """Decide where `name` is read from; refuse with one line when it cannot be had."""
    if os.path.isdir(name):
        if revision is not None:
            raise MHAInputError(f"--revision: {name} is a local directory; a revision names a commit, branch or "
                                "tag of a model on the Hugging Face Hub")
        return Source(name, True, None)
    if _looks_like_a_path(name):
        raise MHAInputError(f"model: no such directory: {name} (and it is not a model name on the Hugging Face Hub)")
    switch = offline_switch(offline)
    if switch is not None:
        if not _cached(name, revision):
            raise MHAInputError(f"model: {_named(name, revision)} is not in the Hugging Face cache ({cache_dir()}) "
                                f"and {switch} forbids downloading it")
        return Source(name, True, revision)
    problem = _probe(name, revision)
    if problem is None:
        return Source(name, False, revision)
    if _cached(name, revision):          # as transformers does: no network, but a copy in the cache
        return Source(name, True, revision)
    raise MHAInputError(problem)


def _cached(name: str, revision: str | None) -> bool:
    from huggingface_hub import try_to_load_from_cache
    return isinstance(try_to_load_from_cache(name, "config.json", revision=revision), str)


def _probe(name: str, revision: str | None) -> str | None:
    """One HEAD request for the model's config.json, no retry: None when the Hub has it, else why not.

    A repository or revision that does not exist raises at once (one line): the
    cache cannot help.  A network failure returns its line, so that a cached
    copy can still be used.
    """
    from huggingface_hub import constants, get_hf_file_metadata, hf_hub_url
    from huggingface_hub.errors import (GatedRepoError, RemoteEntryNotFoundError, RepositoryNotFoundError,
                                        RevisionNotFoundError)
    timeout = etag_timeout()
    try:
        get_hf_file_metadata(hf_hub_url(name, "config.json", revision=revision), timeout=timeout)
        return None
    except GatedRepoError:
        raise MHAInputError(f"model: {name!r} is gated on the Hugging Face Hub; accept its terms on the Hub and "
                            "log in (hf auth login) first") from None
    except RevisionNotFoundError:
        raise MHAInputError(f"--revision: {revision!r} is not a branch, tag or commit of {name!r}") from None
    except RepositoryNotFoundError:
        raise MHAInputError(f"model: {name!r} is neither a local directory nor a model on the Hugging Face Hub "
                            "(or it is private: log in with hf auth login)") from None
    except RemoteEntryNotFoundError:
        raise MHAInputError(f"model: {_named(name, revision)} on the Hugging Face Hub has no config.json; "
                            "it is not a transformers model") from None
    except Exception as e:                 # noqa: BLE001  a 5xx, a timeout, no route: httpx2's are not OSErrors
        why = " ".join(str(e).split())[:120] or type(e).__name__
        return (f"model: cannot reach the Hugging Face Hub ({constants.ENDPOINT}) to download "
                f"{_named(name, revision)}: {type(e).__name__}: {why} (one try, at most {timeout:g} s: "
                f"HF_HUB_ETAG_TIMEOUT); it is not in the cache {cache_dir()}")


# ---------------------------------------------------------------- reading it

def read_family(src: Source) -> str:
    """The model_type of the saved config.json, read before transformers builds anything; refused if unsupported."""
    if src.local_only and os.path.isdir(src.where):
        path = os.path.join(src.where, "config.json")
        if not os.path.isfile(path):
            raise MHAInputError(f"model: {src.where} holds no readable Hugging Face model (no config.json)")
    else:
        from huggingface_hub import hf_hub_download
        try:
            with quiet():
                path = hf_hub_download(src.where, "config.json", revision=src.revision,
                                       local_files_only=src.local_only, etag_timeout=etag_timeout())
        except Exception as e:                                  # noqa: BLE001 (one line, whatever went wrong)
            raise MHAInputError(f"model: cannot read the config of {_named(src.where, src.revision)}: "
                                f"{type(e).__name__}: {' '.join(str(e).split())[:160]}") from None
    try:
        with open(path, encoding="utf-8") as f:
            family = json.load(f).get("model_type")
    except (OSError, ValueError, AttributeError) as e:
        raise MHAInputError(f"model: cannot read {path}: {type(e).__name__}: {' '.join(str(e).split())[:120]}") \
            from None
    if family not in SUPPORTED:
        raise MHAInputError(f"model: family {family!r} is not supported; supported families: {', '.join(SUPPORTED)}")
    return family


def load(name_or_path: str, *, dtype: str = "float32", revision: str | None = None,
         offline: bool = False) -> tuple[Any, Any]:
    """Load a model and its tokenizer as transformers does: a directory, the Hub cache, or a download.

    Returns (model, tokenizer); tokenizer is None when none is saved with the
    model.  The model runs with torch's scaled_dot_product_attention ("sdpa"):
    in float64 it computes every step in float64, where transformers' "eager"
    attention of the LLaMA-style families takes the softmax in float32.

    For float64, weights stored in 32 bits or fewer are read as float32 (exactly)
    and widened one tensor at a time, so the peak is the float64 model plus one
    tensor, not the float64 model plus the whole checkpoint.
    """
    if dtype not in ("float32", "float64"):
        raise MHAInputError(f"dtype: expected float32 or float64, got {dtype!r}")
    try:
        import torch
        from transformers import AutoConfig, AutoModel, AutoTokenizer
    except ImportError as e:
        raise MHAInputError(f"model: reading a Hugging Face model needs torch and transformers "
                            f"(pip install 'mha[hf]'); {e}") from None
    src = locate(name_or_path, revision=revision, offline=offline)
    read_family(src)
    where = dict(revision=src.revision, local_files_only=src.local_only, trust_remote_code=False)
    with quiet():
        try:
            config = AutoConfig.from_pretrained(src.where, **where)
            # float64: read float16 / bfloat16 / float32 weights as float32 (exact), widen below
            first = torch.float64 if dtype == "float64" and _stored_dtype(config, torch) == torch.float64 \
                else torch.float32
            model = AutoModel.from_pretrained(src.where, config=config, dtype=first, attn_implementation="sdpa",
                                              **where)
        except (OSError, ValueError, RuntimeError, TypeError, KeyError) as e:
            raise MHAInputError(f"model: cannot load the weights of {_named(src.where, src.revision)}: "
                                f"{type(e).__name__}: {' '.join(str(e).split())[:160]}") from None
        if dtype == "float64" and first != torch.float64:
            widen(model, checkpoint_files(src))
        model.eval()
        try:
            tokenizer = AutoTokenizer.from_pretrained(src.where, **where)
        except (OSError, ValueError, TypeError, KeyError):
            tokenizer = None
    return model, tokenizer


def _stored_dtype(config: Any, torch: Any) -> Any:
    """The checkpoint's floating dtype as its config states it (float32 when it does not say)."""
    stated = getattr(config, "dtype", None) or getattr(config, "torch_dtype", None)
    if isinstance(stated, str):
        stated = getattr(torch, stated, None)
    return stated if stated in (torch.float16, torch.bfloat16, torch.float32, torch.float64) else torch.float32


# ---------------------------------------------------------------- float64 without the checkpoint in memory

# transformers maps a safetensors checkpoint into memory: read as float32 the weights are views of that mapping
# and cost nothing until read, but widening them to float64 reads every page, and the whole file then stays
# resident until the mapping is closed (the float64 model + the checkpoint).  Reading each tensor's bytes from
# the file in chunks instead keeps the peak at the float64 model + one chunk.
_ST_DTYPES = {"F64": "float64", "F32": "float32", "F16": "float16", "BF16": "bfloat16"}
_CHUNK = 8 * 2**20          # bytes read at a time


def checkpoint_files(src: Source) -> list[str]:
    """The safetensors files of the checkpoint (one, or the shards its index names); [] when there are none."""
    def find(name: str) -> str | None:
        if os.path.isdir(src.where):
            path = os.path.join(src.where, name)
            return path if os.path.isfile(path) else None
        from huggingface_hub import try_to_load_from_cache
        found = try_to_load_from_cache(src.where, name, revision=src.revision)   # downloaded by from_pretrained
        return found if isinstance(found, str) else None

    single = find("model.safetensors")
    if single:
        return [single]
    index = find("model.safetensors.index.json")
    if not index:
        return []
    with open(index, encoding="utf-8") as f:
        shards = sorted(set(json.load(f).get("weight_map", {}).values()))
    paths = [find(s) for s in shards]
    return [p for p in paths if p] if all(paths) else []


def _tensors_of(files: list[str]) -> dict[str, tuple[str, str, list[int], int, int]]:
    """name -> (file, dtype, shape, first byte, end byte) from each safetensors header (8-byte length, JSON)."""
    out = {}
    for path in files:
        with open(path, "rb") as f:
            n = int.from_bytes(f.read(8), "little")
            header = json.loads(f.read(n))
        for name, e in header.items():
            if name != "__metadata__":
                out[name] = (path, e["dtype"], list(e["shape"]), 8 + n + e["data_offsets"][0],
                             8 + n + e["data_offsets"][1])
    return out


def widen(model: Any, files: list[str]) -> bool:
    """Make every parameter and floating buffer float64, reading parameters from the checkpoint's files.

    Each parameter is matched to a tensor of the files by name (as the model
    names it, or under the base model's prefix) and shape, and checked on its
    first and last values; if any does not match, everything is widened from
    memory instead (correct, with the higher peak).  Returns True when the files
    were used.
    """
    import torch
    tensors = _tensors_of(files) if files else {}
    prefix = getattr(model, "base_model_prefix", "")
    plan = []
    for name, p in model.named_parameters():
        key = next((k for k in (name, f"{prefix}.{name}") if k in tensors), None)
        if key is None or tensors[key][2] != list(p.shape) or tensors[key][1] not in _ST_DTYPES or p.numel() == 0:
            plan = []
            break
        plan.append((p, tensors[key]))
    used = bool(plan) and all(_agrees(p, entry) for p, entry in plan)
    for p, entry in plan if used else ():
        p.data = _read64(entry)
    model.to(torch.float64)          # buffers, and every parameter when the files could not be used
    return used


def _read(path: str, start: int, end: int, dtype: str) -> Any:
    import torch
    with open(path, "rb") as f:
        f.seek(start)
        return torch.frombuffer(bytearray(f.read(end - start)), dtype=getattr(torch, dtype))


def _agrees(p: Any, entry: tuple[str, str, list[int], int, int]) -> bool:
    """The first and last values in the file are the loaded parameter's (the name led to the right tensor)."""
    path, code, _, start, end = entry
    dtype = _ST_DTYPES[code]
    size = (end - start) // p.numel()
    if size * p.numel() != end - start:
        return False
    flat = p.detach().reshape(-1)
    ends = (_read(path, start, start + size, dtype), _read(path, end - size, end, dtype))
    return all(float(e[0]) == float(flat[i]) for e, i in zip(ends, (0, -1)))


def _read64(entry: tuple[str, str, list[int], int, int]) -> Any:
    """One tensor of a safetensors file as float64, read in chunks of whole elements."""
    import torch
    path, code, shape, start, end = entry
    dtype = getattr(torch, _ST_DTYPES[code])
    size = torch.empty((), dtype=dtype).element_size()
    out = torch.empty(shape, dtype=torch.float64)
    flat = out.view(-1)
    buf = bytearray(_CHUNK - _CHUNK % size)          # one buffer, refilled: the peak is one chunk
    with open(path, "rb") as f:
        f.seek(start)
        done = 0
        while done < flat.numel():
            n = f.readinto(memoryview(buf)[:min(len(buf), end - start - done * size)])
            if not n:
                raise MHAInputError(f"model: {path} ends inside a tensor; the file is truncated")
            part = torch.frombuffer(buf, dtype=dtype, count=n // size)
            flat[done:done + part.numel()].copy_(part)
            done += part.numel()
    return out


@contextmanager
def quiet() -> Iterator[None]:
    """No progress bars or info lines from transformers while loading: the CLI's stderr is one line or none."""
    from transformers.utils import logging as hf_logging
    bars, level = hf_logging.is_progress_bar_enabled(), hf_logging.get_verbosity()
    hf_logging.disable_progress_bar()
    hf_logging.set_verbosity_error()
    try:
        yield
    finally:
        hf_logging.set_verbosity(level)
        if bars:
            hf_logging.enable_progress_bar()
