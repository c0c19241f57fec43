"""Python source and what it printed.

Source (a code cell, a fenced block) is parsed with `ast` and never run: `W_q = np.array([[1, 0], [0, 1]])`
gives an array labelled `W_q` with the line of every number; `np.eye(4)` says a weight is the identity;
comments are read as text (`# [[0, 1, 1], [4, 4, 0]]`), labelled by the code on their line.  A printout
(NumPy, torch, a REPL) is read as text and takes its label from the print or the last expression above it.
"""

from __future__ import annotations

import ast
import io
import math
import re
import tokenize
from dataclasses import dataclass, field

from .. import labels as lb
from ..numbers import Num
from ..objects import Array, Hint, Place
from .arrays import nested_to_rows
from .codevalue import code_literal, expand_sums, remember
from .repl import read_session
from .common import Segment, copy_context, line_offset
from .drawn import text_tokens
from .dropout import dropped_prints
from .lowprecision import low_precision_lines, widen_low_precision
from .statedict import read_parameters
from .pyparse import (call_name, function_lines, mutated_names, nested_numbers, number_of, parse_code,
                      source_of, tuple_parts)
from .statements import read_tokens
from .sizeprints import shape_names, sizes
from .torchshapes import scan
from .codecomments import comment_block
from .printnames import (caption_ref, heads_above, items_named, not_shown, other_than, print_label, printed_name,
                         softmax_grad_fn, without_trailing_scalars, without_word_lines)
from .rowtable import row_tables
from .sidebyside import printed_on_one_line
from .vectortable import vector_tables
from .listed import listed_rows_in_text
from .looped import loop_prints, looped_rows
from .workedlists import worked_lists



@dataclass
class Literal:
    name: str                    # the assignment target's source text (targets joined by " = ")
    rows: list[list[Num]]        # 2-D rows (N-D flattened)
    lead: tuple[int, ...]
    line: int                    # 1-based line inside the code
    call: str = ""               # np.array, torch.tensor, ...


@dataclass
class CodeFacts:
    literals: list[Literal] = field(default_factory=list)
    identity: list[tuple[str, int]] = field(default_factory=list)   # (name, line) of np.eye(...) assignments
    comments: list[tuple[int, str, str]] = field(default_factory=list)   # (line, text, label of the code line)
    printed_at: dict[int, str] = field(default_factory=dict)   # line of a print(...) -> what it prints
    computed_at: dict[int, str] = field(default_factory=dict)  # last line of `name = <computation>` -> name
    prints: list[str] = field(default_factory=list)   # names printed, in order (labels for a cell's outputs)
    displays: list[str] = field(default_factory=list)   # what each display(...) shows, in order ("" for Markdown)
    last_expr: str | None = None                   # a cell's last bare expression (its execute_result)
    assigned: dict[str, int] = field(default_factory=dict)
    scalars: list[tuple[str, Num]] = field(default_factory=list)   # n_heads = 2, d_k = 3, scale = 0.5
    aliases: list[tuple[str, str, int]] = field(default_factory=list)  # (name, name it is set to, line): d_k = d_model
    defines: list[tuple[str, str, int]] = field(default_factory=list)   # (name, right-hand side, line): w = x / s
    calls: dict[str, str] = field(default_factory=dict)   # w = softmax(s / k.shape[-1]**0.5): name -> its call
    tree: object = None                                   # the parsed code (torchshapes.py reads it again)
    values: dict = field(default_factory=dict)            # name -> value of inputs given as code (codevalue.py)
    mutated: set | None = None                            # names changed in place after they are made
    parsed: bool = True


_MAGIC = re.compile(r"^\s*[%!]")
# a bare call whose value is what a comment under it shows (not print or display, which show their arguments)
_VALUE_CALL = re.compile(r"(?:^|\.)(?:softmax|log_softmax|exp|sum|matmul|mm|bmm|dot|einsum|sqrt|mean|round|tanh|"
                         r"sigmoid|normali[sz]e|\w*attention\w*)$")


