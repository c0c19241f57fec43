"""`mha check` where people run it: findings as path:line: (editors jump to them), GitHub workflow annotations,
several files at once, the pre-commit hook, and %mha_check in IPython and Jupyter."""

import json
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
POST = "examples/check/causal_attention_post.md"          # two slips: lines 63 and 97
NOTEBOOK = "examples/check/attention_by_hand.ipynb"       # two slips: cell 6 line 6, cell 7 line 2; a note in cell 12
CORPUS = ROOT / "tests" / "check_corpus"
CLEAN = "md_blog_causal_two_heads.md"                     # a corpus document that checks clean


def slipped_copy(tmp_path: Path) -> tuple[Path, Path, dict]:
    """The clean corpus document and a copy with its first planted slip."""
    doc = next(d for d in json.loads((CORPUS / "manifest.json").read_text(encoding="utf-8"))["documents"]
               if d["file"] == CLEAN)
    clean = tmp_path / CLEAN
    shutil.copy(CORPUS / CLEAN, clean)
    slip = doc["slips"][0]
    bad = tmp_path / ("slipped_" + CLEAN)
    bad.write_text(clean.read_text(encoding="utf-8").replace(slip["find"], slip["replace"]), encoding="utf-8")
    return clean, bad, slip


# ------------------------------------------------------------------ text: path:line:

def test_findings_start_with_path_and_line(run_cli, monkeypatch):
    monkeypatch.chdir(ROOT)
    code, out, err = run_cli("check", POST)
    assert code == 1 and err == ""
    located = [x for x in out.splitlines() if x.startswith(POST + ":")]
    assert [x.split(":")[1] for x in located if ": error: " in x] == ["63", "97"]
    assert all(re.match(re.escape(POST) + r":\d+: (error|note|not checked): \S", x) for x in located)
    assert out.splitlines()[-1].startswith("2 finding(s)")


def test_notebook_findings_name_the_cell(run_cli, monkeypatch):
    monkeypatch.chdir(ROOT)
    code, out, _ = run_cli("check", NOTEBOOK)
    assert code == 1
    errors = [x for x in out.splitlines() if ": error: " in x]
    assert [x.split(": error: ")[0] for x in errors] == [f"{NOTEBOOK}:cell 6:line 6", f"{NOTEBOOK}:cell 7:line 2"]
    assert f"{NOTEBOOK}:cell 12:line 2: note: " in out


def test_stdin_is_dash(tmp_path):
    from conftest import run_subprocess
    _, bad, slip = slipped_copy(tmp_path)
    p = run_subprocess("check", "-", input=bad.read_text(encoding="utf-8"))
    assert p.returncode == 1, p.stderr
    assert f"\n-:{slip['line']}: error: " in p.stdout


# ------------------------------------------------------------------ GitHub annotations

def test_github_annotations_one_per_finding(run_cli, monkeypatch):
    monkeypatch.chdir(ROOT)
    code, out, _ = run_cli("check", POST, "--format", "github")
    assert code == 1
    lines = out.splitlines()
    assert [x.split("::")[1] for x in lines[:-1]] == [f"error file={POST},line=63,title=mha check",
                                                      f"error file={POST},line=97,title=mha check"]
    assert "swapped digits" in lines[1] and lines[-1] == f"mha check {POST}: " + \
        "2 finding(s) in 19 claims (118 numbers checked); 1 object(s) not checked"
    code, out, _ = run_cli("check", NOTEBOOK, "--format", "github")
    kinds = [x.split(" ")[0] for x in out.splitlines()[:-1]]
    assert kinds == ["::error", "::error", "::notice"]
    # a notebook's line is inside a cell: the annotation names the file, the message the cell and line
    assert out.splitlines()[0].startswith(f"::error file={NOTEBOOK},title=mha check::cell 6, line 6: ")


