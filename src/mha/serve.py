"""`mha serve`: a local page to change numbers and watch the explanation follow.

Starlette + uvicorn (the optional extra ``mha[serve]``), imported only here.
The page is three files shipped in the package; the API renders with the same
code as ``mha explain --format html``.  Nothing from a request is evaluated.

    GET  /                 the page
    GET  /static/<name>    app.js, app.css (package files only)
    POST /api/explain      input JSON (as for `mha explain`) -> trace JSON
    POST /api/render       {"input": ..., "weights": "identity|random|custom", "seed": n, "d_k": n, "d_v": n,
                            "d_out": n, "lang": "en|zh|zh,en", "precision": n, "heads": [1, ...], "batch": n,
                            "exact": true|false, "backward": true|false, "devices": P}
                           (devices adds the ring walk-through on P devices)
                           -> {"html": ...}  (the options follow `mha explain`'s rules: mha.explanation.options;
                           d_k, d_v and d_out shape random weights, as --d-k, --d-v and --d-out do)
    GET  /api/examples     the named examples (mha.EXAMPLES): [{"name", "idea": {"en", "zh"}, "data", "options"}]
"""

from __future__ import annotations

import argparse
import json
import threading
import webbrowser
from importlib import resources
from typing import TYPE_CHECKING, Any

from .explanation.options import Limits, LimitError, parse_request
from .inputs import MHAInputError, UsageError

if TYPE_CHECKING:
    from .inputs import Config

MAX_BODY_BYTES = 256 * 1024
SERVE_PRECISION = 12       # the page prints float64's digits; more (mha explain --precision N) is the CLI's
LIMITS = Limits()          # T, S, d_model, H and the count of numbers: beyond them a 413 with the reason
MAX_T = LIMITS.tokens
WIDTH_KEYS = ("d_k", "d_v", "d_out")
BODY_KEYS = ("input", "weights", "seed", "lang", "precision", "heads", "batch", "exact", "backward",
             "devices") + WIDTH_KEYS
STATIC = {"app.js": "text/javascript; charset=utf-8", "app.css": "text/css; charset=utf-8"}


class RequestError(Exception):
    def __init__(self, status: int, message: str):
        super().__init__(message)
        self.status = status


def _static(name: str) -> str:
    return resources.files("mha").joinpath("static", name).read_text("utf-8")


def _config(data: Any) -> Config:
    """The parsed configuration of a request's input, within the limits."""
    from .inputs import parse_config
    if not isinstance(data, dict):
        raise RequestError(400, "input: expected a JSON object")
    LIMITS.check_input(data)
    cfg = parse_config(data)
    LIMITS.check(cfg)
    return cfg


def explain_json(data: Any) -> dict[str, Any]:
    from .trace import run
    return run(_config(data)).to_dict()


def render_fragment(body: Any) -> dict[str, Any]:
    """The explanation as an HTML fragment, with the same options and rules as `mha explain`."""
    from .trace import run
    from .explanation import build
    from .render.html import render_html, render_html_languages
    if not isinstance(body, dict) or not isinstance(body.get("input"), dict):
        raise RequestError(400, "body: expected {\"input\": {...}, \"weights\": ..., \"lang\": ...}")
    unknown = sorted(set(body) - set(BODY_KEYS))
    if unknown:
        raise RequestError(400, f"body: unknown key(s) {unknown}; allowed: {', '.join(BODY_KEYS)}")
    widths = {k: body.get(k) for k in WIDTH_KEYS}
    if body.get("exact") is True:
        from .exact import check_numbers, float_input
        check_numbers(body["input"])                  # a number without an exact reading, refused by name
        LIMITS.check_input(float_input(body["input"]))
    else:
        LIMITS.check_input(body["input"])
    if body.get("weights") == "random":
        LIMITS.check_random(body["input"], widths)
    exact = body.get("exact", False)
    if not isinstance(exact, bool):
        raise RequestError(400, f"exact: expected true or false, got {exact!r}")
    request = parse_request(body["input"], weights=body.get("weights", "identity"), seed=body.get("seed"),
                            lang=body.get("lang", "en"), precision=body.get("precision", 4),
                            heads=body.get("heads"), batch=body.get("batch"), widths=widths,
                            max_precision=SERVE_PRECISION, exact=exact, backward=body.get("backward"),
                            devices=body.get("devices"))
    steps = None
    if exact:                       # closed forms: sympy is imported on the first exact request only
        from .exact import exact_layer, float_input
        t = run(_config(float_input(request.input)))
        steps = exact_layer(request.input, t.config)
    else:
        t = run(_config(request.input))
    exs = [build(t, request.options(lang), steps) for lang in request.langs]
    html = render_html_languages(exs, standalone=False) if len(exs) > 1 else render_html(exs[0], standalone=False)
    return {"html": html}


