"""Settlement through the real server pays what the rules say (RULES §3.7, §2.10, §5.5), on SQLite and
PostgreSQL: the stake a hand holds and every forfeit come from the rule family, never from arithmetic in the
server, and the ledger stays sound.

- 温州, streak 0, 5 beans a point: a dealer escape is 10 × (1 + 0) × 16 = 160 points = 800 beans (a non-dealer
  escape 80 points = 400 beans).
- classic64 without a cap: a win worth more than 88 points is paid in full.
- A loser who holds less than the hand costs pays its whole balance (the balance cap), nothing more.
- settle itself needs no table: given a hand's values and a stand-in ledger it returns what the table sends.
"""

from __future__ import annotations

import contextlib
import os
import secrets
from collections import Counter
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import asyncpg
import httpx
import pytest
from sqlalchemy.engine import make_url

from erma.game import apply
from erma.game.actions import ESCAPE
from erma.game.match import Match
from erma.server.commitment import commitment, deal_proof
from erma.server.config import load_rooms
from erma.server.settlement import HandAtEnd, settle
from erma.store import Store

from ..store.conftest import PG_ADMIN, _admin
from .conftest import Client, Running, run_async, start_server

ROOMS = """
[[room]]
id = "wz"
name_zh = "温州"
name_en = "Wenzhou"
rules = "wenzhou2p"
tier = "novice"
entry_min = 100
bean_rate = 5
bot_level = 3  # greedy: declines 买底, so the non-dealer's escape is at 顶底 with m′ = 0

[[room]]
id = "big"
name_zh = "经典 大番"
name_en = "Classic, base 100"
rules = "classic64"
options = { mcr_base_points = 100 }
tier = "novice"
entry_min = 100
bean_rate = 1

[[room]]
id = "dear"
name_zh = "经典 高倍"
name_en = "Classic, 5000 a point"
rules = "classic64"
tier = "expert"
entry_min = 100
bean_rate = 5000
"""