def read_python(code: str, values: dict | None = None) -> CodeFacts:
    """What a piece of Python source states, without running it; values: the inputs given as code before it."""
    facts = CodeFacts()
    if values is not None:
        facts.values = values
    src = "\n".join("" if _MAGIC.match(line) else line for line in code.split("\n"))
    try:
        tree = parse_code(src)
    except (SyntaxError, ValueError, RecursionError, MemoryError):
        facts.parsed = False
        return facts
    lines = src.split("\n")
    facts.tree = tree
    line_label: dict[int, str] = {}
    compared: list[ast.Call] = []
    local = function_lines(tree)         # `def softmax(x): x = x - x.max()`: x is the function's own, no input
    try:
        for node in ast.walk(tree):
            if isinstance(node, (ast.Assign, ast.AnnAssign)):
                targets = node.targets if isinstance(node, ast.Assign) else [node.target]
                if node.value is None:
                    continue
                name = " = ".join(source_of(lines, t) for t in targets)
                rhs = source_of(lines, node.value)
                for ln in range(node.lineno, (node.end_lineno or node.lineno) + 1):
                    line_label.setdefault(ln, name + (" = " + rhs if rhs and "[" not in rhs else ""))
                facts.assigned[name] = node.lineno
                if len(targets) == 1 and isinstance(targets[0], ast.Name) and \
                        isinstance(node.value, (ast.BinOp, ast.Call)) and call_name(node.value) not in _ARRAY_CALLS:
                    facts.computed_at[node.end_lineno or node.lineno] = name
                if rhs and len(rhs) <= 200 and node.lineno not in local:
                    facts.defines.append((name, rhs, node.lineno))
                if isinstance(node.value, (ast.Call, ast.BinOp)) and len(targets) == 1 and \
                        isinstance(targets[0], ast.Name) \
                        and node.value.lineno == node.value.end_lineno:
                    facts.calls[name] = rhs
                _assignment(facts, name, node.value, lines)
                _tuple_scalars(facts, targets, node.value, lines)
            elif isinstance(node, ast.AugAssign) and type(node.op) in _AUG and node.lineno not in local:
                # x += pe: x = x + pe, new values
                name = source_of(lines, node.target)
                facts.defines.append((name, f"{name} {_AUG[type(node.op)]} ({source_of(lines, node.value)})", node.lineno))
            elif isinstance(node, ast.Expr) and _copied_into(node.value):
                # with torch.no_grad(): W_Q.weight.copy_(torch.tensor([...])): the layer's weight, given in place
                name = source_of(lines, node.value.func.value)
                facts.assigned[name] = node.lineno
                _assignment(facts, name, node.value.args[0], lines)
            elif isinstance(node, ast.Expr) and not isinstance(node.value, ast.Call):
                line_label.setdefault(node.lineno, source_of(lines, node.value))      # out.shape   # (3, 4)
            elif isinstance(node, ast.Expr) and _VALUE_CALL.search(call_name(node.value)):
                # `softmax(scores)` then `# Output: [0.27, 0.73]`: the value of the call, as a REPL would show it
                line_label.setdefault(node.lineno, source_of(lines, node.value))
                facts.computed_at.setdefault(node.end_lineno or node.lineno, source_of(lines, node.value))
            elif isinstance(node, ast.Call) and call_name(node) == "print":
                names = [source_of(lines, a) for a in node.args if not isinstance(a, ast.Constant)]
                if names:
                    line_label.setdefault(node.lineno, names[-1])
                    facts.printed_at[node.end_lineno or node.lineno] = names[-1]
                texts = [a.value for a in node.args if isinstance(a, ast.Constant) and isinstance(a.value, str)]
                if node.args and not isinstance(node.args[0], ast.Constant) and texts:
                    # print(w, "sum=", w.sum()): the value printed first is w; the words after it name the next one
                    texts, names = [], names[:1]
                facts.prints.append(print_label(texts, names))
            elif isinstance(node, ast.Call) and call_name(node) in _CLOSE:
                compared.append(node)                # assert torch.allclose(weights, expected)
            elif isinstance(node, ast.Call) and call_name(node) == "display":
                shown = node.args[0] if node.args else None      # display(x): one output of its own, showing x
                facts.displays.append("" if shown is None or call_name(shown) in _RICH else source_of(lines, shown))
        if tree.body and isinstance(tree.body[-1], ast.Expr) and not isinstance(tree.body[-1].value, ast.Call) \
                or (tree.body and isinstance(tree.body[-1], ast.Expr) and call_name(tree.body[-1].value) != "print"):
            facts.last_expr = source_of(lines, tree.body[-1].value)
    except RecursionError:
        facts.parsed = False
        return facts
    _asserted_alike(facts, compared, lines)        # (may add the literals typed into an assertion)
    facts.literals.sort(key=lambda lit: lit.line)
    # comments, with the code of their line as a label
    try:
        for tok in tokenize.generate_tokens(io.StringIO(src).readline):
            if tok.type == tokenize.COMMENT:
                ln = tok.start[0]
                code_part = lines[ln - 1][:tok.start[1]].strip()
                label = line_label.get(ln, "") if code_part else ""
                if not code_part and ln - 1 in facts.printed_at:
                    label = facts.printed_at[ln - 1]          # print(x)  then  # [[...]] on the next lines
                elif not code_part and ln - 1 in facts.computed_at:
                    label = facts.computed_at[ln - 1]         # s = q @ k.T  then  # tensor([[...]]): its value
                facts.comments.append((ln, tok.string, label))
    except (tokenize.TokenError, IndentationError, SyntaxError):
        pass
    return facts


