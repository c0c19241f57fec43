"""The `mha` command line: a thin layer over the library.

Every user error ends as one line on stderr and exit status 2; the library's
`MHAInputError` carries the field name and shapes, and this module only prints it.
Each command's entry point imports what it needs, so `mha explain --format md`
loads neither rich, torch, matplotlib nor the web server.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
from decimal import Decimal
from typing import TYPE_CHECKING, Any, Sequence

from .arrays import internal_error_line
from .inputs import MHAInputError, UsageError, read_json_file

if TYPE_CHECKING:
    from .examples import Example
    from .explanation import Explanation

FORMATS = ("text", "md", "tex", "json", "html")


class _Parser(argparse.ArgumentParser):
    # argparse prints usage plus a message and exits; we want exactly one line.
    def error(self, message: str) -> None:  # type: ignore[override]
        raise UsageError(f"{self.prog}: {message}")


def _json_arg(text: str, flag: str, parse_float: Any = None) -> Any:
    """A flag's JSON value; a syntax error or a nesting deeper than Python's stack is one UsageError.
    parse_float=Decimal keeps each number's text (--exact reads 0.1 as 1/10)."""
    try:
        return json.loads(text, parse_float=parse_float)
    except (json.JSONDecodeError, RecursionError) as e:
        why = f"not valid JSON ({e.msg} at column {e.colno})" if isinstance(e, json.JSONDecodeError) else \
            "nests too deeply to be a matrix"
        raise UsageError(f"{flag}: {why}") from None


def _int_list(text: str, flag: str) -> list[int]:
    try:
        return [int(p) for p in text.replace(" ", "").split(",") if p != ""]
    except ValueError:
        raise UsageError(f"{flag}: expected comma-separated integers, got {text!r}") from None


# Flags that set one input key each: flag attribute -> (input key, how to read the flag's text).
_MATRIX_FLAGS = {"wq": "W_Q", "wk": "W_K", "wv": "W_V", "wo": "W_O", "q": "Q", "k": "K", "v": "V"}
_WORDS = {"W_O": ("identity", "none"), "W_Q": ("identity",), "W_K": ("identity",), "W_V": ("identity",)}


def build_input(args: argparse.Namespace, parse_float: Any = None) -> dict[str, Any]:
    """The input mapping from a file, a named example or inline flags (before the weights are settled).
    parse_float=Decimal keeps the text of every JSON number (for the exact path)."""
    from .examples import DOCUMENT_EXAMPLE

    if args.example is not None and args.input:
        raise UsageError("--example: give either an input file or a named example, not both")
    data: Any = read_json_file(args.input, parse_float=parse_float) if args.input else {}
    if args.example is not None:
        data = dict(_example(args.example).data)
    if not isinstance(data, dict):
        raise UsageError(f"input: the JSON file must hold an object, got {type(data).__name__}")
    inline = {key: _matrix_flag(getattr(args, attr), f"--{attr}", key, parse_float)
              for attr, key in _MATRIX_FLAGS.items() if getattr(args, attr) is not None}
    if args.x is not None:
        inline["X"] = _json_arg(args.x, "--x", parse_float)
    if not data and not ({"X", "Q", "K", "V"} & set(inline)):
        data = dict(DOCUMENT_EXAMPLE)
    if {"Q", "K", "V"} & set(inline):
        data.pop("X", None)                  # Q, K and V given on the command line replace the input's X
    data.update(inline)
    if args.weights is not None:
        given = [f"--{a}" for a, key in _MATRIX_FLAGS.items() if key.startswith("W_") and key in inline
                 and not (key == "W_O" and inline[key] == "none")]
        if given:
            raise UsageError(f"{given[0]}: give the matrix or --weights {args.weights}, not both")
    widths = {"d_k": args.d_k, "d_v": args.d_v, "d_out": args.d_out}
    if any(v is not None for v in widths.values()) and args.weights != "random":
        flag = next(f"--{k.replace('_', '-')}" for k, v in widths.items() if v is not None)
        raise UsageError(f"{flag}: only used with --weights random (it shapes the random weights)")
    if args.n_heads is not None:
        data["n_heads"] = args.n_heads
    if (args.x is not None or "Q" in inline) and "n_heads" not in data:
        raise UsageError(f"--n-heads: needed with {'--x' if args.x is not None else '--q'} "
                         f"(the number of heads H)")
    for key, value in (("n_kv_heads", args.n_kv_heads), ("window", args.window), ("causal", args.causal)):
        if value is not None:
            data[key] = value
    if args.scale is not None:
        data["scale"] = _scale_flag(args.scale)
    if args.rope is not None:
        data["rope"] = {"style": args.rope}
    if args.alibi:
        data["alibi"] = True
    if args.key_lengths is not None:
        data["key_lengths"] = _int_list(args.key_lengths, "--key-lengths")
    return data


