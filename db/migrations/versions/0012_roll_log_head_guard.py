"""roll_log_head: no chat, no call — an update that will not roll locks and creates nothing

Revision ID: 0012
Revises: 0011
Create Date: 2026-12-01 18:30:00

The claim calls ``roll_log_head`` for an update that will roll (``db/repositories/updates.py``)
and passes NULLs otherwise, behind a ``WHERE $6 IS NOT NULL`` that PostgreSQL 15 tests before
the call; PostgreSQL 18 (the sandbox's embedded server) called it anyway, and the log's NOT
NULL chat failed every update that was not a roll. So the function itself returns nothing for
a NULL chat, whatever plan calls it.
"""

from collections.abc import Sequence

from alembic import op

from db.migration_history import earlier_definition

revision: str = "0012"
down_revision: str | None = "0011"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

_GUARD = """BEGIN
    IF p_chat IS NULL THEN  -- not a roll (see the module doc): no lock, no log, no row
        RETURN;
    END IF;
"""


def _previous() -> str:
    return earlier_definition("0011_roll_log_head.py", "HEAD_FUNCTION")


def upgrade() -> None:
    previous = _previous()
    assert previous.count("BEGIN\n") == 1
    op.execute(previous.replace("BEGIN\n", _GUARD, 1))


def downgrade() -> None:
    op.execute(_previous())
