"""Friend tables (好友房): a table two friends sit down at through an invite code (``/join/<code>``) or a
6-digit number (房间号), its settings (rule preset, hands, stakes), its life (open → playing → ended, and
again after a rematch; closed when cancelled, expired after ``friend_ttl_s`` without a second player) and the
book that keeps it: in the process (:class:`LocalFriendBook`) or, for several processes, in Redis
(:class:`erma.server.backends.redis.friends.RedisFriendBook`).

A friend table's matches get ids beginning with :data:`FRIEND_PREFIX` (so a hand's ledger unit names it as
a friend table's, see :meth:`erma.store.store.Store.pair_moved`) and are played in a room made from the
table's settings (:func:`friend_room`), whose id any process can read back into the room.
"""

from __future__ import annotations

import dataclasses
import datetime as dt
import secrets
import time
from abc import ABC, abstractmethod
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from enum import StrEnum
from typing import Any, TypeVar

from erma.errors import RuleSetError
from erma.rules import find_ruleset
from erma.server.config import Room, Settings
from erma.server.seats import SeatInfo

FRIEND_PREFIX = "fr-"
"""The first characters of a friend table's match id (never a hex digit: no matched table's id has them)."""
HANDS = (4, 8, 16)
"""The match lengths a friend table may have."""
CODE_BYTES = 12
"""An invite code is ``secrets.token_urlsafe(12)``: 96 random bits in 16 URL-safe characters."""
CODE_PATTERN = r"^[A-Za-z0-9_-]{16}$"
NUMBER_PATTERN = r"^[1-9][0-9]{5}$"
"""A 房间号: 6 digits, no leading zero (900 000 numbers)."""
KEEP_S = 24 * 3600.0
"""How long a closed or expired table is remembered (a lookup then says ``expired``, not ``not_found``)."""

T = TypeVar("T")


class Stakes(StrEnum):
    """A friend table's stakes: points only (积分, nothing moves, unrated) or beans at a room's rate."""

    POINTS = "points"
    BEANS = "beans"


class FriendState(StrEnum):
    """Where a friend table is in its life."""

    OPEN = "open"
    """The host waits for a friend."""
    PLAYING = "playing"
    ENDED = "ended"
    """A match ended; both may ask for a rematch (再来一局)."""
    CLOSED = "closed"
    """Cancelled (取消) by a player."""
    EXPIRED = "expired"
    """Nobody joined within ``friend_ttl_s`` (or nobody asked for a rematch in that long)."""


class Lookup(StrEnum):
    """What a lookup of a code or number answers (``GET /api/friend/<code>``)."""

    OPEN = "open"
    FULL = "full"
    EXPIRED = "expired"
    NOT_FOUND = "not_found"


def new_code() -> str:
    """A fresh invite code (96 random bits, URL-safe)."""
    return secrets.token_urlsafe(CODE_BYTES)


def new_number() -> str:
    """A random 房间号 (the book makes it unique among the tables it remembers)."""
    return str(100_000 + secrets.randbelow(900_000))


