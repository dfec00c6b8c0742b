"""Inline rolls: offers made to an inline query, and one roll per sent inline message

Revision ID: 0019
Revises: 0016
Create Date: 2026-12-03 15:30:00
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0019"
down_revision: str | None = "0018"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    # What an inline answer offered: the query (no result: nothing is rolled before the
    # choice), whose it is and, for a trait roll, the game. Its id is the result's id and the
    # placeholder button's data, so a press without chosen_inline_result still finds it.
    op.create_table(
        "inline_offers",
        sa.Column("id", sa.String(length=32), primary_key=True),
        sa.Column("user_id", sa.BigInteger(), nullable=False),
        sa.Column("query", sa.String(length=256), nullable=False),
        sa.Column("game_id", sa.Integer(), sa.ForeignKey("games.id", ondelete="CASCADE")),
        sa.Column(
            "created_at",
            sa.DateTime(timezone=True),
            server_default=sa.func.now(),
            nullable=False,
        ),
    )
    op.create_index("ix_inline_offers_created_at", "inline_offers", ["created_at"])
    # One roll per sent inline message, whatever reports it (chosen_inline_result, a press,
    # a redelivery of either): the primary key refuses a second.
    op.create_table(
        "inline_rolls",
        sa.Column("inline_message_id", sa.String(length=255), primary_key=True),
        sa.Column(
            "offer_id",
            sa.String(length=32),
            sa.ForeignKey("inline_offers.id", ondelete="CASCADE"),
            nullable=False,
        ),
        sa.Column("user_id", sa.BigInteger(), nullable=False),
        sa.Column("roll_id", sa.String(length=255), nullable=False),
        sa.Column(
            "created_at",
            sa.DateTime(timezone=True),
            server_default=sa.func.now(),
            nullable=False,
        ),
    )


def downgrade() -> None:
    op.drop_table("inline_rolls")
    op.drop_index("ix_inline_offers_created_at", table_name="inline_offers")
    op.drop_table("inline_offers")
