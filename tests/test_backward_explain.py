"""`mha explain --backward`: the backward steps in order, every shown gradient equal to the trace's, in both
languages and every view; the written-out entries, the Jacobian and the finite-difference check; the CLI flags."""

import re
import shutil
import subprocess

import numpy as np
import pytest

import mha
from mha.explanation import LANGS, Matrix
from mha.explanation.tokens import first_query
from test_explain import NUMBER, check_numbers, md_sections, parse_md_matrices

BACKWARD_CONFIGS = {
    "document": mha.EXAMPLES["backward"].data,
    "causal-target": mha.EXAMPLES["backward-causal"].data,
    "gqa-dY": dict(mha.EXAMPLES["gqa"].data, backward={"dY": (np.arange(24).reshape(3, 8) % 5 - 2).tolist()}),
    "rope": dict(mha.EXAMPLES["rope"].data, backward={"loss": "sum"}),
    "llama-decode": dict(mha.EXAMPLES["llama-decode"].data, backward={"loss": "sum"}),
    "per-head": dict(mha.EXAMPLES["per-head"].data, b_O=[0.5, -1], backward={"target": [[0, 1], [1, 0], [1, 1]]}),
    "qkv": dict(mha.EXAMPLES["qkv"].data, backward={"loss": "sum"}),
    "batch-padding": dict(mha.EXAMPLES["batch"].data, key_lengths=[3, 2], backward={"loss": "sum"}),
    "cross": dict(mha.random_example(T=2, d_model=4, n_heads=2, seed=5), key=np.arange(12.0).reshape(4, 3) / 10,
                  W_K=np.ones((3, 4)) / 3, W_V=np.eye(3, 4), b_K=[0.1, 0, 0, 0.2], backward={"loss": "sum"}),
    "alibi-window": dict(mha.EXAMPLES["window"].data, alibi=True, backward={"loss": "sum"}),
}


def grad_lookup(t, section, lhs, b=0):
    """The array a matrix of a backward section shows, read from the trace's gradients (the Jacobian from the
    definition, diag(a) - a aᵀ, on the forward's A)."""
    g, c = t.grads, t.config
    m = re.match(r"backward\.head(\d+)\.", section)
    h = int(m.group(1)) - 1 if m else None
    kv = re.search(r"\^\{\((\d+)\)\}", lhs)
    k = int(kv.group(1)) - 1 if kv else None
    if section == "backward":
        return c.backward.array[b] if lhs == "\\text{target}" else g.dY[b]
    if section == "backward.output":
        return {"dW_O": g.dW_O, "db_O": None if g.db_O is None else g.db_O[None]}.get(lhs, g.dO_concat[b])
    if section == "backward.split":
        return g.dO[b, k]
    if section.endswith(".av"):
        return g.dA[b, h] if lhs.startswith("dA") else g.dV_share[b, h]
    if section.endswith(".softmax"):
        if lhs.startswith("J_"):
            i = int(re.match(r"J_\{(\d+)\}", lhs).group(1)) - first_query(c) - 1
            a = t.A[b, h, i]
            return np.diag(a) - np.outer(a, a)
        return g.D[b, h][:, None] if lhs.startswith("D^") else g.dS[b, h]
    if section.endswith(".scores"):
        if lhs.startswith("d(Q"):
            return g.dQKt[b, h]
        if "RoPE}(Q" in lhs:
            return g.dQh_rope[b, h]
        return g.dQh[b, h] if lhs.startswith("dQ") else g.dK_share[b, h]
    if section == "backward.kv":
        if "cache" in lhs:
            return (g.dcache_K if lhs.startswith("dK") else g.dcache_V)[b, k]
        if "new" in lhs:
            return (g.dKh if lhs.startswith("dK") else g.dVh)[b, k]
        if "RoPE" in lhs:
            return g.dK_all[b, k]
        if lhs.startswith("dK"):
            return (g.dKh if c.rope is not None else g.dK_all)[b, k]
        return g.dV_all[b, k]
    if section == "backward.merge":
        return {"dQ": g.dQ, "dK": g.dK, "dV": g.dV}[lhs][b]
    if section == "backward.projections":
        return getattr(g, lhs) if lhs.startswith("dW") else getattr(g, lhs)[None]
    if section == "backward.inputs":
        return {"dQ\\, W_Q^{\\top}": g.dX_Q, "dK\\, W_K^{\\top}": g.dX_K, "dV\\, W_V^{\\top}": g.dX_V,
                "dX": g.dX}[lhs][b]
    raise KeyError((section, lhs))


