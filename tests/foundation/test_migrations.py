"""Alembic stairway: upgrade → downgrade → upgrade over every revision, on its own database."""

from __future__ import annotations

import uuid

from alembic.script import ScriptDirectory
from sqlalchemy import text

from db.database import alembic_config, create_engine, migrate
from tests.conftest import create_database, drop_database, with_database


def _revisions() -> list[str]:
    script = ScriptDirectory.from_config(alembic_config())
    return [rev.revision for rev in reversed(list(script.walk_revisions()))]


async def _tables(engine) -> set[str]:  # type: ignore[no-untyped-def]
    async with engine.connect() as conn:
        rows = await conn.execute(
            text("SELECT tablename FROM pg_tables WHERE schemaname = 'public'")
        )
        return {r[0] for r in rows}


async def test_stairway_every_revision(admin_url: str) -> None:
    name = f"stairway_{uuid.uuid4().hex[:10]}"
    await create_database(admin_url, name)
    engine = create_engine(with_database(admin_url, name))
    try:
        revisions = _revisions()
        assert revisions, "no migrations found"
        previous = "base"
        for revision in revisions:
            await migrate(engine, action="upgrade", revision=revision)
            after_up = await _tables(engine)
            await migrate(engine, action="downgrade", revision=previous)
            await migrate(engine, action="upgrade", revision=revision)
            assert await _tables(engine) == after_up
            previous = revision
        await migrate(engine, action="downgrade", revision="base")
        assert await _tables(engine) <= {"alembic_version"}
        await migrate(engine, action="upgrade", revision="head")
        assert {"users", "chats", "processed_updates", "fsm_states"} <= await _tables(engine)
    finally:
        await engine.dispose()
        await drop_database(admin_url, name)
