"""The review endpoints (复盘): a stored hand's review for its own players only, computed once off the event
loop and then served from the store (SQLite and PostgreSQL); the 202 while computing; the per-player trend."""

from __future__ import annotations

import json
import os
import secrets
import threading
import time
from pathlib import Path
from typing import Any

import asyncpg
import httpx
import pytest
from sqlalchemy.engine import make_url

from erma.coach import review_record
from erma.store import Store

from ..store.conftest import FAST_HASHER, PG_ADMIN, _admin
from .conftest import METRICS_TOKEN, Running, run_async, start_server, stop_server

RECORDS = Path(__file__).parents[1] / "data" / "records"
NAMES = ["cuopai789-rob.json", "classic64-win.json", "cuopai789-triplet.json"]


def _pg_url() -> str:
    try:
        name = f"erma_rv_{secrets.token_hex(4)}"
        run_async(_admin(f'CREATE DATABASE "{name}"'))
    except (OSError, asyncpg.PostgresError) as exc:
        if os.environ.get("CI"):
            pytest.fail(f"PostgreSQL at {PG_ADMIN}: {exc}")
        pytest.skip(f"PostgreSQL at {PG_ADMIN} is not reachable: {exc}")
    return make_url(PG_ADMIN).set(database=name).render_as_string(hide_password=False)


def _guest(running: Running) -> tuple[dict[str, str], int]:
    token = httpx.post(running.url + "/api/guest").json()["token"]
    headers = {"Authorization": f"Bearer {token}"}
    return headers, httpx.get(running.url + "/api/me", headers=headers).json()["account"]["id"]


def _store_hand(url: str, name: str | dict[str, Any], account_ids: list[int]) -> tuple[int, dict[str, Any]]:
    """A finished hand from tests/data/records (or a record given) stored as the server stores one."""
    record = json.loads((RECORDS / name).read_text(encoding="utf-8")) if isinstance(name, str) else name

    async def save() -> int:
        store = await Store.open(url, password_hasher=FAST_HASHER)
        try:
            summary = {"room": "cuopai-novice", "rules": record["rules"], "winner": None, "points": 0}
            return await store.save_record(f"rv-{secrets.token_hex(4)}", account_ids, record, summary)
        finally:
            await store.close()

    return run_async(save()), record


def _computed(running: Running) -> int:
    text = httpx.get(running.url + "/metrics", headers={"Authorization": f"Bearer {METRICS_TOKEN}"}).text
    for line in text.splitlines():
        if line.startswith("erma_reviews_computed_total "):
            return int(line.split()[1])
    return 0


