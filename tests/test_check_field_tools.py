"""The field trial's tools (benchmarks/check-field): re-creating the documents from their sources (with a fake
downloader: no network), the reachability flags, and the score's totals over all and over reachable entries."""

import hashlib
import importlib.util
import json
import sys
from pathlib import Path

import pytest

FIELD = Path(__file__).resolve().parent.parent / "benchmarks" / "check-field"


def _load(name):
    spec = importlib.util.spec_from_file_location(f"check_field_{name}", FIELD / f"{name}.py")
    mod = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = mod
    spec.loader.exec_module(mod)
    return mod


fetch = _load("fetch_docs")
reach = _load("reachable")
score = _load("score")


# ------------------------------------------------------------------ fetch

def _source(doc_id, held_out, data, fmt="md", **source):
    return {"id": doc_id, "source": source or {"repo": "o/r", "path": f"{doc_id}.{fmt}", "commit": "c" * 40},
            "sha256": hashlib.sha256(data).hexdigest(), "format": fmt, "held_out": held_out}


def test_source_url_quotes_the_path_at_its_commit_and_keeps_urls_as_they_are():
    src = {"repo": "harleyszhang/llm_note", "commit": "82b24b6", "path": "2-transformer_model/masked-attention算法 详解.md"}
    assert fetch.source_url(src) == ("https://raw.githubusercontent.com/harleyszhang/llm_note/82b24b6/"
                                     "2-transformer_model/masked-attention%E7%AE%97%E6%B3%95%20%E8%AF%A6%E8%A7%A3.md")
    assert fetch.source_url({"url": "https://example.org/a b?x=1"}) == "https://example.org/a b?x=1"


def test_mirror_getter_reads_a_file_at_its_commit_from_a_git_snapshot_and_names_what_is_missing(tmp_path):
    import subprocess
    repo = tmp_path / "mirror" / "o+r" / "repo"
    git = ["git", "-C", str(repo), "-c", "user.name=t", "-c", "user.email=t@t"]
    subprocess.run(["git", "init", "-q", str(repo)], check=True)
    (repo / "注意 力.md").write_bytes("q = [1, 2]\n".encode())
    subprocess.run(git + ["add", "-A"], check=True)
    subprocess.run(git + ["commit", "-qm", "one"], check=True)
    first = subprocess.run(git + ["rev-parse", "HEAD"], capture_output=True, text=True, check=True).stdout.strip()
    (repo / "注意 力.md").write_bytes(b"changed later\n")
    subprocess.run(git + ["commit", "-qam", "two"], check=True)
    get = fetch.mirror_getter(tmp_path / "mirror")
    url = fetch.source_url({"repo": "o/r", "commit": first, "path": "注意 力.md"})
    assert get(url) == "q = [1, 2]\n".encode()                        # the commit's bytes, not the newest
    with pytest.raises(FileNotFoundError, match="o/other"):
        get(fetch.source_url({"repo": "o/other", "commit": first, "path": "a.md"}))
    with pytest.raises(LookupError):
        get(fetch.source_url({"repo": "o/r", "commit": first, "path": "absent.md"}))
    with pytest.raises(ValueError, match="not a GitHub file"):
        get("https://example.org/page.html")


def test_fetch_writes_verified_bytes_to_dev_and_heldout_and_skips_what_is_present(tmp_path):
    a, b = b"# doc a\r\nq = [1, 2]\n", "权重 0.55\n".encode("utf-8")
    sources = [_source("fieldX-01-a", False, a), _source("fieldX-02-b", True, b, fmt="ipynb")]
    served = {fetch.source_url(s["source"]): d for s, d in zip(sources, (a, b))}
    calls = []

    def get(url):
        calls.append(url)
        return served[url]

    res = fetch.fetch_documents(tmp_path, sources, get=get)
    assert [r["status"] for r in res] == ["fetched", "fetched"]
    assert (tmp_path / "dev" / "fieldX-01-a.md").read_bytes() == a          # byte for byte (CRLF kept)
    assert (tmp_path / "heldout" / "fieldX-02-b.ipynb").read_bytes() == b
    assert len(calls) == 2
    res = fetch.fetch_documents(tmp_path, sources, get=get)                  # already there: no download
    assert [r["status"] for r in res] == ["present", "present"] and len(calls) == 2
    (tmp_path / "dev" / "fieldX-01-a.md").write_bytes(b"edited")             # a changed copy is fetched again
    assert [r["status"] for r in fetch.fetch_documents(tmp_path, sources, get=get)] == ["fetched", "present"]
    assert (tmp_path / "dev" / "fieldX-01-a.md").read_bytes() == a


