"""The operator's commands: ``erma serve``, ``erma ledger check`` and ``erma ratings rebuild``."""

from __future__ import annotations

import argparse
import dataclasses
from typing import Any


def _cmd_serve(args: argparse.Namespace) -> int:
    from erma.errors import RuleSetError
    from erma.server.addresses import TrustedProxies
    from erma.server.app import serve
    from erma.server.config import Settings, load_rooms

    extra: dict[str, Any] = {}
    fields = {f.name: f for f in dataclasses.fields(Settings)}
    for item in args.setting:
        key, _, value = item.partition("=")
        if key not in fields or key in ("extra", "host", "port", "db_url", "redis_url"):
            raise RuleSetError(f"--setting {item!r}: unknown setting {key!r}")
        default = getattr(Settings(), key)
        try:
            if isinstance(default, bool):
                if value.lower() not in ("true", "false", "1", "0"):
                    raise ValueError(value)
                extra[key] = value.lower() in ("true", "1")
            elif isinstance(default, int | float) and not isinstance(default, bool):
                extra[key] = type(default)(value)
            elif key == "metrics_port":
                extra[key] = int(value)
            elif key == "trusted_proxies":
                extra[key] = tuple(str(n) for n in TrustedProxies.parse(value).networks)
            else:
                extra[key] = value
        except ValueError as exc:
            if key == "trusted_proxies":
                raise RuleSetError(f"--setting {item!r}: {exc}") from None
            raise RuleSetError(f"--setting {item!r}: not a valid {type(default).__name__}") from None
    if args.lease_ms is not None:
        extra["lease_ms"] = args.lease_ms
    settings = Settings(
        host=args.host,
        port=args.port,
        db_url=args.db,
        data_dir=args.data,
        rooms_file=args.rooms,
        redis_url=args.redis,
        **extra,
    )
    load_rooms(settings.rooms_file)  # a bad rooms file stops here with one clear line
    serve(settings)
    return 0


def _cmd_ledger(args: argparse.Namespace) -> int:
    from erma.store.cli import ledger_check

    return ledger_check(args.db, hold_age_s=args.hold_age_min * 60)


def _cmd_ratings(args: argparse.Namespace) -> int:
    from erma.store.cli import ratings_rebuild

    return ratings_rebuild(args.db, write=not args.dry_run)


def register(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """Add this group's commands to the ``erma`` parser."""
    serve = sub.add_parser(
        "serve",
        help="run the game server (web client, websocket protocol, REST API)",
        description="Run the game server: the web client at http://HOST:PORT/, the websocket protocol at "
        "/ws and the REST API under /api (docs/operations.md). `make run` passes the environment's HOST "
        "and PORT.",
    )
    serve.add_argument(
        "--host",
        default="127.0.0.1",
        help="address to listen on (default 127.0.0.1: this machine only; 0.0.0.0 for every interface)",
    )
    serve.add_argument("--port", type=int, default=8000, help="TCP port to listen on (default 8000)")
    serve.add_argument(
        "--db",
        default=None,
        help="SQLAlchemy URL of the bean ledger, e.g. postgresql://USER@HOST/DB "
        "(default: SQLite at DATA/erma.db)",
    )
    serve.add_argument(
        "--data", default="data", help="data folder for the default SQLite database (default data)"
    )
    serve.add_argument("--rooms", default=None, help="rooms file (TOML); default: the packaged rooms")
    serve.add_argument(
        "--redis",
        default=None,
        help="redis://HOST:PORT/DB: several processes share matchmaking, matches and routing (operations.md)",
    )
    serve.add_argument(
        "--lease-ms",
        type=int,
        default=None,
        help="with --redis: how long a process owns a match without renewing it, in ms (default 3000)",
    )
    serve.add_argument(
        "--setting",
        action="append",
        default=[],
        metavar="NAME=VALUE",
        help="any server setting (erma.server.config.Settings), e.g. time_scale=0.2 (repeatable)",
    )
    serve.set_defaults(func=_cmd_serve)

    ledger = sub.add_parser("ledger", help="the bean ledger: `erma ledger check --db URL`")
    ledger_sub = ledger.add_subparsers(dest="ledger_command", required=True)
    ledger_check = ledger_sub.add_parser("check", help="verify the ledger's invariants (exit 1 on a breach)")
    ledger_check.add_argument("--db", default=None, help="database URL or SQLite file (default data/erma.db)")
    ledger_check.add_argument(
        "--hold-age-min",
        type=float,
        default=10.0,
        metavar="MIN",
        help="report (and fail on) stakes held in escrow longer than this with no settlement (default 10)",
    )
    ledger_check.set_defaults(func=_cmd_ledger)

    ratings = sub.add_parser("ratings", help="ratings and ranks: `erma ratings rebuild --db URL`")
    ratings_sub = ratings.add_subparsers(dest="ratings_command", required=True)
    rebuild = ratings_sub.add_parser(
        "rebuild",
        help="recompute every rating from the stored rated hands (exit 1 if any stored value differed)",
    )
    rebuild.add_argument("--db", default=None, help="database URL or SQLite file (default data/erma.db)")
    rebuild.add_argument("--dry-run", action="store_true", help="compare only; write nothing")
    rebuild.set_defaults(func=_cmd_ratings)
