"""Session expiry; ratings per rule family, the rated hands and their players.

Revision ID: 0002
Revises: 0001
Create Date: 2026-12-01
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0002"
down_revision = "0001"
branch_labels = None
depends_on = None

BigId = sa.BigInteger().with_variant(sa.Integer(), "sqlite")
NOW = sa.text("CURRENT_TIMESTAMP")


def upgrade() -> None:
    with op.batch_alter_table("sessions") as batch:
        batch.add_column(sa.Column("expires", sa.DateTime(timezone=True), nullable=True))
    op.create_table(
        "rated_hands",
        sa.Column("id", BigId, autoincrement=True, nullable=False),
        sa.Column("unit", sa.String(100), nullable=False),
        sa.Column("family", sa.String(16), nullable=False),
        sa.Column("winner", sa.Integer, nullable=True),
        sa.Column("escaper", sa.Integer, nullable=True),
        sa.Column("created", sa.DateTime(timezone=True), nullable=False, server_default=NOW),
        sa.PrimaryKeyConstraint("id", name="pk_rated_hands"),
        sa.UniqueConstraint("unit", name="uq_rated_hands_unit"),
    )
    op.create_table(
        "rated_hand_players",
        sa.Column("hand_id", BigId, nullable=False),
        sa.Column("seat", sa.Integer, nullable=False),
        sa.Column("account_id", sa.Integer, nullable=False),
        sa.Column("anchor", sa.Boolean, nullable=False),
        sa.Column("fans", sa.Integer, nullable=False, server_default="0"),
        sa.Column("dealt_in", sa.Boolean, nullable=False, server_default=sa.false()),
        sa.Column("mu_before", sa.Double, nullable=False),
        sa.Column("sigma_before", sa.Double, nullable=False),
        sa.Column("mu_after", sa.Double, nullable=False),
        sa.Column("sigma_after", sa.Double, nullable=False),
        sa.Column("level_after", sa.Integer, nullable=False),
        sa.Column("points_after", sa.Integer, nullable=False),
        sa.PrimaryKeyConstraint("hand_id", "seat", name="pk_rated_hand_players"),
        sa.ForeignKeyConstraint(
            ["hand_id"], ["rated_hands.id"], name="fk_rated_hand_players_hand_id_rated_hands"
        ),
        sa.ForeignKeyConstraint(
            ["account_id"], ["accounts.id"], name="fk_rated_hand_players_account_id_accounts"
        ),
    )
    op.create_index(
        "ix_rated_hand_players_account_id_hand_id", "rated_hand_players", ["account_id", "hand_id"]
    )
    op.create_table(
        "ratings",
        sa.Column("account_id", sa.Integer, nullable=False),
        sa.Column("family", sa.String(16), nullable=False),
        sa.Column("mu", sa.Double, nullable=False),
        sa.Column("sigma", sa.Double, nullable=False),
        sa.Column("level", sa.Integer, nullable=False),
        sa.Column("points", sa.Integer, nullable=False),
        sa.Column("hands", sa.Integer, nullable=False),
        sa.PrimaryKeyConstraint("account_id", "family", name="pk_ratings"),
        sa.ForeignKeyConstraint(["account_id"], ["accounts.id"], name="fk_ratings_account_id_accounts"),
    )
    op.create_index("ix_ratings_family_level", "ratings", ["family", "level", "points", "mu"])


def downgrade() -> None:
    op.drop_index("ix_ratings_family_level", "ratings")
    op.drop_table("ratings")
    op.drop_index("ix_rated_hand_players_account_id_hand_id", "rated_hand_players")
    op.drop_table("rated_hand_players")
    op.drop_table("rated_hands")
    with op.batch_alter_table("sessions") as batch:
        batch.drop_column("expires")