def _copied_into(call: ast.AST) -> bool:
    """layer.weight.copy_(value) or layer.bias.data.copy_(value): one argument copied into a named parameter."""
    if not (isinstance(call, ast.Call) and isinstance(call.func, ast.Attribute) and call.func.attr == "copy_"
            and len(call.args) == 1 and not call.keywords):
        return False
    target = call.func.value
    if isinstance(target, ast.Attribute) and target.attr == "data":
        target = target.value
    return isinstance(target, ast.Attribute) and target.attr in ("weight", "bias")


_AUG = {ast.Add: "+", ast.Sub: "-", ast.Mult: "*", ast.Div: "/", ast.MatMult: "@"}


_RICH = frozenset({"Markdown", "HTML", "Latex", "Math", "Image", "SVG", "JSON"})   # IPython.display objects


_ARRAY_CALLS = {"array", "asarray", "tensor", "Tensor", "as_tensor", "FloatTensor", "DoubleTensor", "constant",
                "Variable", "Parameter", "matrix", "float32", "float64"}
_EYE = {"eye", "identity"}
_INPUT_NAME = re.compile(r"(?i)[qkvx]|values?|keys?|quer(?:y|ies)|inputs?|embeddings?")


def _tuple_scalars(facts: CodeFacts, targets: list[ast.AST], value: ast.AST, lines: list[str]) -> None:
    """B, T, d_k = 2, 4, 8: each name is given its number, as if assigned on its own (the sizes a document
    states in code)."""
    if len(targets) != 1 or not isinstance(targets[0], ast.Tuple) or not isinstance(value, ast.Tuple) or \
            len(targets[0].elts) != len(value.elts):
        return
    for t, v in zip(targets[0].elts, value.elts):
        if isinstance(t, ast.Name) and isinstance(v, (ast.Constant, ast.UnaryOp)):
            n = number_of(v, lines)
            if n is not None:
                facts.scalars.append((t.id, n))


def _new_axes(node: ast.AST) -> bool:
    """`x[None]`, `x[None, None]`, `x[np.newaxis]` of a call: axes of length one put in front."""
    if not isinstance(node, ast.Subscript) or not isinstance(node.value, ast.Call):
        return False
    parts = node.slice.elts if isinstance(node.slice, ast.Tuple) else [node.slice]
    return bool(parts) and all((isinstance(p, ast.Constant) and p.value is None) or
                               (isinstance(p, ast.Attribute) and p.attr == "newaxis") for p in parts)


