"""Security headers: a strict CSP on every HTML page, nosniff and no-referrer on every response (pages, API
answers, errors, refusals), HSTS only over HTTPS; the client's pages carry no inline code a CSP blocks."""

from __future__ import annotations

import re
from importlib import resources
from pathlib import Path
from typing import Any

import httpx
import pytest

from erma.server.app import create_app
from erma.server.config import Settings
from erma.server.headers import SecurityHeaders, page_policy

from .conftest import Running, run_async

WEB = Path(str(resources.files("erma").joinpath("web")))
PAGES = sorted(p.name for p in WEB.glob("*.html"))


def directives(policy: str) -> dict[str, list[str]]:
    out: dict[str, list[str]] = {}
    for part in policy.split(";"):
        words = part.split()
        if words:
            out[words[0]] = words[1:]
    return out


def check_page_policy(policy: str, host: str) -> None:
    d = directives(policy)
    for name in ("default-src", "script-src", "style-src", "img-src"):
        assert d[name] == ["'self'"], name
    loose = ("data:", "blob:", "*", "http:", "https:")
    assert not any("unsafe" in w or w in loose for ws in d.values() for w in ws), d
    for name in ("object-src", "base-uri", "frame-ancestors"):
        assert d[name] == ["'none'"], name
    assert d["connect-src"] == ["'self'", f"ws://{host}", f"wss://{host}"]


def check_common(r: httpx.Response, https: bool = False) -> None:
    where = f"{r.request.method} {r.request.url.path} ({r.status_code})"
    assert r.headers.get("x-content-type-options") == "nosniff", where
    assert r.headers.get("referrer-policy") == "no-referrer", where
    assert r.headers.get("x-frame-options") == "DENY", where
    assert ("strict-transport-security" in r.headers) == https, where


def test_the_client_pages_carry_no_inline_code() -> None:
    assert {"index.html", "ranks.html"} <= set(PAGES)
    for name in PAGES:
        html = (WEB / name).read_text(encoding="utf-8")
        assert "<style" not in html, name
        assert not re.search(r"\sstyle\s*=", html), name
        assert not re.search(r"\son[a-z]+\s*=", html, re.IGNORECASE), name
        assert "javascript:" not in html.lower(), name
        for tag in re.findall(r"<script\b[^>]*>", html):
            assert 'type="module"' in tag and "src=" in tag, (name, tag)
        bodies = re.findall(r"<script\b[^>]*>(.*?)</script>", html, re.DOTALL)
        assert bodies == [""] * html.count("<script"), name


def test_every_page_and_api_answer_has_the_headers(server: Running) -> None:
    host = server.url.split("//", 1)[1]
    with httpx.Client(base_url=server.url) as http:
        for path in ["/", *(f"/{p}" for p in PAGES)]:
            r = http.get(path)
            assert r.status_code == 200 and r.headers["content-type"].startswith("text/html"), path
            check_common(r)
            check_page_policy(r.headers["content-security-policy"], host)
        token = http.post("/api/guest").json()["token"]
        answers = [
            http.get("/api/rooms"),
            http.get("/api/me"),  # 401
            http.get("/api/me", headers={"Authorization": f"Bearer {token}"}),
            http.get("/api/games/x", headers={"Authorization": f"Bearer {token}"}),  # 400
            http.get("/api/games/5", headers={"Authorization": f"Bearer {token}"}),  # 404
            http.post("/api/login", json={"name": "nobody", "password": "nothing"}),  # 401
            http.get("/api/rooms?token=abc"),  # 400 token_in_url, before any route
            http.get("/api/ladder"),
            http.get("/api/rules/cuopai789"),
        ]
        for r in answers:
            check_common(r)
            assert r.headers["content-type"].startswith("application/json")
            api = directives(r.headers["content-security-policy"])
            assert api["default-src"] == ["'none'"] and api["frame-ancestors"] == ["'none'"]
        assert [r.status_code for r in answers] == [200, 401, 200, 400, 404, 401, 400, 200, 200]
        for path in ("/app.js", "/style.css", "/tiles/1m.svg", "/healthz", "/nothing-here"):
            check_common(http.get(path))


