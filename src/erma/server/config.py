"""Server settings and the rooms an operator configures (a TOML file, validated at start)."""

from __future__ import annotations

import tomllib
from dataclasses import dataclass, field
from importlib import resources
from pathlib import Path
from typing import Any

from erma.errors import RuleSetError
from erma.rules import RuleSet, find_ruleset


@dataclass(frozen=True, slots=True)
class Room:
    """A room: a rule set with its overrides and a bean tier."""

    id: str
    name_zh: str
    name_en: str
    rules: RuleSet
    tier: str
    entry_min: int
    """Beans needed to sit down (and to play another hand)."""
    bean_rate: int
    """Beans per point."""
    bot_level: int = 4
    """The level (1–5, bots ``level1`` … ``level5``) of the bot that fills an empty seat (4: greedy, the bot
    every room had before levels)."""
    rated_hands: int = 8
    """Hands in a rated match (一场, like a 半庄's 8): the rating and rank move once per block of this many
    consecutive hands between the same two seats, by the block's net points (docs/ratings.md)."""
    rated: bool = True
    """Whether its hands move ratings (a points-only friend table's do not: erma.server.friends)."""

    def public(self) -> dict[str, Any]:
        """What the lobby shows."""
        return {
            "id": self.id,
            "name_zh": self.name_zh,
            "name_en": self.name_en,
            "rules": self.rules.name,
            "options": self.rules.overrides(),
            "tier": self.tier,
            "entry_min": self.entry_min,
            "bean_rate": self.bean_rate,
            "fan_cap": self.rules.fan_cap,
            "min_fan": self.rules.min_fan,
            "bot_level": self.bot_level,
            "rated_hands": self.rated_hands,
            "escape": self.escape_cost(),
        }

    def escape_cost(self) -> dict[str, Any]:
        """What leaving mid-hand (逃跑) costs, in points (× ``bean_rate`` beans), as the dealer and as the
        other seat, at streak 0 with no 买底 / 顶底 (the engine's family says); with the base it was
        figured on and the stakes' options, by which a client scales it for a hand whose view has a base
        and stakes (温州: escape.js)."""
        from erma.game.engine import family_for

        family = family_for(self.rules)
        cost: dict[str, Any] = {
            role: family.escape_points(self.rules, dealer=0, escaper=seat, streak=0, stakes=(False, False))
            for role, seat in (("dealer", 0), ("other", 1))
        }
        cost["base"] = self.rules.base_by_streak[0]
        cost["maidi"] = self.rules.maidi_enabled
        cost["maidi_symmetric"] = self.rules.maidi_symmetric
        return cost


_ROOM_KEYS = {
    "id",
    "name_zh",
    "name_en",
    "rules",
    "options",
    "tier",
    "entry_min",
    "bean_rate",
    "bot_level",
    "rated_hands",
}
RATED_HANDS = range(1, 65)
"""The lengths a room's rated match may have (hands)."""
BOT_LEVELS = range(1, 6)
"""The bot levels a room or a player may name (bots ``level1`` … ``level5``, docs/bots.md)."""


