"""A table (牌桌): the one owner of a match, an actor that serialises its actions.

The engine decides legality; the table adds what only a server has: timers, auto-play (托管), bots thinking
off the event loop, per-seat message streams with versions, acknowledgements and idempotent retries,
reconnection, the uniform pause after a person's discard, settlement in the bean ledger and stored records.
Its seats and mailbox are in :mod:`erma.server.seats`, what it sends each seat (the streams, the pauses,
the view, snapshots) in :mod:`erma.server.streams`, a hand's settlement in :mod:`erma.server.settlement`,
a takeover's rebuild in :mod:`erma.server.restore`.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import secrets
import time
from typing import Any

from erma.bots import make_bot
from erma.errors import ErmaError, IllegalActionError
from erma.game import Phase, apply, legal_actions
from erma.game.actions import Action, Kind
from erma.game.legal import stand_in_actions
from erma.game.match import Match
from erma.game.result import EndReason
from erma.game.seatview import seat_view
from erma.game.state import GameState
from erma.server import outbound as O
from erma.server import protocol as P
from erma.server.backends import Fenced, match_log
from erma.server.commitment import bot_contribution, deal_digest
from erma.server.config import Room
from erma.server.current import action_refusal, next_refusal
from erma.server.dbretry import DatabaseAway, RetryingStore
from erma.server.friends import FRIEND_PREFIX, pair_allowance
from erma.server.match_summary import ratings, summarize
from erma.server.ports import TableHost
from erma.server.rated import block_of
from erma.server.seats import Disconnected, Inbox, Reconnected, SeatInfo, logged
from erma.server.settlement import HandAtEnd, settle
from erma.server.streams import HIDDEN_PHASES, SeatStreams
from erma.server.tutorial import fixed_secret, tutorial_of

log = logging.getLogger("erma.table")

CLOCK_HOLD_MAX_S = 30.0
"""The longest a decision's clock waits past its deadline for its view to go out (the backend sends it, or
gives up storing what comes before it, well within this)."""


class Table(SeatStreams):
    """One match between two seats, run by :meth:`run` as one asyncio task."""

    def __init__(
        self, host: TableHost, match_id: str, room: Room, seats: list[SeatInfo], secret: str | None = None
    ) -> None:
        self.host = host
        self.id = match_id
        self.room = room
        self.seats = seats
        self.match = Match(room.rules, secret or fixed_secret(room) or secrets.token_hex(16))
        # a tutorial (新手教程) plays its searched hand: no entropy in the seed, its bot seeded by the preset
        self.tutorial = tutorial_of(room)
        self.seed_base = f"tutorial:{self.tutorial}" if self.tutorial else match_id
        self.state: GameState | None = None
        self.inbox = Inbox()
        self.salt = ""
        self.digest = ""
        self.unit = ""
        self.deadline: float | None = None
        # RULES §5.3: auto-play takes every legal win (the plain greedy bot; "greedy" may wait for a 硬 win)
        self.autoplayer = make_bot("greedy-plain", f"autoplay:{match_id}")
        self.over = False
        self.kept_clock: tuple[tuple[int, int], float] | None = None
        """(decision, deadline) of the last person's clock: a seat back from a reload finds it running."""
        self.review_since: float | None = None
        """When a person began looking at a replay or review between hands (None: nobody is)."""
        self.review_held = 0.0
        """Seconds the clock to the next hand has stood still this break."""
        self.task: asyncio.Task[None] | None = None
        self.actions_applied = 0
        self.balances_before = [0, 0]
        self.balances_after: list[int] | None = None
        """The balances read after the last settlement (the entry check before the next hand uses them)."""
        self.held: dict[int, int] | None = None
        """What the ledger holds of each account for the current hand (the most it can lose)."""
        self.entries: list[dict[str, Any]] = []
        """The match's log: each hand's start, every action applied, each hand's settlement decision, the
        confirmations between hands, a leave. Replaying it rebuilds the table
        (:func:`erma.server.restore.restore_table`)."""
        self.epoch = 0
        """The fencing token of this process's ownership (distributed backends)."""
        self.fenced = False
        """A newer owner took the match: this table stops without settling anything."""
        self.dirty = False
        """Some of the log could not be stored (Redis away): the backend stores it all again."""
        self.handed_over = False
        """Stopped so that another process carries on (graceful shutdown)."""
        self.resume: str | None = None
        """After a restore: ``mid`` (a hand in play), ``settle`` (ended, not settled), ``between``."""
        self.pending_end: dict[str, Any] | None = None
        self.contributions: list[str] | None = None
        """The seats' shares of the current hand's seed."""
        self.timed_out: list[int] = []
        """The persons who did not confirm the next hand in time (the match ended between hands)."""
        self.db_since: float | None = None
        """When the store calls began failing (a database blip), None while they pass."""
        self.next_by: list[float | None] = [None, None]
        """Per seat: when its clock to send ``next`` runs out, counted from when its hand_end is let out to it
        (after the pause after its discard), not from the server's hand end."""
        self.next_out: dict[int, dict[str, Any]] = {}
        self.next_handed: set[int] = set()
        self.told_away: set[int] = set()
        """The seats whose opponent was told they are away (``away``), until told they are back."""
        self.ratings_before: list[float | None] | None = None
        """The persons' ratings as the first hand began (the match_end shows the change; None: not read)."""
        self.visible_at: float | None = None
        """When the last action the opponent could see was applied: a stand-in's (bot's, auto-play's) pace
        counts from it, so a hidden decision before its move (a claim it passed) costs no time."""

    @property
    def db(self) -> RetryingStore:
        """The store, each call retried through a database blip (:mod:`erma.server.dbretry`)."""
        return RetryingStore(self.host.store, self.host.settings.db_retry_window_s, self._db_wait)

    def _db_wait(self, waiting: bool) -> None:
        """The database went away (``waiting``) or came back: tell the persons (``db_wait``); the clock of
        the decision under way stands still meanwhile."""
        now = time.monotonic()
        if waiting:
            self.db_since = now
            self.host.metrics["db_waits"] += 1
        elif self.db_since is not None:
            gap, self.db_since = now - self.db_since, None
            if self.deadline is not None:
                self.deadline += gap
            if self.kept_clock is not None:
                self.kept_clock = (self.kept_clock[0], self.kept_clock[1] + gap)
        for s in self.seats:
            if not s.is_bot and s.conn is not None:
                self._send(s.conn, O.DbWait(self.id, waiting).to_dict())

    def meta(self) -> dict[str, Any]:
        """The match's essentials besides its log: enough, with the log, to rebuild the table anywhere."""
        return {
            "room": self.room.id,
            "secret": self.match.secret,
            "seats": [
                {
                    "account": s.account_id,
                    "name": s.name,
                    "bot": s.is_bot,
                    "level": s.bot.name if s.bot else None,
                }
                for s in self.seats
            ],
        }

    def _log(self, entry: dict[str, Any]) -> None:
        self.entries.append(entry)
        self.host.backend.log(self, entry)

    # ------------------------------------------------------------------------------- run

    async def run(self) -> None:
        """Play hands until the match ends."""
        try:
            resume, self.resume = self.resume, None
            if resume == "mid":
                await self._play_turns()
                await self._finish_hand()
            elif resume == "settle":
                assert self.pending_end is not None
                await self._settle(self.pending_end)
            if resume is not None and not self.over:
                await self._between_hands()
            elif resume is None and self.state is None:
                await self._await_first()
            while not self.over:
                await self._play_hand()
                if not self.over:
                    await self._between_hands()
        except asyncio.CancelledError:
            if not self.handed_over:
                self.fenced = True  # cancelled by the hub: the match is no longer ours to end
            raise
        except Fenced:
            self.fenced = True
            match_log("fenced", self.id, epoch=self.epoch)
        except DatabaseAway as exc:  # longer than the window: the match ends, its hold left to the sweeper
            log.error("match %s ends: %s; hand %r left to the sweeper", self.id, exc, self.unit or None)
            self.host.metrics["db_lost_matches"] += 1
        except Exception:  # a table must never take the server down; settle what can be settled
            log.exception("table %s failed", self.id)
            if self.unit:
                with contextlib.suppress(Exception):
                    await self.host.store.refund(self.unit)
        finally:
            if self.fenced or self.handed_over:
                self.host.table_lost(self)
            else:
                self.over = True
                try:
                    await self._close_rated()
                except Exception as exc:  # the store away: the block stays unrated, the table still ends
                    log.warning("match %s: its last rated match could not be closed: %r", self.id, exc)
                for seat in range(2):  # the table stops: nothing waits for a pause any more
                    self.release(seat, everything=True)
                await self._connections_since()
                end = (await self._match_end()).to_dict()
                kept: set[int] = set()
                with contextlib.suppress(Exception):  # (Redis away: the endings are not kept)
                    kept = await self._stash_missed(end)
                await self.host.table_done(self)
                await self._connections_since()  # (again: a hello may have come while the seats were freed)
                with contextlib.suppress(Exception):
                    await self._stash_missed(end, kept)
                for seat, s in enumerate(self.seats):
                    if not s.is_bot:
                        self.post(seat, end)
                match_log("match_end", self.id, scores=self.match.scores, hands=self.match.hand_no)
                await self.host.backend.close_match(self)

    async def _match_end(self) -> O.MatchEnd:
        """The match_end message (:mod:`erma.server.match_summary`); the plain scores if the store is away."""
        try:
            return await summarize(
                self.host.store,
                self.id,
                self.room,
                self.seats,
                self.match.scores,
                self.match.hand_no,
                self.match.records,
                self.entries,
                sorted({i for i, s in enumerate(self.seats) if s.left} | set(self.timed_out)),
                self.ratings_before,
            )
        except Exception as exc:
            log.warning("match %s: its summary could not be read: %r", self.id, exc)
            return O.MatchEnd(self.match.scores, self.match.hand_no, friend=self.id.startswith(FRIEND_PREFIX))

    async def _connections_since(self) -> None:
        """The sockets that went or came back while the match was ending (a ``leave`` and at once a closed
        socket; a reconnection): their seats are set as they are now, so the match_end reaches the new socket
        or is kept for the seat's next hello; other messages that came too late are dropped."""
        for seat, msg in self.inbox.take_all():
            if isinstance(msg, Disconnected | Reconnected):
                with contextlib.suppress(Exception):  # (the match ends whatever happens here)
                    await self._handle(seat, msg)

    async def _close_rated(self) -> None:
        """The match ends: its last rated match, if its block is not complete, is rated now — a seat that
        left between hands (or alone did not confirm the next hand) loses it, else the points of its hands
        decide (docs/ratings.md). A block its last hand ended is already rated (the store says so)."""
        if self.match.hand_no == 0 or not self.room.rated:
            return
        block, _ = block_of(self.id, self.match.hand_no, self.room.rated_hands)
        left = sorted({i for i, s in enumerate(self.seats) if s.left} | set(self.timed_out))
        leaver = self.seats[left[0]].account_id if len(left) == 1 else None
        store = self.host.store if self.db_since is not None else self.db  # (no second window)
        if await store.close_match(block, leaver):
            match_log("rated_match_closed", self.id, block=block, leaver=leaver)

    async def _stash_missed(self, end: dict[str, Any], kept: set[int] | None = None) -> set[int]:
        """A seat away when the match ends gets its missed endings (the hands' ends and this match_end) on
        its next hello, wherever it signs in; the seats whose endings are kept. ``kept``: a second look, after
        the seats were freed — a seat kept before that is back on a socket now gets the match_end there (its
        kept endings are dropped), one that went away since has its endings kept now."""
        out: set[int] = set()
        for seat, s in enumerate(self.seats):
            if s.is_bot:
                continue
            if kept is not None and seat in kept:
                if s.conn is not None:
                    await self.host.backend.take_missed(s.account_id)
                continue
            if s.conn is not None or s.away_v is None:
                continue
            missed = [logged(m) for m in s.log[s.away_v :]]
            missed = [m for m in missed if m["type"] == "hand_end"]
            missed.append({**end, "match": self.id, "v": len(s.log)})
            await self.host.backend.stash_missed(s.account_id, missed)
            out.add(seat)
        return out

    def _contributions(self) -> list[str]:
        """Each seat's share of the next hand's seed: a person's entropy (empty if none came), a bot's from
        its seed (the match id)."""
        n = self.match.hand_no + 1
        out = []
        for s in self.seats:
            if self.tutorial:
                out.append("")
            elif s.is_bot:
                out.append(bot_contribution(self.id, n))
            else:
                out.append(s.entropy or "")
            s.entropy = None
        return out

    async def _next_message(self, until: float) -> tuple[int, Any] | None:
        """The next message before ``until`` (None: none came), releasing what pauses hold meanwhile."""
        while True:
            now = time.monotonic()
            for seat in range(2):
                self.release(seat)
            if now >= until:
                return None
            holds = [s.hold_until for s in self.seats if s.held]
            got = await self.inbox.get(max(0.0, min([until, *holds]) - now))
            if got is not None:
                return got

    async def _start_grace(self) -> None:
        """Everyone is ready: the hand is dealt ``start_grace_s`` later, and a ``leave`` that comes meanwhile
        (sent, say, just after ``next``) ends the match between hands, without penalty."""
        until = time.monotonic() + self._scale(self.host.settings.start_grace_s)
        while not self.over:
            got = await self._next_message(until)
            if got is None:
                return
            await self._handle(*got)

    async def _await_first(self) -> None:
        """Before the first hand: wait (``ready_wait_s`` at most) for each person's ``next`` with its entropy,
        sent after the ``match`` message and its commitment."""
        until = time.monotonic() + self._scale(self.host.settings.ready_wait_s)
        while not all(s.confirmed or s.is_bot for s in self.seats) and not self.over:
            remaining = until - time.monotonic()
            if remaining <= 0:
                return
            got = await self._next_message(until)
            if got is not None:
                await self._handle(*got)
        await self._start_grace()

    async def _play_hand(self) -> None:
        rules = self.room.rules
        allowance = await pair_allowance(self.db, self.host.settings, self.id, self.room, self.seats)
        if allowance is not None and allowance <= 0:  # a friend pair's daily cap is used up: no more hands
            self.over = True
            return
        if self.ratings_before is None and self.match.hand_no == 0:
            self.ratings_before = await ratings(self.db, self.room, self.seats)
        contributions = self._contributions()
        state = self.match.next_hand(contributions)
        state.legal_memo = {}  # the table changes the state only through apply
        self.state = state
        self.contributions = contributions
        self.salt = secrets.token_hex(16)
        self.digest = deal_digest(self.salt, state.seed)
        self.unit = f"{self.id}:{self.match.hand_no}"
        # the most this hand can cost a seat, as the family says; the ledger holds at most the balance
        stake = state.family.max_loss(rules, streak=state.streak) * self.room.bean_rate
        if allowance is not None:
            stake = min(stake, allowance)  # no hand can move more than the pair has left today
        from erma.store.house import BOT_FLOAT

        if self.room.bean_rate:
            # one ledger transaction: the balances before, a bot's top-up if it is short, the hold
            # (idempotent: an owner taking over before the hand is logged deals it again, same holdings)
            self.held, self.balances_before = await self.db.hold_reading(
                self.unit,
                {s.account_id: stake for s in self.seats},
                {s.account_id: BOT_FLOAT for s in self.seats if s.is_bot},
            )
        else:  # points only: nothing is held, nothing moves
            self.balances_before = await self.db.balances([s.account_id for s in self.seats])
            self.held = {s.account_id: 0 for s in self.seats}
        self._log(
            {
                "t": "hand",
                "n": self.match.hand_no,
                "salt": self.salt,
                "bb": self.balances_before,
                "c": contributions,
            }
        )
        match_log("hand_start", self.id, hand_no=self.match.hand_no, unit=self.unit, epoch=self.epoch)
        for seat, s in enumerate(self.seats):
            s.sent_events = 0
            s.event_no = 0
            s.needs_view = False
            s.confirmed = False
            s.compact_log()
            if not s.is_bot:
                self.post(
                    seat,
                    O.HandStart(
                        self.match.hand_no,
                        seat,
                        self.digest,
                        rules.name,
                        self.room.id,
                        dealer=state.dealer,
                        scores=list(self.match.scores),
                        bean_rate=self.room.bean_rate,
                    ).to_dict(),
                )
        self.visible_at = None  # (a stand-in's first move of the hand waits its whole pause)
        await self._play_turns()
        await self._finish_hand()

    async def _play_turns(self) -> None:
        """Play the current hand until it ends."""
        rules = self.room.rules
        state = self.state
        assert state is not None
        while state.phase is not Phase.END:
            actor = state.actor
            s = self.seats[actor]
            human_turn = not (s.is_bot or s.autoplay)
            timeout = rules.claim_timeout_s
            if state.phase in (Phase.TURN, Phase.EXCHANGE, Phase.HAIDI):
                timeout = rules.turn_timeout_s
            self.deadline = None
            self.clock_view = None
            decision = (len(state.actions), actor)
            kept = self.kept_clock
            if human_turn and kept is not None and kept[0] == decision:
                # back within the grace (a page reload): the same decision, the same clock, shown again
                self.deadline = kept[1]
                s.needs_view = True
                self._flush()
            else:
                # the new events, then one view per seat (the actor's with its deadline: the clock starts
                # when the decision is shown, after the pauses before it)
                self._flush(self._scale(timeout) if human_turn and self.host.settings.timeouts else None)
                if self.deadline is not None:
                    self.kept_clock = (decision, self.deadline)
            if not human_turn:
                # think from halfway to the move, then wait for it: the move is applied at its time however
                # long the thinking took (within half the pause), a hidden decision before it or not
                think_from, until = self._stand_in_until(actor)
                await self._idle(think_from, back=actor)
                if _ended(state) or state.actor != actor or not (s.is_bot or s.autoplay):
                    continue
                mark = len(state.actions)
                action = await self._think(actor, legal_actions(state, actor))
                await self._idle(until, back=actor)
                if _ended(state) or len(state.actions) != mark or not (s.is_bot or s.autoplay):
                    continue
                self._apply(actor, action)
                continue
            acted = await self._idle(self.deadline, waiting_for=actor)
            held_until = time.monotonic() + CLOCK_HOLD_MAX_S
            while not acted and (self.clock_held() or self._deadline_moved()):
                # the view went out late, or has not yet (Redis paused): the clock starts when it does
                wait = self.deadline
                if self.clock_held():
                    if time.monotonic() >= held_until:
                        break
                    wait = min(time.monotonic() + 0.1, held_until)
                acted = await self._idle(wait, waiting_for=actor)
            if not acted and not _ended(state) and state.actor == actor:
                # the clock ran out: the auto-play choice, and after enough timeouts auto-play itself
                legal = legal_actions(state, actor)
                action = await self._think(actor, legal, autoplay=True)
                s.timeouts += 1
                if s.timeouts >= rules.autoplay_after_timeouts:
                    s.autoplay = True
                self._apply(actor, action)
        self.deadline = None
        self._flush()

    def _deadline_moved(self) -> bool:
        """Whether the decision's deadline lies ahead (moved on when its view went out late)."""
        return self.deadline is not None and self.deadline > time.monotonic()

    def _stand_in_until(self, seat: int) -> tuple[float, float]:
        """When a stand-in (a bot, or auto-play for a person) starts thinking and when it acts: a visible move
        ``bot_pause_s`` (auto-play 0.3 s) after the last visible action, a hidden decision (a claim of the
        opponent's discard, a rob, an offer) half as long after it; the thinking starts halfway there. So the
        opponent's stream shows the move at the same time whether or not a hidden decision came first (its
        thinking included), and nothing is computed for a hidden decision while the action before it is on
        its way out (docs/fairness.md, "Fairness and hidden information")."""
        assert self.state is not None
        s = self.seats[seat]
        now = time.monotonic()
        start = now if self.visible_at is None else min(now, self.visible_at)
        pause = self._scale(self.host.settings.bot_pause_s if s.is_bot else 0.3)
        until = start + (pause / 2 if self.state.phase in HIDDEN_PHASES else pause)
        think_from = start + (until - start) / 2
        if s.away_since is not None:  # just gone: a short grace, so a page refresh loses nothing
            until = max(until, s.away_since + self._scale(self.host.settings.reconnect_grace_s))
        return think_from, until

    async def _think(self, seat: int, legal: list[Action], autoplay: bool = False) -> Action:
        """The seat's bot (or auto-play) chooses, in the hub's thinker (off the event loop). A stand-in for a
        person (auto-play, a timeout) follows ``autoplay_policy`` and never takes a choice RULES §5.3 leaves
        to the person (报听, a triplet offer, 买底 / 顶底)."""
        assert self.state is not None
        s = self.seats[seat]
        if autoplay or s.bot is None:
            if self.room.rules.autoplay_policy == "tsumogiri":
                return Action(Kind.TIMEOUT)
            legal = stand_in_actions(legal)
        bot = self.autoplayer if autoplay or s.bot is None else s.bot
        view = seat_view(self.state, seat) if bot.uses_view else None
        seed = f"{self.seed_base}:{self.match.hand_no}:{seat}:{len(self.state.actions)}"
        return await self.host.thinker.choose(bot, seed, view, legal)

    def _flush_view(self, seat: int) -> None:
        if not self.seats[seat].is_bot:
            self.post(seat, O.View(self._view(seat)).to_dict())

    def _apply(self, seat: int, action: Action, seq: int | None = None) -> None:
        state = self.state
        assert state is not None
        s = self.seats[seat]
        if not (s.is_bot or s.autoplay) or state.phase not in HIDDEN_PHASES:
            self.visible_at = time.monotonic()  # (a stand-in's hidden decision leaves its pace alone)
        apply(state, seat, action)
        self._log({"t": "act", "s": seat, "a": str(action), "q": seq})
        self.actions_applied += 1
        self.host.metrics["actions"] += 1

    async def _idle(
        self, until: float | None, waiting_for: int | None = None, back: int | None = None
    ) -> bool:
        """Handle messages until ``until``; True as soon as ``waiting_for`` has acted (or gone to auto-play),
        or as soon as ``back`` has left auto-play."""
        while True:
            now = time.monotonic()
            for seat in range(2):
                self.release(seat)
            holds = [s.hold_until for s in self.seats if s.held]
            wake = min([t for t in [until, *holds] if t is not None], default=None)
            if until is not None and now >= until:
                return False
            got = await self.inbox.get(None if wake is None else max(0.0, wake - now))
            if got is None:
                continue
            seat, msg = got
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

    def _refusal(self, seat: int) -> tuple[str, str] | None:
        """Why a seat may not act now, judged on what it has been shown (the same answer whatever the
        opponent is deciding): None if it may."""
        state = self.state
        if not self.shown(seat, self.inbox.arrived):  # judged as the message arrived, however busy the table
            return "not_shown", "your next decision has not been shown to you yet (the pause after a discard)"
        if state is None or state.phase is Phase.END:
            return "illegal_action", "no hand is being played"
        if state.actor != seat:
            return "not_your_decision", "not your decision"
        return None

    async def _handle(self, seat: int, msg: Any) -> bool:
        """Handle one message from a seat; True if it applied an action."""
        s = self.seats[seat]
        conn = s.conn
        state = self.state
        if isinstance(msg, P.Act):
            if msg.seq <= s.last_seq:  # a retry: acknowledge again, apply nothing
                if conn is not None:
                    self._send(
                        conn,
                        s.acked.get(msg.seq, O.Ack(self.id, msg.seq, dup=True).to_dict()),
                    )
                return False
            refusal = action_refusal(msg, self.match.hand_no, state, seat) or self._refusal(seat)
            if refusal is not None:
                if conn is not None:
                    self._send(conn, O.Error(*refusal, msg.seq, self.id).to_dict())
                return False
            try:
                action = Action.parse(msg.action)
                if action.kind in (Kind.TIMEOUT, Kind.ESCAPE):
                    raise IllegalActionError(f"{action}: not an action a client may send (use 'leave')")
                self._apply(seat, action, msg.seq)
            except ErmaError as exc:
                if conn is not None:
                    self._send(conn, O.Error("illegal_action", str(exc), msg.seq, self.id).to_dict())
                return False
            s.autoplay = False
            s.timeouts = 0
            s.needs_view = True
            s.last_seq = msg.seq
            ack = O.Ack(self.id, msg.seq).to_dict()
            s.acked[msg.seq] = ack
            if len(s.acked) > 64:
                s.acked.pop(min(s.acked))
            if conn is not None:
                self._send(conn, ack)
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
                self._apply(seat, Action(Kind.ESCAPE))
                self._flush()
                return True
            # between hands (until the next hand is dealt, whatever next said): no escape
            self._log({"t": "leave", "s": seat})
            self.over = True
            return True
        if isinstance(msg, P.Next):
            shown = self.shown(seat, self.inbox.arrived)  # (its hand_end reached the seat)
            between = state is None or (_ended(state) and not self.unit and shown)
            refusal = next_refusal(msg, self.match.hand_no, between)
            if refusal is not None:  # (sent during a hand: it confirms nothing)
                if conn is not None:
                    self._send(conn, O.Error(*refusal, None, self.id).to_dict())
                return False
            if not s.confirmed:
                s.entropy = msg.entropy
                self._log({"t": "next", "s": seat, "e": msg.entropy})
            s.confirmed = True
            return True
        if isinstance(msg, P.Resync):
            self.snapshot(seat, msg.version)
            return False
        if isinstance(msg, P.Review):
            now = time.monotonic()
            if msg.on and self.review_since is None:
                self.review_since = now
            elif not msg.on and self.review_since is not None:
                self.review_held += now - self.review_since
                self.review_since = None
            return False
        if isinstance(msg, Disconnected):
            if msg.cid is not None and (s.conn is None or getattr(s.conn, "cid", None) != msg.cid):
                return False  # an older socket of this seat, already replaced
            s.conn = None
            s.moved = False  # a socket of its own that closed: away as usual
            s.away_v = len(s.log)
            s.autoplay = True  # a disconnect is not an escape: auto-play, after a short reconnect grace
            s.away_since = time.monotonic()
            self._tell_away(seat)
            return False
        if isinstance(msg, Reconnected):
            s.conn = msg.conn
            s.away_v = None
            s.moved = False
            if s.away_since is not None:  # back: the auto-play the disconnect started ends
                s.autoplay = False
                s.timeouts = 0
                s.away_since = None
            self.snapshot(seat, msg.since)
            self._tell_back(seat)
            return False
        return False

    def _tell_away(self, seat: int) -> None:
        """The opponent (a person) is told that ``seat`` is away and how long its reconnect grace lasts,
        counted from when the message is let out to it (the pause after its own discard may hold it)."""
        s, other = self.seats[seat], self.seats[1 - seat]
        if self.over or other.is_bot or s.away_since is None:
            return
        grace = self._scale(self.host.settings.reconnect_grace_s)
        left = s.away_since + grace - self.shown_at(1 - seat)
        self.told_away.add(seat)
        self.post(1 - seat, O.Away(seat, max(0, int(left * 1000)), grace).to_dict())

    def _tell_back(self, seat: int) -> None:
        """The opponent told that ``seat`` was away is told that it is back."""
        if seat in self.told_away:
            self.told_away.discard(seat)
            if not self.over and not self.seats[1 - seat].is_bot:
                self.post(1 - seat, O.Back(seat).to_dict())

    # ---------------------------------------------------------------------------- settle

    async def _finish_hand(self) -> None:
        state = self.state
        assert state is not None and state.result is not None
        result = state.result
        gone = [
            i
            for i, s in enumerate(self.seats)
            if not s.is_bot and s.conn is None and not s.moved and result.reason is not EndReason.ESCAPE
        ]
        # the decision goes into the log, stored, before any bean moves: an owner taking over from the log
        # makes the same ledger call (idempotent: the unit's one terminal transaction), never another one
        end = {"t": "end", "gone": gone}
        self._log(end)
        await self.host.backend.barrier(self)
        await self._settle(end)

    async def _settle(self, end: dict[str, Any]) -> None:
        """Settle the ended hand (:func:`erma.server.settlement.settle`) on the logged decision ``end``, then
        post its hand_end to each person."""
        state = self.state
        assert state is not None
        hand = HandAtEnd(
            match_id=self.id,
            room=self.room,
            match=self.match,
            state=state,
            players=[s.name for s in self.seats],
            accounts=[s.account_id for s in self.seats],
            unit=self.unit,
            held=self.held,
            balances_before=self.balances_before,
            digest=self.digest,
            salt=self.salt,
            contributions=self.contributions,
            over=self.over,
        )
        settled = await settle(self.db, self.host.metrics, hand, end["gone"])
        self.over = settled.over
        self.balances_after = settled.balances
        wait = self.next_wait = self._scale(self.room.rules.next_hand_timeout_s)
        for seat, s in enumerate(self.seats):
            if s.is_bot:
                continue
            s.needs_view = False
            # the clock starts as the hand_end goes out: after the pause under way, and (sent) once the
            # backend has actually sent it (not before what was logged before it is stored)
            self.next_by[seat] = self.shown_at(seat) + wait
            message = settled.hand_end.to_dict()
            if not settled.over:
                message["next_ms"] = int(wait * 1000)
            self.post(seat, message, next_clock=not settled.over)
        for seat in range(2):  # (the pause after one's last discard holds the hand_end too)
            self.release(seat)
        self.unit = ""

    async def _between_hands(self) -> None:
        """Both seats confirm the next hand (bots at once); a person who does not leaves without penalty."""
        rules = self.room.rules
        for s in self.seats:
            if s.is_bot:
                s.confirmed = True
        fallback = time.monotonic() + self._scale(rules.next_hand_timeout_s)  # (after a takeover)
        self.next_by = [fallback if t is None else t for t in self.next_by]
        try:
            await self._await_next()
        finally:
            self.next_by = [None, None]
            self.next_out.clear()
            self.next_handed.clear()
        if self.over:
            return
        await self._start_grace()
        if self.over:
            return
        balances = self.balances_after or await self.db.balances([s.account_id for s in self.seats])
        for s, balance in zip(self.seats, balances, strict=True):
            if not s.is_bot and balance < self.room.entry_min:
                self.over = True

    async def _await_next(self) -> None:
        """Wait for each person's ``next`` until its clock (``next_by``) runs out: the match then ends, and
        ``timed_out`` names who did not confirm. A seat's clock waits while its hand_end is held by the
        backend (not yet sent; at most ``CLOCK_HOLD_MAX_S``), and moves on when it goes out (:meth:`sent`)."""
        hold = self._scale(self.host.settings.review_hold_s)
        self.review_since, self.review_held = None, 0.0
        held_until = time.monotonic() + CLOCK_HOLD_MAX_S
        while not all(s.confirmed for s in self.seats):
            if any(s.left for s in self.seats):
                self.over = True
                return
            now = time.monotonic()
            held = self.review_held + (now - self.review_since if self.review_since is not None else 0.0)
            waiting = [i for i, s in enumerate(self.seats) if not s.confirmed]
            out = now < held_until
            by = [now + 0.1 if out and self.next_held(i) else self.next_by[i] or now for i in range(2)]
            # each person's clock from its own hand_end; it stands still while a person reviews
            deadline = min(by[i] for i in waiting) + min(held, hold)
            if deadline <= now:
                self.timed_out = [i for i in waiting if by[i] + min(held, hold) <= now]
                self.over = True
                return
            wake = deadline if self.review_since is None else min(deadline, now + 0.5)  # (to look again)
            got = await self._next_message(wake)
            if got is not None:
                await self._handle(*got)


def _ended(state: GameState) -> bool:
    """Whether the hand is over (a function, so type checkers do not narrow the phase across awaits)."""
    return state.phase is Phase.END
