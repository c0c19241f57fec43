"""`mha check`: verify the numbers, equations and shapes of a worked example written by anyone.

    document ──readers──▶ objects ──infer──▶ configuration + trace ──claims──▶ judge ──▶ report

The map.  `readers/` holds one reader per format (markdown, latex, html, notebook, text, python: code and its
printouts), each on its maintained parser, all feeding `readers/builder.py`, which keeps the reading context;
`readers/statements.py` (with tokens, expr, arrays, drawn, drawnproduct, tables, prose) turns text and math into
objects; `readers/vectortable.py` reads per-token vectors drawn as a text table (Token │ Query │ Key │ Value,
a vector per cell) as Q, K and V; `readers/result.py` reads a worked result written with words, a unit, bold or a
percent after it; `readers/javascript.py` keeps a page script's named numeric arrays (const A =
[[...]]) and reads the HTML it writes into the page (template literals of markup); `readers/statedict.py` reads a module's printed parameters (state_dict(), named_parameters();
in_proj_weight as W_Q, W_K, W_V), and
`readers/dropvalues.py` knows weights after dropout by their values when nothing says so.  The
objects are `objects.py` (arrays, chains, readings, hints, each with its place) holding `numbers.py`'s numbers
(printed precision, intervals); `labels.py` is the label vocabulary (English and Chinese, symbols and words) and
the step of each quantity (`prosewords.py`: the head, row and step the prose around a number names).  `infer/` is the search over configurations: `prepare` (objects ready for matching),
`match` (an object against each view of a trace), `candidates` (the dimensions and their values), `score`
(how many printed numbers a candidate explains), `search` (the climb and the evidence), `starts` and `onequery`
(where a document starts when not from X: Q/K/V, scores, weights, one decoder state against encoder states found by
value), `written_scale` (the scale written beside the scores: `score ÷ 2`, `scaled = scores / 2`); `model.py` gives the views of a trace.  `claims/` has one module per claim kind, a dataclass with its judging (`array`, `arith`,
`vector`, `shape`, `reading`), and what they share: `attribute` (which intermediate an array stands for),
`target` (which entry an arithmetic line computes), `rounding` (values that follow from rounded printed ones:
notes), `causes` (the likely cause of a wrong value), `identity` (what entitles a verdict: most other cells
agree, weighing a match of 0, ±1, a small integer or a repeat less than one of 0.7517).  Claims that carry their own identity are judged against
their own printed terms, not the trace: `softmax` (scores | softmax pairs), `printchain` (a printout, its masked
copy and its softmax, one after another, or a later cell's `softmax(scores)`), `applied` (`softmax([...]) = [...]`
written out), `linesum` (a sum named in words, 三者之和 8.20, against the other results on its line), `product`
(`[..] × [..] = [..]`, `[..] · [..] = 2`: a product written out with its factors printed, against them), `formula`
(a printout the code computes from a printout a cell before: `softmax(masked / keys.shape[-1]**0.5)`,
`w / w.sum(dim=-1)`, `q @ k.T`), `restated` (a worked number quoted again: `q_2·k_1 = 56` in a figure, `s_21 = 56`
on the next slide), `scaledcall` (a printout whose code is `softmax(scores / keys.shape[-1]**0.5)`), `renorm`
(`m / m.sum(dim=-1, keepdim=True)`), `modshape` (the shapes of an `nn.MultiheadAttention` demo, worked out by
`readers/torchshapes.py`), and arithmetic written out by hand: `termwise` (a weighted sum term by term), `dropout`
(a printout and its copy after dropout), `dropzero` (`dropout(w)` printed: w's zeros stay zero, kept entries
grow), `requoted` (a row found wrong, quoted again in prose, a sum or a table: a note that follows from it), `percentquote`
(a row of weights read out as percentages in the prose under it: 53% for 0.5118; and "row 0 attends to itself
(100%)"), `rootline` ("d = 4, so √d = 2" on one line), `rowsum` (weights whose row
does not sum to 1, or that are not 0 under a masked score), `arrowpairs` ("score 0.8 → weight 0.5" key by key),
`shares`
(Z = a + b + c, then a/Z, b/Z, c/Z in words), `exps` (scores, then their exponentials listed), `softmax_more`
(a scores | softmax table by rows, a pair whose sum a slip broke);
`readers/shares.py` keeps prose numbers in order; `stale` names a printout that mostly disagrees with its own code
(a notebook run out of order) and sets aside what is computed from it.  `claims/rebind.py` (a code literal giving
an input other values, or code changing it from its old values, `X[2] = ...`, `X = 2 * X`, opens another example;
`claims/readlayout.py`: a given printed again transposed is a reading question) and `claims/maskfill.py` (a mask's -1e9 where the trace has a live
score) say "not checked"; `readers/reprtuple.py` reads the arrays of a `(x.shape, x)` display; `readers/magnitude.py` reads `= 2.36 M` beside arithmetic as 2.36 million, and
`readers/factor.py` a number written before a matrix (`W_O = \\frac{1}{2}[...]`) as its factor.
`claims/premask.py` judges scores printed in full before a causal
mask against the live scores, and `claims/unscaled.py` weights or outputs named unscaled (unmasked) against the chain without
the scale (the causal mask).  `readers/repl.py` pairs a `>>>` session's statements with their echoes (and printouts pasted under their
prints), `readers/codevalue.py` evaluates inputs written as code (torch.arange(...).reshape(...), np.eye(4)[:, :2])
by a closed grammar, and `tokenpairs.py` names a score by its pair of tokens (score(q1, k2), q1 @ k2).  Closed forms and
long decimals are read by `readers/closed.py`,
weigh in the search through `infer/scalars.py` and are judged exactly by `claims/closed.py`
(sympy and mpmath, imported only for them, in `claims/exact_values.py`).  The backward pass: `gradients.py` is
its vocabulary (dQ, ∂L/∂Q, Q.grad, 梯度) and views, `infer/backward.py` the upstream gradient as a dimension of
the search, `claims/backward.py` its usual slips.  `judge.py` collects the claims, dispatches them with one
`match`, and gathers findings and "not checked" objects; `verdict.py` runs it (and under near-equal runner-ups)
and settles the findings; `regions.py` infers and judges another example on its
own (before the configuration's first given, or in sections it explains nothing in); `report.py` prints them;
`command.py` is `check_document` and the CLI entry point; `scoped.py` reads again on its own each scope (a
heading, "another example", a notebook cell binding X again) that is still left unchecked.

A new notation goes into a reader (or a new one under readers/); a new kind of claim is a dataclass and its
judging in a new module under claims/, made in `Judge.claims`/`chain_claims` and dispatched in `Judge.judge`.
"""

from .command import check_document, main_from_args
from .report import Finding, NotChecked, Report

__all__ = ["check_document", "Report", "Finding", "NotChecked", "main_from_args"]