@pytest.mark.parametrize("backend", ["sqlite", "postgresql"])
def test_own_players_only_computed_once_and_kept(tmp_path: Path, backend: str) -> None:
    url = str(tmp_path / "erma.db") if backend == "sqlite" else _pg_url()
    try:
        srv, thread, running = start_server(tmp_path, db_url=url, review_wait_s=120.0)
        try:
            me, my_id = _guest(running)
            other, other_id = _guest(running)
            third, _ = _guest(running)
            rid, record = _store_hand(url, "cuopai789-rob.json", [other_id, my_id])  # I sit at seat 1
            path = f"{running.url}/api/games/{rid}/review"
            r = httpx.get(path, headers=me, timeout=120)
            assert r.status_code == 200, r.text
            got = r.json()
            assert got["status"] == "done" and got["id"] == rid and got["review_seat"] == 1
            assert got["format"] == "erma.review/1" and got["rules"] == "cuopai789"
            expected = review_record(record, 1, seed="review")  # the server serves the coach's own review
            assert {k: got[k] for k in expected} == json.loads(json.dumps(expected))
            assert all(d["seat"] == 1 for d in got["decisions"])
            # the opponent's seat on request; the other player gets their own seat by default
            assert httpx.get(path + "?seat=0", headers=me, timeout=120).json()["review_seat"] == 0
            assert httpx.get(path, headers=other, timeout=120).json()["review_seat"] == 0
            assert _computed(running) == 2  # seat 1, then seat 0: each once
            for _ in range(3):  # served from the store from now on
                assert httpx.get(path, headers=me).json() == got
            assert _computed(running) == 2
            # not a player of it, no session, bad ids and seats: the record endpoints' answers
            assert httpx.get(path, headers=third).status_code == 404
            assert httpx.get(path).status_code == 401
            bad = {
                f"{running.url}/api/games/{rid}/review?seat=2": 400,
                f"{running.url}/api/games/{rid}/review?seat=x": 400,
                f"{running.url}/api/games/abc/review": 400,
                f"{running.url}/api/games/{10**12}/review": 404,
                f"{running.url}/api/games/{10**30}/review": 404,
            }
            for target, status in bad.items():
                reply = httpx.get(target, headers=me)
                assert reply.status_code == status, target
                assert set(reply.json()) == {"error", "message"}
            assert _computed(running) == 2
            broken = {**record, "actions": [[0, "discard 9z"]]}  # not a hand that replays
            rid_bad, _ = _store_hand(url, broken, [my_id, other_id])
            reply = httpx.get(f"{running.url}/api/games/{rid_bad}/review", headers=me, timeout=120)
            assert reply.status_code == 400 and reply.json()["error"] == "bad_record", reply.text
            assert "cannot be reviewed" in reply.json()["message"]

            # the trend: each player's own seat, newest hand first
            rid2, _ = _store_hand(url, "classic64-win.json", [my_id, other_id])
            assert (
                httpx.get(f"{running.url}/api/games/{rid2}/review", headers=me, timeout=120).status_code
                == 200
            )
            trend = httpx.get(running.url + "/api/me/reviews", headers=me).json()["reviews"]
            assert [(t["id"], t["seat"]) for t in trend] == [(rid2, 0), (rid, 1)]
            (mine,) = [s for s in got["summary"] if s["seat"] == 1]
            for key in ("decisions", "agreement", "mistakes", "value_lost"):
                assert trend[1][key] == mine[key]
            assert trend[0]["rules"] == "classic64" and trend[1]["room"] == "cuopai-novice"
            assert [
                t["id"]
                for t in httpx.get(running.url + "/api/me/reviews?limit=1", headers=me).json()["reviews"]
            ] == [rid2]
            theirs = httpx.get(running.url + "/api/me/reviews", headers=other).json()["reviews"]
            assert [(t["id"], t["seat"]) for t in theirs] == [(rid, 0)]
            assert httpx.get(running.url + "/api/me/reviews", headers=third).json() == {"reviews": []}
            assert httpx.get(running.url + "/api/me/reviews").status_code == 401
            for limit in ("0", "101", "x", "-1"):
                assert (
                    httpx.get(running.url + f"/api/me/reviews?limit={limit}", headers=me).status_code == 400
                )
        finally:
            stop_server(srv, thread, running)
    finally:
        if backend == "postgresql":
            run_async(_admin(f'DROP DATABASE IF EXISTS "{make_url(url).database}" WITH (FORCE)'))


def test_a_review_still_computing_answers_202_then_200(tmp_path: Path) -> None:
    srv, thread, running = start_server(tmp_path, review_wait_s=0.0)
    try:
        me, my_id = _guest(running)
        _, other_id = _guest(running)
        rid, _ = _store_hand(str(tmp_path / "erma.db"), "wenzhou2p-maidi.json", [my_id, other_id])
        path = f"{running.url}/api/games/{rid}/review"
        first = httpx.get(path, headers=me)
        assert first.status_code == 202 and first.headers["retry-after"] == "1"
        assert first.json() == {"id": rid, "review_seat": 0, "status": "computing", "retry_after_s": 1}
        deadline = time.monotonic() + 120
        while (reply := httpx.get(path, headers=me)).status_code == 202:
            assert time.monotonic() < deadline
            time.sleep(0.2)
        assert reply.status_code == 200 and reply.json()["status"] == "done"
        assert _computed(running) == 1  # the polls joined the one computation
    finally:
        stop_server(srv, thread, running)


