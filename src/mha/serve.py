"""`mha serve`: a local page to change numbers and watch the explanation follow.

Starlette + uvicorn (the optional extra ``mha[serve]``), imported only here.
The page is three files shipped in the package; the API renders with the same
code as ``mha explain --format html``.  Nothing from a request is evaluated.

    GET  /                 the page
    GET  /static/<name>    app.js, app.css (package files only)
    POST /api/explain      input JSON (as for `mha explain`) -> trace JSON
    POST /api/render       {"input": ..., "weights": "identity|random|custom", "seed": n, "lang": "en|zh"}
                           -> {"html": ...}
"""

from __future__ import annotations

import json
import threading
import webbrowser
from importlib import resources
from typing import Any

# Limits: requests beyond them get a 413 with the reason.
MAX_BODY_BYTES = 256 * 1024
MAX_T = 64            # query (and key) tokens
MAX_D_MODEL = 64
MAX_HEADS = 16
MAX_NUMBERS = 20_000  # all numbers in the input together
STATIC = {"app.js": "text/javascript; charset=utf-8", "app.css": "text/css; charset=utf-8"}


class RequestError(Exception):
    def __init__(self, status: int, message: str):
        super().__init__(message)
        self.status = status


def _static(name: str) -> str:
    return resources.files("mha").joinpath("static", name).read_text("utf-8")


def _count_numbers(value: Any) -> int:
    if isinstance(value, (list, tuple)):
        return sum(_count_numbers(v) for v in value)
    return 1


def check_limits(data: Any) -> None:
    if not isinstance(data, dict):
        raise RequestError(400, "input: expected a JSON object")
    total = sum(_count_numbers(v) for v in data.values())
    if total > MAX_NUMBERS:
        raise RequestError(413, f"input: {total} numbers, the limit is {MAX_NUMBERS}")
    X = data.get("X")
    if isinstance(X, list) and X:
        rows = X if not (isinstance(X[0], list) and X[0] and isinstance(X[0][0], list)) else X[0]
        if len(rows) > MAX_T:
            raise RequestError(413, f"X: {len(rows)} tokens, the limit is T <= {MAX_T}")
        if rows and isinstance(rows[0], list) and len(rows[0]) > MAX_D_MODEL:
            raise RequestError(413, f"X: d_model = {len(rows[0])}, the limit is {MAX_D_MODEL}")
    for side in ("key", "value"):
        if isinstance(data.get(side), list) and len(data[side]) > MAX_T:
            raise RequestError(413, f"{side}: {len(data[side])} tokens, the limit is S <= {MAX_T}")
    H = data.get("n_heads")
    if isinstance(H, int) and H > MAX_HEADS:
        raise RequestError(413, f"n_heads: {H}, the limit is {MAX_HEADS}")


def explain_json(data: Any) -> dict[str, Any]:
    from .trace import trace
    check_limits(data)
    return trace(data).to_dict()


def render_fragment(body: Any) -> dict[str, Any]:
    from .explanation import explain
    from .inputs import with_random_weights
    if not isinstance(body, dict) or not isinstance(body.get("input"), dict):
        raise RequestError(400, "body: expected {\"input\": {...}, \"weights\": ..., \"lang\": ...}")
    unknown = set(body) - {"input", "weights", "seed", "lang", "precision"}
    if unknown:
        raise RequestError(400, f"body: unknown key(s) {sorted(unknown)}")
    data = dict(body["input"])
    check_limits(data)
    weights = body.get("weights", "identity")
    if weights not in ("identity", "random", "custom"):
        raise RequestError(400, f"weights: expected identity, random or custom, got {weights!r}")
    if weights == "random":
        seed = body.get("seed", 0)
        if isinstance(seed, bool) or not isinstance(seed, int):
            raise RequestError(400, f"seed: expected an integer, got {seed!r}")
        data = with_random_weights(data, seed)
    elif weights == "identity":
        for k in ("W_Q", "W_K", "W_V", "W_O"):
            data.setdefault(k, "identity")
    lang = body.get("lang", "en")
    if lang not in ("en", "zh"):
        raise RequestError(400, f"lang: expected en or zh, got {lang!r}")
    precision = body.get("precision", 4)
    if isinstance(precision, bool) or not isinstance(precision, int) or not 0 <= precision <= 8:
        raise RequestError(400, f"precision: expected an integer from 0 to 8, got {precision!r}")
    ex = explain(data, lang=lang, precision=precision)
    return {"html": ex.to_html(standalone=False)}


def create_app():
    from starlette.applications import Starlette
    from starlette.requests import Request
    from starlette.responses import HTMLResponse, JSONResponse, Response
    from starlette.routing import Route

    from .inputs import MHAInputError

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
            return json.loads(raw)
        except (json.JSONDecodeError, UnicodeDecodeError) as e:
            raise RequestError(400, f"body: not valid JSON ({getattr(e, 'msg', e)})") from None

    def endpoint(fn):
        async def handler(request: Request) -> Response:
            try:
                return JSONResponse(fn(await read_json(request)))
            except RequestError as e:
                return JSONResponse({"error": str(e)}, status_code=e.status)
            except MHAInputError as e:
                return JSONResponse({"error": str(e)}, status_code=422)
        return handler

    async def page(request: Request) -> Response:
        return HTMLResponse(_static("app.html"))

    async def static(request: Request) -> Response:
        name = request.path_params["name"]
        if name not in STATIC:              # only the package's own files, by exact name
            return JSONResponse({"error": "not found"}, status_code=404)
        return Response(_static(name), media_type=STATIC[name])

    return Starlette(routes=[
        Route("/", page),
        Route("/static/{name}", static),
        Route("/api/explain", endpoint(explain_json), methods=["POST"]),
        Route("/api/render", endpoint(render_fragment), methods=["POST"]),
    ])


def main_from_args(args: Any) -> int:
    try:
        import uvicorn
    except ImportError:
        from .cli import UsageError
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
