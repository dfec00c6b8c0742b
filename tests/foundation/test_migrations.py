"""Alembic stairway: upgrade → downgrade → upgrade over every revision, on its own database;
and what a data migration does to the rows it finds."""

from __future__ import annotations

import uuid

import pytest
from alembic.script import ScriptDirectory
from sqlalchemy import text
from sqlalchemy.exc import IntegrityError

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


async def test_active_names_migration_numbers_old_duplicates(admin_url: str) -> None:
    """0023: a game's active characters whose names compare equal (case, ё/е, spaces aside)
    were made before the unique index; the first made keeps its name, each later one gets the
    next free « 2», « 3»… (a retired «Громила 2» keeps its own), in the sheet too. Pending
    sheets and other games are left as they are; then the index refuses a new duplicate."""
    name = f"names_{uuid.uuid4().hex[:10]}"
    await create_database(admin_url, name)
    engine = create_engine(with_database(admin_url, name))
    long = "Я" * 64
    cast = [  # (game, name, status)
        (1, "Громила", "active"),
        (1, "громила", "active"),
        (1, "Громила 2", "retired"),
        (1, "Громила", "pending"),
        (1, "ГРОМИЛА", "active"),
        (1, "Старый ёж", "active"),
        (1, "старый  Еж", "active"),
        (1, long, "active"),
        (1, long.lower(), "active"),
        (2, "Громила", "active"),
    ]
    try:
        await migrate(engine, action="upgrade", revision="0022")
        async with engine.begin() as conn:
            for game in (1, 2):
                await conn.execute(
                    text(
                        "INSERT INTO games (id, chat_id, system, title, gm_user_id, timezone) "
                        "VALUES (:g, :chat, 'fate', 'Игра', 1, 'UTC')"
                    ),
                    {"g": game, "chat": -game},
                )
            for game, who, status in cast:
                await conn.execute(
                    text(
                        "INSERT INTO characters (game_id, is_npc, system, name, status, sheet, "
                        "schema_version, version) VALUES (:g, true, 'fate', :name, :status, "
                        "CAST(:sheet AS jsonb), 1, 1)"
                    ),
                    {"g": game, "name": who, "status": status, "sheet": f'{{"name": "{who}"}}'},
                )
        await migrate(engine, action="upgrade", revision="head")
        async with engine.connect() as conn:
            rows = (
                await conn.execute(
                    text("SELECT name, sheet->>'name', name_key FROM characters ORDER BY id")
                )
            ).all()
        assert [r[0] for r in rows] == [
            "Громила", "громила 3", "Громила 2", "Громила", "ГРОМИЛА 4", "Старый ёж",
            "старый  Еж 2",
            long, "я" * 62 + " 2", "Громила",
        ]  # fmt: skip
        assert all(r[0] == r[1] for r in rows)  # the sheet's name changed with the row's
        assert (
            rows[1][2] == "громила 3" and rows[4][2] == "громила 4" and rows[6][2] == "старый еж 2"
        )
        async with engine.connect() as conn:
            with pytest.raises(IntegrityError, match="characters_active_name"):
                await conn.execute(
                    text(
                        "INSERT INTO characters (game_id, is_npc, system, name, name_key, "
                        "status, sheet, schema_version, version) VALUES (1, true, 'fate', "
                        "'Старый Ёж', 'старый еж', 'active', '{}', 1, 1)"
                    )
                )
    finally:
        await engine.dispose()
        await drop_database(admin_url, name)


# (chat, type, its locale, its first game's GM: /lang in private, Telegram's language_code)
_GROUPS = [
    (-1, "group", None, None, "ru-RU"),  # → ru: the GM's Telegram language
    (-2, "supergroup", None, "en", "ru"),  # → en: the GM's own /lang wins
    (-3, "group", "ru", "en", "en"),  # kept: the group chose its language
    (-4, "group", None, None, "de"),  # kept NULL: the GM's language is not the bot's
]


async def test_group_language_backfill(admin_url: str) -> None:
    """0024: a group with a game and no /lang speaks the language of its first game's GM
    (a later game's GM does not count), its open /res panels too."""
    name = f"grouplang_{uuid.uuid4().hex[:10]}"
    await create_database(admin_url, name)
    engine = create_engine(with_database(admin_url, name))
    try:
        await migrate(engine, action="upgrade", revision="0022")
        async with engine.begin() as conn:
            for chat, kind, locale, gm_locale, code in _GROUPS:
                await conn.execute(
                    text(
                        "INSERT INTO users (id, first_name, locale, language_code) "
                        "VALUES (:u, 'GM', :l, :code)"
                    ),
                    {"u": -chat, "l": gm_locale, "code": code},
                )
                await conn.execute(
                    text("INSERT INTO chats (id, type, locale) VALUES (:c, :k, :l)"),
                    {"c": chat, "k": kind, "l": locale},
                )
                await conn.execute(
                    text(
                        "INSERT INTO games (chat_id, system, title, gm_user_id, timezone, "
                        "archived_at) VALUES (:c, 'fate', 'G', :u, 'UTC', now())"
                    ),
                    {"c": chat, "u": -chat},
                )
            # a later game of the first group, by an English GM: the first game's GM counts
            await conn.execute(
                text("INSERT INTO users (id, first_name, locale) VALUES (9, 'Later', 'en')")
            )
            game = await conn.scalar(
                text(
                    "INSERT INTO games (chat_id, system, title, gm_user_id, timezone) "
                    "VALUES (-1, 'fate', 'G2', 9, 'UTC') RETURNING id"
                )
            )
            character = await conn.scalar(
                text(
                    "INSERT INTO characters (game_id, system, name, status, sheet, "
                    "schema_version, version) VALUES (:g, 'fate', 'A', 'active', '{}', 1, 1) "
                    "RETURNING id"
                ),
                {"g": game},
            )
            await conn.execute(
                text(
                    "INSERT INTO res_panels (character_id, chat_id, message_id, locale) "
                    "VALUES (:c, -1, 5, 'en')"
                ),
                {"c": character},
            )
            await conn.execute(text("INSERT INTO chats (id, type) VALUES (7, 'private')"))
        await migrate(engine, action="upgrade", revision="0024")
        async with engine.connect() as conn:
            rows = await conn.execute(text("SELECT id, locale FROM chats ORDER BY id"))
            assert dict(rows.all()) == {-4: None, -3: "ru", -2: "en", -1: "ru", 7: None}
            assert await conn.scalar(text("SELECT locale FROM res_panels")) == "ru"
    finally:
        await engine.dispose()
        await drop_database(admin_url, name)