def test_fetch_writes_nothing_on_a_hash_mismatch_or_a_failed_download_and_goes_on(tmp_path):
    good = b"fine\n"
    sources = [_source("fieldX-01-changed", False, b"as published\n"), _source("fieldX-02-down", False, b"x"),
               _source("fieldX-03-good", False, good)]

    def get(url):
        if "down" in url:
            raise OSError("no route to host")
        return b"changed upstream\n" if "changed" in url else good

    res = {r["id"]: r["status"] for r in fetch.fetch_documents(tmp_path, sources, get=get)}
    assert res["fieldX-01-changed"].startswith("sha256 mismatch")
    assert res["fieldX-02-down"] == "failed: OSError: no route to host"
    assert res["fieldX-03-good"] == "fetched"
    assert sorted(p.name for p in (tmp_path / "dev").iterdir()) == ["fieldX-03-good.md"]   # no partial files


def test_fetch_run_exits_1_when_a_document_is_not_recreated(tmp_path, capsys):
    meta = tmp_path / "meta"
    (meta / "sources").mkdir(parents=True)
    s = _source("fieldX-01-a", False, b"abc")
    (meta / "sources" / "fieldX-01-a.json").write_text(json.dumps(s), encoding="utf-8")
    (meta / "sources" / "fieldX-draw.json").write_text(json.dumps({"seed": "x"}), encoding="utf-8")  # not a document
    assert fetch.run(tmp_path / "docs", [meta], get=lambda url: b"abc") == 0
    assert fetch.run(tmp_path / "docs2", [meta], get=lambda url: b"abd") == 1
    assert "1 not re-created" in capsys.readouterr().out


def test_every_committed_source_names_a_fetchable_file_and_its_hash():
    sources = fetch.read_sources([FIELD])
    assert len(sources) >= 46
    for s in sources:
        assert len(s["sha256"]) == 64 and int(s["sha256"], 16) >= 0, s["id"]
        url = fetch.source_url(s["source"])
        assert url.startswith("https://"), s["id"]
        if "repo" in s["source"]:
            assert len(s["source"]["commit"]) == 40 and s["source"]["commit"] in url, s["id"]
        assert fetch.target(Path("/d"), s).suffix == "." + s["format"]


def test_an_unseen_source_goes_to_its_own_folder(tmp_path):
    s = _source("fieldX-03-c", True, b"x")
    assert fetch.target(tmp_path, s) == tmp_path / "heldout" / "fieldX-03-c.md"
    assert fetch.target(tmp_path, {**s, "set": "unseen"}) == tmp_path / "unseen" / "fieldX-03-c.md"


def test_every_committed_unseen_source_is_held_out_and_marked():
    unseen = [s for s in fetch.read_sources([FIELD]) if s["id"].startswith("fieldE-")]
    assert len(unseen) >= 12
    assert all(s["set"] == "unseen" and s["held_out"] is True for s in unseen)
    assert all(fetch.target(Path("/d"), s).parent == Path("/d/unseen") for s in unseen)


@pytest.mark.parametrize("prefix, name, least, not_from_x", [("fieldF-", "unseenF", 12, 7), ("fieldG-", "unseenG", 8, 5),
                                                              ("fieldH-", "unseenH", 8, 6), ("fieldI-", "unseenI", 8, 5),
                                                              ("fieldJ-", "unseenJ", 10, 6),
                                                              ("fieldK-", "unseenK", 10, 6)])
