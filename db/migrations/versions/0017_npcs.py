"""A scheduled milestone waits while its game's fight or scene is open

Revision ID: 0017
Revises: 0016
Create Date: 2026-12-03 15:30:00

``schedule_occurrences.status`` takes ``deferred``: the occurrence is claimed (its unique key
still makes it happen once) but not applied while the game has an open exclusive tracker; the
scheduler applies it once the fight ends (``bot.jobs:resume_deferred``). A partial index finds
the waiting ones.
"""

from collections.abc import Sequence

from alembic import op

revision: str = "0017"
down_revision: str | None = "0016"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

OLD = "status IN ('applied', 'empty', 'skipped', 'failed')"
NEW = "status IN ('applied', 'empty', 'skipped', 'failed', 'deferred')"


def upgrade() -> None:
    op.drop_constraint("schedule_occurrences_status", "schedule_occurrences", type_="check")
    op.create_check_constraint("schedule_occurrences_status", "schedule_occurrences", NEW)
    op.execute(
        "CREATE INDEX schedule_occurrences_deferred ON schedule_occurrences (id) "
        "WHERE status = 'deferred'"
    )


def downgrade() -> None:
    op.execute("DROP INDEX schedule_occurrences_deferred")
    # What still waits is given up (the old schema cannot hold it): marked failed.
    op.execute("UPDATE schedule_occurrences SET status = 'failed' WHERE status = 'deferred'")
    op.drop_constraint("schedule_occurrences_status", "schedule_occurrences", type_="check")
    op.create_check_constraint("schedule_occurrences_status", "schedule_occurrences", OLD)
