"""The store's tables, as SQLAlchemy Core metadata (the migrations are the source of truth for the schema;
this mirrors them for queries and for ``alembic revision --autogenerate``).

Ledger accounts and players share one table, ``accounts``: a player is ``kind='user'``; the system accounts
are ``kind='issuance'`` (one row, ``system:issuance``, the source of every grant; its balance is minus what
was ever granted) and ``kind='escrow'`` (one row per settlement unit, ``escrow:{unit}``, holding the stakes
of that hand until its terminal transaction).
"""

from __future__ import annotations

import datetime as dt
from typing import Any

import sqlalchemy as sa
from sqlalchemy.dialects import postgresql, sqlite

metadata = sa.MetaData(
    naming_convention={
        "ix": "ix_%(column_0_label)s",
        "uq": "uq_%(table_name)s_%(column_0_name)s",
        "ck": "ck_%(table_name)s_%(constraint_name)s",
        "fk": "fk_%(table_name)s_%(column_0_name)s_%(referred_table_name)s",
        "pk": "pk_%(table_name)s",
    }
)

#: A 64-bit id on PostgreSQL; on SQLite an INTEGER PRIMARY KEY (the rowid alias, which autoincrements).
BigId = sa.BigInteger().with_variant(sa.Integer(), "sqlite")

NOW = sa.text("CURRENT_TIMESTAMP")


def utc(value: dt.datetime) -> dt.datetime:
    """A stored timestamp as an aware UTC datetime (SQLite gives them back naive)."""
    return value.replace(tzinfo=dt.UTC) if value.tzinfo is None else value.astimezone(dt.UTC)


def upsert(conn: Any, table: sa.Table) -> Any:
    """An ``INSERT`` into ``table`` for the connection's dialect, with ``ON CONFLICT`` clauses
    (``on_conflict_do_nothing`` / ``on_conflict_do_update``)."""
    return (postgresql if conn.dialect.name == "postgresql" else sqlite).insert(table)


ACCOUNT_KINDS = ("user", "issuance", "escrow")
TRANSACTION_KINDS = ("grant", "relief", "hold", "settle", "refund", "forfeit")
TERMINAL_KINDS = ("settle", "refund", "forfeit")

accounts = sa.Table(
    "accounts",
    metadata,
    sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
    sa.Column("kind", sa.String(16), nullable=False),
    sa.Column("name", sa.String(160), nullable=False),
    sa.Column("name_key", sa.String(160), nullable=False, unique=True),
    sa.Column("is_guest", sa.Boolean, nullable=False, server_default=sa.false()),
    sa.Column("password_hash", sa.String(255), nullable=True),
    sa.Column("balance", sa.BigInteger, nullable=False, server_default="0"),
    sa.Column("created", sa.DateTime(timezone=True), nullable=False, server_default=NOW),
    sa.CheckConstraint("kind IN ('user', 'issuance', 'escrow')", name="kind"),
    sa.CheckConstraint("kind = 'issuance' OR balance >= 0", name="balance_nonnegative"),
)

sessions = sa.Table(
    "sessions",
    metadata,
    sa.Column("token_hash", sa.String(64), primary_key=True),
    sa.Column("account_id", sa.Integer, sa.ForeignKey("accounts.id"), nullable=False, index=True),
    sa.Column("created", sa.DateTime(timezone=True), nullable=False, server_default=NOW),
    sa.Column("expires", sa.DateTime(timezone=True), nullable=True),
)

transactions = sa.Table(
    "ledger_transactions",
    metadata,
    sa.Column("id", BigId, primary_key=True, autoincrement=True),
    sa.Column("kind", sa.String(16), nullable=False),
    sa.Column("unit", sa.String(100), nullable=True, index=True),
    sa.Column("key", sa.String(200), nullable=False, unique=True),
    sa.Column("reason", sa.String(64), nullable=True),
    sa.Column("created", sa.DateTime(timezone=True), nullable=False, server_default=NOW),
    sa.CheckConstraint(
        "kind IN ('grant', 'relief', 'hold', 'settle', 'refund', 'forfeit')",
        name="kind",
    ),
)

entries = sa.Table(
    "ledger_entries",
    metadata,
    sa.Column("id", BigId, primary_key=True, autoincrement=True),
    sa.Column("transaction_id", BigId, sa.ForeignKey("ledger_transactions.id"), nullable=False, index=True),
    sa.Column("account_id", sa.Integer, sa.ForeignKey("accounts.id"), nullable=False),
    sa.Column("delta", sa.BigInteger, nullable=False),
    sa.Column("balance_after", sa.BigInteger, nullable=False),
    sa.CheckConstraint("delta <> 0", name="delta_nonzero"),
    sa.Index("ix_ledger_entries_account_id_id", "account_id", "id"),
)