def _matrix_flag(text: str, flag: str, key: str, parse_float: Any = None) -> Any:
    """A matrix flag's JSON value, or one of the words its input key accepts ("identity", "none")."""
    if text in _WORDS.get(key, ()):
        return text
    return _json_arg(text, flag, parse_float)


def _scale_flag(text: str) -> Any:
    if text in ("none", "1/d_k", "1/sqrt(d_k)"):
        return text
    try:
        return float(text)
    except ValueError:
        raise UsageError(f"--scale: expected none, 1/d_k, 1/sqrt(d_k) or a number, got {text!r}") from None


def _example(name: str) -> Example:
    from .examples import EXAMPLES
    if name not in EXAMPLES:
        raise UsageError(f"--example: no example {name!r}; the examples are {', '.join(EXAMPLES)} (see --examples)")
    return EXAMPLES[name]


def list_examples(lang: str | None) -> str:
    """One line per named example: its name and its idea in the language."""
    from .examples import EXAMPLES
    from .explanation.options import parse_langs
    code = parse_langs(lang)[0]
    width = max(len(name) for name in EXAMPLES)
    lines = [f"{name:<{width}}  {e.idea[code]}" for name, e in EXAMPLES.items()]
    return "\n".join(lines) + "\n"


def cmd_explain(args: argparse.Namespace) -> int:
    from .trace import run
    from .explanation import build
    from .explanation.options import parse_request
    from .inputs import parse_config

    if args.examples:
        _write(list_examples(args.lang), args.output)
        return 0
    if args.overview:
        return _overview(args)
    if args.layers is not None:
        raise UsageError("--layers: only with --overview (one layer: --layer L)")
    fmt = args.format or "text"      # on a terminal in colour; plain when piped or NO_COLOR is set
    if args.block_size is not None and not args.tiled:
        raise UsageError("--block-size: only used with --tiled")
    if args.plot:
        from .render.plot import plot_path_problem
        problem = plot_path_problem(args.plot)
        if problem:
            raise UsageError(f"--plot: {problem}")
    if not args.model and ((args.layer, args.text, args.input_ids, args.revision) != (None, None, None, None)
                           or args.offline):
        raise UsageError("--layer, --text, --input-ids, --revision, --offline: only with --model NAME_OR_PATH")
    heads = _int_list(args.heads, "--heads") if args.heads else None
    backward = _backward_flags(args)
    if args.head is not None:
        if heads is not None:
            raise UsageError("--head: give --head or --heads, not both")
        heads = [args.head]
    exact = _exact_flags(args, fmt)
    request = parse_request(
        _model_input(args) if args.model else build_input(args, Decimal if exact else None), weights=args.weights,
        seed=args.seed, widths={"d_k": args.d_k, "d_v": args.d_v, "d_out": args.d_out},
        lang=args.lang, precision=args.precision, heads=heads, tokens=args.tokens, full=args.full,
        batch=args.batch, block_size=(2 if args.block_size is None else args.block_size) if args.tiled else None,
        exact=args.exact, backward=backward,
        devices=args.devices if args.devices is not None or args.example is None else
        _example(args.example).options.get("devices"))
    if len(request.langs) > 1 and fmt != "html":
        raise UsageError(f"--lang {','.join(request.langs)}: two languages in one file need --format html")
    steps = None
    if exact:
        from .exact import exact_layer, float_input          # sympy: only on this path
        steps = exact_layer(request.input)
        t = run(parse_config(float_input(request.input)))
    else:
        from .team import one_blas_thread
        with one_blas_thread():    # same numbers; OpenBLAS's idle workers would spin between the steps
            t = run(parse_config(request.input, dtype="float64" if args.model else args.dtype or "float64"))
    out = t.to_json() if fmt == "json" else _render(
        fmt, [build(t, request.options(lang), steps) for lang in request.langs], to_file=bool(args.output))
    if args.plot:
        from .render.plot import save_heatmaps
        save_heatmaps(t, args.plot, precision=args.precision, batch=request.batch)
    if out is not None:
        _write(out, args.output)
    return 0


