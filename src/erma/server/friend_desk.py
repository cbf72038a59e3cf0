"""The friend-table desk (好友房前台): the socket messages ``friend_create``, ``friend_join``,
``friend_cancel``, ``rematch`` and ``chat``, and the lookups of ``GET /api/friend…``, over the book of
:mod:`erma.server.friends`. A friend table's match is opened by the hub like a matched one (its seats, the
relay to a socket on another process, its ledger), as soon as both seats are taken: no Ready button."""

from __future__ import annotations

import asyncio
import logging
import re
import secrets
import time
from typing import Any

from erma.errors import RuleSetError
from erma.rules import find_ruleset
from erma.server import outbound as O
from erma.server import protocol as P
from erma.server.auth_limits import Limit, Limiter, Refused
from erma.server.friends import (
    CODE_PATTERN,
    FRIEND_PREFIX,
    NUMBER_PATTERN,
    FriendState,
    FriendTable,
    Lookup,
    Stakes,
    bean_rooms,
    new_code,
    new_number,
    pair_left,
)

log = logging.getLogger("erma.friends")


class Refusal(Exception):
    """A friend message refused: the error's code and message (nothing changed)."""

    def __init__(self, code: str, message: str) -> None:
        super().__init__(message)
        self.code = code


class FriendDesk:
    """The hub's friend tables and quick chat."""

    def __init__(self, hub: Any) -> None:
        self.hub = hub
        self.book = hub.backend.friend_book()
        s = hub.settings
        self.limiter = Limiter()
        self.lookups = Limit(
            "friend_lookups_per_address",
            s.friend_lookups_per_address,
            s.auth_window_s,
            "friend table lookups from this address",
        )
        self._chat_at: dict[int, float] = {}

    # ------------------------------------------------------------------------------ socket

    async def handle(self, conn: Any, msg: Any) -> None:
        """One friend or chat message from a signed-in socket; a refusal is answered with an ``error``."""
        try:
            if isinstance(msg, P.FriendCreate):
                await self.create(conn, msg)
            elif isinstance(msg, P.FriendJoin):
                await self.join(conn, msg)
            elif isinstance(msg, P.FriendCancel):
                await self.cancel(conn.account_id)
            elif isinstance(msg, P.Rematch):
                await self.rematch(conn.account_id)
            elif isinstance(msg, P.Chat):
                await self.chat(conn, msg)
        except Refusal as exc:
            conn.send(O.Error(exc.code, str(exc)).to_dict())

    def _check_rate(self, address: str) -> None:
        try:
            self.limiter.check((self.lookups, address))
        except Refused as exc:
            self.hub.metrics["friend_rate_limited"] += 1
            raise Refusal("friend_rate", str(exc)) from None

    async def _not_playing(self, account_id: int) -> None:
        playing = await self.hub.backend.seat_of(account_id)
        if playing is not None:
            raise Refusal("already_playing", f"you are playing match {playing[0]!r}")

    async def create(self, conn: Any, msg: P.FriendCreate) -> None:
        """Open a table, seat its creator (seat 0) and send the invite (``friend``)."""
        aid = conn.account_id
        await self._not_playing(aid)
        try:
            find_ruleset(msg.rules)
        except RuleSetError as exc:
            raise Refusal("no_such_rules", str(exc)) from None
        room_id: str | None = None
        rate = 0
        if msg.stakes == Stakes.BEANS.value:
            rooms = bean_rooms(self.hub.rooms, msg.rules)
            if msg.room is not None:
                rooms = [r for r in rooms if r.id == msg.room]
            if not rooms:
                raise Refusal("no_such_room", f"no bean room {msg.room or ''!r} of the rules {msg.rules!r}")
            room = rooms[0]
            balance = await self.hub.store.balance(aid)
            if balance < room.entry_min:
                raise Refusal(
                    "not_enough_beans", f"room {room.id} needs {room.entry_min} beans; you have {balance}"
                )
            room_id, rate = room.id, room.bean_rate
        await self.leave(aid)  # (a table one made before, not yet played: closed)
        await self.hub.backend.unqueue(aid)
        ttl = self.hub.settings.friend_ttl_s
        table = FriendTable(
            code=new_code(),
            number=new_number(),
            rules=msg.rules,
            hands=msg.hands,
            stakes=Stakes(msg.stakes),
            room=room_id,
            bean_rate=rate,
            accounts=[aid, None],
            names=[conn.name, None],
            expires_at=time.time() + ttl,
        )
        table = await self.book.add(table)
        await self.book.bind(aid, table.code)
        self.hub.metrics["friend_tables"] += 1
        conn.send(self.invite(table, 0))
        self.hub.spawn(self._expire_later(table.code, ttl, None))

    def invite(self, t: FriendTable, seat: int) -> dict[str, Any]:
        """The ``friend`` message for ``seat``."""
        players = [
            None if a is None else {"name": t.names[i], "bot": False} for i, a in enumerate(t.accounts)
        ]
        waiting = t.state is FriendState.OPEN
        return O.Friend(
            t.code,
            t.number,
            t.rules,
            t.hands,
            t.stakes.value,
            t.room,
            t.bean_rate,
            t.expires_at if waiting else None,
            seat,
            players,
        ).to_dict()

    async def find(self, code: str | None, number: str | None) -> FriendTable | None:
        """The table of a code or a number."""
        if number is not None:
            code = await self.book.code_of_number(number)
        return None if code is None else await self.book.get(code)

    async def join(self, conn: Any, msg: P.FriendJoin) -> None:
        """Take the free seat (seat 1) of an open table: its match starts at once."""
        aid = conn.account_id
        self._check_rate(getattr(conn, "address", ""))
        found = await self.find(msg.code, msg.number)
        if found is None:
            raise Refusal("friend_not_found", "no friend table has that code or number")
        seat = found.seat_of(aid)
        if seat is not None:  # (back after a reload: the table as it is)
            conn.send(self.invite(found, seat))
            return
        await self._not_playing(aid)
        self._joinable(found, time.time())
        host = found.accounts[0]
        assert host is not None
        if await self.hub.backend.seat_of(host) is not None:
            raise Refusal("friend_full", "the host is playing another match")
        if found.stakes is Stakes.BEANS:
            await self._bean_checks(found, [host, aid])
        match_id = FRIEND_PREFIX + secrets.token_hex(8)
        await self.leave(aid)  # (a table of one's own, waiting or ended, is closed)

        def sit(t: FriendTable) -> None:
            self._joinable(t, time.time())
            t.accounts[1], t.names[1] = aid, conn.name
            t.state, t.match, t.want = FriendState.PLAYING, match_id, [False, False]
            t.matches += 1

        done = await self.book.update(found.code, sit)
        if done is None:
            raise Refusal("friend_not_found", "no friend table has that code or number")
        table = done[0]
        await self.hub.backend.unqueue(aid)
        await self.book.bind(aid, table.code)
        self.hub.metrics["friend_joins"] += 1
        for s, a in enumerate(table.accounts):
            if a is not None:
                await self.hub.backend.tell(a, self.invite(table, s))
        await self._start(table)

    @staticmethod
    def _joinable(t: FriendTable, now: float) -> None:
        state = t.live_state(now)
        if state in (FriendState.EXPIRED, FriendState.CLOSED):
            raise Refusal("friend_expired", "that friend table has expired or was closed")
        if state is not FriendState.OPEN or t.accounts[1] is not None:
            raise Refusal("friend_full", "that friend table is full")

    async def _bean_checks(self, t: FriendTable, accounts: list[int]) -> None:
        """A bean table's match may start: both can sit down in its room, and the pair's daily cap has
        beans left."""
        room = self.hub.rooms.get(t.room or "")
        if room is None:
            raise Refusal("no_such_room", f"the room {t.room!r} is gone")
        for a, balance in zip(accounts, await self.hub.store.balances(accounts), strict=True):
            if balance < room.entry_min:
                who = "you have" if a == accounts[-1] else "a player has"
                raise Refusal(
                    "not_enough_beans", f"room {room.id} needs {room.entry_min} beans; {who} {balance}"
                )
        left = await pair_left(self.hub.store, self.hub.settings.friend_pair_cap, accounts[0], accounts[1])
        if left is not None and left <= 0:
            cap = self.hub.settings.friend_pair_cap
            raise Refusal(
                "pair_cap", f"these two accounts moved their {cap} beans for today at friend tables"
            )

    async def _start(self, t: FriendTable) -> None:
        """Open the table's match (same settings, the host at seat 0)."""
        room = self.hub.room_of(t.room_id())
        accounts = [a for a in t.accounts if a is not None]
        assert room is not None and len(accounts) == 2 and t.match is not None
        await self.hub._open_table(room, accounts, with_bot=False, match_id=t.match)

    async def cancel(self, account_id: int) -> None:
        """Close one's table (not while its match is played); both seats are told (``friend_closed``)."""
        code = await self.book.code_of(account_id)
        t = None if code is None else await self.book.get(code)
        if t is None or t.seat_of(account_id) is None:
            raise Refusal("not_friend_table", "you are at no friend table")
        if t.state is FriendState.PLAYING:
            raise Refusal("already_playing", "the match is being played: leave it to stand up")
        await self.leave(account_id)

    async def leave(self, account_id: int) -> None:
        """Close the table the account sits at, unless its match is being played (``cancelled`` to both)."""
        code = await self.book.code_of(account_id)
        if code is None:
            return

        def close(t: FriendTable) -> bool:
            if t.state in (FriendState.OPEN, FriendState.ENDED) and account_id in t.accounts:
                t.state = FriendState.CLOSED
                return True
            return False

        done = await self.book.update(code, close)
        if done is None or not done[1]:
            await self.book.unbind(account_id, code)
            return
        for a in done[0].accounts:
            if a is not None:
                await self.book.unbind(a, code)
                await self.hub.backend.tell(a, O.FriendClosed("cancelled").to_dict())

    async def _expire_later(self, code: str, delay: float, match: str | None) -> None:
        """After ``delay``: a table still waiting (or, after ``match``, still not rematched) expires and its
        seats are told (``friend_closed`` ``expired``)."""
        await asyncio.sleep(delay + 0.01)

        def expire(t: FriendTable) -> bool:
            waiting = t.state is FriendState.OPEN or (t.state is FriendState.ENDED and t.match == match)
            if waiting and time.time() >= t.expires_at:
                t.state = FriendState.EXPIRED
                return True
            return False

        try:
            done = await self.book.update(code, expire)
        except Exception as exc:  # (Redis away: a lookup still finds it expired by its time)
            log.warning("friend table %s: could not expire: %r", code[:4], exc)
            return
        if done is not None and done[1]:
            for a in done[0].accounts:
                if a is not None:
                    await self.book.unbind(a, code)
                    await self.hub.backend.tell(a, O.FriendClosed("expired").to_dict())

    async def match_over(self, match_id: str, accounts: list[int]) -> None:
        """A friend table's match ended: the table waits for a rematch (``friend_ttl_s`` at most)."""
        code = await self.book.code_of(accounts[0])
        if code is None:
            return
        ttl = self.hub.settings.friend_ttl_s

        def ended(t: FriendTable) -> bool:
            if t.match == match_id and t.state is FriendState.PLAYING:
                t.state, t.want, t.expires_at = FriendState.ENDED, [False, False], time.time() + ttl
                return True
            return False

        done = await self.book.update(code, ended)
        if done is not None and done[1]:
            self.hub.spawn(self._expire_later(code, ttl, match_id))

    async def rematch(self, account_id: int) -> None:
        """再来一局: count this seat's wish; when both wished, a new match at the same table."""
        code = await self.book.code_of(account_id)
        t = None if code is None else await self.book.get(code)
        if t is None or t.seat_of(account_id) is None or t.accounts[1] is None:
            raise Refusal("not_friend_table", "you are at no friend table with a friend")
        if t.live_state(time.time()) is not FriendState.ENDED:
            raise Refusal("not_friend_table", "a rematch follows a friend table's finished match")
        accounts = [a for a in t.accounts if a is not None]
        for a in accounts:
            playing = await self.hub.backend.seat_of(a)
            if playing is not None:
                raise Refusal("already_playing", f"a player is in match {playing[0]!r}")
        if t.stakes is Stakes.BEANS:
            await self._bean_checks(t, accounts)
        seat = t.seat_of(account_id)
        assert seat is not None
        match_id = FRIEND_PREFIX + secrets.token_hex(8)

        def want(x: FriendTable) -> list[bool]:
            if x.live_state(time.time()) is not FriendState.ENDED:
                raise Refusal("not_friend_table", "a rematch follows a friend table's finished match")
            x.want[seat] = True
            wants = list(x.want)
            if all(x.want):
                x.state, x.match, x.want = FriendState.PLAYING, match_id, [False, False]
                x.matches += 1
            return wants

        done = await self.book.update(t.code, want)
        if done is None:
            raise Refusal("not_friend_table", "the friend table is gone")
        table, wants = done
        for a in accounts:
            await self.hub.backend.tell(a, O.RematchWant(wants).to_dict())
        if table.state is FriendState.PLAYING and table.match == match_id:
            self.hub.metrics["friend_rematches"] += 1
            await self._start(table)

    # --------------------------------------------------------------------------------- chat

    async def chat(self, conn: Any, msg: P.Chat) -> None:
        """A phrase to both seats of the player's table (a match with a person, or a friend table's)."""
        aid = conn.account_id
        now = time.monotonic()
        interval = self.hub.settings.chat_interval_s
        last = self._chat_at.get(aid)
        if last is not None and now - last < interval:
            raise Refusal("chat_rate", f"one phrase per {interval:g} s; wait {interval - (now - last):.1f} s")
        people: list[tuple[int, bool]] | None = None
        where = await self.hub.backend.seat_of(aid)
        if where is not None:
            people = await self.hub.backend.match_people(where[0])
        else:
            code = await self.book.code_of(aid)
            t = None if code is None else await self.book.get(code)
            if t is not None and None not in t.accounts and t.live_state(time.time()) is FriendState.ENDED:
                people = [(a, False) for a in t.accounts if a is not None]
        if people is None or aid not in [a for a, _ in people]:
            raise Refusal("no_opponent", "chat is sent at a table, to the opponent")
        if any(bot for _, bot in people):
            raise Refusal("no_opponent", "bots do not chat")
        self._chat_at[aid] = now
        if len(self._chat_at) > 10_000:
            self._chat_at = {a: t for a, t in self._chat_at.items() if now - t < interval}
        seat = [a for a, _ in people].index(aid)
        self.hub.metrics["chats"] += 1
        for a, _ in people:
            await self.hub.backend.tell(a, O.Chat(seat, msg.phrase).to_dict())

    # ------------------------------------------------------------------------------ lookups

    async def lookup(self, address: str, code: str | None, number: str | None) -> dict[str, Any]:
        """What ``GET /api/friend/<code>`` (or ``?number=``) answers; Refusal ``friend_rate`` over the
        address's limit."""
        self._check_rate(address)
        if (code is not None and not re.match(CODE_PATTERN, code)) or (
            number is not None and not re.match(NUMBER_PATTERN, number)
        ):
            return {"state": Lookup.NOT_FOUND.value}
        t = await self.find(code, number)
        if t is None:
            return {"state": Lookup.NOT_FOUND.value}
        return {**t.public(time.time()), "pair_cap": self.hub.settings.friend_pair_cap}

    async def on_hello(self, conn: Any) -> None:
        """A socket signed in: if its account waits at a friend table, the table as it is."""
        code = await self.book.code_of(conn.account_id)
        t = None if code is None else await self.book.get(code)
        if t is None:
            return
        seat = t.seat_of(conn.account_id)
        state = t.live_state(time.time())
        if seat is not None and state is FriendState.OPEN:
            conn.send(self.invite(t, seat))
