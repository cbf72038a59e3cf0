"""Security headers (安全响应头) on every HTTP response: a strict Content-Security-Policy on the web client's
pages, and the usual headers beside it.

- ``Content-Security-Policy`` on HTML pages: :func:`page_policy` — scripts, styles, images and fonts from
  this origin only (no inline code, no ``eval``), sockets to this host, no frames, no plugins, no ``<base>``.
- ``Content-Security-Policy`` on JSON (the API): :data:`API_POLICY` (an answer opened as a page runs nothing).
- On every response: ``X-Content-Type-Options: nosniff``, ``Referrer-Policy: no-referrer``,
  ``X-Frame-Options: DENY`` (``frame-ancestors`` for browsers without CSP 2).
- ``Strict-Transport-Security: max-age=31536000`` (a year) on responses to HTTPS requests; no
  ``includeSubDomains``: the operator's other hosts are not ours to pin.

HTTPS is the request's scheme as the ASGI server reports it: a direct TLS request, or one whose
``X-Forwarded-Proto`` the server believed (uvicorn believes it only from the hops it trusts).
A response that sets one of these headers itself keeps its own.
"""

from __future__ import annotations

import re
from typing import Any

HSTS = "max-age=31536000"
API_POLICY = "default-src 'none'; frame-ancestors 'none'; base-uri 'none'"
ALWAYS: tuple[tuple[bytes, bytes], ...] = (
    (b"x-content-type-options", b"nosniff"),
    (b"referrer-policy", b"no-referrer"),
    (b"x-frame-options", b"DENY"),
)
_HOST = re.compile(r"[A-Za-z0-9.\-]{1,253}(:[0-9]{1,5})?|\[[0-9A-Fa-f:.]{2,45}\](:[0-9]{1,5})?")


def page_policy(host: str | None, https: bool) -> str:
    """The CSP of an HTML page served to ``host`` (the request's Host header, used only when it is a plain
    host[:port]): ``connect-src`` names the socket of the same host explicitly (``wss:`` over HTTPS, both
    otherwise), since older browsers do not let ``'self'`` cover ``ws:``."""
    sockets = ""
    if host and _HOST.fullmatch(host):
        sockets = f" wss://{host}" if https else f" ws://{host} wss://{host}"
    return (
        "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self'; font-src 'self'; "
        f"connect-src 'self'{sockets}; object-src 'none'; base-uri 'none'; form-action 'self'; "
        "frame-ancestors 'none'"
    )


class SecurityHeaders:
    """ASGI middleware adding the headers above to every HTTP response (websocket handshakes pass through)."""

    def __init__(self, app: Any) -> None:
        self.app = app

    async def __call__(self, scope: Any, receive: Any, send: Any) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        https = scope.get("scheme") == "https"
        host = next((v.decode("latin-1") for k, v in scope.get("headers", ()) if k == b"host"), None)

        async def send_with_headers(message: Any) -> None:
            if message["type"] == "http.response.start":
                headers = list(message.get("headers", ()))
                have = {k.lower() for k, _ in headers}
                kind = next((v for k, v in headers if k.lower() == b"content-type"), b"").lower()
                extra = list(ALWAYS)
                if kind.startswith(b"text/html"):
                    extra.append((b"content-security-policy", page_policy(host, https).encode()))
                elif kind.startswith(b"application/json"):
                    extra.append((b"content-security-policy", API_POLICY.encode()))
                if https:
                    extra.append((b"strict-transport-security", HSTS.encode()))
                headers += [(k, v) for k, v in extra if k not in have]
                message = {**message, "headers": headers}
            await send(message)

        await self.app(scope, receive, send_with_headers)
