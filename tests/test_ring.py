"""Ring attention: the layouts, the merge, the ring simulated in one process, and the real ring over
torch.distributed (gloo, processes on 127.0.0.1) against the single-process float64 reference."""

from __future__ import annotations

import json
import os
import re
import socket
import subprocess
import sys
import time
from pathlib import Path

import numpy as np
import pytest

import mha
from mha.fast import merge_tile
from mha.inputs import MHAInputError
from mha.shards import Layout, messages, simulate, tile_state, visible_pairs

import ring_worker

SRC = Path(__file__).resolve().parents[1] / "src"
WORKER = Path(__file__).with_name("ring_worker.py")


def reference(q, k, v, *, causal=False, key_lengths=None):
    """O from mha.core (float64) and the log-sum-exp per row from torch (float64), for whole sequences."""
    torch = pytest.importorskip("torch", reason="the log-sum-exp reference is torch.logsumexp")
    q, k, v = (np.asarray(x, np.float64) for x in (q, k, v))
    rep = q.shape[1] // k.shape[1]
    O = mha.attention(q, k, v, causal=causal, key_lengths=key_lengths, enable_gqa=rep > 1, impl="reference")
    T = q.shape[2]
    s = torch.from_numpy(q) @ torch.from_numpy(np.repeat(k, rep, axis=1)).transpose(-1, -2) / np.sqrt(q.shape[3])
    hidden = torch.zeros(q.shape[0], 1, T, T, dtype=torch.bool)
    if causal:
        hidden |= torch.ones(T, T, dtype=torch.bool).triu(1)
    if key_lengths is not None:
        hidden |= (torch.arange(T) >= torch.tensor(key_lengths)[:, None])[:, None, None, :]
    return O, torch.logsumexp(s.masked_fill(hidden, -torch.inf), dim=-1).numpy()


# ------------------------------------------------------------------ layouts

def test_contiguous_layout_gives_the_first_T_mod_P_devices_one_row_more():
    assert Layout(10, 4).rows() == [3, 3, 2, 2]
    assert Layout(10, 4).chunks(2) == ((6, 8),)
    assert Layout(3, 5).rows() == [1, 1, 1, 0, 0]           # fewer rows than devices: the last ones hold none


def test_zigzag_layout_pairs_an_early_chunk_with_a_late_one():
    lay = Layout(11, 3, zigzag=True)                        # 6 chunks: 2 2 2 2 2 1
    assert [lay.chunks(p) for p in range(3)] == [((0, 2), (10, 11)), ((2, 4), (8, 10)), ((4, 6), (6, 8))]
    assert lay.rows() == [3, 4, 4]
    for T in range(0, 30):
        for P in range(1, 6):
            for z in (False, True):
                lay = Layout(T, P, z)
                rows = lay.rows()
                assert sum(rows) == T and max(rows) - min(rows) <= 1, (T, P, z)
                assert sorted(np.concatenate([lay.positions(p) for p in range(P)]).tolist()) == list(range(T))


def test_take_and_join_are_inverse():
    x = np.arange(2 * 3 * 11 * 2).reshape(2, 3, 11, 2)
    for z in (False, True):
        lay = Layout(11, 4, z)
        np.testing.assert_array_equal(lay.join([lay.take(x, p) for p in range(4)]), x)


@pytest.mark.parametrize("T, P", [(-1, 2), (4, 0), (4, 1.5), (True, 2)])
def test_bad_layouts_are_refused_with_the_name(T, P):
    with pytest.raises(MHAInputError, match="^T: |^P: "):
        Layout(T, P)


# ------------------------------------------------------------------ the merge