def _assignment(facts: CodeFacts, name: str, value: ast.AST, lines: list[str]) -> None:
    transpose, written = False, value
    if isinstance(value, ast.Attribute) and value.attr == "T":
        value, transpose = value.value, True
    # np.array([...]).float() / torch.tensor([...]).double() / torch.tensor([...]).requires_grad_(True), and
    # torch.tensor([...]).float()[None, None] / .unsqueeze(0): leading axes of one, the same numbers
    while (isinstance(value, ast.Call) and isinstance(value.func, ast.Attribute) and
           value.func.attr in ("float", "double", "astype", "to", "reshape", "numpy", "clone", "requires_grad_",
                               "detach", "cpu", "contiguous", "unsqueeze") and
           isinstance(value.func.value, (ast.Call, ast.Subscript))) or _new_axes(value):
        value = value.value if isinstance(value, ast.Subscript) else value.func.value
    # torch.nn.Parameter(torch.tensor([...])), np.array(np.array([...]).T)
    while isinstance(value, ast.Call) and call_name(value) in _ARRAY_CALLS and value.args and \
            isinstance(value.args[0], (ast.Call, ast.Attribute)) and not isinstance(value.args[0], ast.List):
        inner = value.args[0]
        if isinstance(inner, ast.Attribute) and inner.attr == "T":
            transpose = not transpose
            inner = inner.value
        if not isinstance(inner, ast.Call):
            break
        value = inner
    # np.transpose([[3, 12, 45], [59, 2, 5]]): the rows written are the columns of the matrix
    if isinstance(value, ast.Call) and call_name(value) == "transpose" and len(value.args) == 1 and \
            isinstance(value.args[0], (ast.List, ast.Tuple, ast.Call)):
        value, transpose = value.args[0], not transpose
        while isinstance(value, ast.Call) and call_name(value) in _ARRAY_CALLS and value.args and \
                isinstance(value.args[0], ast.Call):
            value = value.args[0]
    call = call_name(value)
    if call in _EYE:
        facts.identity.append((name, value.lineno))
        if not _INPUT_NAME.fullmatch(name):
            return              # W_Q = np.eye(4): a weight said to be the identity (infer/saididentity.py)
        #                         V = np.eye(4): an input given as code, its numbers read as any other's
    lit = None
    if isinstance(value, (ast.List, ast.Tuple)) and value.elts and all(
            isinstance(e, ast.Call) and call_name(e) in _ARRAY_CALLS and e.args and
            isinstance(e.args[0], (ast.List, ast.Tuple)) for e in value.elts):
        # [np.array([[...]]), np.array([[...]])]: one matrix per head
        value = ast.List(elts=[e.args[0] for e in value.elts], ctx=ast.Load(), lineno=value.lineno)
        lit = value
    elif isinstance(value, (ast.List, ast.Tuple)):
        lit = value
    elif call in _ARRAY_CALLS and isinstance(value, ast.Call) and value.args and \
            isinstance(value.args[0], (ast.List, ast.Tuple)):
        lit = value.args[0]
    elif isinstance(value, (ast.Constant, ast.UnaryOp)):
        n = number_of(value, lines)
        if n is not None:
            facts.scalars.append((name, n))
        return
    elif isinstance(value, ast.Name):
        facts.aliases.append((name, value.id, value.lineno))      # d_k = d_model: its number, once known
    if lit is None:
        if facts.mutated is None:
            facts.mutated = mutated_names(facts.tree)
        if name in facts.mutated:
            return                  # filled in afterwards (w[0, 1] = ..., w += ...): the value is not this one
        src = _alias_of(written)
        prev = next((x for x in reversed(facts.literals) if x.name == src), None) if src else None
        if prev is not None and src not in facts.mutated:
            # K = Q.clone(): the same numbers under a second name, at the line that gives it
            facts.literals.append(Literal(name, prev.rows, prev.lead, written.lineno, prev.call))
            remember(name, prev.rows, prev.lead, facts.values)
            return
        got = code_literal(name, written, facts.values, written.lineno)     # torch.arange(12.).reshape(3, 4)
        if got is not None:
            facts.literals.append(Literal(name, got[0], got[1], written.lineno, "code"))
        return
    nested = nested_numbers(lit, lines, 0)
    if nested is None:
        return
    got = nested_to_rows(nested)
    if got is None:
        return
    rows, lead = got
    if transpose and not lead and rows and all(r is not None for r in rows):
        rows = [list(col) for col in zip(*rows)]
    # `w = softmax(s)`, then `w = [[0.0, 0.5, 0.5], ...]`: the author's own values put in place of the computed ones
    retyped = any(n == name and ln < value.lineno for ln, n in facts.computed_at.items())
    facts.literals.append(Literal(name, rows, lead, value.lineno, "retyped" if retyped else call))
    remember(name, rows, lead, facts.values)


_CLOSE = {"allclose", "assert_allclose", "assert_close", "isclose", "assert_almost_equal", "array_equal",
          "assert_array_almost_equal", "equal"}