def test_every_committed_later_set_source_is_held_out_marked_and_has_its_own_folder(tmp_path, prefix, name, least,
                                                                                     not_from_x):
    s = _source("fieldX-03-c", True, b"x")
    assert fetch.target(tmp_path, {**s, "set": name}) == tmp_path / name / "fieldX-03-c.md"
    sources = fetch.read_sources([FIELD])
    members = [s for s in sources if s["id"].startswith(prefix)]
    assert len(members) >= least
    assert all(s["set"] == name and s["held_out"] is True for s in members)
    assert all(fetch.target(Path("/d"), s).parent == Path("/d") / name for s in members)
    assert all((FIELD / "truth" / f"{s['id']}.json").exists() for s in members)
    # new files only (no repository and path of any other set), at most two from one repository
    others = {(s["source"].get("repo"), s["source"].get("path")) for s in sources if not s["id"].startswith(prefix)}
    assert not [s["id"] for s in members if (s["source"].get("repo"), s["source"].get("path")) in others]
    repos = [s["source"].get("repo") for s in members]
    assert max(repos.count(r) for r in repos) <= 2
    assert sum(s["starts_from"] != "X+weights" for s in members) >= not_from_x


# ------------------------------------------------------------------ reachable

def _n(line, printed, what, correct=True, role="derived", cell=None):
    return {"cell": cell, "line": line, "printed": printed, "exact": 0.0, "correct": correct, "role": role,
            "what": what}


def test_slips_and_own_errors_take_the_flag_of_the_number_they_touch():
    t = {"id": "fieldZ-01-chapter", "numbers": [
        _n(1, "0.43", "inputs X[1,1]", role="input"),
        _n(2, "0.9544", "3.3 attn_scores (X X^T)[2][1]"), _n(2, "1.4950", "3.3 attn_scores (X X^T)[2][2]"),
        _n(3, "0.3061", "3.4 context_vec_2[1]"), _n(3, "0.8210", "3.4 context_vec_2[2]"),
        _n(4, "0.1500", "3.4 attn_weights_2[1]", correct=False), _n(4, "0.3190", "3.6 MultiHeadAttention[1,1]"),
        _n(5, "0.2", "3.6 MultiHeadAttention[2,1]", correct=False)],
        "own_errors": [{"cell": None, "line": 4, "why": "w"}, {"cell": None, "line": 5, "why": "m"}],
        "slips": [{"cell": None, "line": 2, "find": "0.9544, 1.4950", "replace": "0.9544, 1.4590", "what": "s"},
                  {"cell": None, "line": 3, "find": "[0.3061,", "replace": "[0.3016,", "what": "c"}]}
    assert reach.annotate(t) == []
    flags = {n["what"]: n["reachable"] for n in t["numbers"]}
    assert flags["3.3 attn_scores (X X^T)[2][2]"] and flags["3.4 attn_weights_2[1]"]
    assert not flags["3.4 context_vec_2[1]"] and not flags["3.6 MultiHeadAttention[1,1]"]
    assert [e["reachable"] for e in t["own_errors"]] == [True, False]        # only the wrong numbers count
    assert "never printed" in t["own_errors"][1]["unreachable"]
    assert [s["reachable"] for s in t["slips"]] == [True, False]
    assert "W_value" in t["slips"][1]["unreachable"]


def test_printed_weights_make_a_seeded_layer_reachable():
    nums = [_n(1, "-0.4519", "seed 123 second CausalAttention(inputs)[1,1]")]
    assert reach.annotate({"id": "fieldZ-02", "numbers": [dict(n) for n in nums]}) == []
    t = {"id": "fieldZ-02", "numbers": [dict(n) for n in nums] + [_n(9, "-0.2354", "seed 123 W_query.weight[1]",
                                                                       role="input")]}
    reach.annotate(t)
    assert t["numbers"][0]["reachable"] is True


def test_a_slip_whose_number_cannot_be_told_is_reported():
    t = {"id": "fieldZ-03", "numbers": [_n(1, "2", "x")],
         "slips": [{"cell": None, "line": 1, "find": "= 7", "replace": "= 8", "what": "s"}]}
    assert reach.annotate(t) == ["slip '= 7': cannot tell the number it changes (0 candidates)"]


def test_the_committed_truth_files_carry_current_flags():
    assert reach.main(["--check"]) == 0


# ------------------------------------------------------------------ score totals