def test_merging_tiles_in_any_order_gives_the_softmax():
    """Split one row of scores into tiles, merge their states in a shuffled order: the softmax-weighted sum."""
    rng = np.random.default_rng(3)
    s = rng.standard_normal(12) * 4
    v = rng.standard_normal((12, 3))
    want = np.exp(s - s.max()) / np.exp(s - s.max()).sum() @ v
    cuts = [0, 3, 4, 9, 12]
    tiles = []
    for a, b in zip(cuts, cuts[1:]):
        m_t = s[a:b].max()
        p = np.exp(s[a:b] - m_t)
        tiles.append((np.array([m_t]), np.array([p.sum()]), (p @ v[a:b])[None]))
    for order in ([0, 1, 2, 3], [3, 1, 0, 2], [2, 3, 1, 0]):
        m, l, acc = np.array([-np.inf]), np.zeros(1), np.zeros((1, 3))
        for i in order:
            m, l, acc = merge_tile(m, l, acc, *tiles[i])[:3]
        np.testing.assert_allclose(acc[0] / l[0], want, rtol=1e-14, atol=1e-15)
        assert m[0] == s.max()


def test_a_tile_that_sees_no_key_leaves_the_state_alone():
    m, l, acc = np.array([0.5, -np.inf]), np.array([2.0, 0.0]), np.array([[1.0], [0.0]])
    out = merge_tile(m, l, acc, np.array([-np.inf, -np.inf]), np.zeros(2), np.zeros((2, 1)))
    np.testing.assert_array_equal(out.m, m)
    np.testing.assert_array_equal(out.l, l)
    np.testing.assert_array_equal(out.acc, acc)
    assert out.beta.tolist() == [0.0, 0.0] and out.alpha.tolist() == [1.0, 0.0]


def test_tile_state_of_a_masked_row_is_minus_infinity_and_zeros():
    m, l, acc = tile_state(np.ones((2, 2)), np.ones((3, 2)), np.ones((3, 1)), scale=1.0,
                           visible=np.array([[True, False, True], [False, False, False]]))
    assert m.tolist() == [2.0, -np.inf] and l.tolist() == [2.0, 0.0] and acc.tolist() == [[2.0], [0.0]]


# ------------------------------------------------------------------ the ring in one process

@pytest.mark.parametrize("name", sorted(ring_worker.CASES))
def test_simulated_ring_equals_the_single_device_result(name):
    c = ring_worker.CASES[name]
    q, k, v = ring_worker.inputs(name)
    O_ref, lse_ref = reference(q, k, v, causal=c["causal"], key_lengths=c.get("key_lengths"))
    tol = 1e-12 if q.dtype == np.float64 else 2e-6
    for P in range(1, 6):
        ring = simulate(q, k, v, P, causal=c["causal"], zigzag=c["zigzag"], key_lengths=c.get("key_lengths"),
                        block=c.get("block"))
        O, lse = ring.layout.join(ring.O), ring.layout.join([x[..., None] for x in ring.lse])[..., 0]
        assert O.dtype == q.dtype and lse.dtype == q.dtype
        np.testing.assert_allclose(O, O_ref, rtol=0, atol=tol)
        np.testing.assert_array_equal(np.isinf(lse), np.isinf(lse_ref))
        np.testing.assert_allclose(lse[np.isfinite(lse)], lse_ref[np.isfinite(lse_ref)], rtol=0, atol=tol * 10)


def test_a_device_tile_is_the_fast_path_and_its_compiled_pass(monkeypatch):
    """Without record, each tile is mha.attention's fast path (here forced onto the compiled pass): its (O, lse)
    merged by merge_tile gives the reference, and the recorded ring (NumPy's tile_state) agrees with it."""
    from mha import fast
    if fast.compiled() is None:
        pytest.skip(f"the compiled pass is not available: {fast.compiled_missing()}")
    c = ring_worker.CASES["gqa_padding"]
    q, k, v = ring_worker.inputs("gqa_padding")
    O_ref, _ = reference(q, k, v, causal=c["causal"], key_lengths=c["key_lengths"])
    calls = []
    monkeypatch.setattr(fast, "COMPILED_WORK", 0)
    for name in ("softmax_tile", "softmax_rows"):       # the online tile, or the one-tile pass at short T
        monkeypatch.setattr(fast.compiled(), name,
                            lambda *a, f=getattr(fast.compiled(), name): calls.append(1) or f(*a))
    fast_ring = simulate(q, k, v, 3, causal=True, zigzag=True, key_lengths=c["key_lengths"], record=False)
    assert calls and all(not st.merges for row in fast_ring.steps for st in row)
    np.testing.assert_allclose(fast_ring.layout.join(fast_ring.O), O_ref, rtol=0, atol=1e-12)
    explained = simulate(q, k, v, 3, causal=True, zigzag=True, key_lengths=c["key_lengths"])
    np.testing.assert_allclose(explained.layout.join(explained.O), O_ref, rtol=0, atol=1e-12)
    assert [[st.scores for st in row] for row in fast_ring.steps] == [[st.scores for st in row]
                                                                       for row in explained.steps]


