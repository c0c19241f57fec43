"""The `mha` command line: a thin layer over the library.

Every user error ends as one line on stderr and exit status 2; the library's
`MHAInputError` carries the field name and shapes, and this module only prints it.
"""

from __future__ import annotations

import argparse
import json
import sys
from typing import Any, Sequence

from .inputs import MHAInputError, UsageError, read_json_file

FORMATS = ("text", "md", "tex", "json", "html")


class _Parser(argparse.ArgumentParser):
    # argparse prints usage plus a message and exits; we want exactly one line.
    def error(self, message: str) -> None:  # type: ignore[override]
        raise UsageError(f"{self.prog}: {message}")


def _json_arg(text: str, flag: str) -> Any:
    try:
        return json.loads(text)
    except json.JSONDecodeError as e:
        raise UsageError(f"{flag}: not valid JSON ({e.msg} at column {e.colno})") from None


def _int_list(text: str, flag: str) -> list[int]:
    try:
        return [int(p) for p in text.replace(" ", "").split(",") if p != ""]
    except ValueError:
        raise UsageError(f"{flag}: expected comma-separated integers, got {text!r}") from None


def build_input(args: argparse.Namespace) -> dict[str, Any]:
    """The input mapping from a file, the built-in example, or inline flags."""
    from .examples import DOCUMENT_EXAMPLE
    from .inputs import with_random_weights

    data: Any = read_json_file(args.input) if args.input else {}
    if not isinstance(data, dict):
        raise UsageError(f"input: the JSON file must hold an object, got {type(data).__name__}")
    if args.x is not None:
        data["X"] = _json_arg(args.x, "--x")
    if not data:
        data = dict(DOCUMENT_EXAMPLE)
    if args.n_heads is not None:
        data["n_heads"] = args.n_heads
    if "n_heads" not in data and "X" in data and args.input is None:
        data["n_heads"] = 1
    if args.weights == "random":
        data = with_random_weights(data, args.seed)
    elif args.weights == "identity":
        data.update({k: "identity" for k in ("W_Q", "W_K", "W_V", "W_O")})
    if args.causal is not None:
        data["causal"] = args.causal
    if args.key_lengths is not None:
        data["key_lengths"] = _int_list(args.key_lengths, "--key-lengths")
    return data


def _langs(text: str) -> list[str]:
    from .explanation.model import LANGS
    langs = [p.strip() for p in text.split(",")]
    if any(p not in LANGS for p in langs) or len(set(langs)) != len(langs):
        raise argparse.ArgumentTypeError(f"expected one of {', '.join(LANGS)} or a comma-separated list of "
                                         f"them, got {text!r}")
    return langs


def _parse_tokens(text: str | None) -> slice | None:
    if text is None:
        return None
    try:
        parts = [int(p) if p else None for p in text.split(":")]
    except ValueError:
        raise UsageError(f"--tokens: expected START:STOP, got {text!r}") from None
    if len(parts) != 2:
        raise UsageError(f"--tokens: expected START:STOP, got {text!r}")
    return slice(parts[0], parts[1])


def cmd_explain(args: argparse.Namespace) -> int:
    from .trace import run
    from .inputs import parse_config

    fmt = args.format or "text"      # on a terminal in colour; plain when piped or NO_COLOR is set
    langs = args.lang or [None]                  # a list: one language, or two for a bilingual page
    if len(langs) > 1 and fmt != "html":
        raise UsageError(f"--lang {','.join(langs)}: two languages in one file need --format html")
    cfg = parse_config(build_input(args), dtype=args.dtype)
    t = run(cfg)
    if fmt == "json":
        out = t.to_json()
    else:
        from .explanation import explain
        heads = _int_list(args.heads, "--heads") if args.heads else None
        exs = [explain(t, lang=lang, precision=args.precision, heads=heads, tokens=_parse_tokens(args.tokens),
                       full=args.full, tiled_block=args.block_size if args.tiled else None) for lang in langs]
        ex = exs[0]
        if fmt == "text":
            if args.output:
                out = ex.to_text(color=False)
            else:
                ex.print(file=sys.stdout)
                out = None
        else:
            if len(exs) > 1:
                from .render.html import render_html_languages
                out = render_html_languages(exs)
            else:
                out = {"md": ex.to_markdown, "tex": ex.to_latex, "html": ex.to_html}[fmt]()
    if args.plot:
        from .render.plot import save_heatmaps
        save_heatmaps(t, args.plot, precision=args.precision)
    if out is not None:
        _write(out, args.output)
    return 0


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
    p.add_argument("--x", metavar="JSON", help="X inline as a JSON nested list, e.g. '[[1,0],[0,1]]'")
    p.add_argument("--n-heads", type=int, metavar="H", help="number of heads (must divide d_model)")
    p.add_argument("--weights", choices=("identity", "random"), help="set W_Q, W_K, W_V, W_O")
    p.add_argument("--seed", type=int, default=0, help="seed for --weights random (default 0)")
    p.add_argument("--causal", nargs="?", const="top_left", choices=("top_left", "bottom_right"),
                   help="causal mask; alignment when T != S (default top_left, as torch SDPA)")
    p.add_argument("--key-lengths", metavar="L1,L2,...", help="valid key count per sequence (padding)")
    p.add_argument("--dtype", choices=("float64", "float32"), default="float64")


