"""One scheduled occurrence shared by many games (50 tables of 5 at 09:00 Berlin): applied in
batches, exactly once per game — with two leaders racing, and when a batch fails midway —
and every table's notice delivered once, at Telegram's pace, without a 429. Real Postgres,
the emulator's flood model, the bot's own outbound layer."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from datetime import UTC, datetime

import pytest
from aiogram import Bot
from sqlalchemy import text
from sqlalchemy.ext.asyncio import AsyncEngine

from bot import jobs
from bot.factory import create_bot
from bot.i18n import I18n
from db.database import create_session_factory
from engine.systems import fate
from handlers.views import job_notices
from tests.conftest import assert_no_bot_bugs
from tests.helpers.statements import orm_statements
from tests.schedules.helpers import Clock
from tgemu import BotAPIEmulator

GAMES, PER_GAME = 50, 5
FIRST_CHAT = -7_700_000
CREATED = datetime(2027, 10, 27, 12, tzinfo=UTC)
DUE = datetime(2027, 10, 28, 7, tzinfo=UTC)  # 09:00 in Berlin (summer time)


@pytest.fixture
async def flood_emulator() -> AsyncIterator[BotAPIEmulator]:
    """Telegram's limits enforced: a client going over them gets a 429."""
    emu = BotAPIEmulator(enforce_flood_limits=True)
    await emu.start(host="127.0.0.1", port=0)
    yield emu
    await emu.stop()
    assert_no_bot_bugs(emu)


@pytest.fixture
async def bot(flood_emulator: BotAPIEmulator) -> AsyncIterator[Bot]:
    made = create_bot(flood_emulator.token, api_url=flood_emulator.base_url)  # production pace
    yield made
    await made.session.close()


async def _tables(engine: AsyncEngine, emu: BotAPIEmulator) -> list[tuple[int, int, int]]:
    """(game id, chat id, schedule id) of GAMES fate tables of PER_GAME characters, each
    with a daily minor milestone at 09:00 Berlin."""
    sheet = fate.new_character("Мира").model_copy(update={"fate_points": 1, "refresh": 3})
    async with engine.begin() as conn:
        rows = (
            await conn.execute(
                text(
                    "INSERT INTO games (chat_id, system, title, gm_user_id, timezone, options) "
                    "SELECT :first - g, 'fate', 'Стол', 7, 'Europe/Berlin', '{}'::jsonb "
                    "FROM generate_series(0, :n - 1) g ORDER BY g RETURNING id, chat_id"
                ),
                {"first": FIRST_CHAT, "n": GAMES},
            )
        ).all()
        await conn.execute(
            text(
                "INSERT INTO characters (game_id, owner_user_id, is_npc, system, name, "
                "name_key, status, sheet, schema_version, version) "
                "SELECT g.id, 1000 + c, false, 'fate', 'Мира ' || c, 'мира ' || c, 'active', "
                "CAST(:sheet AS jsonb), 1, 1 "
                "FROM unnest(CAST(:ids AS int[])) AS g(id), generate_series(1, :per) c"
            ),
            {"sheet": sheet.model_dump_json(), "ids": [r[0] for r in rows], "per": PER_GAME},
        )
        schedules = (
            await conn.execute(
                text(
                    "INSERT INTO schedules (game_id, kind, weekday, minute_of_day, created_by, "
                    "created_at) SELECT g.id, 'minor', NULL, 540, 7, :created "
                    "FROM unnest(CAST(:ids AS int[])) WITH ORDINALITY AS g(id, n) ORDER BY n "
                    "RETURNING id"
                ),
                {"ids": [r[0] for r in rows], "created": CREATED},
            )
        ).scalars()
        tables = [(r[0], r[1], s) for r, s in zip(rows, schedules, strict=True)]
    for _, chat_id, _ in tables:
        emu.add_group(chat_id, "Стол")
    return tables


def _context(engine: AsyncEngine, bot: Bot, clock: Clock) -> jobs.JobContext:
    return jobs.JobContext(
        create_session_factory(engine), bot, I18n("ru"), clock, views=job_notices
    )


async def _rows(engine: AsyncEngine, sql: str) -> list[tuple[object, ...]]:
    async with engine.connect() as conn:
        return [tuple(r) for r in (await conn.execute(text(sql))).all()]