def _row(own, own_found, slips, reachable_numbers=1):
    """own: list of reachable flags; own_found: the reachable flags of those found; slips: (found, new, reachable)."""
    return {"usable": True, "claims": True, "false_lines": [], "own_errors": len(own),
            "own_errors_reachable": sum(own), "own_found": [{"reachable": r} for r in own_found],
            "slips": [{"found": f, "new": n, "reachable": r} for f, n, r in slips],
            "slips_found": sum(f for f, _, _ in slips), "slips_found_new": sum(n for _, n, _ in slips),
            "reachable_numbers": reachable_numbers}


def test_totals_count_all_and_reachable_separately():
    rows = [_row([True, False, False], [True, False], [(True, True, True), (True, False, False), (False, False, True)]),
            _row([], [], [(False, False, False)], reachable_numbers=0)]
    t = score.totals(rows)
    assert (t["own_errors"], t["own_found"], t["own_errors_reachable"], t["own_found_reachable"]) == (3, 2, 1, 1)
    assert (t["slips"], t["slips_found"], t["slips_reachable"], t["slips_found_reachable"]) == (4, 2, 2, 1)
    assert (t["slips_found_new"], t["slips_found_new_reachable"]) == (1, 1)
    assert (t["documents"], t["claims"], t["docs_with_reachable_numbers"]) == (2, 2, 1)


def test_score_fetch_option_goes_to_the_fetcher(tmp_path, monkeypatch):
    seen = {}

    def fake_run(dest, metas, only=None, force=False):
        seen.update(dest=dest, metas=metas, only=only)
        return 0

    monkeypatch.setattr(sys.modules["check_field_fetch_docs"], "run", fake_run)
    monkeypatch.setitem(sys.modules, "fetch_docs", sys.modules["check_field_fetch_docs"])
    assert score.main(["--fetch", "--docs", str(tmp_path), "--only", "fieldA-"]) == 0
    assert seen == {"dest": tmp_path, "metas": [FIELD], "only": ["fieldA-"]}
    # ids by commas are the same as by spaces
    assert score.main(["--fetch", "--docs", str(tmp_path), "--only", "fieldA-07,fieldC-", "fieldD-"]) == 0
    assert seen["only"] == ["fieldA-07", "fieldC-", "fieldD-"]


def test_the_unseen_set_is_scored_only_by_name(tmp_path, capsys):
    docs, meta = tmp_path / "docs", tmp_path / "meta"
    for sub in ("sources", "truth"):
        (meta / sub).mkdir(parents=True)
    for part, doc_id in (("dev", "fieldX-01-d"), ("heldout", "fieldX-02-h"), ("unseen", "fieldX-03-u")):
        (docs / part).mkdir(parents=True)
        (docs / part / f"{doc_id}.md").write_text("A = [0.5, 0.5]\n", encoding="utf-8")
        (meta / "sources" / f"{doc_id}.json").write_text(json.dumps({"id": doc_id}), encoding="utf-8")
        (meta / "truth" / f"{doc_id}.json").write_text(json.dumps({"id": doc_id, "numbers": []}), encoding="utf-8")
    (docs / "unseen" / "fieldX-04-notruth.md").write_text("x\n", encoding="utf-8")    # no truth: not scored
    found = {w: [(d["set"], d["id"]) for d in score.find_documents(docs, [meta], w)]
             for w in ("all", "dev", "heldout", "unseen")}
    assert found["all"] == [("dev", "fieldX-01-d"), ("heldout", "fieldX-02-h")]      # "all" is what it was
    assert found["dev"] == [("dev", "fieldX-01-d")] and found["heldout"] == [("heldout", "fieldX-02-h")]
    assert found["unseen"] == [("unseen", "fieldX-03-u")]
    assert score.main(["--docs", str(docs), "--meta", str(meta), "--set", "unseen", "--lint"]) == 0
    assert "1 documents linted" in capsys.readouterr().out


