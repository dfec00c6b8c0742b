"""GM gates on resource gains: a player's gain is a request the GM grants with one tap

Revision ID: 0018
Revises: 0016
Create Date: 2026-12-03 15:30:00

``resource_grants``: one row per request (the operation as JSON, who asked, who decided). At most
one open request per character and operation (``op_key``): a double press or a redelivered
update asks once. The GM's decision is a conditional ``UPDATE … WHERE status = 'open'``, so two
presses of «Grant» apply the gain once.

``grant_trust``: a game whose GM lets players gain without asking (a row per trusting game).

``ledger.asked_by_user_id``: who asked for a granted change (``actor_user_id`` granted it).
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op
from sqlalchemy.dialects import postgresql

revision: str = "0018"
down_revision: str | None = "0017"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.create_table(
        "resource_grants",
        sa.Column("id", sa.Integer(), primary_key=True),
        sa.Column("game_id", sa.Integer(), sa.ForeignKey("games.id"), nullable=False),
        sa.Column("character_id", sa.Integer(), sa.ForeignKey("characters.id"), nullable=False),
        sa.Column("asked_by", sa.BigInteger(), nullable=False),
        sa.Column("op", postgresql.JSONB(), nullable=False),
        sa.Column("op_key", sa.String(64), nullable=False),
        sa.Column("status", sa.String(16), server_default="open", nullable=False),
        sa.Column("decided_by", sa.BigInteger(), nullable=True),
        sa.Column("decided_at", sa.DateTime(timezone=True), nullable=True),
        sa.Column(
            "created_at", sa.DateTime(timezone=True), server_default=sa.text("now()"),
            nullable=False,
        ),
        sa.CheckConstraint(
            "status IN ('open', 'granted', 'refused')", name="resource_grants_status_check"
        ),
    )  # fmt: skip
    op.create_index(
        "resource_grants_one_open",
        "resource_grants",
        ["character_id", "op_key"],
        unique=True,
        postgresql_where=sa.text("status = 'open'"),
    )
    op.create_table(
        "grant_trust",
        sa.Column("game_id", sa.Integer(), sa.ForeignKey("games.id"), primary_key=True),
        sa.Column("set_by", sa.BigInteger(), nullable=False),
        sa.Column(
            "set_at", sa.DateTime(timezone=True), server_default=sa.text("now()"), nullable=False
        ),
    )
    op.add_column("ledger", sa.Column("asked_by_user_id", sa.BigInteger(), nullable=True))


def downgrade() -> None:
    op.drop_column("ledger", "asked_by_user_id")
    op.drop_table("grant_trust")
    op.drop_index("resource_grants_one_open", table_name="resource_grants")
    op.drop_table("resource_grants")
