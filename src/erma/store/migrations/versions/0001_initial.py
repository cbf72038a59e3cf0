"""Accounts, sessions, the double-entry bean ledger, game records.

Revision ID: 0001
Revises:
Create Date: 2026-11-01
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0001"
down_revision = None
branch_labels = None
depends_on = None

BigId = sa.BigInteger().with_variant(sa.Integer(), "sqlite")
NOW = sa.text("CURRENT_TIMESTAMP")
APPEND_ONLY = ("ledger_transactions", "ledger_entries")


def upgrade() -> None:
    accounts = op.create_table(
        "accounts",
        sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
        sa.Column("kind", sa.String(16), nullable=False),
        sa.Column("name", sa.String(160), nullable=False),
        sa.Column("name_key", sa.String(160), nullable=False),
        sa.Column("is_guest", sa.Boolean, nullable=False, server_default=sa.false()),
        sa.Column("password_hash", sa.String(255), nullable=True),
        sa.Column("balance", sa.BigInteger, nullable=False, server_default="0"),
        sa.Column("created", sa.DateTime(timezone=True), nullable=False, server_default=NOW),
        sa.PrimaryKeyConstraint("id", name="pk_accounts"),
        sa.UniqueConstraint("name_key", name="uq_accounts_name_key"),
        sa.CheckConstraint("kind IN ('user', 'issuance', 'escrow')", name="ck_accounts_kind"),
        sa.CheckConstraint("kind = 'issuance' OR balance >= 0", name="ck_accounts_balance_nonnegative"),
    )
    op.create_table(
        "sessions",
        sa.Column("token_hash", sa.String(64), nullable=False),
        sa.Column("account_id", sa.Integer, nullable=False),
        sa.Column("created", sa.DateTime(timezone=True), nullable=False, server_default=NOW),
        sa.PrimaryKeyConstraint("token_hash", name="pk_sessions"),
        sa.ForeignKeyConstraint(["account_id"], ["accounts.id"], name="fk_sessions_account_id_accounts"),
    )
    op.create_index("ix_sessions_account_id", "sessions", ["account_id"])
    op.create_table(
        "ledger_transactions",
        sa.Column("id", BigId, autoincrement=True, nullable=False),
        sa.Column("kind", sa.String(16), nullable=False),
        sa.Column("unit", sa.String(100), nullable=True),
        sa.Column("key", sa.String(200), nullable=False),
        sa.Column("reason", sa.String(64), nullable=True),
        sa.Column("created", sa.DateTime(timezone=True), nullable=False, server_default=NOW),
        sa.PrimaryKeyConstraint("id", name="pk_ledger_transactions"),
        sa.UniqueConstraint("key", name="uq_ledger_transactions_key"),
        sa.CheckConstraint(
            "kind IN ('grant', 'relief', 'hold', 'settle', 'refund', 'forfeit')",
            name="ck_ledger_transactions_kind",
        ),
    )
    op.create_index("ix_ledger_transactions_unit", "ledger_transactions", ["unit"])
    op.create_table(
        "ledger_entries",
        sa.Column("id", BigId, autoincrement=True, nullable=False),
        sa.Column("transaction_id", BigId, nullable=False),
        sa.Column("account_id", sa.Integer, nullable=False),
        sa.Column("delta", sa.BigInteger, nullable=False),
        sa.Column("balance_after", sa.BigInteger, nullable=False),
        sa.PrimaryKeyConstraint("id", name="pk_ledger_entries"),
        sa.ForeignKeyConstraint(
            ["transaction_id"],
            ["ledger_transactions.id"],
            name="fk_ledger_entries_transaction_id_ledger_transactions",
        ),
        sa.ForeignKeyConstraint(
            ["account_id"], ["accounts.id"], name="fk_ledger_entries_account_id_accounts"
        ),
        sa.CheckConstraint("delta <> 0", name="ck_ledger_entries_delta_nonzero"),
    )
    op.create_index("ix_ledger_entries_transaction_id", "ledger_entries", ["transaction_id"])
    op.create_index("ix_ledger_entries_account_id_id", "ledger_entries", ["account_id", "id"])
    op.create_table(
        "game_records",
        sa.Column("id", sa.Integer, autoincrement=True, nullable=False),
        sa.Column("unit", sa.String(100), nullable=False),
        sa.Column("record", sa.JSON, nullable=False),
        sa.Column("summary", sa.JSON, nullable=False),
        sa.Column("created", sa.DateTime(timezone=True), nullable=False, server_default=NOW),
        sa.PrimaryKeyConstraint("id", name="pk_game_records"),
        sa.UniqueConstraint("unit", name="uq_game_records_unit"),
    )
    op.create_table(
        "game_record_players",
        sa.Column("record_id", sa.Integer, nullable=False),
        sa.Column("account_id", sa.Integer, nullable=False),
        sa.Column("seat", sa.Integer, nullable=False),
        sa.PrimaryKeyConstraint("record_id", "account_id", name="pk_game_record_players"),
        sa.ForeignKeyConstraint(
            ["record_id"], ["game_records.id"], name="fk_game_record_players_record_id_game_records"
        ),
        sa.ForeignKeyConstraint(
            ["account_id"], ["accounts.id"], name="fk_game_record_players_account_id_accounts"
        ),
    )
    op.create_index(
        "ix_game_record_players_account_id_record_id", "game_record_players", ["account_id", "record_id"]
    )

    # The one issuance account: every grant comes from it, so its balance is minus all beans ever granted.
    op.bulk_insert(accounts, [{"kind": "issuance", "name": "system:issuance", "name_key": "system:issuance"}])

    # The ledger is append-only: corrections are new transactions.
    if op.get_bind().dialect.name == "postgresql":
        op.execute(
            "CREATE FUNCTION erma_append_only() RETURNS trigger LANGUAGE plpgsql AS $$ "
            "BEGIN RAISE EXCEPTION '% is append-only', TG_TABLE_NAME; END $$"
        )
        for table in APPEND_ONLY:
            op.execute(
                f"CREATE TRIGGER {table}_append_only BEFORE UPDATE OR DELETE ON {table} "
                "FOR EACH ROW EXECUTE FUNCTION erma_append_only()"
            )
    else:
        for table in APPEND_ONLY:
            for action in ("UPDATE", "DELETE"):
                op.execute(
                    f"CREATE TRIGGER {table}_no_{action.lower()} BEFORE {action} ON {table} "
                    f"BEGIN SELECT RAISE(ABORT, '{table} is append-only'); END"
                )


def downgrade() -> None:
    if op.get_bind().dialect.name == "postgresql":
        for table in APPEND_ONLY:
            op.execute(f"DROP TRIGGER {table}_append_only ON {table}")
        op.execute("DROP FUNCTION erma_append_only()")
    for name in ("game_record_players", "game_records", "ledger_entries", "ledger_transactions", "sessions"):
        op.drop_table(name)
    op.drop_table("accounts")