def _asserted_alike(facts: CodeFacts, calls: list[ast.Call], lines: list[str]) -> None:
    """`expected = torch.tensor([...])` then `assert torch.allclose(weights, expected)`: the literal is the value the
    code claims for the computed name, so it carries that name too ("weights = expected")."""
    for call in calls:
        if len(call.args) < 2:
            continue
        a, b = call.args[0], call.args[1]
        if _typed_in(a) and not _typed_in(b):
            a, b = b, a
        if _typed_in(b) and not _typed_in(a):
            # assert np.allclose(A, [[0.4011, ...]]): the numbers typed in are the author's claim for A
            _assignment(facts, f"{source_of(lines, a)} = expected", b, lines)
            continue
        if not (isinstance(a, ast.Name) and isinstance(b, ast.Name)):
            continue
        names = {x.name for x in facts.literals}
        for computed, given in ((a.id, b.id), (b.id, a.id)):
            if given in names and computed not in names:
                for lit in facts.literals:
                    if lit.name == given:
                        lit.name = f"{computed} = {given}"


def _typed_in(node: ast.AST) -> bool:
    """`[[0.4, 0.6]]` or `np.array([[0.4, 0.6]])`: numbers written out, not computed."""
    if isinstance(node, ast.Call) and call_name(node) in _ARRAY_CALLS and node.args:
        node = node.args[0]
    return isinstance(node, (ast.List, ast.Tuple))


def _alias_of(node: ast.AST) -> str | None:
    """`Q`, `Q.clone()`, `Q.copy()`, `Q.detach().clone()`, `np.copy(Q)`: the name whose value is taken as it is."""
    while isinstance(node, ast.Call) and not node.args and not node.keywords and \
            isinstance(node.func, ast.Attribute) and node.func.attr in ("clone", "copy", "detach"):
        node = node.func.value
    if isinstance(node, ast.Call) and len(node.args) == 1 and not node.keywords and \
            call_name(node) in ("copy", "clone"):
        node = node.args[0]
    return node.id if isinstance(node, ast.Name) else None


# ------------------------------------------------------------------ a Builder's code and output segments

# weights loaded into a torch module's parameters, which it applies as x Wᵀ: `m.in_proj_weight.copy_(torch.cat([W_q,
# W_k, W_v]))`, `attn.q_proj.weight.data = W_q`, `layer.weight.copy_(W)`
_LOADED = re.compile(r"\.(?:in_proj_weight|weight)(?:\.data)?\s*(?:\.copy_\s*\(|=)\s*(?:torch\.cat\s*\(\s*)?"
                     r"(\[\s*[A-Za-z_]\w*(?:\s*,\s*[A-Za-z_]\w*)*\s*\]|[A-Za-z_]\w*)")


