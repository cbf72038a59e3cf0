"""A table's streams (消息流): what each seat is sent — versioned messages, the pauses that hold them, the
seat's view, snapshots for a seat that comes back.

The base of :class:`erma.server.table.Table`, apart so that one file holds how a seat's stream is made and
another how the match is played; it declares what it reads of the table.
"""

from __future__ import annotations

import asyncio
import contextlib
import time
from collections.abc import Mapping
from typing import Any, cast

from erma.game import Phase
from erma.game.hints import hints_for
from erma.game.match import Match
from erma.game.state import GameState
from erma.game.view import view_for
from erma.server import outbound as O
from erma.server.config import Room
from erma.server.current import decisions_made, open_offer
from erma.server.ports import OwnedTable, TableHost
from erma.server.seats import SeatConn, SeatInfo, logged

HIDDEN_PHASES = frozenset({Phase.CLAIM, Phase.ROB, Phase.CUO, Phase.TRIPLET})
"""Decisions a seat may have without the opponent knowing: a claim of the opponent's discard, a rob of its
added kong, a 搓牌 offer, a triplet offer."""


class SeatStreams:
    """Each seat's stream of one match: what is posted, held by a pause, let out, and shown again."""

    host: TableHost
    id: str
    room: Room
    seats: list[SeatInfo]
    match: Match
    state: GameState | None
    digest: str
    deadline: float | None
    kept_clock: tuple[tuple[int, int], float] | None

    @property
    def owned(self) -> OwnedTable:
        """This table as its backend knows it (:class:`~erma.server.table.Table` is one)."""
        return cast("OwnedTable", self)

    def _scale(self, seconds: float) -> float:
        return seconds * self.host.settings.time_scale

    clock_view: dict[str, Any] | None = None
    """The actor's view that starts its decision's clock, until the backend has sent it (None after)."""
    clock_s = 0.0
    """That clock's length: the deadline is at most this long after the view went out."""
    clock_handed = False
    """Whether that view was handed to the backend (a seat away is never sent it: its clock runs as set)."""
    next_by: list[float | None]
    """Per seat: when its clock to send ``next`` runs out (see :class:`erma.server.table.Table`)."""
    next_out: dict[int, dict[str, Any]]
    """Per seat: its hand_end that opens the clock to the next hand, until the backend has sent it."""
    next_handed: set[int]
    """The seats whose hand_end in ``next_out`` was handed to the backend (the clock waits for it to go
    out)."""
    next_wait = 0.0
    """The clock to the next hand (seconds): ``next_by`` is at least this long after the hand_end went out."""

    def post(
        self,
        seat: int,
        message: dict[str, Any],
        pause_after: float = 0.0,
        clock: float | None = None,
        next_clock: bool = False,
    ) -> None:
        """Append a message to a seat's stream (versioned) and send it once the pauses before it are over;
        ``pause_after``: nothing after it goes out to this seat until that many seconds after it did;
        ``clock``: the message is the view that starts the seat's decision clock of that many seconds;
        ``next_clock``: the message (a hand_end) starts the seat's clock to the next hand (``next_wait``)."""
        s = self.seats[seat]
        message = {**message, "match": self.id, "v": len(s.log)}
        if clock is not None:
            self.clock_view, self.clock_s, self.clock_handed = message, clock, False
        if next_clock:
            self.next_out[seat] = message
            self.next_handed.discard(seat)
        s.log.append(message)
        self.host.backend.log_seat(self.owned, seat, message)
        s.held.append(message)
        if pause_after > 0:
            s.held.append(pause_after)
        self.release(seat)

    def _send(self, conn: SeatConn, message: dict[str, Any]) -> None:
        """Send through the backend: with several processes nothing reaches a player before the log entries
        behind it are stored (a takeover never shows a player a past that did not happen)."""
        if message is self.clock_view:
            self.clock_handed = True
        for seat, m in self.next_out.items():
            if m is message:
                self.next_handed.add(seat)
        self.host.backend.deliver(self.owned, conn, message)

    def starts_clock(self, message: dict[str, Any]) -> bool:
        """Whether a message opens a clock of its seat (a decision's view, a hand_end): the backend calls
        :meth:`sent` once it has gone out."""
        return message is self.clock_view or any(m is message for m in self.next_out.values())

    def sent(self, message: dict[str, Any]) -> None:
        """The backend sent a message handed to it (at once, or once what was logged before it is stored): the
        clock of a decision starts when its view goes out, so a backend that holds it back (Redis paused) does
        not run the player's time out before the player is shown the decision. So does the clock to the next
        hand, when a seat's hand_end goes out."""
        for seat, m in list(self.next_out.items()):
            if m is message:
                del self.next_out[seat]
                self.next_handed.discard(seat)
                by = self.next_by[seat]
                self.next_by[seat] = max(by or 0.0, time.monotonic() + self.next_wait)
        if message is not self.clock_view:
            return
        self.clock_view = None
        if self.deadline is not None:
            self.deadline = max(self.deadline, time.monotonic() + self.clock_s)
            kept = self.kept_clock
            if kept is not None:
                self.kept_clock = (kept[0], max(kept[1], self.deadline))

    def next_held(self, seat: int) -> bool:
        """Whether a seat's hand_end was handed to the backend and is not out yet (its clock waits)."""
        return seat in self.next_handed

    def clock_held(self) -> bool:
        """Whether the decision's view was handed to the backend and is not out yet (its clock waits)."""
        return self.clock_view is not None and self.clock_handed

    def release(self, seat: int, everything: bool = False) -> None:
        """Send what a seat's pauses no longer hold (``everything``: all of it, pauses ended)."""
        s = self.seats[seat]
        now = time.monotonic()
        if everything:
            s.hold_until = 0.0
        while s.held and s.hold_until <= now:
            item = s.held.popleft()
            if isinstance(item, float):
                if not everything:
                    s.hold_until = now + item
                    self._release_at(seat, s.hold_until)
            else:
                s.sent_v = item["v"]
                if s.conn is not None:
                    self._send(s.conn, item)

    def _release_at(self, seat: int, when: float) -> None:
        """Let a seat's held messages out when its pause ends, from the event loop's timer whatever the table
        is doing then (waiting on a bot's thinking, the store): the moment the stream resumes after a
        discard is fixed by the discard, not by the opponent's hidden decision in between."""
        with contextlib.suppress(RuntimeError):  # (no loop: the table's own loop lets it out)
            asyncio.get_running_loop().call_later(max(0.0, when - time.monotonic()), self._pause_over, seat)

    def _pause_over(self, seat: int) -> None:
        if not getattr(self, "fenced", False) and not getattr(self, "handed_over", False):
            self.release(seat)

    def shown_at(self, seat: int) -> float:
        """When what is posted to a seat now will reach it (after the pauses under way and queued)."""
        s = self.seats[seat]
        t = max(time.monotonic(), s.hold_until)
        for item in s.held:
            if isinstance(item, float):
                t += item
        return t

    def shown(self, seat: int, at: float | None = None) -> bool:
        """Whether everything posted to a seat has gone out and no pause was under way at ``at`` (now)."""
        s = self.seats[seat]
        return not s.held and s.hold_until <= (time.monotonic() if at is None else at)

    def _flush(self, clock: float | None = None) -> None:
        """Send each seat the events it has not seen, each numbered in the seat's own order, then its view.

        A seat's view waits while the engine waits for a hidden decision of the opponent (a claim, a rob,
        a 搓牌 or triplet offer): the view then follows the opponent's next visible event, so the seat's
        stream is the same message for message whether or not the opponent had that decision. After a
        person's own discard (chosen, timed out or automatic) their stream pauses ``claim_window_s``.
        ``clock``: the actor's time for its decision, counted from when the view reaches it."""
        state = self.state
        assert state is not None
        window = self._scale(self.host.settings.claim_window_s)
        hidden_stop = state.phase in HIDDEN_PHASES
        for seat, s in enumerate(self.seats):
            if s.is_bot:
                continue
            fresh = False
            for i in range(s.sent_events, len(state.events)):
                seen = state.events[i].for_seat(seat)
                if seen is None:
                    continue
                seen["v"] = s.event_no
                s.event_no += 1
                fresh = True
                pause = window if seen["type"] == "discard" and seen.get("seat") == seat else 0.0
                self.post(seat, O.Event(seen).to_dict(), pause_after=pause)
            s.sent_events = len(state.events)
            if fresh:
                s.needs_view = True
        if clock is not None:
            self.deadline = self.shown_at(state.actor) + clock
        for seat, s in enumerate(self.seats):
            if s.is_bot:
                continue
            if s.needs_view and not (hidden_stop and state.actor != seat):
                s.needs_view = False
                starts = clock if clock is not None and seat == state.actor else None
                self.post(seat, O.View(self._view(seat)).to_dict(), clock=starts)
            elif s.needs_view:
                # the view waits for the opponent's hidden decision, but is built all the same: the work done
                # right after one's discard (which delays it on its way out) does not tell that decision
                O.View(self._view(seat)).to_dict()

    def _view(self, seat: int) -> dict[str, Any]:
        assert self.state is not None
        view = view_for(self.state, seat)
        s = self.seats[seat]
        view["autoplay"] = s.autoplay
        view["players"] = O.players(self.seats)
        view["room"] = self.room.id
        view["hand_no"] = self.match.hand_no
        view["digest"] = self.digest
        view["hints"] = hints_for(self.state, seat)
        view["version"] = s.event_no  # the seat's own event count (the opponent's hidden events not counted)
        # a client acts at most once per decision: the seat's own actions so far in this hand
        view["decision"] = sum(1 for who, _ in self.state.actions if who == seat)
        if self.deadline is not None and self.state.actor == seat and not s.autoplay:
            # the time left when the view reaches the seat (after the pause under way)
            view["deadline_ms"] = max(0, int((self.deadline - self.shown_at(seat)) * 1000))
        return view

    def snapshot(self, seat: int, since: int) -> None:
        """A reconnecting seat: the messages after ``since`` and a fresh view. During a pause (after one's
        discard) only what the pause let out so far, and the last view sent: the rest follows when the pause
        ends, so a reconnection or a resync shows no more than waiting would have."""
        s = self.seats[seat]
        if s.conn is None:
            return
        self.host.metrics["resyncs"] += 1
        if not self.shown(seat):
            upto = s.sent_v
            for m in s.log[since + 1 : upto + 1]:
                self._send(s.conn, logged(m))
            for m in map(logged, reversed(s.log[: upto + 1])):
                if m["type"] == "view":  # (offering nothing if its decision was taken meanwhile)
                    view = open_offer({**m["view"], "autoplay": s.autoplay}, decisions_made(self.state, seat))
                    view.pop("deadline_ms", None)
                    self._send(s.conn, O.Snapshot(self.id, upto, view).to_dict())
                    return
                if m["type"] == "hand_start":
                    return
            return
        for m in s.log[since + 1 :]:
            self._send(s.conn, logged(m))
        if self.state is not None:
            self._send(s.conn, O.Snapshot(self.id, len(s.log) - 1, self._view(seat)).to_dict())

    def resync_all(self, seen: Mapping[int, int] | None = None) -> None:
        """Send every connected seat a snapshot (after a takeover or a lost connection to Redis), preceded by
        the stream's messages after ``seen[seat]`` (the last version the seat's socket is known to have: a
        socket on this process after a takeover); a relay on another process fills its client's gap from the
        seat's stream itself."""
        seen = seen or {}
        for seat, s in enumerate(self.seats):
            if not s.is_bot and s.conn is not None:
                self.snapshot(seat, seen.get(seat, len(s.log) - 1))