def test_a_failed_review_is_a_json_500_and_logged(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    import erma.server.coach_api as coach_api

    def broken(record: dict[str, Any], seat: int, seed: str) -> dict[str, Any]:
        raise RuntimeError("the coach fell over")

    monkeypatch.setattr(coach_api, "compute_review", broken)  # review_workers=0: it runs in a thread here
    srv, thread, running = start_server(tmp_path, review_workers=0, review_wait_s=60.0)
    try:
        me, my_id = _guest(running)
        _, other_id = _guest(running)
        rid, _ = _store_hand(str(tmp_path / "erma.db"), "cuopai789-rob.json", [my_id, other_id])
        reply = httpx.get(f"{running.url}/api/games/{rid}/review", headers=me, timeout=60)
        assert reply.status_code == 500 and reply.json()["error"] == "review_failed"
        assert "Traceback" not in reply.text
        assert any("the coach fell over" in t for t in running.logs.tracebacks())  # the operator sees it
        text = httpx.get(running.url + "/metrics", headers={"Authorization": f"Bearer {METRICS_TOKEN}"}).text
        assert "erma_reviews_failed_total 1" in text and _computed(running) == 0
    finally:
        srv.should_exit = True
        thread.join(10)


def test_two_reviews_computing_per_account(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Two reviews of one account computing at once; a third waits (429), another player's does not."""
    import erma.server.coach_api as coach_api

    gate = threading.Event()
    real = coach_api.compute_review

    def held(record: dict[str, Any], seat: int, seed: str) -> dict[str, Any]:
        gate.wait(60)  # the reviews stay "computing" until the test lets them go
        return real(record, seat, seed)

    monkeypatch.setattr(coach_api, "compute_review", held)  # review_workers=0: it runs in a thread here
    srv, thread, running = start_server(tmp_path, review_workers=0, review_wait_s=0.0)
    try:
        me, my_id = _guest(running)
        other, other_id = _guest(running)
        games = [_store_hand(str(tmp_path / "erma.db"), name, [my_id, other_id])[0] for name in NAMES]
        answers = [httpx.get(f"{running.url}/api/games/{g}/review", headers=me) for g in games]
        assert [a.status_code for a in answers] == [202, 202, 429]
        assert answers[2].json()["error"] == "rate_limited" and answers[2].headers["retry-after"] == "2"
        assert httpx.get(f"{running.url}/api/games/{games[2]}/review", headers=other).status_code == 202
        gate.set()
        for g in games:
            deadline = time.monotonic() + 120
            while (reply := httpx.get(f"{running.url}/api/games/{g}/review", headers=me)).status_code != 200:
                assert reply.status_code in (202, 429) and time.monotonic() < deadline
                time.sleep(0.2)
        assert _computed(running) == 4
    finally:
        gate.set()
        stop_server(srv, thread, running)


def test_a_review_saved_since_the_store_was_read_is_not_recomputed(monkeypatch: pytest.MonkeyPatch) -> None:
    """A request that found no review in the store just before one was saved gets the saved one, not a
    second computation (the race that made two polls compute a review twice)."""
    import asyncio

    import erma.server.coach_api as coach_api

    calls: list[int] = []

    def fake(record: dict[str, Any], seat: int, seed: str) -> dict[str, Any]:
        calls.append(seat)
        return {"decisions": [], "seat": seat}

    class Store:
        def __init__(self) -> None:
            self.saved: dict[tuple[int, int], dict[str, Any]] = {}

        async def save_review(self, rid: int, seat: int, review: dict[str, Any], summary: Any) -> None:
            self.saved[(rid, seat)] = {"review": review, "created": "now"}

        async def get_review(self, rid: int, seat: int) -> dict[str, Any] | None:
            return self.saved.get((rid, seat))

    monkeypatch.setattr(coach_api, "compute_review", fake)
    monkeypatch.setattr(coach_api, "seat_summary", lambda review, seat: {})

    async def main() -> tuple[dict[str, Any], dict[str, Any]]:
        reviewer = coach_api.Reviewer(workers=0)
        store = Store()
        first = reviewer.job(store, 7, 1, {}, account_id=3)
        assert isinstance(first, asyncio.Task)
        done = await first
        # the store's answer was read before the save, so the caller asks for the job again
        again = reviewer.job(store, 7, 1, {}, account_id=3)
        assert isinstance(again, asyncio.Task)
        return done, await again

    done, again = asyncio.run(main())
    assert calls == [1]
    assert again == done == {"review": {"decisions": [], "seat": 1}, "created": "now"}