def _exact_flags(args: argparse.Namespace, fmt: str) -> bool:
    """Does this run read its numbers exactly (--exact, or --precision above 12)?  Refuse what cannot be exact."""
    from .explanation.digits import FLOAT_PRECISION
    precise = isinstance(args.precision, int) and args.precision > FLOAT_PRECISION
    if not (args.exact or precise):
        return False
    flag = "--exact" if args.exact else f"--precision {args.precision}"
    if args.weights == "random":
        raise UsageError(f"{flag}: random weights are not exact numbers; give the weights, or --weights identity")
    if args.dtype == "float32":
        raise UsageError(f"{flag}: the exact values do not depend on a dtype; drop --dtype float32")
    if args.exact and fmt == "json":
        raise UsageError("--exact: closed forms are written in text, md, tex and html; --format json writes the "
                         "float64 trace")
    if args.model:
        raise UsageError(f"{flag}: a model's layer holds float weights, not exact numbers")
    return True


def _backward_flags(args: argparse.Namespace) -> Any:
    """--backward with --dy or --target: the upstream gradient (None without --backward)."""
    given = [flag for flag, v in (("--dy", args.dy), ("--target", args.target)) if v is not None]
    if given and not args.backward:
        raise UsageError(f"{given[0]}: only used with --backward")
    if len(given) > 1:
        raise UsageError("--target: give --dy or --target, not both")
    if args.dy is not None:
        return {"dY": _json_arg(args.dy, "--dy")}
    if args.target is not None:
        return {"target": _json_arg(args.target, "--target")}
    return True if args.backward else None


def _render(fmt: str, exs: list[Explanation], *, to_file: bool) -> str | None:
    """The explanation in one format; None when it went straight to the terminal."""
    if fmt == "text" and not to_file:
        from .render.text import print_text
        print_text(exs[0], file=sys.stdout)
        return None
    if fmt == "text":
        from .render.text import render_text
        return render_text(exs[0], color=False)
    if fmt == "md":
        from .render.markdown import render_markdown
        return render_markdown(exs[0])
    if fmt == "tex":
        from .render.latex import render_latex
        return render_latex(exs[0])
    from .render.html import render_html, render_html_languages
    return render_html_languages(exs) if len(exs) > 1 else render_html(exs[0])


def cmd_check(args: argparse.Namespace) -> int:
    from .check import main_from_args
    return main_from_args(args)


def cmd_serve(args: argparse.Namespace) -> int:
    from .serve import main_from_args
    return main_from_args(args)


def cmd_ring(args: argparse.Namespace) -> int:
    from .ring_command import main_from_args
    return main_from_args(args)


def cmd_bench(args: argparse.Namespace) -> int:
    if args.backward:
        if args.plot or args.long:
            raise UsageError(f"--backward: measured alone; drop {'--plot' if args.plot else '--long'}")
        from .bench_backward import main_from_args as backward_bench
        return backward_bench(args)
    from .bench import main_from_args
    return main_from_args(args)


def _write(text: str, path: str | None) -> None:
    if path:
        try:
            with open(path, "w", encoding="utf-8") as f:
                f.write(text if text.endswith("\n") else text + "\n")
        except OSError as e:
            raise UsageError(f"-o: cannot write {path}: {e.strerror}") from None
    else:
        sys.stdout.write(text if text.endswith("\n") else text + "\n")


