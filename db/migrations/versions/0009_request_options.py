"""Roll requests: per-system options chosen on the card before the roll (a cliché pump, the
GM's matter modifiers, a lifegear weapon and stat)

Revision ID: 0009
Revises: 0008
Create Date: 2026-11-29 16:00:00
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op
from sqlalchemy.dialects import postgresql

revision: str = "0009"
down_revision: str | None = "0008"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.add_column(
        "roll_requests",
        sa.Column(
            "options",
            postgresql.JSONB(),
            server_default=sa.text("'{}'::jsonb"),
            nullable=False,
        ),
    )


def downgrade() -> None:
    op.drop_column("roll_requests", "options")
