"""A table (牌桌): the one owner of a match, an actor that serialises its actions.

The engine decides legality; the table adds what only a server has: timers, auto-play (托管), bots thinking
off the event loop, per-seat message streams with versions, acknowledgements and idempotent retries,
reconnection, the uniform pause after a person's discard, settlement in the bean ledger and stored records.
"""

from __future__ import annotations

import asyncio
import contextlib
import hashlib
import logging
import secrets
import time
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from erma.bots import make_bot, view_of
from erma.bots.base import Bot
from erma.errors import ErmaError, IllegalActionError
from erma.game import Phase, apply, legal_actions
from erma.game.actions import Action, Kind
from erma.game.engine import events_for
from erma.game.hints import hints_for
from erma.game.match import Match
from erma.game.record import to_record
from erma.game.state import GameState
from erma.game.view import view_for
from erma.server import protocol as P
from erma.server.config import Room

if TYPE_CHECKING:
    from erma.server.hub import Connection, Hub

log = logging.getLogger("erma.table")


def deal_digest(salt: str, seed: str) -> str:
    """The commitment to a hand's seed sent with the deal: sha256 of ``salt:seed``."""
    return hashlib.sha256(f"{salt}:{seed}".encode()).hexdigest()


@dataclass
class SeatInfo:
    """A seat at a table: a person (with a connection, maybe away) or a bot."""

    account_id: int
    name: str
    bot: Bot | None = None
    conn: Connection | None = None
    autoplay: bool = False
    timeouts: int = 0
    last_seq: int = -1
    acked: dict[int, dict[str, Any]] = field(default_factory=dict)
    log: list[dict[str, Any]] = field(default_factory=list)
    held: list[dict[str, Any]] = field(default_factory=list)
    hold_until: float = 0.0
    hold_from: int = 0
    """Events from this index on wait for ``hold_until`` (the pause after one's own discard)."""
    sent_events: int = 0
    confirmed: bool = False
    away_since: float | None = None
    """When the seat's socket closed (None while connected or after it came back)."""
    left: bool = False

    @property
    def is_bot(self) -> bool:
        return self.bot is not None


