"""The client's address (客户端地址) behind reverse proxies: whom the per-address limits count.

The peer of the TCP connection is the client unless it is a trusted proxy (setting ``trusted_proxies``:
addresses and CIDR networks; default none). Only then is ``X-Forwarded-For`` read, and only as far as the
trusted hops go: its entries are walked from the right (the hop nearest to this server first), each trusted
hop is skipped, and the first entry that is not trusted is the client. Whatever a client writes into the
header itself stays to the left of the address its proxy appended, so it is never reached. ``X-Real-IP`` and
``Forwarded`` are not read.

Every per-address limit (sign-up, login and guest limits; the websocket's message rate per address) takes its
key from :func:`client_address`; uvicorn's own proxy-header handling is off (``app.serve``), and
:class:`ForwardedProto` takes its other part: the request's scheme (https behind a TLS proxy) from a trusted
peer's ``X-Forwarded-Proto``.
"""

from __future__ import annotations

import ipaddress
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from functools import lru_cache
from typing import Any

from starlette.requests import HTTPConnection

Network = ipaddress.IPv4Network | ipaddress.IPv6Network

FORWARDED_FOR = "x-forwarded-for"
UNKNOWN = "?"
"""The address of a connection without a peer (never a real one)."""


def _address(text: str) -> str | None:
    """An address in canonical form (``::1`` for ``0:0::1``; an IPv4-mapped IPv6 address as IPv4), or None."""
    text = text.strip()
    if text.startswith("[") and text.endswith("]"):
        text = text[1:-1]
    try:
        addr = ipaddress.ip_address(text)
    except ValueError:
        return None
    if isinstance(addr, ipaddress.IPv6Address) and addr.ipv4_mapped is not None:
        return str(addr.ipv4_mapped)
    return str(addr)


@dataclass(frozen=True, slots=True)
class TrustedProxies:
    """The proxies (受信代理) whose ``X-Forwarded-For`` is believed."""

    networks: tuple[Network, ...] = ()

    @classmethod
    def parse(cls, items: Iterable[str] | str) -> TrustedProxies:
        """From addresses and CIDR networks (a comma-separated string or a sequence); ValueError names the
        setting and the entry that is neither."""
        if isinstance(items, str):
            items = items.split(",")
        networks = []
        for item in items:
            item = item.strip()
            if not item:
                continue
            try:
                networks.append(ipaddress.ip_network(item, strict=False))
            except ValueError:
                raise ValueError(
                    f"trusted_proxies: {item!r} is not an IP address or a CIDR network (e.g. 10.0.0.0/8)"
                ) from None
        return cls(tuple(networks))

    def trusts(self, address: str) -> bool:
        """Whether ``address`` (canonical) is one of the trusted proxies."""
        if not self.networks:
            return False
        try:
            addr = ipaddress.ip_address(address)
        except ValueError:
            return False
        return any(addr in net for net in self.networks)

    def resolve(self, peer: str | None, forwarded_for: Sequence[str] = ()) -> str:
        """The client's address given the connection's peer and the ``X-Forwarded-For`` header values (in
        the order received): the peer unless it is trusted; then the rightmost entry that is not a trusted
        proxy. A malformed entry ends the walk at the last hop believed; so does the header's left end."""
        client = _address(peer) if peer else None
        if client is None:
            return peer or UNKNOWN
        if not self.trusts(client):
            return client
        hops = [hop for value in forwarded_for for hop in value.split(",")]
        for hop in reversed(hops):
            addr = _address(hop)
            if addr is None:
                break
            client = addr
            if not self.trusts(addr):
                break
        return client


@lru_cache(maxsize=8)
def trusted_proxies(setting: tuple[str, ...] | str) -> TrustedProxies:
    """The parsed ``trusted_proxies`` setting (parsed once per value)."""
    return TrustedProxies.parse(setting)


def client_address(conn: HTTPConnection, setting: tuple[str, ...] | str = ()) -> str:
    """The address the per-address limits count for a request or a websocket (see the module's text)."""
    peer = conn.client.host if conn.client else None
    return trusted_proxies(setting).resolve(peer, conn.headers.getlist(FORWARDED_FOR))


class ForwardedProto:
    """ASGI middleware: a request from a trusted proxy has the scheme that proxy names in the last
    ``X-Forwarded-Proto`` entry (``https`` or ``http``; a websocket ``wss`` or ``ws``), so that what
    depends on TLS (HSTS, the page's socket policy) sees it behind the proxy. From any other peer the header
    is ignored."""

    def __init__(self, app: Any, trusted: tuple[str, ...] | str = ()) -> None:
        self.app = app
        self.trusted = trusted_proxies(trusted)

    async def __call__(self, scope: Any, receive: Any, send: Any) -> None:
        if scope["type"] in ("http", "websocket") and self.trusted.networks:
            peer = scope.get("client")
            host = _address(peer[0]) if peer else None
            if host is not None and self.trusted.trusts(host):
                values = [v for k, v in scope.get("headers", ()) if k == b"x-forwarded-proto"]
                proto = values[-1].split(b",")[-1].strip().lower().decode("latin-1") if values else ""
                if proto in ("http", "https"):
                    ws = scope["type"] == "websocket"
                    scheme = {"http": "ws", "https": "wss"}[proto] if ws else proto
                    scope = {**scope, "scheme": scheme}
        await self.app(scope, receive, send)