def test_set_f_is_scored_only_by_name(tmp_path, capsys):
    docs, meta = tmp_path / "docs", tmp_path / "meta"
    for sub in ("sources", "truth"):
        (meta / sub).mkdir(parents=True)
    for part, doc_id in (("dev", "fieldX-01-d"), ("unseen", "fieldX-03-u"), ("unseenF", "fieldX-05-f")):
        (docs / part).mkdir(parents=True)
        (docs / part / f"{doc_id}.md").write_text("A = [0.5, 0.5]\n", encoding="utf-8")
        (meta / "sources" / f"{doc_id}.json").write_text(json.dumps({"id": doc_id}), encoding="utf-8")
        (meta / "truth" / f"{doc_id}.json").write_text(json.dumps({"id": doc_id, "numbers": []}), encoding="utf-8")
    found = {w: [(d["set"], d["id"]) for d in score.find_documents(docs, [meta], w)]
             for w in ("all", "unseen", "unseenF")}
    assert found["all"] == [("dev", "fieldX-01-d")]                      # neither unseen set joins "all"
    assert found["unseen"] == [("unseen", "fieldX-03-u")]
    assert found["unseenF"] == [("unseenF", "fieldX-05-f")]
    assert score.main(["--docs", str(docs), "--meta", str(meta), "--set", "unseenF", "--lint"]) == 0
    assert "1 documents linted" in capsys.readouterr().out
    out = tmp_path / "r.json"
    assert score.main(["--docs", str(docs), "--meta", str(meta), "--set", "unseenF", "--json", str(out)]) == 0
    r = json.loads(out.read_text(encoding="utf-8"))
    assert "totals_unseenF" in r and "totals_unseen" not in r and "totals_dev" not in r


def test_set_g_is_scored_only_by_name(tmp_path, capsys):
    docs, meta = tmp_path / "docs", tmp_path / "meta"
    for sub in ("sources", "truth"):
        (meta / sub).mkdir(parents=True)
    for part, doc_id in (("dev", "fieldX-01-d"), ("unseenF", "fieldX-05-f"), ("unseenG", "fieldX-06-g"),
                         ("unseenH", "fieldX-07-h"), ("unseenI", "fieldX-08-i"),
                         ("unseenJ", "fieldX-09-j"), ("unseenK", "fieldX-10-k")):
        (docs / part).mkdir(parents=True)
        (docs / part / f"{doc_id}.md").write_text("A = [0.5, 0.5]\n", encoding="utf-8")
        (meta / "sources" / f"{doc_id}.json").write_text(json.dumps({"id": doc_id}), encoding="utf-8")
        (meta / "truth" / f"{doc_id}.json").write_text(json.dumps({"id": doc_id, "numbers": []}), encoding="utf-8")
    found = {w: [(d["set"], d["id"]) for d in score.find_documents(docs, [meta], w)]
             for w in ("all", "unseenF", "unseenG", "unseenH", "unseenI", "unseenJ", "unseenK")}
    assert found["all"] == [("dev", "fieldX-01-d")]                      # sets G to K do not join "all"
    assert found["unseenF"] == [("unseenF", "fieldX-05-f")]              # nor set F's folder
    assert found["unseenG"] == [("unseenG", "fieldX-06-g")]
    assert found["unseenH"] == [("unseenH", "fieldX-07-h")]
    assert found["unseenI"] == [("unseenI", "fieldX-08-i")]
    assert found["unseenJ"] == [("unseenJ", "fieldX-09-j")]
    assert found["unseenK"] == [("unseenK", "fieldX-10-k")]
    out = tmp_path / "r.json"
    parts = ("dev", "heldout", "unseen", "unseenF", "unseenG", "unseenH", "unseenI", "unseenJ", "unseenK")
    for name in ("unseenG", "unseenH", "unseenI", "unseenJ", "unseenK"):     # each scored only by its own name
        assert score.main(["--docs", str(docs), "--meta", str(meta), "--set", name, "--json", str(out)]) == 0
        r = json.loads(out.read_text(encoding="utf-8"))
        assert [p for p in parts if f"totals_{p}" in r] == [name], sorted(r)

@pytest.mark.parametrize("doc_id", ["fieldB-07-zh-interview-chart03", "fieldC-07-lucaskup-pt-beamer-xw"])
def test_documents_with_no_or_all_reachable_numbers(doc_id):
    t = json.loads((FIELD / "truth" / f"{doc_id}.json").read_text(encoding="utf-8"))
    flags = {n["reachable"] for n in t["numbers"]}
    # the interview notes draw inputs and weights at random and never print them; the slides print X and W
    assert flags == ({False} if doc_id.startswith("fieldB-07") else {True})