def read_code(b: "Builder", seg: Segment) -> None:
    if read_session(b, seg):                       # >>> prompts, each with what it echoed (repl.py)
        return
    b.code_texts.append((seg.text, Place(seg.line, seg.cell, "code")))
    facts = read_python(seg.text, b.code_values)
    if not facts.parsed:
        # a REPL transcript: ">>> Qh.shape" and then "(2, 3, 2)" on the next line state that shape
        lines = seg.text.split("\n")
        for k in range(len(lines) - 1):
            m = re.match(r"\s*>>>\s*([A-Za-z_][\w.]*\.shape)\s*$", lines[k])
            if m and re.fullmatch(r"\s*\((?:\d+,\s*)+\d*\)\s*", lines[k + 1]):
                lines[k + 1] = f"{m.group(1)} = {lines[k + 1].strip()}"
        b.text(_end_comments(Segment("\n".join(lines), seg.line, "output", seg.cell, seg.line_map)), prose=False)
        return
    for lit in facts.literals:
        rows = [[c.with_line(seg.line_of(line_offset(seg.text, c.line - 1))) if c is not None else None
                 for c in r] if r is not None else None for r in lit.rows]
        place = Place(seg.line_of(line_offset(seg.text, lit.line - 1)), seg.cell, "code")
        names = [x.strip() for x in lit.name.split(" = ")]
        # (`w = torch.softmax(scores)` in one cell, `w = torch.tensor([[0.1, ...]])` in a later one: retyped later)
        a = Array(rows, place, label=names[-1], labels=names, lead=lit.lead, style="code", context=copy_context(b.ctx),
                  made=lit.call == "code", retyped=lit.call == "retyped",
                  retyped_later=lit.call != "retyped" and names[-1] in b.code_computed)
        a.context.dropout = False             # a literal is typed in: the words about dropout are for printouts
        # "# approximate the above as follows" on the lines just before a literal declares it approximate
        if any(0 < lit.line - ln <= 2 and lb.APPROX_WORDS.search(text) for ln, text, _ in facts.comments):
            a.context.approx = True
        b.doc.add_array(a)
    b.code_computed.update(n for n in facts.computed_at.values() if n.isidentifier())
    for m in _LOADED.finditer(seg.text):      # mha.in_proj_weight.copy_(torch.cat([W_q, W_k, W_v])): x Wᵀ
        place = Place(seg.line_of(m.start()), seg.cell, "code")
        for name in re.findall(r"[A-Za-z_]\w*", m.group(1)):
            b.doc.hints.append(Hint("torch_weight", name, place, m.group(0)[:160]))
    for name, line in facts.identity:
        place = Place(seg.line_of(line_offset(seg.text, line - 1)), seg.cell, "code")
        b.doc.hints.append(Hint("identity_name", name, place, name))
    for name, num in facts.scalars:
        place = Place(seg.line_of(line_offset(seg.text, num.line - 1)), seg.cell, "code")
        b.doc.hints.append(Hint("assign", (name, num), place, name))
    for name, src, line in facts.aliases:       # d_model = 8 (this cell or an earlier one), then d_k = d_model
        num = next((h.value[1] for h in reversed(b.doc.hints) if h.kind == "assign" and h.value[0] == src), None)
        if num is not None:
            place = Place(seg.line_of(line_offset(seg.text, line - 1)), seg.cell, "code")
            b.doc.hints.append(Hint("assign", (name, num.with_line(line)), place, name))
    for name, rhs, line in sorted(facts.defines, key=lambda d: d[2]):    # what a later printout is computed from
        place = Place(seg.line_of(line_offset(seg.text, line - 1)), seg.cell, "code")
        b.doc.hints.append(Hint("define", (name, rhs), place, name))
    # comments: consecutive comment lines form one text block; two comments each after its own code (`s = ..  #
    # ≈ 0.99995`, then `g = ..  # ≈ 0.00005`) say one thing each, of their own line
    code = seg.text.split("\n")
    after_code = {ln for ln, _, _ in facts.comments if 0 < ln <= len(code) and code[ln - 1].split("#")[0].strip()}
    block: list[tuple[int, str, str]] = []
    for item in facts.comments + [(10 ** 9, "", "")]:
        if block and (item[0] != block[-1][0] + 1 or (item[0] in after_code and block[-1][0] in after_code)):
            comment_block(b, block, seg)
            block = []
        if item[0] < 10 ** 9:
            block.append(item)
    b.pending_output_labels = list(facts.prints)
    b.pending_displays = list(facts.displays)
    b.last_expr = facts.last_expr
    b.loops = loop_prints(facts.tree)
    for name in facts.assigned:
        b.calls.pop(name, None)                   # rebound: the call it had before no longer holds
    b.calls.update(facts.calls)
    try:
        scan(facts.tree, *b.shapes)                 # torch.randn(2, 5, 128), nn.MultiheadAttention: the demo's shapes
    except (RecursionError, ValueError, TypeError, AttributeError):
        pass
    b.pending_dropped = dropped_prints(seg.text, b.drop_state)
    b.words_since_code = False
    b.headings_since_code = []
    b.shown_names = []


# `, dtype=torch.float64)`, `, device='cuda:0'`, `, requires_grad=True`: how torch and NumPy annotate a printout
_ANNOTATION = re.compile(r",\s*(?:dtype|device|requires_grad)=[^,)\n]*")
_PARAMETER = re.compile(r"(?m)^[ \t]*Parameter containing:[ \t]*$")
# print(f"{W_query=}") or print("w_query = ", w_query) of an nn.Parameter: "W_query=Parameter containing:" over
# "tensor([[...": the name moves down onto the printout's first line (one line break kept, so every line stays
# where it was)
_NAMED_PARAMETER = re.compile(r"(?m)^[ \t]*([A-Za-z_][\w.]*)[ \t]*[=:][ \t]*Parameter containing:[ \t]*"
                              r"(?:\n[ \t]*)+(?=tensor\()")    # (blank lines between, as a blockquote leaves them)


def _blanked(seg: Segment, pattern: re.Pattern) -> Segment:
    """The segment with what `pattern` matches blanked, keeping every other character where it was."""
    return _rewritten(seg, pattern, lambda m: " " * len(m.group()))


