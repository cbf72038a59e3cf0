"""The coach over REST (复盘): a stored hand's review for its own players, and each player's trend.

- ``GET /api/games/{id}/review`` (``?seat=`` 0 or 1; default the caller's seat): the review of one seat of a
  stored hand, the JSON of ``erma review RECORD --seat N --json`` (seed :data:`REVIEW_SEED`) with the game's
  ``id``, ``status`` ``"done"`` and ``reviewed`` (when it was computed). Only the hand's players may ask
  (another account, a guest or an unknown id: 404, as for the record and the replay; no session: 401).
  A review is computed once, in worker processes of its own (:class:`Reviewer`, never on the event loop),
  kept in the store with the record, and served from the store after that. The request waits up to
  ``review_wait_s`` for a computation; one still running then is answered **202** ``{"status":
  "computing", "retry_after_s": 1}`` with a ``Retry-After`` header: ask again.
- ``GET /api/me/reviews`` (``?limit=`` 1–100, default 20): the caller's reviewed hands, newest first, each
  ``id``, ``created``, ``rules``, ``room``, ``seat`` and that seat's ``decisions``, ``agreement``,
  ``mistakes``, ``value_lost``.
"""

from __future__ import annotations

import asyncio
import logging
import multiprocessing
import os
from collections import Counter, OrderedDict
from collections.abc import Awaitable, Callable
from concurrent.futures import Executor, ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from typing import Any

from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import Route

from erma.errors import ErmaError
from erma.server.accounts_api import token_of
from erma.server.protocol import decimal

log = logging.getLogger("erma.coach")

REVIEW_SEED = "review"
"""The seed of every review the server computes (``erma review --seed``'s default): the same hand gets the
same review from the server and from the command line."""

MAX_PENDING = 16
"""Reviews computing at once in one server process; beyond this a request is answered 503 (ask later)."""

PER_ACCOUNT = 2
"""Reviews one account may have computing at once (in this process); a third is answered 429 (ask later): one
player asking for all their hands does not hold the workers from everyone else."""

SUMMARY_KEYS = ("decisions", "agreement", "mistakes", "value_lost")


def _error(status: int, code: str, message: str, **headers: str) -> JSONResponse:
    return JSONResponse({"error": code, "message": message}, status_code=status, headers=headers or None)


def compute_review(record: dict[str, Any], seat: int, seed: str) -> dict[str, Any]:
    """In a worker: the coach's review of ``seat`` in ``record``."""
    from erma.coach import review_record

    return review_record(record, seat, seed=seed)


def _warm() -> int:
    """In a new worker: import the coach before the first review arrives."""
    import erma.coach  # noqa: F401

    return 0


def seat_summary(review: dict[str, Any], seat: int) -> dict[str, Any]:
    """The review's summary of ``seat`` (its ``summary`` is a list, one object per seat reviewed): decisions,
    agreement (None without decisions), mistakes, value lost."""
    item: dict[str, Any] = next((s for s in review.get("summary") or [] if s.get("seat") == seat), {})
    return {k: item.get(k) for k in SUMMARY_KEYS}


