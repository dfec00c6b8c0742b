"""Updates that cannot be handled are parked, and an old claim never swallows a new update

Revision ID: 0016
Revises: 0015
Create Date: 2026-12-03 12:40:00

``update_dead_letters``: an update that could not be stored or whose handling failed three
times, kept losslessly as the JSON text of the update (ASCII-escaped, so U+0000 and lone
surrogates survive as escapes, which ``text`` holds and ``jsonb`` refuses), with the error and
the time; operators list and replay them (``python -m bot.dead_letters``).

``roll_append_claimed`` claims its update as the update path's claim now does: a claim older
than Telegram's redelivery window (24 hours; 26 here, for clocks) belongs to an earlier
update that happened to carry the same id (Telegram picks a random id after a week without
updates; the sandbox once numbered from 1 again), so it is taken over instead of swallowing
the new update.
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

from db.migration_history import earlier_definition

revision: str = "0016"
down_revision: str | None = "0015"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

OLD_CLAIM = "ON CONFLICT (bot_id, update_id) DO NOTHING;"
NEW_CLAIM = (
    "ON CONFLICT (bot_id, update_id) DO UPDATE SET processed_at = now()\n"
    "    WHERE processed_updates.processed_at < now() - interval '26 hours';"
)


def _append(definition: str) -> str:
    assert OLD_CLAIM in definition
    return definition.replace(OLD_CLAIM, NEW_CLAIM)


def upgrade() -> None:
    op.create_table(
        "update_dead_letters",
        sa.Column("bot_id", sa.BigInteger(), autoincrement=False, nullable=False),
        sa.Column("update_id", sa.BigInteger(), autoincrement=False, nullable=False),
        sa.Column("payload", sa.Text(), nullable=False),
        sa.Column("error", sa.Text(), nullable=False),
        sa.Column("attempts", sa.Integer(), server_default="1", nullable=False),
        sa.Column(
            "failed_at",
            sa.DateTime(timezone=True),
            server_default=sa.text("now()"),
            nullable=False,
        ),
        sa.Column("replayed_at", sa.DateTime(timezone=True), nullable=True),
        sa.PrimaryKeyConstraint("bot_id", "update_id"),
    )
    op.execute(_append(earlier_definition("0013_roll_express.py", "APPEND_FUNCTION")))


def downgrade() -> None:
    op.execute(earlier_definition("0013_roll_express.py", "APPEND_FUNCTION"))
    op.drop_table("update_dead_letters")