def _rewritten(seg: Segment, pattern: re.Pattern, repl) -> Segment:
    """The segment with `pattern` replaced (the replacement keeps the number of line breaks)."""
    result = getattr(seg, "result", None)
    out = Segment(pattern.sub(repl, seg.text), seg.line, seg.where, seg.cell, seg.line_map)
    if result is not None:
        out.result = result
    return out


# a printout's repr closed, then `, name: ` of the next value printed on the same line by an f-string
_REPR_THEN_NAMED = re.compile(r"(\]\)),(?=\s*[A-Za-z_][\w\- ]{0,30}:\s)")
_TF_CLOSE = re.compile(r"(dtype=[\w.]+\))>(?=[ \t]*$)", re.M)


def read_output(b: "Builder", seg: Segment) -> None:
    shown = getattr(seg, "display", None)        # a display(x) output: named by x alone (notebook.py)
    if ")>" in seg.text:            # `<tf.Tensor: ..., numpy=array([[..]], dtype=float32)>`: TensorFlow's repr
        seg.text = _TF_CLOSE.sub(r"\1", seg.text)
    low = low_precision_lines(seg)                # dtype=torch.bfloat16: wider intervals (lowprecision.py)
    if _ANNOTATION.search(seg.text):            # blanked, keeping every other character where it was
        seg = _blanked(seg, _ANNOTATION)
    seg = read_parameters(seg, b)                 # print(module.state_dict()), named_parameters (statedict.py)
    if _NAMED_PARAMETER.search(seg.text):
        seg = _rewritten(seg, _NAMED_PARAMETER, lambda m: "\n" * m.group(0).count("\n") + m.group(1) + " = ")
    if _PARAMETER.search(seg.text):               # print(W) of an nn.Parameter: the header is no name of it
        seg = _blanked(seg, _PARAMETER)
    if _REPR_THEN_NAMED.search(seg.text):         # f"out: {out}, shape: {out.shape}": two statements, not one
        seg = _rewritten(seg, _REPR_THEN_NAMED, lambda m: m.group(1) + ";")
    seg = vector_tables(b, seg)                   # Token │ Query │ Key │ Value, a vector per cell (vectortable.py)
    seg = row_tables(b, seg)                      # "<BOS> [0.1 0.2]" rows under the tokens' names (rowtable.py)
    seg = looped_rows(b, seg, b.loops)            # one entry a line, printed by a loop over a row (looped.py)
    sized = "Size([" in seg.text
    if sized:
        seg = sizes(b, seg)
    if _AFTER_ROW.search(seg.text):
        seg = _end_comments(seg)
    n_before = len(b.doc.arrays)
    n_chains = len(b.doc.chains)
    for k, line in enumerate(seg.text.split("\n")):
        if re.search(r"[A-Za-z\u4e00-\u9fff]", line) and "[" not in line and "(" not in line:
            b.prose_context(line, Place(seg.line_of(line_offset(seg.text, k)), seg.cell, "output"))
    seg = worked_lists(seg)                       # [0.42/2=0.21, 0.29/2=0.145]: a vector, and a sum per item
    listed_rows_in_text(b, seg)                   # "After softmax:" over "- cat: 0.34" lines (listed.py)
    if shown is None:                             # print(c, a): `tensor([..]) tensor([..])` (sidebyside.py)
        seg, b.pending_output_labels = printed_on_one_line(seg, b.pending_output_labels)
    toks = text_tokens(seg.text)
    read_tokens(toks, seg, b.doc, b.ctx, text_mode=True)
    new = [a for a in b.doc.arrays[n_before:] if not a.label]
    # print(x.shape) printed a torch.Size, read above as a shape: its name labels none of the arrays
    names = [p for p in b.pending_output_labels if not (sized and shape_names(p))] if shown is None else \
        [shown] if shown else []
    if len(names) > len(new):
        names = without_trailing_scalars(without_word_lines(names, seg.text), seg.text, len(new))
    if b.last_expr and seg.where == "output" and getattr(seg, "result", False):
        # a cell ending in `mask, weights` shows a tuple: each array its own part's name
        parts = tuple_parts(b.last_expr)
        names = parts if len(parts) == len(new) > 1 else [b.last_expr]
        if len(parts) > len(new) >= 1:           # (a part that is no array, a bool mask: each array by its item)
            names = items_named(seg, parts, new) or names
    last = b.last_expr
    caption = caption_ref(b.ctx.before) if b.words_since_code and b.shown_names else None
    if caption is not None:
        # a printout under a caption of its own, once an earlier one showed what the code printed: a name shown
        # already that the caption contradicts is not its ("Attention weights:" over a block, after the block of
        # `print(x)`, is not x again)
        names = not_shown(names, [n for n in b.shown_names if other_than(n, caption)])
        last = None if last in b.shown_names and other_than(last, caption) else last
    if new and names and len(names) >= len(new):
        for a, name in zip(new, names[-len(new):] if len(names) > len(new) else names):
            a.label, a.labels = name, [name]
            b.shown_names.append(name)
    elif new and len(new) == 1 and last and shown is None:
        new[0].label, new[0].labels = last, [last]
        b.shown_names.append(last)
    softmax_grad_fn(b.doc.arrays[n_before:], seg)     # `grad_fn=<SoftmaxBackward0>` names the weights
    for a in b.doc.arrays[n_before:]:
        if a.style == "list":
            a.style = "numpy"
        named = None if any(a is n for n in new) else printed_name(a.label, b.pending_output_labels)
        if named and _MODULE_PARAMETER.search(named):
            a.parameter = True          # print("Out2:", attn.out_proj.weight[4:8]): a weight the code set, whatever
            #                             its caption calls it
        if named and named not in a.labels:
            a.labels.append(named)      # print("Softmax result:", y) shows `Softmax result: tensor([...])`: y's value
        if named and named in b.calls:
            a.source = expand_sums(b.calls[named], b.calls)
        elif a.label in b.calls:
            a.source = expand_sums(b.calls[a.label], b.calls)
            if _PERCENT.match(a.source):
                _as_shares(a)
    widen_low_precision(b.doc.arrays[n_before:], low)
    heads_above(b.doc.arrays[n_before:], seg)
    _mark_dropped(b, n_before, n_chains)


