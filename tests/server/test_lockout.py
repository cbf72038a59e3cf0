"""Lockout as a weapon: failing an account's password slows the address that fails, with growing waits, and
never stops the owner logging in from another address; a guess spread over many addresses is slowed to one
per ``login_slow_s`` for addresses new to the name while the owner's own address goes on as before."""

from __future__ import annotations

import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import httpx

from erma.server.auth_limits import Limit, Refused
from erma.server.login_guard import Backoff, LoginGuard

from .conftest import start_server, stop_server

OWNER = {"name": "Owner", "password": "correct horse"}
WRONG = {"name": "Owner", "password": "guess"}


@contextmanager
def serving(tmp: Path, **over: Any) -> Iterator[str]:
    srv, thread, running = start_server(tmp, **over)
    try:
        yield running.url
    finally:
        stop_server(srv, thread, running)


def client_from(url: str, address: str) -> httpx.Client:
    """A client whose connections come from ``address`` (a loopback address of its own): what the server's
    limits see as the client address."""
    return httpx.Client(base_url=url, transport=httpx.HTTPTransport(local_address=address))


def test_an_attacker_hammering_from_one_address_does_not_lock_the_owner_out(tmp_path: Path) -> None:
    with serving(tmp_path) as url:  # the default settings
        with client_from(url, "127.0.0.5") as home:
            assert home.post("/api/register", json=OWNER).status_code == 200
        with client_from(url, "127.0.0.2") as attacker:
            answers = [attacker.post("/api/login", json=WRONG) for _ in range(40)]
        with client_from(url, "127.0.0.3") as owner:  # an address the owner never used before
            first, second = owner.post("/api/login", json=OWNER), owner.post("/api/login", json=OWNER)
        assert first.status_code == 200, first.text  # before: 429 login_per_name after 10 failures anywhere
        assert second.status_code == 200
        codes = [r.status_code for r in answers]
        assert codes[:3] == [401, 401, 401] and set(codes[3:]) == {429}, codes
        assert {r.json()["limit"] for r in answers[3:]} == {"login_backoff"}
        assert "wait" in answers[3].json()["message"] and int(answers[3].headers["Retry-After"]) >= 1


def test_the_attackers_own_waits_grow(tmp_path: Path) -> None:
    with serving(tmp_path) as url, client_from(url, "127.0.0.2") as attacker:
        attacker.post("/api/register", json={"name": "Victim", "password": "long and right"})
        wrong = {"name": "Victim", "password": "nope"}
        assert [attacker.post("/api/login", json=wrong).status_code for _ in range(3)] == [401] * 3
        waits = []
        for _ in range(3):
            refused = attacker.post("/api/login", json=wrong)
            assert refused.status_code == 429 and refused.json()["limit"] == "login_backoff", refused.text
            waits.append(refused.json()["retry_after"])
            time.sleep(refused.json()["retry_after"] + 0.05)
            assert attacker.post("/api/login", json=wrong).status_code == 401  # waited: one more try
        assert waits == [1, 2, 4]
        refused = attacker.post("/api/login", json={"name": "Victim", "password": "long and right"})
        assert refused.status_code == 429 and refused.json()["retry_after"] in (7, 8)  # the right one waits


def test_a_guess_spread_over_many_addresses_is_slowed_not_locked(tmp_path: Path) -> None:
    with serving(tmp_path, login_per_name=6, login_slow_s=3.0) as url:
        with client_from(url, "127.0.0.5") as home:
            assert home.post("/api/register", json=OWNER).status_code == 200
        for i in range(6):  # six addresses, one failure each: the name's ceiling
            with client_from(url, f"127.0.1.{i + 1}") as bot:
                assert bot.post("/api/login", json=WRONG).status_code == 401
        with client_from(url, "127.0.1.50") as bot:
            assert bot.post("/api/login", json=WRONG).status_code == 401  # the one attempt of this 3 s
            slowed = bot.post("/api/login", json=WRONG)
        assert slowed.status_code == 429 and slowed.json()["limit"] == "login_slowed"
        assert 2 <= slowed.json()["retry_after"] <= 3
        with client_from(url, "127.0.1.51") as bot:  # another new address shares the slow lane
            assert bot.post("/api/login", json=WRONG).status_code == 429
        with client_from(url, "127.0.0.5") as home:  # the owner's own address is not slowed
            assert [home.post("/api/login", json=OWNER).status_code for _ in range(3)] == [200] * 3
        time.sleep(3.1)
        with client_from(url, "127.0.0.9") as travelling:  # the owner from a new address: slowed, not locked
            assert travelling.post("/api/login", json=OWNER).status_code == 200


def test_backoff_doubles_up_to_its_cap_and_a_success_resets_the_pair() -> None:
    now = [0.0]
    backoff = Backoff(free=3, base_s=1.0, max_s=60.0)
    guard = LoginGuard(backoff, Limit("n", 1000, 600.0, "x"), slow_s=20.0, clock=lambda: now[0])
    waits = []
    for _ in range(12):
        guard.admit("owner", "A")
        guard.failed("owner", "A")
        waits.append(guard.wait("owner", "A"))
        now[0] += waits[-1]
    assert waits == [0, 0, 1, 2, 4, 8, 16, 32, 60, 60, 60, 60]
    try:
        guard.admit("owner", "A")
        guard.failed("owner", "A")
        guard.admit("owner", "A")
        raise AssertionError("not refused")
    except Refused as refused:
        assert refused.limit.name == "login_backoff" and refused.retry_after == 60
    guard.admit("owner", "B")  # another address of the same name waits for nothing
    guard.succeeded("owner", "B")
    now[0] += 60
    guard.admit("owner", "A")
    guard.succeeded("owner", "A")
    assert guard.wait("owner", "A") == 0
    for _ in range(3):
        guard.failed("owner", "A")
    assert guard.wait("owner", "A") == 1  # counted afresh from the success
    now[0] += 600 + 1.5  # idle for the window beyond its wait: forgotten
    guard.failed("owner", "A")
    assert guard.wait("owner", "A") == 0


def test_the_name_ceiling_spares_known_addresses() -> None:
    now = [0.0]
    guard = LoginGuard(Backoff(), Limit("n", 5, 100.0, "x"), slow_s=10.0, clock=lambda: now[0])
    guard.succeeded("owner", "home")
    for i in range(5):
        guard.admit("owner", f"bot{i}")
        guard.failed("owner", f"bot{i}")
    guard.admit("owner", "bot9")  # the slow lane's one attempt
    guard.failed("owner", "bot9")
    for who in ("bot9", "bot10"):
        try:
            guard.admit("owner", who)
            raise AssertionError("not slowed")
        except Refused as refused:
            assert refused.limit.name == "login_slowed" and refused.retry_after == 10
    for _ in range(20):
        guard.admit("owner", "home")
    guard.admit("other", "bot10")  # another name is not touched
    now[0] += 10
    guard.admit("owner", "bot10")
    now[0] += 100  # the failures left the window: no slow lane
    guard.admit("owner", "bot11")
    guard.admit("owner", "bot12")


def test_the_guard_forgets_what_is_over() -> None:
    now = [0.0]
    guard = LoginGuard(Backoff(), Limit("n", 5, 100.0, "x"), slow_s=10.0, clock=lambda: now[0])
    guard.MAX_KEYS = 50
    for i in range(60):
        guard.failed(f"name{i}", "A")
    now[0] += 200  # every failure left the window and its pair's wait
    guard.failed("fresh", "A")
    assert set(guard._pairs) == {("fresh", "A")} and set(guard._failures) == {"fresh"}