def backward_keys(ex):
    return [s.key for s in ex.sections if s.key.startswith("backward")]


def test_the_backward_steps_in_order():
    ex = mha.explain(mha.EXAMPLES["backward"].data, lang="en")
    assert backward_keys(ex) == [
        "backward", "backward.output", "backward.split",
        "backward.head1.av", "backward.head1.softmax", "backward.head1.scores",
        "backward.head2.av", "backward.head2.softmax", "backward.head2.scores",
        "backward.merge", "backward.projections", "backward.inputs", "backward.check", "backward.shapes"]
    keys = [s.key for s in ex.sections]
    assert keys.index("closing") < keys.index("backward")          # after the whole forward pass
    md = ex.to_markdown()
    for needle in ("dA^{(1)} = dO^{(1)}\\, (V^{(1)})^{\\top}:\\quad [3, 2] \\times [2, 3] = [3, 3]",
                   "dV^{(1)} = (A^{(1)})^{\\top}\\, dO^{(1)}:\\quad [3, 3] \\times [3, 2] = [3, 2]",
                   "dW_Q = X^{\\top}\\, dQ:\\quad [4, 3] \\times [3, 4] = [4, 4]",
                   "J_i = \\operatorname{diag}(a_i) - a_i a_i^{\\top}", "A \\odot (dA - D)",
                   "dX = dQ\\, W_Q^{\\top} + dK\\, W_K^{\\top} + dV\\, W_V^{\\top}",
                   "Nudge $W_Q[1,1]$ by $\\varepsilon = 10^{-6}$"):
        assert needle in md, needle
    assert "backward" not in [s.key for s in mha.explain(mha.DOCUMENT_EXAMPLE, lang="en").sections]


@pytest.mark.parametrize("lang", LANGS)
@pytest.mark.parametrize("name", sorted(BACKWARD_CONFIGS))
def test_every_shown_gradient_is_the_traces(name, lang):
    ex = mha.explain(BACKWARD_CONFIGS[name], lang=lang)
    assert check_numbers(ex) > 40
    shown = [blk for s in ex.sections if s.key.startswith("backward") for blk in s.blocks if isinstance(blk, Matrix)]
    assert len(shown) >= 12
    c = ex.trace.config
    # per shown head dA, dS and dQ written out; the check; with W_O dW_O and dO_concat; with X dW_Q; dX
    expected = 3 * c.n_heads + 1 + 2 * (c.W_O is not None) + (c.X is not None) + (c.X is not None and c.key is None)
    assert check_written_out(ex) == expected
    text, tex, html = ex.to_text(), ex.to_latex(), ex.to_html()
    assert not re.search(r"[\\${}]", text), name                     # no LaTeX left in the terminal
    assert tex.rstrip().endswith("\\end{document}") and html.startswith("<!DOCTYPE html>")
    for sec in ex.sections:
        if sec.key.startswith("backward"):
            title = re.sub(r"\$[^$]*\$", "", sec.title).strip()
            assert all(title.split()[0] in view for view in (text, tex, html)), (sec.key, title)


def _same(printed, x, p):
    return float(printed) == x or float(printed) == round(float(x), p)


