"""Milestones at scale: one scheduled occurrence shared by 1,000 fate games of 10 characters
each (10,000 characters), fired as the scheduler fires it (a job per schedule, all due at
09:00) against the Bot API emulator with Telegram's flood limits on, the notices paced by the
bot's own outbound layer (30 messages/s in all).

Database time, two ways:

* ``db_seconds`` (client): the sum, over every statement, of the time from SQLAlchemy's
  ``before_cursor_execute`` to ``after_cursor_execute`` (the asyncpg round trip: send, server
  work, result back; the transaction's BEGIN, which asyncpg issues with the first statement,
  included), plus each COMMIT/ROLLBACK as asyncpg's query logger timed it. It runs while
  notices go out on the same event loop, so a waiting result may count some of their time:
  an upper bound.
* ``db_server_active_seconds`` (server): ``pg_stat_database.active_time`` of the bench's own
  database over the run (PostgreSQL 14+: time its backends spent executing statements).
"""

from __future__ import annotations

import asyncio
import time
import uuid
import weakref
from datetime import UTC, datetime, timedelta
from typing import Any

from sqlalchemy import event, text
from sqlalchemy.ext.asyncio import AsyncEngine

from bot import jobs
from bot.factory import create_bot
from bot.i18n import I18n
from db.database import create_engine, create_session_factory, migrate
from engine.systems import fate
from handlers.views import job_notices
from tests.conftest import _asyncpg_url, create_database, drop_database, with_database
from tgemu import BotAPIEmulator

GAMES, PER_GAME = 1000, 10
FIRST_CHAT = -1_000_000
CREATED = datetime(2027, 10, 27, 12, tzinfo=UTC)
DUE = datetime(2027, 10, 28, 6, tzinfo=UTC)  # 09:00 in Moscow


async def _seed(engine: AsyncEngine) -> list[tuple[int, int]]:
    """(schedule id, chat id) of every game: a daily minor milestone at 09:00 Moscow."""
    sheet = fate.new_character("Герой").model_copy(
        update={"fate_points": 1, "stress": fate.StressMarks(physical=(1,))}
    )
    async with engine.begin() as conn:
        games = (
            await conn.execute(
                text(
                    "INSERT INTO games (chat_id, system, title, gm_user_id, timezone, options) "
                    "SELECT :first - g, 'fate', 'bench', 1, 'Europe/Moscow', '{}'::jsonb "
                    "FROM generate_series(1, :n) g ORDER BY g RETURNING id, chat_id"
                ),
                {"first": FIRST_CHAT, "n": GAMES},
            )
        ).all()
        ids = [g[0] for g in games]
        await conn.execute(
            text(
                # name_key: engine.common.name_key of the name («Герой 7» → «герой 7»)
                "INSERT INTO characters (game_id, owner_user_id, is_npc, system, name, name_key, "
                "status, sheet, schema_version, version) "
                "SELECT g.id, 1000 + c, false, 'fate', 'Герой ' || c, 'герой ' || c, 'active', "
                "CAST(:sheet AS jsonb), 1, 1 "
                "FROM unnest(CAST(:ids AS int[])) AS g(id), generate_series(1, :per) c"
            ),
            {"sheet": sheet.model_dump_json(), "ids": ids, "per": PER_GAME},
        )
        schedules = (
            await conn.execute(
                text(
                    "INSERT INTO schedules (game_id, kind, weekday, minute_of_day, created_by, "
                    "created_at) SELECT g.id, 'minor', NULL, 540, 1, :created "
                    "FROM unnest(CAST(:ids AS int[])) WITH ORDINALITY AS g(id, n) ORDER BY n "
                    "RETURNING id"
                ),
                {"ids": ids, "created": CREATED},
            )
        ).scalars()
        return [(s, g[1]) for s, g in zip(schedules, games, strict=True)]


async def _active_seconds(admin_url: str, name: str) -> float:
    """``active_time`` of the database; its backends flush their counts when they exit."""
    import asyncpg

    await asyncio.sleep(0.5)
    conn = await asyncpg.connect(_asyncpg_url(admin_url))
    try:
        ms = await conn.fetchval(
            "SELECT active_time FROM pg_stat_database WHERE datname = $1", name
        )
    finally:
        await conn.close()
    return float(ms or 0.0) / 1000