@dataclass
class FriendTable:
    """One friend table as the book keeps it (JSON in Redis). Seat 0 is the host's."""

    code: str
    number: str
    rules: str
    hands: int
    stakes: Stakes
    room: str | None
    """The bean room whose rate applies (bean tables), else None."""
    bean_rate: int
    accounts: list[int | None]
    names: list[str | None]
    expires_at: float
    """Unix time: an open table (or an ended one nobody rematches) expires then."""
    state: FriendState = FriendState.OPEN
    match: str | None = None
    """The current (or last) match's id."""
    want: list[bool] = field(default_factory=lambda: [False, False])
    """Who asked for a rematch since the last match ended."""
    matches: int = 0
    created: float = field(default_factory=time.time)

    def to_json(self) -> dict[str, Any]:
        return dataclasses.asdict(self)

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> FriendTable:
        d = dict(data)
        d["stakes"] = Stakes(d["stakes"])
        d["state"] = FriendState(d["state"])
        return cls(**d)

    def live_state(self, now: float) -> FriendState:
        """The state, an open (or ended) table past its expiry counted as expired."""
        if self.state in (FriendState.OPEN, FriendState.ENDED) and now >= self.expires_at:
            return FriendState.EXPIRED
        return self.state

    def lookup(self, now: float) -> Lookup:
        """What a lookup of this table says."""
        state = self.live_state(now)
        if state is FriendState.OPEN:
            return Lookup.OPEN
        if state in (FriendState.PLAYING, FriendState.ENDED):
            return Lookup.FULL
        return Lookup.EXPIRED

    def seat_of(self, account_id: int) -> int | None:
        """The seat the account holds here, or None."""
        return self.accounts.index(account_id) if account_id in self.accounts else None

    def room_id(self) -> str:
        """The id of the room its matches are played in (:func:`friend_room`)."""
        return friend_room_id(self.rules, self.hands, self.room)

    def public(self, now: float) -> dict[str, Any]:
        """The lookup answer (``GET /api/friend/<code>``): with the bean room and its rate (a bean
        table's card shows the rate; points only: None and 0)."""
        return {
            "state": self.lookup(now).value,
            "code": self.code,
            "number": self.number,
            "rules": self.rules,
            "hands": self.hands,
            "stakes": self.stakes.value,
            "room": self.room,
            "bean_rate": self.bean_rate,
            "host": self.names[0],
        }


# ---------------------------------------------------------------------------------------------- rooms


def friend_room_id(rules: str, hands: int, room: str | None) -> str:
    """``friend:<preset>:<hands>:<bean room id, or points>``."""
    return f"friend:{rules}:{hands}:{room or Stakes.POINTS.value}"


def friend_room(rooms: Mapping[str, Room], room_id: str) -> Room | None:
    """The room of a friend table's matches from its id (:func:`friend_room_id`), None if it names none.

    Points only: the preset's rules, no beans (``bean_rate`` 0, ``entry_min`` 0), unrated. Beans: the bean
    room's rules, rate and entry, rated as that room is (its ``rated_hands``). Either way the match lasts
    ``hands`` hands."""
    parts = room_id.split(":")
    if len(parts) != 4 or parts[0] != "friend" or not parts[2].isdigit() or int(parts[2]) not in HANDS:
        return None
    preset, hands, stakes = parts[1], int(parts[2]), parts[3]
    if stakes == Stakes.POINTS.value:
        try:
            rules = find_ruleset(preset, match_hands=hands)
        except RuleSetError:
            return None
        return Room(
            id=room_id,
            name_zh="好友房",
            name_en="Friend room",
            rules=rules,
            tier="friend",
            entry_min=0,
            bean_rate=0,
            rated=False,
        )
    base = rooms.get(stakes)
    if base is None or base.rules.name != preset or base.bean_rate <= 0:
        return None
    return dataclasses.replace(
        base,
        id=room_id,
        name_zh=f"好友房 · {base.name_zh}",
        name_en=f"Friend room · {base.name_en}",
        rules=dataclasses.replace(base.rules, match_hands=hands),
        tier="friend",
    )


def bean_rooms(rooms: Mapping[str, Room], preset: str) -> list[Room]:
    """The bean rooms of a preset (the rates a bean friend table may take), in the rooms file's order."""
    return [r for r in rooms.values() if r.rules.name == preset and r.bean_rate > 0]


# ------------------------------------------------------------------------------------------- pair cap


def day_start(now: float) -> dt.datetime:
    """The UTC midnight that began the day of ``now`` (a Unix time): the pair cap counts from it."""
    day = dt.datetime.fromtimestamp(now, dt.UTC).date()
    return dt.datetime(day.year, day.month, day.day, tzinfo=dt.UTC)