@pytest.fixture(params=["sqlite", "postgresql"])
def served(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[Running]:
    rooms = tmp_path / "rooms.toml"
    rooms.write_text(ROOMS, encoding="utf-8")
    db_url = None
    name = f"erma_settle_{os.getpid()}_{secrets.token_hex(4)}"
    if request.param == "postgresql":
        try:
            run_async(_admin(f'CREATE DATABASE "{name}"'))
        except (OSError, asyncpg.PostgresError) as exc:
            if os.environ.get("CI"):
                raise
            pytest.skip(f"PostgreSQL at {PG_ADMIN} is not reachable: {exc}")
        db_url = make_url(PG_ADMIN).set(database=name).render_as_string(hide_password=False)
    srv, thread, running = start_server(tmp_path, rooms_file=str(rooms), db_url=db_url, bot_workers=0)
    yield running
    srv.should_exit = True
    thread.join(10)
    if db_url is not None:
        with contextlib.suppress(Exception):
            run_async(_admin(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)'))


def _balance(running: Running, token: str) -> int:
    me = httpx.get(running.url + "/api/me", headers={"Authorization": f"Bearer {token}"}).json()
    return int(me["balance"])


def _ledger_breaches(running: Running) -> list[str]:
    async def go() -> list[str]:
        store = await Store.open(running.settings.db_url, Path(running.settings.data_dir))
        try:
            return await store.check()
        finally:
            await store.close()

    return run_async(go())  # type: ignore[no-any-return]


async def _first_view(c: Client) -> dict[str, Any]:
    while True:
        msg = await c.expect("view")
        view = msg["view"]
        if view["legal"]:
            return view


def test_wenzhou_escape_pays_the_family_penalty(served: Running) -> None:
    """Escape at the first decision of a 温州 hand: the dealer (at 买底) pays 800 beans, the non-dealer (at
    顶底, the dealer having declined 买底) 400; new guests until both cases are seen."""
    seen: dict[str, int] = {}

    async def one() -> tuple[str, int, int]:
        c = Client(served)
        before = _balance(served, c.token)
        await c.connect()
        await c.send({"type": "queue", "room": "wz", "opponent": "bot"})
        m = await c.expect("match")
        view = await _first_view(c)
        dealer = view["dealer"] == view["seat"]
        assert view["phase"] == ("maidi" if dealer else "dingdi")
        await c.send({"type": "leave", "match": m["match"]})
        end = await c.expect("hand_end")
        await c.close()
        assert end["result"]["reason"] == "escape"
        return ("dealer" if dealer else "other"), end["beans"][view["seat"]], before

    for _ in range(16):
        who, beans, _ = run_async(one())
        seen[who] = beans
        if len(seen) == 2:
            break
    assert seen.get("dealer") == -800, seen
    assert seen.get("other") in (None, -400), seen
    assert _ledger_breaches(served) == []


def _play_hand(running: Running, room: str, *, win: bool) -> tuple[dict[str, Any], int, int]:
    """Play hands in ``room`` against the bot (taking a legal win only with ``win``) until one is won;
    returns that hand's ``hand_end``, this seat, and the balance before the match."""

    async def go() -> tuple[dict[str, Any], int, int]:
        c = Client(running)
        before = _balance(running, c.token)
        await c.connect()
        await c.send({"type": "queue", "room": room, "opponent": "bot"})
        m = await c.expect("match")
        seat = m["seat"]
        acted: set[tuple[int, int]] = set()
        while True:
            msg = await c.expect("view", "hand_end", "match_end", "error", timeout=90)
            assert msg["type"] in ("view", "hand_end"), msg
            if msg["type"] == "hand_end":
                if msg["result"]["reason"] == "win":
                    await c.close()
                    return msg, seat, before
                await c.send({"type": "next", "match": m["match"]})
                continue
            view = msg["view"]
            legal = view["legal"]
            if not legal or view["actor"] != seat or (view["hand_no"], view["decision"]) in acted:
                continue
            acted.add((view["hand_no"], view["decision"]))  # one action per decision (per hand)
            if win and "win" in legal:
                action = "win"
            elif "pass" in legal:
                action = "pass"
            elif "exchange" in legal:
                action = "exchange"
            else:
                plain = [a for a in legal if a.startswith("discard") and "riichi" not in a]
                action = plain[0] if plain else legal[0]
            await c.act(m["match"], action)  # (seq increases over the match, not per hand)

    return run_async(go())  # type: ignore[no-any-return]


def test_a_win_above_88_points_is_paid_in_full(served: Running) -> None:
    """classic64 with base points 100: every win is worth more than 88 points, and moves all of it."""
    end, _, _ = _play_hand(served, "big", win=True)
    result = end["result"]
    points = result["points"]
    assert points > 88 and points == sum(f["points"] * f["count"] for f in result["fans"]) + 100
    assert end["beans"][result["winner"]] == points and end["beans"][result["loser"]] == -points
    assert _ledger_breaches(served) == []


def test_a_loser_short_of_the_cost_pays_its_balance(served: Running) -> None:
    """5,000 beans a point: the smallest classic64 win (8 points) costs 40,000, more than a guest's 10,000;
    the losing guest pays exactly its balance and is left with 0."""
    end, seat, before = _play_hand(served, "dear", win=False)
    result = end["result"]
    assert result["winner"] != seat  # this client never declares a win
    assert result["points"] * 5000 > before
    assert end["beans"][seat] == -before and end["beans"][1 - seat] == before
    assert end["balances"][seat] == 0
    assert _ledger_breaches(served) == []


def test_settle_is_given_the_hands_values_and_returns_what_to_send() -> None:
    """settle needs no table: given the ended hand's values it makes the ledger's one call, saves the record,
    finishes the match's hand, and returns the hand_end (an escape: a forfeit, and the match is over)."""
    room = load_rooms()["classic-novice"]
    match = Match(room.rules, "secret")
    contributions = ["ab", ""]
    state = match.next_hand(contributions)
    escaper = state.actor
    apply(state, escaper, ESCAPE)
    assert state.result is not None

    calls: list[tuple[Any, ...]] = []

    class Ledger:
        async def forfeit(self, unit: str, account: int, beans: int, rated: Any) -> bool:
            calls.append(("forfeit", unit, account, beans))
            return True

        async def balances(self, ids: list[int]) -> list[int]:
            return [1000, 2000]

        async def save_record(self, unit: str, ids: list[int], record: dict[str, Any], summary: Any) -> int:
            calls.append(("record", unit, record["match"], summary["reason"]))
            return 42

    hand = HandAtEnd(
        match_id="m1",
        room=room,
        match=match,
        state=state,
        players=["甲", "乙"],
        accounts=[7, 8],
        unit="m1:1",
        held={7: 10**6, 8: 10**6},
        balances_before=[1000, 1000],
        digest="d",
        salt="s",
        contributions=contributions,
        over=False,
    )
    metrics: Counter[str] = Counter()
    settled = run_async(settle(Ledger(), metrics, hand, []))
    points = state.result.points
    assert calls == [
        ("forfeit", "m1:1", [7, 8][escaper], points * room.bean_rate),
        ("record", "m1:1", "m1", "escape"),
    ]
    assert metrics["ledger_transactions"] == 1
    assert settled.over and match.over and settled.balances == [1000, 2000]
    end = settled.hand_end.to_dict()
    assert end["record_id"] == 42 and end["next_commitment"] is None
    assert end["beans"][escaper] == -points * room.bean_rate
    assert {k: end[k] for k in ("server_seed", "commitment", "contributions")} == deal_proof(
        "secret", 1, contributions
    )
    assert end["commitment"] == commitment("secret", 1)
