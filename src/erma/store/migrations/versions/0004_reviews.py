"""Reviews (复盘) of stored hands: one per record and seat, with its summary for the trend.

Revision ID: 0004_reviews
Revises: 0003
Create Date: 2026-12-01
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0004_reviews"
down_revision = "0003"
branch_labels = None
depends_on = None

NOW = sa.text("CURRENT_TIMESTAMP")


def upgrade() -> None:
    op.create_table(
        "game_reviews",
        sa.Column("record_id", sa.Integer, nullable=False),
        sa.Column("seat", sa.Integer, nullable=False),
        sa.Column("review", sa.JSON, nullable=False),
        sa.Column("summary", sa.JSON, nullable=False),
        sa.Column("created", sa.DateTime(timezone=True), nullable=False, server_default=NOW),
        sa.PrimaryKeyConstraint("record_id", "seat", name="pk_game_reviews"),
        sa.ForeignKeyConstraint(
            ["record_id"], ["game_records.id"], name="fk_game_reviews_record_id_game_records"
        ),
    )


def downgrade() -> None:
    op.drop_table("game_reviews")
