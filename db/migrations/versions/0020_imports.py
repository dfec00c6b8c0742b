"""Imported export files: one row per (game, content hash), so a file imported twice creates
nothing twice (a redelivered update, a second upload, two presses at once)

Revision ID: 0020
Revises: 0016
Create Date: 2026-12-03 15:30:00
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0020"
down_revision: str | None = "0019"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.create_table(
        "imports",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("game_id", sa.Integer(), sa.ForeignKey("games.id"), nullable=False),
        sa.Column("content_hash", sa.String(length=64), nullable=False),
        sa.Column("kind", sa.String(length=16), nullable=False),
        sa.Column("user_id", sa.BigInteger(), nullable=False),
        sa.Column(
            "created_at",
            sa.DateTime(timezone=True),
            server_default=sa.text("now()"),
            nullable=False,
        ),
        sa.PrimaryKeyConstraint("id"),
        sa.UniqueConstraint("game_id", "content_hash", name="imports_once_per_game"),
        sa.CheckConstraint("kind IN ('character', 'game')", name="imports_kind"),
    )


def downgrade() -> None:
    op.drop_table("imports")