# a module's parameter: `attn.out_proj.weight`, `layer.in_proj_weight[0:4, :]`, `self.q.bias`
_MODULE_PARAMETER = re.compile(r"\.(?:\w+_)?(?:weight|bias)\b|\bin_proj_(?:weight|bias)\b")


# `weights * 100` printed: percentages of the quantity, not the quantity (1.00 is 100.00 there)
_PERCENT = re.compile(r"^\s*(?:[A-Za-z_][\w.]*\s*\*\s*100(?:\.0*)?|100(?:\.0*)?\s*\*\s*[A-Za-z_][\w.]*)\s*$")


def _as_shares(a) -> None:
    """A printout of `x * 100`: each number read as the share it prints (100.00 -> 1.0000, two decimals more)."""
    for r in a.rows:
        for k, n in enumerate(r or []):
            if n is not None and math.isfinite(n.value):
                r[k] = Num(n.value / 100, n.text, n.lo / 100, n.hi / 100, n.line, (n.decimals or 0) + 2)


# a note after a printed list or a row of a literal: `]  # ...`, `],  ← ...`, `<- ...`, `// ...`
_AFTER_ROW = re.compile(r"(\],?)(\s+(?:#|←|<-{1,2}|//)\s.*)$", re.M)


def _end_comments(seg: Segment) -> Segment:
    """`out: [1.25, 0.0, 3.75]  # scaled by 1/(1-p)`: a comment after a printed list is not part of its chain; nor
    is a note after a row of a literal typed in a block that is not Python (`[1.0, 0.5],   ← token 1's query`,
    `<- row 2`, `// row 3`)."""
    text = "\n".join(_AFTER_ROW.sub(lambda m: m.group(1) + " " * len(m.group(2)), x) for x in seg.text.split("\n"))
    out = Segment(text, seg.line, seg.where, seg.cell, seg.line_map)
    if getattr(seg, "result", False):
        out.result = True
    return out


def _mark_dropped(b: "Builder", n_before: int, n_chains: int) -> None:
    """The printouts of this output that passed through dropout (readers/dropout.py).  Right after its code, the
    code says which; an output with words between it and any code keeps what the words said."""
    if b.words_since_code or not b.pending_output_labels and not b.last_expr:
        return
    d = b.pending_dropped
    for a in b.doc.arrays[n_before:]:
        a.context.dropout = a.label in d.labels or (d.last_expr and a.label == b.last_expr)
    for ch in b.doc.chains[n_chains:]:
        ch.context.dropout = any(t and t in ch.text for t in d.texts)
