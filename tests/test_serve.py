"""`mha serve`'s API in-process (Starlette's test client): answers, limits, refusals."""

import json

import numpy as np
import pytest

import mha

pytest.importorskip("starlette")
from starlette.testclient import TestClient  # noqa: E402

from mha.serve import MAX_BODY_BYTES, MAX_T, create_app  # noqa: E402


@pytest.fixture(scope="module")
def client():
    with TestClient(create_app()) as c:
        yield c


def test_page_and_static_files(client):
    r = client.get("/")
    assert r.status_code == 200 and "<script src=\"/static/app.js\">" in r.text
    assert client.get("/static/app.js").headers["content-type"].startswith("text/javascript")
    assert client.get("/static/app.css").status_code == 200


@pytest.mark.parametrize("path", ["/static/../serve.py", "/static/..%2Fserve.py", "/static/app.html",
                                  "/static/%2e%2e/%2e%2e/etc/passwd", "/static/texts"])
def test_no_path_traversal(client, path):
    r = client.get(path)
    assert r.status_code == 404 and "def create_app" not in r.text and "root:" not in r.text


def test_api_explain_returns_the_trace_json(client):
    r = client.post("/api/explain", json=mha.DOCUMENT_EXAMPLE)
    assert r.status_code == 200
    assert r.json() == json.loads(mha.trace(mha.DOCUMENT_EXAMPLE).to_json())


def test_api_render_random_weights_and_language(client):
    body = {"input": {"X": [[1, 2], [3, 4]], "n_heads": 2}, "weights": "random", "seed": 5, "lang": "zh"}
    r = client.post("/api/render", json=body)
    assert r.status_code == 200
    html = r.json()["html"]
    assert "多头注意力" in html and "<math" in html
    t = mha.trace([[1, 2], [3, 4]], n_heads=2, **mha.inputs.random_weights(2, seed=5))
    assert f"{t.Y[0, 0, 0]:.4f}" in html


@pytest.mark.parametrize("body,status,needle", [
    (b"{not json", 400, "not valid JSON"),
    (b"[1, 2]", 400, "JSON object"),
    (json.dumps({"X": [[1, 2]], "n_heads": 3}).encode(), 422, "n_heads"),
    (json.dumps({"X": [[0.5] * 4] * (MAX_T + 1), "n_heads": 1}).encode(), 413, "T <="),
    (json.dumps({"X": [[1, 0]], "n_heads": 99}).encode(), 422, "n_heads"),      # invalid before too large
    (json.dumps({"X": [[1.0] * 32], "n_heads": 32}).encode(), 413, "H <= 16"),
    (b" " * (MAX_BODY_BYTES + 1), 413, "larger than"),
    (json.dumps({"X": "__import__('os').system('id')", "n_heads": 1}).encode(), 422, "X: expected"),
])
def test_bad_requests_are_refused_and_the_server_keeps_serving(client, body, status, needle):
    r = client.post("/api/explain", content=body, headers={"content-type": "application/json"})
    assert r.status_code == status and needle in r.json()["error"]
    assert client.post("/api/explain", json=mha.DOCUMENT_EXAMPLE).status_code == 200


def test_render_refuses_bad_bodies(client):
    for body, needle in (({"input": {"X": [[1]], "n_heads": 1}, "lang": "fr"}, "lang"),
                         ({"input": {"X": [[1]], "n_heads": 1}, "weights": "eye"}, "weights"),
                         ({"input": {"X": [[1]], "n_heads": 1}, "evil": 1}, "unknown"),
                         ({"X": [[1]]}, "body")):
        r = client.post("/api/render", json=body)
        assert 400 <= r.status_code < 500 and needle in r.json()["error"]


def test_random_weights_follow_d_model_for_a_batched_input(client):
    X = [[[1.0, 0.0, 2.0, 0.5], [0.0, 1.0, 0.0, 1.0]]]          # [B=1, T=2, d_model=4]: d_model is not len(X[0])
    r = client.post("/api/render", json={"input": {"X": X, "n_heads": 2}, "weights": "random", "seed": 1})
    assert r.status_code == 200, r.text
    t = mha.trace(mha.inputs.with_random_weights({"X": X, "n_heads": 2}, 1))
    assert f"{t.Y[0, 0, 0]:.4f}" in r.json()["html"]