def test_github_escapes_what_would_end_the_command():
    from mha.check.report import Finding, Report
    f = Finding(3, None, "a, b: 100%\nnext", "1", 2.0, "2", "scores")
    r = Report([f], 1, 1, {}, path="dir:x,y.md")
    first = r.to_github().splitlines()[0]
    assert first.startswith("::error file=dir%3Ax%2Cy.md,line=3,title=mha check::a, b: 100%25%0Anext: printed 1")
    assert Report([f], 1, 1, {}).to_github().startswith("::error line=3,title=mha check::")    # stdin: no file


# ------------------------------------------------------------------ several files

def test_several_files_exit_with_the_worst(run_cli, tmp_path):
    clean, bad, slip = slipped_copy(tmp_path)
    code, out, err = run_cli("check", str(clean), str(bad))
    assert code == 1 and err == ""
    assert out.count("configuration: ") == 2 and f"{bad}:{slip['line']}: error: " in out
    unrelated = tmp_path / "notes.md"
    unrelated.write_text("# Notes\n\nNothing numeric here.\n", encoding="utf-8")
    code, out, err = run_cli("check", str(clean), str(unrelated))
    assert code == 2 and f"mha: error: {unrelated}: document: no attention numbers found" in err
    assert out.count("configuration: ") == 1                  # the other file is still checked
    code, out, err = run_cli("check", str(clean), str(unrelated), "--skip-unrelated")
    assert code == 0 and f"mha check: {unrelated}: skipped, " in err
    code, _, err = run_cli("check", str(unrelated))           # one file: exit 2, as always
    assert code == 2 and err.startswith("mha: error: document: no attention numbers found")
    code, out, _ = run_cli("check", str(clean), str(bad), "--format", "json")
    data = json.loads(out)
    assert code == 1 and [d["path"] for d in data] == [str(clean), str(bad)] and [d["ok"] for d in data] == [True, False]


def test_json_output_keeps_a_refused_document(run_cli, tmp_path):
    """A program reading --format json sees an object for every document it named, the refused ones included."""
    clean, _, _ = slipped_copy(tmp_path)
    unrelated = tmp_path / "notes.md"
    unrelated.write_text("# Notes\n\nNothing numeric here.\n", encoding="utf-8")
    code, out, err = run_cli("check", str(unrelated), "--format", "json")
    assert code == 2 and err.startswith("mha: error: document: no attention numbers found")
    one = json.loads(out)
    assert one["path"] == str(unrelated) and one["ok"] is False and one["refused"].startswith("document: no attention")
    code, out, err = run_cli("check", str(unrelated), str(clean), "--format", "json")
    data = json.loads(out)
    assert code == 2 and [d["path"] for d in data] == [str(unrelated), str(clean)]
    assert "refused" in data[0] and data[1]["ok"] is True and data[1]["claims"] > 0
    code, out, _ = run_cli("check", str(unrelated), str(clean), "--format", "json", "--skip-unrelated")
    data = json.loads(out)
    assert code == 0 and data[0]["ok"] is True and data[0]["skipped"].startswith("document: no attention")


# ------------------------------------------------------------------ the pre-commit hook

def test_pre_commit_hook_runs_its_entry(tmp_path):
    yaml = pytest.importorskip("yaml", reason="reading .pre-commit-hooks.yaml needs PyYAML: pip install -e '.[test]'")
    hooks = yaml.safe_load((ROOT / ".pre-commit-hooks.yaml").read_text(encoding="utf-8"))
    hook = next(h for h in hooks if h["id"] == "mha-check")
    assert hook["entry"] == "mha check" and hook["language"] == "python"
    files = re.compile(hook["files"])
    assert all(files.search(x) for x in ("post.md", "a/b.ipynb", "notes.tex", "page.html"))
    assert not any(files.search(x) for x in ("core.py", "data.json", "post.md.bak"))
    clean, bad, _ = slipped_copy(tmp_path)
    unrelated = tmp_path / "CHANGELOG.md"
    unrelated.write_text("# Changes\n\n- fixed a typo\n", encoding="utf-8")

    def run(*paths):              # as pre-commit runs it: entry, args, then the staged files that match
        argv = hook["entry"].split()[1:] + hook.get("args", []) + [str(p) for p in paths]
        assert all(files.search(str(p)) for p in paths)
        return subprocess.run([sys.executable, "-m", "mha", *argv], capture_output=True, text=True, timeout=300)
    assert run(clean).returncode == 0
    assert run(bad).returncode == 1
    assert run(clean, unrelated).returncode == 0
    p = run(unrelated, bad, clean)
    assert p.returncode == 1 and "Traceback" not in p.stderr


