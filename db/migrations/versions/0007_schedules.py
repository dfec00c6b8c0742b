"""Scheduled milestones: schedules and their occurrences (unique per schedule and instant)

Revision ID: 0007
Revises: 0006
Create Date: 2026-11-29 14:00:00
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0007"
down_revision: str | None = "0006"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.create_table(
        "schedules",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("game_id", sa.Integer(), sa.ForeignKey("games.id"), nullable=False),
        sa.Column("kind", sa.String(length=32), nullable=False),
        sa.Column("weekday", sa.SmallInteger(), nullable=True),
        sa.Column("minute_of_day", sa.Integer(), nullable=False),
        sa.Column("remind_minutes", sa.Integer(), nullable=True),
        sa.Column("grace_hours", sa.Integer(), server_default=sa.text("6"), nullable=False),
        sa.Column("enabled", sa.Boolean(), server_default=sa.text("true"), nullable=False),
        sa.Column("created_by", sa.BigInteger(), nullable=False),
        sa.Column(
            "created_at",
            sa.DateTime(timezone=True),
            server_default=sa.text("now()"),
            nullable=False,
        ),
        sa.Column("reminded_for", sa.DateTime(timezone=True), nullable=True),
        sa.PrimaryKeyConstraint("id"),
        sa.CheckConstraint("weekday IS NULL OR weekday BETWEEN 0 AND 6", name="schedules_weekday"),
        sa.CheckConstraint("minute_of_day BETWEEN 0 AND 1439", name="schedules_minute"),
        sa.CheckConstraint(
            "remind_minutes IS NULL OR remind_minutes BETWEEN 1 AND 1440", name="schedules_remind"
        ),
        sa.CheckConstraint("grace_hours BETWEEN 0 AND 168", name="schedules_grace"),
    )
    op.create_index("ix_schedules_game_id", "schedules", ["game_id"], unique=False)
    op.create_table(
        "schedule_occurrences",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column(
            "schedule_id",
            sa.Integer(),
            sa.ForeignKey("schedules.id", ondelete="CASCADE"),
            nullable=False,
        ),
        sa.Column("occurrence_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("status", sa.String(length=16), nullable=False),
        sa.Column("skipped", sa.Integer(), server_default=sa.text("0"), nullable=False),
        sa.Column("batch", sa.String(length=64), nullable=True),
        sa.Column(
            "created_at",
            sa.DateTime(timezone=True),
            server_default=sa.text("now()"),
            nullable=False,
        ),
        sa.PrimaryKeyConstraint("id"),
        sa.UniqueConstraint("schedule_id", "occurrence_at", name="schedule_occurrences_once"),
        sa.CheckConstraint(
            "status IN ('applied', 'empty', 'skipped', 'failed')",
            name="schedule_occurrences_status",
        ),
    )


def downgrade() -> None:
    op.drop_table("schedule_occurrences")
    op.drop_index("ix_schedules_game_id", table_name="schedules")
    op.drop_table("schedules")