def test_counted_work_matches_the_tiles_the_ring_computes():
    q, k, v = ring_worker.inputs("causal")
    for z in (False, True):
        ring = simulate(q[:1], k[:1], v[:1], 4, causal=True, zigzag=z, block=(1, 1))
        counted = np.array([[st.scores for st in row] for row in ring.steps])
        np.testing.assert_array_equal(counted, visible_pairs(ring.layout, causal=True))
        assert [[st.owner for st in row] for row in ring.steps] == [[(p - s) % 4 for p in range(4)] for s in range(4)]


def test_zigzag_balances_causal_work():
    """Contiguous: at every step after the first the slowest device has a whole tile while the one holding the
    first block has nothing; zigzag: every device the same half tile (T = 4096, P = 4)."""
    n = 4096 // 4
    flat = visible_pairs(Layout(4096, 4), causal=True)
    zig = visible_pairs(Layout(4096, 4, zigzag=True), causal=True)
    assert flat.sum() == zig.sum() == 4096 * 4097 // 2
    assert flat[1:].max(axis=1).tolist() == [n * n] * 3 and flat[1:, 0].tolist() == [0, 0, 0]
    assert zig[1:].min() == zig[1:].max() == n * n // 2
    # a step lasts as long as its slowest device: zigzag is perfectly balanced, contiguous takes (2P - 1) / P as long
    assert zig.max(axis=1).sum() * 4 == zig.sum()
    assert flat.max(axis=1).sum() == 3 * n * n + n * (n + 1) // 2


def test_messages_move_each_block_round_the_ring():
    lay = Layout(7, 3)
    sent = messages(lay, B=1, G=2, d_k=3, d_v=2, itemsize=8)
    assert len(sent) == 2 * 3
    assert [(m.sender, m.receiver, m.owner) for m in sent if m.step == 1] == [(0, 1, 2), (1, 2, 0), (2, 0, 1)]
    assert sent[0].bytes == 3 * 1 * 2 * (3 + 2) * 8                    # device 1's 3 rows of K and V


def test_simulate_refuses_bad_shapes_with_their_names():
    with pytest.raises(MHAInputError, match=r"^k: its 3 key/value heads must divide the 4"):
        simulate(np.ones((4, 5, 2)), np.ones((3, 5, 2)), np.ones((3, 5, 2)), 2)
    with pytest.raises(MHAInputError, match=r"^q, k, v: .*\[1, 1, 5, 2\], \[1, 1, 4, 2\]"):
        simulate(np.ones((1, 5, 2)), np.ones((1, 4, 2)), np.ones((1, 4, 2)), 2)
    with pytest.raises(MHAInputError, match=r"^key_lengths: expected 1 whole numbers from 0 to T = 5"):
        simulate(np.ones((1, 5, 2)), np.ones((1, 5, 2)), np.ones((1, 5, 2)), 2, key_lengths=[6])


# ------------------------------------------------------------------ the real ring: processes on 127.0.0.1