def _add_config_flags(p: argparse.ArgumentParser) -> None:
    p.add_argument("--x", metavar="JSON", help="X inline as a JSON nested list, e.g. '[[1,0],[0,1]]' (needs --n-heads)")
    p.add_argument("--n-heads", type=int, metavar="H", help="number of heads (must divide d_model)")
    p.add_argument("--weights", choices=("identity", "random"),
                   help="set W_Q, W_K, W_V, W_O: identity (replacing any in the input) or random")
    p.add_argument("--seed", type=int, metavar="N", help="seed for --weights random (0 to 2^32-1; default 0); "
                   "refused without --weights random")
    p.add_argument("--causal", nargs="?", const="top_left", choices=("top_left", "bottom_right"),
                   help="causal mask; alignment when T != S (default top_left, as torch SDPA)")
    p.add_argument("--key-lengths", metavar="L1,L2,...", help="valid key count per sequence (padding)")
    g = p.add_argument_group("any layer: projection widths, Q/K/V given directly, scale (keys of the input JSON)")
    for attr, key in _MATRIX_FLAGS.items():
        words = " or ".join(f"'{w}'" for w in _WORDS.get(key, ()))
        g.add_argument(f"--{attr}", metavar="JSON", help=f"{key} as a JSON matrix" + (f", or {words}" if words else "")
                       + (" (2-D [d_in, heads*d] or per head [heads, d_in, d])" if key in ("W_Q", "W_K", "W_V") else "")
                       + (" (given directly: no X, no projections; needs --n-heads)" if key == "Q" else ""))
    for flag, what in (("--d-k", "query/key width per head"), ("--d-v", "value width per head"),
                       ("--d-out", "output width (columns of W_O)")):
        g.add_argument(flag, type=int, metavar="N", help=f"{what} for --weights random (default: d_model / H)")
    g.add_argument("--scale", metavar="RULE", help="none (unscaled), 1/d_k, 1/sqrt(d_k) (the default) or a number")
    m = p.add_argument_group("today's attention")
    m.add_argument("--n-kv-heads", type=int, metavar="G", help="key/value heads shared by H/G query heads each "
                   "(grouped-query attention; 1 = multi-query)")
    m.add_argument("--rope", nargs="?", const="half", choices=("half", "interleaved"),
                   help="rotary position embedding on queries and keys (default half: LLaMA, GPT-NeoX; "
                        "interleaved: RoFormer, GPT-J)")
    m.add_argument("--alibi", action="store_true", help="ALiBi: add -slope*distance to the scores (Press et al.)")
    m.add_argument("--window", type=int, metavar="W", help="sliding window: each query sees keys within W "
                   "positions (with --causal: the W most recent, as Mistral)")
    p.add_argument("--dtype", choices=("float64", "float32"),
                   help="the computation's precision (default float64); with --model the model's (default float32)")


# ---------------------------------------------------------------- --model: one layer of a Hugging Face model

def _add_model_flags(p: argparse.ArgumentParser) -> None:
    g = p.add_argument_group("a Hugging Face model (pip install 'mha[hf]'): one layer, or --overview")
    g.add_argument("--model", metavar="NAME_OR_PATH", help="a model on the Hugging Face Hub (e.g. gpt2: read from "
                   "the cache, downloaded into it when missing) or a directory written by save_pretrained")
    g.add_argument("--revision", metavar="REV", help="a branch, tag or commit of the model on the Hub")
    g.add_argument("--offline", action="store_true", help="use the Hugging Face cache only, never the network "
                   "(as HF_HUB_OFFLINE=1, for this run)")
    g.add_argument("--layer", type=int, metavar="L", help="the layer, from 0 as the model's code counts")
    g.add_argument("--head", type=int, metavar="H", help="explain this head, from 1 as the headings count")
    g.add_argument("--text", help="the text the model reads")
    g.add_argument("--input-ids", metavar="1,2,3", help="token ids instead of --text")
    g.add_argument("--overview", action="store_true", help="every layer and head at a glance: a grid of heatmaps "
                   "(html), a table per layer (text, md), json; --plot draws the grid")
    g.add_argument("--layers", metavar="0-3,7", help="with --overview: only these layers, from 0 (default: all)")