def check_written_out(ex):
    """The numbers of the displays that write an entry out: each product's factors are the trace's, and the
    result equals the sum of the exact products, rounded; the finite-difference paragraph's numbers too."""
    t, p, b = ex.trace, ex.options.precision, ex.options.batch
    g, n = t.grads, 0
    term = re.compile(r"\(?(" + NUMBER + r")\)? \\times \(?(" + NUMBER + r")\)?")
    for key, lines in md_sections(ex):
        if not key.startswith("backward"):
            continue
        for line in lines:
            m = re.match(r"^(dW_O\[1,1\]|dW_Q\[1,1\]|\(O_\{\\text\{concat\}\}\^\{\\top\} dY\)\[1,1\]|"
                         r"\(X\^\{\\top\} dQ\)\[1,1\]|dA\^\{\((\d+)\)\}_\{(\d+),1\}|"
                         r"dO_\{\\text\{concat\}\}\[(\d+),1\]) = (.*) = (" + NUMBER + r")$", line)
            if m:
                terms = term.findall(m.group(5))
                result = float(m.group(6))
                # the exact result, from the trace's gradients (not from the displayed, rounded terms)
                name = m.group(1)
                if name.startswith("dW_O") or name.startswith("(O"):
                    want = float(t.O_concat[b, :, 0] @ g.dY[b, :, 0])
                elif name.startswith("dW_Q") or name.startswith("(X"):
                    want = float(t.config.X[b, :, 0] @ g.dQ[b, :, 0])
                elif name.startswith("dA"):
                    want = g.dA[b, int(m.group(2)) - 1, int(m.group(3)) - first_query(t.config) - 1, 0]
                else:
                    want = g.dO_concat[b, int(m.group(4)) - first_query(t.config) - 1, 0]
                assert _same(m.group(6), want, p), (line, want)
                assert len(terms) >= 1 and abs(sum(float(x) * float(y) for x, y in terms) - result) \
                    <= len(terms) * 2 * 10 ** -p, line
                n += 1
            m = re.match(r"^dS\^\{\((\d+)\)\}_\{(\d+),(\d+)\} = .* = (" + NUMBER + r")$", line)
            if m:
                h, i, j = int(m[1]) - 1, int(m[2]) - first_query(t.config) - 1, int(m[3]) - 1
                assert _same(m[4], g.dS[b, h, i, j], p) and g.dS[b, h, i, j] == pytest.approx(
                    t.A[b, h, i, j] * (g.dA[b, h, i, j] - g.D[b, h, i]), abs=1e-14), line
                n += 1
            m = re.match(r"^d(\\mathrm\{RoPE\}\()?Q\^\{\((\d+)\)\}\)?_\{(\d+),1\} = (.*) = (" + NUMBER + r")$", line)
            if m:
                h, i = int(m[2]) - 1, int(m[3]) - first_query(t.config) - 1
                want = (g.dQh if m[1] is None else g.dQh_rope)[b, h, i, 0]
                terms = term.findall(m[4])
                assert _same(m[5], want, p) and abs(sum(float(x) * float(y) for x, y in terms) - float(m[5])) \
                    <= len(terms) * 2 * 10 ** -p, line
                n += 1
            m = re.match(r"^dX_\{(\d+),1\} = .* = (" + NUMBER + r")$", line)
            if m:
                assert _same(m[2], g.dX[b, int(m[1]) - first_query(t.config) - 1, 0], p), line
                n += 1
        if key == "backward.check":
            text = "\n".join(lines)
            found = re.findall(r"(" + NUMBER + r")", text.split("=", 1)[1])
            assert found, text
            slope = re.search(r"= (" + NUMBER + r")\n\$\$", text)
            assert slope and abs(float(slope[1]) - _first_grad(t)) < 1e-6, text
            n += 1
    return n


def _first_grad(t):
    g, c = t.grads, t.config
    return float(g.dW_Q[0, 0] if c.W_Q is not None else g.dQ[0, 0, 0])


def test_the_jacobian_row_times_dA_is_the_row_of_dS():
    ex = mha.explain(mha.EXAMPLES["backward"].data, lang="en")
    md = ex.to_markdown()
    m = re.search(r"J_\{1\}\\, \(dA\^\{\(1\)\}_\{1,:\}\)\^\{\\top\} = \[([^\]]*)\]", md)
    got = [float(x) for x in m.group(1).split(",")]
    np.testing.assert_allclose(got, ex.trace.grads.dS[0, 0, 0], atol=0.5e-4)


