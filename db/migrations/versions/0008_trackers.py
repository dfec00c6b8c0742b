"""Trackers (fights, conflicts, scenes, multi-roll cards) and their step journal

Revision ID: 0008
Revises: 0007
Create Date: 2026-11-29 15:00:00
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op
from sqlalchemy.dialects import postgresql

revision: str = "0008"
down_revision: str | None = "0007"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def _stamp(name: str) -> sa.Column:  # type: ignore[type-arg]
    return sa.Column(
        name, sa.DateTime(timezone=True), server_default=sa.text("now()"), nullable=False
    )


def upgrade() -> None:
    op.create_table(
        "trackers",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("game_id", sa.Integer(), sa.ForeignKey("games.id"), nullable=False),
        sa.Column("chat_id", sa.BigInteger(), nullable=False),
        sa.Column("kind", sa.String(length=32), nullable=False),
        sa.Column("exclusive", sa.Boolean(), nullable=False),
        sa.Column("status", sa.String(length=16), server_default="open", nullable=False),
        sa.Column("message_id", sa.BigInteger(), nullable=True),
        sa.Column("state", postgresql.JSONB(astext_type=sa.Text()), nullable=False),
        sa.Column("version", sa.Integer(), server_default="1", nullable=False),
        sa.Column("created_by", sa.BigInteger(), nullable=False),
        _stamp("created_at"),
        _stamp("updated_at"),
        sa.PrimaryKeyConstraint("id"),
        sa.CheckConstraint("status IN ('open', 'ended')", name="trackers_status"),
        sa.CheckConstraint("version >= 1", name="trackers_version"),
    )
    op.create_index("ix_trackers_game_id", "trackers", ["game_id"], unique=False)
    op.create_index(
        "trackers_one_open_per_game",
        "trackers",
        ["game_id"],
        unique=True,
        postgresql_where=sa.text("status = 'open' AND exclusive"),
    )
    op.create_table(
        "tracker_steps",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column(
            "tracker_id",
            sa.Integer(),
            sa.ForeignKey("trackers.id", ondelete="CASCADE"),
            nullable=False,
        ),
        sa.Column("version", sa.Integer(), nullable=False),
        sa.Column("actor_user_id", sa.BigInteger(), nullable=False),
        sa.Column("action", sa.String(length=64), nullable=False),
        sa.Column("state_before", postgresql.JSONB(astext_type=sa.Text()), nullable=False),
        sa.Column("batch", sa.String(length=64), nullable=True),
        sa.Column("undone", sa.Boolean(), server_default="false", nullable=False),
        _stamp("created_at"),
        sa.PrimaryKeyConstraint("id"),
        sa.UniqueConstraint("tracker_id", "version", name="tracker_steps_once"),
    )


def downgrade() -> None:
    op.drop_table("tracker_steps")
    op.drop_index("trackers_one_open_per_game", table_name="trackers")
    op.drop_index("ix_trackers_game_id", table_name="trackers")
    op.drop_table("trackers")