async def pair_left(store: Any, cap: int, a: int, b: int, now: float | None = None) -> int | None:
    """What accounts ``a`` and ``b`` may still move between them at friend tables today (None: no cap)."""
    if cap <= 0:
        return None
    moved = await store.pair_moved(FRIEND_PREFIX, a, b, day_start(time.time() if now is None else now))
    return int(cap - moved)


async def pair_allowance(
    store: Any, settings: Settings, match_id: str, room: Room, seats: Sequence[SeatInfo]
) -> int | None:
    """A bean friend table's allowance before a hand (what its pair may still move today); None for any
    other table or without a cap."""
    if not match_id.startswith(FRIEND_PREFIX) or not room.bean_rate or len(seats) != 2:
        return None
    return await pair_left(store, settings.friend_pair_cap, seats[0].account_id, seats[1].account_id)


# ----------------------------------------------------------------------------------------------- book


class FriendBook(ABC):
    """Where the friend tables are kept (every process sees the same ones)."""

    @abstractmethod
    async def add(self, table: FriendTable) -> FriendTable:
        """Keep a new table, its number made unique among the tables kept (the table, as kept)."""

    @abstractmethod
    async def get(self, code: str) -> FriendTable | None:
        """The table of a code."""

    @abstractmethod
    async def code_of_number(self, number: str) -> str | None:
        """The code of the table a number names."""

    @abstractmethod
    async def update(self, code: str, change: Callable[[FriendTable], T]) -> tuple[FriendTable, T] | None:
        """Apply ``change`` to the table (atomically: no other process changes it meanwhile) and keep the
        result; None if there is no such table. ``change`` may raise to change nothing."""

    @abstractmethod
    async def code_of(self, account_id: int) -> str | None:
        """The table an account sits at (or hosts), if any."""

    @abstractmethod
    async def bind(self, account_id: int, code: str) -> None:
        """The account sits at the table ``code``."""

    @abstractmethod
    async def unbind(self, account_id: int, code: str) -> None:
        """The account no longer sits at ``code`` (nothing if it sits elsewhere)."""


class LocalFriendBook(FriendBook):
    """The friend tables of one process (the embedded default)."""

    def __init__(self, clock: Callable[[], float] = time.time) -> None:
        self.clock = clock
        self.tables: dict[str, FriendTable] = {}
        self.numbers: dict[str, str] = {}
        self.accounts: dict[int, str] = {}

    def _forget_old(self) -> None:
        now = self.clock()
        for code, t in list(self.tables.items()):
            if t.live_state(now) in (FriendState.CLOSED, FriendState.EXPIRED) and now > t.expires_at + KEEP_S:
                del self.tables[code]
                if self.numbers.get(t.number) == code:
                    del self.numbers[t.number]

    async def add(self, table: FriendTable) -> FriendTable:
        self._forget_old()
        while table.number in self.numbers:
            table.number = new_number()
        self.tables[table.code] = table
        self.numbers[table.number] = table.code
        return table

    async def get(self, code: str) -> FriendTable | None:
        t = self.tables.get(code)
        return None if t is None else FriendTable.from_json(t.to_json())

    async def code_of_number(self, number: str) -> str | None:
        return self.numbers.get(number)

    async def update(self, code: str, change: Callable[[FriendTable], T]) -> tuple[FriendTable, T] | None:
        t = self.tables.get(code)
        if t is None:
            return None
        copy = FriendTable.from_json(t.to_json())
        out = change(copy)  # (raises: nothing kept)
        self.tables[code] = copy
        return FriendTable.from_json(copy.to_json()), out

    async def code_of(self, account_id: int) -> str | None:
        return self.accounts.get(account_id)

    async def bind(self, account_id: int, code: str) -> None:
        self.accounts[account_id] = code

    async def unbind(self, account_id: int, code: str) -> None:
        if self.accounts.get(account_id) == code:
            del self.accounts[account_id]