class Reviewer:
    """Reviews in ``workers`` processes of their own (0: a thread of this process), started at the first
    review: a review takes a second or two, and in the bots' workers it would hold up their decisions. A
    (record, seat) being computed is not computed twice at once in this process; across processes the
    store keeps the first one written."""

    def __init__(self, workers: int = 1, seed: str = REVIEW_SEED) -> None:
        self.workers = workers
        self.seed = seed
        self._pool: Executor | None = None
        self.pending: dict[tuple[int, int], asyncio.Task[dict[str, Any]]] = {}
        self.asked_by: dict[tuple[int, int], int] = {}
        """Who started each pending review (the per-account limit)."""
        self.finished: OrderedDict[tuple[int, int], dict[str, Any]] = OrderedDict()
        """The last reviews computed here, as stored: a request that read the store just before one was saved
        is answered from here instead of computing it again."""
        self.metrics: Counter[str] = Counter()
        """reviews_computed / reviews_failed (the app points this at the hub's counters for /metrics)."""

    def _start(self) -> Executor:
        if self._pool is None:
            from erma.server.thinker import _worker_start

            ctx = multiprocessing.get_context("spawn")
            self._pool = ProcessPoolExecutor(
                max_workers=self.workers, mp_context=ctx, initializer=_worker_start, initargs=(os.getpid(),)
            )
            self._pool.submit(_warm)
        return self._pool

    def stop(self) -> None:
        """Stop the workers (reviews in flight are abandoned; they are computed again when asked)."""
        pool, self._pool = self._pool, None
        if pool is not None:
            pool.shutdown(wait=False, cancel_futures=True)
        for task in self.pending.values():
            task.cancel()

    async def _compute(self, record: dict[str, Any], seat: int) -> dict[str, Any]:
        if self.workers <= 0:
            return await asyncio.to_thread(compute_review, record, seat, self.seed)
        pool = self._start()
        loop = asyncio.get_running_loop()
        try:
            return await loop.run_in_executor(pool, compute_review, record, seat, self.seed)
        except BrokenProcessPool:
            log.warning("a review worker died; starting new workers")
            if self._pool is pool:
                self._pool = None
                pool.shutdown(wait=False, cancel_futures=True)
            return await loop.run_in_executor(self._start(), compute_review, record, seat, self.seed)

    def job(
        self, store: Any, record_id: int, seat: int, record: dict[str, Any], account_id: int
    ) -> asyncio.Task[dict[str, Any]] | str:
        """The running computation of (record, seat), started for ``account_id`` if need be; else why not:
        ``"busy"`` (too many reviews computing here) or ``"rate_limited"`` (too many of this account's)."""
        key = (record_id, seat)
        task = self.pending.get(key)
        if task is not None:
            return task
        kept = self.finished.get(key)
        if kept is not None:  # saved since the caller looked in the store

            async def ready() -> dict[str, Any]:
                return kept

            return asyncio.create_task(ready())
        if len(self.pending) >= MAX_PENDING:
            return "busy"
        if sum(1 for a in self.asked_by.values() if a == account_id) >= PER_ACCOUNT:
            return "rate_limited"

        async def run() -> dict[str, Any]:
            try:
                review = await self._compute(record, seat)
                await store.save_review(record_id, seat, review, seat_summary(review, seat))
                self.metrics["reviews_computed"] += 1
                kept = await store.get_review(record_id, seat)
                kept = kept if kept is not None else {"review": review, "created": None}
                self.finished[key] = kept
                while len(self.finished) > MAX_PENDING:
                    self.finished.popitem(last=False)
                return kept
            except ErmaError as exc:  # a record the coach cannot review: the asker hears why
                self.metrics["reviews_failed"] += 1
                log.warning("game %s seat %s cannot be reviewed: %s", record_id, seat, exc)
                raise
            except Exception:
                self.metrics["reviews_failed"] += 1
                log.exception("the review of game %s seat %s failed", record_id, seat)
                raise
            finally:
                self.pending.pop(key, None)
                self.asked_by.pop(key, None)

        task = asyncio.create_task(run())
        self.pending[key] = task
        self.asked_by[key] = account_id
        task.add_done_callback(_retrieved)  # (logged above; a 202's asker may never come back for it)
        return task


def _retrieved(task: asyncio.Task[Any]) -> None:
    if not task.cancelled():
        task.exception()


def _answer(record_id: int, seat: int, kept: dict[str, Any]) -> JSONResponse:
    return JSONResponse(
        {
            **kept["review"],
            "id": record_id,
            "review_seat": seat,
            "status": "done",
            "reviewed": kept["created"],
        }
    )


def review_routes(
    state: dict[str, Any],
    own_game_at_seat: Callable[[Request], Awaitable[tuple[Any, dict[str, Any], int] | Response]],
    reviewer: Reviewer,
    wait_s: float,
) -> list[Route]:
    """The routes; ``own_game_at_seat`` is the app's lookup of the caller's own stored game and the seat
    asked for (or the error answer)."""

    async def game_review(request: Request) -> Response:
        found = await own_game_at_seat(request)
        if isinstance(found, Response):
            return found
        account, stored, seat = found
        st = state["store"]
        kept = await st.get_review(stored["id"], seat)
        if kept is not None:
            return _answer(stored["id"], seat, kept)
        task = reviewer.job(st, stored["id"], seat, stored["record"], account.id)
        if task == "rate_limited":
            message = f"{PER_ACCOUNT} of your reviews are being computed; ask again when they are done"
            return _error(429, "rate_limited", message, **{"Retry-After": "2"})
        if isinstance(task, str):
            return _error(
                503, "busy", "too many reviews are being computed; ask again soon", **{"Retry-After": "2"}
            )
        done, _ = await asyncio.wait({task}, timeout=wait_s)
        if not done:
            return JSONResponse(
                {"id": stored["id"], "review_seat": seat, "status": "computing", "retry_after_s": 1},
                status_code=202,
                headers={"Retry-After": "1"},
            )
        try:
            kept = task.result()
        except ErmaError as exc:
            return _error(400, "bad_record", f"game {stored['id']} cannot be reviewed: {exc}")
        except Exception:  # (logged by the job)
            return _error(500, "review_failed", f"the review of game {stored['id']} failed; it was logged")
        return _answer(stored["id"], seat, kept)

    async def my_reviews(request: Request) -> Response:
        token = token_of(request)
        st = state["store"]
        account = await st.account_for_session(token) if token else None
        if account is None:
            return _error(401, "not_authenticated", "a session token is needed")
        raw = request.query_params.get("limit", "20")
        limit = decimal(raw, 1, 100)
        if limit is None:
            return _error(400, "invalid_input", f"limit {raw[:40]!r}: expected an int 1–100")
        rows = await st.recent_reviews(account.id, limit)
        return JSONResponse(
            {
                "reviews": [
                    {
                        **{k: r[k] for k in ("id", "created", "rules", "room", "seat")},
                        **{k: (r["summary"] or {}).get(k) for k in SUMMARY_KEYS},
                    }
                    for r in rows
                ]
            }
        )

    return [
        Route("/api/games/{id}/review", game_review),
        Route("/api/me/reviews", my_reviews),
    ]