def test_masked_entries_are_said_to_get_no_gradient():
    ex = mha.explain(mha.EXAMPLES["backward-causal"].data, lang="en")
    soft = next(s for s in ex.sections if s.key == "backward.head1.softmax")
    assert any("no gradient" in getattr(blk, "text", "") for blk in soft.blocks)
    dS = next(blk for blk in soft.blocks if isinstance(blk, Matrix) and blk.symbol.startswith("dS"))
    masked = [(i, j) for r, i in enumerate(dS.rows) for c, j in enumerate(dS.cols) if dS.cells[r][c].masked]
    assert masked == [(0, 1), (0, 2), (1, 2)] and all(dS.cells[i][j].value == 0 for i, j in masked)
    nomask = mha.explain(mha.EXAMPLES["backward"].data, lang="en")
    assert not any("no gradient" in getattr(blk, "text", "") for s in nomask.sections for blk in s.blocks)


def test_gqa_and_the_cache_say_what_they_sum_and_what_they_keep():
    ex = mha.explain(BACKWARD_CONFIGS["llama-decode"], lang="en")
    kv = next(s for s in ex.sections if s.key == "backward.kv")
    text = " ".join(getattr(blk, "text", " ".join(getattr(blk, "items", ()))) for blk in kv.blocks)
    assert "query heads 1, 2" in text and "cache" in text and "new rows" in text
    symbols = [blk.symbol for blk in kv.blocks if isinstance(blk, Matrix)]
    assert "dK^{(1)}_{\\text{cache}}" in symbols and "dK^{(1)}_{\\text{new}}" in symbols


def test_cross_attention_keeps_the_three_inputs_apart():
    ex = mha.explain(BACKWARD_CONFIGS["cross"], lang="en")
    sec = next(s for s in ex.sections if s.key == "backward.inputs")
    assert "dX_k = dK\\, W_K^{\\top}" in sec.blocks[1].latex
    assert ex.trace.grads.dX_K.shape == (1, 4, 3) and ex.trace.grads.dX.shape == (1, 2, 4)
    np.testing.assert_array_equal(ex.trace.grads.dX, ex.trace.grads.dX_Q)


@pytest.mark.parametrize("lang", LANGS)
def test_zh_and_en_backward_have_the_same_sections_and_numbers(lang):
    en, zh = (mha.explain(mha.EXAMPLES["backward-causal"].data, lang=x) for x in ("en", "zh"))
    assert [s.key for s in en.sections] == [s.key for s in zh.sections]
    assert parse_md_matrices(en.to_markdown()) == parse_md_matrices(zh.to_markdown())
    if lang == "zh":
        md = zh.to_markdown()
        for term in ("梯度（gradient）", "反向传播（backward pass）", "雅可比矩阵（Jacobian）",
                     "链式法则（chain rule）"):
            assert term in md, term


# ------------------------------------------------------------------ the command line

def test_backward_flag_and_its_upstream_flags(run_cli):
    code, out, err = run_cli("explain", "--backward", "--format", "md", "--lang", "en")
    assert code == 0, err
    assert out == mha.explain(mha.EXAMPLES["backward"].data, lang="en").to_markdown()
    code, out, err = run_cli("explain", "--backward", "--target", "[[1,0,1,0],[0,1,0,1],[1,1,0,0]]", "--causal",
                             "--format", "md", "--lang", "en")
    assert code == 0 and out == mha.explain(mha.EXAMPLES["backward-causal"].data, lang="en").to_markdown()
    code, out, err = run_cli("explain", "--backward", "--dy", "[[1,0,0,0],[0,0,0,0],[0,0,0,0]]", "--format", "json")
    t = mha.Trace.from_json(out)
    assert code == 0 and t.grads.loss == "dY" and t.grads.dY[0, 0].tolist() == [1, 0, 0, 0]


@pytest.mark.parametrize("argv, needle", [
    (("--dy", "[[1]]"), "--dy: only used with --backward"),
    (("--backward", "--dy", "[[1,2,3,4]]"), "backward.dY: shape [1, 4]"),
    (("--backward", "--dy", "[[1,2,3,4]]", "--target", "[[1,2,3,4]]"), "--target: give --dy or --target"),
    (("--backward", "--target", "[[1,2"), "--target: not valid JSON"),
])
def test_bad_backward_flags_are_one_line(argv, needle, run_cli):
    code, out, err = run_cli("explain", *argv)
    assert code == 2 and out == "" and err.count("\n") == 1 and needle in err, err