def _model_input(args: argparse.Namespace) -> dict[str, Any]:
    """The input mapping of layer --layer of --model on --text, captured by `mha.hf` during a forward pass."""
    clash = [flag for flag, v in (("an input file", args.input), ("--example", args.example), ("--x", args.x),
                                  ("--n-heads", args.n_heads), ("--weights", args.weights),
                                  ("--causal", args.causal), ("--key-lengths", args.key_lengths)) if v is not None]
    if clash:
        raise UsageError(f"--model: the layer comes from the model; drop {', '.join(clash)}")
    if args.layer is None or (args.text is None) == (args.input_ids is None):
        raise UsageError("--model: needs --layer L and one of --text \"...\" or --input-ids 1,2,3")
    from .hf import model_input
    ids = _int_list(args.input_ids, "--input-ids") if args.input_ids is not None else None
    if ids == []:
        raise UsageError("--input-ids: no token ids given")
    return model_input(args.model, args.layer, head=args.head, text=args.text, input_ids=ids,
                       dtype=args.dtype or "float32", revision=args.revision, offline=args.offline)


def _int_ranges(text: str, flag: str) -> list[int]:
    """ "0-3,7" -> [0, 1, 2, 3, 7]."""
    out: list[int] = []
    for part in text.replace(" ", "").split(","):
        first, _, last = part.partition("-")
        try:
            a, b = int(first), int(last or first)
        except ValueError:
            raise UsageError(f"{flag}: expected numbers and ranges such as 0-3,7, got {text!r}") from None
        if b < a:
            raise UsageError(f"{flag}: the range {part} runs backwards")
        out += range(a, b + 1)
    return out


def _overview(args: argparse.Namespace) -> int:
    """--model NAME --overview: every chosen layer and head (mha.overview) in one format, and --plot."""
    from .explanation.options import parse_langs
    from .overview import run
    fmt = args.format or "text"
    clash = [flag for flag, v in (("an input file", args.input), ("--example", args.example), ("--x", args.x),
                                  ("--n-heads", args.n_heads), ("--weights", args.weights), ("--causal", args.causal),
                                  ("--key-lengths", args.key_lengths), ("--layer", args.layer), ("--head", args.head),
                                  ("--tokens", args.tokens), ("--batch", args.batch),
                                  ("--block-size", args.block_size)) if v is not None]
    clash += [flag for flag, on in (("--full", args.full), ("--tiled", args.tiled)) if on]
    if clash:
        raise UsageError(f"--overview: shows every layer and head of --model; drop {', '.join(clash)} "
                         "(choose with --layers and --heads)")
    if not args.model or (args.text is None) == (args.input_ids is None):
        raise UsageError("--overview: needs --model NAME_OR_PATH and one of --text \"...\" or --input-ids 1,2,3")
    if fmt == "tex":
        raise UsageError("--overview: --format tex is not available; use text, md, html or json")
    if args.plot:
        from .render.plot import plot_path_problem
        problem = plot_path_problem(args.plot)
        if problem:
            raise UsageError(f"--plot: {problem}")
    langs = parse_langs(args.lang)
    if len(langs) > 1:
        raise UsageError(f"--lang {','.join(langs)}: the overview is in one language")
    ids = _int_list(args.input_ids, "--input-ids") if args.input_ids is not None else None
    if ids == []:
        raise UsageError("--input-ids: no token ids given")
    if not 0 <= args.precision <= 12:
        raise UsageError(f"--precision: expected 0 to 12, got {args.precision}")
    out = run(args.model, fmt=fmt, lang=langs[0], precision=args.precision, text=args.text, input_ids=ids,
              layers=_int_ranges(args.layers, "--layers") if args.layers else None,
              heads=[h - 1 for h in _int_ranges(args.heads, "--heads")] if args.heads else None,
              dtype=args.dtype or "float32", revision=args.revision, offline=args.offline, plot=args.plot)
    _write(out, args.output)
    return 0