def load_rooms(path: str | Path | None = None) -> dict[str, Room]:
    """Read and validate a rooms file (the packaged rooms.toml by default); RuleSetError names the problem."""
    where = str(path) if path else "rooms.toml (packaged)"
    try:
        text = (
            Path(path).read_text(encoding="utf-8")
            if path
            else resources.files("erma.server").joinpath("rooms.toml").read_text(encoding="utf-8")
        )
        data = tomllib.loads(text)
    except (OSError, tomllib.TOMLDecodeError) as exc:
        raise RuleSetError(f"{where}: cannot read the rooms file: {exc}") from None
    rows = data.get("room")
    if not isinstance(rows, list) or not rows:
        raise RuleSetError(f"{where}: no [[room]] entries")
    rooms: dict[str, Room] = {}
    for i, row in enumerate(rows):
        label = f"{where}: room {i + 1}"
        if not isinstance(row, dict):
            raise RuleSetError(f"{label}: not a table")
        unknown = set(row) - _ROOM_KEYS
        if unknown:
            raise RuleSetError(f"{label}: unknown key(s) {', '.join(sorted(unknown))}")
        for key in ("id", "rules"):
            if not isinstance(row.get(key), str) or not row[key]:
                raise RuleSetError(f"{label}: {key} must be a non-empty string")
        for key in ("entry_min", "bean_rate"):
            value = row.get(key, 1)
            if not isinstance(value, int) or isinstance(value, bool) or value < 0:
                raise RuleSetError(f"{label} ({row['id']}): {key} must be an int ≥ 0, not {value!r}")
        level = row.get("bot_level", 4)
        if not isinstance(level, int) or isinstance(level, bool) or level not in BOT_LEVELS:
            raise RuleSetError(f"{label} ({row['id']}): bot_level must be an int 1–5, not {level!r}")
        rated = row.get("rated_hands", 8)
        if not isinstance(rated, int) or isinstance(rated, bool) or rated not in RATED_HANDS:
            raise RuleSetError(f"{label} ({row['id']}): rated_hands must be an int 1–64, not {rated!r}")
        if row["id"] in rooms:
            raise RuleSetError(f"{label}: duplicate room id {row['id']!r}")
        options = row.get("options", {})
        if not isinstance(options, dict):
            raise RuleSetError(f"{label} ({row['id']}): options must be a table")
        try:
            rules = find_ruleset(row["rules"], options)
        except RuleSetError as exc:
            raise RuleSetError(f"{label} ({row['id']}): {exc}") from None
        rooms[row["id"]] = Room(
            id=row["id"],
            name_zh=str(row.get("name_zh", row["id"])),
            name_en=str(row.get("name_en", row["id"])),
            rules=rules,
            tier=str(row.get("tier", "")),
            entry_min=int(row.get("entry_min", 0)),
            bean_rate=int(row.get("bean_rate", 1)),
            bot_level=level,
            rated_hands=rated,
        )
    return rooms