class _DatabaseClock:
    """Client-side time in database calls (see the module's docstring)."""

    def __init__(self, engine: AsyncEngine) -> None:
        self.seconds = 0.0
        self.statements = 0
        self.last_commit = 0.0
        self._hooked: weakref.WeakSet[Any] = weakref.WeakSet()
        sync = engine.sync_engine
        event.listen(sync, "before_cursor_execute", self._before)
        event.listen(sync, "after_cursor_execute", self._after)
        event.listen(sync, "checkout", self._checkout)

    def _before(self, *args: Any) -> None:
        args[4]._bench_started = time.perf_counter()

    def _after(self, *args: Any) -> None:
        self.seconds += time.perf_counter() - args[4]._bench_started
        self.statements += 1

    def _checkout(self, dbapi_connection: Any, *_: Any) -> None:
        driver = dbapi_connection.driver_connection
        if driver not in self._hooked:
            self._hooked.add(driver)
            driver.add_query_logger(self._logged)

    def _logged(self, record: Any) -> None:
        if record.query.startswith(("COMMIT", "ROLLBACK")):
            self.seconds += record.elapsed
            self.last_commit = time.perf_counter()


async def _loop_lag(stop: asyncio.Event, lags: list[float]) -> None:
    """How long the event loop kept a 10 ms sleeper waiting past its time, each time (the
    worst includes one-off work: aiogram's first reply builds its response models)."""
    while not stop.is_set():
        started = time.perf_counter()
        await asyncio.sleep(0.01)
        lags.append(time.perf_counter() - started - 0.01)


async def run(admin_url: str) -> dict[str, Any]:
    name = f"bench_ms_{uuid.uuid4().hex[:8]}"
    await create_database(admin_url, name)
    url = with_database(admin_url, name)
    engine = create_engine(url)
    emu = BotAPIEmulator(enforce_flood_limits=True)
    await emu.start(host="127.0.0.1", port=0)
    bot = create_bot(emu.token, api_url=emu.base_url)  # the production pace
    try:
        await migrate(engine)
        tables = await _seed(engine)
        for _, chat_id in tables:
            emu.add_group(chat_id, "bench")
        await engine.dispose()  # the seeding's backends exit: their counts flushed
        active_before = await _active_seconds(admin_url, name)
        clock = _DatabaseClock(engine)
        context = jobs.JobContext(
            create_session_factory(engine),
            bot,
            I18n("ru"),
            lambda: DUE + timedelta(seconds=1),
            views=job_notices,
        )
        stop, lags = asyncio.Event(), [0.0]
        lag_task = asyncio.create_task(_loop_lag(stop, lags))
        started = time.perf_counter()
        # As the scheduler runs them: every schedule's job starts at 09:00.
        await asyncio.gather(*(jobs.fire_schedule(s, context=context) for s, _ in tables))
        wall = time.perf_counter() - started
        stop.set()
        await lag_task
        applied = clock.last_commit - started
        async with engine.connect() as conn:
            counts = (
                await conn.execute(
                    text(
                        "SELECT (SELECT count(*) FROM ledger), "
                        "(SELECT count(DISTINCT batch) FROM ledger), "
                        "(SELECT count(*) FROM schedule_occurrences WHERE status = 'applied'), "
                        "(SELECT count(*) FROM characters WHERE version = 2)"
                    )
                )
            ).one()
        statements = clock.statements
        await engine.dispose()
        server = await _active_seconds(admin_url, name) - active_before
        sends = emu.calls_to("sendMessage")
        return {
            "games": GAMES,
            "characters": GAMES * PER_GAME,
            "db_seconds": round(clock.seconds, 3),
            "db_server_active_seconds": round(server, 3),
            "apply_seconds": round(applied, 2),
            "characters_per_second": round(GAMES * PER_GAME / applied),
            "wall_seconds_with_notices": round(wall, 2),
            "notices_sent": sum(1 for c in sends if c.ok),
            "http_429": sum(1 for c in emu.calls if c.error_code == 429),
            "sql_statements": statements,
            "batch_games": jobs.BATCH_GAMES,
            "event_loop_lag_p99_ms": round(sorted(lags)[len(lags) * 99 // 100] * 1000, 1),
            "event_loop_lag_max_ms": round(max(lags) * 1000, 1),
            "ledger_rows": counts[0],
            "ledger_batches": counts[1],
            "occurrences_applied": counts[2],
            "characters_changed_once": counts[3],
        }
    finally:
        await bot.session.close()
        await emu.stop()
        await engine.dispose()
        await drop_database(admin_url, name)