def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def _spawn(world: int, argv_for_rank, *, ranks=None, port=None) -> list[subprocess.Popen]:
    port = port or _free_port()
    procs = []
    for r in ranks if ranks is not None else range(world):
        env = dict(os.environ, RANK=str(r), LOCAL_RANK=str(r), WORLD_SIZE=str(world), MASTER_ADDR="127.0.0.1",
                   MASTER_PORT=str(port), PYTHONPATH=f"{SRC}{os.pathsep}{os.environ.get('PYTHONPATH', '')}",
                   OMP_NUM_THREADS="1")
        procs.append(subprocess.Popen([sys.executable, *argv_for_rank(r)], env=env, stdout=subprocess.PIPE,
                                      stderr=subprocess.PIPE, text=True))
    return procs


def _finish(procs, timeout: float) -> list[tuple[int, str, str]]:
    """Every process's (exit status, stdout, stderr); a process still running after timeout fails the test."""
    deadline, out = time.monotonic() + timeout, []
    try:
        for p in procs:
            o, e = p.communicate(timeout=max(1.0, deadline - time.monotonic()))
            out.append((p.returncode, o, e))
    except subprocess.TimeoutExpired:
        for p in procs:
            p.kill()
        pytest.fail(f"a rank was still running after {timeout} s")
    return out


@pytest.fixture(scope="module")
def launched(tmp_path_factory):
    """The three process groups of these tests, started together (most of their time is starting Python and
    torch, which they then share): 5 ranks for every case (a subgroup per P = 1 .. 5), 3 ranks of which one is
    killed, and 2 of 3 ranks for a rendezvous that cannot complete."""
    pytest.importorskip("torch", reason="the distributed ring needs torch.distributed (pip install 'mha[torch]')")
    out = tmp_path_factory.mktemp("ring")
    groups = {"exact": _spawn(5, lambda r: [str(WORKER), "exact", str(out)]),
              "die": _spawn(3, lambda r: [str(WORKER), "die", "1", "--seq-len", "48", "--timeout", "20"]),
              "rendezvous": _spawn(3, lambda r: ["-m", "mha", "ring", "--seq-len", "8", "--timeout", "15"],
                                   ranks=[0, 2])}
    yield out, groups
    for procs in groups.values():
        for proc in procs:
            if proc.poll() is None:
                proc.kill()
                proc.wait()


@pytest.fixture(scope="module")
def exact_run(launched):
    out, groups = launched
    for code, o, e in _finish(groups["exact"], timeout=600):
        assert code == 0, e[-3000:]
    ranks = [dict(np.load(out / f"rank{r}.npz")) for r in range(5)]
    errors = [json.loads((out / f"rank{r}.json").read_text()) for r in range(5)]
    return ranks, errors


@pytest.mark.parametrize("name", sorted(ring_worker.CASES))
def test_distributed_ring_equals_the_single_process_reference(exact_run, name):
    ranks, _ = exact_run
    c = ring_worker.CASES[name]
    q, k, v = ring_worker.inputs(name)
    O_ref, lse_ref = reference(q, k, v, causal=c["causal"], key_lengths=c.get("key_lengths"))
    tol = 1e-12 if q.dtype == np.float64 else 2e-6
    for P in range(1, 6):
        lay = Layout(c["T"], P, c["zigzag"])
        O = lay.join([ranks[r][f"{name}/{P}/O"] for r in range(P)])
        lse = lay.join([ranks[r][f"{name}/{P}/lse"][..., None] for r in range(P)])[..., 0]
        assert O.dtype == q.dtype
        np.testing.assert_allclose(O, O_ref, rtol=0, atol=tol, err_msg=f"P = {P}")
        np.testing.assert_array_equal(np.isinf(lse), np.isinf(lse_ref))
        np.testing.assert_allclose(lse[np.isfinite(lse)], lse_ref[np.isfinite(lse_ref)], rtol=0, atol=tol * 10,
                                   err_msg=f"P = {P}")
        # the explanation's in-process ring runs the same merges: the very same numbers
        sim = simulate(q, k, v, P, causal=c["causal"], zigzag=c["zigzag"], key_lengths=c.get("key_lengths"),
                       block=c.get("block"), record=False)
        for r in range(P):
            np.testing.assert_array_equal(ranks[r][f"{name}/{P}/O"], sim.O[r])
            np.testing.assert_array_equal(ranks[r][f"{name}/{P}/lse"], sim.lse[r])


