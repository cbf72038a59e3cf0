"""Rated matches: a rated hand belongs to a block of hands (its match, 一场) with its index there and each
seat's points; the matches rated, in the order they were applied; each standing's count of matches.

Hands rated before this revision were each rated alone: each becomes a block of one hand (block = its unit,
index 1) and a rated match of one hand, in the same order, so a rebuild gives the stored standings again.
Their points were not kept (``hand_points`` NULL).

Revision ID: 0003
Revises: 0002
Create Date: 2026-12-01
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0003"
down_revision = "0002"
branch_labels = None
depends_on = None

BigId = sa.BigInteger().with_variant(sa.Integer(), "sqlite")
NOW = sa.text("CURRENT_TIMESTAMP")


def upgrade() -> None:
    # plain ADD COLUMNs (no table rebuild on SQLite: the rated hands' players refer to rated_hands)
    op.add_column("rated_hands", sa.Column("block", sa.String(100), nullable=False, server_default=""))
    op.add_column("rated_hands", sa.Column("block_index", sa.Integer, nullable=False, server_default="1"))
    op.execute("UPDATE rated_hands SET block = unit")
    op.create_index("ix_rated_hands_block", "rated_hands", ["block"])
    op.add_column("rated_hand_players", sa.Column("hand_points", sa.Integer, nullable=True))
    op.add_column("ratings", sa.Column("matches", sa.Integer, nullable=False, server_default="0"))
    op.execute("UPDATE ratings SET matches = hands")
    op.create_table(
        "rated_matches",
        sa.Column("id", BigId, autoincrement=True, nullable=False),
        sa.Column("block", sa.String(100), nullable=False),
        sa.Column("family", sa.String(16), nullable=False),
        sa.Column("winner", sa.Integer, nullable=True),
        sa.Column("leaver", sa.Integer, nullable=True),
        sa.Column("hands", sa.Integer, nullable=False),
        sa.Column("created", sa.DateTime(timezone=True), nullable=False, server_default=NOW),
        sa.PrimaryKeyConstraint("id", name="pk_rated_matches"),
        sa.UniqueConstraint("block", name="uq_rated_matches_block"),
    )
    # one match per hand rated so far, in the hands' order (the order their ratings moved)
    hands = sa.table(
        "rated_hands",
        sa.column("id", sa.BigInteger),
        sa.column("unit", sa.String),
        sa.column("family", sa.String),
        sa.column("winner", sa.Integer),
        sa.column("escaper", sa.Integer),
        sa.column("created", sa.DateTime(timezone=True)),
    )
    rows = op.get_bind().execute(sa.select(hands).order_by(hands.c.id)).all()
    matches = sa.table(
        "rated_matches",
        sa.column("block", sa.String),
        sa.column("family", sa.String),
        sa.column("winner", sa.Integer),
        sa.column("leaver", sa.Integer),
        sa.column("hands", sa.Integer),
        sa.column("created", sa.DateTime(timezone=True)),
    )
    for r in rows:  # one by one: the ids follow the hands' order on every backend
        op.execute(
            matches.insert().values(
                block=r.unit,
                family=r.family,
                winner=r.winner if r.escaper is None else 1 - r.escaper,
                leaver=r.escaper,
                hands=1,
                created=r.created,
            )
        )


def downgrade() -> None:
    op.drop_table("rated_matches")
    op.drop_column("ratings", "matches")
    op.drop_column("rated_hand_players", "hand_points")
    op.drop_index("ix_rated_hands_block", "rated_hands")
    op.drop_column("rated_hands", "block_index")
    op.drop_column("rated_hands", "block")