class Table:
    """One match between two seats, run by :meth:`run` as one asyncio task."""

    def __init__(self, hub: Hub, match_id: str, room: Room, seats: list[SeatInfo]) -> None:
        self.hub = hub
        self.id = match_id
        self.room = room
        self.seats = seats
        self.match = Match(room.rules, secrets.token_hex(16))
        self.state: GameState | None = None
        self.inbox: asyncio.Queue[tuple[int, Any]] = asyncio.Queue()
        self.salt = ""
        self.digest = ""
        self.unit = ""
        self.deadline: float | None = None
        self.autoplayer = make_bot("greedy", f"autoplay:{match_id}")
        self.over = False
        self.task: asyncio.Task[None] | None = None
        self.actions_applied = 0
        self.balances_before = [0, 0]

    # ---------------------------------------------------------------------------- streams

    def _scale(self, seconds: float) -> float:
        return seconds * self.hub.settings.time_scale

    def post(self, seat: int, message: dict[str, Any], hold: bool = True) -> None:
        """Append a message to a seat's stream (versioned) and send it, unless the seat's stream is held."""
        s = self.seats[seat]
        message = {**message, "match": self.id, "v": len(s.log)}
        s.log.append(message)
        if (hold and s.hold_until > time.monotonic()) or s.held:
            s.held.append(message)
        elif s.conn is not None:
            s.conn.send(message)

    def _release(self, seat: int) -> None:
        s = self.seats[seat]
        if s.held and s.hold_until <= time.monotonic():
            held, s.held = s.held, []
            if s.conn is not None:
                for m in held:
                    s.conn.send(m)

    def _flush(self) -> None:
        """Send each seat the events it has not seen, then its view."""
        state = self.state
        assert state is not None
        for seat, s in enumerate(self.seats):
            if s.is_bot:
                continue
            fresh = events_for(state, seat, s.sent_events)
            s.sent_events = len(state.events)
            for e in fresh:
                self.post(seat, {"type": "event", "event": e}, hold=e["v"] >= s.hold_from)
            if fresh:
                self.post(seat, {"type": "view", "view": self._view(seat)})

    def _view(self, seat: int) -> dict[str, Any]:
        assert self.state is not None
        view = view_for(self.state, seat)
        s = self.seats[seat]
        view["autoplay"] = s.autoplay
        view["players"] = [{"name": x.name, "bot": x.is_bot} for x in self.seats]
        view["room"] = self.room.id
        view["hand_no"] = self.match.hand_no
        view["digest"] = self.digest
        view["hints"] = hints_for(self.state, seat)
        view["decision"] = len(self.state.actions)  # a client acts at most once per decision
        if self.deadline is not None and self.state.actor == seat and not s.autoplay:
            view["deadline_ms"] = max(0, int((self.deadline - time.monotonic()) * 1000))
        return view

    def snapshot(self, seat: int, since: int) -> None:
        """A reconnecting seat: the messages after ``since`` and a fresh view (sent now, not held)."""
        s = self.seats[seat]
        if s.conn is None:
            return
        s.hold_until = 0.0
        s.held = []
        for m in s.log[since + 1 :]:
            s.conn.send(m)
        if self.state is not None:
            s.conn.send({"type": "snapshot", "match": self.id, "v": len(s.log) - 1, "view": self._view(seat)})

    # ------------------------------------------------------------------------------- run

    async def run(self) -> None:
        """Play hands until the match ends."""
        try:
            while not self.over:
                await self._play_hand()
                if not self.over:
                    await self._between_hands()
        except asyncio.CancelledError:
            raise
        except Exception:  # a table must never take the server down; settle what can be settled
            log.exception("table %s failed", self.id)
            if self.unit:
                with contextlib.suppress(Exception):
                    await self.hub.store.refund(self.unit)
        finally:
            self.over = True
            for seat, s in enumerate(self.seats):
                if not s.is_bot:
                    self.post(seat, {"type": "match_end", "scores": self.match.scores})
            self.hub.table_done(self)

    async def _play_hand(self) -> None:
        rules = self.room.rules
        state = self.match.next_hand()
        self.state = state
        self.salt = secrets.token_hex(16)
        self.digest = deal_digest(self.salt, state.seed)
        self.unit = f"{self.id}:{self.match.hand_no}"
        stake_points = rules.fan_cap if rules.fan_cap is not None else max(rules.escape_points, 88)
        stake = max(stake_points, rules.escape_points) * self.room.bean_rate
        self.balances_before = [await self.hub.store.balance(s.account_id) for s in self.seats]
        from erma.store.house import top_up

        for s in self.seats:
            if s.is_bot:
                await top_up(self.hub.store, s.account_id, stake)
        await self.hub.store.hold(self.unit, {s.account_id: stake for s in self.seats})
        for seat, s in enumerate(self.seats):
            s.sent_events = 0
            s.confirmed = False
            if not s.is_bot:
                self.post(
                    seat,
                    {
                        "type": "hand_start",
                        "hand_no": self.match.hand_no,
                        "seat": seat,
                        "digest": self.digest,
                        "rules": rules.name,
                        "room": self.room.id,
                    },
                )
        while state.phase is not Phase.END:
            actor = state.actor
            s = self.seats[actor]
            human_turn = not (s.is_bot or s.autoplay)
            timeout = rules.claim_timeout_s
            if state.phase in (Phase.TURN, Phase.EXCHANGE, Phase.HAIDI):
                timeout = rules.turn_timeout_s
            self.deadline = None
            if human_turn and self.hub.settings.timeouts:
                self.deadline = time.monotonic() + self._scale(timeout)
            self._flush()  # the new events, then one view per seat (the actor's with its deadline)
            if not human_turn:
                pause = self._scale(self.hub.settings.bot_pause_s if s.is_bot else 0.3)
                if s.away_since is not None:  # just gone: a short grace, so a page refresh loses nothing
                    grace = self._scale(self.hub.settings.reconnect_grace_s)
                    pause = max(pause, grace - (time.monotonic() - s.away_since))
                await self._idle(time.monotonic() + pause, back=actor)
                if _ended(state) or state.actor != actor or not (s.is_bot or s.autoplay):
                    continue
                bot = s.bot or self.autoplayer
                legal = legal_actions(state, actor)
                action = await asyncio.to_thread(bot.choose, view_of(state, actor), legal)
                self._apply(actor, action)
                continue
            acted = await self._idle(self.deadline, waiting_for=actor)
            if not acted and not _ended(state) and state.actor == actor:
                # the clock ran out: the auto-play choice, and after enough timeouts auto-play itself
                legal = legal_actions(state, actor)
                action = await asyncio.to_thread(self.autoplayer.choose, view_of(state, actor), legal)
                s.timeouts += 1
                if s.timeouts >= rules.autoplay_after_timeouts:
                    s.autoplay = True
                self._apply(actor, action)
        self.deadline = None
        self._flush()
        await self._finish_hand()

    def _flush_view(self, seat: int) -> None:
        if not self.seats[seat].is_bot:
            self.post(seat, {"type": "view", "view": self._view(seat)})

    def _apply(self, seat: int, action: Action) -> None:
        state = self.state
        assert state is not None
        apply(state, seat, action)
        self.actions_applied += 1
        self.hub.metrics["actions"] += 1
        s = self.seats[seat]
        if action.kind is Kind.DISCARD and not s.is_bot:
            # what follows the discard reaches the discarder after the same pause, whatever the opponent
            # could do with the tile (the discard itself goes out at once)
            s.hold_until = time.monotonic() + self._scale(self.hub.settings.claim_window_s)
            s.hold_from = len(state.events) - 1
            while s.hold_from > 0 and state.events[s.hold_from].type != "discard":
                s.hold_from -= 1
            s.hold_from += 1

    async def _idle(
        self, until: float | None, waiting_for: int | None = None, back: int | None = None
    ) -> bool:
        """Handle messages until ``until``; True as soon as ``waiting_for`` has acted (or gone to auto-play),
        or as soon as ``back`` has left auto-play."""
        while True:
            now = time.monotonic()
            for seat in range(2):
                self._release(seat)
            holds = [s.hold_until for s in self.seats if s.held]
            wake = min([t for t in [until, *holds] if t is not None], default=None)
            if until is not None and now >= until:
                return False
            try:
                timeout = None if wake is None else max(0.0, wake - now)
                seat, msg = await asyncio.wait_for(self.inbox.get(), timeout)
            except TimeoutError:
                continue
            acted = await self._handle(seat, msg)
            if acted and seat == waiting_for:
                return True
            if back is not None and not self.seats[back].autoplay:
                return True
            if waiting_for is not None and self.seats[waiting_for].autoplay:
                return True  # the seat went to auto-play (a disconnect, or its choice): the loop plays it
            if self.state is not None and self.state.phase is Phase.END:
                return True

    # --------------------------------------------------------------------------- messages

    async def _handle(self, seat: int, msg: Any) -> bool:
        """Handle one message from a seat; True if it applied an action."""
        s = self.seats[seat]
        conn = s.conn
        state = self.state
        if isinstance(msg, P.Act):
            if msg.seq <= s.last_seq:  # a retry: acknowledge again, apply nothing
                if conn is not None:
                    conn.send(
                        s.acked.get(msg.seq, {"type": "ack", "match": self.id, "seq": msg.seq, "dup": True})
                    )
                return False
            try:
                action = Action.parse(msg.action)
                if state is None or state.phase is Phase.END:
                    raise IllegalActionError(f"{action}: no hand is being played")
                if action.kind in (Kind.TIMEOUT, Kind.ESCAPE):
                    raise IllegalActionError(f"{action}: not an action a client may send (use 'leave')")
                s.autoplay = False
                s.timeouts = 0
                self._apply(seat, action)
            except ErmaError as exc:
                if conn is not None:
                    conn.send(P.error("illegal_action", str(exc), msg.seq, self.id))
                return False
            s.last_seq = msg.seq
            ack = {"type": "ack", "match": self.id, "seq": msg.seq}
            s.acked[msg.seq] = ack
            if len(s.acked) > 64:
                s.acked.pop(min(s.acked))
            if conn is not None:
                conn.send(ack)
            return True
        if isinstance(msg, P.Autoplay):
            s.autoplay = msg.on
            s.timeouts = 0
            if state is not None and state.phase is not Phase.END:
                self._flush_view(seat)
            return False
        if isinstance(msg, P.Leave):
            s.left = True
            if state is not None and state.phase is not Phase.END:
                apply(state, seat, Action(Kind.ESCAPE))
                self._flush()
                return True
            self.over = True
            return True
        if isinstance(msg, P.Next):
            s.confirmed = True
            return True
        if isinstance(msg, P.Resync):
            self.snapshot(seat, msg.version)
            return False
        if isinstance(msg, _Disconnected):
            s.conn = None
            s.autoplay = True  # a disconnect is not an escape: auto-play, after a short reconnect grace
            s.away_since = time.monotonic()
            return False
        if isinstance(msg, _Reconnected):
            s.conn = msg.conn
            if s.away_since is not None:  # back: the auto-play the disconnect started ends
                s.autoplay = False
                s.timeouts = 0
                s.away_since = None
            self.snapshot(seat, msg.since)
            return False
        return False

    # ---------------------------------------------------------------------------- settle

    async def _finish_hand(self) -> None:
        state = self.state
        assert state is not None and state.result is not None
        result = state.result
        rate = self.room.bean_rate
        ids = [s.account_id for s in self.seats]
        gone = [
            i
            for i, s in enumerate(self.seats)
            if not s.is_bot and s.conn is None and result["reason"] != "escape"
        ]
        store = self.hub.store
        if result["reason"] == "escape" or gone:
            escaper = result["escaper"] if result["reason"] == "escape" else gone[0]
            penalty = (result["points"] if result["reason"] == "escape" else self._escape_points()) * rate
            await store.forfeit(self.unit, ids[escaper], penalty)
            self.over = True
        elif result["reason"] == "win":
            await store.settle(self.unit, {ids[i]: result["deltas"][i] * rate for i in (0, 1)})
        else:
            await store.refund(self.unit)
        self.hub.metrics["ledger_transactions"] += 1
        balances = [await store.balance(a) for a in ids]
        record = to_record(state, hand_no=self.match.hand_no)
        record.update(
            {
                "match": self.id,
                "room": self.room.id,
                "players": [s.name for s in self.seats],
                "digest": self.digest,
                "salt": self.salt,
                "bean_rate": rate,
            }
        )
        summary = {
            "room": self.room.id,
            "rules": self.room.rules.name,
            "players": [s.name for s in self.seats],
            "reason": "forfeit" if gone else result["reason"],
            "forfeited_by": self.seats[gone[0]].name if gone else None,
            "winner": result.get("winner"),
            "points": result.get("points", 0),
        }
        record_id = await store.save_record(self.unit, ids, record, summary)
        self.match.finish_hand()
        if gone:
            self.match.over = True
        self.over = self.over or self.match.over
        for seat, s in enumerate(self.seats):
            if s.is_bot:
                continue
            self.post(
                seat,
                {
                    "type": "hand_end",
                    "result": result,
                    "seed": state.seed,
                    "salt": self.salt,
                    "digest": self.digest,
                    "record_id": record_id,
                    "balances": balances,
                    "beans": [
                        after - before for after, before in zip(balances, self.balances_before, strict=True)
                    ],
                    "bean_rate": rate,
                    "scores": self.match.scores,
                },
            )
        for seat in range(2):
            self.seats[seat].hold_until = 0.0
            self._release(seat)
        self.unit = ""

    def _escape_points(self) -> int:
        rules = self.room.rules
        return rules.escape_points if rules.fan_cap is None else min(rules.escape_points, rules.fan_cap)

    async def _between_hands(self) -> None:
        """Both seats confirm the next hand (bots at once); a person who does not leaves without penalty."""
        rules = self.room.rules
        for s in self.seats:
            if s.is_bot:
                s.confirmed = True
        until = time.monotonic() + self._scale(rules.next_hand_timeout_s)
        while not all(s.confirmed for s in self.seats):
            if any(s.left for s in self.seats):
                self.over = True
                return
            remaining = until - time.monotonic()
            if remaining <= 0:
                self.over = True
                return
            try:
                seat, msg = await asyncio.wait_for(self.inbox.get(), remaining)
            except TimeoutError:
                continue
            await self._handle(seat, msg)
        for s in self.seats:
            if not s.is_bot and await self.hub.store.balance(s.account_id) < self.room.entry_min:
                self.over = True


def _ended(state: GameState) -> bool:
    """Whether the hand is over (a function, so type checkers do not narrow the phase across awaits)."""
    return state.phase is Phase.END


@dataclass(frozen=True)
class _Disconnected:
    """Internal message: a seat's socket closed."""


@dataclass(frozen=True)
class _Reconnected:
    """Internal message: a seat is back on a new socket and has seen up to ``since``."""

    conn: Connection
    since: int


def disconnected() -> _Disconnected:
    """The message a table receives when a seat's socket closes."""
    return _Disconnected()


def reconnected(conn: Connection, since: int) -> _Reconnected:
    """The message a table receives when a seat comes back."""
    return _Reconnected(conn, since)
