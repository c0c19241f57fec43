"""The step-by-step explanation, continued: the words, flags and number formats of what it writes."""

import re

import pytest

import mha
from mha.explanation import LANGS
from mha.explanation.catalog import catalog

from test_explain import CONFIGS, check_numbers

def test_a_row_is_read_out_over_its_visible_keys_only():
    """Causal, S > 6: "attends most to" names visible keys only (it used to list future tokens with weight 0)."""
    data = dict(mha.random_example(T=8, d_model=4, n_heads=1, seed=3), causal=True)
    t = mha.trace(data)
    for lang in LANGS:
        ex = mha.explain(t, lang=lang, full=True)
        sec = next(s for s in ex.sections if s.key == "head1.softmax")
        tops = [b.text for b in sec.blocks if isinstance(b, mha.explanation.Para)
                and ("token 1 attends most" in b.text or "token 1 最关注" in b.text)]
        assert len(tops) == 1
        assert "token 1 (1)" in tops[0] or "token 1（1）" in tops[0], tops
        assert "token 2" not in tops[0]                               # row 1 sees key 1 only
    md = mha.explain(t, lang="en", full=True).to_markdown()
    row3 = re.search(r"token 3 attends most to (.*)\.", md).group(1)
    mentioned = [int(j) for j in re.findall(r"token (\d+) \(", row3)]
    assert mentioned == sorted(mentioned, key=lambda j: -t.A[0, 0, 2, j - 1]) and max(mentioned) <= 3


def test_short_rows_list_visible_keys_only():
    md = mha.explain(CONFIGS["causal"], lang="en").to_markdown()
    assert "token 1 attends to token 1 with weight 1" in md
    assert "token 1 attends to token 2" not in md and "token 2 attends to token 3" not in md


def test_chinese_text_uses_chinese_punctuation():
    """No ASCII , ; : ( ) next to Chinese text in any zh catalog entry (math and placeholders aside)."""
    cjk = "\u4e00-\u9fff\u3000-\u303f\uff00-\uffef"
    bad = re.compile(rf"[{cjk}][,;:()!?]|[,;:()!?][{cjk}]")
    for key, text in catalog("zh").items():
        prose = re.sub(r"\$[^$]*\$|<[a-z_]+>", "x", text)
        assert not bad.search(prose), (key, text)
    data = dict(mha.random_example(T=8, d_model=4, n_heads=1, B=2, seed=3), key_lengths=[8, 5])
    text = mha.explain(data, lang="zh").to_text()
    assert "）、token" in text and "）, token" not in text          # the top-3 list: 、 between items
    assert "8、5" in text                                            # the padding lengths


def test_padding_in_another_sequence_is_pointed_out():
    data = dict(mha.random_example(T=4, d_model=4, n_heads=2, B=3, seed=9), key_lengths=[4, 2, 3])
    md = mha.explain(data, lang="en").to_markdown()
    assert "Sequence 1 has no padding; the padding shows in sequence(s) 2, 3 (see it with --batch 2)." in md
    md = mha.explain(data, lang="en", batch=1).to_markdown()
    assert "has no padding" not in md and "-\\infty" in md


def test_huge_numbers_print_in_scientific_notation_in_every_view(recwarn):
    """1e150 squared is 1e300: no 301-digit number, no raw LaTeX in the terminal, no warning."""
    ex = mha.explain({"X": [[1e150, 0.5], [0.25, 1]], "n_heads": 1}, lang="en")
    text, md, tex = ex.to_text(), ex.to_markdown(), ex.to_latex()
    assert "1.0000×10³⁰⁰" in text and "\\" not in text and "$" not in text
    assert max(len(line) for line in text.splitlines()) <= 100
    assert "1.0000\\times10^{300}" in md and "0" * 20 not in md + tex
    assert "nan" not in text.lower()
    assert not recwarn.list


@pytest.mark.parametrize("x,p,want", [
    (0.751745, 4, ("", "0.7517", None)), (0.75175, 4, ("", "0.7518", None)), (3.0, 4, ("", "3", None)),
    (-2.0, 4, ("-", "2", None)), (-0.00001, 4, ("", "0.0000", None)), (123456.25, 1, ("", "123456.2", None)),
    (1e9, 4, ("", "1.0000", 9)), (-2.5e300, 2, ("-", "2.50", 300)), (float("-inf"), 4, ("-", "inf", None)),
])
def test_one_number_formatter(x, p, want):
    from mha.explanation.numbers import format_number
    assert tuple(format_number(x, p)) == want