def test_a_rank_with_wrong_inputs_stops_every_rank_with_the_same_line(exact_run):
    _, errors = exact_run
    rows = {e["rows"] for e in errors[:3]}
    width = {e["width"] for e in errors[:3]}
    assert len(rows) == 1 and len(width) == 1                    # the same message on the three ranks
    assert rows.pop().startswith("q: rank 1 holds 4 rows; T = 9 rows over P = 3 ranks gives [3, 3, 3]")
    assert width.pop().startswith("rank 2: q, k, v: expected q [B, H, R, d_k]")


def test_a_killed_rank_ends_the_others_with_one_line_naming_it(launched):
    done = _finish(launched[1]["die"], timeout=300)
    assert done[1][0] == -9                                       # the victim, SIGKILLed at its first tile
    named = {}
    for r in (0, 2):
        code, out, err = done[r]
        assert code == 1 and out == "", (r, err)
        assert err.count("\n") == 1 and err.startswith(f"mha ring: rank {r} ends "), err
        m = re.search(r": rank (\d+) (?:is gone|failed)", err)
        assert m is not None and int(m.group(1)) != r, err
        named[r] = int(m.group(1))
    # rank 0 sends to the victim and names it; rank 2 names it too, unless rank 0's note on whom it lost could not
    # be read within the grace period, in which case it names rank 0, the neighbour that left first (a cascade)
    assert named[0] == 1, done[0][2]
    assert named[2] in (1, 0), done[2][2]


def test_an_incomplete_rendezvous_ends_every_rank_that_came(launched):
    for code, out, err in _finish(launched[1]["rendezvous"], timeout=300):
        assert code == 1 and out == "" and err.count("\n") == 1, err
        assert "the rendezvous did not complete within 15 s: rank 1 of 3 never joined" in err, err


def test_mha_ring_nproc_runs_torchrun_and_matches_the_reference():
    pytest.importorskip("torch", reason="mha ring starts torchrun (torch.distributed.run)")
    env = dict(os.environ, PYTHONPATH=f"{SRC}{os.pathsep}{os.environ.get('PYTHONPATH', '')}")
    r = subprocess.run([sys.executable, "-m", "mha", "ring", "--nproc", "2", "--seq-len", "37", "--n-heads", "4",
                        "--n-kv-heads", "2", "--d-k", "8", "--causal", "--zigzag", "--key-length", "30", "--check"],
                       capture_output=True, text=True, env=env, timeout=300)
    assert r.returncode == 0, r.stderr[-3000:]
    assert "over P = 2 ranks (gloo): T = 37 (18 or 19 rows per rank)" in r.stdout
    line = next(x for x in r.stdout.splitlines() if x.startswith("check"))
    diffs = [float(x.split("=")[-1]) for x in line.split(":", 1)[1].split(",")]
    assert len(diffs) == 2 and max(diffs) < 1e-12, line


def test_mha_ring_without_a_launcher_or_nproc_says_how(run_cli, monkeypatch):
    for key in ("RANK", "WORLD_SIZE", "MASTER_ADDR", "MASTER_PORT"):
        monkeypatch.delenv(key, raising=False)
    code, out, err = run_cli("ring", "--seq-len", "8")
    assert code == 2 and err.count("\n") == 1 and "--nproc P" in err and "torchrun" in err
    code, out, err = run_cli("ring", "--nproc", "2", "--n-heads", "4", "--n-kv-heads", "3")
    assert code == 2 and err.startswith("mha: error: --n-kv-heads: 3 key/value heads must divide the 4")
    code, out, err = run_cli("ring", "--nproc", "2", "--seq-len", "0")
    assert code == 2 and err.startswith("mha: error: --seq-len: expected a number >= 1, got 0")