@dataclass(frozen=True, slots=True)
class Settings:
    """How a server runs."""

    host: str = "127.0.0.1"
    port: int = 8000
    db_url: str | None = None
    """Any SQLAlchemy URL; None: SQLite in ``data_dir``."""
    data_dir: str = "data"
    rooms_file: str | None = None
    bot_fill_s: float = 8.0
    """How long quick match waits for a person before a bot takes the seat."""
    claim_window_s: float = 1.2
    """After a person's discard their stream pauses this long, whatever the opponent could do."""
    review_hold_s: float = 300.0
    """Between hands the clock to the next hand stands still while a person looks at a replay or review
    (``review`` messages), for at most this long a break."""
    reconnect_grace_s: float = 3.0
    """A seat whose socket closed is played by auto-play after this grace (a refresh loses no decision)."""
    bot_pause_s: float = 0.6
    """A bot's think time as seen by a person (pace, not thinking)."""
    gc_tuning: bool = True
    """Freeze what is alive at start-up out of the garbage collector and collect less often (app._tune_gc)."""
    bot_workers: int = 1
    """Processes in which bots think (off the event loop and its GIL); 0: a thread of this process."""
    review_workers: int = 1
    """Processes in which hands are reviewed (复盘; started at the first review); 0: a thread here."""
    review_wait_s: float = 3.0
    """How long a review request waits for its computation before answering 202 (ask again)."""
    timeouts: bool = True
    """Turn timers; tests may turn them off."""
    time_scale: float = 1.0
    """Multiplies every timer and pause (tests use small values)."""
    redis_url: str | None = None
    """Several processes: share matchmaking, match ownership, logs and routing through this Redis."""
    redis_prefix: str = "erma"
    """The prefix of every Redis key and channel (several deployments, or tests, on one Redis)."""
    lease_ms: int = 3000
    """A match owner's lease; another process takes the match over this long after its owner stops."""
    db_retry_window_s: float = 30.0
    """A table retries a store call that fails with a transient database error (connection lost or refused,
    serialization failure, timeout) for this long, its players told to wait and its clocks stopped; only a
    longer outage ends the match (its open hold left to the sweeper). 30 s covers a PostgreSQL restart or
    a managed failover (typically 5–20 s) and is about two turn clocks: longer would keep players staring."""
    sweep_interval_s: float = 60.0
    """How often the sweeper resolves the open holds (escrow) of matches nobody owns (0: only at start)."""
    sweep_min_age_s: float = 120.0
    """The sweeper leaves a hold younger than this alone (a table may be between its hold and its log)."""
    shutdown_grace_s: float = 5.0
    """On SIGTERM: how long to wait for sockets before handing the matches over and exiting."""
    session_ttl_s: float | None = 30 * 24 * 3600.0
    """How long a login lasts (a session token expires this long after it was made); None: until log-out."""
    session_check_s: float = 2.0
    """How often each process re-checks the sessions of its sockets: a socket whose session was logged out,
    revoked or expired is closed (4401) within this long (0: only on a log-out handled here)."""
    auth_window_s: float = 600.0
    """The window of the sign-up and login rate limits below (per process)."""
    signup_per_address: int = 10
    """Sign-ups (and guest upgrades) from one client address per window (0: no limit)."""
    signup_per_name: int = 5
    """Sign-up attempts for one name per window."""
    login_per_address: int = 30
    """Login attempts from one client address per window (against spraying many names)."""
    login_per_name: int = 30
    """Failed logins to one name from all addresses per window; past it, addresses that have not logged in to
    the name share one attempt per ``login_slow_s`` (it slows, never locks; server/login_guard.py)."""
    login_free_failures: int = 3
    """Failed logins to one name from one address before that pair must wait."""
    login_backoff_s: float = 1.0
    """The pair's first wait; it doubles with each further failure, up to ``login_backoff_max_s``."""
    login_backoff_max_s: float = 300.0
    login_slow_s: float = 20.0
    """Past ``login_per_name``: one attempt per this many seconds from addresses new to the name."""
    guest_per_address: int = 0
    """Guest accounts from one client address per window (0: no limit; load tests make thousands)."""
    rating_window: float = 2.0
    """Matchmaking: the rating gap (OpenSkill mu) two queued players may have at once; it widens by
    ``rating_widen_per_s`` for every second the longer-waiting one has waited."""
    rating_widen_per_s: float = 1.0
    """How fast the matchmaking window widens with the wait (mu per second)."""
    ready_wait_s: float = 2.0
    """How long the first hand waits for each person's ``next`` (with its share of the seed)."""
    start_grace_s: float = 0.5
    """Once everyone is ready the hand is dealt this much later; a ``leave`` meanwhile costs nothing."""
    msg_rate: float = 20.0
    """Messages a second one socket may send (a token bucket of ``msg_burst``); 0: no limit."""
    msg_burst: int = 60
    addr_msg_rate: float = 1000.0
    """Messages a second all the sockets of one address may send (a bucket of twice as many); 0: no limit."""
    send_stall_s: float = 20.0
    """A socket whose client read none of what waited for it this long (it stopped reading) is closed with
    4408 "not reading" and its seat is away, as after any lost socket (server/stalls.py); 0: never. Not
    scaled by ``time_scale``."""
    send_backlog_max: int = 20_000
    """… and so is one with more messages than this waiting to go out (0: no bound). More than a reconnection
    of a long match resends at once (a hand is 100–200 messages a seat)."""
    trusted_proxies: tuple[str, ...] = ()
    """The reverse proxies (addresses, CIDR networks) whose ``X-Forwarded-For`` is believed; none by default:
    every per-address limit then counts the connection's peer (erma.server.addresses)."""
    metrics_token: str | None = None
    """``/metrics`` answers only with ``Authorization: Bearer <metrics_token>``; None: not served on the
    game listener (see ``metrics_port``)."""
    metrics_port: int | None = None
    """A separate listener (on ``host``) that serves ``/metrics`` alone, without a token."""
    friend_ttl_s: float = 1800.0
    """A friend table (好友房) nobody joined expires this long after it was made, and one whose match ended
    this long after the end if nobody asked for a rematch. Not scaled by ``time_scale``."""
    friend_pair_cap: int = 20_000
    """The most beans one pair of accounts may move between them at friend tables per UTC day: each hand's
    stake is capped by what is left of it, a match stops when it is used up, and a table refuses to start
    (``pair_cap``) without any left (0: no cap)."""
    friend_lookups_per_address: int = 20
    """Lookups of friend codes and numbers (``GET /api/friend…`` and ``friend_join``) one client address may
    make per ``auth_window_s`` (0: no limit; docs/security.md)."""
    chat_interval_s: float = 3.0
    """A player may send one quick-chat phrase (快捷语) per this many seconds; more are refused
    (``chat_rate``)."""
    extra: dict[str, Any] = field(default_factory=dict)