# ------------------------------------------------------------------ the same options and rules as the CLI

def _render(client, **body):
    return client.post("/api/render", json={"input": {"X": [[1, 2], [3, 4]], "n_heads": 2}, **body})


@pytest.mark.parametrize("body,status,needle", [
    ({"weights": "random", "seed": -5}, 422, "seed"),                    # used to be a 500 with a traceback
    ({"weights": "random", "seed": 2.5}, 422, "seed"),
    ({"weights": "identity", "seed": 3}, 422, "random"),                 # a seed that would be ignored
    ({"precision": 13}, 422, "0 to 12"),
    ({"precision": True}, 422, "precision"),
    ({"lang": "fr"}, 422, "lang"),
    ({"heads": [3]}, 422, "numbered 1 to 2"),
    ({"batch": 2}, 422, "B = 1"),
    ({"backward": "yes"}, 422, "backward: expected true, false"),
    ({"backward": {"loss": "mean"}}, 422, "backward.loss"),
    ({"backward": {"dY": [[1, 2, 3]]}}, 422, "backward.dY: shape [1, 3]"),
])
def test_render_refuses_bad_options_and_keeps_serving(client, body, status, needle):
    r = _render(client, **body)
    assert r.status_code == status and needle in r.json()["error"], r.text
    assert "Traceback" not in r.text
    assert _render(client).status_code == 200


def test_render_follows_the_cli_rules(client):
    """Precision up to 12, identity replacing the input's weights, heads numbered from 1: as `mha explain`."""
    data = dict(mha.DOCUMENT_EXAMPLE, W_Q=(2 * np.eye(4)).tolist())
    r = client.post("/api/render", json={"input": data, "weights": "identity", "precision": 12, "heads": [2]})
    assert r.status_code == 200
    html = r.json()["html"]
    ex = mha.explain(lang="en", precision=12, heads=[1])
    from mha.render.html import render_html
    assert html == render_html(ex, standalone=False)
    assert "0.751744921742" in html and "s-head2" in html and "s-head1" not in html


def test_render_two_languages(client):
    r = _render(client, lang="zh,en")
    assert r.status_code == 200
    html = r.json()["html"]
    assert html.startswith("<style>") and "<html" not in html
    assert 'data-lang="zh"' in html and 'data-lang="en"' in html


def test_deeply_nested_bodies_are_refused(client):
    for body in (b'{"X": ' + b"[" * 100_000 + b"]" * 100_000 + b"}",
                 b'{"X": ' + b"[" * 700 + b"1" + b"]" * 700 + b', "n_heads": 1}'):
        for path in ("/api/explain", "/api/render"):
            content = body if path == "/api/explain" else b'{"input": ' + body + b"}"
            r = client.post(path, content=content, headers={"content-type": "application/json"})
            assert r.status_code in (400, 422) and "nest" in r.json()["error"], (path, r.text[:200])
    assert client.post("/api/explain", json=mha.DOCUMENT_EXAMPLE).status_code == 200


def test_limits_are_checked_on_the_parsed_configuration(client):
    """A batched X is read as [B, T, d_model], never guessed; a wide X is refused before any weight is built."""
    X = [[[0.5] * 4] * 3] * 2                                       # B = 2, T = 3, d_model = 4
    assert client.post("/api/explain", json={"X": X, "n_heads": 2}).status_code == 200
    r = client.post("/api/explain", json={"X": [[[0.5] * 65] * 2], "n_heads": 1})
    assert r.status_code == 413 and "d_model = 65" in r.json()["error"]
    r = client.post("/api/render", json={"input": {"X": [[0.5] * 5000], "n_heads": 1}, "weights": "random"})
    assert r.status_code == 413 and "d_model = 5000" in r.json()["error"]
    r = client.post("/api/explain", json={"X": [[1.0] * 4] * 3, "n_heads": 2, "key": [[1.0] * 4] * 65})
    assert r.status_code == 413 and "S = 65" in r.json()["error"]