@pytest.mark.skipif(shutil.which("xelatex") is None, reason="xelatex not installed (.ci/run installs it)")
@pytest.mark.parametrize("lang", LANGS)
@pytest.mark.parametrize("name", ["backward", "llama-decode"])
def test_backward_latex_compiles(tmp_path, lang, name):
    data = mha.EXAMPLES["backward"].data if name == "backward" else BACKWARD_CONFIGS[name]
    (tmp_path / "doc.tex").write_text(mha.explain(data, lang=lang).to_latex(), encoding="utf-8")
    p = subprocess.run(["xelatex", "-interaction=nonstopmode", "-halt-on-error", "doc.tex"], cwd=tmp_path,
                       capture_output=True, text=True, timeout=300)
    assert p.returncode == 0, p.stdout[-2000:]
    log = (tmp_path / "doc.log").read_text(errors="replace")
    assert "Missing character" not in log


# ------------------------------------------------------------------ the backward on tiles

@pytest.mark.parametrize("name, block", [("document", 2), ("causal-target", 1), ("llama-decode", 2),
                                         ("batch-padding", 2), ("alibi-window", 3)])
def test_tiled_backward_recomputes_A_and_gives_the_same_gradients(name, block):
    """--tiled --backward: each P tile is exactly A's columns (e^(S - lse) = A), and the blocks' dK, dV rows and
    the final dQ equal the untiled gradients."""
    data = BACKWARD_CONFIGS[name]
    for lang in LANGS:
        ex = mha.explain(data, lang=lang, tiled_block=block, batch=1 if name == "batch-padding" else 0)
        t, b = ex.trace, ex.options.batch
        g = t.grads
        keys = [s.key for s in ex.sections]
        assert keys.index("backward.head1.scores") < keys.index("tiled.backward") < keys.index("backward.merge")
        for h in range(t.config.n_heads):
            sec = next(s for s in ex.sections if s.key == f"tiled.backward.head{h + 1}")
            mats = [blk for blk in sec.blocks if isinstance(blk, Matrix)]
            P = [m for m in mats if m.symbol.startswith("P_")]
            dK = [m for m in mats if m.symbol.startswith("dK_")]
            dV = [m for m in mats if m.symbol.startswith("dV_")]
            assert len(P) == len(dK) == len(dV) == -(-t.config.S // block)
            for k, (p, dk, dv) in enumerate(zip(P, dK, dV)):
                k0, k1 = k * block, min((k + 1) * block, t.config.S)
                got = np.array([[c.value for c in row] for row in p.cells])
                np.testing.assert_allclose(got, t.A[b, h][:, k0:k1], rtol=0, atol=1e-15)
                np.testing.assert_allclose([[c.value for c in row] for row in dk.cells], g.dK_share[b, h, k0:k1],
                                           rtol=0, atol=1e-14)
                np.testing.assert_allclose([[c.value for c in row] for row in dv.cells], g.dV_share[b, h, k0:k1],
                                           rtol=0, atol=1e-14)
            dQ = next(m for m in mats if m.symbol == f"dQ^{{({h + 1})}}")
            want = (g.dQh if g.dQh_rope is None else g.dQh_rope)[b, h]
            np.testing.assert_allclose([[c.value for c in row] for row in dQ.cells], want, rtol=0, atol=1e-14)
        text = ex.to_text()
        assert not re.search(r"[\\${}]", text) and "mathrel" not in text


def test_cli_tiled_backward(run_cli):
    code, out, err = run_cli("explain", "--example", "backward", "--tiled", "--block-size", "1", "--format", "md",
                             "--lang", "zh")
    assert code == 0, err
    assert "FlashAttention-2" in out
    assert out.count("这一块对应的 $dV$") == 6                  # three key blocks for each of two heads