# ------------------------------------------------------------------ %mha_check

@pytest.fixture
def shell(monkeypatch):
    pytest.importorskip("IPython", reason="the magic needs IPython: pip install -e '.[test]'")
    from IPython.core.interactiveshell import InteractiveShell
    monkeypatch.delenv("JPY_SESSION_NAME", raising=False)
    sh = InteractiveShell.instance()
    sh.run_line_magic("load_ext", "mha")
    sh.user_ns.pop("__vsc_ipynb_file__", None)
    yield sh
    sh.user_ns.pop("__vsc_ipynb_file__", None)


def test_magic_checks_the_notebook_it_is_told_of(shell, capsys, monkeypatch):
    nb = str(ROOT / NOTEBOOK)
    shell.run_line_magic("mha_check", nb)                     # an explicit path
    out = capsys.readouterr().out
    assert f"{nb}:cell 6:line 6: error: " in out and out.endswith("1 note(s) on rounding\n")
    shell.user_ns["__vsc_ipynb_file__"] = nb                  # VS Code
    shell.run_line_magic("mha_check", "")
    assert f"{nb}:cell 7:line 2: error: " in capsys.readouterr().out
    del shell.user_ns["__vsc_ipynb_file__"]
    monkeypatch.setenv("JPY_SESSION_NAME", str(ROOT / POST))  # Jupyter Server
    shell.run_line_magic("mha_check", "")
    assert f"{ROOT / POST}:63: error: " in capsys.readouterr().out


def test_magic_says_in_one_line_what_it_cannot_do(shell, capsys, tmp_path):
    shell.run_line_magic("mha_check", "")
    out = capsys.readouterr().out
    assert out.count("\n") == 1 and "cannot tell which notebook" in out and "%mha_check path" in out
    shell.run_line_magic("mha_check", str(tmp_path / "missing.ipynb"))
    out = capsys.readouterr().out
    assert out.count("\n") == 1 and out.startswith("mha check: doc: no such file")


def test_magic_in_a_running_notebook(tmp_path, monkeypatch):
    """nbclient runs the cell "%load_ext mha / %mha_check" of a saved notebook (the README's, with that cell
    appended); the kernel finds the notebook from JPY_SESSION_NAME, as under Jupyter Server."""
    import nbformat
    pytest.importorskip("nbclient", reason="running a notebook needs nbclient and ipykernel: pip install -e '.[test]'")
    from nbclient import NotebookClient
    path = tmp_path / "attention_by_hand.ipynb"
    saved = nbformat.read(ROOT / NOTEBOOK, as_version=4)
    magic = nbformat.v4.new_code_cell("%load_ext mha\n%mha_check")
    saved.cells.append(magic)
    nbformat.write(saved, path)
    monkeypatch.setenv("JPY_SESSION_NAME", str(path))
    run = nbformat.v4.new_notebook(cells=[nbformat.v4.new_code_cell(magic.source)])    # only the magic cell runs
    NotebookClient(run, timeout=300, kernel_name="python3", resources={"metadata": {"path": str(tmp_path)}}).execute()
    outputs = run.cells[0].outputs
    assert not [o for o in outputs if o.get("output_type") == "error"], outputs
    text = "".join(o.get("text", "") for o in outputs)
    assert f"{path}:cell 6:line 6: error: " in text and f"{path}:cell 7:line 2: error: " in text