def examples_json() -> list[dict[str, Any]]:
    """The named examples for the page's menu, in their order, with their input mappings as JSON values."""
    from .examples import EXAMPLES
    from .trace import to_json_value
    return [{"name": e.name, "idea": dict(e.idea), "data": to_json_value(e.data), "options": dict(e.options)}
            for e in EXAMPLES.values()]


def create_app():
    from starlette.applications import Starlette
    from starlette.requests import Request
    from starlette.responses import HTMLResponse, JSONResponse, Response
    from starlette.routing import Route

    async def read_json(request: Request) -> Any:
        length = request.headers.get("content-length")
        if length is not None and (not length.isdigit() or int(length) > MAX_BODY_BYTES):
            raise RequestError(413, f"body: larger than {MAX_BODY_BYTES} bytes")
        raw = b""
        async for chunk in request.stream():
            raw += chunk
            if len(raw) > MAX_BODY_BYTES:
                raise RequestError(413, f"body: larger than {MAX_BODY_BYTES} bytes")
        try:
            body = json.loads(raw)
            if isinstance(body, dict) and body.get("exact") is True:      # keep each number's text: 0.1 is 1/10
                from decimal import Decimal
                body = json.loads(raw, parse_float=Decimal)
            return body
        except (json.JSONDecodeError, UnicodeDecodeError) as e:
            raise RequestError(400, f"body: not valid JSON ({getattr(e, 'msg', e)})") from None
        except RecursionError:
            raise RequestError(400, "body: nests too deeply to be an attention configuration") from None

    def endpoint(fn):
        async def handler(request: Request) -> Response:
            try:
                return JSONResponse(fn(await read_json(request)))
            except RequestError as e:
                return JSONResponse({"error": str(e)}, status_code=e.status)
            except LimitError as e:
                return JSONResponse({"error": str(e)}, status_code=413)
            except MHAInputError as e:
                return JSONResponse({"error": str(e)}, status_code=422)
            except RecursionError:
                return JSONResponse({"error": "input: nests too deeply to be an attention configuration"},
                                    status_code=400)
        return handler

    async def page(request: Request) -> Response:
        return HTMLResponse(_static("app.html"))

    async def examples(request: Request) -> Response:
        return JSONResponse(examples_json())

    async def static(request: Request) -> Response:
        name = request.path_params["name"]
        if name not in STATIC:              # only the package's own files, by exact name
            return JSONResponse({"error": "not found"}, status_code=404)
        return Response(_static(name), media_type=STATIC[name])

    return Starlette(routes=[
        Route("/", page),
        Route("/static/{name}", static),
        Route("/api/examples", examples),
        Route("/api/explain", endpoint(explain_json), methods=["POST"]),
        Route("/api/render", endpoint(render_fragment), methods=["POST"]),
    ])


def main_from_args(args: argparse.Namespace) -> int:
    try:
        import uvicorn
    except ImportError:
        raise UsageError("serve: needs the web extra: pip install 'mha[serve]'") from None
    config = uvicorn.Config(create_app(), host=args.host, port=args.port, log_level="warning")
    server = uvicorn.Server(config)
    if getattr(args, "exit_after", None):
        timer = threading.Timer(args.exit_after, lambda: setattr(server, "should_exit", True))
        timer.daemon = True
        timer.start()
    url = f"http://{args.host}:{args.port}/"
    print(f"mha serve: {url} (Ctrl+C to stop)", flush=True)
    if args.open:
        threading.Timer(0.5, lambda: webbrowser.open(url)).start()
    server.run()
    return 0
