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

import importlib.util
from collections.abc import Sequence
from pathlib import Path

from alembic import op

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
    """0011's definition (migration files are not a package: loaded by path)."""
    path = Path(__file__).with_name("0011_roll_log_head.py")
    spec = importlib.util.spec_from_file_location("roll_log_head_0011", path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    definition: str = module.HEAD_FUNCTION
    return definition.replace("CREATE FUNCTION", "CREATE OR REPLACE FUNCTION", 1)


def upgrade() -> None:
    previous = _previous()
    assert previous.count("BEGIN\n") == 1
    op.execute(previous.replace("BEGIN\n", _GUARD, 1))


def downgrade() -> None:
    op.execute(_previous())
