"""Roll requests: a GM asks a named player to roll, rolled exactly once

Revision ID: 0005
Revises: 0004
Create Date: 2026-11-29 13:07:46.555338
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op
from sqlalchemy.dialects import postgresql

revision: str = "0005"
down_revision: str | None = "0004"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.create_table(
        "roll_requests",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("game_id", sa.Integer(), nullable=False),
        sa.Column("chat_id", sa.BigInteger(), nullable=False),
        sa.Column("requested_by", sa.BigInteger(), nullable=False),
        sa.Column("target_user_id", sa.BigInteger(), nullable=False),
        sa.Column("expression", sa.String(length=640), nullable=False),
        sa.Column("target_number", sa.Integer(), nullable=True),
        sa.Column("note", sa.String(length=256), nullable=True),
        sa.Column("status", sa.String(length=16), nullable=False),
        sa.Column("message_id", sa.BigInteger(), nullable=True),
        sa.Column("roll_seq", sa.Integer(), nullable=True),
        sa.Column("trait", sa.String(length=128), nullable=True),
        sa.Column("deadline", sa.DateTime(timezone=True), nullable=True),
        sa.Column("nudged_at", sa.DateTime(timezone=True), nullable=True),
        sa.Column("overdue_at", sa.DateTime(timezone=True), nullable=True),
        sa.Column("bonus", sa.Integer(), server_default="0", nullable=False),
        sa.Column("rerolls", sa.Integer(), server_default="0", nullable=False),
        sa.Column(
            "invokes",
            postgresql.JSONB(astext_type=sa.Text()),
            server_default=sa.text("'[]'::jsonb"),
            nullable=False,
        ),
        sa.Column(
            "created_at",
            sa.DateTime(timezone=True),
            server_default=sa.text("now()"),
            nullable=False,
        ),
        sa.Column("rolled_at", sa.DateTime(timezone=True), nullable=True),
        sa.CheckConstraint(
            "status IN ('pending', 'rolled', 'cancelled')", name="roll_requests_status_check"
        ),
        sa.ForeignKeyConstraint(
            ["game_id"],
            ["games.id"],
        ),
        sa.PrimaryKeyConstraint("id"),
    )
    op.create_index(op.f("ix_roll_requests_game_id"), "roll_requests", ["game_id"], unique=False)


def downgrade() -> None:
    op.drop_index(op.f("ix_roll_requests_game_id"), table_name="roll_requests")
    op.drop_table("roll_requests")