records = sa.Table(
    "game_records",
    metadata,
    sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
    sa.Column("unit", sa.String(100), nullable=False, unique=True),
    sa.Column("record", sa.JSON, nullable=False),
    sa.Column("summary", sa.JSON, nullable=False),
    sa.Column("created", sa.DateTime(timezone=True), nullable=False, server_default=NOW),
)

record_players = sa.Table(
    "game_record_players",
    metadata,
    sa.Column("record_id", sa.Integer, sa.ForeignKey("game_records.id"), primary_key=True),
    sa.Column("account_id", sa.Integer, sa.ForeignKey("accounts.id"), primary_key=True),
    sa.Column("seat", sa.Integer, nullable=False),
    sa.Index("ix_game_record_players_account_id_record_id", "account_id", "record_id"),
)

rated_hands = sa.Table(
    "rated_hands",
    metadata,
    sa.Column("id", BigId, primary_key=True, autoincrement=True),
    sa.Column("unit", sa.String(100), nullable=False, unique=True),
    sa.Column("family", sa.String(16), nullable=False),
    sa.Column("winner", sa.Integer, nullable=True),
    sa.Column("escaper", sa.Integer, nullable=True),
    sa.Column("created", sa.DateTime(timezone=True), nullable=False, server_default=NOW),
    sa.Column("block", sa.String(100), nullable=False, server_default="", index=True),
    sa.Column("block_index", sa.Integer, nullable=False, server_default="1"),
)

rated_hand_players = sa.Table(
    "rated_hand_players",
    metadata,
    sa.Column("hand_id", BigId, sa.ForeignKey("rated_hands.id"), primary_key=True),
    sa.Column("seat", sa.Integer, primary_key=True),
    sa.Column("account_id", sa.Integer, sa.ForeignKey("accounts.id"), nullable=False),
    sa.Column("anchor", sa.Boolean, nullable=False),
    sa.Column("fans", sa.Integer, nullable=False, server_default="0"),
    sa.Column("dealt_in", sa.Boolean, nullable=False, server_default=sa.false()),
    sa.Column("mu_before", sa.Double, nullable=False),
    sa.Column("sigma_before", sa.Double, nullable=False),
    sa.Column("mu_after", sa.Double, nullable=False),
    sa.Column("sigma_after", sa.Double, nullable=False),
    sa.Column("level_after", sa.Integer, nullable=False),
    sa.Column("points_after", sa.Integer, nullable=False),
    sa.Column("hand_points", sa.Integer, nullable=True),
    sa.Index("ix_rated_hand_players_account_id_hand_id", "account_id", "hand_id"),
)

rated_matches = sa.Table(
    "rated_matches",
    metadata,
    sa.Column("id", BigId, primary_key=True, autoincrement=True),
    sa.Column("block", sa.String(100), nullable=False, unique=True),
    sa.Column("family", sa.String(16), nullable=False),
    sa.Column("winner", sa.Integer, nullable=True),
    sa.Column("leaver", sa.Integer, nullable=True),
    sa.Column("hands", sa.Integer, nullable=False),
    sa.Column("created", sa.DateTime(timezone=True), nullable=False, server_default=NOW),
)

ratings = sa.Table(
    "ratings",
    metadata,
    sa.Column("account_id", sa.Integer, sa.ForeignKey("accounts.id"), primary_key=True),
    sa.Column("family", sa.String(16), primary_key=True),
    sa.Column("mu", sa.Double, nullable=False),
    sa.Column("sigma", sa.Double, nullable=False),
    sa.Column("level", sa.Integer, nullable=False),
    sa.Column("points", sa.Integer, nullable=False),
    sa.Column("hands", sa.Integer, nullable=False),
    sa.Column("matches", sa.Integer, nullable=False, server_default="0"),
    sa.Index("ix_ratings_family_level", "family", "level", "points", "mu"),
)

reviews = sa.Table(
    "game_reviews",
    metadata,
    sa.Column("record_id", sa.Integer, sa.ForeignKey("game_records.id"), primary_key=True),
    sa.Column("seat", sa.Integer, primary_key=True),
    sa.Column("review", sa.JSON, nullable=False),
    sa.Column("summary", sa.JSON, nullable=False),
    sa.Column("created", sa.DateTime(timezone=True), nullable=False, server_default=NOW),
)
