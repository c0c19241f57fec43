"""Re-create the field trial's documents (their text is never committed) from their public sources.

    python benchmarks/check-field/fetch_docs.py                       # into /work/field-docs/{dev,heldout}/
    python benchmarks/check-field/fetch_docs.py --dest DIR            # anywhere else
    python benchmarks/check-field/score.py --fetch --docs DIR         # the same, from the scoring script
    python benchmarks/check-field/fetch_docs.py --mirror /work/.mirror  # offline, from git snapshots of the repos

Where only the package registries can be reached, `--mirror DIR` reads each GitHub file at its commit from a local
git snapshot of its repository, `DIR/<owner>+<name>/repo` (a bare git directory, or a clone holding `.git`).

Each `sources/<id>.json` names a GitHub file by {"repo", "path", "commit"} (fetched as
raw.githubusercontent.com/<repo>/<commit>/<path>) or a page by {"url"} (fetched as it is), and carries the sha256 of
the bytes the truth's line numbers refer to.  A download is written to `<dest>/dev|heldout|unseen|unseenF|unseenG|unseenH|unseenI|unseenJ|unseenK/<id>.<format>` only when
its sha256 matches; a file already there with the right hash is left alone (no network).  Needs the network.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import os
import sys
import tempfile
from pathlib import Path
from typing import Callable
from urllib.parse import quote

HERE = Path(__file__).resolve().parent
RAW = "https://raw.githubusercontent.com/{repo}/{commit}/{path}"


def source_url(source: dict) -> str:
    """The address of a document's published bytes: a GitHub file at its commit, or the page's own URL."""
    if "url" in source:
        return source["url"]
    return RAW.format(repo=source["repo"], commit=source["commit"], path=quote(source["path"], safe="/"))


def download(url: str, timeout: float = 60.0) -> bytes:
    from urllib.request import Request, urlopen
    with urlopen(Request(url, headers={"User-Agent": "mha-check-field-fetch"}), timeout=timeout) as r:
        return r.read()


def mirror_getter(mirror: Path) -> Callable[[str], bytes]:
    """A `get` that answers a raw.githubusercontent.com address from `mirror/<owner>+<name>/repo` with `git show`
    instead of the network; the same sha256 check then decides, so a snapshot without the commit is refused."""
    import subprocess
    from urllib.parse import unquote

    def get(url: str) -> bytes:
        prefix = "https://raw.githubusercontent.com/"
        if not url.startswith(prefix):
            raise ValueError(f"not a GitHub file, no snapshot can hold it: {url}")
        owner, name, commit, path = url[len(prefix):].split("/", 3)
        repo = mirror / f"{owner}+{name}" / "repo"
        git_dir = repo / ".git" if (repo / ".git").is_dir() else repo
        if not git_dir.is_dir():
            raise FileNotFoundError(f"no snapshot of {owner}/{name} under {mirror}")
        r = subprocess.run(["git", "--git-dir", str(git_dir), "show", f"{commit}:{unquote(path)}"],
                           capture_output=True, timeout=120)
        if r.returncode != 0:
            raise LookupError(r.stderr.decode("utf-8", "replace").strip().splitlines()[-1:] or "git show failed")
        return r.stdout
    return get


def target(dest: Path, src: dict) -> Path:
    """dev/, heldout/, or unseen/, unseenF/, unseenG/, unseenH/, unseenI/, unseenJ/ and unseenK/ for the sets collected last and read by nobody who changes the checker."""
    part = src["set"] if src.get("set") in ("unseen", "unseenF", "unseenG", "unseenH", "unseenI", "unseenJ", "unseenK") else "heldout" if src["held_out"] else "dev"
    return dest / part / f"{src['id']}.{src['format']}"


def read_sources(metas: list[Path]) -> list[dict]:
    """Every document's sources file (not the draw or candidate lists, which have no "source")."""
    out = []
    for meta in metas:
        for p in sorted((meta / "sources").glob("*.json")):
            s = json.loads(p.read_text(encoding="utf-8"))
            if isinstance(s, dict) and "source" in s and "id" in s:
                out.append(s)
    return out


def fetch_documents(dest: Path, sources: list[dict], get: Callable[[str], bytes] = download,
                    force: bool = False) -> list[dict]:
    """Fetch each source into dest; one result per document: {"id", "url", "status", "path"}, where status is
    "present" (already there, hash right), "fetched", "no sha256", "sha256 mismatch: ..." or "failed: ...".
    Nothing is written unless its hash matches."""
    results = []
    for s in sources:
        path, url, want = target(dest, s), source_url(s["source"]), s.get("sha256")
        r = {"id": s["id"], "url": url, "path": str(path)}
        results.append(r)
        if not want:
            r["status"] = "no sha256"
            continue
        if not force and path.exists() and _sha256(path.read_bytes()) == want:
            r["status"] = "present"
            continue
        try:
            data = get(url)
        except Exception as e:                   # one failed download must not stop the others
            r["status"] = f"failed: {type(e).__name__}: {e}"
            continue
        got = _sha256(data)
        if got != want:
            r["status"] = f"sha256 mismatch: got {got[:12]}..., want {want[:12]}... ({len(data)} bytes)"
            continue
        _write_atomically(path, data)
        r["status"] = "fetched"
    return results


def _sha256(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


def _write_atomically(path: Path, data: bytes) -> None:
    """A half-written document would be scored as a different text: write aside, then rename."""
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.")
    try:
        with os.fdopen(fd, "wb") as f:
            f.write(data)
        os.replace(tmp, path)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description="Re-create the field documents from their sources (needs the network).")
    ap.add_argument("--dest", default="/work/field-docs", help="folder to fill with dev/ and heldout/ (%(default)s)")
    ap.add_argument("--meta", action="append", default=None,
                    help="folder with sources/ (repeatable; default: this script's folder)")
    ap.add_argument("--only", nargs="*", default=None, help="document ids (or prefixes) to fetch")
    ap.add_argument("--force", action="store_true", help="download even when a file with the right hash is there")
    ap.add_argument("--mirror", default=None,
                    help="read GitHub files from git snapshots DIR/<owner>+<name>/repo instead of the network")
    a = ap.parse_args(argv)
    get = mirror_getter(Path(a.mirror)) if a.mirror else download
    return run(Path(a.dest), [Path(m) for m in a.meta] if a.meta else [HERE], a.only, a.force, get=get)


def run(dest: Path, metas: list[Path], only=None, force: bool = False, get: Callable[[str], bytes] = download) -> int:
    sources = read_sources(metas)
    if only:
        sources = [s for s in sources if any(s["id"].startswith(o) for o in only)]
    if not sources:
        print(f"no sources files under {[str(m) for m in metas]}", file=sys.stderr)
        return 2
    results = fetch_documents(dest, sources, get=get, force=force)
    bad = [r for r in results if r["status"] not in ("present", "fetched")]
    for r in results:
        if r["status"] != "present":
            print(f"{r['id']}: {r['status']} ({r['url']})")
    n = {k: sum(r["status"] == k for r in results) for k in ("fetched", "present")}
    print(f"{len(results)} documents under {dest}: {n['fetched']} fetched, {n['present']} already present, "
          f"{len(bad)} not re-created")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
