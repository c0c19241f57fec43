"""Imports inside src/mha point down the layers and never go round in a circle.

The graph is read with `ast` from every import statement, lazy ones inside
functions included: a lazy import still ties the two modules together, it only
hides the knot until run time.
"""

import ast
import subprocess
import sys
from pathlib import Path

import pytest

SRC = Path(__file__).resolve().parents[1] / "src"

# The layers, lowest first.  A module may import from its own layer or the ones below it.  A module's layer
# is that of its top-level name under mha (mha.explanation.model -> "explanation").
LAYERS = (
    ("arrays", "variants", "attention_args", "inputs", "interop"),   # reading a configuration: numbers and arrays,
                                           # the variant keys, per-head arguments, the Config (JSON, arrays, torch)
    ("core", "exact", "backward"),         # the math (exact: the same layer in sympy closed forms; backward: its gradients)
    ("fast", "kernel", "team", "tiles", "online", "fast_backward"),   # the tiled path, its compiled pass (numba),
                                           # threads, NumPy tiles, the online softmax step by step; backward
    ("attend", "grad", "shards"),          # the choice between the two (gradients: grad); the sequence split over devices
    ("trace", "examples"),                 # the intermediates as data; built-in configurations (some computed)
    ("explanation",),                      # trace -> steps (data)
    ("render",),                           # steps -> text, Markdown, LaTeX, HTML, images
    ("check", "serve", "hub", "hf", "overview", "bench", "bench_backward", "ring", "ring_command"),   # tools
    ("cli", "__main__", "__init__", "notebook_magic"),   # the command line, the package's front door, %mha_check
)

# Inside mha.check, the stages of the pipeline (readers -> objects -> inference -> claims -> judge -> report), lowest
# first.  A check module's stage is that of its name under mha.check (mha.check.readers.html -> "readers").
CHECK_STAGES = (
    # numbers, the vocabulary, views, findings
    ("numbers", "objects", "labels", "refs", "labelwords", "prosewords", "vocabulary", "gradients", "model", "report",
     "tokenpairs"),
    ("readers",),                                          # one reader per format -> objects
    ("infer",),                                            # the search over configurations and its scoring
    ("claims",),                                           # one module per claim kind, with its judging
    ("judge", "verdict", "regions"),                       # collects the claims and dispatches them; other examples
    ("command", "scoped", "__init__"),                     # check_document, its scopes, the CLI entry point
)

# Imports that break the rule in files the lead owns (core.py, trace.py) or the fast helper owns (fast.py),
# being fixed on main.  This list only shrinks: an entry that no longer occurs fails the test, so delete it.
EXPECTED_UPWARD: set[tuple[str, str]] = set()
EXPECTED_CYCLES: set[frozenset[str]] = set()


def module_name(path: Path) -> str:
    parts = list(path.relative_to(SRC).with_suffix("").parts)
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def import_graph() -> dict[str, set[str]]:
    """module -> the mha modules it imports (a package import means its __init__)."""
    files = {module_name(p): p for p in sorted((SRC / "mha").rglob("*.py"))}
    graph: dict[str, set[str]] = {}
    for name, path in files.items():
        package = name if path.name == "__init__.py" else name.rsplit(".", 1)[0]
        targets = set()
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Import):
                found = [alias.name for alias in node.names]
            elif isinstance(node, ast.ImportFrom):
                base = package.split(".")[:len(package.split(".")) - node.level + 1] if node.level else []
                root = ".".join(base + ([node.module] if node.module else []))
                # `from . import x` or `from .pkg import sub` may name a submodule rather than an attribute
                subs = [f"{root}.{alias.name}" for alias in node.names if f"{root}.{alias.name}" in files]
                found = subs if node.module is None and len(subs) == len(node.names) else [root] + subs
            else:
                continue
            targets |= {t for t in found if t in files and t != name}
        graph[name] = targets
    return graph


def layer(module: str) -> int:
    parts = module.split(".")
    top = parts[1] if len(parts) > 1 else "__init__"
    for i, names in enumerate(LAYERS):
        if top in names:
            return i
    raise AssertionError(f"{module}: not in any layer; add {top!r} to LAYERS in tests/test_imports.py")


