"""Live resource panels: the last /res panel of a character in each chat, so a change made
elsewhere (a grant, a milestone, a tracker, the Mini App) redraws it without a press

Revision ID: 0022
Revises: 0021
Create Date: 2026-12-04 05:30:00

One row per (character, chat): opening a newer panel there replaces it. A character removed
takes its rows with it.
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0022"
down_revision: str | None = "0021"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.create_table(
        "res_panels",
        sa.Column(
            "character_id", sa.Integer(), sa.ForeignKey("characters.id", ondelete="CASCADE"),
            nullable=False,
        ),
        sa.Column("chat_id", sa.BigInteger(), nullable=False),
        sa.Column("message_id", sa.BigInteger(), nullable=False),
        sa.Column("locale", sa.String(length=8), nullable=False),
        sa.Column(
            "opened_at", sa.DateTime(timezone=True), server_default=sa.text("now()"),
            nullable=False,
        ),
        sa.PrimaryKeyConstraint("character_id", "chat_id"),
    )  # fmt: skip


def downgrade() -> None:
    op.drop_table("res_panels")