def make_parser() -> argparse.ArgumentParser:
    parser = _Parser(prog="mha", description=__doc__.splitlines()[0])
    parser.add_argument("--version", action="version", version=_version())
    sub = parser.add_subparsers(dest="command", parser_class=_Parser)

    ex = sub.add_parser("explain", help="compute and explain multi-head attention step by step")
    ex.add_argument("input", nargs="?", help="input JSON file ('-' for stdin); default: the worked example")
    ex.add_argument("--format", "-f", choices=FORMATS, help="output format (default: text)")
    ex.add_argument("-o", "--output", metavar="FILE", help="write to FILE instead of stdout")
    ex.add_argument("--lang", type=_langs, metavar="{en,zh}",
                    help="language (default: from LANG / LC_ALL); with --format html also en,zh or zh,en: "
                         "both languages on one page, the first shown, with a switch")
    ex.add_argument("--precision", type=int, default=4, metavar="N", help="decimals shown (default 4)")
    ex.add_argument("--heads", metavar="0,2", help="only explain these heads (0-based)")
    ex.add_argument("--tokens", metavar="START:STOP", help="only show these query tokens in detail")
    ex.add_argument("--full", action="store_true", help="never elide large matrices")
    ex.add_argument("--plot", metavar="FILE.png|svg", help="also save the per-head heatmap grid (matplotlib)")
    ex.add_argument("--tiled", action="store_true", help="add the online-softmax (tiled) walk-through")
    ex.add_argument("--block-size", type=int, default=2, metavar="N", help="key block size for --tiled")
    _add_config_flags(ex)
    ex.set_defaults(func=cmd_explain)

    ck = sub.add_parser("check", help="verify the numbers of a hand-written worked example")
    ck.add_argument("doc", help="Markdown, LaTeX or text file with the worked example")
    ck.add_argument("--input", help="the configuration as an input JSON file (else inferred)")
    ck.add_argument("--format", choices=("text", "json"), default="text")
    ck.set_defaults(func=lambda a: _lazy("check", a))

    sv = sub.add_parser("serve", help="start the local interactive page")
    sv.add_argument("--host", default="127.0.0.1")
    sv.add_argument("--port", type=int, default=8000)
    sv.add_argument("--open", action="store_true", help="open the page in a browser")
    sv.add_argument("--exit-after", type=float, metavar="SECONDS", help="stop by itself after SECONDS (tests, demos)")
    sv.set_defaults(func=lambda a: _lazy("serve", a))

    bn = sub.add_parser("bench", help="benchmark the attention paths against torch")
    bn.add_argument("--quick", action="store_true", help="small cases, under a minute")
    bn.add_argument("--json", metavar="FILE", help="save results as JSON")
    bn.add_argument("--plot", metavar="FILE", help="plot GFLOP/s against T (matplotlib)")
    bn.set_defaults(func=lambda a: _lazy("bench", a))
    return parser


def _lazy(module: str, args: argparse.Namespace) -> int:
    import importlib
    return importlib.import_module(f"mha.{module}").main_from_args(args)


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
        if getattr(args, "lang", "x") is None:
            from .explanation import default_lang
            args.lang = [default_lang()]
        return args.func(args)
    except (UsageError, MHAInputError) as e:
        msg = " ".join(str(e).split())
        print(msg if msg.startswith("mha") else f"mha: error: {msg}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        return 130
    except BrokenPipeError:
        return 0


if __name__ == "__main__":  # pragma: no cover
    raise SystemExit(main())