async def _applied_once(engine: AsyncEngine, tables: list[tuple[int, int, int]]) -> None:
    """Every table: one applied occurrence, one ledger batch of PER_GAME rows, each sheet
    changed once (1 → 3 fate points, version 2)."""
    occurrences = await _rows(
        engine, "SELECT schedule_id, occurrence_at, status, batch FROM schedule_occurrences"
    )
    assert sorted((o[0], o[1], o[2]) for o in occurrences) == [
        (schedule_id, DUE, "applied") for _, _, schedule_id in tables
    ]
    batches = await _rows(
        engine, "SELECT game_id, batch, count(*) FROM ledger GROUP BY game_id, batch"
    )
    assert sorted((b[0], b[2]) for b in batches) == [(g, PER_GAME) for g, _, _ in tables]
    # the occurrence names the ledger batch it wrote (what the notice's undo button undoes)
    assert {o[3] for o in occurrences} == {b[1] for b in batches}
    sheets = await _rows(
        engine,
        "SELECT game_id, version, (sheet->>'fate_points')::int, count(*) FROM characters "
        "GROUP BY game_id, version, (sheet->>'fate_points')::int",
    )
    games = sorted(g for g, _, _ in tables)
    assert sorted(s for s in sheets if s[0] in games) == [(g, 2, 3, PER_GAME) for g in games]


def _notices_once(emu: BotAPIEmulator, tables: list[tuple[int, int, int]]) -> None:
    """One notice in every table's chat, naming the change; no 429 on the way."""
    for _, chat_id, _ in tables:
        posts = [m.text for m in emu.bot_messages(chat_id)]
        assert len(posts) == 1 and "1 → 3" in posts[0] and "⏰" in posts[0], (chat_id, posts)
    assert [c.error_code for c in emu.calls if c.error_code == 429] == []
    assert len([c for c in emu.calls_to("sendMessage") if c.ok]) == len(tables)


async def test_one_tick_of_fifty_games_once_with_two_leaders(
    clean_db: AsyncEngine, flood_emulator: BotAPIEmulator, bot: Bot
) -> None:
    engine, emu = clean_db, flood_emulator
    tables = await _tables(engine, emu)
    clock = Clock(DUE.replace(second=1))
    first, second = _context(engine, bot, clock), _context(engine, bot, clock)
    with orm_statements(engine) as statements:
        # The first leader's scheduler starts every schedule's job at 09:00; a second leader
        # (a takeover, a process that thinks it leads) catches up at the same moment.
        await asyncio.gather(
            *(jobs.fire_schedule(s, context=first) for _, _, s in tables),
            jobs.catch_up(context=second),
        )
    await _applied_once(engine, tables)
    _notices_once(emu, tables)
    # A tick's round trips do not grow with its games (one transaction per game took
    # about a dozen statements per game).
    assert len(statements) < GAMES, statements

    # A later run (a restart, a misfire) finds nothing to do.
    await jobs.catch_up(context=_context(engine, bot, clock))
    await _applied_once(engine, tables)
    _notices_once(emu, tables)


