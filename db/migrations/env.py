"""Alembic environment: always runs on a connection handed over by ``db.database.migrate``.

The bot migrates on start from inside its event loop, so the env script must not create its
own engine or loop; ``alembic`` on the command line goes through ``db.migrate_cli``.
"""

from __future__ import annotations

from alembic import context
from sqlmodel import SQLModel

# Importing the model modules registers their tables on the metadata.
import db.models
import db.schedule_models
import db.tracker_models  # noqa: F401

target_metadata = SQLModel.metadata


def run_migrations() -> None:
    connection = context.config.attributes.get("connection")
    if connection is None:
        raise RuntimeError("run migrations through db.database.migrate (python -m db.migrate_cli)")
    context.configure(connection=connection, target_metadata=target_metadata, compare_type=True)
    with context.begin_transaction():
        context.run_migrations()


run_migrations()