def make_parser() -> argparse.ArgumentParser:
    parser = _Parser(prog="mha", description=__doc__.splitlines()[0])
    parser.add_argument("--version", action="version", version=_version())
    sub = parser.add_subparsers(dest="command", parser_class=_Parser)

    _add_explain(sub)

    ck = sub.add_parser("check", help="verify the numbers of a hand-written worked example")
    ck.add_argument("doc", nargs="+", help="the worked example(s): Markdown, LaTeX, notebook (.ipynb), HTML, Typst "
                    "or text; - for stdin; with several, the exit status is the worst")
    ck.add_argument("--input", help="the configuration as an input JSON file (else inferred)")
    ck.add_argument("--format", choices=("text", "json", "github"), default="text",
                    help="text (path:line: ...), json, or github (workflow annotations)")
    ck.add_argument("--skip-unrelated", action="store_true", help="a document with no attention numbers counts "
                    "as clean (exit 0) instead of exit 2: for a pre-commit hook over every Markdown file")
    ck.set_defaults(func=cmd_check)

    sv = sub.add_parser("serve", help="start the local interactive page")
    sv.add_argument("--host", default="127.0.0.1")
    sv.add_argument("--port", type=int, default=8000)
    sv.add_argument("--open", action="store_true", help="open the page in a browser")
    sv.add_argument("--exit-after", type=float, metavar="SECONDS", help="stop by itself after SECONDS (tests, demos)")
    sv.set_defaults(func=cmd_serve)

    _add_ring(sub)

    bn = sub.add_parser("bench", help="benchmark the attention paths against torch")
    bn.add_argument("--quick", action="store_true", help="small cases, under a minute")
    bn.add_argument("--long", action="store_true", help="also T = S = 65536 (one run, minutes)")
    bn.add_argument("--json", metavar="FILE", help="save results as JSON")
    bn.add_argument("--plot", metavar="FILE", help="plot GFLOP/s against T (matplotlib)")
    bn.add_argument("--backward", action="store_true", help="the backward sweep instead: mha.attention_backward "
                    "vs the backward of torch's SDPA, and its memory at T = 32768")
    bn.set_defaults(func=cmd_bench)
    return parser


def _add_explain(sub: Any) -> None:
    ex = sub.add_parser("explain", help="compute and explain multi-head attention step by step")
    ex.add_argument("input", nargs="?", help="input JSON file ('-' for stdin); default: the worked example")
    ex.add_argument("--example", metavar="NAME", help="explain a named example (list them with --examples)")
    ex.add_argument("--examples", action="store_true", help="list the named examples with their idea, and stop")
    ex.add_argument("--format", "-f", choices=FORMATS, help="output format (default: text)")
    ex.add_argument("-o", "--output", metavar="FILE", help="write to FILE instead of stdout")
    ex.add_argument("--lang", metavar="{en,zh}",
                    help="language (default: from LANG / LC_ALL); with --format html also en,zh or zh,en: "
                         "both languages on one page, the first shown, with a switch")
    ex.add_argument("--precision", type=int, default=4, metavar="N", help="decimals shown, 0 to 100 (default 4); "
                    "above 12 every digit is computed exactly with mpmath (needs sympy: pip install 'mha[exact]')")
    ex.add_argument("--exact", action="store_true", help="every entry's closed form beside its decimal (sympy; "
                    "integers, fractions \"p/q\" and decimals of up to 15 digits, read as written)")
    ex.add_argument("--heads", metavar="1,3", help="only explain these heads, numbered from 1 as in the headings")
    ex.add_argument("--batch", type=int, metavar="N", help="explain sequence N of a batch, numbered from 1 (default 1)")
    ex.add_argument("--tokens", metavar="FIRST:LAST",
                    help="only show these query tokens in detail, numbered from 1, both ends included (e.g. 2:5)")
    ex.add_argument("--full", action="store_true", help="never elide large matrices")
    ex.add_argument("--plot", metavar="FILE.png|svg|pdf", help="also save the per-head heatmap grid (matplotlib)")
    ex.add_argument("--tiled", action="store_true", help="add the online-softmax (tiled) walk-through")
    ex.add_argument("--block-size", type=int, metavar="N", help="key block size for --tiled, >= 1 (default 2); "
                    "refused without --tiled")
    ex.add_argument("--backward", action="store_true", help="add the backward pass: every gradient from dY to dX "
                    "(default loss: L = sum of Y)")
    ex.add_argument("--dy", metavar="JSON", help="with --backward: the upstream gradient dY, [T, d_out]")
    ex.add_argument("--target", metavar="JSON", help="with --backward: L = 1/2 ||Y - target||^2, target [T, d_out]")
    ex.add_argument("--devices", type=int, metavar="P", help="add the ring attention walk-through: the sequence on "
                    "P devices, 1 to T (--example ring: 3)")
    _add_config_flags(ex)
    _add_model_flags(ex)
    ex.set_defaults(func=cmd_explain)


