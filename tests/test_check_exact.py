"""`mha check` on closed forms and long decimals (issue 21): the six documents of tests/check_exact check clean and
their 18 planted slips are found on their line with their step; `mha explain --exact` of every named example
checks clean, in Markdown and LaTeX, and a closed form slipped into it is one finding; sympy is imported only for
documents that state something exactly."""

import subprocess
import sys
from pathlib import Path

import pytest
from slip_sets import assert_hit_rate, assert_slips_apply_once, check, clean_report, load

pytest.importorskip("sympy")

import mha  # noqa: E402
from mha.check import check_document  # noqa: E402

HERE = Path(__file__).resolve().parent
EXACT = HERE / "check_exact"
DOCS = load(EXACT)
TARGET = 0.95


@pytest.mark.parametrize("doc", DOCS, ids=[d["file"] for d in DOCS])
def test_closed_form_document_is_clean(doc):
    r = clean_report(EXACT, doc)
    assert r.n_numbers >= 4                   # the closed forms were judged, not skipped


def test_closed_form_documents_infer_their_configuration():
    """Each document's configuration (the manifest's, written when the corpus was made) is the one inferred."""
    for doc in DOCS:
        r = check((EXACT / doc["file"]).read_text(encoding="utf-8"), doc)
        cfg = doc["config"]
        assert r.mapping["n_heads"] == cfg["n_heads"], doc["file"]
        assert (r.mapping.get("scale") or "1/sqrt(d_k)") == cfg.get("scale", "1/sqrt(d_k)"), doc["file"]
        assert bool(r.mapping.get("causal")) == bool(cfg.get("causal")), doc["file"]
        for key in ("X", "Q", "K", "V"):
            if key in cfg:
                assert r.mapping[key] == [[float(x) for x in row] for row in cfg[key]], (doc["file"], key)


def test_closed_form_slips_apply_once_and_change_the_text():
    assert_slips_apply_once(EXACT, DOCS)


def test_closed_form_slips_found():
    assert_hit_rate(EXACT, DOCS, TARGET, "closed forms")


def test_one_slip_is_one_finding_with_the_exact_closed_form():
    doc = next(d for d in DOCS if d["file"] == "tex_beamer_qkv_dk3.tex")
    text = (EXACT / doc["file"]).read_text(encoding="utf-8")
    s = doc["slips"][0]                           # √2 where √d_k is √3
    r = check(text.replace(s["find"], s["replace"]), doc)
    assert [f.line for f in r.errors] == [s["line"]], [f.describe() for f in r.findings]
    f = r.errors[0]
    # the exact value is given as a closed form over √3, and the cause names the scale that was used
    assert "\\sqrt{3}" in f.exact and "scores divided by √2" in f.cause and f.kind == "wrong_scale"


@pytest.mark.parametrize("find, replace, severity", [
    ("0.751744921742", "0.751744921741", "note"),      # one unit off in the 12th digit: a note
    ("0.751744921742", "0.751744921752", "error"),
    ("0.751744921742", "0.7517449217423", None),       # one more correct digit
])
def test_long_decimal_is_correctly_rounded_at_its_own_precision(find, replace, severity):
    text = (EXACT / "md_homework_solution_seed.md").read_text(encoding="utf-8").replace(find, replace)
    r = check_document(text, name="seed.md")
    got = [f.severity for f in r.findings if f.line == 21]
    assert got == ([severity] if severity else []), [f.describe() for f in r.findings]


EXAMPLES = sorted(n for n in mha.EXAMPLES if n != "llama-decode")     # its cache is not short decimals


@pytest.mark.parametrize("name", EXAMPLES)
def test_explain_exact_checks_clean(name):
    """The project's own closed forms, in Markdown (English) and LaTeX (Chinese), check clean."""
    ex_en = mha.explain(mha.EXAMPLES[name].data, lang="en", exact=True)
    ex_zh = mha.explain(mha.EXAMPLES[name].data, lang="zh", exact=True)
    for text, fmt in ((ex_en.to_markdown(), "md"), (ex_zh.to_latex(), "tex")):
        r = check_document(text, fmt=fmt)
        assert not r.errors, (name, fmt, [f.describe() for f in r.errors])


def test_a_slip_in_the_exact_explanation_is_found_exactly():
    """A closed form beside its (right) decimal is judged exactly: e^{√2} for e^{√2/2} is one finding, and the
    decimal after it is not a second one."""
    md = mha.explain(lang="en", exact=True).to_markdown()
    find = "A^{(1)}_{33} = \\frac{e^{\\sqrt{2}/2}}{2 + e^{\\sqrt{2}/2}}"
    assert md.count(find) == 1
    r = check_document(md.replace(find, find.replace("e^{\\sqrt{2}/2}}{", "e^{\\sqrt{2}}}{")), fmt="md")
    assert len(r.errors) == 1 and "\\frac{e^{\\sqrt{2}/2}}{2 + e^{\\sqrt{2}/2}}" in r.errors[0].exact, \
        [f.describe() for f in r.findings]


def test_sympy_is_loaded_only_for_exact_statements():
    code = ("import sys, mha; from mha.check import check_document; "
            "check_document(mha.explain(lang='en').to_markdown(), fmt='md'); "
            "print('sympy' in sys.modules, 'mpmath' in sys.modules)")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert out.split() == ["False", "False"]


@pytest.mark.parametrize("readme", ["README.md", "README.zh-CN.md"])
def test_readme_shows_the_real_closed_form_finding(readme):
    text = (HERE.parent / readme).read_text(encoding="utf-8")
    shown = [line for line in text.splitlines() if line.startswith("line 14: A^(1)[1,2] (α_12)")]
    doc = next(d for d in DOCS if d["file"] == "tex_beamer_qkv_dk3.tex")
    s = doc["slips"][0]
    r = check((EXACT / doc["file"]).read_text(encoding="utf-8").replace(s["find"], s["replace"]), doc)
    assert shown == [f.describe() for f in r.errors]
