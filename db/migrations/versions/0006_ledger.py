"""Ledger of character changes; fate points can never go below zero

Revision ID: 0006
Revises: 0005
Create Date: 2026-11-29 13:32:24.745683
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op
from sqlalchemy.dialects import postgresql

revision: str = "0006"
down_revision: str | None = "0005"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.create_table(
        "ledger",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("game_id", sa.Integer(), nullable=False),
        sa.Column("character_id", sa.Integer(), nullable=False),
        sa.Column("actor_user_id", sa.BigInteger(), nullable=False),
        sa.Column("kind", sa.String(length=32), nullable=False),
        sa.Column("reason", sa.String(length=256), nullable=True),
        sa.Column("batch", sa.String(length=64), nullable=False),
        sa.Column("diff", postgresql.JSONB(astext_type=sa.Text()), nullable=False),
        sa.Column("sheet_before", postgresql.JSONB(astext_type=sa.Text()), nullable=False),
        sa.Column("sheet_after", postgresql.JSONB(astext_type=sa.Text()), nullable=False),
        sa.Column("version_before", sa.Integer(), nullable=False),
        sa.Column("version_after", sa.Integer(), nullable=False),
        sa.Column(
            "created_at",
            sa.DateTime(timezone=True),
            server_default=sa.text("now()"),
            nullable=False,
        ),
        sa.Column("undone_at", sa.DateTime(timezone=True), nullable=True),
        sa.ForeignKeyConstraint(
            ["character_id"],
            ["characters.id"],
        ),
        sa.ForeignKeyConstraint(
            ["game_id"],
            ["games.id"],
        ),
        sa.PrimaryKeyConstraint("id"),
    )
    op.create_index("ledger_game_recent", "ledger", ["game_id", "id"], unique=False)

    # The database itself refuses an overspend, whatever the code path.
    op.create_check_constraint(
        "characters_fate_points_nonnegative",
        "characters",
        "system <> 'fate' OR COALESCE((sheet->>'fate_points')::int, 0) >= 0",
    )


def downgrade() -> None:
    op.drop_constraint("characters_fate_points_nonnegative", "characters", type_="check")
    op.drop_index("ledger_game_recent", table_name="ledger")
    op.drop_table("ledger")