def check_stage(module: str) -> int:
    parts = module.split(".")
    name = parts[2] if len(parts) > 2 else "__init__"
    for i, names in enumerate(CHECK_STAGES):
        if name in names:
            return i
    raise AssertionError(f"{module}: not in any stage; add {name!r} to CHECK_STAGES in tests/test_imports.py")


def cycles(graph: dict[str, set[str]]) -> set[frozenset[str]]:
    """The strongly connected components with more than one module (Tarjan's algorithm)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: set[frozenset[str]] = set()

    def visit(v: str) -> None:
        index[v] = low[v] = len(index)
        stack.append(v)
        on_stack.add(v)
        for w in graph[v]:
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on_stack:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            component = set()
            while True:
                w = stack.pop()
                on_stack.discard(w)
                component.add(w)
                if w == v:
                    break
            if len(component) > 1:
                found.add(frozenset(component))

    for v in graph:
        if v not in index:
            visit(v)
    return found


GRAPH = import_graph()


def test_every_module_has_a_layer():
    assert len(GRAPH) > 20
    for module in GRAPH:
        layer(module)


def test_imports_point_down_the_layers():
    upward = {(a, b) for a, targets in GRAPH.items() for b in targets if layer(b) > layer(a)}
    assert upward - EXPECTED_UPWARD == set(), "imports that point up the layers"
    assert EXPECTED_UPWARD - upward == set(), "fixed: remove these from EXPECTED_UPWARD"


def test_check_imports_follow_its_pipeline():
    """A reader knows nothing of inference, inference nothing of claims, a claim nothing of the judge."""
    check = {m for m in GRAPH if m == "mha.check" or m.startswith("mha.check.")}
    assert {"mha.check.readers.markdown", "mha.check.infer.search", "mha.check.claims.array"} <= check
    upward = {(a, b) for a in check for b in GRAPH[a] if b in check and check_stage(b) > check_stage(a)}
    assert upward == set(), "check modules that import a later stage of the pipeline"


def test_no_import_cycles():
    found = cycles(GRAPH)
    assert found - EXPECTED_CYCLES == set(), "modules that import each other, directly or round a loop"
    assert EXPECTED_CYCLES - found == set(), "fixed: remove these from EXPECTED_CYCLES"


@pytest.mark.parametrize("graph,want", [
    ({"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}, {frozenset("abc")}),
    ({"a": {"b"}, "b": set()}, set()),
])
def test_the_cycle_finder_finds_cycles(graph, want):
    assert cycles(graph) == want


def test_the_graph_sees_lazy_and_relative_imports():
    """The test would be hollow if it missed the imports it is about: check a few known edges."""
    assert "mha.inputs" in GRAPH["mha.cli"]                    # module level, relative
    assert "mha.render.text" in GRAPH["mha.cli"]               # inside a function
    assert "mha.explanation.base" in GRAPH["mha.explanation.model"]
    assert "mha.inputs" in GRAPH["mha.check.judge"]            # two dots up
    assert {"mha.core", "mha.fast"} <= GRAPH["mha.attend"] and "mha" not in GRAPH["mha.attend"]   # from . import


def test_everyday_commands_never_load_numba():
    """numba (a second of start-up) is imported only by the fast path's compiled pass, above a measured
    size: never by `import mha`, `mha explain`, `mha check`, or attention on the worked example's sizes.
    The check would be hollow if the fast path never loaded it: the last line makes sure it does."""
    pytest.importorskip("numba")
    doc = Path(__file__).resolve().parents[1] / "examples" / "check" / "causal_attention_post.md"
    code = ("import sys, io, contextlib, numpy as np, mha, mha.cli\n"
            "seen = ['numba' in sys.modules]\n"
            "with contextlib.redirect_stdout(io.StringIO()):\n"
            "    mha.cli.main(['explain', '--format', 'md', '-o', '/dev/null'])\n"
            f"    mha.cli.main(['check', {str(doc)!r}])\n"
            "seen.append('numba' in sys.modules)\n"
            "x = np.ones((3, 4)); mha.attention(x, x, x); mha.forward(mha.DOCUMENT_EXAMPLE)\n"
            "seen.append('numba' in sys.modules)\n"
            "x = np.ones((1, 12, 512, 64), np.float32); mha.attention(x, x, x)\n"
            "seen.append('numba' in sys.modules)\n"
            "print(seen)")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=600)
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip().splitlines()[-1] == "[False, False, False, True]"