def _add_ring(sub: Any) -> None:
    rg = sub.add_parser("ring", help="attention split over P processes, K/V blocks passed round a ring "
                        "(torch.distributed)")
    rg.add_argument("--nproc", type=int, metavar="P", help="start P ranks on this machine with torchrun; "
                    "without it, run as one rank under torchrun or another env:// launcher")
    rg.add_argument("--seq-len", type=int, default=4096, metavar="T", help="tokens in the sequence (default 4096)")
    rg.add_argument("--n-heads", type=int, default=4, metavar="H", help="query heads (default 4)")
    rg.add_argument("--n-kv-heads", type=int, metavar="G", help="key/value heads, dividing H (default H)")
    rg.add_argument("--d-k", type=int, default=64, metavar="N", help="query/key width per head (default 64)")
    rg.add_argument("--d-v", type=int, metavar="N", help="value width per head (default d_k)")
    rg.add_argument("--causal", action="store_true", help="causal mask: blocks above the diagonal are skipped")
    rg.add_argument("--zigzag", action="store_true", help="each rank holds an early and a late chunk (balances --causal)")
    rg.add_argument("--key-length", type=int, metavar="L", help="padding: only keys 1 to L are visible")
    rg.add_argument("--dtype", choices=("float64", "float32"), help="precision (default float64)")
    rg.add_argument("--seed", type=int, default=0, metavar="N", help="seed of the random Q, K, V (default 0)")
    rg.add_argument("--check", action="store_true", help="compare with the single-process float64 reference")
    rg.add_argument("--timeout", type=float, default=120.0, metavar="SECONDS",
                    help="longest wait for another rank: rendezvous, a step's transfer (default 120)")
    rg.add_argument("--backend", choices=("auto", "gloo", "nccl"), default="auto",
                    help="auto: nccl when the rank has a GPU, else gloo")
    rg.add_argument("--json", metavar="FILE", help="rank 0 writes the figures of every rank to FILE")
    rg.set_defaults(func=cmd_ring)


def _version() -> str:
    from . import __version__
    return f"mha {__version__}"


def main(argv: Sequence[str] | None = None) -> int:
    parser = make_parser()
    try:
        args = parser.parse_args(argv)
        if not getattr(args, "func", None):
            parser.print_help()
            return 2
        return args.func(args)
    except (UsageError, MHAInputError) as e:
        msg = " ".join(str(e).split())
        print(msg if msg.startswith("mha") else f"mha: error: {msg}", file=sys.stderr)
        return 2
    except RecursionError:          # lists nested deeper than Python's stack while the input is read
        print("mha: error: input: nests too deeply to be an attention configuration", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        return 130
    except BrokenPipeError:
        return 0
    except Exception as e:          # a fault of mha's own: one line, status 3; MHA_DEBUG=1 keeps the traceback
        if os.environ.get("MHA_DEBUG"):
            raise
        print(f"mha: {internal_error_line(e)}", file=sys.stderr)
        return 3


if __name__ == "__main__":  # pragma: no cover
    raise SystemExit(main())
