"""`mha check` on damaged documents: real worked examples (tests/check_corpus, tests/check_heldout) cut and
spoiled at random.  Whatever a document holds, the checker answers with a report or one MHAInputError (exit 2),
never another exception.

The examples are derandomized, so every run repeats the same ones; MHA_FUZZ_EXAMPLES=3000 MHA_FUZZ_RANDOM=1
searches further.
"""

import json
import os
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings, strategies as st

from mha.check import check_document
from mha.inputs import MHAInputError

ROOT = Path(__file__).resolve().parent
DOCS = sorted(p for folder in ("check_corpus", "check_heldout") for p in (ROOT / folder).iterdir()
              if p.suffix in (".md", ".tex", ".html", ".txt", ".ipynb") and p.name != "README.md")
TEXTS = {p.name: p.read_text(encoding="utf-8") for p in DOCS}

# what damage looks like: stray and unbalanced delimiters, numbers past float64, half-written environments
JUNK = ["[", "]", "[[", "]]", "(", ")", "{", "}", "$", "$$", "\\[", "\\]", "\\begin{bmatrix}", "\\end{bmatrix}",
        "\\begin{", "\\end{", "&", "\\\\", "|", "\n|---|\n", "1e999", "-1e999", "3.4e+388", "0e400", "1e-999",
        "9" * 400, "nan", "-inf", "⎡", "⎣", "│", "┌", "In [3]:", "Out[3]:", "```", "<table>", "<td>", "<math>",
        "\\frac{", "\\sqrt", "^", "_", "=", "≈", "×", "·", "/", "0/0", "1/0", "e^{1e999}", "exp(1e999)", "…", "⋮"]

mutation = st.one_of(
    st.tuples(st.just("delete"), st.floats(0, 1), st.integers(1, 400)),
    st.tuples(st.just("insert"), st.floats(0, 1), st.sampled_from(JUNK)),
    st.tuples(st.just("number"), st.floats(0, 1), st.sampled_from(["1e999", "3.4e+388", "-1e999", "0e400"])),
)


def damage(text: str, mutations) -> str:
    for kind, where, what in mutations:
        k = int(where * len(text))
        if kind == "delete":
            text = text[:k] + text[k + what:]
        elif kind == "number":
            # a number of the document replaced by one float64 cannot hold
            digit = next((j for j in range(k, len(text)) if text[j].isdigit()), None)
            if digit is not None:
                end = digit
                while end < len(text) and (text[end].isdigit() or text[end] == "."):
                    end += 1
                text = text[:digit] + what + text[end:]
        else:
            text = text[:k] + what + text[k:]
    return text


def damaged_document(name: str, mutations) -> str:
    """The document with its damage; a notebook is damaged inside one cell's source (JSON stays JSON)."""
    text = TEXTS[name]
    if not name.endswith(".ipynb"):
        return damage(text, mutations)
    nb = json.loads(text)
    cells = nb["cells"]
    cell = cells[int(mutations[0][1] * len(cells)) % len(cells)] if cells else None
    if cell is not None:
        src = cell["source"] if isinstance(cell["source"], str) else "".join(cell["source"])
        cell["source"] = damage(src, mutations)
    return json.dumps(nb, ensure_ascii=False)


def test_the_fuzz_reads_real_documents():
    assert len(DOCS) >= 40 and {p.suffix for p in DOCS} >= {".md", ".tex", ".html", ".txt", ".ipynb"}
    assert damage("x = 0.25 + 1", [("number", 0.0, "1e999")]) == "x = 1e999 + 1"


@settings(max_examples=int(os.environ.get("MHA_FUZZ_EXAMPLES", 300)), deadline=None, database=None,
          derandomize=not os.environ.get("MHA_FUZZ_RANDOM"), suppress_health_check=[HealthCheck.too_slow])
@given(name=st.sampled_from(sorted(TEXTS)), mutations=st.lists(mutation, min_size=1, max_size=6))
def test_a_damaged_document_gives_a_report_or_one_clear_error(name, mutations):
    text = damaged_document(name, mutations)
    try:
        report = check_document(text, name=name)
    except MHAInputError as e:
        assert str(e) and "\n" not in str(e).strip()
        return
    assert report.exit_code in (0, 1)
    report.to_text()
    report.to_json()


@pytest.mark.parametrize("cell", ["3.4e+388", "1e999", "-1e999", "0e400", "9" * 400])
def test_a_number_past_float64_is_no_traceback(cell):
    """A table cell 3.4e+388 once raised OverflowError in Num.parse."""
    from mha.check.numbers import Num
    n = Num.parse(cell)
    assert n.lo <= n.value <= n.hi
    text = TEXTS["md_blog_causal_two_heads.md"]
    damaged = damage(text, [("number", 0.5, cell)])
    assert damaged != text
    try:
        check_document(damaged, name="x.md")
    except MHAInputError:
        pass


def test_a_shape_word_before_an_elided_matrix_is_no_traceback():
    """Fuzzing a trial page (seed 30) made `weights shape [[1, 2], ...]`: a matrix whose elided row is None, after a
    word that ends in "shape", raised TypeError in readers/statements._named_shape."""
    for fmt in ("md", "txt"):
        try:
            report = check_document("# x\n\n```\nweights shape [[1, 2], ...]\n```\n", fmt=fmt)
        except MHAInputError as e:
            assert str(e) and "\n" not in str(e).strip()
            continue
        assert report.exit_code in (0, 1)