# ------------------------------------------------------------------ the page's controls: widths, W_O, variants

def test_examples_are_served_for_the_menu(client):
    r = client.get("/api/examples")
    assert r.status_code == 200
    served = r.json()
    assert [e["name"] for e in served] == list(mha.EXAMPLES)
    for e in served:
        assert e["idea"] == mha.EXAMPLES[e["name"]].idea
        np.testing.assert_array_equal(mha.trace(e["data"]).Y, mha.trace(mha.EXAMPLES[e["name"]].data).Y)


def test_render_random_weights_with_a_head_width_gqa_rope_and_no_w_o(client):
    data = {"X": [[1, 0, 2], [0, 1, 1], [1, 1, 0]], "n_heads": 2, "n_kv_heads": 1, "rope": {"style": "interleaved"},
            "W_O": "none"}
    r = client.post("/api/render", json={"input": data, "weights": "random", "seed": 7, "d_k": 4, "d_v": 4})
    assert r.status_code == 200, r.text
    t = mha.trace(mha.inputs.with_random_weights(data, 7, d_k=4, d_v=4))
    assert t.config.d_k == 4 and t.config.W_O is None and t.Y.shape == (1, 3, 8)
    html = r.json()["html"]
    assert 'data-symbol="Y"' in html and f"{t.Y[0, 2, 7]:.4f}" in html
    assert 'id="s-gqa"' in html and 'id="s-rope"' in html


def test_identity_weights_keep_no_output_projection(client):
    r = client.post("/api/render", json={"input": dict(mha.DOCUMENT_EXAMPLE, W_O="none"), "weights": "identity"})
    assert r.status_code == 200
    from mha.explanation.catalog import catalog
    assert catalog("en")["output.none"].split("(")[0] in r.json()["html"]


@pytest.mark.parametrize("body,status,needle", [
    ({"weights": "identity", "d_k": 3}, 422, "d_k: only used with random weights"),
    ({"weights": "random", "d_k": 0}, 422, "d_k: expected an integer"),
    ({"weights": "random", "d_k": 10**7}, 413, "d_k = 10000000"),          # refused before any weight is drawn
    ({"weights": "random", "d_out": "8"}, 422, "d_out: expected an integer"),
    ({"weights": "random", "input": {"X": [[1, 2]], "n_heads": 10**6, "n_kv_heads": 1}, "d_k": 2}, 413, "H = 1000000"),
    ({"weights": "random", "input": {"X": [[1, 2]], "n_heads": 2, "n_kv_heads": "2"}}, 422, "n_kv_heads"),
])
def test_widths_and_head_counts_are_checked_before_weights_are_built(client, body, status, needle):
    body = {"input": {"X": [[1, 2], [3, 4]], "n_heads": 2}, **body}
    r = client.post("/api/render", json=body)
    assert r.status_code == status and needle in r.json()["error"], r.text


def test_render_backward_toggle_and_the_trace_json(client):
    """"backward": true adds the backward steps (L = sum of Y unless the input gives its upstream), false removes
    them even when the input has a "backward" key; /api/explain carries the gradients in its trace JSON."""
    from mha.render.html import render_html
    data = dict(mha.DOCUMENT_EXAMPLE)
    on = client.post("/api/render", json={"input": data, "backward": True}).json()["html"]
    assert on == render_html(mha.explain(mha.EXAMPLES["backward"].data, lang="en"), standalone=False)
    target = dict(data, backward={"target": data["X"]})
    off = client.post("/api/render", json={"input": target, "backward": False}).json()["html"]
    assert "s-backward" not in off and off == render_html(mha.explain(data, lang="en"), standalone=False)
    kept = client.post("/api/render", json={"input": target, "backward": True}).json()["html"]
    assert kept == render_html(mha.explain(target, lang="en"), standalone=False)
    r = client.post("/api/explain", json=target)
    assert r.status_code == 200 and r.json()["grads"]["loss"] == "target"
    np.testing.assert_allclose(r.json()["grads"]["dX"], mha.trace(target).grads.dX[0], rtol=0, atol=0)