def test_every_catalog_text_converts_to_plain_unicode():
    """pylatexenc reads every formula of the catalogs; the emitter leaves no LaTeX behind."""
    from mha.render.mathread import spans
    from mha.render.unicode import prose_to_unicode
    for lang in LANGS:
        for key, text in catalog(lang).items():
            assert "".join(f"${s.source}$" if s.math else s.source for s in spans(text)) == text, key
            out = prose_to_unicode(text)
            assert "\\" not in out and "$" not in out and "{" not in out, (key, out)


def test_prose_is_cut_into_math_as_pylatexenc_reads_it():
    """The quick $-split of prose agrees with pylatexenc's walker on every catalog text, every sentence of every
    named example's explanation, and texts that must go to the walker (braces, comments, $$, escaped dollars)."""
    from mha.render.mathread import spans, walked_spans
    texts = [text for lang in LANGS for text in catalog(lang).values()]
    for name in mha.EXAMPLES:
        for lang in LANGS:
            ex = mha.explain(mha.EXAMPLES[name].data, lang=lang)
            texts += [s.title for s in ex.sections]
            for s in ex.sections:
                for b in s.blocks:
                    texts += [b.text] if hasattr(b, "text") else list(getattr(b, "items", ()))
    texts += ["{$x$} and $y$", "50% of $x$", "a $$x$$ b", "costs \\$5 and $y$", "odd $x", "$a$$b$"]
    assert len(texts) > 1000
    for text in texts:
        assert spans(text) == walked_spans(text), text


def test_unicode_of_the_formulas_the_explanation_writes():
    from mha.render.unicode import to_unicode
    assert to_unicode(r"A^{(1)}_{ij} = \frac{e^{S_{ij} - m_i}}{\sum_{j'} e^{S_{ij'} - m_i}}") == \
        "A⁽¹⁾ᵢⱼ = (e^(Sᵢⱼ - mᵢ))/(Σ_(j') e^(S_(ij') - mᵢ))"
    assert to_unicode(r"\tilde{O} \in \mathbb{R}^{3 \times 2}") == "O\u0303 ∈ ℝ³ˣ²"
    assert to_unicode(r"2.5\times10^{-16}") == "2.5×10⁻¹⁶"


def test_chinese_lines_break_between_characters_not_inside_latin_words():
    from mha.render.text import fold_cjk
    text = "因果掩码：与 PyTorch 的 scaled_dot_product_attention 相同，查询只能看之前的键"
    lines = fold_cjk(text, 30).splitlines()
    assert len(lines) > 1 and any("scaled_dot_product_attention" in line for line in lines)
    assert "".join(lines).replace(" ", "") == text.replace(" ", "")


def test_token_texts_label_rows_and_columns():
    """The input's token texts (a real model's tokens) label the matrices in every view; prose keeps numbers."""
    data = dict(mha.DOCUMENT_EXAMPLE, tokens=["The", "cat", "<b>"], causal=True)
    ex = mha.explain(data, lang="en")
    a = next(b for s in ex.sections if s.key == "head1.softmax" for b in s.blocks
             if isinstance(b, mha.explanation.Matrix))
    assert a.row_labels == ("The", "cat", "<b>") and a.col_labels == ("The", "cat", "<b>")
    text = ex.to_text()
    assert re.search(r"^\s+The\s+cat\s+<b>$", text, re.M) and re.search(r"^cat A⁽¹⁾ ≈", text, re.M)
    assert "<th>&lt;b&gt;</th>" in ex.to_html() and "<th><b></th>" not in ex.to_html()
    assert check_numbers(ex) > 0


def test_explain_computes_its_trace_on_one_blas_thread_and_gives_the_threads_back(monkeypatch, run_cli):
    """`mha explain` holds BLAS to one thread while the float64 trace is computed (`team.one_blas_thread`): idle
    OpenBLAS workers spin between the steps, and the trace's last bits no longer depend on the machine's cores."""
    from threadpoolctl import threadpool_info, threadpool_limits

    import importlib
    trace_module = importlib.import_module("mha.trace")       # mha.trace is also the function
    seen = []
    real_run = trace_module.run

    def spy(cfg):
        seen.append({p["num_threads"] for p in threadpool_info() if p["user_api"] == "blas"})
        return real_run(cfg)

    monkeypatch.setattr(trace_module, "run", spy)
    with threadpool_limits(limits=2, user_api="blas"):
        before = [p["num_threads"] for p in threadpool_info() if p["user_api"] == "blas"]
        code, out, _ = run_cli("explain", "--example", "batch", "--format", "md", "--lang", "en")
        after = [p["num_threads"] for p in threadpool_info() if p["user_api"] == "blas"]
    assert code == 0 and "softmax" in out
    assert seen == [{1}]
    assert after == before