async def test_a_failed_batch_rolls_back_alone_and_is_redone(
    clean_db: AsyncEngine,
    flood_emulator: BotAPIEmulator,
    bot: Bot,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    engine, emu = clean_db, flood_emulator
    tables = await _tables(engine, emu)
    monkeypatch.setattr(jobs, "BATCH_GAMES", 10)  # five batches
    broken_game = tables[14][0]  # in the second batch
    async with engine.begin() as conn:  # the database refuses that game's ledger rows
        await conn.execute(
            text(
                "CREATE FUNCTION test_tick_fault() RETURNS trigger LANGUAGE plpgsql AS $$ "
                f"BEGIN IF NEW.game_id = {broken_game} THEN RAISE EXCEPTION 'fault'; END IF; "
                "RETURN NEW; END $$"
            )
        )
        await conn.execute(
            text(
                "CREATE TRIGGER test_tick_fault BEFORE INSERT ON ledger "
                "FOR EACH ROW EXECUTE FUNCTION test_tick_fault()"
            )
        )
    clock = Clock(DUE.replace(second=1))
    try:
        await jobs.fire_schedules([s for _, _, s in tables], context=_context(engine, bot, clock))
        # The failed batch was rolled back whole and redone table by table: all but the
        # broken table are applied, once; the broken one not at all (no occurrence taken).
        healthy = [t for t in tables if t[0] != broken_game]
        await _applied_once(engine, healthy)
        versions = await _rows(
            engine, f"SELECT DISTINCT version FROM characters WHERE game_id = {broken_game}"
        )
        assert versions == [(1,)]
        _notices_once(emu, healthy)
    finally:
        async with engine.begin() as conn:
            await conn.execute(text("DROP TRIGGER test_tick_fault ON ledger"))
            await conn.execute(text("DROP FUNCTION test_tick_fault()"))

    # The next start catches up: the broken table now, nobody twice.
    clock.at = DUE.replace(minute=30)
    await jobs.catch_up(context=_context(engine, bot, clock))
    await _applied_once(engine, tables)
    _notices_once(emu, tables)


async def test_two_schedules_of_one_game_at_one_tick_apply_in_turn(
    clean_db: AsyncEngine, flood_emulator: BotAPIEmulator, bot: Bot
) -> None:
    engine, emu = clean_db, flood_emulator
    tables = await _tables(engine, emu)
    game_id, chat_id, rest = tables[0]
    async with engine.begin() as conn:  # the first table: marked stress, a rest stop, then
        await conn.execute(  # a minor milestone at the same minute
            text(
                "UPDATE characters SET sheet = jsonb_set(sheet, '{stress,physical}', '[1]') "
                "WHERE game_id = :g"
            ),
            {"g": game_id},
        )
        await conn.execute(
            text("UPDATE schedules SET kind = 'rest_stop' WHERE id = :s"), {"s": rest}
        )
        minor = (
            await conn.execute(
                text(
                    "INSERT INTO schedules (game_id, kind, weekday, minute_of_day, created_by, "
                    "created_at) VALUES (:g, 'minor', NULL, 540, 7, :created) RETURNING id"
                ),
                {"g": game_id, "created": CREATED},
            )
        ).scalar_one()
    clock = Clock(DUE.replace(second=1))
    with orm_statements(engine) as statements:
        await jobs.fire_schedules([minor, rest], context=_context(engine, bot, clock))
    # In schedule order: the rest stop clears the stress, then the minor milestone refills
    # the fate points on what it left — one ledger batch each, versions chained 1 → 2 → 3,
    # written in two statements (one per round of changes to the same characters).
    entries = await _rows(
        engine,
        "SELECT kind, character_id, version_before, version_after, "
        "(sheet_before->>'fate_points')::int, (sheet_after->>'fate_points')::int, "
        "jsonb_array_length(sheet_before->'stress'->'physical'), "
        "jsonb_array_length(sheet_after->'stress'->'physical') FROM ledger ORDER BY id",
    )
    characters = sorted({e[1] for e in entries})
    assert len(characters) == PER_GAME
    assert entries == [("milestone.rest_stop", c, 1, 2, 1, 1, 1, 0) for c in characters] + [
        ("milestone.minor", c, 2, 3, 1, 3, 0, 0) for c in characters
    ]
    assert len([s for s in statements if s.startswith("WITH v AS")]) == 2
    posts = [m.text for m in emu.bot_messages(chat_id)]
    assert len(posts) == 2 and "1 → 3" not in posts[0] and "1 → 3" in posts[1]
    occurrences = await _rows(
        engine, "SELECT schedule_id, status FROM schedule_occurrences ORDER BY schedule_id"
    )
    assert occurrences == [(rest, "applied"), (minor, "applied")]


async def test_a_run_killed_midway_is_finished_once_by_the_next_start(
    clean_db: AsyncEngine,
    flood_emulator: BotAPIEmulator,
    bot: Bot,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    engine, emu = clean_db, flood_emulator
    tables = await _tables(engine, emu)
    monkeypatch.setattr(jobs, "BATCH_GAMES", 10)
    clock = Clock(DUE.replace(second=1))
    ids = [s for _, _, s in tables]
    killed = asyncio.create_task(jobs.fire_schedules(ids, context=_context(engine, bot, clock)))
    loop = asyncio.get_running_loop()
    deadline = loop.time() + 30
    while not (await _rows(engine, "SELECT 1 FROM schedule_occurrences LIMIT 1")):
        assert loop.time() < deadline and not killed.done()
        await asyncio.sleep(0.005)
    killed.cancel()  # the process dies after the first batch committed, somewhere in the next
    with pytest.raises(asyncio.CancelledError):
        await killed
    done = len(await _rows(engine, "SELECT 1 FROM schedule_occurrences"))
    assert 0 < done < GAMES and done % 10 == 0  # whole batches only

    await jobs.catch_up(context=_context(engine, bot, clock))  # the next start
    await _applied_once(engine, tables)
    # Notices go after the commit: those queued when the process died are lost, none twice.
    for _, chat_id, _ in tables:
        posts = [m.text for m in emu.bot_messages(chat_id)]
        assert len(posts) <= 1 and all("1 → 3" in p for p in posts)
    sent = {c.params.get("chat_id") for c in emu.calls_to("sendMessage") if c.ok}
    assert len(sent) >= GAMES - done
    assert [c for c in emu.calls if c.error_code == 429] == []