def test_hsts_only_over_https() -> None:
    app = create_app(Settings(data_dir="unused"))  # static pages and /api/rooms need no store

    async def get(base: str, *paths: str) -> list[httpx.Response]:
        async with httpx.AsyncClient(transport=httpx.ASGITransport(app=app), base_url=base) as http:
            return [await http.get(path) for path in paths]

    secure = run_async(get("https://erma.example", "/", "/ranks.html", "/api/rooms"))
    for r in secure:
        assert r.status_code == 200
        check_common(r, https=True)
        assert r.headers["strict-transport-security"] == "max-age=31536000"
    page = secure[0].headers["content-security-policy"]
    assert directives(page)["connect-src"] == ["'self'", "wss://erma.example"]  # no cleartext socket over TLS
    (plain,) = run_async(get("http://erma.example", "/"))
    check_common(plain, https=False)


def test_a_host_header_that_is_not_a_host_adds_no_source() -> None:
    assert "evil" not in page_policy("x; script-src 'unsafe-inline' evil", https=False)
    assert directives(page_policy(None, https=False))["connect-src"] == ["'self'"]
    assert directives(page_policy("[::1]:8000", https=False))["connect-src"][1] == "ws://[::1]:8000"


def test_a_response_keeps_headers_it_set_itself() -> None:
    async def app(scope: Any, receive: Any, send: Any) -> None:
        headers = [(b"content-type", b"text/html"), (b"referrer-policy", b"same-origin")]
        await send({"type": "http.response.start", "status": 200, "headers": headers})
        await send({"type": "http.response.body", "body": b"<p>hi</p>"})

    sent: list[dict[str, Any]] = []

    async def send(message: Any) -> None:
        sent.append(message)

    async def receive() -> Any:
        return {"type": "http.request", "body": b""}

    scope = {"type": "http", "scheme": "http", "headers": [(b"host", b"a.example")]}
    run_async(SecurityHeaders(app)(scope, receive, send))
    headers = dict(sent[0]["headers"])
    assert headers[b"referrer-policy"] == b"same-origin"
    assert headers[b"x-content-type-options"] == b"nosniff"
    check_page_policy(headers[b"content-security-policy"].decode(), "a.example")


@pytest.mark.parametrize("kind", [b"text/javascript", b"image/svg+xml"])
def test_assets_get_no_policy(kind: bytes) -> None:
    async def app(scope: Any, receive: Any, send: Any) -> None:
        await send({"type": "http.response.start", "status": 200, "headers": [(b"content-type", kind)]})
        await send({"type": "http.response.body", "body": b""})

    sent: list[dict[str, Any]] = []

    async def send(message: Any) -> None:
        sent.append(message)

    async def receive() -> Any:
        return {"type": "http.request", "body": b""}

    run_async(SecurityHeaders(app)({"type": "http", "scheme": "https", "headers": []}, receive, send))
    headers = dict(sent[0]["headers"])
    assert b"content-security-policy" not in headers
    assert headers[b"strict-transport-security"] == b"max-age=31536000"


def test_every_route_answers_with_the_headers(server: Running) -> None:
    """Each HTTP route of the app, filled in, with and without a session: the headers whatever the status."""
    from starlette.routing import Route

    fill = {"family": "standard", "name": "nobody", "id": "1", "code": "no-such-code-0000"}
    routes = [r for r in server.app.routes if isinstance(r, Route)]
    assert len(routes) >= 20
    with httpx.Client(base_url=server.url) as http:
        token = http.post("/api/guest").json()["token"]
        for route in routes:
            path = route.path.format(**{k: fill[k] for k in route.param_convertors})
            for method in sorted((route.methods or {"GET"}) - {"HEAD"}):
                for headers in ({}, {"Authorization": f"Bearer {token}"}):
                    if route.path in ("/api/logout", "/api/logout_all") and headers:
                        continue  # would end the session the other routes use
                    r = http.request(method, path, headers=headers, json={} if method == "POST" else None)
                    check_common(r)
                    if r.headers.get("content-type", "").startswith("application/json"):
                        api = directives(r.headers["content-security-policy"])
                        assert api["default-src"] == ["'none'"], (method, path)
